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
- ``reading()`` and the store's reads run each statement on its own (no BEGIN/COMMIT).

The recorders are shared/store/recorders.py's, on this module's runners (``OnConnection``,
``OnPool``), with the statements of shared/store/statements.py; this back end's own are
appending (``PostgresEvents``) and claiming the outbox's rows (``PostgresOutbox``).
"""
from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

import asyncpg
from asyncpg.exceptions import UniqueViolationError

from shared.store.base import CONNECTION_WAIT_SECONDS, EventStore, SessionKind, Transaction
from shared.store.batching import GroupCommit
from shared.store.buckets import RateBuckets
from shared.store.gathered_buckets import GatheredBuckets
from shared.store.notify import CHANNEL, CommitListener
from shared.store.outbox import NO_OUTCOME_RECORDED, ClaimedNotification
from shared.store.outboxes import OutboxRecorder
from shared.store.recorders import (
    EventRecorder,
    EventRow,
    GameIndexRecorder,
    Runner,
    TransactionState,
    as_utc,
    dumps,
    loads,
    recorded,
    utc_now,
)
from shared.store.records import ConcurrencyError, GameNotFound, GameRow, GuardedAppend, NewEvent, RecordedEvent
from shared.store.schema import SCHEMA_LOCK_KEY, TABLE_NAMES, VERSION_TABLE_NAME, create_statements, schema_state
from shared.store.statements import EVENT_COLUMNS, GAME_COLUMNS, PREFIX_END, SHARED, STAMPED_REVISION, Statements

# pg_advisory_xact_lock keys: any constants, as long as nothing else in the database uses them.
POSITION_LOCK_KEY = 0x656E7465_6E746501  # "entente" + 1: serialises event inserts
# (class, hash of the stream id): one stream's appends after the end; the two-key space of
# advisory locks does not overlap the one-key space above
STREAM_LOCK_CLASS = 0x656E7465
CLOSE_SECONDS = 10.0  # how long ``close`` waits for connections still in use

# a prefix as a byte-wise range, which the text_pattern_ops index answers even in a generic plan
READ_STREAMS = (f"SELECT {EVENT_COLUMNS} FROM events WHERE stream_id ~>=~ $1 AND stream_id ~<~ $2 "
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
SELECT {", ".join("e." + column for column in EVENT_COLUMNS.split(", "))} FROM streams, LATERAL (
    SELECT {EVENT_COLUMNS} FROM events WHERE events.stream_id = streams.stream_id AND events.position > $3
    OFFSET 0) AS e
ORDER BY e.stream_id, e.version"""
# named streams each after a version of its own, in one statement: one descent of
# uq_events_stream_version a stream (the clock worker's batch: docs/store.md, "A batch's reads")
READ_EACH = f"""SELECT {", ".join("e." + column for column in EVENT_COLUMNS.split(", "))}
FROM unnest($1::text[], $2::integer[]) AS w(stream_id, after), LATERAL (
    SELECT {EVENT_COLUMNS} FROM events WHERE events.stream_id = w.stream_id AND events.version > w.after
    OFFSET 0) AS e
ORDER BY e.stream_id, e.version"""
# prefixes each after a position of its own (the phases' order streams of a batch's games), in one
# statement: each prefix a byte-wise range of ix_events_stream_position, as READ_STREAMS reads one;
# the prefix's number first, to tell them apart
READ_PREFIXES = f"""SELECT w.n, {", ".join("e." + column for column in EVENT_COLUMNS.split(", "))}
FROM unnest($1::text[], $2::bigint[]) WITH ORDINALITY AS w(prefix, after, n), LATERAL (
    SELECT {EVENT_COLUMNS} FROM events WHERE events.stream_id ~>=~ w.prefix AND events.stream_id ~<~ (w.prefix || $3)
    AND events.position > w.after OFFSET 0) AS e
ORDER BY w.n, e.stream_id, e.version"""
PUT_GAMES = (
    f"INSERT INTO games ({GAME_COLUMNS}) SELECT g.game_id, g.variant, g.name, g.status, g.phase, g.deadline, "
    "g.summary::jsonb, g.updated_at FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], "
    "$6::timestamptz[], $7::text[], $8::timestamptz[]) AS g(game_id, variant, name, status, phase, deadline, "
    "summary, updated_at) ON CONFLICT (game_id) DO UPDATE SET variant = EXCLUDED.variant, name = EXCLUDED.name, "
    "status = EXCLUDED.status, phase = EXCLUDED.phase, deadline = EXCLUDED.deadline, "
    "summary = EXCLUDED.summary, updated_at = EXCLUDED.updated_at")
