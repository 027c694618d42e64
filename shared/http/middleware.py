"""Account and bot tokens on the game endpoints of every service, without touching them.

A pure ASGI middleware, ahead of the routers:

- A bot token (``b.{game_id}.{secret}``) is looked up first: one that is not live (unknown,
  forged, revoked) is 401 ``invalid_token`` wherever it is presented. A live one is refused
  with 403 ``out_of_scope`` on any path that is not under ``/games/{its game}/``, and on
  ``POST /games/{id}/players`` (a bot never takes a seat); under it, it is resolved to its
  seat and handed to ``shared.auth.identify`` through ``delegate``.
- An account's session token (``s.{account_id}.{secret}``) that is not an open session (never
  issued, logged out) is 401 ``invalid_token``. An open one is resolved to the account's seats,
  so the game endpoints see the seat's player, and the account is put in the request's state:
  ``POST /games/{id}/players`` (the lobby) passes it to ``join_game``, which links the new
  seat to the account in the join's own transaction (409 ``already_seated`` for a second seat).
  An account's API key (``k.{account_id}.{secret}``) is resolved the same way, for a bot
  playing the account's seats; the request's state says it came with a key (``api_key``).

Other tokens pass through untouched and cost no read.
"""
from __future__ import annotations

import re
from typing import Any

from shared import credentials
from shared.auth import Delegation, bearer_token_of, delegate, hash_token
from shared.errors import DomainError, ErrorCode, Forbidden, Unauthorized, Unavailable
from shared.store import EventStore
from shared.store.availability import unreachable

from .asgi import HttpMiddleware, Scope
from .body import send_error

GAME_PATH = re.compile(r"^/games/([^/]+)(/.*)?$")
JOIN_PATH = re.compile(r"^/games/([^/]+)/players/?$")



def _bearer(scope: Scope) -> str | None:
    for name, value in scope.get("headers", []):
        if name == b"authorization":
            try:
                return bearer_token_of(value.decode("latin-1"))
            except Unauthorized:  # the route's own dependency answers it (shared/http/dependencies.py)
                return None
    return None


class SocialAuthMiddleware(HttpMiddleware):
    async def handle(self, scope: Scope, receive: Any, send: Any) -> None:
        token = _bearer(scope)
        delegate(None)
        try:
            if token is None or not token.startswith(("b.", "s.", "k.")):
                await self.app(scope, receive, send)
            else:
                await self._resolved(scope, receive, send, token)
        finally:
            delegate(None)  # nothing of this request's tokens outlives it

    async def _resolved(self, scope: Scope, receive: Any, send: Any, token: str) -> None:
        store: EventStore = scope["app"].state.store
        path = scope.get("path", "")
        game = GAME_PATH.match(path)
        try:
            if token.startswith("b."):
                await self._bot(store, token, game.group(1) if game else None,
                                joining=bool(JOIN_PATH.match(path)) and scope.get("method") == "POST")
            else:
                account = await credentials.account_for_token(store, token)
                if account is None:  # never issued, logged out, or revoked
                    raise Unauthorized("session or API key not recognised; sign in again", code=ErrorCode.INVALID_TOKEN,
                                       where="header.authorization")
                scope.setdefault("state", {})["account"] = account
                scope["state"]["api_key"] = credentials.is_api_key(token)
                delegate(Delegation(hash_token(token), "account", frozenset(account.seats.values())))
        except DomainError as error:
            await send_error(send, error.status_code, error)
            return
        except Exception as error:
            if not unreachable(error):
                raise
            await send_error(send, 503, Unavailable())  # the database is away: not a bug, no traceback
            return
        await self.app(scope, receive, send)

    async def _bot(self, store: EventStore, token: str, path_game: str | None, joining: bool) -> None:
        """Delegate to the bot's seat; 401 for a token that is no live bot token (forged,
        revoked, malformed), 403 for a live one outside its game or taking a seat."""
        game_id = credentials.bot_game_id(token)
        bot = None
        if game_id is not None and len(game_id) <= 64:
            bot = credentials.bot_for_token(await credentials.load_bots(store, game_id), token)
        if bot is None:
            raise Unauthorized("token not recognised", code=ErrorCode.INVALID_TOKEN, where="header.authorization")
        if joining:
            raise Forbidden("a bot token acts for its own seat; it cannot take a new one",
                            code=ErrorCode.OUT_OF_SCOPE, where="header.authorization")
        if path_game != game_id:
            raise Forbidden("a bot token may act only in its own seat's game", code=ErrorCode.OUT_OF_SCOPE,
                            where="header.authorization")
        delegate(Delegation(hash_token(token), "bot", frozenset({bot.player_id})))

