"""On PostgreSQL, what an order submission's append and a stream's version read cost does not
grow with the game's age (docs/store.md, "A stream's version in one step").

Counted in the shared buffers the statements touch (EXPLAIN (ANALYZE, BUFFERS): a function's
count holds its own statements'), under the generic plans that a long-lived connection's cached
statements and the append functions' statements come to use. The database looks like a played
one: most streams hold one submission, so the planner expects one event a stream, and the game's
own stream holds an event for each phase played."""
from __future__ import annotations

import json
import uuid
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Any

import asyncpg
import pytest

from shared.store import EventStore, GameRow, NewEvent, open_store
from shared.store.notify import CHANNEL
from shared.store.postgresql import (
    APPEND_BATCH,
    APPEND_IF_CURRENT,
    POSITION_LOCK_KEY,
    READ_STREAMS_AFTER,
    SQL,
    STREAM_LOCK_CLASS,
)
from shared.store.statements import PREFIX_END
from tests.conftest import with_database

pytestmark = pytest.mark.postgres

OLD, YOUNG = "g_old", "g_young"
PHASES = 1500  # the old game's age; the young one has played one phase
NOW = datetime(2026, 1, 2, tzinfo=UTC)


@pytest.fixture
async def connection(postgres_url: str) -> AsyncIterator[asyncpg.Connection]:
    opened = await asyncpg.connect(postgres_url)
    try:
        yield opened
    finally:
        await opened.close()


@pytest.fixture
async def young_store(postgres_database_url: str) -> AsyncIterator[tuple[EventStore, str]]:
    """A store on a database of its own, made for this test: its tables never analyzed, as a
    fresh database's are (the session's database has statistics from the tests before)."""
    name = f"entente_young_{uuid.uuid4().hex[:12]}"
    admin = await asyncpg.connect(postgres_database_url)
    try:
        await admin.execute(f'CREATE DATABASE "{name}"')
        url = with_database(postgres_database_url, name)
        store = await open_store(url)
        try:
            yield store, url
        finally:
            await store.close()
    finally:
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await admin.close()


async def played_database(store: EventStore, connection: asyncpg.Connection) -> None:
    """Two games, one of them old: each phase appended its game stream's event after three
    submissions of their own streams, so that the game's events lie among those of the phases."""
    async with store.transaction() as tx:
        for game in (OLD, YOUNG):
            await tx.games.put_game(GameRow(game, "standard", game, "active", "S1901M", None, {},
                                      datetime(2026, 1, 1, tzinfo=UTC)))
        for phase in range(1, PHASES + 1):
            for game in (OLD, YOUNG) if phase == 1 else (OLD,):
                for power in ("ENGLAND", "FRANCE", "ITALY"):
                    await tx.events.append(f"orders-{game}-P{phase}-{power}", [NewEvent("OrdersSubmitted", {})],
                                           expected_version=0)
                await tx.events.append(f"game-{game}", [NewEvent("PhaseResolved", {"phase": phase})],
                                       expected_version=phase - 1)
    await connection.execute("ANALYZE events")


def buffers(plan: Any) -> int:
    top = json.loads(plan)[0]["Plan"]
    return int(top["Shared Hit Blocks"]) + int(top["Shared Read Blocks"])


def literal(value: Any) -> str:
    """The test's own values as SQL literals (EXPLAIN EXECUTE takes no bound parameters); the
    prepared statement gives them their types."""
    if value is None:
        return "NULL"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, datetime):
        value = value.isoformat()
    if isinstance(value, list):
        value = "{" + ",".join('"' + (item.isoformat() if isinstance(item, datetime) else str(item)) + '"'
                               for item in value) + "}"
    return "'" + str(value).replace("'", "''") + "'"


async def cost(connection: asyncpg.Connection, statement: str, *arguments: Any) -> int:
    """The buffers ``statement`` touches under its generic plan (what it wrote rolled back)."""
    transaction = connection.transaction()
    await transaction.start()
    try:
        await connection.execute("SET LOCAL plan_cache_mode = force_generic_plan")
        await connection.execute(f"PREPARE measured AS {statement}")
        values = ", ".join(literal(argument) for argument in arguments)
        plan = await connection.fetchval(f"EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) EXECUTE measured({values})")
        return buffers(plan)
    finally:
        await transaction.rollback()
        await connection.execute("DEALLOCATE measured")  # a prepared statement outlives its transaction


def batch_arguments(game: str, version: int, stream: str = "", watched: tuple[str, ...] = ()) -> tuple[Any, ...]:
    """entente_append_batch's arguments for one submission to ``stream`` watching ``watched``
    from the phase's start (by default the phase "NOW"'s French stream, watching itself)."""
    stream = stream or f"orders-{game}-NOW-FRANCE"
    watched = watched or (stream,)
    return ([game], [f"game-{game}"], [version], [stream], ["OrdersSubmitted"], [1], ["{}"], ["{}"], [NOW],
            POSITION_LOCK_KEY, STREAM_LOCK_CLASS, CHANNEL, list(watched), [1] * len(watched), [0])


