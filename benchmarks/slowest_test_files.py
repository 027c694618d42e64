"""The suite's slowest test files, for docs/testing.md's table ("The slowest files"): runs the
suite (or the paths given) with ``--durations=0`` and prints, per file, the seconds its tests
took (setup, call and teardown added up, on whichever worker ran them), most first.

    .venv/bin/python benchmarks/slowest_test_files.py [--top 15] [PYTEST ARGS...]
    .venv/bin/python benchmarks/slowest_test_files.py --from-log run.log   # a log of such a run

The seconds are a worker's, not the run's wall time: with the suite spread over the workers,
the files that take longest are the ones that decide how soon the last worker is done.
"""
from __future__ import annotations

import argparse
import re
import subprocess
import sys
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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--top", type=int, default=15)
    parser.add_argument("--from-log", type=Path, help="read a finished run's log instead of running the suite")
    known, rest = parser.parse_known_args()
    if known.from_log is not None:
        log = known.from_log.read_text()
    else:
        done = subprocess.run([sys.executable, "-m", "pytest", "-q", "--durations=0", "-p", "no:cacheprovider", *rest],
                              cwd=REPOSITORY, capture_output=True, text=True)
        log = done.stdout
        print(log.splitlines()[-1] if log else done.stderr[-2000:])
    seconds = per_file(log)
    total = sum(seconds.values())
    print("| file | seconds | share |\n| --- | ---: | ---: |")
    for name, spent in sorted(seconds.items(), key=lambda item: -item[1])[:known.top]:
        print(f"| {name} | {spent:.0f} | {100 * spent / total:.1f} % |")
    print(f"| all {len(seconds)} files | {total:.0f} | 100 % |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
