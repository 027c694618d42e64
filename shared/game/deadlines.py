"""The game clock's rules, pure: clock lengths, deadlines, and the host's bounded powers.

Every function takes the folded state and the time now and returns the event to append (or
raises the 4xx error to answer). The bounds keep a host who also plays from abusing the clock:

- each clock is from one minute to 30 days, checked at creation;
- extensions of one phase add up to at most one phase length;
- one pause per phase, which resumes by itself after at most ``max_pause_minutes``;
- nothing can be extended or paused once the deadline has passed (the phase is due).
"""
from __future__ import annotations

from datetime import datetime, timedelta
from typing import Literal

from shared.errors import Conflict, ErrorCode, Unprocessable
from shared.events import DeadlineExtended, DeadlineSet, GamePaused, GameResumed, GameSettings
from shared.rules.variants import get_variant

from .guards import require_started
from .state import GameState

MIN_MINUTES = 1
MAX_MINUTES = 30 * 24 * 60
CLOCK_FIELDS = ("movement_minutes", "retreat_minutes", "max_pause_minutes")

Actor = Literal["host", "operator"]
DueAction = Literal["resolve", "resume"]


def check_clock_settings(settings: GameSettings) -> None:
    """422 unless every clock length is from one minute to 30 days."""
    for name in CLOCK_FIELDS:
        minutes = getattr(settings, name)
        if not MIN_MINUTES <= minutes <= MAX_MINUTES:
            raise Unprocessable(f"{name} must be from {MIN_MINUTES} minute to {MAX_MINUTES} minutes (30 days), "
                                f"not {minutes}", code=ErrorCode.CLOCK_OUT_OF_BOUNDS, where=f"body.settings.{name}")


def phase_minutes(state: GameState, phase: str) -> int:
    """The movement clock for movement phases (Ekonia's turns too), the shorter clock for
    retreats and builds."""
    kind = get_variant(state.variant).phase_kind(phase)
    return state.settings.movement_minutes if kind == "movement" else state.settings.retreat_minutes


def deadline_for(state: GameState, phase: str, now: datetime) -> DeadlineSet:
    """The deadline of ``phase`` of the game, starting ``now``."""
    minutes = phase_minutes(state, phase)
    return DeadlineSet(phase=phase, deadline=now + timedelta(minutes=minutes), minutes=minutes)


def opening_deadline(state: GameState, phase: str, now: datetime) -> DeadlineSet:
    """The deadline of a game's first phase: always the movement clock, whatever the phase.
    A game opens with a negotiation period (docs/hosting.md): the players have not spoken yet,
    and a Dirigible game's first phase is its Winter 1900 builds (docs/rules/dirigible.md)."""
    minutes = state.settings.movement_minutes
    return DeadlineSet(phase=phase, deadline=now + timedelta(minutes=minutes), minutes=minutes)


def due_action(state: GameState, now: datetime) -> DueAction | None:
    """What the clock worker must do with this game now, if anything."""
    if state.status != "active":
        return None
    if state.paused_until is not None:
        return "resume" if now >= state.paused_until else None
    if state.deadline is not None and now >= state.deadline:
        return "resolve"
    return None


def _running(state: GameState, now: datetime) -> datetime:
    """The deadline of a game whose clock runs and has not run out (409 otherwise)."""
    require_started(state)
    if state.paused:
        raise Conflict("the game is paused", code=ErrorCode.GAME_PAUSED)
    if state.deadline is None or now >= state.deadline:
        raise Conflict(f"the deadline of {state.phase} has passed", code=ErrorCode.DEADLINE_PASSED)
    return state.deadline


def extend(state: GameState, minutes: int, now: datetime, by: Actor) -> DeadlineExtended:
    deadline = _running(state, now)
    allowed = state.phase_minutes - state.extended_minutes
    if minutes < 1 or minutes > allowed:
        raise Conflict(f"extensions of one phase add up to at most one phase length ({state.phase_minutes} "
                       f"minutes); {allowed} minutes are left in {state.phase}",
                       code=ErrorCode.EXTENSION_TOO_LONG, where="body.minutes")
    return DeadlineExtended(phase=str(state.phase), minutes=minutes,
                            deadline=deadline + timedelta(minutes=minutes), by=by)


def pause(state: GameState, minutes: int | None, now: datetime, by: Actor) -> GamePaused:
    deadline = _running(state, now)
    if state.paused_this_phase:
        raise Conflict(f"the game has already been paused once in {state.phase}",
                       code=ErrorCode.ALREADY_PAUSED_THIS_PHASE)
    limit = state.settings.max_pause_minutes
    length = limit if minutes is None else minutes
    if not 1 <= length <= limit:
        raise Conflict(f"a pause lasts from 1 to {limit} minutes in this game, not {length}",
                       code=ErrorCode.PAUSE_TOO_LONG, where="body.minutes")
    return GamePaused(phase=str(state.phase), until=now + timedelta(minutes=length),
                      remaining_seconds=(deadline - now).total_seconds(), by=by)


def resume(state: GameState, now: datetime, by: Literal["host", "operator", "clock"]) -> GameResumed:
    if state.status != "active" or not state.paused:
        raise Conflict("the game is not paused", code=ErrorCode.NOT_PAUSED)
    return GameResumed(phase=str(state.phase), deadline=now + timedelta(seconds=state.paused_remaining), by=by)
