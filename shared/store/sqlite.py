"""The store on SQLite: aiosqlite directly, through a small pool of its connections.

What this back end adds to the shared semantics (docs/store.md, "Transactions and locking"):

- the driver's own transaction handling is off (``isolation_level=None``); every write
  transaction begins with ``BEGIN IMMEDIATE`` (one writer at a time, the others wait up to
  the busy timeout), ``reading()`` with a deferred ``BEGIN`` (one snapshot), and a
  convenience read is one statement on its own. WAL mode lets readers run beside the writer;
- there are no row locks: a locked transaction only checks that the game's row exists, and
  ``claim=True`` changes nothing (the single writer is the arbiter);
- ``append_on_commit`` appends at once;
- an in-memory database lives in one connection, which its transactions take in turns.

Values are stored as SQLAlchemy stores them on SQLite (shared/store/tables.py): JSON text,
and datetimes as naive UTC text ``YYYY-MM-DD HH:MM:SS.ffffff`` (which sorts as it compares).
"""
from __future__ import annotations

import asyncio
import sqlite3
import threading
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager, nullcontext
from datetime import datetime, timedelta
from typing import Any
from urllib.parse import parse_qsl, urlencode

import aiosqlite
import orjson

from shared.store.base import CONNECTION_WAIT_SECONDS, EventStore, SessionKind, Transaction
from shared.store.outbox import (
    NO_OUTCOME_RECORDED,
    NOTIFICATION_COLUMNS,
    ClaimedNotification,
    Dead,
    Delivered,
    NewNotification,
    Notification,
    Outcome,
    Retry,
)
from shared.store.recorders import LockMode, as_utc, utc_now
from shared.store.records import ConcurrencyError, GameNotFound, GameRow, GuardedAppend, NewEvent, RecordedEvent
from shared.store.schema import TABLE_NAMES, VERSION_TABLE, create_statements, schema_state

BUSY_TIMEOUT_MS = 30_000
POOL_SIZE = 15  # connections at most (each is a thread of aiosqlite's)
ROWS_PER_INSERT = 1000  # 7 parameters a row, well under SQLite's 32766
MINIMUM_VERSION = (3, 35)  # RETURNING

_EVENT_COLUMNS = "position, stream_id, version, type, schema_version, data, metadata, recorded_at"
READ_STREAM = f"SELECT {_EVENT_COLUMNS} FROM events WHERE stream_id = ? AND version > ? ORDER BY version"
READ_STREAM_PAGE = (f"SELECT {_EVENT_COLUMNS} FROM events WHERE stream_id = ? AND version > ? AND version <= ? "
                    "ORDER BY version")
# a prefix as a range of the unique (stream_id, version) index; SQLite compares text byte-wise
READ_STREAMS = f"SELECT {_EVENT_COLUMNS} FROM events WHERE stream_id >= ? AND stream_id < ? ORDER BY stream_id, version"
# after a position: the prefix's streams one by one (each the next stream id after the last),
# then each stream's events after ?3, both through ix_events_stream_position: the cost follows
# the streams, not the events they hold (docs/store.md, "Reading by prefix")
READ_STREAMS_AFTER = f"""WITH RECURSIVE streams(stream_id) AS (
    SELECT (SELECT min(stream_id) FROM events WHERE stream_id >= ?1 AND stream_id < ?2)
    UNION ALL
    SELECT (SELECT min(s.stream_id) FROM events AS s WHERE s.stream_id > streams.stream_id AND s.stream_id < ?2)
        FROM streams WHERE streams.stream_id IS NOT NULL)
SELECT {", ".join("e." + column for column in _EVENT_COLUMNS.split(", "))}
FROM streams JOIN events AS e ON e.stream_id = streams.stream_id AND e.position > ?3
ORDER BY e.stream_id, e.version"""
PREFIX_END = "\U0010ffff"  # after every character a stream id holds
# append_if_current's watched read: the named streams (a JSON array, one bound parameter) after a
# position, each found through ix_events_stream_position
READ_NAMED_STREAMS_AFTER = (f"SELECT {_EVENT_COLUMNS} FROM events WHERE stream_id IN (SELECT value FROM json_each(?)) "
                            "AND position > ? ORDER BY position")
