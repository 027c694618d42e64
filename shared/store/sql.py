"""The event store over SQLAlchemy's async engine: one implementation for SQLite and PostgreSQL.

The dialect differences are few and kept here:

- SQLite: the driver's own transaction handling is switched off and every store transaction
  begins itself: ``BEGIN IMMEDIATE`` for ``transaction()`` (one writer at a time, the others
  wait up to the busy timeout), a plain deferred ``BEGIN`` for the convenience reads. WAL mode
  lets readers run beside the writer.
- PostgreSQL: ``transaction(game_id, lock=...)`` locks the game's row ``FOR SHARE`` or
  ``FOR UPDATE``; an append takes a transaction-level advisory lock in the very statement that
  inserts the events, so global positions are assigned in the order the transactions commit (a
  reader tailing ``read_all`` never skips an event that committed late). That lock is global:
  it is held from the insert to the commit only, never while the version is read. An append
  "after the end" (``expected_version=None``) first takes a lock on its stream alone, so that
  two of them to one stream take turns instead of clashing on the version.
"""
from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager, nullcontext
from datetime import datetime, timezone
from typing import Any, Literal

from asyncpg.exceptions import UniqueViolationError
from sqlalchemy import func, insert, select, text
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine
from sqlmodel import SQLModel

from shared.store import postgresql
from shared.store.notify import BACKSTOP_SECONDS, CHANNEL, POLL_SECONDS, CommitListener
from shared.store.records import ConcurrencyError, GameNotFound, GameRow, NewEvent, RecordedEvent
from shared.store.tables import STORE_TABLES, EventTable, GameTable

LockMode = Literal["none", "share", "exclusive"]

# pg_advisory_xact_lock keys: any constants, as long as nothing else in the database uses them.
POSITION_LOCK_KEY = 0x656E7465_6E746501  # "entente" + 1: serialises event inserts
SCHEMA_LOCK_KEY = 0x656E7465_6E746502  # "entente" + 2: serialises schema creation
# (class, hash of the stream id): one stream's appends after the end; the two-key space of
# advisory locks does not overlap the one-key space above
STREAM_LOCK_CLASS = 0x656E7465

# Insert a batch of events of one stream, taking the global position lock first in the same
# statement (the lock's row is produced before any row, so before any position is drawn) and
# telling the listeners (delivered on commit).
_POSTGRESQL_INSERT = text(
    "INSERT INTO events (stream_id, version, type, schema_version, data, metadata, recorded_at) "
    "SELECT :stream_id, batch.version, batch.type, batch.schema_version, batch.data::jsonb, "
    "batch.metadata::jsonb, batch.recorded_at "
    "FROM (SELECT pg_advisory_xact_lock(:position_key), pg_notify(:channel, '')) AS position_lock, "
    "unnest(CAST(:versions AS integer[]), CAST(:types AS text[]), CAST(:schema_versions AS integer[]), "
    "CAST(:datas AS text[]), CAST(:metadatas AS text[]), CAST(:recorded_ats AS timestamptz[])) "
    "WITH ORDINALITY AS batch(version, type, schema_version, data, metadata, recorded_at, n) "
    "ORDER BY batch.n RETURNING position, version"
)

events = EventTable.__table__
games = GameTable.__table__


def utc_now() -> datetime:
    return datetime.now(timezone.utc)


def as_utc(moment: datetime) -> datetime:
    """An aware UTC datetime; a naive one is taken as UTC."""
    if moment.tzinfo is None:
        return moment.replace(tzinfo=timezone.utc)
    return moment.astimezone(timezone.utc)


def _recorded_event(row: Any) -> RecordedEvent:
    return RecordedEvent(
        stream_id=row.stream_id,
        version=row.version,
        position=row.position,
        type=row.type,
        schema_version=row.schema_version,
        data=row.data,
        metadata=row.metadata,
        recorded_at=row.recorded_at,
    )


def _game_row(row: Any) -> GameRow:
    return GameRow(
        game_id=row.game_id,
        variant=row.variant,
        name=row.name,
        status=row.status,
        phase=row.phase,
        deadline=row.deadline,
        summary=row.summary,
        updated_at=row.updated_at,
    )


# Columns of a RecordedEvent, with the stored "metadata" column under its plain name.
_EVENT_COLUMNS = (
    events.c.position,
    events.c.stream_id,
    events.c.version,
    events.c.type,
    events.c.schema_version,
    events.c.data,
    events.c["metadata"],
    events.c.recorded_at,
)


