"""What the store keeps: plain records, and the errors it raises.

The store knows nothing about Diplomacy. Typed events (shared/events.py) are mapped to and
from these records at the edge.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime


@dataclass(frozen=True, slots=True)
class NewEvent:
    """An event about to be appended: its stream, version and position come from the store."""

    type: str
    data: dict[str, object]
    schema_version: int = 1
    metadata: dict[str, object] = field(default_factory=dict)
    # Set only when copying a log (``entente import``): keep the time of the original.
    recorded_at: datetime | None = None


@dataclass(frozen=True, slots=True)
class RecordedEvent:
    stream_id: str
    version: int
    position: int
    type: str
    schema_version: int
    data: dict[str, object]
    metadata: dict[str, object]
    recorded_at: datetime


@dataclass(frozen=True, slots=True)
class LogSlice:
    """What ``read_all_of`` read: the events of the streams asked for, in the log's order,
    the position of the last event gone past, and how many were gone past."""

    events: list[RecordedEvent]
    last_position: int
    passed: int


@dataclass(frozen=True, slots=True)
class GuardedAppend:
    """What ``append_if_current`` found: the guard stream's version, the position of the
    event appended (None: nothing was written, the guard stream had moved on), and the watched
    streams' events after the position given, in position order (the one appended among them)."""

    guard_version: int
    position: int | None
    watched: tuple[RecordedEvent, ...] = ()

    @property
    def appended(self) -> bool:
        return self.position is not None


@dataclass(slots=True)
class GameRow:
    """The read model and lock row of one game (the game list, the deadline index)."""

    game_id: str
    variant: str
    name: str
    status: str
    phase: str | None
    deadline: datetime | None
    summary: dict[str, object]
    updated_at: datetime


class StoreError(Exception):
    """Base class of the store's own errors."""


class ConcurrencyError(StoreError):
    """An append expected a stream version that was no longer current (HTTP 409).

    ``actual`` is the version found, or None when a concurrent writer won the race on the
    unique (stream_id, version) key and the version could not be read back.
    """

    def __init__(self, stream_id: str, expected: int | None, actual: int | None) -> None:
        self.stream_id = stream_id
        self.expected = expected
        self.actual = actual
        super().__init__(f"stream {stream_id!r}: expected version {expected}, found {actual}")


class StreamNotFound(StoreError):
    def __init__(self, stream_id: str) -> None:
        self.stream_id = stream_id
        super().__init__(f"no stream {stream_id!r}")


class GameNotFound(StoreError):
    def __init__(self, game_id: str) -> None:
        self.game_id = game_id
        super().__init__(f"no game {game_id!r}")


class UnstorableText(StoreError, ValueError):
    """An event holds what the store keeps on neither back end (shared/text.py): a control
    character, a lone surrogate, a number that is not finite. Nothing of that append is written."""

    def __init__(self, stream_id: str, event_type: str, where: str, problem: str) -> None:
        self.stream_id = stream_id
        self.where = where
        self.problem = problem
        super().__init__(f"stream {stream_id!r}, event {event_type}: {where}: {problem}")
