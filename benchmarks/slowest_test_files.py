"""The suite's slowest test files, for docs/testing.md's table ("The slowest files"): runs the
suite (or the paths given) with ``--durations=0`` and prints, per file, the seconds its tests
took (setup, call and teardown added up, on whichever worker ran them), most first.

    .venv/bin/python benchmarks/slowest_test_files.py [--top 15] [PYTEST ARGS...]
    .venv/bin/python benchmarks/slowest_test_files.py --from-log run.log   # a log of such a run
    .venv/bin/python benchmarks/slowest_test_files.py --cpu [PYTEST ARGS...]  # CPU seconds instead
    .venv/bin/python benchmarks/slowest_test_files.py --from-cpu-log FOLDER --tail 90  # a run's CPU log

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


def cpu_lines(folder: Path) -> list[tuple[str, str, float, float, float | None]]:
    """(worker, test, CPU seconds, wall seconds, clock at its end) from the lines
    tests/conftest.py wrote, one file per worker (older lines have no clock)."""
    rows = []
    for part in sorted(folder.glob("cpu.*")):
        worker = part.name.split(".", 1)[1]
        for line in part.read_text().splitlines():
            nodeid, own, children, wall, *end = line.split("\t")
            rows.append((worker, nodeid, float(own) + float(children), float(wall), float(end[0]) if end else None))
    return rows


def cpu_per_file(folder: Path) -> dict[str, float]:
    """CPU seconds per file."""
    seconds: dict[str, float] = defaultdict(float)
    for _, nodeid, cpu, _, _ in cpu_lines(folder):
        seconds[nodeid.split("::")[0]] += cpu
    return dict(seconds)


def print_tail(folder: Path, last: float) -> None:
    """When each worker finished its last test, before the last one did, and the tests that
    ran in the run's last ``last`` seconds: where the end of a run waits on a few workers."""
    timed = [(worker, nodeid, wall, end) for worker, nodeid, _, wall, end in cpu_lines(folder) if end is not None]
    if not timed:
        print("no clock in the CPU log (written before tests/conftest.py wrote one)")
        return
    last_end = max(end for *_, end in timed)
    print(f"first test's start to last test's end: {last_end - min(end - wall for *_, wall, end in timed):.0f} s")
    for worker in sorted({row[0] for row in timed}):
        mine = [row for row in timed if row[0] == worker]
        print(f"{worker}: {len(mine)} tests, {sum(row[2] for row in mine):.0f} s in tests, "
              f"its last ended {last_end - max(row[3] for row in mine):.0f} s before the end")
    print(f"tests running in the last {last:.0f} s (worker, wall s, ended before the end, test):")
    for worker, nodeid, wall, end in sorted(timed, key=lambda row: row[3]):
        if end > last_end - last:
            print(f"  {worker} {wall:6.1f} {last_end - end:6.1f}  {nodeid}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--top", type=int, default=15)
    parser.add_argument("--from-log", type=Path, help="read a finished run's log instead of running the suite")
    parser.add_argument("--cpu", action="store_true", help="CPU seconds per file instead of a worker's wall time")
    parser.add_argument("--from-cpu-log", type=Path, metavar="FOLDER",
                        help="read the CPU log of a run (ENTENTE_TEST_CPU_LOG=FOLDER/cpu), not running one")
    parser.add_argument("--tail", type=float, metavar="SECONDS",
                        help="with --from-cpu-log: also when each worker ended and what ran in the last SECONDS")
    known, rest = parser.parse_known_args()
    if known.from_cpu_log is not None:
        seconds = cpu_per_file(known.from_cpu_log)
        if known.tail:
            print_tail(known.from_cpu_log, known.tail)
    elif known.cpu:
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
    if not known.cpu and known.from_cpu_log is None:
        seconds = per_file(log)
    total = sum(seconds.values())
    print("| file | seconds | share |\n| --- | ---: | ---: |")
    for name, spent in sorted(seconds.items(), key=lambda item: -item[1])[:known.top]:
        print(f"| {name} | {spent:.0f} | {100 * spent / total:.1f} % |")
    print(f"| all {len(seconds)} files | {total:.0f} | 100 % |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
