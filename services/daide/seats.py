"""The DAIDE hub's seat keeping (docs/bots.md, "Coming back: IAM" and "Revocation"): ``IAM``
through the seats kept in the store for it (services/daide/rejoin.py), its locks and takeovers logged and recorded
in ``daide-{game_id}`` for the host and the seat's owner, the credential re-checked; and the
connections whose credential was revoked, found on every beat of the game's watcher.
"""
from __future__ import annotations

import logging
import time
from collections.abc import Iterable
from datetime import timedelta
from typing import Protocol, TypeVar

from shared.auth import hash_token, same_hash
from shared.credentials import bot_for_token, bot_game_id, load_bots
from shared.errors import DomainError
from shared.events import to_new_event
from shared.events_daide import DaideRejoinLocked, DaideSeatRejoined, DaideSeatTaken, daide_stream
from shared.game.repository import read_game
from shared.game.state import GameState
from shared.store import EventStore

from .desk import Desk
from .grants import BotTokens, Grant, grant_holds
from .rejoin import Attempt, Held, attempt

log = logging.getLogger("entente.daide")


class Hub(Protocol):
    """What this module reads of services/daide/watch.py's ``Hub`` (which imports this module)."""

    @property
    def store(self) -> EventStore: ...
    @property
    def desk(self) -> Desk: ...
    @property
    def bot_tokens(self) -> BotTokens: ...
    def holder(self, game_id: str, player_id: str) -> object | None: ...
    async def held_elsewhere(self, game_id: str, player_id: str) -> bool: ...


class Seated(Protocol):
    @property
    def game_id(self) -> str | None: ...
    @property
    def player_id(self) -> str | None: ...
    @property
    def power(self) -> str | None: ...
    @property
    def grant(self) -> Grant | None: ...
    @property
    def address(self) -> str: ...
    def admin(self, text: str) -> None: ...
    def close(self) -> None: ...


S = TypeVar("S", bound=Seated)


async def take_back(hub: Hub, power: str, passcode: int, address: str, port: int | None,
                    port_game: str | None) -> tuple[GameState, Held] | str:
    """The game and seat an ``IAM`` takes back, or why not (every refusal is logged)."""
    tried = await attempt(hub.store, game_id=port_game, port=port, power=power, passcode=passcode,
                          address=address, now=time.time())
    where = {"address": address, "power": power, "port": port, "game_id": tried.seat.game_id if tried.seat
             else port_game}
    if tried.held is None:
        log.warning("daide IAM refused: %s", tried.why, extra=where)
        if tried.locked:
            await _record_lock(hub, tried)
        return tried.why
    held = tried.held
    state = await read_game(hub.store, held.game_id)
    if state is None or state.status == "finished":
        return "that game is over"
    if not await grant_holds(hub.store, hub.bot_tokens, state, held.grant):
        log.warning("daide IAM refused: the seat's credential was revoked", extra=where)
        await hub.store.rejoins.forget(held.game_id, held.power)
        return "the credential this seat was played with has been revoked"
    took_over = (hub.holder(held.game_id, held.player_id) is not None
                 or await hub.held_elsewhere(held.game_id, held.player_id))
    log.warning("daide seat taken back by IAM", extra={**where, "took_over": took_over})
    await _append(hub, held.game_id, DaideSeatRejoined(player_id=held.player_id, power=held.power,
                                                       took_over=took_over))
    return state, held


async def seat_of(hub: Hub, credential: str) -> tuple[GameState, Grant] | None:
    """The game and seat a credential opens on the one port: a bot token, or a game id and seat token."""
    if (game_id := bot_game_id(credential)) is not None:
        state = await read_game(hub.store, game_id)
        bot = bot_for_token(await load_bots(hub.store, game_id), credential) if state else None
        return ((state, Grant(bot.player_id, bot_token_id=bot.token_id, version=state.version))
                if state is not None and bot is not None else None)
    game_id, _, token = credential.partition("/")
    if not game_id.startswith("g_") or not token or len(game_id) > 40:
        return None
    state = await read_game(hub.store, game_id)
    if state is None:
        return None
    presented = hash_token(token)
    player = next((pid for pid, known in state.player_hashes().items() if same_hash(presented, known)), None)
    return (state, Grant(player, token_hash=presented, version=state.version)) if player is not None else None


async def seat_by_name(hub: Hub, game_id: str, address: str) -> tuple[GameState, Grant] | str:
    """The next free seat of a game open to DAIDE bots, taken as a player joining over HTTP
    takes one (``PlayerJoined`` with ``daide: true``), or why not (the game is full, started...)."""
    state = await read_game(hub.store, game_id)
    if state is None or not state.settings.daide_open or hub.desk.join_seat is None:
        return "this game is not open to DAIDE bots"
    if state.status == "finished":
        return "this game is finished"
    if state.status != "forming":
        return "this game has started: a seat of it comes back with IAM (power) (passcode)"
    try:
        joined = await hub.desk.join_seat(hub.store, game_id, metadata={"actor": "player", "via": "daide"},
                                          now=hub.desk.now(), daide=True)
    except DomainError as error:
        return error.message
    log.info("daide seat taken by name", extra={"game_id": game_id, "address": address})
    state = await read_game(hub.store, game_id)
    assert state is not None
    return state, Grant(joined.player_id, token_hash=hash_token(joined.token), version=state.version)


async def _record_lock(hub: Hub, tried: Attempt) -> None:
    seat = tried.seat
    assert seat is not None
    until = hub.desk.now() + timedelta(seconds=max(0.0, tried.locked_until - time.time()))
    await _append(hub, seat.game_id, DaideRejoinLocked(player_id=seat.player_id, power=seat.power,
                                                       wrong=tried.wrong, until=until))


async def _append(hub: Hub, game_id: str, event: DaideRejoinLocked | DaideSeatRejoined | DaideSeatTaken) -> int:
    """The position of ``event`` appended to the game's DAIDE stream (0: it could not be)."""
    try:
        async with hub.store.transaction() as tx:
            recorded = await tx.events.append(daide_stream(game_id), [to_new_event(event, {"actor": "daide"})],
                                              expected_version=None)
        return recorded[-1].position
    except Exception:
        log.exception("recording %s of game %s failed", event.type, game_id)
        return 0


async def record_taken(hub: Hub, game_id: str, player_id: str, connection: str) -> int:
    """Record that ``connection`` holds the seat now (its position: the seat's holders on other
    processes taken before it are sent OFF when their tailer reads it)."""
    return await _append(hub, game_id, DaideSeatTaken(player_id=player_id, connection=connection))


async def revoked(hub: Hub, state: GameState, sessions: Iterable[S]) -> list[S]:
    """The seats among ``sessions`` whose credential no longer holds (a revoked bot token, a
    removed seat): each is told why (the caller sends OFF and closes it)."""
    gone = []
    for session in list(sessions):
        if session.grant is None or session.player_id is None or state.version < session.grant.version:
            continue
        if not await grant_holds(hub.store, hub.bot_tokens, state, session.grant):
            log.warning("daide seat closed: its credential was revoked",
                        extra={"game_id": state.game_id, "address": session.address})
            session.admin("the credential of this seat was revoked (or the seat removed): goodbye")
            gone.append(session)
    return gone
