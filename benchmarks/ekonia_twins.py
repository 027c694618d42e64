"""How many twin games the Ekonia visibility property compares, and how many differences it sees.

Run: .venv/bin/python benchmarks/ekonia_twins.py [--games N] [--seed S]
Plays N random twin pairs per kind of hidden fact (tests/rules/ekonia/test_visibility_property.py:
one state's records, a unit hidden in its capital, a hidden ship yard and gas vent, who owns a
privateer; and the generated shapes: privateers sharing lanes with flagged ships and with each
other, trade proposed with and without a partner, hidden troops where others march) and
prints, per kind, the games played, the turns compared, the battles fought in them (those
with privateers), the views compared (state views, possible orders, order checks, histories,
the platform's view of the log) and the differences seen. A difference is a failed
comparison: the viewer could tell the twins apart.
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the repository: tests below

from tests.rules.ekonia import test_visibility_property as twins  # noqa: E402


def random_game(rng: random.Random) -> dict:
    return {"seed": rng.randrange(10_000), "shape": rng.randrange(2**12),
            "turns": [{p: [rng.randrange(400) for _ in range(rng.randrange(6))] for p in twins.POWERS}
                      for _ in range(rng.randrange(2, 6))]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="twin pairs per kind")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    total = {"pairs": 0, "differences": 0}
    for kind in (*twins.KINDS, *twins.SHAPES):
        started = time.perf_counter()
        before = dict(twins.TWINS)
        turns = battles = privateer_battles = failed = 0
        resolve = twins.resolve

        def counting(state, orders, seed, resolve=resolve):
            nonlocal turns, battles, privateer_battles
            out = resolve(state, orders, seed)
            turns += 1
            battles += len(out["details"]["battles"])
            privateer_battles += sum(1 for b in out["details"]["battles"] if any(s["privateers"] for s in b["sides"]))
            return out

        twins.resolve = counting
        try:
            for _ in range(args.games):
                game = random_game(rng)
                try:
                    if kind in twins.SHAPES:
                        twins.play_shape_twins(game, rng.choice(twins.POWERS), kind)
                    else:
                        twins.play_twins(game, rng.choice(twins.POWERS), kind)
                except AssertionError:
                    failed += 1
        finally:
            twins.resolve = resolve
        pairs = twins.TWINS["pairs"] - before["pairs"]
        differences = twins.TWINS["differences"] - before["differences"]
        total["pairs"] += pairs
        total["differences"] += differences
        print(f"{kind:13} games {args.games:4}  turns resolved {turns // 2:4}  battles {battles // 2:4}"
              f" (with privateers {privateer_battles // 2:3})  views compared {pairs:6}  differences {differences}"
              f"  games told apart {failed}  {time.perf_counter() - started:.1f} s")
    print(f"{'all':13} views compared {total['pairs']}  differences {total['differences']}")
    return 0 if total["differences"] == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
