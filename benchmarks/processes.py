"""Order writes through 1, 2 and 4 server processes on one PostgreSQL: a script that prints
figures, not a test.

    python benchmarks/processes.py [--processes 1 2 4] [--games 10] [--seconds 15]
                                   [--connections 32] [--views 10] [--clock-workers 1]
                                   [--limits off|process|shared] [--sqlite]

How the design carries more machines (docs/scale.md) measured on one: for each N, a fresh
PostgreSQL database of its own (made and dropped here, as benchmarks/wrk_orders.py makes
its), N ``entente serve --no-worker`` processes on ports of their own (one uvicorn process
each, as the compose services and the Kubernetes pods run them) and ``--clock-workers``
``entente worker`` processes beside them. ``--games`` seven-player games are set up through
the first process (benchmarks/wrk_orders.py's ``seats_of``: six seats of each resubmitting,
one never, so no phase resolves early); then wrk (Debian's ``wrk``) sends the seats' ``PUT
/games/{id}/orders`` for ``--seconds``, its threads spread over the N processes (a thread's
connections all go to one process: round-robin by connection, as a proxy balancing
connections does), and one request in ``--views`` is the seat's ``GET /games/{id}/view``.

Printed per N: requests a second, wrk's p50 and p99 latency, the answers that were not 2xx
(none expected), and the CPU seconds each process used during the window, read from /proc:
each server process, the clock workers, PostgreSQL's processes serving the database, and wrk
itself (the load client shares the machine's cores: with 2 cores, past 2 server processes
the line shows contention, not scale).

``--sqlite``: the processes share one SQLite file instead (each process's writes take turns at
SQLite's lock; no database processes to count).

``--limits shared`` turns every rate limit on at a rate no seat reaches (1000000/second per
address and per token, each seat writing from an address of its own named in
``X-Forwarded-For``, as deploy/nginx.conf names a client), counted in the store's buckets, one
limit for every process (the default); ``--limits process`` the same counted in each process
(``ENTENTE_RATE_LIMITS_SHARED=false``). Each write is counted and none is refused, so the
difference from ``off`` is what counting costs (docs/decisions/0021-limits-across-processes.md).
"""
from __future__ import annotations

import argparse
import asyncio
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.api import (  # noqa: E402
    EVERY_LIMIT_ON,
    HOST,
    KEEP_ALIVE_SECONDS,
    LOAD_FROM_ONE_ADDRESS,
    OPERATOR_TOKEN,
    STARTUP_SECONDS,
    answers,
    entente,
    free_port,
)
from benchmarks.scratch import cpu_seconds, database_pids, scratch_database, server_url  # noqa: E402
from benchmarks.wrk_orders import lua_seats, requests_of, seats_of, summary_of  # noqa: E402
from tests.utils.processes import stop  # noqa: E402

LUA = """\
local seats = %(seats)s
local ports = {%(ports)s}
local views = %(views)d
local counter = 0
function setup(thread)
  local port = ports[(counter %% #ports) + 1]
  thread.addr = wrk.lookup("%(host)s", tostring(port))[1]
  thread:set("offset", counter * 17)
  counter = counter + 1
end
function init(args)
  turn = offset
end
function request()
  turn = turn + 1
  local seat = seats[(turn %% #seats) + 1]
  local headers = {["Content-Type"] = "application/json", ["Authorization"] = "Bearer " .. seat.token}
  if seat.address then
    headers["X-Forwarded-For"] = seat.address
  end
  if views > 0 and turn %% views == 0 then
    return wrk.format("GET", seat.path:gsub("/orders$", "/view"), headers)
  end
  return wrk.format("PUT", seat.path, headers, seat.body)
end
"""

# every limit on, at a rate nobody reaches: each request counted, none refused
COUNTED = {**EVERY_LIMIT_ON, **{f"ENTENTE_RATE_{action}_PER_{whose}": "1000000/second"
                                for action in ("CREATE", "JOIN", "ORDERS", "PRESS", "STREAM")
                                for whose in ("ADDRESS", "TOKEN")}}


def settings_for(limits: str) -> dict[str, str]:
    """The servers' environment for ``--limits``."""
    chosen = {"off": LOAD_FROM_ONE_ADDRESS, "process": {**COUNTED, "ENTENTE_RATE_LIMITS_SHARED": "false"},
              "shared": {**COUNTED, "ENTENTE_RATE_LIMITS_SHARED": "true"}}[limits]
    return {**os.environ, "ENTENTE_OPERATOR_TOKEN": OPERATOR_TOKEN, "ENTENTE_ENVIRONMENT": "production", **chosen}


async def started(command: list[str], environment: dict[str, str], base: str | None) -> subprocess.Popen[bytes]:
    """A process of ``command``; with ``base``, once it answers ``/healthz`` there."""
    process = subprocess.Popen(command, env=environment)
    deadline = time.monotonic() + STARTUP_SECONDS
    while base is not None and not await answers(base):
        if process.poll() is not None or time.monotonic() > deadline:
            stop(process)
            raise RuntimeError(f"{command[3:5]} did not start (status {process.returncode})")
        await asyncio.sleep(0.2)
    return process


