"""The store on PostgreSQL: asyncpg directly, through a pool of its connections.

Every statement is plain SQL that asyncpg prepares once per connection. What this back end
adds to the shared semantics (docs/store.md, "Transactions and locking"):

- ``transaction(game_id, lock=...)`` locks the game's row ``FOR SHARE`` or ``FOR UPDATE``;
- the statement that inserts a batch of events takes the global position lock
  (``pg_advisory_xact_lock``) first, so positions become visible in commit order, and sends
  ``pg_notify`` to wake the readers of other processes (delivered at commit);
- an append after the end (``expected_version=None``) first locks its stream alone, so that
  appenders to one stream take turns instead of clashing on the version;
- ``append_on_commit`` holds its rows back and sends them with the COMMIT, in one message;
- ``reading()`` and the convenience reads run each statement on its own (no BEGIN/COMMIT).
"""
from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import asyncpg
import orjson
from asyncpg.exceptions import UniqueViolationError

from shared.store.base import CONNECTION_WAIT_SECONDS, EventStore, SessionKind, Transaction
from shared.store.batching import GroupCommit
from shared.store.notify import CHANNEL, CommitListener
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
from shared.store.recorders import EventRow, LockMode, as_utc, utc_now
from shared.store.records import ConcurrencyError, GameNotFound, GameRow, GuardedAppend, NewEvent, RecordedEvent
from shared.store.schema import SCHEMA_LOCK_KEY, TABLE_NAMES, VERSION_TABLE, create_statements, schema_state

# pg_advisory_xact_lock keys: any constants, as long as nothing else in the database uses them.
POSITION_LOCK_KEY = 0x656E7465_6E746501  # "entente" + 1: serialises event inserts
# (class, hash of the stream id): one stream's appends after the end; the two-key space of
# advisory locks does not overlap the one-key space above
STREAM_LOCK_CLASS = 0x656E7465
CLOSE_SECONDS = 10.0  # how long ``close`` waits for connections still in use

_EVENT_COLUMNS = "position, stream_id, version, type, schema_version, data, metadata, recorded_at"
READ_STREAM = f"SELECT {_EVENT_COLUMNS} FROM events WHERE stream_id = $1 AND version > $2 ORDER BY version"
READ_STREAM_PAGE = (f"SELECT {_EVENT_COLUMNS} FROM events WHERE stream_id = $1 AND version > $2 AND version <= $3 "
                    "ORDER BY version")
# a prefix as a byte-wise range, which the text_pattern_ops index answers even in a generic plan
READ_STREAMS = (f"SELECT {_EVENT_COLUMNS} FROM events WHERE stream_id ~>=~ $1 AND stream_id ~<~ $2 "
                "ORDER BY stream_id, version")
# after a position: the prefix's streams one by one (each the next stream id after the last,
# one descent of ix_events_stream_position), then each stream's events after $3 (one more
# descent, fenced by OFFSET 0 so that no plan joins the streams to a range of positions instead):
# the cost follows the streams, not the events they hold (docs/store.md, "Reading by prefix",
# "Plans that hold as the log grows")
READ_STREAMS_AFTER = f"""WITH RECURSIVE streams(stream_id) AS (
    (SELECT s.stream_id FROM events AS s WHERE s.stream_id ~>=~ $1 AND s.stream_id ~<~ $2
        ORDER BY s.stream_id USING ~<~ LIMIT 1)
    UNION ALL
    SELECT (SELECT s.stream_id FROM events AS s WHERE s.stream_id ~>~ streams.stream_id AND s.stream_id ~<~ $2
            ORDER BY s.stream_id USING ~<~ LIMIT 1)
        FROM streams WHERE streams.stream_id IS NOT NULL)
SELECT {", ".join("e." + column for column in _EVENT_COLUMNS.split(", "))} FROM streams, LATERAL (
    SELECT {_EVENT_COLUMNS} FROM events WHERE events.stream_id = streams.stream_id AND events.position > $3
    OFFSET 0) AS e
ORDER BY e.stream_id, e.version"""
PREFIX_END = "\U0010ffff"  # after every character a stream id holds
READ_ALL = f"SELECT {_EVENT_COLUMNS} FROM events WHERE position > $1 ORDER BY position LIMIT $2"
LAST_OF_NEXT = ("SELECT coalesce(max(position), $1), count(*) FROM "
                "(SELECT position FROM events WHERE position > $1 ORDER BY position LIMIT $2) AS next")
