"""A deadline storm on PostgreSQL: a script that prints figures, not a test.

    python benchmarks/storm.py [--games 10000] [--variant standard] [--workers 2]
                               [--client-games 200] [--client-rate 200] [--lead SECONDS]

Makes a database of its own on the PostgreSQL server (ENTENTE_BENCH_POSTGRES_URL, else
ENTENTE_TEST_POSTGRES_URL, else postgresql://postgres@127.0.0.1:5432/test), named
``storm_bench_<random>``, dropped at the end whatever happens, and starts ``entente serve`` on it
(benchmarks/api.py's server). Through that server's API it seats ``--client-games`` games whose
six powers of seven will keep writing orders (one never does, so none resolves early).

Then it puts ``--games`` games of ``--variant`` in the store whose current phase falls due at
one moment, ``--lead`` seconds ahead: each a phase or more into play, with every power's orders
in (a random legal order for every unit; in a fifth of the games a convoy and the convoyed
army's move, where the game's position allows one). They are written straight into the store
with COPY, from a few dozen games played out in memory (benchmarks/storm_games.py says how and
why), not through the API: at 100,000 games the API would take hours.

Once they are in, ``--workers`` clock workers start, as docker-compose.yml runs them (``entente
worker``, polling every second), and a client starts writing orders at ``--client-rate`` PUTs a
second to the seats of the API's games, each seat's own legal orders with its own token. From the
deadline on, the script counts the storm's games still due (the games table's deadline index)
until none is; printed: the storm's length (from the deadline to the moment none was due, and to
the last resolution's ``recorded_at``), resolutions a second, that every game's phase was
resolved exactly once (its ``PhaseResolved`` counted in the log), the PUT latencies before
and during the storm, and memory: each worker's peak resident set, the server's, and the
database's size.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.api import SERVER_PIDS, Connection, asyncpg_dsn, entente, percentile, running_server  # noqa: E402
from benchmarks.scratch import cpu_seconds, database_pids, fresh_database, server_url  # noqa: E402
from benchmarks.storm_games import (  # noqa: E402
    Template,
    at_deadline,
    copy_games,
    deadline_batches,
    jsonb_as_text,
    storm_batches,
    templates,
)
from benchmarks.wrk_orders import seats_of  # noqa: E402

RESOLUTIONS = {"dirigible": 2}  # phases played before the storm's (Dirigible opens with builds)
POLL_SECONDS = 0.25


def memory_kib(pid: int, field_name: str = "VmHWM") -> int:
    """A process's peak (VmHWM) or current (VmRSS) resident set, KiB (0 once it is gone)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return 0
    for line in status.splitlines():
        if line.startswith(field_name + ":"):
            return int(line.split()[1])
    return 0


def tree_rss_kib(pid: int) -> int:
    """The resident sets of a process and its children, added up."""
    from tests.utils.processes import worker_pids

    return sum(memory_kib(p, "VmRSS") for p in [pid, *worker_pids(pid)])


# ----------------------------------------------------------------------------- the client


@dataclass
class Puts:
    """Every PUT: (wall time it was sent, seconds it took, status)."""

    sent: list[tuple[float, float, int]] = field(default_factory=list)

    def between(self, start: float, end: float) -> list[float]:
        return [latency for at, latency, status in self.sent if start <= at <= end and status == 200]

    def refused(self) -> int:
        return sum(1 for _, _, status in self.sent if status != 200)


async def keep_writing(base: str, seats: list[dict[str, str]], rate: float, connections: int, stop: asyncio.Event,
                       puts: Puts) -> None:
    """``rate`` PUTs a second in all, each connection in its turn, until ``stop``."""
    host, port = base.removeprefix("http://").split(":")
    interval = connections / rate

    async def one(offset: int) -> None:
        connection = Connection(host, int(port))
        turn, next_at = offset, time.monotonic() + offset * interval / connections
        try:
            while not stop.is_set():
                await asyncio.sleep(max(0.0, next_at - time.monotonic()))
                next_at += interval
                seat = seats[turn % len(seats)]
                turn += connections
                sent, began = time.time(), time.perf_counter()
                status, _ = await connection.request("PUT", seat["path"], json.loads(seat["body"]), seat["token"])
                puts.sent.append((sent, time.perf_counter() - began, status))
        finally:
            connection.close()

    await asyncio.gather(*(one(k) for k in range(connections)))


def latencies(values: list[float]) -> str:
    if not values:
        return "none"
    return (f"{len(values)}, median {statistics.median(values) * 1000:.1f} ms, "
            f"p99 {percentile(values, 0.99) * 1000:.1f} ms, max {max(values) * 1000:.1f} ms")


