"""The repository of games: a game's state read through a per-process cache, its events
appended with the games row (the list's summary and the deadline index) in one transaction.

The cache lets a request read and fold only the events its game stream gained since the last
request, not the whole stream.

Each store keeps its own caches (``Caches``, shared/game/cached.py, which ``truncate``
empties), and ``CachedFold`` there continues a cached state with the events its stream gained
since, checked. So a state is as fresh as the read that produced it: read inside a transaction
that holds the game's lock, it is the game's current state, exactly as a full fold would give it.

Only states read from committed events are kept: a transaction that has appended events may
read its own uncommitted writes, so what it reads is folded but never cached.

A cached state keeps none of its resolved phases (they are nearly all of a state's memory, and
only views read them): ``with_recent_history`` gives a state its latest ``RECENT_PHASES`` to
twice as many (what a view's first history page and the live stream show) through a second
cache, of the games whose views are asked for; older phases (older history pages, past views and
pictures) are read by version, a page at a time, through shared/game/phases.py, which keeps
them in a third cache; ``full_state`` folds a game's whole history again for the rare reader
that needs every phase. The caches are bounded in bytes (docs/architecture.md, "Performance"):
an entry is weighed by the measured memory of what it holds (docs/performance.md, 2026-12-01,
"Growth: memory, views, replay"), and the least recently used entries are dropped once the
total passes the bound.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from datetime import datetime

import orjson

from shared.clock import SYSTEM_CLOCK
from shared.events import Event, EventMetadata, from_recorded, game_stream, to_new_event
from shared.store import EventStore, GameRow, RecordedEvent, Transaction

from .cached import CachedFold, Continued, Entry, caches_of, reads_committed
from .state import GameState, fold

MEMORY_PER_JSON_BYTE = 4  # a folded state's memory / its events' JSON size (measured: docs/performance.md, 2026-12-01)
# the recent histories' estimated memory is bounded as the states' is (``bound_state_cache``): nearly every game
# in play is viewed (each player's page follows its live stream), so this is the memory the states
# with their history had before they left it out (docs/performance.md, 2026-12-02, "Growth: states
# without their history")
HISTORYLESS_BYTES = 10 * 1024  # a state's settings and seats, without its history (measured)
RECENT_PHASES = 20  # resolved phases a cached state keeps (a view's history page: docs/api.md)
INDEX_BYTES_PER_PHASE = 100  # a ``resolved_index`` entry: a tuple, a short string and an int


def weight_of(records: Iterable[RecordedEvent]) -> int:
    """The estimated memory the events take once folded into a state."""
    return MEMORY_PER_JSON_BYTE * sum(len(orjson.dumps(record.data)) for record in records)


def bound_state_cache(store: EventStore, capacity: int) -> None:
    """Bound the store's caches of game states, recent histories and past phases to
    ``capacity`` estimated bytes each (the app's ``state_cache_mib`` setting)."""
    caches_of(store).resize(capacity)


async def read_game(reader: EventStore | Transaction, game_id: str) -> GameState | None:
    """The game's state as of this read (None when its stream is empty), from the cache and
    the events the stream gained since, **without its history**: its resolved phases are
    counted (``resolved_count``) but not held, as nearly no request reads them (views ask
    ``with_recent_history``, older pages shared/game/phases.py). The state is shared: read it,
    never change it."""
    states = CachedFold(caches_of(reader).states)
    entry = states.get(game_id)
    return _kept(reader, states, game_id, await states.continued(reader, game_id, entry))


def _kept(reader: EventStore | Transaction, states: CachedFold, game_id: str, read: Continued) -> GameState | None:
    """The state ``read`` folds to, without its history, kept in the cache when committed."""
    if read.base is not None and not read.records:
        return read.base.state  # nothing new: the cached state itself
    state = read.fold()
    if state is None:
        states.cache.pop(game_id)
        return None
    state, weight = without_history(state)
    if reads_committed(reader):
        states.remember(game_id, Entry(state, read.position, weight))
    return state


async def read_states(tx: Transaction, game_ids: Sequence[str]) -> dict[str, GameState]:
    """``read_state`` of each game (distinct games, each locked by ``tx``), their streams read in
    one statement (``read_each``): each from its cached version on, as ``read_game`` reads one;
    a game whose cached entry the log does not continue is read again alone, from its start."""
    states = CachedFold(caches_of(tx).states)
    entries = {game_id: states.get(game_id) for game_id in game_ids}
    found = await tx.events.read_each({game_stream(game_id): entry.state.version - 1 if entry is not None else 0
                                       for game_id, entry in entries.items()})
    read: dict[str, GameState] = {}
    for game_id, entry in entries.items():
        records = found.get(game_stream(game_id), [])
        if entry is None or entry.continued_by(records):
            state = _kept(tx, states, game_id, Continued(entry, records[1:] if entry is not None else records))
        else:  # not the log the entry was folded from
            state = await read_game(tx, game_id)
        if state is None:
            raise ValueError(f"no events in the stream of game {game_id!r}")
        read[game_id] = state
    return read


async def with_recent_history(reader: EventStore | Transaction, state: GameState) -> GameState:
    """``state`` with its latest resolved phases (``RECENT_PHASES`` to twice as many, or all
    there are): what a view's first history page and the live stream show. Folded through a
    second per-process cache, of the games whose views are asked for, on from where it left
    each (checked as ``read_game`` checks its own) and never past ``state``'s version, so it is
    ``state`` itself with its history."""
    if state.earlier_resolved == 0:
        return state  # nothing left out
    caches = caches_of(reader)
    histories = CachedFold(caches.histories)
    entry = histories.get(state.game_id)
    if entry is not None and entry.state.version == state.version:
        current = caches.states.peek(state.game_id)  # where ``state`` was read, if it is the cached one
        if current is not None and current.state is state and current.position == entry.position:
            return entry.state
        entry = None  # the same version, perhaps of another log: fold the game again
    if entry is not None and entry.state.version > state.version:
        entry = None  # kept past ``state`` (a slower reader): fold the game up to it
    read = await histories.continued(reader, state.game_id, entry)
    newer = [record for record in read.records if record.version <= state.version]
    read = Continued(read.base, newer)
    folded = read.fold()
    weight = (read.base.weight if read.base else 0) + weight_of(newer)
    if folded is None or not newer or folded.version != state.version:  # not the log ``state`` was read from
        raise ValueError(f"game {state.game_id!r} has no version {state.version} in this log")
    folded, weight = recent_only(folded, weight)
    if reads_committed(reader):
        histories.remember(state.game_id, Entry(folded, read.position, weight))
    return folded


def cached_game(store: EventStore, game_id: str) -> GameState | None:
    """The game's state as this process last read it, without asking the store (None when it
    holds none). It may be behind the log: only for a write whose append checks the game's
    version, and which reads the game again when that moved on (order submissions,
    docs/architecture.md "Performance")."""
    entry = caches_of(store).states.peek(game_id)
    return entry.state if entry is not None else None


def recent_only(state: GameState, weight: int) -> tuple[GameState, int]:
    """The state with only its ``RECENT_PHASES`` latest resolved phases (trimmed once it holds
    twice as many, so that a copy is made every ``RECENT_PHASES`` phases), and its weight then
    (the resolved phases being nearly all of it)."""
    if len(state.resolved) <= 2 * RECENT_PHASES:
        return state, weight
    dropped = len(state.resolved) - RECENT_PHASES
    trimmed = replace(state, resolved=state.resolved[dropped:], earlier_resolved=state.earlier_resolved + dropped)
    return trimmed, weight * RECENT_PHASES // len(state.resolved)


def without_history(state: GameState) -> tuple[GameState, int]:
    """The state with none of its resolved phases (they are counted in ``earlier_resolved``),
    for readers that never look back (the notification planner), and its estimated weight: a
    fixed part for the settings and seats, and the position document's JSON times
    ``MEMORY_PER_JSON_BYTE`` (measured: docs/performance.md, 2026-12-02, "Growth: states without
    their history")."""
    if state.resolved:
        state = replace(state, earlier_resolved=state.earlier_resolved + len(state.resolved), resolved=[])
    return state, (HISTORYLESS_BYTES + INDEX_BYTES_PER_PHASE * len(state.resolved_index)
                   + MEMORY_PER_JSON_BYTE * len(orjson.dumps(state.position)))


async def full_state(reader: EventStore | Transaction, state: GameState) -> GameState:
    """``state`` with every resolved phase (folded again from the log, and not cached, when the
    cache left earlier ones out)."""
    if state.earlier_resolved == 0:
        return state
    records = await reader.events.read_stream(game_stream(state.game_id))
    return fold(from_recorded(r) for r in records if r.version <= state.version)


async def read_state(tx: Transaction, game_id: str) -> GameState:
    """The game's state in ``tx`` (current, once ``tx`` holds the game's lock), read through
    the per-process cache: only the events newer than the cached state are read and folded."""
    state = await read_game(tx, game_id)
    if state is None:
        raise ValueError(f"no events in the stream of game {game_id!r}")
    return state


def fold_records(records: Sequence[RecordedEvent]) -> GameState:
    return fold(from_recorded(r) for r in records)


def game_row(state: GameState, now: datetime | None = None) -> GameRow:
    """The games row of ``state``: the list's summary and the deadline index."""
    return GameRow(game_id=state.game_id, variant=state.variant, name=state.name,
                   status=state.status, phase=state.phase, deadline=state.wake_at(),
                   summary=dict(state.summary()), updated_at=now or SYSTEM_CLOCK.now())


async def append_events(tx: Transaction, state: GameState, events: Sequence[Event], metadata: EventMetadata | None,
                        now: datetime | None = None) -> GameState:
    """Append ``events`` after the version ``state`` was folded from, and write the games row;
    the state after them (a new one: ``state`` is left as it was). The row is written only when
    what the list shows of it changes (``_public``), so that an event nobody but its author may
    see (a secret draw vote) says nothing of itself through ``updated_at`` or the game's place in
    ``GET /games`` (docs/hosting.md, "Secret votes stay secret")."""
    if not events:
        return state
    await tx.events.append(game_stream(state.game_id), [to_new_event(e, metadata) for e in events],
                           expected_version=state.version)
    before = game_row(state)
    state = fold(events, onto=state)
    row = game_row(state, now)
    if _public(row) != _public(before):  # a secret draw vote moves nothing in the public list
        await tx.games.put_game(row)
    return state


def _public(row: GameRow) -> tuple[object, ...]:
    """What the games list shows of a row, but when it changed: the row (and its ``updated_at``,
    which the list shows and its cursor holds) is written only when this changes, so that an
    event nobody else may see (a secret draw vote) is not told by a change of time or place in
    the list (docs/api.md, "Identifiers that reveal nothing")."""
    return row.status, row.phase, row.deadline, row.summary
