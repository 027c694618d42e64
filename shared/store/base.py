"""The store's API, shared by both back ends: ``EventStore`` and ``Transaction``.

Each back end is one pair of classes (shared/store/sqlite.py, shared/store/postgresql.py)
that implements the abstract methods below with its own SQL on its own driver. What is the
same everywhere lives here: the arguments checked, a ConcurrencyError dooming its
transaction, the rows an append writes, the convenience reads, the projection positions'
bookkeeping and waiting for new events. docs/store.md describes the semantics.
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from datetime import UTC, datetime, timedelta
from typing import ClassVar, Literal, NamedTuple, Protocol, TypeVar

from shared.store.notify import CommitListener
from shared.store.outbox import ClaimedNotification, NewNotification, Notification, Outcome
from shared.store.records import (
    ConcurrencyError,
    GameRow,
    GuardedAppend,
    LogSlice,
    NewEvent,
    RecordedEvent,
    UnstorableText,
)
from shared.store.tail import LogTail
from shared.text import first_problem, path_of, quickly_storable

LockMode = Literal["none", "share", "exclusive"]


class Emptiable(Protocol):
    """A holder of caches a store keeps (``EventStore.kept``)."""

    def clear(self) -> None: ...


E = TypeVar("E", bound=Emptiable)
# write: a transaction that may write; snapshot: reads that see one state (``reading()``);
# statement: one read on its own (the store's convenience reads)
Session = Literal["write", "snapshot", "statement"]
CONNECTION_WAIT_SECONDS = 30.0  # how long a transaction waits for a free connection of the pool


def utc_now() -> datetime:
    return datetime.now(UTC)


def as_utc(moment: datetime) -> datetime:
    """An aware UTC datetime; a naive one is taken as UTC."""
    if moment.tzinfo is None:
        return moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)


class EventRow(NamedTuple):
    """An event about to be inserted into one stream."""

    version: int
    type: str
    schema_version: int
    data: dict
    metadata: dict
    recorded_at: datetime


def _check_storable(stream_id: str, events: Sequence[NewEvent]) -> None:
    """Both back ends keep the same strings and numbers: the text rule of shared/text.py
    (PostgreSQL's JSONB alone would refuse U+0000 and keep the rest; SQLite would keep all)."""
    for event in events:
        if quickly_storable(event.data) and quickly_storable(event.metadata):
            continue
        for root, value in (("data", event.data), ("metadata", event.metadata)):
            found = first_problem(value)
            if found is not None:
                raise UnstorableText(stream_id, event.type, path_of(found[0], root), found[1])


class Transaction(ABC):
    """One database transaction of the store; obtained from ``EventStore.transaction`` or
    ``EventStore.reading``. Each back end subclasses it."""

    dialect: ClassVar[str]

    def __init__(self, store: EventStore) -> None:
        self._store = store
        self.appended = False  # whether this transaction has written events (which it may read back uncommitted)
        self.failure: ConcurrencyError | None = None
        self._appended_on_commit = False
        self._projections: dict[str, int] = {}  # positions locked in this transaction, by projection

    @property
    def store(self) -> EventStore:
        return self._store

    # ------------------------------------------------------------------------- appending

    async def append(
        self, stream_id: str, events: Sequence[NewEvent], expected_version: int | None
    ) -> list[RecordedEvent]:
        """Append events after version ``expected_version`` of the stream (None: after its end).

        A clash raises ConcurrencyError and dooms the whole transaction: nothing of it is
        written, even if the caller catches the error.
        """
        if self._appended_on_commit:
            raise RuntimeError("append after append_on_commit in one transaction: it would not see those events")
        self._check_usable()
        _check_storable(stream_id, events)
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
        self._check_usable()
        _check_storable(stream_id, events)
        await self._append_on_commit(stream_id, list(events), expected_version)
        self._appended_on_commit = True

    @abstractmethod
    async def _append(self, stream_id: str, events: list[NewEvent],
                      expected_version: int | None) -> list[RecordedEvent]:
        ...

    @abstractmethod
    async def _append_on_commit(self, stream_id: str, events: list[NewEvent], expected_version: int | None) -> None:
        ...

    @abstractmethod
    async def _commit(self) -> None:
        """End the transaction: commit it (with what ``append_on_commit`` held back)."""

    def _rows_after(self, stream_id: str, events: list[NewEvent], expected_version: int | None,
                    current: int) -> list[EventRow]:
        """The rows that follow version ``current`` of the stream, once ``expected_version`` is
        checked against it."""
        if expected_version is not None and expected_version != current:
            raise self._doom(ConcurrencyError(stream_id, expected_version, current))
        if not events:
            return []
        self.appended = True
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

    def _doom(self, error: ConcurrencyError) -> ConcurrencyError:
        self.failure = error
        return error

    def _check_usable(self) -> None:
        if self.failure is not None:
            raise self.failure

    # ------------------------------------------------------------------------- reading the log

    @abstractmethod
    async def stream_version(self, stream_id: str) -> int:
        """The stream's last version (0 for a stream without events)."""

    @abstractmethod
    async def read_stream(self, stream_id: str, after_version: int = 0,
                          up_to_version: int | None = None) -> list[RecordedEvent]:
        """The stream's events after ``after_version`` (and at or before ``up_to_version`` when
        given: a page of a long stream costs that page, not the rest), in version order."""

    @abstractmethod
    async def read_streams(self, prefix: str, after_position: int = 0) -> dict[str, list[RecordedEvent]]:
        """Every stream whose id starts with ``prefix`` (exactly, case-sensitively), by stream
        id, each in version order; only its events after ``after_position`` when given (positions
        become visible in commit order, so a reader that has seen up to a position has seen
        every event at or before it)."""

    @abstractmethod
    async def read_all(self, after_position: int = 0, limit: int = 1000) -> list[RecordedEvent]:
        ...

    async def read_all_of(self, prefixes: Sequence[str], after_position: int = 0,
                          limit: int = 1000) -> LogSlice:
        """Of the next ``limit`` events of the log after ``after_position``, those of streams
        whose id starts with one of ``prefixes`` (in the log's order), with how many events
        were gone past and the position of the last (``after_position`` when the log holds
        none after it): a projection that follows some streams goes past the others without
        reading them."""
        last, passed = await self._last_of_next(after_position, limit)
        if not passed:
            return LogSlice([], after_position, 0)
        return LogSlice(await self._read_range_of(tuple(prefixes), after_position, last), last, passed)

    @abstractmethod
    async def _last_of_next(self, after_position: int, limit: int) -> tuple[int, int]:
        """The position of the last of the next ``limit`` events after ``after_position``, and
        how many there are."""

    @abstractmethod
    async def _read_range_of(self, prefixes: tuple[str, ...], after_position: int,
                             up_to_position: int) -> list[RecordedEvent]:
        ...

    @abstractmethod
    async def head(self) -> int:
        """The position of the last event in the log (0 when it is empty)."""

    # ------------------------------------------------------------------------- the games read model

    @abstractmethod
    async def get_game(self, game_id: str) -> GameRow | None:
        ...

    @abstractmethod
    async def put_game(self, row: GameRow) -> None:
        """Insert or update the game's read-model row.

        On PostgreSQL, update an existing row only in a transaction that holds its exclusive
        lock: two share-lock holders updating the same row deadlock.
        """

    @abstractmethod
    async def due_games(self, now: datetime, limit: int, *, claim: bool = False) -> list[GameRow]:
        """Games whose deadline is at or before ``now``, earliest first.

        ``claim=True`` (PostgreSQL) locks the returned rows FOR UPDATE SKIP LOCKED, so that
        concurrent clock workers each get different games; SQLite has one writer anyway.
        """

    @abstractmethod
    async def list_games(self, status: str | None = None, limit: int = 100,
                         after: tuple[datetime, str] | None = None, variant: str | None = None,
                         listed_only: bool = False) -> list[GameRow]:
        """The latest updated games first (then by id); with ``after`` (a row's ``updated_at``
        and id), only the rows that come after it in that order: a page of the list; with
        ``variant``, only that variant's games; ``listed_only``, without the private games (the
        lobby's list: docs/hosting.md, "Private games")."""

    @abstractmethod
    async def oldest_due_deadline(self, now: datetime) -> datetime | None:
        """The earliest deadline at or before ``now`` (a game the clock has not handled yet), or None."""

    @abstractmethod
    async def lock_game(self, game_id: str, lock: LockMode) -> None:
        """Lock the game's row (PostgreSQL) or check it exists (SQLite). GameNotFound if absent."""

    # ------------------------------------------------------------------------- tracking projections

    @abstractmethod
    async def projection_position(self, name: str) -> int:
        """How far the projection ``name`` has read the log (0 before it ever ran); no lock."""

    async def lock_projection(self, name: str) -> int:
        """The projection's position, its row locked to the end of this transaction (so that
        two runs of the projection take turns); the projection then writes its output and
        ``advance_projection`` in this same transaction."""
        self._check_usable()
        position = await self._lock_projection(name)
        self._projections[name] = position
        return position

    async def advance_projection(self, name: str, position: int) -> None:
        """Record that the projection has read the log up to ``position`` (committed with its
        output). Only after ``lock_projection`` in this transaction, and never backwards."""
        self._check_usable()
        if name not in self._projections:
            raise RuntimeError(f"advance_projection({name!r}) without lock_projection in this transaction")
        if position < self._projections[name]:
            raise ValueError(f"projection {name!r} is at {self._projections[name]}, not moving back to {position}")
        await self._set_projection(name, position)
        self._projections[name] = position

    @abstractmethod
    async def _lock_projection(self, name: str) -> int:
        ...

    @abstractmethod
    async def _set_projection(self, name: str, position: int) -> None:
        ...

    # ------------------------------------------------------------------------- the notifications outbox

    @abstractmethod
    async def plan_notification(self, notification: NewNotification) -> bool:
        """Add a pending row; False (and nothing written) if its dedupe key is planned already."""

    @abstractmethod
    async def cancel_notifications(self, game_id: str, *, kind: str | None = None, phase: str | None = None,
                                   player_id: str | None = None) -> int:
        """Cancel the game's pending rows that match every criterion given; how many."""

    @abstractmethod
    async def claim_notifications(self, now: datetime, lease: timedelta, limit: int,
                                  max_attempts: int | None = None) -> list[ClaimedNotification]:
        """Up to ``limit`` pending rows due at ``now``, earliest first, each with its attempt
        counted and leased (not due again) until ``now + lease``. On PostgreSQL the rows are
        taken FOR UPDATE SKIP LOCKED, so concurrent workers each get different rows.

        With ``max_attempts``, a due row that already has that many attempts counted (the last
        one's outcome was never recorded: its worker stopped, its lease ran out) is not claimed
        again but dead-lettered (``last_error`` NO_OUTCOME_RECORDED)."""

    @abstractmethod
    async def record_outcome(self, notification_id: int, attempts: int, outcome: Outcome) -> bool:
        """Store an attempt's outcome, only if the row is still pending with ``attempts``
        attempts (the attempt's own lease); whether it was."""

    @abstractmethod
    async def release_notification(self, notification_id: int, attempts: int, now: datetime) -> bool:
        """Give back a claimed row not attempted after all (a worker stopping): due at ``now``
        again, its attempt uncounted, only if it is still pending with ``attempts`` (the
        claim's own lease); whether it was."""

    @abstractmethod
    async def set_webhook_secret(self, game_id: str, recipient: str, secret: str | None, at: datetime) -> None:
        """The secret a recipient's webhook in a game is signed with from now on (None: no
        webhook, no secret). Claims hand each row its recipient's current secret."""

    @abstractmethod
    async def notifications(self, game_id: str | None = None) -> list[Notification]:
        """The outbox rows (of one game), oldest first."""

    @abstractmethod
    async def notification_counts(self) -> dict[str, int]:
        """How many rows have each status."""


class EventStore(ABC):
    """The store: open it with ``open_store(url)``; close it when done. Each back end subclasses it."""

    dialect: ClassVar[str]

    def __init__(self, listener: CommitListener | None = None) -> None:
        self._listener = listener  # PostgreSQL: wakes waiting readers; elsewhere they poll
        # per-process caches of what callers fold from this store's log, one typed holder per
        # kind (``kept``; shared/game/cached.py's ``Caches``); ``truncate`` empties them
        self._kept: dict[type, Emptiable] = {}

    def kept(self, kind: type[E]) -> E:
        """This store's one ``kind`` (made on first use with ``kind()``): a holder of caches of
        what is folded from its log, in this process, emptied (``clear``) by ``truncate``."""
        found = self._kept.get(kind)
        if found is None:
            found = self._kept[kind] = kind()
        assert isinstance(found, kind)
        return found

    @abstractmethod
    async def close(self) -> None:
        ...

    @abstractmethod
    async def create_schema(self) -> None:
        """Create the tables and indexes if missing; safe to run concurrently from many processes."""

    @abstractmethod
    def _session(self, kind: Session) -> AbstractAsyncContextManager[Transaction]:
        """A begun transaction on a connection of the pool, rolled back if the block raises."""

    @abstractmethod
    async def _empty_tables(self) -> None:
        ...

    async def truncate(self) -> None:
        """Empty every table of the store (tests only), and the caches of what was folded from it."""
        for kept in self._kept.values():
            kept.clear()
        await self._empty_tables()

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
        return self._transaction(game_id, lock, "write")

    def reading(self) -> AbstractAsyncContextManager[Transaction]:
        """A transaction for reads only: it never takes the writer's lock (SQLite: a deferred
        BEGIN, one snapshot under WAL; PostgreSQL: each statement on its own, no BEGIN/COMMIT
        round trips). Appending in it is a mistake the database refuses on neither back end, so
        don't."""
        return self._transaction(None, "none", "snapshot")

    @asynccontextmanager
    async def _transaction(self, game_id: str | None, lock: LockMode, kind: Session) -> AsyncIterator[Transaction]:
        async with self._session(kind) as tx:
            if game_id is not None and lock != "none":
                await tx.lock_game(game_id, lock)
            yield tx
            if tx.failure is not None:
                # the caller swallowed a ConcurrencyError: nothing of this transaction is written
                raise tx.failure
            await tx._commit()

    def _statement(self) -> AbstractAsyncContextManager[Transaction]:
        return self._transaction(None, "none", "statement")

    # ------------------------------------------------------------------------- convenience reads

    async def read_stream(self, stream_id: str, after_version: int = 0,
                          up_to_version: int | None = None) -> list[RecordedEvent]:
        async with self._statement() as tx:
            return await tx.read_stream(stream_id, after_version, up_to_version)

    async def read_streams(self, prefix: str, after_position: int = 0) -> dict[str, list[RecordedEvent]]:
        async with self._statement() as tx:
            return await tx.read_streams(prefix, after_position)

    async def append_if_current(self, game_id: str, guard_stream: str, guard_version: int, stream_id: str,
                                event: NewEvent, expected_version: int | None = None, *,
                                watch_streams: Sequence[str] = (), watch_after: int = 0) -> GuardedAppend:
        """Append one event to ``stream_id`` (after ``expected_version``; None: after its end) in a
        transaction of its own that holds the game's share lock, only if the stream
        ``guard_stream`` is still at ``guard_version`` (what the caller decided from); otherwise
        write nothing and say which version it found. GameNotFound without the game's row; a
        clash on ``expected_version`` raises ConcurrencyError. With ``watch_streams``, also the
        events of those streams after position ``watch_after``, in the order of their
        positions: every one up to the event appended, each stream found by one index descent
        (so the read costs the same however many events the streams hold). On PostgreSQL this
        is one round trip (the server-side function of shared/store/schema.py, bound parameters only)."""
        _check_storable(stream_id, [event])
        return await self._append_if_current(game_id, guard_stream, guard_version, stream_id, event,
                                             expected_version, tuple(watch_streams), watch_after)

    @abstractmethod
    async def _append_if_current(self, game_id: str, guard_stream: str, guard_version: int, stream_id: str,
                                 event: NewEvent, expected_version: int | None, watch_streams: tuple[str, ...],
                                 watch_after: int) -> GuardedAppend:
        ...

    async def stream_version(self, stream_id: str) -> int:
        async with self._statement() as tx:
            return await tx.stream_version(stream_id)

    async def read_all(self, after_position: int = 0, limit: int = 1000) -> list[RecordedEvent]:
        async with self._statement() as tx:
            return await tx.read_all(after_position, limit)

    async def head(self) -> int:
        """The position of the last event in the log (0 when it is empty)."""
        async with self._statement() as tx:
            return await tx.head()

    async def get_game(self, game_id: str) -> GameRow | None:
        async with self._statement() as tx:
            return await tx.get_game(game_id)

    async def list_games(self, status: str | None = None, limit: int = 100,
                         after: tuple[datetime, str] | None = None, variant: str | None = None,
                         listed_only: bool = False) -> list[GameRow]:
        async with self._statement() as tx:
            return await tx.list_games(status, limit, after, variant, listed_only)

    async def projection_position(self, name: str) -> int:
        async with self._statement() as tx:
            return await tx.projection_position(name)

    async def oldest_due_deadline(self, now: datetime) -> datetime | None:
        async with self._statement() as tx:
            return await tx.oldest_due_deadline(now)

    async def notifications(self, game_id: str | None = None) -> list[Notification]:
        async with self._statement() as tx:
            return await tx.notifications(game_id)

    async def notification_counts(self) -> dict[str, int]:
        async with self._statement() as tx:
            return await tx.notification_counts()

    def tail(self, after_position: int) -> LogTail:
        """The log after ``after_position``, followed batch by batch (shared/store/tail.py): for
        a reader that keeps up with the log, such as the stream hub's tailer. Close it when done."""
        return LogTail(self.read_all, self._listener, after_position)

    async def wait_for_events(
        self, after_position: int, timeout: float, limit: int = 1000
    ) -> list[RecordedEvent]:
        """Events after ``after_position``; when there are none yet, wait up to ``timeout``
        seconds for some to commit (an empty list when none did). One wait of a ``tail``."""
        async with self.tail(after_position) as tail:
            return await tail.next(timeout, limit=limit)