READ_RANGE_OF = (f"SELECT {EVENT_COLUMNS} FROM events WHERE position > $1 AND position <= $2 "
                 "AND stream_id ^@ ANY($3::text[]) ORDER BY position")
SQL = replace(SHARED, read_streams=READ_STREAMS, read_streams_after=READ_STREAMS_AFTER, read_range_of=READ_RANGE_OF)

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
EXISTING_TABLES = ("SELECT tablename FROM pg_tables WHERE schemaname = current_schema() "
                   "AND tablename = ANY($1::text[])")

# ----------------------------------------------------------------------------- rows to records

def _recorded(row: Any) -> RecordedEvent:
    return recorded(row, as_utc)


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
    return GuardedAppend(guard, position, tuple(_recorded(row[4:]) for row in rows
                                                if row[4] is not None and row[4] <= position))


async def _outcome_of(answer: Awaitable[GuardedAppend]) -> GuardedAppend | BaseException:
    try:
        return await answer
    except Exception as error:  # the item's own failure, for its caller alone
        return error


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


# ----------------------------------------------------------------------------- the recorders

class OnConnection:
    """The ``Runner`` of a transaction: its statements on its one connection, none once a
    clash has doomed it."""

    sql: Statements = SQL

    def __init__(self, connection: Any, tx: TransactionState) -> None:
        self.connection = connection
        self._tx = tx

    def live(self) -> Any:
        self._tx.check_usable()
        return self.connection

    async def rows(self, sql: str, *args: Any) -> list[Any]:
        return list(await self.live().fetch(sql, *args))

    async def value(self, sql: str, *args: Any) -> Any:
        return await self.live().fetchval(sql, *args)

    @staticmethod
    def time(moment: datetime) -> datetime:
        return as_utc(moment)

    @staticmethod
    def moment(value: datetime) -> datetime:
        return as_utc(value)

    @staticmethod
    def texts(values: Sequence[str]) -> list[str]:
        return list(values)


class OnPool(OnConnection):
    """The ``Runner`` of the store's reads: each statement on a connection of the pool, taken
    for it alone (no BEGIN, no COMMIT)."""

    def __init__(self, pool: Any) -> None:
        super().__init__(None, TransactionState())
        self._pool = pool

    async def rows(self, sql: str, *args: Any) -> list[Any]:
        async with self._pool.acquire(timeout=CONNECTION_WAIT_SECONDS) as connection:
            return list(await connection.fetch(sql, *args))

    async def value(self, sql: str, *args: Any) -> Any:
        async with self._pool.acquire(timeout=CONNECTION_WAIT_SECONDS) as connection:
            return await connection.fetchval(sql, *args)