READ_ALL = f"SELECT {_EVENT_COLUMNS} FROM events WHERE position > ? ORDER BY position LIMIT ?"
LAST_OF_NEXT = ("SELECT coalesce(max(position), ?1), count(*) FROM "
                "(SELECT position FROM events WHERE position > ?1 ORDER BY position LIMIT ?2)")
# the prefixes as a JSON array (one bound parameter); substr and length count characters alike
READ_RANGE_OF = (f"SELECT {_EVENT_COLUMNS} FROM events WHERE position > ? AND position <= ? "
                 "AND EXISTS (SELECT 1 FROM json_each(?) AS prefix "
                 "WHERE substr(stream_id, 1, length(prefix.value)) = prefix.value) ORDER BY position")
STREAM_VERSION = "SELECT coalesce(max(version), 0) FROM events WHERE stream_id = ?"
HEAD = "SELECT coalesce(max(position), 0) FROM events"
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

_GAME_COLUMNS = "game_id, variant, name, status, phase, deadline, summary, updated_at"
GET_GAME = f"SELECT {_GAME_COLUMNS} FROM games WHERE game_id = ?"
PUT_GAME = (
    f"INSERT INTO games ({_GAME_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
    "ON CONFLICT (game_id) DO UPDATE SET variant = excluded.variant, name = excluded.name, "
    "status = excluded.status, phase = excluded.phase, deadline = excluded.deadline, "
    "summary = excluded.summary, updated_at = excluded.updated_at"
)
DUE_GAMES = (f"SELECT {_GAME_COLUMNS} FROM games WHERE deadline IS NOT NULL AND deadline <= ? "
             "ORDER BY deadline, game_id LIMIT ?")
# a private game (GameSettings.private in the summary) is left out of the lobby's list
_LISTED = "(? = 0 OR coalesce(json_extract(summary, '$.settings.private'), 0) = 0)"
# with a value (0 or 1), only the games whose bots_may_join setting is that (docs/api.md, "Games")
_LISTED += " AND (? IS NULL OR coalesce(json_extract(summary, '$.settings.bots_may_join'), 0) = ?)"
LIST_GAMES = (f"SELECT {_GAME_COLUMNS} FROM games WHERE (? IS NULL OR variant = ?) AND {_LISTED} "
              "ORDER BY updated_at DESC, game_id LIMIT ?")
LIST_GAMES_WITH_STATUS = (f"SELECT {_GAME_COLUMNS} FROM games WHERE status = ? AND (? IS NULL OR variant = ?) "
                          f"AND {_LISTED} ORDER BY updated_at DESC, game_id LIMIT ?")
LIST_GAMES_AFTER = (f"SELECT {_GAME_COLUMNS} FROM games WHERE (? IS NULL OR status = ?) AND (? IS NULL OR variant = ?) "
                    f"AND {_LISTED} AND (updated_at < ? OR (updated_at = ? AND game_id > ?)) "
                    "ORDER BY updated_at DESC, game_id LIMIT ?")
GAME_EXISTS = "SELECT 1 FROM games WHERE game_id = ?"
OLDEST_DUE = "SELECT min(deadline) FROM games WHERE deadline IS NOT NULL AND deadline <= ?"

PROJECTION_POSITION = "SELECT position FROM projection_positions WHERE name = ?"
LOCK_PROJECTION = ("INSERT INTO projection_positions (name, position) VALUES (?, 0) ON CONFLICT (name) "
                   "DO UPDATE SET position = projection_positions.position RETURNING position")
SET_PROJECTION = "UPDATE projection_positions SET position = ? WHERE name = ?"

