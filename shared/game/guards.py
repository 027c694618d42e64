"""The guards of who may act in a game now, one of each: every service asks these, so that the
same situation always gets the same answer (status code, error code, message).

Each takes the folded state and returns what the caller needs (the position document, the
acting power) or raises the domain error to answer.
"""
from __future__ import annotations

from datetime import datetime

from shared.errors import Conflict, ErrorCode, Forbidden, TooManyRequests, Unprocessable

from .state import GameState
from .submissions import PowerSubmission

# order writes (whole sets, changes, ready flags) one power may make in one phase: a player
# clicking every unit several times stays far below; a loop cannot fill the log (docs/api.md)
MAX_ORDER_WRITES_PER_PHASE = 300


def require_started(state: GameState) -> None:
    """409 unless the game is being played: ``game_not_started`` or ``game_finished``."""
    if state.status == "forming":
        raise Conflict(f"game {state.game_id} has not started", code=ErrorCode.GAME_NOT_STARTED)
    if state.status == "finished":
        raise Conflict(f"game {state.game_id} is finished", code=ErrorCode.GAME_FINISHED)


def require_forming(state: GameState) -> None:
    """409 unless the game still takes players: ``game_started`` or, for a game the operator
    finished before it started (or one played out), ``game_finished``."""
    if state.status == "finished":
        raise Conflict(f"game {state.game_id} is finished", code=ErrorCode.GAME_FINISHED)
    if state.status != "forming":
        raise Conflict(f"game {state.game_id} has already started", code=ErrorCode.GAME_STARTED)


def require_playing(state: GameState) -> dict[str, object]:
    """The current state document of a game that is being played (409 otherwise)."""
    require_started(state)
    if state.position is None:
        raise Conflict(f"game {state.game_id} is finished", code=ErrorCode.GAME_FINISHED)
    return state.position


def require_seat_powers(state: GameState, player_id: str | None) -> list[str]:
    """The powers the player's seat plays (403 ``no_power`` for none)."""
    powers = state.powers_of(player_id)
    if not powers:
        raise Forbidden("this player has no power in this game", code=ErrorCode.NO_POWER)
    return powers


def require_own_power(state: GameState, player_id: str | None, wanted: str, where: str) -> str:
    """``wanted`` (any case) when the player's seat plays it; 403 ``not_your_power`` otherwise."""
    powers = require_seat_powers(state, player_id)
    power = wanted.strip().upper()
    if power not in powers:
        raise Forbidden(f"{power} is not one of this player's powers ({', '.join(powers)})",
                        code=ErrorCode.NOT_YOUR_POWER, where=where)
    return power


def choose_power(state: GameState, player_id: str, wanted: str | None) -> str:
    """The power a player acts for: ``wanted`` (one of their seat's), or the only one that
    must act now. 403 for a power of another seat; 422 when the seat must say which."""
    powers = require_seat_powers(state, player_id)
    if wanted is not None:
        return require_own_power(state, player_id, wanted, "power")
    acting = [p for p in powers if p in state.must_act]
    if len(powers) == 1 or not acting:
        return powers[0]
    if len(acting) > 1:
        raise Unprocessable(f"this seat plays {', '.join(acting)} in {state.phase}: say which with 'power'",
                            code=ErrorCode.POWER_REQUIRED, where="power")
    return acting[0]


def require_must_act(state: GameState, power: str) -> None:
    """409 ``nothing_to_order`` for a power that has nothing to do in this phase."""
    if power not in state.must_act:
        raise Conflict(f"{power} has nothing to order in {state.phase}", code=ErrorCode.NOTHING_TO_ORDER,
                       where="phase")


def require_surviving(state: GameState, power: str, doing: str) -> None:
    """409 ``power_eliminated`` for a power that is out of the game."""
    if power not in state.surviving_powers():
        raise Conflict(f"{power} is out of the game and cannot {doing}", code=ErrorCode.POWER_ELIMINATED)


def require_seat_in_game(state: GameState, player_id: str | None, doing: str) -> None:
    """409 ``power_eliminated`` for a seat of a game under way whose every power is out: it has
    nothing left to delegate or be told of (docs/social.md, "Bot tokens" and "Notifications")."""
    powers = state.powers_of(player_id)
    if state.status == "active" and powers and not set(powers) & state.surviving_powers():
        raise Conflict(f"{', '.join(powers)} {'is' if len(powers) == 1 else 'are'} out of the game: "
                       f"this seat cannot {doing}", code=ErrorCode.POWER_ELIMINATED)


def require_open_phase(state: GameState, now: datetime, phase: str | None) -> None:
    """409 unless orders may be given now: the game is being played, in ``phase`` if one is
    named, and its deadline has not passed."""
    require_playing(state)
    if phase is not None and phase.strip().upper() != state.phase:
        raise Conflict(f"the game is at {state.phase}, not {phase}", code=ErrorCode.WRONG_PHASE, where="body.phase")
    if state.deadline_passed(now):
        raise Conflict(f"the deadline of {state.phase} has passed; these orders were not stored",
                       code=ErrorCode.DEADLINE_PASSED)


def require_room_to_write(state: GameState, power: str, submission: PowerSubmission, now: datetime) -> None:
    """429 ``too_many_order_writes`` once ``power`` has written ``MAX_ORDER_WRITES_PER_PHASE``
    times in this phase: its stored orders stand and count; ``Retry-After`` is the time left
    until the deadline, after which the next phase takes orders again."""
    if submission.writes < MAX_ORDER_WRITES_PER_PHASE:
        return
    left = int((state.deadline - now).total_seconds()) + 1 if state.deadline is not None else 3600
    raise TooManyRequests(f"{power} has written its orders for {state.phase} {submission.writes} times, the most "
                          f"one phase takes ({MAX_ORDER_WRITES_PER_PHASE}); the orders stored stand and count",
                          code=ErrorCode.TOO_MANY_ORDER_WRITES, retry_after=left)