class PostgresEvents(EventRecorder):
    """The event log, appended to under the global position lock (one statement a batch), after
    the stream's own lock when appending after its end; ``append_on_commit``'s rows held back
    for the COMMIT's message."""

    def __init__(self, db: OnConnection, tx: PostgresTransaction) -> None:
        super().__init__(db, tx)
        self._on = db
        self._store = tx.store
        self._holds_position_lock = False
        self.pending: list[tuple[str, int | None, list[EventRow]]] = []  # append_on_commit's
        self._versions_read: dict[str, int] = {}  # by stream: its version as read to its end in this transaction

    async def read_stream(self, stream_id: str, after_version: int = 0,
                          up_to_version: int | None = None) -> list[RecordedEvent]:
        records = await super().read_stream(stream_id, after_version, up_to_version)
        if up_to_version is None:
            self._read_to_the_end(stream_id, records, after_version)
        return records

    async def read_each(self, afters: Mapping[str, int]) -> dict[str, list[RecordedEvent]]:
        rows = await self._on.rows(READ_EACH, list(afters), list(afters.values()))
        found: dict[str, list[RecordedEvent]] = {}
        for event in self._events(rows):
            found.setdefault(event.stream_id, []).append(event)
        for stream_id, after in afters.items():
            self._read_to_the_end(stream_id, found.get(stream_id, []), after)
        return found

    async def read_prefixes(self, afters: Mapping[str, int]) -> dict[str, dict[str, list[RecordedEvent]]]:
        prefixes = list(afters)
        rows = await self._on.rows(READ_PREFIXES, prefixes, list(afters.values()), PREFIX_END)
        found: dict[str, dict[str, list[RecordedEvent]]] = {prefix: {} for prefix in prefixes}
        moment = self._on.moment
        for row in rows:
            prefix = prefixes[row[0] - 1]
            if row[2].startswith(prefix):  # the byte-wise range, read as Python compares
                event = recorded(row[1:], moment)
                found[prefix].setdefault(event.stream_id, []).append(event)
        return found

    def _read_to_the_end(self, stream_id: str, records: list[RecordedEvent], after_version: int) -> None:
        """Remember the stream's version as a read to its end found it (a stream only grows: if
        another writer has moved it on by the append, the unique (stream, version) key refuses
        the append, as the version asked for would)."""
        if records:
            self._versions_read[stream_id] = records[-1].version
        elif after_version == 0:
            self._versions_read[stream_id] = 0

    async def _checked_rows(self, stream_id: str, events: list[NewEvent],
                            expected_version: int | None) -> list[EventRow]:
        if events and expected_version is None and not self._holds_position_lock:
            await self._on.value(STREAM_LOCK, STREAM_LOCK_CLASS, stream_id)
        # the version expected, when this transaction read the stream to that version, is as good
        # as asking again (docs/store.md, "A batch's reads"); any other is asked for
        known = self._versions_read.pop(stream_id, None)
        current = known if known is not None and known == expected_version else await self.stream_version(stream_id)
        return self._rows_after(stream_id, events, expected_version, current)

    async def _append(self, stream_id: str, events: list[NewEvent],
                      expected_version: int | None) -> list[RecordedEvent]:
        rows = await self._checked_rows(stream_id, events, expected_version)
        if not rows:
            return []
        try:
            result = await self._on.rows(
                INSERT_EVENTS, stream_id, POSITION_LOCK_KEY, CHANNEL, [row.version for row in rows],
                [row.type for row in rows], [row.schema_version for row in rows],
                [dumps(row.data) for row in rows], [dumps(row.metadata) for row in rows],
                [row.recorded_at for row in rows])
        except UniqueViolationError:
            # The unique (stream_id, version) key is the arbiter: a concurrent writer got there.
            # This transaction is aborted; the winner has committed by now.
            actual = await self._store.events.stream_version(stream_id)
            raise self._tx.doom(ConcurrencyError(stream_id, expected_version, actual)) from None
        self._holds_position_lock = True
        positions = [position for position, _ in sorted(((r[0], r[1]) for r in result), key=lambda pair: pair[1])]
        return self._recorded(stream_id, rows, positions)

    async def _append_on_commit(self, stream_id: str, events: list[NewEvent], expected_version: int | None) -> None:
        if rows := await self._checked_rows(stream_id, events, expected_version):
            self.pending.append((stream_id, expected_version, rows))

    async def pending_clash(self) -> ConcurrencyError:
        """Which held-back append lost its race (the first whose stream moved on)."""
        clashes = []
        for stream_id, expected_version, rows in self.pending:
            actual = await self._store.events.stream_version(stream_id)
            clashes.append(ConcurrencyError(stream_id, expected_version, actual))
            if actual != rows[0].version - 1:
                return clashes[-1]
        return clashes[0]