READ_RANGE_OF = (f"SELECT {_EVENT_COLUMNS} FROM events WHERE position > $1 AND position <= $2 "
                 "AND stream_id ^@ ANY($3::text[]) ORDER BY position")
# the last event's version by one backward step of uq_events_stream_version: max(version) let the
# generic plan, which expects one event a stream, aggregate every event of a long stream on the
# other index, a cost that grew with the game (docs/store.md, "A stream's version in one step")
STREAM_VERSION = "SELECT coalesce((SELECT version FROM events WHERE stream_id = $1 ORDER BY version DESC LIMIT 1), 0)"
HEAD = "SELECT coalesce(max(position), 0) FROM events"
STREAM_LOCK = "SELECT pg_advisory_xact_lock($1, hashtext($2))"
_INSERT_COLUMNS = "INSERT INTO events (stream_id, version, type, schema_version, data, metadata, recorded_at) "
# the global position lock first, in the same statement (its row comes before any row, so
# before any position is drawn), the listeners told (delivered on commit), the rows in order
INSERT_EVENTS = (
    _INSERT_COLUMNS + "SELECT $1, batch.version, batch.type, batch.schema_version, batch.data::jsonb, "
    "batch.metadata::jsonb, batch.recorded_at "
    "FROM (SELECT pg_advisory_xact_lock($2), pg_notify($3, '')) AS position_lock, "
    "unnest($4::integer[], $5::text[], $6::integer[], $7::text[], $8::text[], $9::timestamptz[]) "
    "WITH ORDINALITY AS batch(version, type, schema_version, data, metadata, recorded_at, n) "
    "ORDER BY batch.n RETURNING position, version"
)

APPEND_BATCH = ("SELECT appended.* FROM entente_append_batch($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, "
                "$13, $14, $15) AS appended ORDER BY appended.out_item, appended.out_position")
APPEND_IF_CURRENT = ("SELECT appended.* FROM entente_append_if_current($1, $2, $3, $4, $5, $6, $7, $8::jsonb, "
                     "$9::jsonb, $10, $11, $12, $13, $14::text[], $15) AS appended ORDER BY appended.out_position")

_GAME_COLUMNS = "game_id, variant, name, status, phase, deadline, summary, updated_at"
GET_GAME = f"SELECT {_GAME_COLUMNS} FROM games WHERE game_id = $1"
PUT_GAME = (
    f"INSERT INTO games ({_GAME_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8) "
    "ON CONFLICT (game_id) DO UPDATE SET variant = EXCLUDED.variant, name = EXCLUDED.name, "
    "status = EXCLUDED.status, phase = EXCLUDED.phase, deadline = EXCLUDED.deadline, "
    "summary = EXCLUDED.summary, updated_at = EXCLUDED.updated_at"
)
_DUE = (f"SELECT {_GAME_COLUMNS} FROM games WHERE deadline IS NOT NULL AND deadline <= $1 "
        "ORDER BY deadline, game_id LIMIT $2")
DUE_GAMES = {False: _DUE, True: _DUE + " FOR UPDATE SKIP LOCKED"}
# a private game (GameSettings.private in the summary) is left out of the lobby's list
_LISTED = ("(NOT {0}::boolean OR NOT coalesce((summary->'settings'->>'private')::boolean, false))"
           # with a value, only the games whose bots_may_join setting is that (docs/api.md, "Games")
           " AND ({1}::boolean IS NULL OR coalesce((summary->'settings'->>'bots_may_join')::boolean, false) = {1})")
LIST_GAMES = (f"SELECT {_GAME_COLUMNS} FROM games WHERE ($2::text IS NULL OR variant = $2) "
              f"AND {_LISTED.format('$3', '$4')} "
              "ORDER BY updated_at DESC, game_id LIMIT $1")
LIST_GAMES_WITH_STATUS = (f"SELECT {_GAME_COLUMNS} FROM games WHERE status = $1 AND ($3::text IS NULL OR variant = $3) "
                          f"AND {_LISTED.format('$4', '$5')} ORDER BY updated_at DESC, game_id LIMIT $2")