PLAN_NOTIFICATION = (
    "INSERT INTO notification_outbox (dedupe_key, game_id, player_id, kind, phase, url, payload, status, attempts, "
    "next_attempt_at, source_position, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, 'pending', 0, ?, ?, ?) "
    "ON CONFLICT (dedupe_key) DO NOTHING RETURNING id"
)
CANCEL_NOTIFICATIONS = (
    "UPDATE notification_outbox SET status = 'cancelled' WHERE status = 'pending' AND game_id = ?1 "
    "AND (?2 IS NULL OR kind = ?2) AND (?3 IS NULL OR phase = ?3) AND (?4 IS NULL OR player_id = ?4) RETURNING id"
)
GIVE_UP_NOTIFICATIONS = ("UPDATE notification_outbox SET status = 'dead', last_error = ? WHERE status = 'pending' "
                         "AND next_attempt_at <= ? AND attempts >= ?")
DUE_NOTIFICATIONS = ("SELECT id, url, payload, attempts, dedupe_key, (SELECT secret FROM webhook_secrets AS s "
                     "WHERE s.game_id = o.game_id AND s.recipient = o.player_id) FROM notification_outbox AS o "
                     "WHERE status = 'pending' AND next_attempt_at <= ? ORDER BY next_attempt_at, id LIMIT ?")
SET_WEBHOOK_SECRET = ("INSERT INTO webhook_secrets (game_id, recipient, secret, set_at) VALUES (?, ?, ?, ?) "
                      "ON CONFLICT (game_id, recipient) DO UPDATE SET secret = excluded.secret, "
                      "set_at = excluded.set_at")
REMOVE_WEBHOOK_SECRET = "DELETE FROM webhook_secrets WHERE game_id = ? AND recipient = ?"
LEASE_NOTIFICATION = "UPDATE notification_outbox SET attempts = ?, next_attempt_at = ? WHERE id = ?"
_STILL_LEASED = " WHERE id = ? AND status = 'pending' AND attempts = ? RETURNING id"
RECORD_OUTCOME = {
    Delivered: ("UPDATE notification_outbox SET status = 'delivered', delivered_at = ?, last_error = NULL"
                + _STILL_LEASED),
    Retry: "UPDATE notification_outbox SET next_attempt_at = ?, last_error = ?" + _STILL_LEASED,
    Dead: "UPDATE notification_outbox SET status = 'dead', last_error = ?" + _STILL_LEASED,
}
RELEASE_NOTIFICATION = ("UPDATE notification_outbox SET attempts = attempts - 1, next_attempt_at = ?"
                        + _STILL_LEASED)
LIST_NOTIFICATIONS = f"SELECT {NOTIFICATION_COLUMNS} FROM notification_outbox ORDER BY id"
LIST_GAME_NOTIFICATIONS = f"SELECT {NOTIFICATION_COLUMNS} FROM notification_outbox WHERE game_id = ? ORDER BY id"
COUNT_NOTIFICATIONS = "SELECT status, count(*) FROM notification_outbox GROUP BY status"
EXISTING_TABLES = ("SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ("
                   + ", ".join("?" * (len(TABLE_NAMES) + 1)) + ")")
STAMPED_REVISION = "SELECT version_num FROM alembic_version"


# ----------------------------------------------------------------------------- values and rows

def dumps(value: Any) -> str:
    """JSON text as stored (orjson: several times the standard library's speed)."""
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


def stored_time(moment: datetime) -> str:
    return as_utc(moment).replace(tzinfo=None).isoformat(sep=" ", timespec="microseconds")


def read_time(text: str) -> datetime:
    return as_utc(datetime.fromisoformat(text))


def _optional_time(text: str | None) -> datetime | None:
    return None if text is None else read_time(text)


def recorded(row: Any) -> RecordedEvent:
    return RecordedEvent(stream_id=row[1], version=row[2], position=row[0], type=row[3], schema_version=row[4],
                         data=orjson.loads(row[5]), metadata=orjson.loads(row[6]), recorded_at=read_time(row[7]))


def game(row: Any) -> GameRow:
    return GameRow(game_id=row[0], variant=row[1], name=row[2], status=row[3], phase=row[4],
                   deadline=_optional_time(row[5]), summary=orjson.loads(row[6]), updated_at=read_time(row[7]))


