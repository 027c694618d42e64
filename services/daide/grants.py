"""What opened a DAIDE seat, and whether it still does (docs/bots.md, "Revocation").

A connection keeps the credential it joined with: the seat's own token, a bot token (by its
id), or the token of a seat taken by name on a game's port. The hub re-checks every seat's
credential about twice a second, and ``IAM`` re-checks it before giving a seat back: a revoked
bot token, a removed seat (its token plays nothing any more) end the connection at once.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from shared.credentials import BotToken, load_bots
from shared.events_social import bots_stream
from shared.game.state import GameState
from shared.store import EventStore


@dataclass(frozen=True)
class Grant:
    player_id: str
    token_hash: str = ""  # the seat's token (its own, or one taken by name on a game port)
    bot_token_id: str = ""  # or a bot token of the seat
    # the game's version the seat was found in: an older read of the game (a watcher's look
    # begun before the join) cannot tell whether the seat is gone
    version: int = 0


def seat_grant_holds(state: GameState, grant: Grant) -> bool:
    """The seat is still in the game and, for a seat token, still has that token."""
    seat = state.seat(grant.player_id)
    if seat is None:
        return False
    return grant.bot_token_id != "" or (grant.token_hash != "" and seat.token_hash == grant.token_hash)


@dataclass
class BotTokens:
    """A game's live bot tokens, read again only when its bots stream has grown."""

    version: dict[str, int] = field(default_factory=dict)
    live: dict[str, dict[str, BotToken]] = field(default_factory=dict)

    async def of(self, store: EventStore, game_id: str) -> dict[str, BotToken]:
        version = await store.events.stream_version(bots_stream(game_id))
        if self.version.get(game_id) != version:
            self.live[game_id] = await load_bots(store, game_id)
            self.version[game_id] = version
        return self.live[game_id]

    def forget(self, game_id: str) -> None:
        self.version.pop(game_id, None)
        self.live.pop(game_id, None)


async def grant_holds(store: EventStore, bots: BotTokens, state: GameState, grant: Grant) -> bool:
    if not seat_grant_holds(state, grant):
        return False
    if grant.bot_token_id:
        token = (await bots.of(store, state.game_id)).get(grant.bot_token_id)
        return token is not None and token.player_id == grant.player_id
    return True