OLDEST_DUE = "SELECT min(deadline) FROM games WHERE deadline IS NOT NULL AND deadline <= $1"
LIST_GAMES_AFTER = (f"SELECT {_GAME_COLUMNS} FROM games WHERE ($1::text IS NULL OR status = $1) "
                    f"AND ($5::text IS NULL OR variant = $5) AND {_LISTED.format('$6', '$7')} "
                    "AND (updated_at < $2 OR (updated_at = $2 AND game_id > $3)) "
                    "ORDER BY updated_at DESC, game_id LIMIT $4")
LOCK_GAME = {"none": "SELECT game_id FROM games WHERE game_id = $1",
             "share": "SELECT game_id FROM games WHERE game_id = $1 FOR SHARE",
             "exclusive": "SELECT game_id FROM games WHERE game_id = $1 FOR UPDATE"}

PROJECTION_POSITION = "SELECT position FROM projection_positions WHERE name = $1"
# an upsert that always updates: it creates the row at 0 if missing and row-locks it either way
LOCK_PROJECTION = ("INSERT INTO projection_positions (name, position) VALUES ($1, 0) ON CONFLICT (name) "
                   "DO UPDATE SET position = projection_positions.position RETURNING position")
SET_PROJECTION = "UPDATE projection_positions SET position = $2 WHERE name = $1"

PLAN_NOTIFICATION = (
    "INSERT INTO notification_outbox (dedupe_key, game_id, player_id, kind, phase, url, payload, status, attempts, "
    "next_attempt_at, source_position, created_at) "
    "VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, 'pending', 0, $8, $9, $10) "
    "ON CONFLICT (dedupe_key) DO NOTHING"
)
CANCEL_NOTIFICATIONS = (
    "UPDATE notification_outbox SET status = 'cancelled' WHERE status = 'pending' AND game_id = $1 "
    "AND ($2::text IS NULL OR kind = $2) AND ($3::text IS NULL OR phase = $3) AND ($4::text IS NULL OR player_id = $4)"
)
GIVE_UP_NOTIFICATIONS = (
    "UPDATE notification_outbox SET status = 'dead', last_error = $3 WHERE id IN (SELECT id FROM notification_outbox "
    "WHERE status = 'pending' AND next_attempt_at <= $1 AND attempts >= $2 FOR UPDATE SKIP LOCKED)"
)
CLAIM_NOTIFICATIONS = (
    "WITH due AS (SELECT id, next_attempt_at FROM notification_outbox WHERE status = 'pending' "
    "AND next_attempt_at <= $1 ORDER BY next_attempt_at, id LIMIT $3 FOR UPDATE SKIP LOCKED) "
    "UPDATE notification_outbox AS claimed SET attempts = claimed.attempts + 1, next_attempt_at = $2 FROM due "
    "WHERE claimed.id = due.id "
    "RETURNING claimed.id, claimed.url, claimed.payload, claimed.attempts, due.next_attempt_at, claimed.dedupe_key, "
    "(SELECT secret FROM webhook_secrets AS s WHERE s.game_id = claimed.game_id AND s.recipient = claimed.player_id)"
)
SET_WEBHOOK_SECRET = ("INSERT INTO webhook_secrets (game_id, recipient, secret, set_at) VALUES ($1, $2, $3, $4) "
                      "ON CONFLICT (game_id, recipient) DO UPDATE SET secret = excluded.secret, "
                      "set_at = excluded.set_at")
REMOVE_WEBHOOK_SECRET = "DELETE FROM webhook_secrets WHERE game_id = $1 AND recipient = $2"
_STILL_LEASED = " WHERE id = $1 AND status = 'pending' AND attempts = $2"
RECORD_OUTCOME = {
    Delivered: ("UPDATE notification_outbox SET status = 'delivered', delivered_at = $3, last_error = NULL"
                + _STILL_LEASED),
    Retry: "UPDATE notification_outbox SET next_attempt_at = $3, last_error = $4" + _STILL_LEASED,
    Dead: "UPDATE notification_outbox SET status = 'dead', last_error = $3" + _STILL_LEASED,
}
RELEASE_NOTIFICATION = ("UPDATE notification_outbox SET attempts = attempts - 1, next_attempt_at = $3"
                        + _STILL_LEASED)
