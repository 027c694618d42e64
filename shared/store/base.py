"""The store's API, shared by both back ends: ``EventStore`` and ``Transaction``, which is
every recorder of shared/store/recorders.py in one database transaction.

Each back end is one pair of classes (shared/store/sqlite.py, shared/store/postgresql.py)
that implements the recorders' abstract methods with its own SQL on its own driver. What is the
same everywhere lives here: the arguments checked, a ConcurrencyError dooming its
transaction, the rows an append writes, the convenience reads, the projection positions'
bookkeeping and waiting for new events. docs/store.md describes the semantics.
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from datetime import datetime
from typing import ClassVar, Literal, Protocol, TypeVar, cast

from shared.store.notify import CommitListener
from shared.store.outbox import Notification
from shared.store.recorders import (
    EventRecorder,
    GameIndexRecorder,
    LockMode,
    OutboxRecorder,
    ProjectionRecorder,
    check_storable,
)
from shared.store.records import (
    GameRow,
    GuardedAppend,
    NewEvent,
    RecordedEvent,
)
from shared.store.tail import LogTail


class Emptiable(Protocol):
    """A holder of caches a store keeps (``EventStore.kept``)."""

    def clear(self) -> None: ...


E = TypeVar("E", bound=Emptiable)
# write: a transaction that may write; snapshot: reads that see one state (``reading()``);
# statement: one read on its own (the store's convenience reads)
SessionKind = Literal["write", "snapshot", "statement"]
CONNECTION_WAIT_SECONDS = 30.0  # how long a transaction waits for a free connection of the pool


class Transaction(EventRecorder, GameIndexRecorder, ProjectionRecorder, OutboxRecorder):
    """One database transaction of the store, obtained from ``EventStore.transaction`` or
    ``EventStore.reading``: every recorder (shared/store/recorders.py) in one transaction. Each
    back end subclasses it."""

    dialect: ClassVar[str]

    def __init__(self, store: EventStore) -> None:
        self._store = store
        self.appended = False
        self.failure = None
        self._appended_on_commit = False
        self._projections = {}

    @property
    def store(self) -> EventStore:
        return self._store

    @abstractmethod
    async def _commit(self) -> None:
        """End the transaction: commit it (with what ``append_on_commit`` held back)."""


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
        check_storable(stream_id, [event])
        return await self._append_if_current(game_id, guard_stream, guard_version, stream_id, event,
                                             expected_version, watch_streams=tuple(watch_streams),
                                             watch_after=watch_after)

    @abstractmethod
    async def _append_if_current(self, game_id: str, guard_stream: str, guard_version: int, stream_id: str,
                                 event: NewEvent, expected_version: int | None, *,
                                 watch_streams: tuple[str, ...], watch_after: int) -> GuardedAppend:
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
                         *, listed_only: bool = False, bots_may_join: bool | None = None) -> list[GameRow]:
        async with self._statement() as tx:
            return await tx.list_games(status, limit, after, variant, listed_only=listed_only,
                                       bots_may_join=bots_may_join)

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
