"""A game's resolved phases by number, for the readers that look back further than the
recent history the repository's states carry: past views (``view?phase=``), older history
pages (``view?history_before=``) and past pictures (``map.*?phase=``).

A state knows every phase it resolved and the version of that phase's ``PhaseResolved``
event (``GameState.resolved_index``), so a page of phases is read as a page of the game
stream (``read_stream(after_version, up_to_version)``): its cost is the page's, never the
whole log's, however old the game (docs/performance.md). The events read are kept in a
per-process cache (``Caches.past_phases``, shared/game/cached.py, emptied by ``truncate``), keyed by game and version:
a resolved phase never changes. The cache is bounded in estimated bytes by the same bound as
the repository's caches of states (ENTENTE_STATE_CACHE_MIB), each event weighed by its
JSON size times the measured ratio of memory to JSON (docs/performance.md, 2026-12-01, "Growth:
memory, views, replay").
Decoding what was read runs in a worker thread, away from the event loop.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import anyio
import orjson

from shared.events import PhaseResolved, from_recorded, game_stream
from shared.store import EventStore, RecordedEvent, Transaction

from .cached import caches_of
from .repository import MEMORY_PER_JSON_BYTE
from .state import GameState


def phase_number(state: GameState, phase: str) -> int | None:
    """The number (from 0, in play order) of the resolved phase named ``phase`` (any case), or
    None when the game has not resolved it."""
    wanted = phase.strip().upper()
    for number, (name, _) in enumerate(state.resolved_index):
        if name.upper() == wanted:
            return number
    return None


def _decoded(records: Sequence[RecordedEvent], wanted: dict[int, str]) -> list[tuple[int, PhaseResolved, int]]:
    """The ``PhaseResolved`` events among ``records`` at the versions wanted (version: phase
    name), with their weights; ValueError if one is not there (the log is not the one the
    state was folded from)."""
    found = []
    for record in records:
        if record.version in wanted:
            event = from_recorded(record)
            if not isinstance(event, PhaseResolved) or event.phase != wanted[record.version]:
                raise ValueError(f"version {record.version} of {record.stream_id} is not the phase "
                                 f"{wanted[record.version]} resolved")
            found.append((record.version, event, MEMORY_PER_JSON_BYTE * len(orjson.dumps(record.data))))
    if len(found) != len(wanted):
        raise ValueError("the game stream lacks phases its state says it resolved")
    return found


async def resolved_phases(reader: EventStore | Transaction, state: GameState, start: int,
                          end: int) -> list[PhaseResolved]:
    """The game's resolved phases ``start`` to ``end`` (numbers from 0, ``end`` excluded,
    both clamped to what ``state`` resolved), from the cache and one read of the stream
    between the first and the last version missing from it."""
    index = state.resolved_index[max(0, start):max(0, end)]
    cache = caches_of(reader).past_phases
    kept = {version: cache.get((state.game_id, version)) for _, version in index}
    missing = {version: name for name, version in index if kept[version] is None}
    if missing:
        records = await reader.events.read_stream(game_stream(state.game_id), after_version=min(missing) - 1,
                                                  up_to_version=max(missing))
        for version, event, weight in await anyio.to_thread.run_sync(_decoded, records, missing):
            kept[version] = event
            cache.put((state.game_id, version), event, weight)
    return [found for _, version in index if (found := kept[version]) is not None]


async def with_phases(reader: EventStore | Transaction, state: GameState, start: int, end: int) -> GameState:
    """A copy of ``state`` whose ``resolved`` holds exactly its phases ``start`` to ``end``
    (``earlier_resolved`` = ``start``): what a view's history page ending at ``end`` and the
    game as it stood at phase ``end - 1`` need. Its ``resolved_count`` is then ``end``: give
    it only to readers of phases before ``end``."""
    start, end = max(0, start), min(max(0, end), len(state.resolved_index))
    start = min(start, end)
    held = state.earlier_resolved
    if held <= start and end <= state.resolved_count:  # the state holds them already
        phases = state.resolved[start - held:end - held]
    else:
        phases = await resolved_phases(reader, state, start, end)
    return replace(state, resolved=list(phases), earlier_resolved=start)
