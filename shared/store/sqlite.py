"""The store on SQLite: aiosqlite directly, through a small pool of its connections.

What this back end adds to the shared semantics (docs/store.md, "Transactions and locking"):

- the driver's own transaction handling is off (``isolation_level=None``); every write
  transaction begins with ``BEGIN IMMEDIATE`` (one writer at a time, the others wait up to
  the busy timeout), ``reading()`` with a deferred ``BEGIN`` (one snapshot), and a
  read of the store's is one statement on its own. WAL mode lets readers run beside the writer;
- there are no row locks: a locked transaction only checks that the game's row exists, and
  ``claim=True`` changes nothing (the single writer is the arbiter);
- ``append_on_commit`` appends at once;
- an in-memory database lives in one connection, which its transactions take in turns.

Values are stored as SQLAlchemy stores them on SQLite (shared/store/tables.py): JSON text,
and datetimes as naive UTC text ``YYYY-MM-DD HH:MM:SS.ffffff`` (which sorts as it compares).

The recorders are shared/store/recorders.py's, on this module's runners (``OnConnection``,
``OnPool``), with the statements of shared/store/statements.py in SQLite's dialect; this back
end's own are appending (``SQLiteEvents``) and claiming the outbox's rows (``SQLiteOutbox``).
"""
from __future__ import annotations

import asyncio
import sqlite3
import threading
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager, nullcontext
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any
from urllib.parse import parse_qsl, urlencode

import aiosqlite

from shared.store.base import CONNECTION_WAIT_SECONDS, EventStore, SessionKind, Transaction
from shared.store.buckets import RateBuckets
from shared.store.gathered_buckets import GatheredBuckets
from shared.store.outbox import NO_OUTCOME_RECORDED, ClaimedNotification
from shared.store.outboxes import OutboxRecorder
from shared.store.recorders import EventRecorder, Runner, TransactionState, as_utc, dumps, loads, recorded, utc_now
from shared.store.records import ConcurrencyError, GameNotFound, GuardedAppend, NewEvent, RecordedEvent
from shared.store.schema import TABLE_NAMES, VERSION_TABLE_NAME, create_statements, schema_state
from shared.store.statements import EVENT_COLUMNS, SHARED, STAMPED_REVISION, Statements, for_sqlite

BUSY_TIMEOUT_MS = 30_000
POOL_SIZE = 15  # connections at most (each is a thread of aiosqlite's)
ROWS_PER_INSERT = 1000  # 7 parameters a row, well under SQLite's 32766
MINIMUM_VERSION = (3, 38)  # RETURNING (3.35), the -> and ->> operators of JSON (3.38)

# a prefix as a range of the unique (stream_id, version) index; SQLite compares text byte-wise
READ_STREAMS = (f"SELECT {EVENT_COLUMNS} FROM events WHERE stream_id >= ?1 AND stream_id < ?2 "
                "ORDER BY stream_id, version")
# after a position: the prefix's streams one by one (each the next stream id after the last),
# then each stream's events after ?3, both through ix_events_stream_position: the cost follows
# the streams, not the events they hold (docs/store.md, "Reading by prefix")
READ_STREAMS_AFTER = f"""WITH RECURSIVE streams(stream_id) AS (
    SELECT (SELECT min(stream_id) FROM events WHERE stream_id >= ?1 AND stream_id < ?2)
    UNION ALL
    SELECT (SELECT min(s.stream_id) FROM events AS s WHERE s.stream_id > streams.stream_id AND s.stream_id < ?2)
        FROM streams WHERE streams.stream_id IS NOT NULL)
SELECT {", ".join("e." + column for column in EVENT_COLUMNS.split(", "))}
FROM streams JOIN events AS e ON e.stream_id = streams.stream_id AND e.position > ?3
ORDER BY e.stream_id, e.version"""
# the prefixes as a JSON array (one bound parameter); substr and length count characters alike
READ_RANGE_OF = (f"SELECT {EVENT_COLUMNS} FROM events WHERE position > ?1 AND position <= ?2 "
                 "AND EXISTS (SELECT 1 FROM json_each(?3) AS prefix "
                 "WHERE substr(stream_id, 1, length(prefix.value)) = prefix.value) ORDER BY position")
