"""Coming back to a seat with ``IAM (power) (passcode)`` (docs/bots.md, "Coming back: IAM").

DAIDE's passcode is a number from 1 to 8190, so its length cannot be the defence. A rejoin is
keyed by the game: on a game's own port the port names it; on the one port for every game the
seat is the one this address held of that power lately, and there must be exactly one. Each
seat takes ``MAX_WRONG_PASSCODES`` wrong passcodes (a wrong address counts as one), then
refuses every ``IAM`` for ``LOCK_SECONDS``, the right passcode too: a guesser behind the
seat's own address (a NAT) has a handful of tries in a quarter of an hour, not 8190. The lock
is logged and recorded for the host and the seat's owner (``DaideRejoinLocked``), as is every
seat taken by ``IAM`` (``DaideSeatRejoined``). Pure: the caller gives the time and does the I/O.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .grants import Grant

REJOIN_SECONDS = 3600.0  # how long IAM may take a seat back after its HLO
MAX_WRONG_PASSCODES = 5  # wrong IAMs for one seat before it refuses IAM for a while
LOCK_SECONDS = 900.0


@dataclass(frozen=True)
class Held:
    """A seat some connection was told the passcode of (its HLO)."""

    game_id: str
    player_id: str
    power: str
    passcode: int
    address: str
    grant: Grant
    port: int | None  # the game's own port, or None: the one port for every game
    until: float


@dataclass
class _Tries:
    wrong: int = 0
    locked_until: float = 0.0


@dataclass(frozen=True)
class Attempt:
    """What an IAM came to: the seat to take (``held``), or why not (``why``); ``locked``: this
    attempt locked the seat (record it); ``seat``: the seat the attempt was counted against."""

    held: Held | None = None
    why: str = ""
    locked: bool = False
    seat: Held | None = None
    wrong: int = 0
    locked_until: float = 0.0


@dataclass
class RejoinBook:
    held: dict[tuple[str, str], Held] = field(default_factory=dict)  # (game, power) -> its seat
    tries: dict[tuple[str, str], _Tries] = field(default_factory=dict)

    def remember(self, held: Held, now: float) -> None:
        """Keep ``held`` (the seat's latest HLO); seats past their hour and spent counts go."""
        for key in [k for k, h in self.held.items() if h.until <= now]:
            del self.held[key]
        for key in [k for k, t in self.tries.items() if k not in self.held and t.locked_until <= now]:
            del self.tries[key]
        self.held[(held.game_id, held.power)] = held

    def forget_game(self, game_id: str) -> None:
        for key in [k for k in self.held if k[0] == game_id]:
            del self.held[key]
            self.tries.pop(key, None)

    def _seat_for(self, game_id: str | None, port: int | None, power: str, address: str,
                  now: float) -> Held | str:
        if game_id is not None:
            found = self.held.get((game_id, power))
            if found is None or found.until <= now or found.port != port:
                return "no seat of this power was played in this game lately"
            return found
        mine = [h for h in self.held.values()
                if h.power == power and h.address == address and h.port is None and h.until > now]
        if not mine:
            return "no seat of this power was played from this address lately"
        if len(mine) > 1:
            return "this address played this power in several games: come back with NME and the seat's credential"
        return mine[0]

    def attempt(self, *, game_id: str | None, port: int | None, power: str, passcode: int, address: str,
                now: float) -> Attempt:
        """An ``IAM (power) (passcode)`` from ``address`` on ``port`` (``game_id``: the port's
        game, None on the one port for every game)."""
        seat = self._seat_for(game_id, port, power, address, now)
        if isinstance(seat, str):
            return Attempt(why=seat)
        key = (seat.game_id, seat.power)
        tries = self.tries.setdefault(key, _Tries())
        if tries.locked_until > now:
            return Attempt(why="this seat refuses IAM for a while after too many wrong passcodes", seat=seat,
                           wrong=tries.wrong, locked_until=tries.locked_until)
        if seat.passcode == passcode and seat.address == address:
            del self.tries[key]
            return Attempt(held=seat, seat=seat)
        tries.wrong += 1
        if tries.wrong >= MAX_WRONG_PASSCODES:
            tries.locked_until = now + LOCK_SECONDS
            wrong, tries.wrong = tries.wrong, 0
            return Attempt(why="wrong passcode: this seat now refuses IAM for a while", locked=True, seat=seat,
                           wrong=wrong, locked_until=tries.locked_until)
        return Attempt(why="wrong passcode (or not from the seat's address)", seat=seat, wrong=tries.wrong)