class PostgresGames(GameIndexRecorder):
    """The game index, a batch's rows written in one statement."""

    async def put_games(self, rows: Sequence[GameRow]) -> None:
        if len(rows) < 2:
            await super().put_games(rows)
            return
        await self._db.rows(PUT_GAMES, [r.game_id for r in rows], [r.variant for r in rows], [r.name for r in rows],
                            [r.status for r in rows], [r.phase for r in rows],
                            [None if r.deadline is None else as_utc(r.deadline) for r in rows],
                            [dumps(r.summary) for r in rows], [as_utc(r.updated_at) for r in rows])


class PostgresOutbox(OutboxRecorder):
    """The outbox, its due rows claimed FOR UPDATE SKIP LOCKED (one statement)."""

    async def claim_notifications(self, now: datetime, lease: timedelta, limit: int,
                                  max_attempts: int | None = None) -> list[ClaimedNotification]:
        if max_attempts is not None:
            await self._db.rows(GIVE_UP_NOTIFICATIONS, as_utc(now), max_attempts, NO_OUTCOME_RECORDED)
        rows = await self._db.rows(CLAIM_NOTIFICATIONS, as_utc(now), as_utc(now + lease), limit)
        rows = sorted(rows, key=lambda row: (row[4], row[0]))  # the order they fell due in
        return [ClaimedNotification(row[0], row[1], loads(row[2]), row[3], row[5], row[6]) for row in rows]


class PostgresTransaction(Transaction):
    dialect = "postgresql"
    events: PostgresEvents

    def __init__(self, store: PostgresStore, connection: Any, *, writing: bool) -> None:
        db = OnConnection(connection, self)
        super().__init__(store, db)
        self._connection = connection
        self._writing = writing  # False: no BEGIN was sent, each statement commits by itself
        self.events = PostgresEvents(db, self)
        self.games = PostgresGames(db)
        self.outbox = PostgresOutbox(db)

    async def _commit(self) -> None:
        if not self._writing:
            return
        script = [insert_events_literally(stream_id, rows) for stream_id, _, rows in self.events.pending]
        try:
            await self._connection.execute(";\n".join([*script, "COMMIT"]))
        except UniqueViolationError:
            raise self.doom(await self.events.pending_clash()) from None


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
        super().__init__(OnPool(pool), CommitListener(dsn))
        self._pool = pool
        # the checked appends of order submissions, gathered into one commit under load
        self._appends: GroupCommit[CheckedAppend, GuardedAppend] = GroupCommit(self._append_batch)

    def _buckets(self, db: Runner) -> RateBuckets:
        return GatheredBuckets(db, "postgresql")

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
                                       await self.events.stream_version(append.stream_id)) from None
        found, guard, version, position = rows[0][:4]
        if not found:
            raise GameNotFound(append.game_id)
        if position is None and guard == append.guard_version:
            raise ConcurrencyError(append.stream_id, expected_version, version)
        watched = tuple(_recorded(row[4:]) for row in rows if row[4] is not None)
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
                                                                  [*TABLE_NAMES, VERSION_TABLE_NAME])}
                revision = await connection.fetchval(STAMPED_REVISION) if VERSION_TABLE_NAME in names else None
                if schema_state(bool(names & set(TABLE_NAMES)), revision) == "fresh":
                    await connection.execute(";\n".join(create_statements(self.dialect)))

    async def _empty_tables(self) -> None:
        async with self._pool.acquire(timeout=CONNECTION_WAIT_SECONDS) as connection:
            await connection.execute(f"TRUNCATE {', '.join(TABLE_NAMES)} RESTART IDENTITY")