SQL = for_sqlite(replace(SHARED, read_streams=READ_STREAMS, read_streams_after=READ_STREAMS_AFTER,
                         read_range_of=READ_RANGE_OF, take_bucket=SHARED.take_bucket.replace("GREATEST(", "max(")))

# append_if_current's watched read: the named streams (a JSON array, one bound parameter) after a
# position, each found through ix_events_stream_position
# the watched streams' events after a position up to the append's own: read after the writers'
# turn, as inside it (one writer, so every event up to the append's is committed by then)
READ_NAMED_STREAMS_BETWEEN = (f"SELECT {EVENT_COLUMNS} FROM events WHERE stream_id IN (SELECT value FROM json_each(?)) "
                              "AND position > ? AND position <= ? ORDER BY position")
_INSERT_EVENTS = "INSERT INTO events (stream_id, version, type, schema_version, data, metadata, recorded_at) VALUES "

# one statement, its own transaction (which takes the writer's lock before it reads anything):
# the event after the stream's end (or its expected version), if the game's row exists and the
# guard stream is still at the version given; nothing otherwise (GUARDED_FOUND then says why)
APPEND_IF_CURRENT = (
    "INSERT INTO events (stream_id, version, type, schema_version, data, metadata, recorded_at) "
    "SELECT ?1, current.version + 1, ?2, ?3, ?4, ?5, ?6 FROM "
    "(SELECT coalesce(max(version), 0) AS version FROM events WHERE stream_id = ?1) AS current "
    "WHERE EXISTS (SELECT 1 FROM games WHERE game_id = ?7) "
    "AND (SELECT coalesce(max(version), 0) FROM events WHERE stream_id = ?8) = ?9 "
    "AND (?10 IS NULL OR current.version = ?10) RETURNING position"
)
GUARDED_FOUND = ("SELECT EXISTS (SELECT 1 FROM games WHERE game_id = ?), "
                 "(SELECT coalesce(max(version), 0) FROM events WHERE stream_id = ?), "
                 "(SELECT coalesce(max(version), 0) FROM events WHERE stream_id = ?)")

GIVE_UP_NOTIFICATIONS = ("UPDATE notification_outbox SET status = 'dead', last_error = ? WHERE status = 'pending' "
                         "AND next_attempt_at <= ? AND attempts >= ?")
DUE_NOTIFICATIONS = ("SELECT id, url, payload, attempts, dedupe_key, (SELECT secret FROM webhook_secrets AS s "
                     "WHERE s.game_id = o.game_id AND s.recipient = o.player_id) FROM notification_outbox AS o "
                     "WHERE status = 'pending' AND next_attempt_at <= ? ORDER BY next_attempt_at, id LIMIT ?")
LEASE_NOTIFICATION = "UPDATE notification_outbox SET attempts = ?, next_attempt_at = ? WHERE id = ?"
EXISTING_TABLES = ("SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ("
                   + ", ".join("?" * (len(TABLE_NAMES) + 1)) + ")")


# ----------------------------------------------------------------------------- values

def stored_time(moment: datetime) -> str:
    return as_utc(moment).replace(tzinfo=None).isoformat(sep=" ", timespec="microseconds")


def read_time(text: str) -> datetime:
    return as_utc(datetime.fromisoformat(text))


# ----------------------------------------------------------------------------- the recorders

def bound(sql: str, args: Sequence[Any]) -> Sequence[Any] | dict[str, Any]:
    """The values of a statement numbered as PostgreSQL's are (``?1``, ``?2``: sqlite_text), by
    number: Python 3.12's sqlite3 warns of numbered parameters bound to a sequence, and 3.14 will
    refuse them; plain ``?`` statements take the sequence."""
    return {str(number): value for number, value in enumerate(args, 1)} if args and "?1" in sql else args


class OnConnection:
    """The ``Runner`` of a transaction: its statements on its one connection, none once a
    clash has doomed it."""

    sql: Statements = SQL

    def __init__(self, connection: aiosqlite.Connection, tx: TransactionState) -> None:
        self.connection = connection
        self._tx = tx

    async def rows(self, sql: str, *args: Any) -> list[Any]:
        self._tx.check_usable()
        return list(await self.connection.execute_fetchall(sql, bound(sql, args)))

    async def value(self, sql: str, *args: Any) -> Any:
        rows = await self.rows(sql, *args)
        return rows[0][0] if rows else None

    @staticmethod
    def time(moment: datetime) -> str:
        return stored_time(moment)

    @staticmethod
    def moment(value: str) -> datetime:
        return read_time(value)

    @staticmethod
    def texts(values: Sequence[str]) -> str:
        return dumps(list(values))


