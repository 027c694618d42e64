"""Where a movement phase's microseconds go on the `entente adjudicate` contract path, stage by stage.

Run: python benchmarks/contract_stages.py [--phases 400] [--repeats 5] [--seed 11] [--min-units 25]

The documents are benchmarks/compare.py's (movement phases of seeded random games, as JSON
lines). Each stage runs the path from the JSON line up to and including that stage, so its
figure is cumulative and the difference from the stage before is the stage's own cost: JSON
decode (orjson), document -> position (``_read_position``), order parsing and normalising
(``_read_orders``), the phase read, checked and resolved (``settle_movement``), the board after
the moves and the next phase (``board_after``, ``after_movement``), the whole contract
(``adjudicate_document``: the results and the output document written), JSON encode. Each
document is timed ``--repeats`` times and the fastest counts; medians per phase in
microseconds, wall clock. It calls document.py's private steps, so it follows their names.

Then the whole path (decode, contract, encode) as the command meets documents: each line once,
in order, after one pass that has read every order text already. It costs much more than the
fastest of repeats, which sees each document's objects still in the processor's caches; the
three figures say how much of the difference is the strings new to each document (hashed and
compared again) and how much the caches. A benchmark that prints figures, not a test.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import orjson  # noqa: E402

from benchmarks.compare import engine_build, movement_documents  # noqa: E402
from shared.rules.diplomacy import document, load_map  # noqa: E402
from shared.rules.diplomacy.adjudicate import after_movement  # noqa: E402
from shared.rules.diplomacy.movement import settle_movement  # noqa: E402

MAP = load_map("standard")


def decoded(line: bytes) -> None:
    orjson.loads(line)


def positioned(line: bytes) -> None:
    document._read_position(orjson.loads(line))


def ordered(line: bytes) -> None:
    doc = orjson.loads(line)
    position, _ = document._read_position(doc)
    document._read_orders(doc["orders"], position, MAP)


def settled(line: bytes) -> None:
    doc = orjson.loads(line)
    position, _ = document._read_position(doc)
    _, orders = document._read_orders(doc["orders"], position, MAP)
    settle_movement(position, orders, MAP)


def boarded(line: bytes) -> None:
    doc = orjson.loads(line)
    position, _ = document._read_position(doc)
    _, orders = document._read_orders(doc["orders"], position, MAP)
    units, dislodged, _ = settle_movement(position, orders, MAP).board_after()
    after_movement(position.phase, units, position.centres, dislodged, MAP)


def written(line: bytes) -> None:
    document.adjudicate_document(orjson.loads(line))


def encoded(line: bytes) -> None:
    orjson.dumps(document.adjudicate_document(orjson.loads(line)))


STAGES: list[tuple[str, Callable[[bytes], None]]] = [
    ("JSON decode", decoded), ("+ document -> position", positioned), ("+ orders parsed", ordered),
    ("+ phase checked and resolved", settled), ("+ board after, next phase", boarded),
    ("+ results and document written", written), ("+ JSON encode", encoded),
]


def fastest_median(lines: list[bytes], stage: Callable[[bytes], None], repeats: int) -> float:
    best: list[float] = []
    for line in lines:
        fastest = None
        for _ in range(repeats):
            start = time.perf_counter_ns()
            stage(line)
            elapsed = time.perf_counter_ns() - start
            fastest = elapsed if fastest is None else min(fastest, elapsed)
        best.append((fastest or 0) / 1000)
    return statistics.median(best)


def once_each(lines: list[bytes]) -> tuple[float, float, float]:
    """Mean µs a phase: each line decoded and adjudicated once; each document's own objects
    adjudicated once (decoded beforehand: no new strings); each document twice, the second timed."""
    start = time.perf_counter()
    for line in lines:
        orjson.dumps(document.adjudicate_document(orjson.loads(line)))
    fresh = (time.perf_counter() - start) / len(lines) * 1e6
    docs = [orjson.loads(line) for line in lines]
    start = time.perf_counter()
    for doc in docs:
        orjson.dumps(document.adjudicate_document(doc))
    same = (time.perf_counter() - start) / len(lines) * 1e6
    total = 0.0
    for doc in docs:
        orjson.dumps(document.adjudicate_document(doc))
        start = time.perf_counter()
        orjson.dumps(document.adjudicate_document(doc))
        total += time.perf_counter() - start
    return fresh, same, total / len(lines) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--phases", type=int, default=400)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--min-units", type=int, default=25)
    args = parser.parse_args()
    lines = [orjson.dumps(d) for d in movement_documents(args.phases, args.seed, args.min_units)]
    for line in lines:  # every order text read once, the general parser imported
        document.adjudicate_document(orjson.loads(line))
    print(f"{len(lines)} movement phases, engine {engine_build()}; median of the fastest of "
          f"{args.repeats} runs a phase, µs, wall clock")
    before = 0.0
    for name, stage in STAGES:
        median = fastest_median(lines, stage, args.repeats)
        print(f"  {name:34} {median:7.1f}   ({median - before:+.1f})")
        before = median
    fresh, same, again = once_each(lines)
    print("the whole path, each document once, mean µs a phase:")
    print(f"  each line decoded and adjudicated once   {fresh:7.1f}")
    print(f"  each decoded document once (no new text) {same:7.1f}")
    print(f"  each document right after itself         {again:7.1f}")


if __name__ == "__main__":
    main()
