"""What a process folds from a store's log, kept: the caches by name (``Caches``) and the one
fold that continues a cached state with the events its stream gained since (``CachedFold``),
as an event-sourced repository's ``get`` does (docs/store.md, "Caches").

An entry is a state folded from versions 1..v of ``game-{id}`` and the global position of
version v. A read asks the store for the events from version v on: version v must come back
at the same position (else the log is not the one the entry was folded from, and the stream
is folded again from its start), and the newer ones are folded onto the entry's state, which
is never changed (the fold makes a new state). Each store keeps one ``Caches`` per process
(``EventStore.kept``), emptied with the store's tables by ``truncate``.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from shared.bounded import BoundedCache
from shared.events import PhaseResolved, from_recorded, game_stream
from shared.store import EventStore, RecordedEvent, Transaction

from .state import GameState, fold
from .submissions import PowerSubmission
from .view_documents import HistoryEntry

CAPACITY = 10_000  # games per store and process at most (the bytes bind first: about 13 KB a game)
CAPACITY_BYTES = 64 * 2**20  # the estimated memory of the cached states per store and process (by default)
HISTORY_CAPACITY = 2_000  # games whose recent history a store and process keeps (those being viewed)
PHASES_CAPACITY = 50_000  # resolved phases per store and process at most (the bytes bind first)
SUBMISSIONS_KEPT = 4_096  # games per store and process (one phase each), the least recently used dropped first
SUBMISSIONS_BYTES = 16 * 2**20  # their estimated memory at most
NOTIFICATION_GAMES_KEPT = 10_000  # games whose state at the notification projection's position is kept
HISTORY_ENTRIES_KEPT = 4096  # history entries per store and process (a long game's view re-reads each on every change)
HISTORY_ENTRIES_BYTES = 32 * 2**20  # and their estimated memory at most (as much again for their texts)


@dataclass(frozen=True, slots=True)
class Entry:
    state: GameState  # shared with every reader: never changed (the fold makes new states)
    position: int  # the global position of the stream's version ``state.version``
    weight: int = 0  # the estimated bytes the state holds

    def continued_by(self, records: Sequence[RecordedEvent]) -> bool:
        """Whether ``records`` (the stream read from this entry's version on) start with the
        very event this state was folded up to: the same version at the same position."""
        return bool(records) and records[0].version == self.state.version and records[0].position == self.position


@dataclass(frozen=True, slots=True)
class FoldedSubmissions:
    phase: str
    submissions: dict[str, PowerSubmission]  # shared with every reader: never changed
    position: int  # the last position of the phase's order streams folded in


def _states() -> BoundedCache[str, Entry]:
    return BoundedCache("game_states", CAPACITY, CAPACITY_BYTES)


@dataclass(eq=False)
class Caches:
    """Every cache a process keeps of what it folds from one store's log, by name; each is
    bounded in entries and in estimated bytes (shared/bounded.py)."""

    # game states without their resolved phases (shared/game/repository.py, ``read_game``)
    states: BoundedCache[str, Entry] = field(default_factory=_states)
    # the states of the games whose views are asked for, with their recent phases (``with_recent_history``)
    histories: BoundedCache[str, Entry] = field(
        default_factory=lambda: BoundedCache("game_histories", HISTORY_CAPACITY, CAPACITY_BYTES))
    # resolved phases by game and version, for past views and older history pages (shared/game/phases.py)
    past_phases: BoundedCache[tuple[str, int], PhaseResolved] = field(
        default_factory=lambda: BoundedCache("past_phases", PHASES_CAPACITY, CAPACITY_BYTES))
    # by game: the submissions of the last phase read (shared/game/log.py)
    submissions: BoundedCache[str, FoldedSubmissions] = field(
        default_factory=lambda: BoundedCache("phase_submissions", SUBMISSIONS_KEPT, SUBMISSIONS_BYTES))
    # by game: its state at the notification projection's position (services/notifications/outbox.py)
    notification_games: BoundedCache[str, Entry] = field(
        default_factory=lambda: BoundedCache("notification_games", NOTIFICATION_GAMES_KEPT, CAPACITY_BYTES))
    # by game, variant, phase and viewing power: a resolved phase as a view's history shows it, shared
    # by every view (services/visibility/view.py)
    history_entries: BoundedCache[tuple[str, str, str, str | None], HistoryEntry] = field(
        default_factory=lambda: BoundedCache("history_entries", HISTORY_ENTRIES_KEPT, HISTORY_ENTRIES_BYTES))
    # by the id of one of those entries: the entry itself (so that the id is not reused while it is
    # kept) and its JSON text (services/visibility/rendering.py)
    history_entry_texts: BoundedCache[int, tuple[HistoryEntry, str]] = field(
        default_factory=lambda: BoundedCache("history_entry_texts", HISTORY_ENTRIES_KEPT, HISTORY_ENTRIES_BYTES))

    def resize(self, capacity: int) -> None:
        """Bound the caches of states and phases to ``capacity`` estimated bytes each (the
        app's ``state_cache_mib`` setting)."""
        for cache in (self.states, self.histories, self.past_phases, self.notification_games):
            cache.resize(capacity)

    def clear(self) -> None:
        for cache in (self.states, self.histories, self.past_phases, self.submissions, self.notification_games,
                      self.history_entries, self.history_entry_texts):
            cache.clear()


def store_of(reader: EventStore | Transaction) -> EventStore:
    return reader if isinstance(reader, EventStore) else reader.store


def caches_of(reader: EventStore | Transaction) -> Caches:
    """The caches of what this process folds from the store's log."""
    return store_of(reader).kept(Caches)


def reads_committed(reader: EventStore | Transaction) -> bool:
    """Whether what ``reader`` reads is committed (a transaction that appended reads its own
    uncommitted writes: what it folds is never kept)."""
    return isinstance(reader, EventStore) or not reader.appended


@dataclass(frozen=True, slots=True)
class Continued:
    """A game stream as read on from a cached entry: ``base`` the entry the records continue
    (None: they are the whole stream), ``records`` the records after it."""

    base: Entry | None
    records: Sequence[RecordedEvent]

    def fold(self) -> GameState | None:
        """The state after every record (None for an empty stream)."""
        if self.base is not None:
            return fold((from_recorded(r) for r in self.records), onto=self.base.state) if self.records \
                else self.base.state
        return fold(from_recorded(r) for r in self.records) if self.records else None

    @property
    def position(self) -> int:
        """The global position of the last record folded."""
        return self.records[-1].position if self.records else self.base.position if self.base else 0


class CachedFold:
    """A game stream folded through one cache of entries: the read that continues an entry
    (``continued``), and keeping what was folded (``remember``)."""

    def __init__(self, cache: BoundedCache[str, Entry]) -> None:
        self.cache = cache

    def get(self, game_id: str) -> Entry | None:
        return self.cache.get(game_id)

    def peek(self, game_id: str) -> Entry | None:
        return self.cache.peek(game_id)

    async def continued(self, reader: EventStore | Transaction, game_id: str,
                        entry: Entry | None) -> Continued:
        """The game's stream after ``entry`` (an entry of this cache, or None), checked: the
        record of the entry's version must come back at the entry's position, else the stream
        is read from its start (the log is not the one the entry was folded from)."""
        stream = game_stream(game_id)
        if entry is not None:
            records = await reader.events.read_stream(stream, after_version=entry.state.version - 1)
            if entry.continued_by(records):
                return Continued(entry, records[1:])
        return Continued(None, await reader.events.read_stream(stream))

    def remember(self, game_id: str, entry: Entry) -> None:
        """Keep ``entry`` unless a newer state of the game is kept (a slower reader that read
        an older version must not replace it)."""
        current = self.cache.peek(game_id)
        if current is None or current.state.version <= entry.state.version:
            self.cache.put(game_id, entry, entry.weight)
        else:
            self.cache.touch(game_id)
