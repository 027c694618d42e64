"""Draws, pure: surviving seats vote; the draw passes when every one of them votes for it.

- A seat (a player and all the powers they play) has one vote; sitting-out powers have none.
- A seat whose powers have no unit and no centre left is eliminated: it cannot vote, and a
  vote it cast earlier no longer counts.
- A vote stands until withdrawn (across phases); once the draw passes the game is over.
"""
from __future__ import annotations

from shared.errors import Conflict, ErrorCode
from shared.events import DrawVoted, Event, GameFinished

from .guards import require_seat_powers, require_started
from .state import GameState, Seat


def surviving_seats(state: GameState) -> list[Seat]:
    alive = state.surviving_powers()
    return [seat for seat in state.seats if alive & set(seat.powers)]


def draw_passes(state: GameState, votes: dict[str, bool] | None = None) -> bool:
    """Every surviving player's seat voted for the draw; a house bot's seat never stands in the
    way of one the players agree on (docs/bots.md), and its powers are drawn like any."""
    seats = [seat for seat in surviving_seats(state) if not seat.house_bot]
    votes = state.draw_votes if votes is None else votes
    return bool(seats) and all(votes.get(seat.player_id) for seat in seats)


def vote(state: GameState, player_id: str, in_favour: bool) -> list[Event]:
    """The events of a seat's vote: DrawVoted, and GameFinished when the draw passes."""
    require_started(state)
    require_seat_powers(state, player_id)
    seat = state.seat(player_id)
    assert seat is not None
    if seat not in surviving_seats(state):
        raise Conflict("an eliminated power does not vote", code=ErrorCode.POWER_ELIMINATED)
    cast = DrawVoted(player_id=player_id, powers=list(seat.powers), vote=in_favour, phase=str(state.phase))
    if not draw_passes(state, {**state.draw_votes, player_id: in_favour}):
        return [cast]
    drawn = sorted(state.surviving_powers() & set(state.played_powers()))
    return [cast, GameFinished(reason="draw", winners=[], drawn=drawn, phase=str(state.phase))]
