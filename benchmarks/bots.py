"""The house bots' ladder: how strong the heuristic bot is, as a measured figure.

Run: python benchmarks/bots.py [--games 20] [--years 12] [--seed 1]

Plays seeded standard games on the engine alone (the variant's own ``resolve``, as the hosted
game does): in each table one seat is the heuristic bot (the seat turns with the game number,
so every power gets its turn) and the six others are the opponents (holding bots, then random
bots, then heuristic bots: the last is the mirror, where a fair share is 1/7). Prints the
heuristic seat's mean share of the centres at the end, its solo wins (18 centres) and how often
it ended with the most centres, per opponent kind; and the bot's time per phase (median and
worst, all seven powers' orders), so the aim "a whole standard phase in under 50 ms" is a
printed figure. docs/bots.md keeps the last run's figures.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from shared.rules.bots import Strength, orders_for  # noqa: E402
from shared.rules.variants import get_variant  # noqa: E402

POWERS = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")


def play(game: int, opponents: Strength, years: int, seed: int,
         timings: list[float]) -> tuple[str, dict[str, int], list[str]]:
    """One game: the heuristic seat, each power's centres at the end, the winners."""
    rules = get_variant("standard")
    state = rules.opening({"player_count": 7}, seed + game).state
    hero = POWERS[game % 7]
    strengths: dict[str, Strength] = {p: ("heuristic" if p == hero else opponents) for p in POWERS}
    winners: list[str] = []
    while int(str(state["phase"])[1:5]) < 1901 + years and not winners:
        must_act = [p for p in POWERS if rules.possible_orders(state, p)]
        started = time.process_time()  # CPU time: the machine may be shared
        orders = {p: orders_for("standard", state, p, strength=strengths[p], seed=seed * 1000 + game)
                  for p in must_act}
        timings.append(time.process_time() - started)
        outcome = rules.resolve(state, orders, settings={"player_count": 7}, seed=seed + game)
        state, winners = outcome.state, outcome.winners
    centres = {p: len(state["centers"].get(p, [])) for p in POWERS}
    return hero, centres, winners


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=14, help="games per opponent kind")
    parser.add_argument("--years", type=int, default=10, help="game years at most (1901 on)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    timings: list[float] = []
    print(f"{args.games} games per row, at most {args.years} years; the heuristic bot in one seat")
    print(f"{'opponents':<10} {'centre share':>12} {'solo wins':>10} {'most centres':>13}")
    for opponents in ("holding", "random", "heuristic"):
        shares, wins, tops = [], 0, 0
        for game in range(args.games):
            hero, centres, winners = play(game, opponents, args.years, args.seed, timings)
            shares.append(centres[hero] / max(1, sum(centres.values())))
            wins += hero in winners
            tops += centres[hero] == max(centres.values())
        print(f"{opponents:<10} {statistics.mean(shares):>11.1%} {wins:>6}/{args.games:<3} {tops:>9}/{args.games:<3}")
    ms = sorted(t * 1000 for t in timings)
    print(f"bot CPU time per phase, all powers: median {statistics.median(ms):.1f} ms, "
          f"p99 {ms[int(len(ms) * 0.99)]:.1f} ms, worst {ms[-1]:.1f} ms over {len(ms)} phases")


if __name__ == "__main__":
    main()
