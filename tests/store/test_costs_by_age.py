"""On PostgreSQL, what an order submission's append and a stream's version read cost does not
grow with the game's age (docs/store.md, "A stream's version in one step").

Counted in the shared buffers the statements touch (EXPLAIN (ANALYZE, BUFFERS): a function's
count holds its own statements'), under the generic plans that a long-lived connection's cached
statements and the append functions' statements come to use. The database looks like a played
one: most streams hold one submission, so the planner expects one event a stream, and the game's
own stream holds an event for each phase played."""
from __future__ import annotations

import json
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Any

import asyncpg
import pytest

from shared.store import EventStore, GameRow, NewEvent
from shared.store.notify import CHANNEL
from shared.store.postgresql import (
    APPEND_BATCH,
    APPEND_IF_CURRENT,
    POSITION_LOCK_KEY,
    STREAM_LOCK_CLASS,
    STREAM_VERSION,
)

pytestmark = pytest.mark.postgres

OLD, YOUNG = "g_old", "g_young"
PHASES = 1500  # the old game's age; the young one has played one phase


@pytest.fixture
async def connection(postgres_url: str) -> AsyncIterator[asyncpg.Connection]:
    opened = await asyncpg.connect(postgres_url)
    try:
        yield opened
    finally:
        await opened.close()


async def played_database(store: EventStore, connection: asyncpg.Connection) -> None:
    """Two games, one of them old: each phase appended its game stream's event after three
    submissions of their own streams, so that the game's events lie among those of the phases."""
    async with store.transaction() as tx:
        for game in (OLD, YOUNG):
            await tx.put_game(GameRow(game, "standard", game, "active", "S1901M", None, {},
                                      datetime(2026, 1, 1, tzinfo=UTC)))
        for phase in range(1, PHASES + 1):
            for game in (OLD, YOUNG) if phase == 1 else (OLD,):
                for power in ("ENGLAND", "FRANCE", "ITALY"):
                    await tx.append(f"orders-{game}-P{phase}-{power}", [NewEvent("OrdersSubmitted", {})],
                                    expected_version=0)
                await tx.append(f"game-{game}", [NewEvent("PhaseResolved", {"phase": phase})],
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


def batch_arguments(game: str, version: int) -> tuple[Any, ...]:
    now, stream = datetime(2026, 1, 2, tzinfo=UTC), f"orders-{game}-NOW-FRANCE"
    return ([game], [f"game-{game}"], [version], [stream], ["OrdersSubmitted"], [1], ["{}"], ["{}"], [now],
            POSITION_LOCK_KEY, STREAM_LOCK_CLASS, CHANNEL, [stream], [1], [0])


def alone_arguments(game: str, version: int) -> tuple[Any, ...]:
    now, stream = datetime(2026, 1, 2, tzinfo=UTC), f"orders-{game}-NOW-FRANCE"
    return (game, f"game-{game}", version, stream, None, "OrdersSubmitted", 1, "{}", "{}", now,
            POSITION_LOCK_KEY, STREAM_LOCK_CLASS, CHANNEL, [stream], 0)


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
    assert await postgres_store.stream_version(f"orders-{OLD}-NOW-FRANCE") == 0  # rolled back


async def test_a_streams_version_is_read_in_one_step_however_long_the_stream(
        postgres_store: EventStore, connection: asyncpg.Connection) -> None:
    await played_database(postgres_store, connection)
    young = await cost(connection, STREAM_VERSION, f"game-{YOUNG}")
    old = await cost(connection, STREAM_VERSION, f"game-{OLD}")

    assert old <= young + 3, (young, old)
    assert await postgres_store.stream_version(f"game-{OLD}") == PHASES