LIST_NOTIFICATIONS = f"SELECT {NOTIFICATION_COLUMNS} FROM notification_outbox ORDER BY id"
LIST_GAME_NOTIFICATIONS = f"SELECT {NOTIFICATION_COLUMNS} FROM notification_outbox WHERE game_id = $1 ORDER BY id"
COUNT_NOTIFICATIONS = "SELECT status, count(*) FROM notification_outbox GROUP BY status"
EXISTING_TABLES = ("SELECT tablename FROM pg_tables WHERE schemaname = current_schema() "
                   "AND tablename = ANY($1::text[])")
STAMPED_REVISION = "SELECT version_num FROM alembic_version LIMIT 1"


# ----------------------------------------------------------------------------- rows to records

loads = orjson.loads


def dumps(value: Any) -> str:
    """JSON text for a jsonb parameter (orjson: several times the standard library's speed)."""
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


def recorded(row: Any) -> RecordedEvent:
    return RecordedEvent(stream_id=row[1], version=row[2], position=row[0], type=row[3], schema_version=row[4],
                         data=loads(row[5]), metadata=loads(row[6]), recorded_at=as_utc(row[7]))


@dataclass(frozen=True, slots=True)
class CheckedAppend:
    """One ``append_if_current`` after its stream's end, as the group commit holds it."""

    game_id: str
    guard_stream: str
    guard_version: int
    stream_id: str
    event: NewEvent
    recorded_at: datetime
    watch_streams: tuple[str, ...]
    watch_after: int


def _batch_answer(append: CheckedAppend, rows: list[Any]) -> GuardedAppend | BaseException:
    """One item's rows of ``entente_append_batch``: (item, found, guard, appended, event...)."""
    _, found, guard, position = rows[0][:4]
    if not found:
        return GameNotFound(append.game_id)
    # the watched events up to its own: those of the batch's later items came after it
    return GuardedAppend(guard, position, tuple(recorded(row[4:]) for row in rows
                                                if row[4] is not None and row[4] <= position))


async def _outcome_of(answer: Awaitable[GuardedAppend]) -> GuardedAppend | BaseException:
    try:
        return await answer
    except Exception as error:  # the item's own failure, for its caller alone
        return error


def game(row: Any) -> GameRow:
    return GameRow(game_id=row[0], variant=row[1], name=row[2], status=row[3], phase=row[4],
                   deadline=None if row[5] is None else as_utc(row[5]), summary=loads(row[6]),
                   updated_at=as_utc(row[7]))


def notification(row: Any) -> Notification:
    return Notification(id=row[0], dedupe_key=row[1], game_id=row[2], player_id=row[3], kind=row[4], phase=row[5],
                        url=row[6], payload=loads(row[7]), status=row[8], attempts=row[9],
                        next_attempt_at=as_utc(row[10]), last_error=row[11], source_position=row[12],
                        created_at=as_utc(row[13]), delivered_at=None if row[14] is None else as_utc(row[14]))


def _affected(status: str) -> int:
    """The row count of a command's status ("UPDATE 3", "INSERT 0 1")."""
    return int(status.rsplit(" ", 1)[-1])


def _literal(text: str) -> str:
    """A string constant that means ``text`` whatever standard_conforming_strings says."""
    return "E'" + text.replace("\\", "\\\\").replace("'", "''") + "'"


def insert_events_literally(stream_id: str, rows: list[EventRow]) -> str:
    """INSERT_EVENTS with the values written out, for a message of several statements (the
    simple query protocol has no parameters): the insert-and-commit in one message."""
    values = ", ".join(
        f"({_literal(stream_id)}, {int(row.version)}, {_literal(row.type)}, {int(row.schema_version)}, "
        f"{_literal(dumps(row.data))}::jsonb, {_literal(dumps(row.metadata))}::jsonb, "
        f"{_literal(as_utc(row.recorded_at).isoformat())}::timestamptz)"
        for row in rows)
    return (_INSERT_COLUMNS + "SELECT batch.stream_id, batch.version, batch.type, batch.schema_version, batch.data, "
            f"batch.metadata, batch.recorded_at FROM (SELECT pg_advisory_xact_lock({POSITION_LOCK_KEY}), "
            f"pg_notify({_literal(CHANNEL)}, '')) AS position_lock, (VALUES {values}) "
            "AS batch(stream_id, version, type, schema_version, data, metadata, recorded_at) ORDER BY batch.version")