class OnPool(OnConnection):
    """The ``Runner`` of the store's reads: each statement on a connection of the pool, taken
    for it alone, outside any BEGIN."""

    def __init__(self, store: SQLiteStore) -> None:
        self._store = store

    async def rows(self, sql: str, *args: Any) -> list[Any]:
        async with self._store.connected("statement") as connection:
            return list(await connection.execute_fetchall(sql, bound(sql, args)))


class OnWriters(OnPool):
    """A write of a statement of its own (the rate limits' buckets), in this process's
    writers' turn."""

    async def rows(self, sql: str, *args: Any) -> list[Any]:
        async with self._store._writers:
            return await super().rows(sql, *args)


class SQLiteEvents(EventRecorder):
    """The event log, appended to under the writer's lock (which every write transaction holds)."""

    def __init__(self, db: OnConnection, tx: TransactionState) -> None:
        super().__init__(db, tx)
        self._on = db

    async def _append(self, stream_id: str, events: list[NewEvent],
                      expected_version: int | None) -> list[RecordedEvent]:
        rows = self._rows_after(stream_id, events, expected_version, await self.stream_version(stream_id))
        positions: list[int] = []
        try:
            for start in range(0, len(rows), ROWS_PER_INSERT):
                chunk = rows[start:start + ROWS_PER_INSERT]
                parameters = tuple(value for row in chunk for value in (
                    stream_id, row.version, row.type, row.schema_version, dumps(row.data),
                    dumps(row.metadata), stored_time(row.recorded_at)))
                values = ", ".join(["(?, ?, ?, ?, ?, ?, ?)"] * len(chunk))
                sql = _INSERT_EVENTS + values + " RETURNING position, version"
                # RETURNING gives its rows in no promised order: by version
                positions += [position for position, _ in sorted(await self._on.rows(sql, *parameters),
                                                                 key=lambda r: r[1])]
        except sqlite3.IntegrityError:
            # the unique (stream_id, version) key is the arbiter; this transaction is still usable
            actual = await self.stream_version(stream_id)
            raise self._tx.doom(ConcurrencyError(stream_id, expected_version, actual)) from None
        return self._recorded(stream_id, rows, positions)

    async def _append_on_commit(self, stream_id: str, events: list[NewEvent], expected_version: int | None) -> None:
        await self._append(stream_id, events, expected_version)  # the writer's lock is held anyway


class SQLiteOutbox(OutboxRecorder):
    """The outbox, its due rows read then leased (the writer's lock keeps other workers out)."""

    def __init__(self, db: OnConnection) -> None:
        super().__init__(db)
        self._on = db

    async def claim_notifications(self, now: datetime, lease: timedelta, limit: int,
                                  max_attempts: int | None = None) -> list[ClaimedNotification]:
        if max_attempts is not None:
            await self._on.rows(GIVE_UP_NOTIFICATIONS, NO_OUTCOME_RECORDED, stored_time(now), max_attempts)
        rows = await self._on.rows(DUE_NOTIFICATIONS, stored_time(now), limit)
        if rows:
            leased_until = stored_time(now + lease)
            await self._on.connection.executemany(LEASE_NOTIFICATION,
                                                  [(row[3] + 1, leased_until, row[0]) for row in rows])
        return [ClaimedNotification(row[0], row[1], loads(row[2]), row[3] + 1, row[4], row[5]) for row in rows]


class SQLiteTransaction(Transaction):
    dialect = "sqlite"

    def __init__(self, store: SQLiteStore, connection: aiosqlite.Connection, *, begun: bool) -> None:
        db = OnConnection(connection, self)
        super().__init__(store, db)
        self._on = db
        self._begun = begun  # False: a single statement outside any BEGIN
        self.events = SQLiteEvents(db, self)
        self.outbox = SQLiteOutbox(db)

    async def _commit(self) -> None:
        if self._begun:
            await self._on.connection.execute_fetchall("COMMIT")


# ----------------------------------------------------------------------------- connections

