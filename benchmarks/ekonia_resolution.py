"""How long a Tale of Ekonia turn takes to resolve, and a digest of everything the games wrote.

Run: .venv/bin/python benchmarks/ekonia_resolution.py [--games N] [--turns T] [--repeats R]
Plays N games of up to T turns on the real map, six states, each state ordering a few of its
possible orders drawn by a seeded generator (with war declared early, so that battles happen).
Times ``VARIANT.resolve`` of every turn, every viewer's ``view`` and every state's
``possible_orders`` of every position (R runs of the whole set, the fastest kept: the one least
disturbed by the machine) and prints the time per turn and in all, the battles fought, and
one SHA-256 over every stored state document (its bytes as written, key order included), each
turn's results and details, and each viewer's position view, history view, possible orders and
order checks. Two versions of the engine that print the same digest store and show the same
bytes; the digest is how a change of the engine's inner types is checked against the one before.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the repository

from shared.rules.ekonia.records import EkoniaState  # noqa: E402
from shared.rules.variants.ekonia import VARIANT  # noqa: E402


def pick_orders(rng: random.Random, state: EkoniaState, power: str, turn: int) -> list[str]:
    """A few of ``power``'s possible orders, and war on a neighbour in the first turns."""
    menu = VARIANT.possible_orders(state, power)
    texts = [t for options in menu.values() for t in options]
    chosen = rng.sample(texts, min(len(texts), rng.randrange(2, 9)))
    if turn <= 3:
        chosen += [t for t in texts if t.startswith("WAR")][:1]
    return chosen


def play(seed: int, turns: int) -> list[tuple[EkoniaState, dict[str, list[str]], int]]:
    """One game's turns: the position, the orders given, the turn's seed."""
    rng = random.Random(seed)
    state = VARIANT.opening({}, seed).state
    played = []
    for turn in range(1, turns + 1):
        orders = {p: pick_orders(rng, state, p, turn) for p in sorted(VARIANT.surviving(state))}
        played.append((state, orders, seed * 1000 + turn))
        outcome = VARIANT.resolve(state, orders, settings={}, seed=seed * 1000 + turn)
        if outcome.winners:
            break
        state = outcome.state
    return played


def digest_of(played: list[tuple[EkoniaState, dict[str, list[str]], int]], sha: Any) -> int:
    """Every byte the turns write and show, fed to ``sha``; returns the battles fought."""
    battles = 0
    for state, orders, seed in played:
        outcome = VARIANT.resolve(state, orders, settings={}, seed=seed)
        battles += len(outcome.details["battles"])
        resolved = {"phase": outcome.phase, "orders": outcome.orders, "next_phase": outcome.next_phase,
                    "details": outcome.details, "position_before": state, "position": outcome.state}
        sha.update(json.dumps(resolved, ensure_ascii=False).encode())
        for viewer in [None, *sorted(state["powers"])]:
            shown: list[Any] = [VARIANT.view(outcome.state, viewer), VARIANT.history_view(resolved, viewer)]
            if viewer is not None:
                shown.append(VARIANT.possible_orders(outcome.state, viewer))
                shown.append([c.as_json() for c in VARIANT.check_orders(state, viewer, orders.get(viewer, []))])
            sha.update(json.dumps(shown, ensure_ascii=False).encode())
    return battles


def fastest(repeats: int, work: Callable[[], object]) -> float:
    """The least CPU time of ``repeats`` runs of ``work``, in seconds."""
    best = float("inf")
    for _ in range(repeats):
        started = time.process_time()
        work()
        best = min(best, time.process_time() - started)
    return best


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--turns", type=int, default=12)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    games = [play(seed, args.turns) for seed in range(1, args.games + 1)]
    turns = [turn for game in games for turn in game]
    best = fastest(args.repeats, lambda: [VARIANT.resolve(s, o, settings={}, seed=seed) for s, o, seed in turns])
    powers = sorted(VARIANT.powers())
    viewers: list[str | None] = [None, *powers]
    views = fastest(args.repeats, lambda: [VARIANT.view(s, v) for s, _, _ in turns for v in viewers])
    menus = fastest(args.repeats, lambda: [VARIANT.possible_orders(s, p) for s, _, _ in turns for p in powers])
    sha = hashlib.sha256()
    battles = sum(digest_of(game, sha) for game in games)
    print(f"games {len(games)}  turns {len(turns)}  battles {battles}")
    print(f"resolution: {best:.3f} s CPU in all, {best / len(turns) * 1000:.2f} ms a turn (fastest of {args.repeats})")
    print(f"views: {views / (len(turns) * len(viewers)) * 1000:.3f} ms a position and viewer;"
          f" possible orders: {menus / (len(turns) * len(powers)) * 1000:.2f} ms a position and state")
    print(f"digest {sha.hexdigest()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