# ----------------------------------------------------------------------------- the transaction

class PostgresTransaction(Transaction):
    dialect = "postgresql"

    def __init__(self, store: PostgresStore, connection: Any, *, writing: bool) -> None:
        super().__init__(store)
        self._connection = connection
        self._writing = writing  # False: no BEGIN was sent, each statement commits by itself
        self._holds_position_lock = False
        self._pending: list[tuple[str, int | None, list[EventRow]]] = []  # append_on_commit's

    def _live(self) -> Any:
        self._check_usable()
        return self._connection

    async def _checked_rows(self, stream_id: str, events: list[NewEvent],
                            expected_version: int | None) -> list[EventRow]:
        if events and expected_version is None and not self._holds_position_lock:
            await self._live().fetchval(STREAM_LOCK, STREAM_LOCK_CLASS, stream_id)
        return self._rows_after(stream_id, events, expected_version, await self.stream_version(stream_id))

    async def _append(self, stream_id: str, events: list[NewEvent],
                      expected_version: int | None) -> list[RecordedEvent]:
        rows = await self._checked_rows(stream_id, events, expected_version)
        if not rows:
            return []
        try:
            result = await self._live().fetch(
                INSERT_EVENTS, stream_id, POSITION_LOCK_KEY, CHANNEL, [row.version for row in rows],
                [row.type for row in rows], [row.schema_version for row in rows],
                [dumps(row.data) for row in rows], [dumps(row.metadata) for row in rows],
                [row.recorded_at for row in rows])
        except UniqueViolationError:
            # The unique (stream_id, version) key is the arbiter: a concurrent writer got there.
            # This transaction is aborted; the winner has committed by now.
            actual = await self._store.stream_version(stream_id)
            raise self._doom(ConcurrencyError(stream_id, expected_version, actual)) from None
        self._holds_position_lock = True
        positions = [position for position, _ in sorted(((r[0], r[1]) for r in result), key=lambda pair: pair[1])]
        return self._recorded(stream_id, rows, positions)

    async def _append_on_commit(self, stream_id: str, events: list[NewEvent], expected_version: int | None) -> None:
        if rows := await self._checked_rows(stream_id, events, expected_version):
            self._pending.append((stream_id, expected_version, rows))

    async def _commit(self) -> None:
        if not self._writing:
            return
        script = [insert_events_literally(stream_id, rows) for stream_id, _, rows in self._pending]
        try:
            await self._connection.execute(";\n".join([*script, "COMMIT"]))
        except UniqueViolationError:
            raise self._doom(await self._pending_clash()) from None

    async def _pending_clash(self) -> ConcurrencyError:
        """Which held-back append lost its race (the first whose stream moved on)."""
        clashes = []
        for stream_id, expected_version, rows in self._pending:
            actual = await self._store.stream_version(stream_id)
            clashes.append(ConcurrencyError(stream_id, expected_version, actual))
            if actual != rows[0].version - 1:
                return clashes[-1]
        return clashes[0]

    async def stream_version(self, stream_id: str) -> int:
        return int(await self._live().fetchval(STREAM_VERSION, stream_id))

    async def read_stream(self, stream_id: str, after_version: int = 0,
                          up_to_version: int | None = None) -> list[RecordedEvent]:
        rows = await (self._live().fetch(READ_STREAM, stream_id, after_version) if up_to_version is None
                      else self._live().fetch(READ_STREAM_PAGE, stream_id, after_version, up_to_version))
        return [recorded(row) for row in rows]

    async def read_streams(self, prefix: str, after_position: int = 0) -> dict[str, list[RecordedEvent]]:
        streams: dict[str, list[RecordedEvent]] = {}
        rows = await (self._live().fetch(READ_STREAMS_AFTER, prefix, prefix + PREFIX_END, after_position)
                      if after_position else self._live().fetch(READ_STREAMS, prefix, prefix + PREFIX_END))
        for row in rows:
            if row[1].startswith(prefix):
                streams.setdefault(row[1], []).append(recorded(row))
        return streams

    async def read_all(self, after_position: int = 0, limit: int = 1000) -> list[RecordedEvent]:
        return [recorded(row) for row in await self._live().fetch(READ_ALL, after_position, limit)]

    async def _last_of_next(self, after_position: int, limit: int) -> tuple[int, int]:
        row = await self._live().fetchrow(LAST_OF_NEXT, after_position, limit)
        return int(row[0]), int(row[1])

    async def _read_range_of(self, prefixes: tuple[str, ...], after_position: int,
                             up_to_position: int) -> list[RecordedEvent]:
        rows = await self._live().fetch(READ_RANGE_OF, after_position, up_to_position, list(prefixes))
        return [recorded(row) for row in rows]

    async def head(self) -> int:
        return int(await self._live().fetchval(HEAD))

    async def get_game(self, game_id: str) -> GameRow | None:
        row = await self._live().fetchrow(GET_GAME, game_id)
        return None if row is None else game(row)

    async def put_game(self, row: GameRow) -> None:
        await self._live().execute(PUT_GAME, row.game_id, row.variant, row.name, row.status, row.phase,
                                   None if row.deadline is None else as_utc(row.deadline), dumps(row.summary),
                                   as_utc(row.updated_at))

    async def due_games(self, now: datetime, limit: int, *, claim: bool = False) -> list[GameRow]:
        return [game(row) for row in await self._live().fetch(DUE_GAMES[claim], as_utc(now), limit)]

    async def list_games(self, status: str | None = None, limit: int = 100,
                         after: tuple[datetime, str] | None = None, variant: str | None = None,
                         *, listed_only: bool = False, bots_may_join: bool | None = None) -> list[GameRow]:
        if after is not None:
            rows = await self._live().fetch(LIST_GAMES_AFTER, status, as_utc(after[0]), after[1], limit, variant,
                                            listed_only, bots_may_join)
        elif status is None:
            rows = await self._live().fetch(LIST_GAMES, limit, variant, listed_only, bots_may_join)
        else:
            rows = await self._live().fetch(LIST_GAMES_WITH_STATUS, status, limit, variant, listed_only,
                                            bots_may_join)
        return [game(row) for row in rows]

    async def oldest_due_deadline(self, now: datetime) -> datetime | None:
        oldest = await self._live().fetchval(OLDEST_DUE, as_utc(now))
        return None if oldest is None else as_utc(oldest)

    async def lock_game(self, game_id: str, lock: LockMode) -> None:
        if await self._live().fetchrow(LOCK_GAME[lock], game_id) is None:
            raise GameNotFound(game_id)

    async def projection_position(self, name: str) -> int:
        return int(await self._live().fetchval(PROJECTION_POSITION, name) or 0)

    async def _lock_projection(self, name: str) -> int:
        return int(await self._live().fetchval(LOCK_PROJECTION, name))

    async def _set_projection(self, name: str, position: int) -> None:
        await self._live().execute(SET_PROJECTION, name, position)

    async def plan_notification(self, planned: NewNotification) -> bool:
        status = await self._live().execute(
            PLAN_NOTIFICATION, planned.dedupe_key, planned.game_id, planned.player_id, planned.kind, planned.phase,
            planned.url, dumps(planned.payload), as_utc(planned.not_before), planned.source_position,
            as_utc(planned.created_at))
        return _affected(status) == 1

    async def cancel_notifications(self, game_id: str, *, kind: str | None = None, phase: str | None = None,
                                   player_id: str | None = None) -> int:
        return _affected(await self._live().execute(CANCEL_NOTIFICATIONS, game_id, kind, phase, player_id))

    async def claim_notifications(self, now: datetime, lease: timedelta, limit: int,
                                  max_attempts: int | None = None) -> list[ClaimedNotification]:
        if max_attempts is not None:
            await self._live().execute(GIVE_UP_NOTIFICATIONS, as_utc(now), max_attempts, NO_OUTCOME_RECORDED)
        rows = await self._live().fetch(CLAIM_NOTIFICATIONS, as_utc(now), as_utc(now + lease), limit)
        rows = sorted(rows, key=lambda row: (row[4], row[0]))  # the order they fell due in
        return [ClaimedNotification(row[0], row[1], loads(row[2]), row[3], row[5], row[6]) for row in rows]

    async def set_webhook_secret(self, game_id: str, recipient: str, secret: str | None, at: datetime) -> None:
        if secret is None:
            await self._live().execute(REMOVE_WEBHOOK_SECRET, game_id, recipient)
        else:
            await self._live().execute(SET_WEBHOOK_SECRET, game_id, recipient, secret, as_utc(at))

    async def record_outcome(self, notification_id: int, attempts: int, outcome: Outcome) -> bool:
        match outcome:
            case Delivered(at=at):
                values: tuple[Any, ...] = (as_utc(at),)
            case Retry(error=error, at=at):
                values = (as_utc(at), error)
            case Dead(error=error):
                values = (error,)
        status = await self._live().execute(RECORD_OUTCOME[type(outcome)], notification_id, attempts, *values)
        return _affected(status) == 1

    async def release_notification(self, notification_id: int, attempts: int, now: datetime) -> bool:
        status = await self._live().execute(RELEASE_NOTIFICATION, notification_id, attempts, as_utc(now))
        return _affected(status) == 1

    async def notifications(self, game_id: str | None = None) -> list[Notification]:
        if game_id is None:
            rows = await self._live().fetch(LIST_NOTIFICATIONS)
        else:
            rows = await self._live().fetch(LIST_GAME_NOTIFICATIONS, game_id)
        return [notification(row) for row in rows]

    async def notification_counts(self) -> dict[str, int]:
        return {row[0]: int(row[1]) for row in await self._live().fetch(COUNT_NOTIFICATIONS)}


