"""Draws, pure: surviving seats vote; the draw passes when every one of them votes for it.

- A seat (a player and all the powers they play) has one vote; sitting-out powers have none.
- A seat whose powers have no unit and no centre left is eliminated: it cannot vote, and a
  vote it cast earlier no longer counts.
- A vote stands until withdrawn (across phases); once the draw passes the game is over.
"""
from __future__ import annotations

from shared.errors import Conflict, Forbidden
from shared.events import DrawVoted, Event, GameFinished
from shared.rules.variants import get_variant

from .state import GameState, Seat


def surviving_powers(state: GameState) -> set[str]:
    """Powers still in the game (the variant says: a standard power holds a unit or a centre)."""
    if state.position is None:
        return set()
    return set(get_variant(state.variant).surviving(state.position))


def surviving_seats(state: GameState) -> list[Seat]:
    alive = surviving_powers(state)
    return [seat for seat in state.seats if alive & set(seat.powers)]


def draw_passes(state: GameState, votes: dict[str, bool] | None = None) -> bool:
    seats = surviving_seats(state)
    votes = state.draw_votes if votes is None else votes
    return bool(seats) and all(votes.get(seat.player_id) for seat in seats)


def vote(state: GameState, player_id: str, in_favour: bool) -> list[Event]:
    """The events of a seat's vote: DrawVoted, and GameFinished when the draw passes."""
    if state.status == "forming":
        raise Conflict(f"game {state.game_id} has not started", code="game_not_started")
    if state.status == "finished":
        raise Conflict(f"game {state.game_id} is finished", code="game_finished")
    seat = state.seat(player_id)
    if seat is None or not seat.powers:
        raise Forbidden("this player has no power in this game", code="no_power")
    if seat not in surviving_seats(state):
        raise Conflict("an eliminated power does not vote", code="power_eliminated")
    cast = DrawVoted(player_id=player_id, powers=list(seat.powers), vote=in_favour, phase=str(state.phase))
    if not draw_passes(state, {**state.draw_votes, player_id: in_favour}):
        return [cast]
    drawn = sorted(surviving_powers(state) & set(state.played_powers()))
    return [cast, GameFinished(reason="draw", winners=[], drawn=drawn, phase=str(state.phase))]
