"""The repository of games: a game's state read through a per-process cache, its events
appended with the games row (the list's summary and the deadline index) in one transaction.

The cache lets a request read and fold only the events its game stream gained since the last
request, not the whole stream.

Each store keeps its own cache (in ``store.memo``, which ``truncate`` empties). An entry is a
state folded from versions 1..v of ``game-{id}`` and the global position of version v. A read
asks the store for the events from version v on: version v must come back at the same position
(else the log is not the one the entry was folded from, and the stream is folded again from
the start), and the newer ones are folded onto a copy of the entry. So a state is as fresh as
the read that produced it: read inside a transaction that holds the game's lock, it is the
game's current state, exactly as a full fold would give it.

Only states read from committed events are kept: a transaction that has appended events may
read its own uncommitted writes, so what it reads is folded but never cached.
"""
from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from shared.clock import SYSTEM_CLOCK
from shared.events import Event, from_recorded, game_stream, to_new_event
from shared.store import EventStore, GameRow, RecordedEvent, Transaction

from .state import GameState, fold

CAPACITY = 2_000  # games per store and process; the least recently used one is dropped first
MEMO_KEY = "game.states"


@dataclass(frozen=True, slots=True)
class Entry:
    state: GameState  # shared with every reader: never changed (the fold makes new states)
    position: int  # the global position of the stream's version ``state.version``


def _entries(store: EventStore) -> OrderedDict[str, Entry]:
    entries: OrderedDict[str, Entry] = store.memo.setdefault(MEMO_KEY, OrderedDict())
    return entries


async def read_game(reader: EventStore | Transaction, game_id: str) -> GameState | None:
    """The game's state as of this read (None when its stream is empty), from the cache and
    the events the stream gained since. The state is shared: read it, never change it."""
    store = reader if isinstance(reader, EventStore) else reader.store
    entries = _entries(store)
    entry = entries.get(game_id)
    stream = game_stream(game_id)
    records = await reader.read_stream(stream, after_version=entry.state.version - 1) if entry else []
    if entry is not None and records and records[0].position == entry.position \
            and records[0].version == entry.state.version:
        state = fold((from_recorded(record) for record in records[1:]), onto=entry.state) \
            if len(records) > 1 else entry.state
    else:
        records = await reader.read_stream(stream)
        if not records:
            entries.pop(game_id, None)
            return None
        state = fold(from_recorded(record) for record in records)
    if isinstance(reader, EventStore) or not reader.appended:
        _remember(entries, game_id, Entry(state, records[-1].position))
    return state


def _remember(entries: OrderedDict[str, Entry], game_id: str, entry: Entry) -> None:
    current = entries.get(game_id)
    if current is None or current.state.version <= entry.state.version:
        entries[game_id] = entry
        entries.move_to_end(game_id)
    while len(entries) > CAPACITY:
        entries.popitem(last=False)


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
                   summary=state.summary(), updated_at=now or SYSTEM_CLOCK.now())


async def append_events(tx: Transaction, state: GameState, events: Sequence[Event], metadata: dict[str, Any] | None,
                        now: datetime | None = None) -> GameState:
    """Append ``events`` after the version ``state`` was folded from, and write the games row;
    the state after them (a new one: ``state`` is left as it was)."""
    if not events:
        return state
    await tx.append(game_stream(state.game_id), [to_new_event(e, metadata) for e in events],
                    expected_version=state.version)
    state = fold(events, onto=state)
    await tx.put_game(game_row(state, now))
    return state