class Transaction:
    """One database transaction of the store; obtained from ``EventStore.transaction``."""

    def __init__(self, store: EventStore, connection: AsyncConnection) -> None:
        self._store = store
        self._connection = connection
        self._holds_position_lock = False
        self.appended = False  # whether this transaction has written events (which it may read back uncommitted)
        self.failure: ConcurrencyError | None = None
        self._raw: Any = None  # PostgreSQL: the asyncpg connection, once a hot statement needed it
        self._raw_known = store.dialect != "postgresql"
        self._pending: list[tuple[str, int | None, list[dict[str, Any]]]] = []  # append_on_commit's
        self._appended_on_commit = False

    async def _driver(self) -> Any | None:
        """The asyncpg connection for the hot statements (shared/store/postgresql.py), or None:
        SQLite, or an adapter this store does not know."""
        if not self._raw_known:
            self._raw, self._raw_known = await postgresql.driver(self._connection), True
        return self._raw

    @property
    def dialect(self) -> str:
        return self._store.dialect

    @property
    def store(self) -> EventStore:
        return self._store

    async def append(
        self, stream_id: str, events_to_append: Sequence[NewEvent], expected_version: int | None
    ) -> list[RecordedEvent]:
        """Append events after version ``expected_version`` of the stream (None: after its end).

        A clash raises ConcurrencyError and dooms the whole transaction: nothing of it is
        written, even if the caller catches the error.
        """
        if self._appended_on_commit:
            raise RuntimeError("append after append_on_commit in one transaction: it would not see those events")
        return await self._append_now(stream_id, events_to_append, expected_version)

    async def _append_now(
        self, stream_id: str, events_to_append: Sequence[NewEvent], expected_version: int | None
    ) -> list[RecordedEvent]:
        rows = await self._checked_rows(stream_id, events_to_append, expected_version)
        if not rows:
            return []
        try:
            on_postgresql = self.dialect == "postgresql"
            positions = await (self._insert_postgresql(stream_id, rows) if on_postgresql else self._insert(rows))
        except (IntegrityError, UniqueViolationError):
            # The unique (stream_id, version) key is the arbiter: a concurrent writer got there.
            actual = await self._version_after_clash(stream_id)
            raise self._doom(ConcurrencyError(stream_id, expected_version, actual)) from None
        return [
            RecordedEvent(
                stream_id=stream_id,
                version=row["version"],
                position=position,
                type=row["type"],
                schema_version=row["schema_version"],
                data=row["data"],
                metadata=row["metadata"],
                recorded_at=row["recorded_at"],
            )
            for row, position in zip(rows, positions, strict=True)
        ]

    async def append_on_commit(
        self, stream_id: str, events_to_append: Sequence[NewEvent], expected_version: int | None
    ) -> None:
        """Append events as this transaction's last write, for a caller that needs no positions
        back: the version is checked now, the events are written with the commit. On PostgreSQL
        the insert and the COMMIT go in one message, so the global position lock is held for no
        round trip to this process (that lock is what limits the rate of appends). Call it once
        per stream at most; ``append`` may not follow it in this transaction, and the
        transaction's own reads do not see these events. A clash raises ConcurrencyError when
        the transaction ends."""
        if await self._driver() is None:
            await self._append_now(stream_id, events_to_append, expected_version)  # SQLite: at once
        elif rows := await self._checked_rows(stream_id, events_to_append, expected_version):
            self._pending.append((stream_id, expected_version, rows))
        self._appended_on_commit = True

    async def _commit_pending(self) -> None:
        """Write the events held back by ``append_on_commit`` and commit, in one message (the
        transaction SQLAlchemy then commits is an empty one, begun in the same message)."""
        if not self._pending:
            return
        script = [postgresql.insert_events_literally(stream_id, rows, POSITION_LOCK_KEY, CHANNEL)
                  for stream_id, _, rows in self._pending]
        try:
            await self._raw.execute(";\n".join([*script, "COMMIT", "BEGIN"]))
        except UniqueViolationError:
            stream_id, expected_version, _ = self._pending[0]
            actual = await self._version_after_clash(stream_id)
            raise self._doom(ConcurrencyError(stream_id, expected_version, actual)) from None

    async def _checked_rows(
        self, stream_id: str, events_to_append: Sequence[NewEvent], expected_version: int | None
    ) -> list[dict[str, Any]]:
        """The rows to insert after the stream's current version, once ``expected_version`` is
        checked (an append after the end first locks its stream on PostgreSQL)."""
        self._check_usable()
        on_postgresql = self.dialect == "postgresql"
        if events_to_append and on_postgresql and expected_version is None and not self._holds_position_lock:
            if raw := await self._driver():
                await postgresql.lock_stream(raw, STREAM_LOCK_CLASS, stream_id)
            else:
                await self._connection.execute(select(func.pg_advisory_xact_lock(STREAM_LOCK_CLASS,
                                                                                 func.hashtext(stream_id))))
        current = await self.stream_version(stream_id)
        if expected_version is not None and expected_version != current:
            raise self._doom(ConcurrencyError(stream_id, expected_version, current))
        if not events_to_append:
            return []
        self.appended = True
        now = utc_now()
        return [
            {
                "stream_id": stream_id,
                "version": current + offset,
                "type": event.type,
                "schema_version": event.schema_version,
                "data": event.data,
                "metadata": event.metadata,
                "recorded_at": as_utc(event.recorded_at) if event.recorded_at else now,
            }
            for offset, event in enumerate(events_to_append, start=1)
        ]

    async def _insert(self, rows: list[dict[str, Any]]) -> list[int]:
        statement = insert(events).returning(events.c.position, sort_by_parameter_order=True)
        return [row.position for row in (await self._connection.execute(statement, rows)).all()]

    async def _insert_postgresql(self, stream_id: str, rows: list[dict[str, Any]]) -> list[int]:
        """One statement: the position lock, then the rows in order (positions by version)."""
        if raw := await self._driver():
            positions = await postgresql.insert_events(raw, stream_id, rows, POSITION_LOCK_KEY, CHANNEL)
            self._holds_position_lock = True
            return positions
        result = await self._connection.execute(_POSTGRESQL_INSERT, {
            "stream_id": stream_id, "position_key": POSITION_LOCK_KEY, "channel": CHANNEL,
            "versions": [row["version"] for row in rows], "types": [row["type"] for row in rows],
            "schema_versions": [row["schema_version"] for row in rows],
            "datas": [json.dumps(row["data"]) for row in rows],
            "metadatas": [json.dumps(row["metadata"]) for row in rows],
            "recorded_ats": [row["recorded_at"] for row in rows]})
        self._holds_position_lock = True
        return [position for position, _ in sorted(result.all(), key=lambda row: row.version)]

    async def stream_version(self, stream_id: str) -> int:
        self._check_usable()
        if raw := await self._driver():
            return await postgresql.stream_version(raw, stream_id)
        statement = select(func.coalesce(func.max(events.c.version), 0)).where(events.c.stream_id == stream_id)
        return int((await self._connection.execute(statement)).scalar_one())

    async def read_stream(self, stream_id: str, after_version: int = 0) -> list[RecordedEvent]:
        self._check_usable()
        if raw := await self._driver():
            return await postgresql.read_stream(raw, stream_id, after_version)
        statement = (
            select(*_EVENT_COLUMNS)
            .where(events.c.stream_id == stream_id, events.c.version > after_version)
            .order_by(events.c.version)
        )
        return [_recorded_event(row) for row in await self._connection.execute(statement)]

    async def read_streams(self, prefix: str) -> dict[str, list[RecordedEvent]]:
        """Every stream whose id starts with ``prefix``, by stream id, each in version order."""
        self._check_usable()
        if raw := await self._driver():
            return await postgresql.read_streams(raw, prefix)
        statement = (
            select(*_EVENT_COLUMNS)
            .where(events.c.stream_id.startswith(prefix, autoescape=True))
            .order_by(events.c.stream_id, events.c.version)
        )
        streams: dict[str, list[RecordedEvent]] = {}
        for row in await self._connection.execute(statement):
            # SQLite's LIKE ignores case: keep only exact prefix matches
            if row.stream_id.startswith(prefix):
                streams.setdefault(row.stream_id, []).append(_recorded_event(row))
        return streams

    async def read_all(self, after_position: int = 0, limit: int = 1000) -> list[RecordedEvent]:
        self._check_usable()
        statement = (
            select(*_EVENT_COLUMNS)
            .where(events.c.position > after_position)
            .order_by(events.c.position)
            .limit(limit)
        )
        return [_recorded_event(row) for row in await self._connection.execute(statement)]

    async def get_game(self, game_id: str) -> GameRow | None:
        self._check_usable()
        row = (await self._connection.execute(select(games).where(games.c.game_id == game_id))).first()
        return None if row is None else _game_row(row)

    async def put_game(self, row: GameRow) -> None:
        """Insert or update the game's read-model row.

        On PostgreSQL, update an existing row only in a transaction that holds its exclusive
        lock: two share-lock holders updating the same row deadlock.
        """
        self._check_usable()
        if raw := await self._driver():
            await postgresql.put_game(raw, row)
            return
        values = {
            "game_id": row.game_id,
            "variant": row.variant,
            "name": row.name,
            "status": row.status,
            "phase": row.phase,
            "deadline": row.deadline,
            "summary": row.summary,
            "updated_at": row.updated_at,
        }
        upsert = postgresql_insert(games) if self.dialect == "postgresql" else sqlite_insert(games)
        changes = {key: value for key, value in values.items() if key != "game_id"}
        statement = upsert.values(values).on_conflict_do_update(index_elements=[games.c.game_id], set_=changes)
        await self._connection.execute(statement)

    async def due_games(self, now: datetime, limit: int, *, claim: bool = False) -> list[GameRow]:
        """Games whose deadline is at or before ``now``, earliest first.

        ``claim=True`` (PostgreSQL) locks the returned rows FOR UPDATE SKIP LOCKED, so that
        concurrent clock workers each get different games; SQLite has one writer anyway.
        """
        self._check_usable()
        statement = (
            select(games)
            .where(games.c.deadline.is_not(None), games.c.deadline <= now)
            .order_by(games.c.deadline, games.c.game_id)
            .limit(limit)
        )
        if claim and self.dialect == "postgresql":
            statement = statement.with_for_update(skip_locked=True)
        return [_game_row(row) for row in await self._connection.execute(statement)]

    async def list_games(self, status: str | None = None, limit: int = 100) -> list[GameRow]:
        self._check_usable()
        statement = select(games).order_by(games.c.updated_at.desc(), games.c.game_id).limit(limit)
        if status is not None:
            statement = statement.where(games.c.status == status)
        return [_game_row(row) for row in await self._connection.execute(statement)]

    async def lock_game(self, game_id: str, lock: LockMode) -> None:
        """Lock the game's row (PostgreSQL) or check it exists (SQLite). GameNotFound if absent."""
        if raw := await self._driver():
            if not await postgresql.lock_game(raw, game_id, lock):
                raise GameNotFound(game_id)
            return
        statement = select(games.c.game_id).where(games.c.game_id == game_id)
        if self.dialect == "postgresql" and lock != "none":
            statement = statement.with_for_update(read=(lock == "share"))
        if (await self._connection.execute(statement)).first() is None:
            raise GameNotFound(game_id)

    async def _version_after_clash(self, stream_id: str) -> int:
        if self.dialect == "sqlite":  # the transaction is still usable after a failed statement
            return await self.stream_version(stream_id)
        # PostgreSQL has aborted this transaction; the winner has committed by now
        return await self._store.stream_version(stream_id)

    def _doom(self, error: ConcurrencyError) -> ConcurrencyError:
        self.failure = error
        return error

    def _check_usable(self) -> None:
        if self.failure is not None:
            raise self.failure