@asynccontextmanager
async def processes(url: str, count: int, clock_workers: int, limits: str) -> AsyncIterator[
        tuple[list[int], list[int], list[int]]]:
    """``count`` servers (ports and process ids) and ``clock_workers`` clock workers (ids) on
    ``url``; the first server made the schema before the others start."""
    environment = settings_for(limits)
    ports = [free_port() for _ in range(count)]
    running: list[subprocess.Popen[bytes]] = []
    try:
        for port in ports:
            running.append(await started(
                entente("serve", "--host", HOST, "--port", str(port), "--database", url, "--no-worker",
                        "--log-level", "warning", "--keep-alive", str(KEEP_ALIVE_SECONDS)),
                environment, f"http://{HOST}:{port}"))
        for _ in range(clock_workers):
            running.append(await started(entente("worker", "--database", url), environment, None))
        yield ports, [p.pid for p in running[:count]], [p.pid for p in running[count:]]
    finally:
        for process in running:
            stop(process, timeout=15)


def children_cpu() -> float:
    """CPU seconds of this script's children that have ended (wrk, once it returned)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


async def one_count(args: argparse.Namespace, count: int, wrk: str) -> str:
    """The figures of ``count`` server processes, one line."""
    backend = "sqlite" if args.sqlite else "postgresql"
    async with scratch_database(backend, args.server_url, "entente_processes") as url, \
            processes(url, count, args.clock_workers, args.limits) as (ports, servers, workers):
        seats = await seats_of(f"http://{HOST}:{ports[0]}", args.games, random.Random(args.seed),
                               args.limits != "off")
        threads = max(args.threads, count)
        with tempfile.TemporaryDirectory() as folder:
            script = Path(folder) / "processes.lua"
            script.write_text(LUA.replace("%(seats)s", lua_seats(seats)).replace("%(views)d", str(args.views))
                              .replace("%(ports)s", ", ".join(map(str, ports))).replace("%(host)s", HOST)
                              .replace("%%", "%"))
            database = [] if args.sqlite else await database_pids(url)
            before = {pid: cpu_seconds([pid]) for pid in servers + workers + database}
            load_before = children_cpu()
            run = subprocess.run([wrk, "-t", str(threads), "-c", str(max(args.connections, threads)),
                                  "-d", f"{args.seconds}s", "--latency", "-s", str(script),
                                  f"http://{HOST}:{ports[0]}"], capture_output=True, text=True, check=False)
            load = children_cpu() - load_before
            if run.returncode != 0:
                raise RuntimeError(run.stdout + run.stderr)
            if not args.sqlite:
                database = sorted(set(database) | set(await database_pids(url)))

            def used(pids: list[int]) -> float:
                return sum(cpu_seconds([pid]) - before.get(pid, 0.0) for pid in pids)

            done = max(requests_of(run.stdout), 1)
            postgresql = "" if args.sqlite else f"PostgreSQL {used(database):.1f}, "
            return (f"{count} processes (load average {os.getloadavg()[0]:.1f}): {summary_of(run.stdout)}; "
                    f"CPU s in {args.seconds} s: servers "
                    f"{' + '.join(f'{used([pid]):.1f}' for pid in servers)}, clock workers {used(workers):.1f}, "
                    f"{postgresql}wrk {load:.1f}; CPU a request: servers {used(servers) / done * 1e6:.0f} us"
                    + ("" if args.sqlite else f", PostgreSQL {used(database) / done * 1e6:.0f} us"))


async def benchmark(args: argparse.Namespace) -> int:
    wrk = shutil.which("wrk")
    if wrk is None:
        print("wrk is not installed (Debian: apt-get install -y wrk)", file=sys.stderr)
        return 2
    print(f"{os.cpu_count()} cores; {'SQLite' if args.sqlite else 'PostgreSQL'}; {args.games} games, "
          f"{args.games * 6} seats resubmitting, one request in "
          f"{args.views} a view; wrk {args.connections} connections, {args.seconds} s; limits {args.limits}; "
          f"{args.clock_workers} clock workers", flush=True)
    for count in args.processes:
        print("  " + await one_count(args, count, wrk), flush=True)
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--processes", type=int, nargs="+", default=[1, 2, 4])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--seconds", type=int, default=15)
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--threads", type=int, default=2, help="wrk threads (at least one per process)")
    parser.add_argument("--views", type=int, default=10, help="one request in this many is a view (0: none)")
    parser.add_argument("--clock-workers", type=int, default=1)
    parser.add_argument("--limits", choices=["off", "process", "shared"], default="off")
    parser.add_argument("--sqlite", action="store_true", help="one SQLite file instead of PostgreSQL")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--server-url", default=server_url())
    return asyncio.run(benchmark(parser.parse_args()))


if __name__ == "__main__":
    raise SystemExit(main())
