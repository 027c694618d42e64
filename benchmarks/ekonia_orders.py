"""How long a Tale of Ekonia order check takes for the worst orders a visitor can write.

Run: .venv/bin/python benchmarks/ekonia_orders.py [--repeats R]
Checks each submission of tests/ekonia/test_http_game.py's WORST_ORDERS (huge counts and
gold, promises of gold, unicode digits, 64 orders of a submission) for Vieren at the opening,
and a plain submission for comparison, R times each; prints the fastest run of each (the one
least disturbed by the machine) in milliseconds, and the worst of them.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the repository: tests below

from shared.rules.ekonia.records import EkoniaState  # noqa: E402
from shared.rules.variants.ekonia import VARIANT  # noqa: E402
from tests.games.test_ekonia_game import WORST_ORDERS  # noqa: E402

PLAIN = ["BUY 2 INFANTRY AT vieren", "MOVE 3 INFANTRY vieren -> ninerest", "MOVE 1 TRIREME vesk-bay -> ardel-narrows"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    state = VARIANT.opening({}, 1).state
    worst = 0.0
    for orders in [PLAIN, *WORST_ORDERS]:
        best = min(_timed(state, orders) for _ in range(args.repeats))
        worst = max(worst, best) if orders is not PLAIN else worst
        print(f"{best * 1000:8.2f} ms  {len(orders):2} orders  {orders[0][:60]!r}")
    started = time.perf_counter()
    VARIANT.possible_orders(state, "VIEREN")
    print(f"{(time.perf_counter() - started) * 1000:8.2f} ms  possible orders of Vieren")
    print(f"worst order check: {worst * 1000:.2f} ms")
    return 0


def _timed(state: EkoniaState, orders: list[str]) -> float:
    started = time.perf_counter()
    VARIANT.check_orders(state, "VIEREN", orders)
    return time.perf_counter() - started


if __name__ == "__main__":
    raise SystemExit(main())
