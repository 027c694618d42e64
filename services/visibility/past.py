"""The game as it stood at a resolved phase, for ``GET /games/{id}/view?phase=`` and the map
pictures of a past phase: the position it was played from and the history before it, as the
viewer's view showed them then, and that phase's resolution as the viewer's history shows it.
Built from the variant's ``view`` and ``history_view`` only, never from the raw state (Tale of
Ekonia's policy decides what each viewer sees of a past turn as of the present one).

What a past phase needs of the log is a ``PastPhase``: that phase's resolution, who had to act
in it, and the page of history shown with it. ``read_past`` reads just those (a page of the
game stream, through shared/game/phases.py's cache), so a past view costs what a current one
costs however long the game (docs/performance.md); ``past_of`` takes them from a state that
holds its phases (tests, replays).
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from shared.errors import ErrorCode, NotFound, Unprocessable
from shared.events import PhaseResolved
from shared.game.cached import Caches
from shared.game.phases import phase_number, resolved_phases
from shared.game.state import GameState
from shared.rules.variants import get_variant
from shared.store import EventStore, Transaction

from .view import HISTORY_PAGE, GameViewJSON, Viewer, history_entry, view_of


@dataclass(frozen=True, slots=True)
class PastPhase:
    number: int  # of the phase, from 0 in play order
    resolution: PhaseResolved
    must_act: tuple[str, ...]  # who had to act in it
    history_start: int  # the number of ``history[0]``
    history: tuple[PhaseResolved, ...]  # the history page shown with it (phases before ``history_end``)

    @property
    def history_end(self) -> int:
        return self.history_start + len(self.history)


def checked_phase(state: GameState, phase: str | None, where: str = "query.phase") -> int | None:
    """The number of the resolved phase asked for; None for the current phase. A name the
    variant does not use is a 422; a phase this game has not played, 404."""
    if phase is None:
        return None
    wanted = phase.strip().upper()
    try:
        get_variant(state.variant).phase_order(wanted)
    except (ValueError, KeyError):
        raise Unprocessable(f"{phase!r} is not a phase name of this variant", code=ErrorCode.INVALID_PHASE,
                            where=where) from None
    if wanted == (state.phase or "").upper():
        return None
    number = phase_number(state, wanted)
    if number is None:
        raise NotFound(f"this game has not played the phase {wanted}", code=ErrorCode.PHASE_NOT_FOUND, where=where)
    return number


def _history_range(number: int, history_end: int | None) -> tuple[int, int]:
    end = number if history_end is None else max(0, min(history_end, number))
    return max(0, end - HISTORY_PAGE), end


def _opening_must_act(state: GameState) -> tuple[str, ...]:
    """Who had to act in the first phase: the opening's answer, from the game's stored seed."""
    opening = get_variant(state.variant).opening(state.settings.for_rules(), state.seed or 0)
    return tuple(opening.must_act)


async def read_past(reader: EventStore | Transaction, state: GameState, number: int,
                    history_end: int | None = None, *, history: bool = True) -> PastPhase:
    """Phase ``number`` of the game, with the history page before ``history_end`` (None: the
    page just before it; no page with ``history`` False, for a picture), read by version: at
    most two short pages of the game stream."""
    start, end = _history_range(number, history_end) if history else (number, number)
    around = await resolved_phases(reader, state, max(0, number - 1), number + 1)
    page = await resolved_phases(reader, state, start, end) if end > start else []  # mostly cached by now
    must_act = tuple(around[0].must_act) if number else _opening_must_act(state)
    return PastPhase(number, around[-1], must_act, start, tuple(page))


async def read_past_lagging(replica: EventStore, primary: EventStore, state: GameState, number: int,
                            history_end: int | None = None, *, history: bool = True) -> PastPhase:
    """``read_past`` from the read replica (ENTENTE_READ_DATABASE_URL; docs/scale.md, "Read
    replicas") when it holds every phase asked for, else from the primary: ``state`` is the
    primary's, and a replica that lags behind it may not have the phases resolved last."""
    if replica is not primary:
        start, end = _history_range(number, history_end) if history else (number, number)
        try:
            past = await read_past(replica, state, number, history_end, history=history)
        except (IndexError, ValueError):  # the replica's stream lacks phases the primary's state resolved
            past = None
        if (past is not None and past.resolution.phase == state.resolved_index[number][0]
                and len(past.history) == len(state.resolved_index[start:end])):
            return past
    return await read_past(primary, state, number, history_end, history=history)


def past_of(state: GameState, number: int, history_end: int | None = None) -> PastPhase:
    """The same from a state that holds the phases needed (a full state)."""
    start, end = _history_range(number, history_end)
    held = state.earlier_resolved
    must_act = tuple(state.resolved[number - 1 - held].must_act) if number else _opening_must_act(state)
    return PastPhase(number, state.resolved[number - held], must_act, start,
                     tuple(state.resolved[start - held:end - held]))


def state_at(state: GameState, past: PastPhase) -> GameState:
    """The game as it stood when ``past`` was being played, holding its history page only
    (its ``resolved_count`` is the page's end: read no phase after it)."""
    return replace(state, phase=past.resolution.phase, position=past.resolution.position_before, status="active",
                   resolved=list(past.history), earlier_resolved=past.history_start,
                   resolved_index=state.resolved_index[:past.number], winners=[], must_act=list(past.must_act))


def past_view(state: GameState, past: PastPhase, viewer: Viewer, *, caches: Caches | None = None) -> GameViewJSON:
    """The viewer's view of the game at a resolved phase, with ``resolution``: that phase's
    orders and results as the viewer's history shows them. Who had submitted is who acted (the
    powers that had to act and were not in civil disorder); ready flags and who was still ordering are
    not kept past their phase (null), and nobody is waited for; the clock then is not kept either (null)."""
    then = state_at(state, past)
    seen = view_of(then, {}, viewer, past.history_end, caches=caches)
    power = viewer.power if viewer.kind == "power" else None
    disorder = set(past.resolution.civil_disorder)
    return {**seen, "submitted": [p for p in then.must_act if p not in disorder], "ready": None,
            "ordering": None, "waiting_for": [], "clock": None,
            "civil_disorder": sorted(disorder), "result": None,
            "resolution": history_entry(get_variant(state.variant), past.resolution, power)}
