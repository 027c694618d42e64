"""What one ``entente serve`` costs to start: a script that prints figures, not a test.

    python benchmarks/server_start.py [--runs 5] [--before-tree DIR] [--postgres URL]

The suite starts a few hundred servers (docs/testing.md, "What the machine spends"), so a
start's CPU is the suite's. For each tree (this checkout, and ``--before-tree``'s, say a
``git worktree`` of the commit before a change with its compiled modules copied beside it),
alternately, ``--runs`` times, it prints the median CPU seconds (user + system) of:

- import: ``python -c "import services.app, uvicorn"``, the process's whole life;
- sqlite: ``entente serve --no-worker`` on a fresh SQLite file, as tests/utils/served.py starts
  one, from exec to its first 200 of ``/healthz`` (read from /proc at that moment);
- postgresql: the same on a fresh PostgreSQL database (made and dropped here; ``--postgres``
  names the server, default ``postgresql://postgres@127.0.0.1:5432/postgres``).

Bytecode is written (PYTHONDONTWRITEBYTECODE cleared, as tests/conftest.py does) and one
unmeasured start of each tree comes first, so no figure includes compiling the sources.
"""
from __future__ import annotations

import argparse
import http.client
import os
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
TICKS = os.sysconf("SC_CLK_TCK")
SERVE = "import sys; from services.cli import main; sys.exit(main())"


def environment(tree: Path) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    return {**env, "PYTHONPATH": str(tree), "ENTENTE_OPERATOR_TOKEN": secrets.token_urlsafe(32),
            "ENTENTE_ENVIRONMENT": "test", "ENTENTE_RATE_LIMITS": "false"}


def import_cpu(tree: Path) -> float:
    """CPU seconds of a process that imports the app and uvicorn, and exits."""
    process = subprocess.Popen([sys.executable, "-c", "import services.app, uvicorn"], cwd=tree,
                               env=environment(tree))
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise SystemExit(f"the import failed in {tree}")
    return usage.ru_utime + usage.ru_stime


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def process_cpu(pid: int) -> float:
    """User and system CPU seconds of a running process (all its threads), from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def healthy(port: int) -> bool:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
    try:
        connection.request("GET", "/healthz")
        return connection.getresponse().status == 200
    except OSError:
        return False
    finally:
        connection.close()


def serve_cpu(tree: Path, database_url: str) -> float:
    """CPU seconds of ``entente serve`` from exec to its first 200 of /healthz."""
    port = free_port()
    process = subprocess.Popen([sys.executable, "-c", SERVE, "serve", "--port", str(port), "--database",
                                database_url, "--no-worker", "--log-level", "warning"],
                               cwd=tree, env=environment(tree), stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while not healthy(port):
            if process.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"entente serve did not answer in {tree}")
            time.sleep(0.01)
        return process_cpu(process.pid)
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(30)


def psql(server: str, statement: str) -> None:
    subprocess.run(["psql", server, "-q", "-c", statement], check=True, capture_output=True)


def postgres_cpu(tree: Path, server: str) -> float:
    name = f"entente_bench_start_{secrets.token_hex(4)}"
    psql(server, f"CREATE DATABASE {name}")
    try:
        return serve_cpu(tree, server.rsplit("/", 1)[0] + "/" + name)
    finally:
        psql(server, f"DROP DATABASE {name} WITH (FORCE)")


def measure(tree: Path, server: str, folder: Path, run: int) -> dict[str, float]:
    return {"import": import_cpu(tree),
            "sqlite": serve_cpu(tree, f"sqlite:///{folder}/{tree.name}-{run}.db"),
            "postgresql": postgres_cpu(tree, server)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--before-tree", type=Path, help="another checkout, measured alternately as 'before'")
    parser.add_argument("--postgres", default="postgresql://postgres@127.0.0.1:5432/postgres")
    args = parser.parse_args()
    trees = {"this tree": HERE}
    if args.before_tree is not None:
        trees = {"before": args.before_tree.resolve(), "after": HERE}
    figures: dict[str, list[dict[str, float]]] = {label: [] for label in trees}
    with tempfile.TemporaryDirectory(prefix="entente-start-") as folder:
        for tree in trees.values():  # warm-up: bytecode written, caches filled
            measure(tree, args.postgres, Path(folder), -1)
        for run in range(args.runs):
            for label, tree in trees.items():
                figures[label].append(measure(tree, args.postgres, Path(folder), run))
    print(f"CPU seconds, median of {args.runs} (min-max), Python {sys.version.split()[0]}")
    for label, runs in figures.items():
        cells = []
        for what in ("import", "sqlite", "postgresql"):
            values = [figure[what] for figure in runs]
            cells.append(f"{what} {statistics.median(values):.2f} ({min(values):.2f}-{max(values):.2f})")
        print(f"  {label:<10} " + "   ".join(cells))


if __name__ == "__main__":
    main()
