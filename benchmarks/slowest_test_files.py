"""The suite's slowest test files, for docs/testing.md's table ("The slowest files"): runs the
suite (or the paths given) with ``--durations=0`` and prints, per file, the seconds its tests
took (setup, call and teardown added up, on whichever worker ran them), most first.

    .venv/bin/python benchmarks/slowest_test_files.py [--top 15] [PYTEST ARGS...]
    .venv/bin/python benchmarks/slowest_test_files.py --from-log run.log   # a log of such a run
    .venv/bin/python benchmarks/slowest_test_files.py --cpu [PYTEST ARGS...]  # CPU seconds instead

The seconds are a worker's, not the run's wall time: with the suite spread over the workers,
the files that take longest are the ones that decide how soon the last worker is done.

``--cpu`` counts CPU seconds instead (the worker's own and those of the servers and browsers a
test starts and stops: tests/conftest.py's ENTENTE_TEST_CPU_LOG): what a file costs the machine,
which a busy machine does not inflate as it does wall time, and what decides the suite's time on
a machine whose cores the workers keep busy.
"""
from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parents[1]
LINE = re.compile(r"^\s*([0-9.]+)s (setup|call|teardown)\s+(\S+?)::")


def per_file(log: str) -> dict[str, float]:
    seconds: dict[str, float] = defaultdict(float)
    for line in log.splitlines():
        found = LINE.match(line)
        if found:
            seconds[found.group(3)] += float(found.group(1))
    return dict(seconds)


def cpu_per_file(folder: Path) -> dict[str, float]:
    """CPU seconds per file from the lines tests/conftest.py wrote (one file per worker)."""
    seconds: dict[str, float] = defaultdict(float)
    for part in folder.glob("cpu.*"):
        for line in part.read_text().splitlines():
            nodeid, own, children, _ = line.split("\t")
            seconds[nodeid.split("::")[0]] += float(own) + float(children)
    return dict(seconds)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--top", type=int, default=15)
    parser.add_argument("--from-log", type=Path, help="read a finished run's log instead of running the suite")
    parser.add_argument("--cpu", action="store_true", help="CPU seconds per file instead of a worker's wall time")
    known, rest = parser.parse_known_args()
    if known.cpu:
        with tempfile.TemporaryDirectory() as folder:
            done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *rest],
                                  cwd=REPOSITORY, capture_output=True, text=True,
                                  env={**os.environ, "ENTENTE_TEST_CPU_LOG": f"{folder}/cpu"})
            print(done.stdout.splitlines()[-1] if done.stdout else done.stderr[-2000:])
            print("\n".join(line for line in done.stdout.splitlines() if line.startswith(("FAILED", "ERROR"))))
            seconds = cpu_per_file(Path(folder))
    elif known.from_log is not None:
        log = known.from_log.read_text()
    else:
        done = subprocess.run([sys.executable, "-m", "pytest", "-q", "--durations=0", "-p", "no:cacheprovider", *rest],
                              cwd=REPOSITORY, capture_output=True, text=True)
        log = done.stdout
        print(log.splitlines()[-1] if log else done.stderr[-2000:])
    if not known.cpu:
        seconds = per_file(log)
    total = sum(seconds.values())
    print("| file | seconds | share |\n| --- | ---: | ---: |")
    for name, spent in sorted(seconds.items(), key=lambda item: -item[1])[:known.top]:
        print(f"| {name} | {spent:.0f} | {100 * spent / total:.1f} % |")
    print(f"| all {len(seconds)} files | {total:.0f} | 100 % |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
