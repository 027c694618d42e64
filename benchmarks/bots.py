"""The house bots' ladder: how strong the heuristic bot is, as measured figures.

Run: python benchmarks/bots.py [--seeds 3] [--years 15] [--seed 1] [--ladder]

Plays seeded standard games on the engine alone (the variant's own ``resolve``, as the hosted
game does) between the heuristic house bot and the DumbBot yardstick (shared/rules/bots/dumbbot.py,
written from DumbBot's published description). Two tables, each over the seven seatings (the
lone bot plays each power in turn) times ``--seeds`` seeds, 1901 to the end of ``--years`` game
years or a solo (18 centres):

- one heuristic bot against six DumbBots: its share of all centres, its solos, the DumbBots' solos;
- six heuristic bots against one DumbBot: the mirror.

A fair share for the lone bot is 1/7 (14.3 %). Then the heuristic bot's CPU time for a whole
phase (all seven powers' orders) over the positions the games went through: median, p99 and
worst, so the aim "a whole standard phase under 50 ms" is a printed figure. ``--ladder`` adds
the older table: the heuristic bot in one seat against six holding or six random bots.
docs/bots.md keeps the last run's figures and the command that made them.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from shared.rules.bots import orders_for  # noqa: E402
from shared.rules.bots.strong import predicted  # noqa: E402
from shared.rules.variants import get_variant  # noqa: E402

POWERS = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")
SOLO = 18


def play(lone_power: str, lone: str, others: str, years: int, seed: int,
         positions: list[Mapping[str, Any]]) -> tuple[dict[str, int], list[str]]:
    """One game: each power's centres at the end, the winners."""
    rules = get_variant("standard")
    state = rules.opening({"player_count": 7}, seed).state
    strengths = {p: (lone if p == lone_power else others) for p in POWERS}
    winners: list[str] = []
    while int(str(state["phase"])[1:5]) < 1901 + years and not winners:
        positions.append(state)
        orders = {p: orders_for("standard", state, p, strength=strengths[p], seed=seed)  # type: ignore[arg-type]
                  for p in POWERS if rules.possible_orders(state, p)}
        outcome = rules.resolve(state, orders, settings={"player_count": 7}, seed=seed)
        state, winners = outcome.state, outcome.winners
    return {p: len(state["centers"].get(p, [])) for p in POWERS}, winners


def table(lone: str, others: str, seeds: int, years: int, first_seed: int,
          positions: list[Mapping[str, Any]]) -> str:
    shares: list[float] = []
    lone_solos = other_solos = games = 0
    for seed in range(first_seed, first_seed + seeds):
        for lone_power in POWERS:
            centres, winners = play(lone_power, lone, others, years, seed * 100 + POWERS.index(lone_power), positions)
            games += 1
            shares.append(centres[lone_power] / max(1, sum(centres.values())))
            lone_solos += lone_power in winners
            other_solos += any(w != lone_power for w in winners)
    return (f"| one {lone} against six {others} | {games} | {statistics.mean(shares):.1%} "
            f"| {1 - statistics.mean(shares):.1%} | {lone_solos} | {other_solos} |")


def phase_times(positions: list[Mapping[str, Any]], strength: str) -> str:
    """CPU time (the machine may be shared) of all seven powers' orders, per position."""
    rules = get_variant("standard")
    ms: list[float] = []
    for state in positions:
        acting = [p for p in POWERS if rules.possible_orders(state, p)]
        predicted.cache_clear()  # the others' guessed orders worked out afresh, as in a new phase
        started = time.process_time()
        for power in acting:
            orders_for("standard", state, power, strength=strength, seed=1)  # type: ignore[arg-type]
        ms.append((time.process_time() - started) * 1000)
    ms.sort()
    return (f"{strength}: a whole phase, all seven powers: median {statistics.median(ms):.1f} ms, "
            f"p99 {ms[int(len(ms) * 0.99)]:.1f} ms, worst {ms[-1]:.1f} ms over {len(ms)} phases")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seeds", type=int, default=3, help="seeds per table (each plays the seven seatings)")
    parser.add_argument("--years", type=int, default=15, help="game years at most (1901 on)")
    parser.add_argument("--seed", type=int, default=1, help="the first seed")
    parser.add_argument("--ladder", action="store_true", help="also one heuristic bot against holding and random bots")
    args = parser.parse_args()
    positions: list[Mapping[str, Any]] = []
    print(f"standard games, 1901 to {1900 + args.years} or a solo; seeds {args.seed}.."
          f"{args.seed + args.seeds - 1} x 7 seatings per row")
    print("| table | games | the lone bot's share of centres | the six's share | the lone bot's solos "
          "| the six's solos |")
    print("| --- | --- | --- | --- | --- | --- |")
    print(table("heuristic", "dumbbot", args.seeds, args.years, args.seed, positions), flush=True)
    print(table("dumbbot", "heuristic", args.seeds, args.years, args.seed, positions), flush=True)
    if args.ladder:
        for others in ("holding", "random"):
            print(table("heuristic", others, args.seeds, args.years, args.seed, positions), flush=True)
    sample = positions[:: max(1, len(positions) // 600)]
    print(phase_times(sample, "heuristic"))
    print(phase_times(sample, "dumbbot"))


if __name__ == "__main__":
    main()
