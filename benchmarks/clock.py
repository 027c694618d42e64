"""The clock worker's throughput on PostgreSQL: a script that prints figures, not a test.

    python benchmarks/clock.py [--games 10000] [--workers 2] [--server-url postgresql://...]

Creates a fresh database on the PostgreSQL server (ENTENTE_BENCH_POSTGRES_URL, else
ENTENTE_TEST_POSTGRES_URL, else postgresql://postgres@127.0.0.1:5432/test), puts ``--games``
seven-player games in it whose S1901M deadline has passed (France has ordered, the six others
have not), written through the store in batches, then starts ``--workers`` processes of
``entente worker --once`` at the same time and prints how long they take to resolve every
game, and the resolutions per second. It then checks that every game was resolved exactly
once. The database is dropped at the end, whatever happens.
"""
from __future__ import annotations

import argparse
import asyncio
import os
import secrets
import subprocess
import sys
import time
from datetime import datetime, timedelta
from pathlib import Path
from urllib.parse import urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repository, for a run from anywhere

from shared.auth import hash_token
from shared.events import (
    DeadlineSet,
    Event,
    GameCreated,
    GameSettings,
    OrdersSubmitted,
    PlayerJoined,
    game_stream,
    orders_stream,
    to_new_event,
)
from shared.store import EventStore, open_store

ROOT = Path(__file__).resolve().parents[1]

DEFAULT_SERVER_URL = "postgresql://postgres@127.0.0.1:5432/test"
BATCH = 250


def due_game_events(index: int, now: datetime, *, french_orders: bool = True):
    """The events of one started game whose deadline passed a minute before ``now``: its
    stream's events, its order streams' events, and its games row."""
    from services.lobby.service import started_event
    from shared.game.repository import game_row
    from shared.game.state import fold

    game_id = f"g_bench{index:07d}"
    events: list[Event] = [GameCreated(game_id=game_id, variant="standard", name=f"Bench {index}",
                          settings=GameSettings(movement_minutes=60), host_token_hash=hash_token(game_id))]
    events += [PlayerJoined(player_id=f"p_{index}_{seat}", codename=f"Codename {seat}",
                            token_hash=hash_token(f"{game_id}-{seat}")) for seat in range(7)]
    state = fold(events)
    started = started_event(state, seed=index)
    events += [started, DeadlineSet(phase=started.phase, deadline=now - timedelta(minutes=1), minutes=60)]
    orders = {}
    if french_orders:
        player = next(p for p, powers in started.powers.items() if "FRANCE" in powers)
        submitted = OrdersSubmitted(phase=started.phase, power="FRANCE", player_id=player, orders=["A PAR - BUR"])
        orders[orders_stream(game_id, started.phase, "FRANCE")] = [submitted]
    return game_id, events, orders, game_row(fold(events), now)


async def put_due_games(store: EventStore, count: int, now: datetime, *, start: int = 0,
                        batch: int = BATCH, french_orders: bool = True) -> list[str]:
    """Write ``count`` due games through the store, ``batch`` games a transaction."""
    game_ids: list[str] = []
    for first in range(start, start + count, batch):
        built = [due_game_events(i, now, french_orders=french_orders)
                 for i in range(first, min(first + batch, start + count))]
        async with store.transaction() as tx:
            for game_id, events, orders, row in built:
                await tx.events.append(game_stream(game_id), [to_new_event(e) for e in events], expected_version=0)
                for stream, stream_events in orders.items():
                    await tx.events.append(stream, [to_new_event(e) for e in stream_events], expected_version=0)
                await tx.games.put_game(row)
                game_ids.append(game_id)
    return game_ids


async def resolutions_per_game(store: EventStore) -> dict[str, int]:
    """PhaseResolved events by game stream, read through the whole log."""
    counts: dict[str, int] = {}
    position = 0
    while records := await store.events.read_all(position, limit=5000):
        for record in records:
            if record.type == "PhaseResolved":
                counts[record.stream_id] = counts.get(record.stream_id, 0) + 1
        position = records[-1].position
    return counts


async def _database(server_url: str, name: str, create: bool) -> None:
    import asyncpg

    connection = await asyncpg.connect(server_url.replace("postgresql+asyncpg://", "postgresql://"), timeout=10)
    try:
        if create:
            await connection.execute(f'CREATE DATABASE "{name}"')
        else:
            await connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await connection.close()


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--server-url", default=os.environ.get("ENTENTE_BENCH_POSTGRES_URL")
                        or os.environ.get("ENTENTE_TEST_POSTGRES_URL") or DEFAULT_SERVER_URL)
    args = parser.parse_args()
    name = f"entente_bench_clock_{secrets.token_hex(4)}"
    await _database(args.server_url, name, create=True)
    url = urlsplit(args.server_url)._replace(path=f"/{name}").geturl()
    try:
        store = await open_store(url)
        try:
            began = time.perf_counter()
            await put_due_games(store, args.games, datetime.now().astimezone())
            print(f"{args.games} due games written in {time.perf_counter() - began:.1f}s", flush=True)

            began = time.perf_counter()
            workers = [subprocess.Popen([sys.executable, "-m", "services.cli", "worker", "--once", "--database", url],
                                        cwd=ROOT, stderr=subprocess.PIPE, text=True)
                       for _ in range(args.workers)]
            outputs = [worker.communicate()[1].strip().splitlines()[-1:] for worker in workers]
            elapsed = time.perf_counter() - began
            resolved = await resolutions_per_game(store)
        finally:
            await store.close()
        print(f"{args.workers} workers: {[line[0] if line else '?' for line in outputs]}")
        print(f"resolved {sum(resolved.values())} phases of {len(resolved)} games in {elapsed:.1f}s "
              f"({sum(resolved.values()) / elapsed:.0f} resolutions per second, worker start-up included)")
        doubled = [stream for stream, count in resolved.items() if count != 1]
        print("every game resolved exactly once" if len(resolved) == args.games and not doubled
              else f"MISMATCH: {len(resolved)} games resolved, {len(doubled)} more than once")
        return 0 if len(resolved) == args.games and not doubled else 1
    finally:
        await _database(args.server_url, name, create=False)


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main()))