# ----------------------------------------------------------------------------- the storm


@asynccontextmanager
async def serving(url: str, client_games: int, serve_workers: int) -> AsyncIterator[str | None]:
    """The API server when there is a client (it also makes the store's schema), else the schema alone."""
    if client_games:
        async with running_server(url, serve_workers, False) as base:
            yield base
        return
    from shared.store import open_store

    store = await open_store(url)
    await store.close()
    yield None


async def seed(url: str, made: list[Template], games: int, batch: int, seed_value: int,
               lead: float | None) -> tuple[list[Template], datetime, int, int]:
    """The storm's games copied in (storm_games.py: two passes): (the templates at the deadline,
    the deadline, event rows, convoys drawn)."""
    import asyncpg

    connection = await asyncpg.connect(asyncpg_dsn(url), timeout=10)
    rows = convoys = 0
    try:
        await jsonb_as_text(connection)
        now, began = datetime.now(UTC), time.perf_counter()
        for events, drawn in storm_batches(made, games, batch, seed_value, now):
            await copy_games(connection, events, [])
            rows += len(events)
            convoys += drawn
        await connection.execute("ANALYZE events")
        # the second pass writes a row in twenty of the first's, a games row and a short event
        # each: a quarter of its time is ample on a busy machine, and five seconds for the
        # workers to start
        ahead = lead if lead is not None else 5 + (time.perf_counter() - began) / 4
        deadline = datetime.now(UTC) + timedelta(seconds=ahead)
        made = [at_deadline(template, deadline, now) for template in made]
        for events, game_rows in deadline_batches(made, games, batch, now):
            await copy_games(connection, events, game_rows)
            rows += len(events)
        await connection.execute("ANALYZE games")
    finally:
        await connection.close()
    return made, deadline, rows, convoys


async def wait_until_resolved(connection: Any, deadline: datetime, timeout: float) -> float:
    """Seconds from ``deadline`` until no storm game is due (nan after ``timeout``)."""
    await asyncio.sleep(max(0.0, deadline.timestamp() - time.time()))
    while time.time() < deadline.timestamp() + timeout:
        left = await connection.fetchval("SELECT count(*) FROM games WHERE deadline <= $1 AND game_id LIKE 'g_storm%'",
                                         deadline)
        if left == 0:
            return time.time() - deadline.timestamp()
        await asyncio.sleep(POLL_SECONDS)
    return float("nan")


async def resolutions(connection: Any, phases: set[str]) -> tuple[dict[str, int], datetime | None]:
    """The storm phase's PhaseResolved events by game stream, and the last one's recorded_at."""
    rows = await connection.fetch(
        "SELECT stream_id, count(*) AS n, max(recorded_at) AS last FROM events WHERE type = 'PhaseResolved' "
        "AND stream_id LIKE 'game-g_storm%' AND data->>'phase' = ANY($1::text[]) GROUP BY stream_id", sorted(phases))
    return {row["stream_id"]: row["n"] for row in rows}, max((row["last"] for row in rows), default=None)


def start_workers(url: str, count: int, logs: Path) -> list[subprocess.Popen[bytes]]:
    """``entente worker`` as docker-compose.yml runs it (its environment: the database, production)."""
    environment = {**os.environ, "ENTENTE_ENVIRONMENT": "production"}
    environment.pop("ENTENTE_OPERATOR_TOKEN", None)
    return [subprocess.Popen(entente("worker", "--database", url), cwd=ROOT, env=environment,
                             stdout=subprocess.DEVNULL, stderr=(logs / f"worker{k}.log").open("wb"))
            for k in range(count)]


