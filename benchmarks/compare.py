"""Entente, pydip and MILA's ``diplomacy`` side by side on the same movement phases, in one run.

Run: python benchmarks/compare.py [--phases 400] [--repeats 5] [--rounds 3] [--seed 11] [--min-units 25]

The phases are movement phases of seeded random games (tests/utils/random_play.py) with at
least ``--min-units`` units (about 30 on average), each as an ``entente adjudicate`` document:
units per power and the order strings in canonical short notation. Entente runs its contract
path, ``adjudicate_document`` (document in; results, new position, dislodged units and next
phase out), in this interpreter; pydip 0.1.8 and MILA's diplomacy 1.1.2 run in a virtual
environment of their own (created on first use under the user's cache directory, or
``--peers-venv``, never in the repository) by benchmarks/compare_peers.py, each from the same
strings to the new position and the dislodged units through a small adapter. Each phase is
timed ``--repeats`` times and the fastest counts; the figures are medians and 90th percentiles
per phase in microseconds, wall clock. The engines take turns, ``--rounds`` times (Entente, then
the peers, then Entente again ...), and each phase's figure is its fastest over the rounds: so a
busy spell on a shared machine slows every engine's turn alike instead of one engine's whole
measurement (one busy minute made the same build 45 or 71 us a phase in two runs back to back). "agrees" counts the
phases whose new units and dislodged units equal Entente's (the engines differ on some rules).

It also prints which build of Entente's engine ran (compiled or pure Python: docs/architecture.md,
"Performance") and whether the C core took the movement phases (docs/rules/c_core.md;
``ENTENTE_NO_C_CORE=1`` leaves them to the engine alone). It is a benchmark that prints
figures, not a test. To measure an older tree, copy benchmarks/compare*.py (and
adjudicate_cli.py) into an export of it and run them there: the repository the script sits in
is first on the path.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import venv
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the repository: tests.utils below

from shared.rules.diplomacy import adjudicate_document, load_map, position_to_document  # noqa: E402
from shared.rules.diplomacy.phase import PhaseType  # noqa: E402
from tests.utils.random_play import random_play  # noqa: E402

PEERS = ["diplomacy==1.1.2", "pydip==0.1.8"]


def engine_build() -> str:
    """Which build of the engine this interpreter runs (older trees have only the pure one), and
    whether the contract's movement phase goes to the C core (docs/rules/c_core.md; off with
    ``ENTENTE_NO_C_CORE=1``, which measures the engine alone)."""
    try:
        from shared.rules.diplomacy.build import engine_build as build
    except ImportError:
        return "pure Python"
    try:
        from shared.rules.diplomacy import c_core
    except ImportError:  # a tree from before the core
        return build()
    return build() + (", with the C core" if c_core.MOVEMENT_DOCUMENT is not None else ", without the C core")


def peers_python(directory: Path) -> Path:
    """The Python of the peers' virtual environment, created and filled on first use."""
    python = directory / "bin" / "python"
    marker = directory / ".installed"
    if marker.exists() and marker.read_text() == " ".join(PEERS) and python.exists():
        return python
    print(f"installing {', '.join(PEERS)} into {directory} ...", file=sys.stderr)
    venv.EnvBuilder(with_pip=True, clear=True).create(directory)
    subprocess.run([str(python), "-m", "pip", "install", "-q", *PEERS], check=True)
    marker.write_text(" ".join(PEERS))
    return python


def default_venv() -> Path:
    cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    base = Path(cache) if Path(cache).parent.exists() else Path(tempfile.gettempdir())
    return base / "entente" / "compare-peers-venv"


def movement_documents(count: int, seed: int, min_units: int) -> list[dict[str, Any]]:
    """``count`` movement phases of random games as contract documents with their orders."""
    documents: list[dict[str, Any]] = []
    game = 0
    while len(documents) < count:
        for position, orders, _ in random_play(seed * 1000 + game, phases=60):
            if position.phase.type is PhaseType.MOVEMENT and len(position.units) >= min_units:
                document = position_to_document(position)
                document["orders"] = {power: [str(order) for order in given] for power, given in orders.items()}
                documents.append(document)
        game += 1
    return documents[:count]