class Connections:
    """A pool of up to ``size`` open connections, opened as needed and kept until ``close``.

    ``close`` closes every connection the pool opened, those idle and those still lent out, and a
    connection given back after it is closed, so that no connection (each a thread of aiosqlite's)
    outlives the store (docs/store.md, "Connections on SQLite")."""

    def __init__(self, connect: Callable[[], Awaitable[aiosqlite.Connection]], size: int) -> None:
        self._connect = connect
        self._idle: list[aiosqlite.Connection] = []
        self._lent: set[aiosqlite.Connection] = set()
        self._closing: set[aiosqlite.Connection] = set()
        self._slots = asyncio.Semaphore(size)
        self._closed = False

    async def acquire(self) -> aiosqlite.Connection:
        if self._closed:
            raise RuntimeError("the SQLite store is closed")
        await asyncio.wait_for(self._slots.acquire(), CONNECTION_WAIT_SECONDS)
        try:
            connection = self._idle.pop() if self._idle else await self._connect()
        except BaseException:
            self._slots.release()
            raise
        self._lent.add(connection)
        return connection

    async def release(self, connection: aiosqlite.Connection, *, reusable: bool) -> None:
        self._lent.discard(connection)
        try:
            if reusable and not self._closed:
                self._idle.append(connection)
            else:
                await self._close(connection)
        finally:
            self._slots.release()

    async def close(self) -> None:
        self._closed = True
        idle, self._idle = self._idle, []
        lent, self._lent = list(self._lent), set()
        for connection in idle + lent:
            await self._close(connection)

    async def _close(self, connection: aiosqlite.Connection) -> None:
        """Close a connection once: aiosqlite's ``close`` run twice at the same time (the store
        closing a lent connection while its holder gives it back) stops the thread twice and
        waits for ever on the second stop."""
        if connection in self._closing:
            return
        self._closing.add(connection)
        try:
            await connection.close()
        finally:
            self._closing.discard(connection)


def sqlite_target(url: str) -> tuple[str, bool, bool]:
    """(database, whether it is a URI, whether it lives in memory) of a ``sqlite:///FILE`` URL."""
    rest = url.split(":", 1)[1]
    path, _, query = rest.removeprefix("//").removeprefix("/").partition("?")
    options = dict(parse_qsl(query))
    uri = options.pop("uri", "").lower() in ("true", "1")
    in_memory = not path or ":memory:" in path or options.get("mode") == "memory"
    if uri:
        path = f"{path}?{urlencode(options)}" if options else path
    return path or ":memory:", uri, in_memory


