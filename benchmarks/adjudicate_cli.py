"""`entente adjudicate` over JSON Lines: movement phases a second, parsing and printing included.

Run: python benchmarks/adjudicate_cli.py [--phases 10000] [--seed 11] [--min-units 25]

Writes the movement phases of seeded random games (the documents benchmarks/compare.py times)
to a JSON Lines file, then runs `entente adjudicate < file > /dev/null` as a user would (a new
process: Python start-up, imports, reading, adjudicating and printing every line). The command
is run twice: with one line (start-up alone) and with all of them; the difference, in CPU time
of the child process (user + system, so other work on the machine counts less than in wall
clock), gives phases per CPU second on one core. Wall clock is printed beside it. A benchmark
that prints figures, not a test. ``ENTENTE_NO_C_CORE=1`` in the environment (the command
inherits it) measures the Python engine without the C core (docs/rules/c_core.md).
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.compare import engine_build, movement_documents  # noqa: E402

# The repository first on the path: the command runs this tree's code (benchmarks/compare.py's
# note on measuring an older tree applies here too).
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


def run_command(phases_file: Path) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of one `entente adjudicate` run over the file."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    with open(phases_file) as stdin, open(os.devnull, "w") as stdout:
        subprocess.run([sys.executable, "-m", "services.cli", "adjudicate"], stdin=stdin, stdout=stdout,
                       check=True, cwd=ROOT, env=ENV)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime, wall


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--phases", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--min-units", type=int, default=25)
    parser.add_argument("--runs", type=int, default=3, help="each run is repeated; the fastest counts")
    args = parser.parse_args(argv)

    documents = movement_documents(args.phases, args.seed, args.min_units)
    with tempfile.TemporaryDirectory() as scratch:
        one, every = Path(scratch) / "one.jsonl", Path(scratch) / "every.jsonl"
        one.write_text(json.dumps(documents[0]) + "\n")
        every.write_text("".join(json.dumps(d) + "\n" for d in documents))
        start_cpu, start_wall = (min(x) for x in zip(*(run_command(one) for _ in range(args.runs)), strict=True))
        all_cpu, all_wall = (min(x) for x in zip(*(run_command(every) for _ in range(args.runs)), strict=True))
        size = every.stat().st_size
    phases = len(documents) - 1
    cpu, wall = all_cpu - start_cpu, all_wall - start_wall
    # the module's spec, not its __file__: a mypyc-compiled module's __file__ repeats its package's path
    where = subprocess.run([sys.executable, "-c", "import importlib.util as u; "
                            "print(u.find_spec('shared.rules.diplomacy.movement').origin)"],
                           cwd=ROOT, env=ENV, capture_output=True, text=True, check=True).stdout.strip()
    print(f"the command's engine: {where}")
    print(f"entente adjudicate, engine {engine_build()}: {len(documents)} movement phases as JSON Lines "
          f"({size / len(documents) / 1024:.1f} KiB a line), fastest of {args.runs} runs")
    print(f"  start-up (one line): {start_cpu * 1000:.0f} ms CPU, {start_wall * 1000:.0f} ms wall")
    print(f"  every line: {all_cpu:.2f} s CPU, {all_wall:.2f} s wall")
    print(f"  {phases / cpu:,.0f} phases a CPU second ({cpu / phases * 1e6:.1f} us a phase); "
          f"{phases / wall:,.0f} a wall-clock second")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