def time_entente(documents: list[dict[str, Any]], repeats: int) -> dict[str, Any]:
    adjudicate_document(documents[0])  # the map and its tables load outside the timing
    timings_us: list[float] = []
    outcomes: list[dict[str, Any]] = []
    for document in documents:
        best = None
        for _ in range(repeats):
            start = time.perf_counter_ns()
            result = adjudicate_document(document)
            elapsed = time.perf_counter_ns() - start
            best = elapsed if best is None else min(best, elapsed)
        timings_us.append((best or 0) / 1000)
        outcomes.append({"units": result["units"],
                         "dislodged": sorted(d["unit"] for ds in result["dislodged"].values() for d in ds)})
    return {"engine": f"Entente ({engine_build()})", "timings_us": timings_us, "outcomes": outcomes}


def fastest_of_turns(turns: list[list[dict[str, Any]]]) -> list[dict[str, Any]]:
    """Each engine's run with every phase's fastest time over the rounds (outcomes of the first)."""
    merged = []
    for index, first in enumerate(turns[0]):
        timings = [min(turn[index]["timings_us"][phase] for turn in turns) for phase in range(len(first["timings_us"]))]
        merged.append({**first, "timings_us": timings})
    return merged


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--phases", type=int, default=400)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=3, help="turns each engine takes, alternating")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--min-units", type=int, default=25)
    parser.add_argument("--peers-venv", type=Path, default=None, help="where the peers' virtual environment lives")
    parser.add_argument("--entente-only", action="store_true", help="time Entente alone (no peers installed)")
    args = parser.parse_args(argv)

    documents = movement_documents(args.phases, args.seed, args.min_units)
    units = statistics.mean(sum(len(u) for u in d["units"].values()) for d in documents)
    game_map = load_map("standard")
    python = None if args.entente_only else peers_python(args.peers_venv or default_venv())
    turns: list[list[dict[str, Any]]] = []
    with tempfile.TemporaryDirectory() as scratch:
        phases_file = Path(scratch) / "phases.json"
        phases_file.write_text(json.dumps({
            "documents": documents,
            "province_names": {code: p.name for code, p in game_map.provinces.items()},
            "sea": sorted(code for code in game_map.provinces if game_map.is_sea(code)),
            "coasts": {code: list(p.coasts) for code, p in game_map.provinces.items() if p.coasts},
        }))
        for _ in range(max(1, args.rounds)):
            turn = [time_entente(documents, args.repeats)]
            if python is not None:
                done = subprocess.run([str(python), str(ROOT / "benchmarks" / "compare_peers.py"),
                                       str(phases_file), str(args.repeats)],
                                      check=True, stdout=subprocess.PIPE, text=True)
                turn.extend(json.loads(done.stdout))
            turns.append(turn)
    runs = fastest_of_turns(turns)
    entente = runs[0]

    print(f"{len(documents)} movement phases of random games ({units:.1f} units on average), "
          f"min of {args.repeats} runs each in each of {len(turns)} alternating rounds, wall clock on this machine")
    print(f"  {'engine':44} {'median us':>10} {'p90 us':>10} {'median vs Entente':>18} {'agrees':>8}")
    base = statistics.median(entente["timings_us"])
    for run in runs:
        median = statistics.median(run["timings_us"])
        agrees = sum(1 for mine, theirs in zip(entente["outcomes"], run["outcomes"], strict=True)
                     if mine == theirs)
        print(f"  {run['engine']:44} {median:10.1f} {percentile(run['timings_us'], 0.9):10.1f} "
              f"{median / base:17.1f}x {agrees:>4}/{len(documents)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
