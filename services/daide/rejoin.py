"""Coming back to a seat with ``IAM (power) (passcode)`` (docs/bots.md, "Coming back: IAM").

DAIDE's passcode is a number from 1 to 8190, so its length cannot be the defence. A rejoin is
keyed by the game: on a game's own port the port names it; on the one port for every game the
seat is the one this address held of that power lately, and there must be exactly one. Each
seat takes ``MAX_WRONG_PASSCODES`` wrong passcodes (a wrong address counts as one), then
refuses every ``IAM`` for ``LOCK_SECONDS``, the right passcode too: a guesser behind the
seat's own address (a NAT) has a handful of tries in a quarter of an hour, not 8190. The lock
is logged and recorded for the host and the seat's owner (``DaideRejoinLocked``), as is every
seat taken by ``IAM`` (``DaideSeatRejoined``).

The seats are kept in the store (``store.rejoins``, shared/store/rejoins.py), so that any
``entente daide`` process of the database takes a seat back and every process's wrong
passcodes count against one lock (docs/decisions/0024-iam-across-processes.md); the passcode
is kept as a salted hash, the address as a hash. The caller gives the time (seconds since the
epoch: every process's clock) and does the logging and the recording.
"""
from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass

from shared.store import EventStore
from shared.store.rejoins import RejoinRow

from .grants import Grant

REJOIN_SECONDS = 3600.0  # how long IAM may take a seat back after its HLO
MAX_WRONG_PASSCODES = 5  # wrong IAMs for one seat before it refuses IAM for a while
LOCK_SECONDS = 900.0


@dataclass(frozen=True)
class Held:
    """A seat some connection was told the passcode of (its HLO); the passcode itself is not
    kept, only its salted hash in the store."""

    game_id: str
    player_id: str
    power: str
    grant: Grant
    port: int | None  # the game's own port, or None: the one port for every game


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


def passcode_hash(passcode: int, salt: str | None = None) -> str:
    """``salt$hash`` of a passcode (a fresh random salt unless one is given)."""
    salt = secrets.token_hex(16) if salt is None else salt
    return f"{salt}${hashlib.sha256(f'{salt}:{passcode}'.encode()).hexdigest()}"


def passcode_matches(passcode: int, stored: str) -> bool:
    salt, _, _ = stored.partition("$")
    return hmac.compare_digest(passcode_hash(passcode, salt), stored)


def address_key(address: str) -> str:
    """The address as the store keeps it: a hash, compared, never shown."""
    return hashlib.sha256(f"daide-address:{address}".encode()).hexdigest()


def _held(row: RejoinRow) -> Held:
    return Held(row.game_id, row.player_id, row.power,
                Grant(row.player_id, row.token_hash, row.bot_token_id, row.grant_version), row.port)


async def remember(store: EventStore, held: Held, passcode: int, address: str, now: float) -> None:
    """Keep ``held`` (the seat's latest HLO, told ``passcode`` from ``address``) for an hour."""
    await store.rejoins.remember(RejoinRow(held.game_id, held.power, held.player_id, passcode_hash(passcode),
                                           address_key(address), held.grant.token_hash, held.grant.bot_token_id,
                                           held.grant.version, held.port, now + REJOIN_SECONDS), now)


async def _seat_for(store: EventStore, game_id: str | None, port: int | None, power: str, address: str,
                    now: float) -> RejoinRow | str:
    if game_id is not None:
        found = await store.rejoins.of_game(game_id, power)
        if found is None or found.until <= now or found.port != port:
            return "no seat of this power was played in this game lately"
        return found
    mine = await store.rejoins.of_address(address_key(address), power, now)
    if not mine:
        return "no seat of this power was played from this address lately"
    if len(mine) > 1:
        return "this address played this power in several games: come back with NME and the seat's credential"
    return mine[0]


async def attempt(store: EventStore, *, game_id: str | None, port: int | None, power: str, passcode: int,
                  address: str, now: float) -> Attempt:
    """An ``IAM (power) (passcode)`` from ``address`` on ``port`` (``game_id``: the port's
    game, None on the one port for every game)."""
    row = await _seat_for(store, game_id, port, power, address, now)
    if isinstance(row, str):
        return Attempt(why=row)
    seat = _held(row)
    locked = Attempt(why="this seat refuses IAM for a while after too many wrong passcodes", seat=seat,
                     wrong=row.wrong, locked_until=row.locked_until)
    if row.locked_until > now:
        return locked
    if passcode_matches(passcode, row.passcode_hash) and hmac.compare_digest(row.address_key, address_key(address)):
        return Attempt(held=seat, seat=seat) if await store.rejoins.right(row.game_id, row.power, now) else locked
    counted = await store.rejoins.wrong(row.game_id, row.power, now, MAX_WRONG_PASSCODES, LOCK_SECONDS)
    if counted is None:  # another process's wrong passcode locked it meanwhile
        return locked
    if counted.locked_until > now:
        return Attempt(why="wrong passcode: this seat now refuses IAM for a while", locked=True, seat=seat,
                       wrong=MAX_WRONG_PASSCODES, locked_until=counted.locked_until)
    return Attempt(why="wrong passcode (or not from the seat's address)", seat=seat, wrong=counted.wrong)
