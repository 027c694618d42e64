"""How long `possible_orders_all` takes for a whole board (all seven powers).

Run: /work/venv/bin/python benchmarks/possible_orders.py [--positions N] [--repeats R]
Positions are movement phases met in seeded random games, so the board is full (33 or 34
units) and holds fleets at sea. Each position is timed R times; the minimum counts (the run
least disturbed by the machine). Prints the median and the 90th percentile in microseconds.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from shared.rules.diplomacy.geography import load_map
from shared.rules.diplomacy.phase import PhaseType
from shared.rules.diplomacy.possible import possible_orders_all
from tests.utils.random_play import random_positions


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=300)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args(argv)

    game_map = load_map("standard")
    positions = [
        p for p in random_positions(args.seed, args.positions * 2, PhaseType.MOVEMENT)
        if len(p.units) >= 30
    ][: args.positions]
    possible_orders_all(positions[0], game_map)  # build the per-map tables outside the timing

    timings_us: list[float] = []
    counts: list[int] = []
    for position in positions:
        best = None
        for _ in range(args.repeats):
            start = time.perf_counter_ns()
            menus = possible_orders_all(position, game_map)
            elapsed = time.perf_counter_ns() - start
            best = elapsed if best is None else min(best, elapsed)
        assert best is not None
        timings_us.append(best / 1000)
        counts.append(sum(len(orders) for menu in menus.values() for orders in menu.values()))

    units = statistics.mean(len(p.units) for p in positions)
    print(f"possible_orders_all, standard map: {len(positions)} full-board movement positions "
          f"({units:.1f} units, {statistics.mean(counts):.0f} orders on average), min of {args.repeats} runs each")
    print(f"  median {statistics.median(timings_us):8.1f} us per board")
    print(f"  p90    {percentile(timings_us, 0.9):8.1f} us per board")
    print(f"  max    {max(timings_us):8.1f} us per board")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
