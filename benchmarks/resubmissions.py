"""An order submission's append as its phase fills up: a script that prints figures, not a test.

    python benchmarks/resubmissions.py [--backend postgresql|sqlite] [--appends 10000]
                                       [--chunks 5] [--concurrency 8] [--server-url postgresql://...]

Creates a fresh database (PostgreSQL: on the server at ENTENTE_BENCH_POSTGRES_URL, else
ENTENTE_TEST_POSTGRES_URL, else postgresql://postgres@127.0.0.1:5432/test; SQLite: a file in a
temporary directory) with one game, then makes ``--appends`` order submissions in one phase
through ``EventStore.append_if_current`` (the store call behind ``PUT /orders``), the seven
powers in turn, ``--concurrency`` at once, each watching the phase's order streams after a
position 30 events back (as a process that folded the phase a moment ago). For each of
``--chunks`` equal parts it prints appends a second, the database server's CPU time per append
(PostgreSQL on this machine: its backends' time from /proc), and one prefix read of the phase
after that recent position (``read_streams``, as a possible-orders request makes it; the
median of 21). Flat
rows mean a submission costs the same however many the phase already holds.

It uses only the store's public API; the tree before the (stream, position) index passed the
watched streams as a prefix (``watch_prefix``), which it detects, so that it runs on both
trees (copied with benchmarks/scratch.py into another tree,
``python OTHER_TREE/benchmarks/resubmissions.py`` measures that tree's code). The database is
dropped at the end, whatever happens.
"""
from __future__ import annotations

import argparse
import asyncio
import inspect
import statistics
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.scratch import cpu_seconds, database_pids, scratch_database, server_url  # noqa: E402
from shared.store import EventStore, GameRow, NewEvent, open_store  # noqa: E402

POWERS = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")
GAME = "g_resubmitted"
PREFIX = f"orders-{GAME}-S1901M-"
BEHIND = 30  # events the watching process has not folded yet
READS = 21  # prefix reads after each part, of which the median is printed


def watching(store: EventStore) -> dict[str, Any]:
    """The watch argument this tree's store takes: the streams by name, or (before) their prefix."""
    if "watch_streams" in inspect.signature(store.append_if_current).parameters:
        return {"watch_streams": [PREFIX + power for power in POWERS]}
    return {"watch_prefix": PREFIX}


async def measure(url: str, postgresql: bool, args: argparse.Namespace) -> None:
    store = await open_store(url)
    try:
        async with store.transaction() as tx:
            await tx.games.put_game(GameRow(GAME, "standard", GAME, "active", "S1901M", None, {}, datetime.now(UTC)))
            await tx.events.append(f"game-{GAME}", [NewEvent("Seeded", {"n": 1})], 0)
        watch = watching(store)
        positions: list[int] = [0]
        gate = asyncio.Semaphore(args.concurrency)
        event_data = {"power": "", "orders": ["A VIE - TRI", "A BUD - SER", "F TRI - ALB"]}

        async def submit(number: int) -> None:
            power = POWERS[number % len(POWERS)]
            async with gate:
                event = NewEvent("OrdersSubmitted", {**event_data, "power": power})
                outcome = await store.append_if_current(GAME, f"game-{GAME}", 1, PREFIX + power, event,
                                                        watch_after=max(positions[-1] - BEHIND, 0), **watch)
            positions.append(max(positions[-1], outcome.position or 0))

        per_chunk = args.appends // args.chunks
        await asyncio.gather(*(submit(n) for n in range(args.concurrency * 4)))  # every pool connection open
        pids = await database_pids(url) if postgresql else []
        for chunk in range(args.chunks):
            cpu, wall = cpu_seconds(pids), time.perf_counter()
            await asyncio.gather(*(submit(n) for n in range(per_chunk)))
            seconds, server = time.perf_counter() - wall, cpu_seconds(pids) - cpu
            reads = []
            for _ in range(READS):
                read_started = time.perf_counter()
                streams = await store.events.read_streams(PREFIX, max(positions[-1] - BEHIND, 0))
                reads.append(time.perf_counter() - read_started)
            read_ms = statistics.median(reads) * 1000
            held = args.concurrency * 4 + (chunk + 1) * per_chunk
            server_text = f"{server / per_chunk * 1e6:4.0f} us of the server's CPU each, " if pids else ""
            read_text = f"a prefix read of the last {sum(map(len, streams.values()))} events {read_ms:.2f} ms"
            print(f"submissions {held - per_chunk:6d}-{held:6d} of the phase: {per_chunk / seconds:5.0f} a second, "
                  f"{server_text}{read_text} (median of {READS})", flush=True)
    finally:
        await store.close()


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--backend", choices=("postgresql", "sqlite"), default="postgresql")
    parser.add_argument("--appends", type=int, default=10_000)
    parser.add_argument("--chunks", type=int, default=5)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--server-url", default=server_url())
    args = parser.parse_args()
    async with scratch_database(args.backend, args.server_url, "entente_bench_resubmit") as url:
        await measure(url, args.backend == "postgresql", args)
    return 0


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main()))