def notification(row: Any) -> Notification:
    return Notification(id=row[0], dedupe_key=row[1], game_id=row[2], player_id=row[3], kind=row[4], phase=row[5],
                        url=row[6], payload=orjson.loads(row[7]), status=row[8], attempts=row[9],
                        next_attempt_at=read_time(row[10]), last_error=row[11], source_position=row[12],
                        created_at=read_time(row[13]), delivered_at=_optional_time(row[14]))


# ----------------------------------------------------------------------------- the transaction

class SQLiteTransaction(Transaction):
    dialect = "sqlite"

    def __init__(self, store: SQLiteStore, connection: aiosqlite.Connection, *, begun: bool) -> None:
        super().__init__(store)
        self._connection = connection
        self._begun = begun  # False: a single statement outside any BEGIN

    async def _run(self, sql: str, parameters: tuple[Any, ...] = ()) -> list[Any]:
        self._check_usable()
        return list(await self._connection.execute_fetchall(sql, parameters))

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
                positions += [position for position, _ in sorted(await self._run(sql, parameters), key=lambda r: r[1])]
        except sqlite3.IntegrityError:
            # the unique (stream_id, version) key is the arbiter; this transaction is still usable
            actual = await self.stream_version(stream_id)
            raise self._doom(ConcurrencyError(stream_id, expected_version, actual)) from None
        return self._recorded(stream_id, rows, positions)

    async def _append_on_commit(self, stream_id: str, events: list[NewEvent], expected_version: int | None) -> None:
        await self._append(stream_id, events, expected_version)  # the writer's lock is held anyway

    async def _commit(self) -> None:
        if self._begun:
            await self._connection.execute_fetchall("COMMIT")

    async def stream_version(self, stream_id: str) -> int:
        return int((await self._run(STREAM_VERSION, (stream_id,)))[0][0])

    async def read_stream(self, stream_id: str, after_version: int = 0,
                          up_to_version: int | None = None) -> list[RecordedEvent]:
        rows = await (self._run(READ_STREAM, (stream_id, after_version)) if up_to_version is None
                      else self._run(READ_STREAM_PAGE, (stream_id, after_version, up_to_version)))
        return [recorded(row) for row in rows]

    async def read_streams(self, prefix: str, after_position: int = 0) -> dict[str, list[RecordedEvent]]:
        streams: dict[str, list[RecordedEvent]] = {}
        rows = await (self._run(READ_STREAMS_AFTER, (prefix, prefix + PREFIX_END, after_position)) if after_position
                      else self._run(READ_STREAMS, (prefix, prefix + PREFIX_END)))
        for row in rows:
            if row[1].startswith(prefix):
                streams.setdefault(row[1], []).append(recorded(row))
        return streams

    async def read_all(self, after_position: int = 0, limit: int = 1000) -> list[RecordedEvent]:
        return [recorded(row) for row in await self._run(READ_ALL, (after_position, limit))]

    async def _last_of_next(self, after_position: int, limit: int) -> tuple[int, int]:
        row = (await self._run(LAST_OF_NEXT, (after_position, limit)))[0]
        return int(row[0]), int(row[1])

    async def _read_range_of(self, prefixes: tuple[str, ...], after_position: int,
                             up_to_position: int) -> list[RecordedEvent]:
        rows = await self._run(READ_RANGE_OF, (after_position, up_to_position, dumps(list(prefixes))))
        return [recorded(row) for row in rows]

    async def head(self) -> int:
        return int((await self._run(HEAD))[0][0])

    async def get_game(self, game_id: str) -> GameRow | None:
        rows = await self._run(GET_GAME, (game_id,))
        return game(rows[0]) if rows else None

    async def put_game(self, row: GameRow) -> None:
        await self._run(PUT_GAME, (row.game_id, row.variant, row.name, row.status, row.phase,
                                   None if row.deadline is None else stored_time(row.deadline),
                                   dumps(row.summary), stored_time(row.updated_at)))

    async def due_games(self, now: datetime, limit: int, *, claim: bool = False) -> list[GameRow]:
        return [game(row) for row in await self._run(DUE_GAMES, (stored_time(now), limit))]

    async def list_games(self, status: str | None = None, limit: int = 100,
                         after: tuple[datetime, str] | None = None, variant: str | None = None,
                         *, listed_only: bool = False, bots_may_join: bool | None = None) -> list[GameRow]:
        bots = None if bots_may_join is None else int(bots_may_join)
        listed = (int(listed_only), bots, bots)
        if after is not None:
            moment = stored_time(after[0])
            rows = await self._run(LIST_GAMES_AFTER,
                                   (status, status, variant, variant, *listed, moment, moment, after[1], limit))
        elif status is None:
            rows = await self._run(LIST_GAMES, (variant, variant, *listed, limit))
        else:
            rows = await self._run(LIST_GAMES_WITH_STATUS, (status, variant, variant, *listed, limit))
        return [game(row) for row in rows]

    async def oldest_due_deadline(self, now: datetime) -> datetime | None:
        return _optional_time((await self._run(OLDEST_DUE, (stored_time(now),)))[0][0])

    async def lock_game(self, game_id: str, lock: LockMode) -> None:
        if not await self._run(GAME_EXISTS, (game_id,)):
            raise GameNotFound(game_id)

    async def projection_position(self, name: str) -> int:
        rows = await self._run(PROJECTION_POSITION, (name,))
        return int(rows[0][0]) if rows else 0

    async def _lock_projection(self, name: str) -> int:
        return int((await self._run(LOCK_PROJECTION, (name,)))[0][0])

    async def _set_projection(self, name: str, position: int) -> None:
        await self._run(SET_PROJECTION, (position, name))

    async def plan_notification(self, planned: NewNotification) -> bool:
        return bool(await self._run(PLAN_NOTIFICATION, (
            planned.dedupe_key, planned.game_id, planned.player_id, planned.kind, planned.phase, planned.url,
            dumps(planned.payload), stored_time(planned.not_before), planned.source_position,
            stored_time(planned.created_at))))

    async def cancel_notifications(self, game_id: str, *, kind: str | None = None, phase: str | None = None,
                                   player_id: str | None = None) -> int:
        return len(await self._run(CANCEL_NOTIFICATIONS, (game_id, kind, phase, player_id)))

    async def claim_notifications(self, now: datetime, lease: timedelta, limit: int,
                                  max_attempts: int | None = None) -> list[ClaimedNotification]:
        if max_attempts is not None:
            await self._run(GIVE_UP_NOTIFICATIONS, (NO_OUTCOME_RECORDED, stored_time(now), max_attempts))
        rows = await self._run(DUE_NOTIFICATIONS, (stored_time(now), limit))
        if rows:
            leased_until = stored_time(now + lease)
            await self._connection.executemany(LEASE_NOTIFICATION, [(row[3] + 1, leased_until, row[0]) for row in rows])
        return [ClaimedNotification(row[0], row[1], orjson.loads(row[2]), row[3] + 1, row[4], row[5]) for row in rows]

    async def set_webhook_secret(self, game_id: str, recipient: str, secret: str | None, at: datetime) -> None:
        if secret is None:
            await self._run(REMOVE_WEBHOOK_SECRET, (game_id, recipient))
        else:
            await self._run(SET_WEBHOOK_SECRET, (game_id, recipient, secret, stored_time(at)))

    async def record_outcome(self, notification_id: int, attempts: int, outcome: Outcome) -> bool:
        match outcome:
            case Delivered(at=at):
                values: tuple[Any, ...] = (stored_time(at),)
            case Retry(error=error, at=at):
                values = (stored_time(at), error)
            case Dead(error=error):
                values = (error,)
        return bool(await self._run(RECORD_OUTCOME[type(outcome)], (*values, notification_id, attempts)))

    async def release_notification(self, notification_id: int, attempts: int, now: datetime) -> bool:
        return bool(await self._run(RELEASE_NOTIFICATION, (stored_time(now), notification_id, attempts)))

    async def notifications(self, game_id: str | None = None) -> list[Notification]:
        if game_id is None:
            rows = await self._run(LIST_NOTIFICATIONS)
        else:
            rows = await self._run(LIST_GAME_NOTIFICATIONS, (game_id,))
        return [notification(row) for row in rows]

    async def notification_counts(self) -> dict[str, int]:
        return {row[0]: int(row[1]) for row in await self._run(COUNT_NOTIFICATIONS)}


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
        super().__init__()
        self._database, self._uri, self._in_memory = sqlite_target(url)
        # an in-memory database is its one connection: transactions take turns on it
        self._connections = Connections(self._open_connection, 1 if self._in_memory else POOL_SIZE)
        # this process's writers take turns here, first come first served, before SQLite's
        # lock: waiting on SQLite's busy handler instead, a writer sleeps 1, 2, 5 ... up to 100
        # ms between tries while later ones slip in (docs/store.md, "SQLite")
        self._writers = asyncio.Lock()

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

    async def close(self) -> None:
        await self._connections.close()

    @asynccontextmanager
    async def _session(self, kind: SessionKind) -> AsyncIterator[SQLiteTransaction]:
        async with self._writers if kind == "write" else nullcontext(), self._connected(kind) as tx:
            yield tx

    @asynccontextmanager
    async def _connected(self, kind: SessionKind) -> AsyncIterator[SQLiteTransaction]:
        connection = await self._connections.acquire()
        reusable = True
        try:
            if kind != "statement":
                await connection.execute_fetchall("BEGIN IMMEDIATE" if kind == "write" else "BEGIN")
            yield SQLiteTransaction(self, connection, begun=kind != "statement")
        except BaseException:
            reusable = await _roll_back(connection)
            raise
        finally:
            await self._connections.release(connection, reusable=reusable)

    async def _append_if_current(self, game_id: str, guard_stream: str, guard_version: int, stream_id: str,
                                 event: NewEvent, expected_version: int | None, *,
                                 watch_streams: tuple[str, ...], watch_after: int) -> GuardedAppend:
        recorded_at = as_utc(event.recorded_at) if event.recorded_at else utc_now()
        async with self._writers, self._connected("statement") as tx:  # a write, in a statement of its own
            try:
                rows = await tx._run(APPEND_IF_CURRENT, (
                    stream_id, event.type, event.schema_version, dumps(event.data), dumps(event.metadata),
                    stored_time(recorded_at), game_id, guard_stream, guard_version, expected_version))
            except sqlite3.IntegrityError:
                rows = []
            if rows:
                watched = [recorded(row) for row in await tx._run(READ_NAMED_STREAMS_AFTER, (
                    dumps(list(watch_streams)), watch_after))] if watch_streams else []
                return GuardedAppend(guard_version, int(rows[0][0]), tuple(watched))
            found, guard, version = (await tx._run(GUARDED_FOUND, (game_id, guard_stream, stream_id)))[0]
        if not found:
            raise GameNotFound(game_id)
        if guard != guard_version:
            return GuardedAppend(int(guard), None)
        raise ConcurrencyError(stream_id, expected_version, int(version))

    async def create_schema(self) -> None:
        """Inside ``BEGIN IMMEDIATE``, so that several processes creating it take turns."""
        async with self._session("write") as tx:
            names = {row[0] for row in await tx._run(EXISTING_TABLES, (*TABLE_NAMES, VERSION_TABLE.name))}
            revision = None
            if VERSION_TABLE.name in names:
                stamped = await tx._run(STAMPED_REVISION)
                revision = stamped[0][0] if stamped else None
            if schema_state(bool(names & set(TABLE_NAMES)), revision) == "fresh":
                for statement in create_statements(self.dialect):
                    await tx._run(statement)
            await tx._commit()

    async def _empty_tables(self) -> None:
        async with self._session("write") as tx:
            for name in TABLE_NAMES:
                await tx._run(f"DELETE FROM {name}")
            await tx._commit()


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

