"""Row locks (PostgreSQL) and schema creation from several processes at once (both back ends)."""
from __future__ import annotations

import asyncio
import subprocess
import sys
import uuid
from datetime import UTC, datetime
from pathlib import Path

import asyncpg
import pytest

from shared.store import EventStore, GameRow, NewEvent
from tests.conftest import with_database
from tests.utils.wait import until

OPEN_STORE = "import asyncio, sys; from shared.store import open_store\n" \
    "async def main():\n    store = await open_store(sys.argv[1]); await store.close()\n" \
    "asyncio.run(main())"


def open_in_processes(url: str, count: int) -> list[subprocess.CompletedProcess]:
    processes = [
        subprocess.Popen([sys.executable, "-c", OPEN_STORE, url], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True)
        for _ in range(count)
    ]
    results = []
    for process in processes:
        stdout, stderr = process.communicate(timeout=120)
        results.append(subprocess.CompletedProcess(process.args, process.returncode, stdout, stderr))
    return results


async def lock_waiters(connection: asyncpg.Connection) -> int:
    """How many sessions of this database are waiting on a lock (pg_stat_activity)."""
    return await connection.fetchval("SELECT count(*) FROM pg_stat_activity "
                                     "WHERE datname = current_database() AND wait_event_type = 'Lock'")


async def add_game(store: EventStore, game_id: str) -> None:
    row = GameRow(game_id, "standard", "locks", "active", "S1901M", None, {}, datetime.now(UTC))
    async with store.transaction() as tx:
        await tx.games.put_game(row)


def test_schema_creation_from_several_processes_at_once_on_sqlite(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'fresh.db'}"
    for result in open_in_processes(url, 3):
        assert result.returncode == 0, result.stderr


def test_schema_creation_from_several_processes_at_once_on_postgresql(postgres_database_url: str) -> None:
    name = f"entente_schema_{uuid.uuid4().hex[:10]}"
    session_dsn = postgres_database_url

    async def admin(statement: str) -> None:
        connection = await asyncpg.connect(session_dsn)
        try:
            await connection.execute(statement)
        finally:
            await connection.close()

    asyncio.run(admin(f'CREATE DATABASE "{name}"'))
    try:
        url = with_database(postgres_database_url, name)
        for result in open_in_processes(url, 3):
            assert result.returncode == 0, result.stderr
    finally:
        asyncio.run(admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


async def test_share_locks_admit_many_submitters_while_the_exclusive_lock_waits(postgres_store: EventStore,
                                                                                 postgres_url: str) -> None:
    store = postgres_store
    await add_game(store, "g1")
    inside: list[str] = []
    release = asyncio.Event()

    async def submitter(power: str) -> None:
        async with store.transaction("g1", lock="share") as tx:
            inside.append(power)
            await tx.events.append(f"orders-g1-S1901M-{power}", [NewEvent("OrdersSubmitted", {"power": power})], None)
            await release.wait()

    async def resolver() -> None:
        async with store.transaction("g1", lock="exclusive") as tx:
            inside.append("resolver")
            assert sorted(await tx.events.read_streams("orders-g1-S1901M-")) == ["orders-g1-S1901M-ENGLAND",
                                                                           "orders-g1-S1901M-FRANCE"]

    submitters = [asyncio.create_task(submitter(power)) for power in ("FRANCE", "ENGLAND")]
    # both submitters get in together (their appends then take turns on the advisory lock)
    await until(lambda: len(inside) == 2, what="both submitters inside")
    resolving = asyncio.create_task(resolver())
    watching = await asyncpg.connect(postgres_url)
    try:
        await until(lambda: lock_waiters(watching), what="the resolver to wait on the game's lock")
    finally:
        await watching.close()
    assert "resolver" not in inside, "the exclusive lock must wait for the share locks"
    assert sorted(inside) == ["ENGLAND", "FRANCE"]
    release.set()
    await asyncio.wait_for(asyncio.gather(*submitters, resolving), 10)
    assert inside[-1] == "resolver"


async def test_two_share_lock_holders_are_inside_at_the_same_time(postgres_store: EventStore) -> None:
    store = postgres_store
    await add_game(store, "g1")
    both_inside = asyncio.Barrier(2)

    async def reader_of_phase() -> None:
        async with store.transaction("g1", lock="share") as tx:
            await tx.games.get_game("g1")
            await both_inside.wait()  # would time out if the second were kept out

    await asyncio.wait_for(asyncio.gather(reader_of_phase(), reader_of_phase()), 10)


async def test_an_exclusive_lock_keeps_submitters_out_until_it_commits(postgres_store: EventStore,
                                                                       postgres_url: str) -> None:
    store = postgres_store
    await add_game(store, "g1")
    order: list[str] = []
    resolver_in = asyncio.Event()

    async def resolver() -> None:
        async with store.transaction("g1", lock="exclusive") as tx:
            resolver_in.set()
            watching = await asyncpg.connect(postgres_url)
            try:
                await until(lambda: lock_waiters(watching), what="the submitter to wait on the game's lock")
            finally:
                await watching.close()
            row = await tx.games.get_game("g1")
            assert row is not None
            row.phase = "F1901M"
            await tx.games.put_game(row)
            order.append("resolved")

    async def submitter() -> None:
        await resolver_in.wait()
        async with store.transaction("g1", lock="share") as tx:
            row = await tx.games.get_game("g1")
            assert row is not None
            order.append(f"submitted in {row.phase}")

    await asyncio.wait_for(asyncio.gather(resolver(), submitter()), 10)
    assert order == ["resolved", "submitted in F1901M"]


async def test_the_unique_key_decides_a_race_the_version_check_cannot_see(
    postgres_store: EventStore, postgres_url: str
) -> None:
    """A writer outside the store inserts version 1 and commits only after our version check:
    the unique (stream_id, version) key refuses our insert, reported as a ConcurrencyError."""
    from shared.store import ConcurrencyError

    outsider = await asyncpg.connect(postgres_url)
    try:
        outside = outsider.transaction()
        await outside.start()
        await outsider.execute(
            "INSERT INTO events (stream_id, version, type, schema_version, data, metadata, recorded_at) "
            "VALUES ('game-race', 1, 'Outside', 1, '{}', '{}', now())")

        async def ours() -> None:
            async with postgres_store.transaction() as tx:
                await tx.events.append("game-race", [NewEvent("Ours", {})], expected_version=0)

        racing = asyncio.create_task(ours())
        await until(lambda: lock_waiters(outsider), what="our insert to wait on the outsider's uncommitted row")
        assert not racing.done()
        await outside.commit()
        with pytest.raises(ConcurrencyError) as raised:
            await asyncio.wait_for(racing, 10)
    finally:
        await outsider.close()
    assert (raised.value.expected, raised.value.actual) == (0, 1)
    assert [event.type for event in await postgres_store.events.read_stream("game-race")] == ["Outside"]
