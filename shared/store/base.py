"""The store's API, shared by both back ends: ``EventStore``, and ``Transaction``, which hands
out the recorders of shared/store/recorders.py (``tx.events``, ``tx.games``,
``tx.projections``, ``tx.outbox``) in one database transaction.

Each back end is one pair of classes (shared/store/sqlite.py, shared/store/postgresql.py)
with a ``Runner`` of its own driver and its own way of appending and claiming. What is the
same everywhere lives here: the arguments checked, a ConcurrencyError dooming its
transaction, the store's reads (``store.events`` and the others: each read a statement of its
own) and waiting for new events. docs/store.md describes the semantics.
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import ClassVar, Literal, Protocol, TypeVar, cast

from shared.store.buckets import RateBuckets
from shared.store.leases import StreamLeases
from shared.store.notify import CommitListener
from shared.store.outboxes import OutboxReader, OutboxRecorder
from shared.store.recorders import (
    EventReader,
    EventRecorder,
    GameIndexReader,
    GameIndexRecorder,
    LockMode,
    ProjectionReader,
    ProjectionRecorder,
    Runner,
    TransactionState,
    check_storable,
)
from shared.store.records import (
    GuardedAppend,
    NewEvent,
    RecordedEvent,
)
from shared.store.rejoins import Rejoins
from shared.store.tail import LogTail


class Emptiable(Protocol):
    """A holder of caches a store keeps (``EventStore.kept``)."""

    def clear(self) -> None: ...


E = TypeVar("E", bound=Emptiable)
# write: a transaction that may write; snapshot: reads that see one state (``reading()``);
# statement: one read on its own (the store's reads)
SessionKind = Literal["write", "snapshot", "statement"]
CONNECTION_WAIT_SECONDS = 30.0  # how long a transaction waits for a free connection of the pool


class Transaction(TransactionState):
    """One database transaction of the store, obtained from ``EventStore.transaction`` or
    ``EventStore.reading``: it hands out every recorder (shared/store/recorders.py), all in this
    transaction, and says whether it has appended (``appended``). Each back end subclasses it."""

    dialect: ClassVar[str]
    events: EventRecorder
    games: GameIndexRecorder
    projections: ProjectionRecorder
    outbox: OutboxRecorder

    def __init__(self, store: EventStore, db: Runner) -> None:
        super().__init__()
        self._store = store
        self.games = GameIndexRecorder(db)
        self.projections = ProjectionRecorder(db, self)

    @property
    def store(self) -> EventStore:
        return self._store

    @abstractmethod
    async def _commit(self) -> None:
        """End the transaction: commit it (with what ``append_on_commit`` held back)."""


class EventStore(ABC):
    """The store: open it with ``open_store(url)``; close it when done. Each back end subclasses it."""

    dialect: ClassVar[str]

    def __init__(self, db: Runner, listener: CommitListener | None = None) -> None:
        # the recorders' reads, each a statement of its own (``db`` runs each on a connection
        # it takes from the pool for that statement alone)
        self.events = EventReader(db)
        self.games = GameIndexReader(db)
        self.projections = ProjectionReader(db)
        self.outbox = OutboxReader(db)
        # the rate limits' shared buckets: writes, each a statement of its own
        self.buckets = self._buckets(db)
        # the DAIDE seats IAM may take back: writes and reads, each a statement of its own
        self.rejoins = Rejoins(self._writer(db))
        # the places of the seats' open live streams: writes, each a statement of its own
        self.leases = StreamLeases(self._writer(db))
        self._listener = listener  # PostgreSQL: wakes waiting readers; elsewhere they poll
        # per-process caches of what callers fold from this store's log, one typed holder per
        # kind (``kept``; shared/game/cached.py's ``Caches``); ``truncate`` empties them
        self._kept: dict[type, Emptiable] = {}

    def _buckets(self, db: Runner) -> RateBuckets:
        """The rate limits' buckets, run by default as the reads are."""
        return RateBuckets(db)

    def _writer(self, db: Runner) -> Runner:
        """What runs a write of a statement of its own: by default as the reads are."""
        return db

    def kept(self, kind: type[E]) -> E:
        """This store's one ``kind`` (made on first use with ``kind()``): a holder of caches of
        what is folded from its log, in this process, emptied (``clear``) by ``truncate``."""
        try:
            return cast(E, self._kept[kind])  # every request asks: no check beyond the key
        except KeyError:
            found = self._kept[kind] = kind()
            return found

    @abstractmethod
    async def close(self) -> None:
        ...

    @abstractmethod
    async def create_schema(self) -> None:
        """Create the tables and indexes if missing; safe to run concurrently from many processes."""

    @abstractmethod
    def _session(self, kind: SessionKind) -> AbstractAsyncContextManager[Transaction]:
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
    async def _transaction(self, game_id: str | None, lock: LockMode, kind: SessionKind) -> AsyncIterator[Transaction]:
        async with self._session(kind) as tx:
            if game_id is not None and lock != "none":
                await tx.games.lock_game(game_id, lock)
            yield tx
            if tx.failure is not None:
                # the caller swallowed a ConcurrencyError: nothing of this transaction is written
                raise tx.failure
            await tx._commit()

    # ------------------------------------------------------------------------- writes of their own

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
        check_storable(stream_id, [event])
        return await self._append_if_current(game_id, guard_stream, guard_version, stream_id, event,
                                             expected_version, watch_streams=tuple(watch_streams),
                                             watch_after=watch_after)

    @abstractmethod
    async def _append_if_current(self, game_id: str, guard_stream: str, guard_version: int, stream_id: str,
                                 event: NewEvent, expected_version: int | None, *,
                                 watch_streams: tuple[str, ...], watch_after: int) -> GuardedAppend:
        ...

    def tail(self, after_position: int) -> LogTail:
        """The log after ``after_position``, followed batch by batch (shared/store/tail.py): for
        a reader that keeps up with the log, such as the stream hub's tailer. Close it when done."""
        return LogTail(self.events.read_all, self._listener, after_position)

    async def wait_for_events(
        self, after_position: int, timeout: float, limit: int = 1000
    ) -> list[RecordedEvent]:
        """Events after ``after_position``; when there are none yet, wait up to ``timeout``
        seconds for some to commit (an empty list when none did). One wait of a ``tail``."""
        async with self.tail(after_position) as tail:
            return await tail.next(timeout, limit=limit)