# ----------------------------------------------------------------------------- the store

async def _keep_session(_connection: Any) -> None:
    """The pool's reset of a returned connection: nothing to reset (no session state is ever
    set, advisory locks are transaction-level, LISTEN has its own connection), so no round trip."""


async def _roll_back(connection: Any) -> None:
    if connection.is_closed() or not connection.is_in_transaction():
        return
    try:
        await connection.execute("ROLLBACK")
    except Exception:  # a broken or busy connection: the pool replaces it
        connection.terminate()


class PostgresStore(EventStore):
    dialect = "postgresql"

    def __init__(self, pool: Any, dsn: str) -> None:
        super().__init__(CommitListener(dsn))
        self._pool = pool
        # the checked appends of order submissions, gathered into one commit under load
        self._appends: GroupCommit[CheckedAppend, GuardedAppend] = GroupCommit(self._append_batch)

    @property
    def group_commit(self) -> GroupCommit[CheckedAppend, GuardedAppend]:
        """The checked appends' group commit (its ``batches`` and ``items`` written so far)."""
        return self._appends

    @classmethod
    async def open(cls, dsn: str, *, pool_size: int, max_overflow: int) -> PostgresStore:
        """A store on a pool of up to ``pool_size + max_overflow`` connections, opened as needed."""
        pool = await asyncpg.create_pool(dsn, min_size=0, max_size=pool_size + max_overflow, reset=_keep_session)
        return cls(pool, dsn)

    async def close(self) -> None:
        if self._listener is not None:
            await self._listener.close()
        try:
            await asyncio.wait_for(self._pool.close(), CLOSE_SECONDS)
        except TimeoutError:
            self._pool.terminate()

    @asynccontextmanager
    async def _session(self, kind: SessionKind) -> AsyncIterator[Transaction]:
        connection = await self._pool.acquire(timeout=CONNECTION_WAIT_SECONDS)
        try:
            writing = kind == "write"
            if writing:
                await connection.execute("BEGIN")
            yield PostgresTransaction(self, connection, writing=writing)
        except BaseException:
            await _roll_back(connection)
            raise
        finally:
            await self._pool.release(connection)

    async def _append_if_current(self, game_id: str, guard_stream: str, guard_version: int, stream_id: str,
                                 event: NewEvent, expected_version: int | None, *,
                                 watch_streams: tuple[str, ...], watch_after: int) -> GuardedAppend:
        recorded_at = as_utc(event.recorded_at) if event.recorded_at else utc_now()
        append = CheckedAppend(game_id, guard_stream, guard_version, stream_id, event, recorded_at, watch_streams,
                               watch_after)
        if expected_version is None:  # after the stream's end: gathered with the others arriving (group commit)
            return await self._appends.submit(append)
        return await self._append_alone(append, expected_version)

    async def _append_alone(self, append: CheckedAppend, expected_version: int | None) -> GuardedAppend:
        """One checked append in its own round trip and commit (``entente_append_if_current``)."""
        event = append.event
        async with self._pool.acquire(timeout=CONNECTION_WAIT_SECONDS) as connection:
            try:
                rows = await connection.fetch(
                    APPEND_IF_CURRENT, append.game_id, append.guard_stream, append.guard_version, append.stream_id,
                    expected_version, event.type, event.schema_version, dumps(event.data), dumps(event.metadata),
                    append.recorded_at, POSITION_LOCK_KEY, STREAM_LOCK_CLASS, CHANNEL, list(append.watch_streams),
                    append.watch_after)
            except UniqueViolationError:
                # only with an expected version (else the stream lock makes appenders take turns)
                raise ConcurrencyError(append.stream_id, expected_version,
                                       await self.stream_version(append.stream_id)) from None
        found, guard, version, position = rows[0][:4]
        if not found:
            raise GameNotFound(append.game_id)
        if position is None and guard == append.guard_version:
            raise ConcurrencyError(append.stream_id, expected_version, version)
        watched = tuple(recorded(row[4:]) for row in rows if row[4] is not None)
        return GuardedAppend(guard, position, watched)

    async def _append_batch(self, appends: Sequence[CheckedAppend]) -> list[GuardedAppend | BaseException]:
        """Checked appends after their streams' ends in one round trip and one commit
        (``entente_append_batch``), each answered alone: its outcome, or GameNotFound."""
        watched = [(stream, item) for item, append in enumerate(appends, start=1) for stream in append.watch_streams]
        async with self._pool.acquire(timeout=CONNECTION_WAIT_SECONDS) as connection:
            try:
                rows = await connection.fetch(
                    APPEND_BATCH, [a.game_id for a in appends], [a.guard_stream for a in appends],
                    [a.guard_version for a in appends], [a.stream_id for a in appends],
                    [a.event.type for a in appends], [a.event.schema_version for a in appends],
                    [dumps(a.event.data) for a in appends], [dumps(a.event.metadata) for a in appends],
                    [a.recorded_at for a in appends], POSITION_LOCK_KEY, STREAM_LOCK_CLASS, CHANNEL,
                    [stream for stream, _ in watched], [item for _, item in watched],
                    [a.watch_after for a in appends])
            except UniqueViolationError:
                rows = None  # a clash with an append at an expected version, which takes no stream lock
        if rows is None:  # nothing of the batch was written: each alone, each with its own outcome
            return [await _outcome_of(self._append_alone(append, None)) for append in appends]
        by_item: list[list[Any]] = [[] for _ in appends]
        for row in rows:
            by_item[row[0] - 1].append(row)
        return [_batch_answer(append, found) for append, found in zip(appends, by_item, strict=True)]

    async def create_schema(self) -> None:
        """Under ``pg_advisory_xact_lock(SCHEMA_LOCK_KEY)`` (which ``entente migrate`` takes too),
        so that processes starting at once on a fresh database take turns."""
        async with self._pool.acquire(timeout=CONNECTION_WAIT_SECONDS) as connection:
            async with connection.transaction():
                await connection.execute(f"SELECT pg_advisory_xact_lock({SCHEMA_LOCK_KEY})")
                names = {row[0] for row in await connection.fetch(EXISTING_TABLES,
                                                                  [*TABLE_NAMES, VERSION_TABLE.name])}
                revision = await connection.fetchval(STAMPED_REVISION) if VERSION_TABLE.name in names else None
                if schema_state(bool(names & set(TABLE_NAMES)), revision) == "fresh":
                    await connection.execute(";\n".join(create_statements(self.dialect)))

    async def _empty_tables(self) -> None:
        async with self._pool.acquire(timeout=CONNECTION_WAIT_SECONDS) as connection:
            await connection.execute(f"TRUNCATE {', '.join(TABLE_NAMES)} RESTART IDENTITY")