class SQLiteStore(EventStore):
    dialect = "sqlite"

    def __init__(self, url: str) -> None:
        if sqlite3.sqlite_version_info < MINIMUM_VERSION:
            raise RuntimeError(f"the store needs SQLite {'.'.join(map(str, MINIMUM_VERSION))} or later, "
                               f"not {sqlite3.sqlite_version}")
        self._writers = asyncio.Lock()  # before the buckets' runner (``OnWriters``) may use it
        self._reads = OnPool(self)
        super().__init__(self._reads)
        self._database, self._uri, self._in_memory = sqlite_target(url)
        # an in-memory database is its one connection: transactions take turns on it
        self._connections = Connections(self._open_connection, 1 if self._in_memory else POOL_SIZE)
        # this process's writers take turns here, first come first served, before SQLite's
        # lock: waiting on SQLite's busy handler instead, a writer sleeps 1, 2, 5 ... up to 100
        # ms between tries while later ones slip in (docs/store.md, "SQLite"): ``_writers``

    async def _open_connection(self) -> aiosqlite.Connection:
        connection = await _daemon(aiosqlite.connect(self._database, timeout=BUSY_TIMEOUT_MS / 1000,
                                                     isolation_level=None, uri=self._uri))
        pragmas = [f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}"]
        if not self._in_memory:
            pragmas += ["PRAGMA journal_mode = WAL", "PRAGMA synchronous = NORMAL"]
        try:
            for pragma in pragmas:
                await connection.execute_fetchall(pragma)
        except BaseException:
            await connection.close()
            raise
        return connection

    def _buckets(self, db: Runner) -> RateBuckets:
        return GatheredBuckets(OnWriters(self), "sqlite")  # writes: in this process's writers' turn

    def _writer(self, db: Runner) -> Runner:
        return OnWriters(self)

    async def close(self) -> None:
        await self._connections.close()

    @asynccontextmanager
    async def _session(self, kind: SessionKind) -> AsyncIterator[SQLiteTransaction]:
        async with self._writers if kind == "write" else nullcontext(), self.connected(kind) as connection:
            yield SQLiteTransaction(self, connection, begun=kind != "statement")

    @asynccontextmanager
    async def connected(self, kind: SessionKind) -> AsyncIterator[aiosqlite.Connection]:
        """A connection of the pool, begun as ``kind`` says (a statement: not begun), rolled
        back if the block raises."""
        connection = await self._connections.acquire()
        reusable = True
        try:
            if kind != "statement":
                await connection.execute_fetchall("BEGIN IMMEDIATE" if kind == "write" else "BEGIN")
            yield connection
        except BaseException:
            reusable = await _roll_back(connection)
            raise
        finally:
            await self._connections.release(connection, reusable=reusable)

    async def _append_if_current(self, game_id: str, guard_stream: str, guard_version: int, stream_id: str,
                                 event: NewEvent, expected_version: int | None, *,
                                 watch_streams: tuple[str, ...], watch_after: int) -> GuardedAppend:
        recorded_at = as_utc(event.recorded_at) if event.recorded_at else utc_now()
        async with self._writers, self.connected("statement") as connection:  # a write, in a statement of its own
            try:
                rows = list(await connection.execute_fetchall(APPEND_IF_CURRENT, bound(APPEND_IF_CURRENT, (
                    stream_id, event.type, event.schema_version, dumps(event.data), dumps(event.metadata),
                    stored_time(recorded_at), game_id, guard_stream, guard_version, expected_version))))
            except sqlite3.IntegrityError:
                rows = []
            if not rows:
                found, guard, version = list(await connection.execute_fetchall(
                    GUARDED_FOUND, (game_id, guard_stream, stream_id)))[0]
        if rows:  # the writers' turn is over: one hop of it a request (docs/store.md, "SQLite")
            position = int(rows[0][0])
            watched = [recorded(row, read_time) for row in await self._reads.rows(
                READ_NAMED_STREAMS_BETWEEN, dumps(list(watch_streams)), watch_after, position)] if watch_streams else []
            return GuardedAppend(guard_version, position, tuple(watched))
        if not found:
            raise GameNotFound(game_id)
        if guard != guard_version:
            return GuardedAppend(int(guard), None)
        raise ConcurrencyError(stream_id, expected_version, int(version))

    async def create_schema(self) -> None:
        """Inside ``BEGIN IMMEDIATE``, so that several processes creating it take turns."""
        async with self._writers, self.connected("write") as connection:
            names = {row[0] for row in await connection.execute_fetchall(EXISTING_TABLES,
                                                                         (*TABLE_NAMES, VERSION_TABLE_NAME))}
            revision = None
            if VERSION_TABLE_NAME in names:
                stamped = list(await connection.execute_fetchall(STAMPED_REVISION))
                revision = stamped[0][0] if stamped else None
            if schema_state(bool(names & set(TABLE_NAMES)), revision) == "fresh":
                for statement in create_statements(self.dialect):
                    await connection.execute_fetchall(statement)
            await connection.execute_fetchall("COMMIT")

    async def _empty_tables(self) -> None:
        async with self._writers, self.connected("write") as connection:
            for name in TABLE_NAMES:
                await connection.execute_fetchall(f"DELETE FROM {name}")
            await connection.execute_fetchall("COMMIT")


def _daemon(connection: aiosqlite.Connection) -> aiosqlite.Connection:
    """The connection, its thread made a daemon before it starts: a connection somebody forgot to
    close must not keep the process alive at exit (SQLite's commits are atomic, so nothing
    committed is lost; docs/store.md, "Connections on SQLite")."""
    thread = getattr(connection, "_thread", None)
    if isinstance(thread, threading.Thread) and not thread.is_alive():
        thread.daemon = True
    return connection


async def _roll_back(connection: aiosqlite.Connection) -> bool:
    """Roll back what the failed block began; whether the connection can serve again."""
    try:
        if connection.in_transaction:
            await connection.execute_fetchall("ROLLBACK")
        return True
    except Exception:
        return False

