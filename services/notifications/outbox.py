"""The outbox: a tracking projection that plans notifications from the log, and the claims and
outcomes of their delivery. Each step is one short transaction of its own; none of them ever
takes a game's lock, so notifications can never hold up a resolution.

- ``project``: reads the log after the position stored in ``projection_positions``, plans the
  notifications of each event (``planning.py``), and writes them with the new position in one
  transaction (a crash before the commit plans nothing; planned rows have a unique key, so the
  same event never plans twice). Its position row is locked FOR UPDATE, so two projectors take
  turns.
- ``claim``: takes due rows (``FOR UPDATE SKIP LOCKED`` on PostgreSQL, so workers never share a
  row), counts the attempt and leases the row until the attempt's outcome is recorded (a worker
  that dies mid-delivery leaves the row to be retried when the lease ends).
- ``record``: delivered; or retried after ``backoff * 2**(attempts-1)``; or dead-lettered once
  ``max_attempts`` attempts failed.
"""
from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import and_, func, select, update
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncConnection

from shared.events import from_recorded, game_stream
from shared.events_social import WebhookRemoved, WebhookSet, press_stream, webhooks_stream
from shared.game.state import fold
from shared.store import EventStore, RecordedEvent
from shared.store.outbox_tables import NotificationTable, ProjectionPositionTable
from shared.store.tables import EventTable

from .planning import Cancel, Context, Planned, plan

PROJECTION = "notifications"
log = logging.getLogger("entente.notifications")
outbox = NotificationTable.__table__
positions = ProjectionPositionTable.__table__
events = EventTable.__table__


@asynccontextmanager
async def write_transaction(store: EventStore) -> AsyncIterator[AsyncConnection]:
    """A write transaction on the store's database (BEGIN IMMEDIATE on SQLite, as the store's)."""
    async with store.engine.connect() as connection:
        if store.dialect == "sqlite":
            await connection.execution_options(sqlite_begin="BEGIN IMMEDIATE")
        async with connection.begin():
            yield connection


def _insert(dialect: str, table: Any) -> Any:
    return postgresql_insert(table) if dialect == "postgresql" else sqlite_insert(table)


def _record(row: Any) -> RecordedEvent:
    return RecordedEvent(stream_id=row.stream_id, version=row.version, position=row.position, type=row.type,
                         schema_version=row.schema_version, data=row.data, metadata=row.metadata,
                         recorded_at=row.recorded_at)


_COLUMNS = (events.c.position, events.c.stream_id, events.c.version, events.c.type, events.c.schema_version,
            events.c.data, events.c["metadata"], events.c.recorded_at)


def game_of(stream_id: str) -> str | None:
    """The game a stream that can cause notifications belongs to."""
    kind, _, game_id = stream_id.partition("-")
    return game_id if kind in ("game", "press", "webhooks") and game_id else None


# ----------------------------------------------------------------------------- the projection

async def _behind(store: EventStore) -> bool:
    """Whether the log holds events past the projection's position: two plain reads."""
    async with store.engine.connect() as connection:
        done = (await connection.execute(select(positions.c.position)
                                         .where(positions.c.name == PROJECTION))).scalar_one_or_none()
        newest = (await connection.execute(select(func.max(events.c.position)))).scalar_one_or_none()
    return newest is not None and (done is None or newest > done)


async def _position(connection: AsyncConnection, dialect: str) -> int:
    await connection.execute(_insert(dialect, positions).values(name=PROJECTION, position=0)
                             .on_conflict_do_nothing(index_elements=[positions.c.name]))
    statement = select(positions.c.position).where(positions.c.name == PROJECTION)
    if dialect == "postgresql":
        statement = statement.with_for_update()
    return int((await connection.execute(statement)).scalar_one())


async def _stream(connection: AsyncConnection, stream_id: str) -> list[RecordedEvent]:
    statement = select(*_COLUMNS).where(events.c.stream_id == stream_id).order_by(events.c.version)
    return [_record(row) for row in await connection.execute(statement)]


class _Games:
    """The game and webhook streams of the games a batch touches, read once per batch."""

    def __init__(self, connection: AsyncConnection) -> None:
        self._connection = connection
        self._streams: dict[str, tuple[list[RecordedEvent], list[RecordedEvent]]] = {}

    async def context_at(self, game_id: str, position: int) -> Context | None:
        if game_id not in self._streams:
            self._streams[game_id] = (await _stream(self._connection, game_stream(game_id)),
                                      await _stream(self._connection, webhooks_stream(game_id)))
        game_records, hook_records = self._streams[game_id]
        game_events = [from_recorded(r) for r in game_records if r.position <= position]
        if not game_events:
            return None
        webhooks: dict[str, str] = {}
        for record in hook_records:
            if record.position <= position:
                hook = from_recorded(record)
                if isinstance(hook, WebhookSet):
                    webhooks[hook.player_id] = hook.url
                elif isinstance(hook, WebhookRemoved):
                    webhooks.pop(hook.player_id, None)
        return Context(fold(game_events), webhooks)


