"""Draws and concessions, pure: surviving seats vote; the draw passes when every one of them
votes for it, and for the same powers (docs/hosting.md, "Victory and draws").

- A seat (a player and all the powers they play) has one vote; sitting-out powers have none.
- A seat whose powers have no unit and no centre left is eliminated: it cannot vote, and a
  vote it cast earlier no longer counts.
- A vote stands until withdrawn (across phases); once the draw passes the game is over.
- With ``partial_draws``, a vote may name the powers of the draw (some surviving powers, as
  webDiplomacy's and DAIDE's ``DRW (powers)``); a vote that names none is for the draw of
  every surviving power. It passes when every surviving seat votes for the same powers.
- With ``concessions``, a seat may concede to one surviving power instead; when every other
  surviving seat concedes to that power, the game ends as its victory.
"""
from __future__ import annotations

from collections.abc import Sequence

from shared.errors import Conflict, ErrorCode, Forbidden, Unprocessable
from shared.events import ConcessionVoted, DrawVoted, Event, GameFinished

from .guards import require_seat_powers, require_started
from .state import GameState, OwnBallotJSON, Seat


def surviving_seats(state: GameState) -> list[Seat]:
    alive = state.surviving_powers()
    return [seat for seat in state.seats if alive & set(seat.powers)]


def voters(state: GameState) -> list[Seat]:
    """The seats whose agreement ends the game: the surviving players' seats; a house bot's
    seat never stands in the way of one the players agree on (docs/bots.md), and its powers are
    drawn like any."""
    return [seat for seat in surviving_seats(state) if not seat.house_bot]


def whole_draw(state: GameState) -> tuple[str, ...]:
    """The powers of a draw that names none: every surviving power some seat plays."""
    return tuple(sorted(state.surviving_powers() & set(state.played_powers())))


def agreed_draw(state: GameState, votes: dict[str, bool] | None = None,
                sets: dict[str, tuple[str, ...]] | None = None) -> tuple[str, ...] | None:
    """The powers every surviving player's seat voted to draw, all surviving (None: no draw)."""
    seats = voters(state)
    votes = state.draw_votes if votes is None else votes
    sets = state.draw_sets if sets is None else sets
    if not seats or not all(votes.get(seat.player_id) for seat in seats):
        return None
    wanted = {sets.get(seat.player_id) or whole_draw(state) for seat in seats}
    if len(wanted) != 1:
        return None
    drawn = wanted.pop()
    return drawn if set(drawn) <= state.surviving_powers() else None


def own_ballot(state: GameState, player_id: str | None) -> OwnBallotJSON:
    """A seat's own vote (null: none cast), and the partial draw it votes for and the power it
    concedes to, each only where it has one."""
    vote, drawn, concession = state.ballot(player_id)
    own: OwnBallotJSON = {"your_vote": vote}
    if drawn is not None:
        own["your_powers"] = list(drawn)
    if concession is not None:
        own["your_concession"] = concession
    return own


def draw_passes(state: GameState, votes: dict[str, bool] | None = None) -> bool:
    """Every surviving player's seat voted for the same draw."""
    return agreed_draw(state, votes) is not None


def _voter(state: GameState, player_id: str) -> Seat:
    """The seat of a player who may vote now (409 power_eliminated for one who is out)."""
    require_started(state)
    require_seat_powers(state, player_id)
    seat = state.seat(player_id)
    assert seat is not None
    if seat not in surviving_seats(state):
        raise Conflict("an eliminated power does not vote", code=ErrorCode.POWER_ELIMINATED)
    return seat


def surviving_named(state: GameState, powers: Sequence[str], where: str) -> list[str]:
    """The powers named, upper case, each a power of the game still in it (422 otherwise)."""
    named = sorted({p.upper() for p in powers})
    unknown = [p for p in named if p not in state.codenames_by_power()]
    if unknown:
        raise Unprocessable(f"not a power of this game: {', '.join(unknown)}", code=ErrorCode.UNKNOWN_POWER,
                            where=where)
    out = [p for p in named if p not in state.surviving_powers()]
    if out:
        raise Unprocessable(f"no longer in the game (no unit, no centre): {', '.join(out)}",
                            code=ErrorCode.NOT_SURVIVING, where=where)
    return named


def proposed(state: GameState, powers: Sequence[str] | None) -> list[str] | None:
    """A partial draw's powers, checked: the game allows them, two at least, all surviving."""
    if powers is None:
        return None
    if not state.settings.partial_draws:
        raise Forbidden("this game draws every surviving power: vote without \"powers\"",
                        code=ErrorCode.PARTIAL_DRAWS_DISABLED, where="body.powers")
    named = surviving_named(state, powers, "body.powers")
    if len(named) < 2:
        raise Unprocessable("a draw is shared by two powers at least; a single winner is a concession",
                            code=ErrorCode.INVALID_REQUEST, where="body.powers")
    return None if tuple(named) == whole_draw(state) else named


def vote(state: GameState, player_id: str, in_favour: bool, powers: Sequence[str] | None = None) -> list[Event]:
    """The events of a seat's vote (for the draw of ``powers``, None: of every surviving
    power): DrawVoted, and GameFinished when the draw passes."""
    seat = _voter(state, player_id)
    drawn = proposed(state, powers) if in_favour else None
    cast = DrawVoted(player_id=player_id, powers=list(seat.powers), vote=in_favour, phase=str(state.phase),
                     drawn=drawn)
    sets = {pid: s for pid, s in state.draw_sets.items() if pid != player_id}
    if drawn is not None:
        sets[player_id] = tuple(drawn)
    agreed = agreed_draw(state, {**state.draw_votes, player_id: in_favour}, sets)
    if agreed is None:
        return [cast]
    return [cast, GameFinished(reason="draw", winners=[], drawn=list(agreed), phase=str(state.phase))]


def conceded_to(state: GameState, concessions: dict[str, str] | None = None) -> str | None:
    """The power every other surviving player's seat concedes to, if any."""
    concessions = state.concessions if concessions is None else concessions
    for power in sorted(set(concessions.values()) & state.surviving_powers()):
        others = [seat for seat in voters(state) if power not in seat.powers]
        if others and all(concessions.get(seat.player_id) == power for seat in others):
            return power
    return None


def concede(state: GameState, player_id: str, to: str | None) -> list[Event]:
    """The events of a seat's concession to ``to`` (None: withdrawn): ConcessionVoted, and
    GameFinished (the victory of ``to``) when every other surviving seat concedes to it."""
    seat = _voter(state, player_id)
    if not state.settings.concessions:
        raise Forbidden("this game has no concessions", code=ErrorCode.CONCESSIONS_DISABLED, where="body")
    winner = None if to is None else surviving_named(state, [to], "body.to")[0]
    if winner is not None and winner in seat.powers:
        raise Unprocessable("a seat concedes to another player's power", code=ErrorCode.INVALID_REQUEST,
                            where="body.to")
    cast = ConcessionVoted(player_id=player_id, powers=list(seat.powers), to=winner, phase=str(state.phase))
    concessions = {pid: p for pid, p in state.concessions.items() if pid != player_id}
    if winner is not None:
        concessions[player_id] = winner
    won = conceded_to(state, concessions)
    if won is None:
        return [cast]
    return [cast, GameFinished(reason="victory", winners=[won], conceded=True, phase=str(state.phase))]
