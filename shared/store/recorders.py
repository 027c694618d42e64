"""What a store transaction records, one recorder each (docs/store.md, "Recorders"): the event
log (``EventRecorder``), the game index (``GameIndexRecorder``), the projections' positions
(``ProjectionRecorder``) and the notifications outbox (``OutboxRecorder``). A back end's
transaction is all four (shared/store/base.py's ``Transaction``); each recorder's part of the
contract suite runs on both back ends (tests/store/test_recorders.py names them).
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any, Literal, NamedTuple

from shared.store.outbox import ClaimedNotification, NewNotification, Notification, Outcome
from shared.store.records import (
    ConcurrencyError,
    GameRow,
    LogSlice,
    NewEvent,
    RecordedEvent,
    UnstorableText,
)
from shared.text import first_problem, path_of, quickly_storable

LockMode = Literal["none", "share", "exclusive"]


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
    data: dict[str, Any]
    metadata: dict[str, Any]
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


class Usable(ABC):
    """What every recorder of one transaction shares: a clash dooms the whole transaction."""

    appended: bool  # whether this transaction has written events (which it may read back uncommitted)
    failure: ConcurrencyError | None

    def _doom(self, error: ConcurrencyError) -> ConcurrencyError:
        self.failure = error
        return error

    def _check_usable(self) -> None:
        if self.failure is not None:
            raise self.failure


class EventRecorder(Usable):
    """The event log: appending to streams with the expected version, and reading streams,
    prefixes and the whole log in position order."""

    _appended_on_commit: bool

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
        self._check_usable()
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



class GameIndexRecorder(ABC):
    """The game index: one row a game (the list's summary and the deadline index), written with
    the game's events, and the game's row lock."""

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
                         *, listed_only: bool = False, bots_may_join: bool | None = None) -> list[GameRow]:
        """The latest updated games first (then by id); with ``after`` (a row's ``updated_at``
        and id), only the rows that come after it in that order: a page of the list; with
        ``variant``, only that variant's games; ``listed_only``, without the private games (the
        lobby's list: docs/hosting.md, "Private games"); with ``bots_may_join``, only the games
        whose setting of that name is the value given."""

    @abstractmethod
    async def oldest_due_deadline(self, now: datetime) -> datetime | None:
        """The earliest deadline at or before ``now`` (a game the clock has not handled yet), or None."""

    @abstractmethod
    async def lock_game(self, game_id: str, lock: LockMode) -> None:
        """Lock the game's row (PostgreSQL) or check it exists (SQLite). GameNotFound if absent."""


class ProjectionRecorder(Usable):
    """The projections' positions: how far each has read the log, locked and advanced in the
    transaction that writes its output."""

    _projections: dict[str, int]  # positions locked in this transaction, by projection

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


class OutboxRecorder(ABC):
    """The notifications outbox: rows planned, claimed with a lease, and their outcomes."""

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
