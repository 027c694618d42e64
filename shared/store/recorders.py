"""What the store records, one recorder each (docs/store.md, "Recorders"): the event log
(``EventRecorder``), the game index (``GameIndexRecorder``), the projections' positions
(``ProjectionRecorder``) and the notifications outbox (``OutboxRecorder``).

A transaction hands them out (``tx.events``, ``tx.games``, ``tx.projections``, ``tx.outbox``:
shared/store/base.py); the store hands out their reads (``store.events``...), each read a
statement of its own. A recorder is written once, on a ``Runner``: one back end's way to run
the statements of shared/store/statements.py on a connection, and its conversions of values.
A back end subclasses only what it does its own way (appending events, claiming the outbox's
rows). Each recorder's part of the contract suite runs on both back ends
(tests/store/test_recorders.py names them). The outbox's recorder is in shared/store/outboxes.py.
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any, Literal, NamedTuple, Protocol

import orjson

from shared.store.records import (
    ConcurrencyError,
    GameNotFound,
    GameRow,
    LogSlice,
    NewEvent,
    RecordedEvent,
    UnstorableText,
)
from shared.store.statements import PREFIX_END, Statements
from shared.text import first_problem, path_of, quickly_storable

LockMode = Literal["none", "share", "exclusive"]
loads = orjson.loads


def utc_now() -> datetime:
    return datetime.now(UTC)


def as_utc(moment: datetime) -> datetime:
    """An aware UTC datetime; a naive one is taken as UTC."""
    if moment.tzinfo is None:
        return moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)


def dumps(value: Any) -> str:
    """JSON text as stored (orjson: several times the standard library's speed)."""
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


class Runner(Protocol):
    """One back end's statements run on one connection (a transaction's) or each on a
    connection of its own (the store's reads), with the back end's conversions of values."""

    sql: Statements

    async def rows(self, sql: str, *args: Any) -> Sequence[Any]:
        """The rows of the statement (each indexable by column)."""
        ...

    async def value(self, sql: str, *args: Any) -> Any:
        """The first column of the first row (None without rows)."""
        ...

    def time(self, moment: datetime) -> Any:
        """A datetime as the back end takes it as a parameter."""
        ...

    def moment(self, value: Any) -> datetime:
        """A stored time as an aware UTC datetime."""
        ...

    def texts(self, values: Sequence[str]) -> Any:
        """An array of texts as the back end takes it as one parameter."""
        ...


class TransactionState:
    """What every recorder of one transaction shares: whether it has written events (which
    it may read back uncommitted), and the clash that doomed it (nothing of it is written)."""

    def __init__(self) -> None:
        self.appended = False
        self.failure: ConcurrencyError | None = None

    def doom(self, error: ConcurrencyError) -> ConcurrencyError:
        self.failure = error
        return error

    def check_usable(self) -> None:
        if self.failure is not None:
            raise self.failure


class EventRow(NamedTuple):
    """An event about to be inserted into one stream."""

    version: int
    type: str
    schema_version: int
    data: dict[str, object]
    metadata: dict[str, object]
    recorded_at: datetime


def check_storable(stream_id: str, events: Sequence[NewEvent]) -> None:
    """Both back ends keep the same strings and numbers: the text rule of shared/text.py
    (PostgreSQL's JSONB alone would refuse U+0000 and keep the rest; SQLite would keep all)."""
    for event in events:
        if quickly_storable(event.data) and quickly_storable(event.metadata):
            continue
        for root, value in (("data", event.data), ("metadata", event.metadata)):
            found = first_problem(value)
            if found is not None:
                raise UnstorableText(stream_id, event.type, path_of(found[0], root), found[1])


def recorded(row: Any, moment: Callable[[Any], datetime]) -> RecordedEvent:
    """An event of a row of ``EVENT_COLUMNS`` (shared/store/statements.py), its time read by ``moment``."""
    return RecordedEvent(stream_id=row[1], version=row[2], position=row[0], type=row[3], schema_version=row[4],
                         data=loads(row[5]), metadata=loads(row[6]), recorded_at=moment(row[7]))


class EventReader:
    """The event log's reads: a stream, the streams of a prefix, the whole log in position
    order, and its head."""

    def __init__(self, db: Runner) -> None:
        self._db = db

    def _events(self, rows: Sequence[Any]) -> list[RecordedEvent]:
        moment = self._db.moment
        return [recorded(row, moment) for row in rows]

    async def stream_version(self, stream_id: str) -> int:
        """The stream's last version (0 for a stream without events)."""
        return int(await self._db.value(self._db.sql.stream_version, stream_id))

    async def read_stream(self, stream_id: str, after_version: int = 0,
                          up_to_version: int | None = None) -> list[RecordedEvent]:
        """The stream's events after ``after_version`` (and at or before ``up_to_version`` when
        given: a page of a long stream costs that page, not the rest), in version order."""
        if up_to_version is None:
            return self._events(await self._db.rows(self._db.sql.read_stream, stream_id, after_version))
        return self._events(await self._db.rows(self._db.sql.read_stream_page, stream_id, after_version,
                                                up_to_version))

    async def read_streams(self, prefix: str, after_position: int = 0) -> dict[str, list[RecordedEvent]]:
        """Every stream whose id starts with ``prefix`` (exactly, case-sensitively), by stream
        id, each in version order; only its events after ``after_position`` when given (positions
        become visible in commit order, so a reader that has seen up to a position has seen
        every event at or before it)."""
        sql = self._db.sql
        rows = await (self._db.rows(sql.read_streams_after, prefix, prefix + PREFIX_END, after_position)
                      if after_position else self._db.rows(sql.read_streams, prefix, prefix + PREFIX_END))
        streams: dict[str, list[RecordedEvent]] = {}
        for event in self._events([row for row in rows if row[1].startswith(prefix)]):
            streams.setdefault(event.stream_id, []).append(event)
        return streams

    async def read_each(self, afters: Mapping[str, int]) -> dict[str, list[RecordedEvent]]:
        """Each named stream's events after its version (``afters``: stream id -> version), by
        stream id, each in version order (a stream without newer events is left out). This one
        asks a statement a stream; a back end may read them all in one (PostgreSQL does)."""
        found: dict[str, list[RecordedEvent]] = {}
        for stream_id, after in afters.items():
            if records := await self.read_stream(stream_id, after):
                found[stream_id] = records
        return found

    async def read_prefixes(self, afters: Mapping[str, int]) -> dict[str, dict[str, list[RecordedEvent]]]:
        """``read_streams`` of each prefix after its position (``afters``: prefix -> position), by
        prefix, in one call (a statement a prefix here; one in all on PostgreSQL)."""
        return {prefix: await self.read_streams(prefix, after) for prefix, after in afters.items()}

    async def read_all(self, after_position: int = 0, limit: int = 1000) -> list[RecordedEvent]:
        """The log's events after ``after_position``, in position order, ``limit`` at most."""
        return self._events(await self._db.rows(self._db.sql.read_all, after_position, limit))

    async def read_all_of(self, prefixes: Sequence[str], after_position: int = 0,
                          limit: int = 1000) -> LogSlice:
        """Of the next ``limit`` events of the log after ``after_position``, those of streams
        whose id starts with one of ``prefixes`` (in the log's order), with how many events
        were gone past and the position of the last (``after_position`` when the log holds
        none after it): a projection that follows some streams goes past the others without
        reading them."""
        (last, passed), = await self._db.rows(self._db.sql.last_of_next, after_position, limit)
        if not passed:
            return LogSlice([], after_position, 0)
        rows = await self._db.rows(self._db.sql.read_range_of, after_position, last,
                                   self._db.texts(list(prefixes)))
        return LogSlice(self._events(rows), int(last), int(passed))

    async def head(self) -> int:
        """The position of the last event in the log (0 when it is empty)."""
        return int(await self._db.value(self._db.sql.head))


class EventRecorder(EventReader, ABC):
    """The event log: appending to streams with the expected version, and its reads."""

    def __init__(self, db: Runner, tx: TransactionState) -> None:
        super().__init__(db)
        self._tx = tx
        self._appended_on_commit = False

    async def append(
        self, stream_id: str, events: Sequence[NewEvent], expected_version: int | None
    ) -> list[RecordedEvent]:
        """Append events after version ``expected_version`` of the stream (None: after its end).

        A clash raises ConcurrencyError and dooms the whole transaction: nothing of it is
        written, even if the caller catches the error.
        """
        if self._appended_on_commit:
            raise RuntimeError("append after append_on_commit in one transaction: it would not see those events")
        self._tx.check_usable()
        check_storable(stream_id, events)
        return await self._append(stream_id, list(events), expected_version)

    async def append_on_commit(
        self, stream_id: str, events: Sequence[NewEvent], expected_version: int | None
    ) -> None:
        """Append events as this transaction's last write, for a caller that needs no positions
        back: the version is checked now, the events are written with the commit (on
        PostgreSQL the insert and the COMMIT go in one message, so the global position lock is
        held for no round trip to this process). Call it once per stream at most; ``append``
        may not follow it in this transaction, and the transaction's own reads need not see
        these events. A clash found at the commit raises ConcurrencyError when the
        transaction ends."""
        self._tx.check_usable()
        check_storable(stream_id, events)
        await self._append_on_commit(stream_id, list(events), expected_version)
        self._appended_on_commit = True

    @abstractmethod
    async def _append(self, stream_id: str, events: list[NewEvent],
                      expected_version: int | None) -> list[RecordedEvent]:
        ...

    @abstractmethod
    async def _append_on_commit(self, stream_id: str, events: list[NewEvent], expected_version: int | None) -> None:
        ...

    def _rows_after(self, stream_id: str, events: list[NewEvent], expected_version: int | None,
                    current: int) -> list[EventRow]:
        """The rows that follow version ``current`` of the stream, once ``expected_version`` is
        checked against it."""
        if expected_version is not None and expected_version != current:
            raise self._tx.doom(ConcurrencyError(stream_id, expected_version, current))
        if not events:
            return []
        self._tx.appended = True
        now = utc_now()
        return [EventRow(current + offset, event.type, event.schema_version, event.data, event.metadata,
                         as_utc(event.recorded_at) if event.recorded_at else now)
                for offset, event in enumerate(events, start=1)]

    @staticmethod
    def _recorded(stream_id: str, rows: list[EventRow], positions: list[int]) -> list[RecordedEvent]:
        return [RecordedEvent(stream_id=stream_id, version=row.version, position=position, type=row.type,
                              schema_version=row.schema_version, data=row.data, metadata=row.metadata,
                              recorded_at=row.recorded_at)
                for row, position in zip(rows, positions, strict=True)]


class GameIndexReader:
    """The game index's reads: one row a game (the list's summary and the deadline index)."""

    def __init__(self, db: Runner) -> None:
        self._db = db

    def _game(self, row: Any) -> GameRow:
        moment = self._db.moment
        return GameRow(game_id=row[0], variant=row[1], name=row[2], status=row[3], phase=row[4],
                       deadline=None if row[5] is None else moment(row[5]), summary=loads(row[6]),
                       updated_at=moment(row[7]))

    async def get_game(self, game_id: str) -> GameRow | None:
        rows = await self._db.rows(self._db.sql.get_game, game_id)
        return self._game(rows[0]) if rows else None

    async def list_games(self, status: str | None = None, limit: int = 100,
                         after: tuple[datetime, str] | None = None, variant: str | None = None,
                         *, listed_only: bool = False, bots_may_join: bool | None = None) -> list[GameRow]:
        """The latest updated games first (then by id); with ``after`` (a row's ``updated_at``
        and id), only the rows that come after it in that order: a page of the list; with
        ``variant``, only that variant's games; ``listed_only``, without the private games (the
        lobby's list: docs/hosting.md, "Private games"); with ``bots_may_join``, only the games
        whose setting of that name is the value given."""
        db, sql = self._db, self._db.sql
        if after is not None:
            rows = await db.rows(sql.list_games_after, status, db.time(after[0]), after[1], limit, variant,
                                 listed_only, bots_may_join)
        elif status is None:
            rows = await db.rows(sql.list_games, limit, variant, listed_only, bots_may_join)
        else:
            rows = await db.rows(sql.list_games_with_status, status, limit, variant, listed_only, bots_may_join)
        return [self._game(row) for row in rows]

    async def oldest_due_deadline(self, now: datetime) -> datetime | None:
        """The earliest deadline at or before ``now`` (a game the clock has not handled yet), or None."""
        oldest = await self._db.value(self._db.sql.oldest_due, self._db.time(now))
        return None if oldest is None else self._db.moment(oldest)


class GameIndexRecorder(GameIndexReader):
    """The game index, written with the game's events, and the game's row lock."""

    async def put_game(self, row: GameRow) -> None:
        """Insert or update the game's read-model row.

        On PostgreSQL, update an existing row only in a transaction that holds its exclusive
        lock: two share-lock holders updating the same row deadlock.
        """
        db = self._db
        await db.rows(db.sql.put_game, row.game_id, row.variant, row.name, row.status, row.phase,
                      None if row.deadline is None else db.time(row.deadline), dumps(row.summary),
                      db.time(row.updated_at))

    async def put_games(self, rows: Sequence[GameRow]) -> None:
        """``put_game`` of each row (distinct games, each locked exclusively by this transaction
        where it exists): a statement a row here, one in all on PostgreSQL."""
        for row in rows:
            await self.put_game(row)

    async def due_games(self, now: datetime, limit: int, *, claim: bool = False) -> list[GameRow]:
        """Games whose deadline is at or before ``now``, earliest first.

        ``claim=True`` (PostgreSQL) locks the returned rows FOR UPDATE SKIP LOCKED, so that
        concurrent clock workers each get different games; SQLite has one writer anyway.
        """
        return [self._game(row) for row in await self._db.rows(self._db.sql.due_games[claim], self._db.time(now),
                                                               limit)]

    async def lock_game(self, game_id: str, lock: LockMode) -> None:
        """Lock the game's row (PostgreSQL) or check it exists (SQLite). GameNotFound if absent."""
        if not await self._db.rows(self._db.sql.lock_game[lock], game_id):
            raise GameNotFound(game_id)


class ProjectionReader:
    """The projections' positions: how far each has read the log."""

    def __init__(self, db: Runner) -> None:
        self._db = db

    async def projection_position(self, name: str) -> int:
        """How far the projection ``name`` has read the log (0 before it ever ran); no lock."""
        return int(await self._db.value(self._db.sql.projection_position, name) or 0)


class ProjectionRecorder(ProjectionReader):
    """The projections' positions, locked and advanced in the transaction that writes a
    projection's output."""

    def __init__(self, db: Runner, tx: TransactionState) -> None:
        super().__init__(db)
        self._tx = tx
        self._locked: dict[str, int] = {}  # positions locked in this transaction, by projection

    async def lock_projection(self, name: str) -> int:
        """The projection's position, its row locked to the end of this transaction (so that
        two runs of the projection take turns); the projection then writes its output and
        ``advance_projection`` in this same transaction."""
        self._tx.check_usable()
        position = int(await self._db.value(self._db.sql.lock_projection, name))
        self._locked[name] = position
        return position

    async def advance_projection(self, name: str, position: int) -> None:
        """Record that the projection has read the log up to ``position`` (committed with its
        output). Only after ``lock_projection`` in this transaction, and never backwards."""
        self._tx.check_usable()
        if name not in self._locked:
            raise RuntimeError(f"advance_projection({name!r}) without lock_projection in this transaction")
        if position < self._locked[name]:
            raise ValueError(f"projection {name!r} is at {self._locked[name]}, not moving back to {position}")
        await self._db.rows(self._db.sql.set_projection, name, position)
        self._locked[name] = position