async def storm(args: argparse.Namespace) -> int:
    import asyncpg

    async with fresh_database(args.server_url, "storm_bench") as url, \
            serving(url, args.client_games, args.serve_workers) as base:
        seats = await seats_of(base, args.client_games, random.Random(args.seed)) if base else []
        began = time.perf_counter()
        made = templates(args.variant, args.templates, RESOLUTIONS.get(args.variant, 1), datetime.now(UTC),
                         want_convoys=True)
        phases = {template.phase for template in made}
        print(f"{len(seats)} client seats of {args.client_games} games; {len(made)} templates of {args.variant} "
              f"at {sorted(phases)} ({sum(1 for t in made if t.convoys)} with a convoy possible), "
              f"{time.perf_counter() - began:.1f}s", flush=True)
        began = time.perf_counter()
        made, deadline, rows, convoys = await seed(url, made, args.games, args.batch, args.seed, args.lead)
        slack = deadline.timestamp() - time.time()
        print(f"{args.games} games seeded by COPY ({rows} events, {convoys} games with a convoy) in "
              f"{time.perf_counter() - began:.1f}s; the deadline {slack:.1f}s ahead"
              + ("" if slack > 3 else ": TOO LATE, the workers start after it (raise --lead)"), flush=True)
        with tempfile.TemporaryDirectory(prefix="storm-") as folder:
            workers = start_workers(url, args.workers, Path(folder))
            stop, puts = asyncio.Event(), Puts()
            client = (asyncio.create_task(keep_writing(base, seats, args.client_rate, args.client_connections,
                                                       stop, puts)) if base and seats else None)
            connection = await asyncpg.connect(asyncpg_dsn(url), timeout=10)
            try:
                calm_from = time.time()
                await asyncio.sleep(max(0.0, deadline.timestamp() - time.time()))
                started_cpu = cpu_seconds([worker.pid for worker in workers])  # start-up and idle sweeps
                took = await wait_until_resolved(connection, deadline, args.timeout)
                peaks = [memory_kib(worker.pid) for worker in workers]
                worker_cpu = cpu_seconds([worker.pid for worker in workers]) - started_cpu
                database_cpu = cpu_seconds(await database_pids(url))
                server_rss = tree_rss_kib(SERVER_PIDS[-1]) if SERVER_PIDS else 0
                await asyncio.sleep(1.0)
                stop.set()
                if client is not None:
                    await client
                counts, last = await resolutions(connection, phases)
                size = await connection.fetchval("SELECT pg_database_size(current_database())")
            finally:
                await connection.close()
                for worker in workers:
                    worker.terminate()
                for worker in workers:
                    worker.wait(timeout=30)
        print(f"the machine's load average at the end: {Path('/proc/loadavg').read_text().split()[0]} "
              f"({os.cpu_count()} cores)")
        end = deadline.timestamp() + took
        to_last = (last.timestamp() - deadline.timestamp()) if last else float("nan")
        resolved = sum(counts.values())
        print(f"storm: {resolved} phases resolved by {args.workers} workers in {took:.1f}s from the deadline "
              f"(the last resolution recorded {to_last:.1f}s after it; polled every {POLL_SECONDS}s); "
              f"{resolved / took if took == took and took else float('nan'):.0f} resolutions a second")
        per_game = 1000 / max(resolved, 1)
        print(f"CPU: the workers {worker_cpu:.1f}s from the deadline on ({worker_cpu * per_game:.2f} ms a game; "
              f"{started_cpu:.1f}s before it, starting), PostgreSQL's backends of the database {database_cpu:.1f}s "
              f"({database_cpu * per_game:.2f} ms a game, the client's share included)")
        doubled = sum(1 for n in counts.values() if n != 1)
        exact = len(counts) == args.games and doubled == 0
        print("every game's phase resolved exactly once" if exact
              else f"MISMATCH: {len(counts)} of {args.games} games resolved, {doubled} more than once")
        print(f"memory: workers' peak resident sets {[f'{kib / 1024:.0f} MiB' for kib in peaks]}, "
              f"the server's processes {server_rss / 1024:.0f} MiB; database {size / 2**20:.0f} MiB")
        if puts.sent:
            print(f"PUTs ({args.client_rate}/s asked, {puts.refused()} not 200): before the deadline "
                  f"{latencies(puts.between(calm_from, deadline.timestamp()))}; during the storm "
                  f"{latencies(puts.between(deadline.timestamp(), end))}")
        return 0 if exact else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--variant", default="standard", choices=["standard", "dirigible", "ekonia"])
    parser.add_argument("--workers", type=int, default=2, help="entente worker processes")
    parser.add_argument("--templates", type=int, default=32, help="games played out in memory to copy")
    parser.add_argument("--batch", type=int, default=2000, help="games a COPY transaction")
    parser.add_argument("--lead", type=float, help="seconds from the first pass of the seeding's end to the "
                                                   "deadline (default 5 + a quarter of that pass)")
    parser.add_argument("--timeout", type=float, default=900.0, help="seconds after the deadline to give up")
    parser.add_argument("--client-games", type=int, default=200, help="games the client writes orders to (0: none)")
    parser.add_argument("--client-rate", type=float, default=200.0, help="PUTs a second, in all")
    parser.add_argument("--client-connections", type=int, default=8)
    parser.add_argument("--serve-workers", type=int, default=1, help="entente serve's worker processes")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--server-url", default=server_url())
    return asyncio.run(storm(parser.parse_args()))


if __name__ == "__main__":
    raise SystemExit(main())
