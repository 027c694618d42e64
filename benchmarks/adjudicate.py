"""How long `adjudicate` takes for one full-board movement phase.

Run: /work/venv/bin/python benchmarks/adjudicate.py [--phases N] [--repeats R] [--datc]
The phases are the movement phases of seeded random games (tests/utils/random_play.py), from
the opening to crowded boards with convoys and dislodgements, with the random legal orders
those games were played with. Each phase is timed R times and the minimum counts (the run
least disturbed by the machine). Prints the median and 90th percentile per phase in
microseconds; ``--datc`` also times the DATC test files through pytest; ``--profile`` shows
where the time goes, function by function; ``--stages`` splits the median phase into the steps
of ``movement.py`` (it calls that module's private steps, so it follows their names).
"""
from __future__ import annotations

import argparse
import cProfile
import pstats
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the repository: tests.utils below

from shared.rules.diplomacy import movement
from shared.rules.diplomacy.adjudicate import adjudicate
from shared.rules.diplomacy.geography import load_map
from shared.rules.diplomacy.phase import PhaseType
from tests.utils.random_play import random_play

ROOT = Path(__file__).resolve().parent.parent


def movement_phases(count: int, seed: int) -> list[tuple]:
    """(position, orders) of ``count`` movement phases met in random games."""
    phases: list[tuple] = []
    game = 0
    while len(phases) < count:
        for position, orders, _ in random_play(seed * 1000 + game, phases=60):
            if position.phase.type is PhaseType.MOVEMENT:
                phases.append((position, orders))
        game += 1
    return phases[:count]


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def time_phases(phases: list[tuple], repeats: int) -> list[float]:
    timings_us = []
    for position, orders in phases:
        best = None
        for _ in range(repeats):
            start = time.perf_counter_ns()
            adjudicate(position, orders)
            elapsed = time.perf_counter_ns() - start
            best = elapsed if best is None else min(best, elapsed)
        assert best is not None
        timings_us.append(best / 1000)
    return timings_us


def median_of(phases: list[tuple], repeats: int, step) -> float:
    """Median over the phases of the best of ``repeats`` runs of ``step(position, orders)``."""
    timings_us = []
    for position, orders in phases:
        best = None
        for _ in range(repeats):
            start = time.perf_counter_ns()
            step(position, orders)
            elapsed = time.perf_counter_ns() - start
            best = elapsed if best is None else min(best, elapsed)
        assert best is not None
        timings_us.append(best / 1000)
    return statistics.median(timings_us)


def time_stages(phases: list[tuple], repeats: int) -> None:
    """Medians of ever longer prefixes of one movement phase; each stage is the difference."""
    game_map = load_map("standard")

    def setup(position, orders):
        return movement._Phase(position, orders, game_map)

    def read(position, orders):
        phase = setup(position, orders)
        phase._read_orders()
        return phase

    def match(position, orders):
        phase = read(position, orders)
        return phase, phase._match_orders()

    def resolve(position, orders):
        phase, moves = match(position, orders)
        phase._resolve(moves)

    steps = [
        ("setup: tables, one entry per unit", setup),
        ("reading and checking the orders", read),
        ("matching supports and convoys", match),
        ("the resolver", resolve),
        ("results, new units, dislodgements", lambda p, o: movement.resolve_movement(p, o, game_map)),
        ("adjudicate around it (next phase, centres)", adjudicate),
    ]
    before = 0.0
    print("stages (median phase, each the difference from the step before):")
    for name, step in steps:
        total = median_of(phases, repeats, step)
        print(f"  {name:45} {total - before:6.1f} us  (total {total:6.1f})")
        before = total


def time_datc() -> None:
    files = sorted(str(p) for p in (ROOT / "tests" / "adjudication").glob("test_datc_*.py"))
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *files],
                          cwd=ROOT, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    summary = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else done.stderr.strip()[-200:]
    print(f"DATC suite ({len(files)} files) through pytest: {elapsed:.2f} s wall, including start-up ({summary})")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--phases", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--datc", action="store_true", help="also time the DATC test files")
    parser.add_argument("--profile", action="store_true", help="print where the time goes")
    parser.add_argument("--stages", action="store_true", help="split a phase into the steps of movement.py")
    args = parser.parse_args(argv)

    start = time.perf_counter()
    phases = movement_phases(args.phases, args.seed)
    generated = time.perf_counter() - start
    units = statistics.mean(len(position.units) for position, _ in phases)
    orders = statistics.mean(sum(len(o) for o in orders.values()) for _, orders in phases)
    adjudicate(*phases[0])  # load the map outside the timing

    timings = time_phases(phases, args.repeats)
    print(f"adjudicate, standard map: {len(phases)} movement phases from random games "
          f"({units:.1f} units and {orders:.1f} orders on average; generated in {generated:.1f} s), "
          f"min of {args.repeats} runs each")
    print(f"  median {statistics.median(timings):8.1f} us per phase")
    print(f"  p90    {percentile(timings, 0.9):8.1f} us per phase")
    print(f"  max    {max(timings):8.1f} us per phase")
    if args.profile:
        profiler = cProfile.Profile()
        profiler.runcall(lambda: [adjudicate(p, o) for p, o in phases])
        pstats.Stats(profiler).sort_stats("tottime").print_stats(15)
    if args.stages:
        time_stages(phases, args.repeats)
    if args.datc:
        time_datc()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