async def project(store: EventStore, warning: timedelta, batch: int = 500) -> int:
    """Plan the notifications of the next ``batch`` events of the log; how many were read."""
    if not await _behind(store):
        return 0  # nothing new: no write transaction (on SQLite, no writer's lock every second)
    async with write_transaction(store) as connection:
        after = await _position(connection, store.dialect)
        statement = select(*_COLUMNS).where(events.c.position > after).order_by(events.c.position).limit(batch)
        records = [_record(row) for row in await connection.execute(statement)]
        if not records:
            return 0
        games = _Games(connection)
        for record in records:
            game_id = game_of(record.stream_id)
            if game_id is None or record.stream_id not in (game_stream(game_id), press_stream(game_id),
                                                         webhooks_stream(game_id)):
                continue
            try:
                context = await games.context_at(game_id, record.position)
                if context is None:
                    continue
                planned, cancelled = plan(record, from_recorded(record), context, warning)
            except Exception:  # one unreadable event must not stop every notification after it
                log.exception("no notifications for the event at position %s", record.position)
                continue
            for cancel in cancelled:
                await _cancel(connection, cancel)
            for notification in planned:
                await _add(connection, store.dialect, notification, record)
        await connection.execute(update(positions).where(positions.c.name == PROJECTION)
                                 .values(position=records[-1].position))
    return len(records)


async def project_all(store: EventStore, warning: timedelta, batch: int = 500) -> int:
    """Run the projection until it has caught up with the log."""
    total = 0
    while read := await project(store, warning, batch):
        total += read
    return total


async def _add(connection: AsyncConnection, dialect: str, planned: Planned, source: RecordedEvent) -> None:
    values = {"dedupe_key": planned.dedupe_key, "game_id": planned.game_id, "player_id": planned.player_id,
              "kind": planned.kind, "phase": planned.phase, "url": planned.url, "payload": planned.payload,
              "status": "pending", "attempts": 0, "next_attempt_at": planned.not_before,
              "source_position": source.position, "created_at": source.recorded_at}
    await connection.execute(_insert(dialect, outbox).values(values)
                             .on_conflict_do_nothing(index_elements=[outbox.c.dedupe_key]))


async def _cancel(connection: AsyncConnection, cancel: Cancel) -> None:
    conditions = [outbox.c.status == "pending", outbox.c.game_id == cancel.game_id]
    if cancel.kind is not None:
        conditions.append(outbox.c.kind == cancel.kind)
    if cancel.phase is not None:
        conditions.append(outbox.c.phase == cancel.phase)
    if cancel.player_id is not None:
        conditions.append(outbox.c.player_id == cancel.player_id)
    await connection.execute(update(outbox).where(and_(*conditions)).values(status="cancelled"))


# ----------------------------------------------------------------------------- delivery bookkeeping

@dataclass(frozen=True, slots=True)
class Claimed:
    id: int
    url: str
    payload: dict[str, Any]
    attempts: int  # counting the attempt about to be made


async def claim(store: EventStore, now: datetime, lease: timedelta, limit: int = 50) -> list[Claimed]:
    """Due notifications, each leased to this worker for one attempt."""
    async with write_transaction(store) as connection:
        statement = (select(outbox.c.id, outbox.c.url, outbox.c.payload, outbox.c.attempts)
                     .where(outbox.c.status == "pending", outbox.c.next_attempt_at <= now)
                     .order_by(outbox.c.next_attempt_at, outbox.c.id).limit(limit))
        if store.dialect == "postgresql":
            statement = statement.with_for_update(skip_locked=True)
        rows = list(await connection.execute(statement))
        for row in rows:
            await connection.execute(update(outbox).where(outbox.c.id == row.id)
                                     .values(attempts=row.attempts + 1, next_attempt_at=now + lease))
    return [Claimed(row.id, row.url, row.payload, row.attempts + 1) for row in rows]


def next_attempt(attempts: int, max_attempts: int, backoff_seconds: float, now: datetime,
                 retry_after: float | None = None) -> datetime | None:
    """When to try again after ``attempts`` failed attempts; None: give up (dead letter)."""
    if attempts >= max_attempts:
        return None
    delay = backoff_seconds * 2 ** (attempts - 1)
    return now + timedelta(seconds=max(delay, retry_after or 0.0))


async def record(store: EventStore, claimed: Claimed, now: datetime, error: str | None,
                 retry_at: datetime | None) -> str:
    """Store an attempt's outcome (only if the row is still this attempt's); the new status."""
    if error is None:
        status, values = "delivered", {"status": "delivered", "delivered_at": now, "last_error": None}
    elif retry_at is None:
        status, values = "dead", {"status": "dead", "last_error": error[:500]}
    else:
        status, values = "pending", {"next_attempt_at": retry_at, "last_error": error[:500]}
    async with write_transaction(store) as connection:
        await connection.execute(update(outbox).where(outbox.c.id == claimed.id, outbox.c.status == "pending",
                                                      outbox.c.attempts == claimed.attempts).values(values))
    return status


async def notifications(store: EventStore, game_id: str | None = None) -> list[dict[str, Any]]:
    """The outbox rows (of one game), oldest first: for operators and tests."""
    statement = select(outbox).order_by(outbox.c.id)
    if game_id is not None:
        statement = statement.where(outbox.c.game_id == game_id)
    async with store.engine.connect() as connection:
        return [dict(row._mapping) for row in await connection.execute(statement)]


async def counts(store: EventStore) -> dict[str, int]:
    async with store.engine.connect() as connection:
        rows = await connection.execute(select(outbox.c.status, func.count()).group_by(outbox.c.status))
        return {row[0]: int(row[1]) for row in rows}