class EventStore:
    """The store: open it with ``open_store(url)``; close it when done."""

    def __init__(self, engine: AsyncEngine, dialect: str, *, single_connection: bool = False) -> None:
        self._engine = engine
        self.dialect = dialect
        # An in-memory SQLite database lives in one shared connection: take turns on it.
        self._turns = asyncio.Lock() if single_connection else None
        self._listener: CommitListener | None = None
        # per-process caches of what callers fold from this store's log, by the caller's key
        # (services/lobby/cache.py); ``truncate`` empties it with the tables
        self.memo: dict[str, Any] = {}
        if dialect == "postgresql":
            dsn = engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
            self._listener = CommitListener(dsn)

    @property
    def engine(self) -> AsyncEngine:
        return self._engine

    async def close(self) -> None:
        if self._listener is not None:
            await self._listener.close()
        await self._engine.dispose()

    async def create_schema(self) -> None:
        """Create the tables and indexes if missing; safe to run concurrently from many processes."""
        async with self._connect(write=True) as connection:
            if self.dialect == "postgresql":
                await connection.execute(select(func.pg_advisory_xact_lock(SCHEMA_LOCK_KEY)))
            await connection.run_sync(lambda sync: SQLModel.metadata.create_all(sync, tables=STORE_TABLES))

    def transaction(
        self, game_id: str | None = None, lock: LockMode = "none"
    ) -> AbstractAsyncContextManager[Transaction]:
        """A write transaction: commits on exit, rolls back on an exception.

        ``lock="share"`` lets many order submissions for one game in at once while keeping a
        resolution (``"exclusive"``) out; raises GameNotFound if the game has no row.
        """
        if lock not in ("none", "share", "exclusive"):
            raise ValueError(f"lock must be 'none', 'share' or 'exclusive', not {lock!r}")
        if lock != "none" and game_id is None:
            raise ValueError("a locked transaction needs a game_id")
        return self._transaction(game_id, lock, write=True)

    def reading(self) -> AbstractAsyncContextManager[Transaction]:
        """A transaction for reads only: it never takes the writer's lock (SQLite: a deferred
        BEGIN, one snapshot under WAL; PostgreSQL: each statement on its own, no BEGIN/COMMIT
        round trips). Appending in it is a mistake the database refuses on neither back end, so
        don't."""
        return self._transaction(None, "none", write=False)

    @asynccontextmanager
    async def _transaction(self, game_id: str | None, lock: LockMode, *, write: bool) -> AsyncIterator[Transaction]:
        async with self._connect(write=write) as connection:
            tx = Transaction(self, connection)
            if game_id is not None and lock != "none":
                await tx.lock_game(game_id, lock)
            yield tx
            if tx.failure is not None:
                # the caller swallowed a ConcurrencyError: nothing of this transaction is written
                raise tx.failure
            await tx._commit_pending()

    @asynccontextmanager
    async def _connect(self, *, write: bool) -> AsyncIterator[AsyncConnection]:
        async with self._turns or nullcontext():
            async with self._engine.connect() as connection:
                if self.dialect == "postgresql" and not write:
                    # the convenience reads are one statement each, consistent by itself:
                    # no BEGIN and COMMIT round trips around it
                    await connection.execution_options(isolation_level="AUTOCOMMIT")
                    yield connection
                    return
                if self.dialect == "sqlite":
                    await connection.execution_options(sqlite_begin="BEGIN IMMEDIATE" if write else "BEGIN")
                async with connection.begin():
                    yield connection

    async def read_stream(self, stream_id: str, after_version: int = 0) -> list[RecordedEvent]:
        async with self._transaction(None, "none", write=False) as tx:
            return await tx.read_stream(stream_id, after_version)

    async def read_streams(self, prefix: str) -> dict[str, list[RecordedEvent]]:
        async with self._transaction(None, "none", write=False) as tx:
            return await tx.read_streams(prefix)

    async def stream_version(self, stream_id: str) -> int:
        async with self._transaction(None, "none", write=False) as tx:
            return await tx.stream_version(stream_id)

    async def read_all(self, after_position: int = 0, limit: int = 1000) -> list[RecordedEvent]:
        async with self._transaction(None, "none", write=False) as tx:
            return await tx.read_all(after_position, limit)

    async def wait_for_events(
        self, after_position: int, timeout: float, limit: int = 1000
    ) -> list[RecordedEvent]:
        """Events after ``after_position``; when there are none yet, wait up to ``timeout``
        seconds for some to commit (an empty list when none did). For live views: tail the log
        with ``after_position`` = the last position seen."""
        deadline = asyncio.get_running_loop().time() + max(timeout, 0.0)
        listening = self._listener is not None and await self._listener.ensure_listening()
        slice_seconds = BACKSTOP_SECONDS if listening else POLL_SECONDS
        while True:
            waiter = self._listener.register() if listening else None  # before reading: no lost wake-up
            try:
                events = await self.read_all(after_position, limit)
                remaining = deadline - asyncio.get_running_loop().time()
                if events or remaining <= 0:
                    return events
                try:
                    if waiter is None:
                        await asyncio.sleep(min(slice_seconds, remaining))
                    else:
                        await asyncio.wait_for(waiter.wait(), min(slice_seconds, remaining))
                except asyncio.TimeoutError:
                    pass
            finally:
                if waiter is not None:
                    self._listener.unregister(waiter)  # type: ignore[union-attr]

    async def get_game(self, game_id: str) -> GameRow | None:
        async with self._transaction(None, "none", write=False) as tx:
            return await tx.get_game(game_id)

    async def list_games(self, status: str | None = None, limit: int = 100) -> list[GameRow]:
        async with self._transaction(None, "none", write=False) as tx:
            return await tx.list_games(status, limit)

    async def truncate(self) -> None:
        """Empty every table of the store (tests only)."""
        self.memo.clear()
        async with self._connect(write=True) as connection:
            if self.dialect == "postgresql":
                names = ", ".join(table.name for table in STORE_TABLES)
                await connection.execute(text(f"TRUNCATE {names} RESTART IDENTITY"))
            else:
                for table in STORE_TABLES:
                    await connection.execute(table.delete())