def alone_arguments(game: str, version: int, stream: str = "", watched: tuple[str, ...] = ()) -> tuple[Any, ...]:
    """entente_append_if_current's, as ``batch_arguments``."""
    stream = stream or f"orders-{game}-NOW-FRANCE"
    watched = watched or (stream,)
    return (game, f"game-{game}", version, stream, None, "OrdersSubmitted", 1, "{}", "{}", NOW,
            POSITION_LOCK_KEY, STREAM_LOCK_CLASS, CHANNEL, list(watched), 0)


async def test_a_submissions_append_costs_the_same_in_a_young_game_and_an_old_one(
        postgres_store: EventStore, connection: asyncpg.Connection) -> None:
    await played_database(postgres_store, connection)
    young = {"batch": await cost(connection, APPEND_BATCH, *batch_arguments(YOUNG, 1)),
             "alone": await cost(connection, APPEND_IF_CURRENT, *alone_arguments(YOUNG, 1))}
    old = {"batch": await cost(connection, APPEND_BATCH, *batch_arguments(OLD, PHASES)),
           "alone": await cost(connection, APPEND_IF_CURRENT, *alone_arguments(OLD, PHASES))}

    # the guard read is one descent of an index whatever the game's age (aggregating the game
    # stream's events touched about one buffer for each of them)
    for way in ("batch", "alone"):
        assert old[way] <= young[way] + 12, (way, young, old)
    assert await postgres_store.events.stream_version(f"orders-{OLD}-NOW-FRANCE") == 0  # rolled back


async def test_a_streams_version_is_read_in_one_step_however_long_the_stream(
        postgres_store: EventStore, connection: asyncpg.Connection) -> None:
    await played_database(postgres_store, connection)
    young = await cost(connection, SQL.stream_version, f"game-{YOUNG}")
    old = await cost(connection, SQL.stream_version, f"game-{OLD}")

    assert old <= young + 3, (young, old)
    assert await postgres_store.events.stream_version(f"game-{OLD}") == PHASES


async def test_plans_a_session_made_while_the_log_was_young_hold_as_it_grows(
        young_store: tuple[EventStore, str]) -> None:
    """A pooled connection lives long, and the plans of the append functions' statements, and of
    its own cached statements, are made once in it: made over a young log (a fresh database, no
    statistics yet, none ever where autovacuum is off), they must not range over the log's
    positions once it is large (such plans read every event after the phase's start: about 200
    buffers here against 15 to 30, for a submission's append and for a phase's new submissions)."""
    store, url = young_store
    connection = await asyncpg.connect(url)
    async with store.transaction() as tx:
        await tx.games.put_game(GameRow(YOUNG, "standard", YOUNG, "active", "S1901M", None, {},
                                  datetime(2026, 1, 1, tzinfo=UTC)))
        await tx.events.append(f"game-{YOUNG}", [NewEvent("PhaseResolved", {})], expected_version=0)

    async def costs(phase: str) -> tuple[int, int, int]:
        """One submission appended in a batch and one alone, each watching two streams from the
        phase's start (what a phase's first submission asks), and the phase's submissions read
        after a position (phase_submissions), measured in this connection."""
        streams = tuple(f"orders-{YOUNG}-{phase}-{power}" for power in ("FRANCE", "ITALY"))
        explain = "EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) "
        batch = await connection.fetchval(explain + APPEND_BATCH, *batch_arguments(YOUNG, 1, streams[0], streams))
        alone = await connection.fetchval(explain + APPEND_IF_CURRENT,
                                          *alone_arguments(YOUNG, 1, streams[1], streams))
        prefix = f"orders-{YOUNG}-{phase}-"
        read = await connection.fetchval(explain + READ_STREAMS_AFTER, prefix, prefix + PREFIX_END, 1)
        return buffers(batch), buffers(alone), buffers(read)

    young = [await costs(f"P{n}") for n in range(8)]  # past the five custom plans: the cached ones in use
    async with store.transaction() as tx:
        for n in range(6000):
            await tx.events.append(f"orders-g_other-P{n}-FRANCE", [NewEvent("OrdersSubmitted", {"pad": "x" * 100})],
                                   expected_version=0)
    grown = await costs("LATER")
    await connection.close()

    # (a descent of a deeper index costs a few buffers more; the range over 6,000 events, about 200)
    assert all(now <= then + 25 for now, then in zip(grown, young[-1], strict=True)), (young[-1], grown)
