"""Request dependencies shared by the HTTP services (docs/architecture.md, "The services"), as
``Annotated`` aliases."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Annotated

from fastapi import Depends, Request, Security
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from shared.auth import PUBLIC, Caller, bearer_token_of, hash_token, identify, require
from shared.clock import SYSTEM_CLOCK, Clock
from shared.errors import DomainError, ErrorCode, NotFound
from shared.events import EventMetadata
from shared.game.repository import cached_game, read_game
from shared.game.state import GameState
from shared.http.rate_limits import RATE_ACTION, bearer_or_refusal, count_request
from shared.store import EventStore

# declares the bearer scheme in the OpenAPI document (shared/http/openapi.py); the header itself
# is read below, so that a malformed one gets our own 401
BEARER_SCHEME = HTTPBearer(auto_error=False, scheme_name="bearer")


async def bearer_token(request: Request,
                       _scheme: Annotated[HTTPAuthorizationCredentials | None, Security(BEARER_SCHEME)] = None,
                       ) -> str | None:
    """The token of an ``Authorization: Bearer`` header, None without the header (``async``:
    FastAPI would run a plain function in a worker thread)."""
    authorization = request.headers.get("authorization")
    if authorization is None:
        return None
    return bearer_token_of(authorization)


BearerToken = Annotated[str | None, Depends(bearer_token)]


async def get_store(request: Request) -> EventStore:
    store: EventStore = request.app.state.store  # set where the app is built (shared/http/app.py)
    return store


StoreDep = Annotated[EventStore, Depends(get_store)]


async def get_read_store(request: Request) -> EventStore:
    """The store for the reads that may lag (docs/scale.md, "Read replicas"): the replica at
    ENTENTE_READ_DATABASE_URL, or the store itself when none is set."""
    store: EventStore = getattr(request.app.state, "read_store", None) or request.app.state.store
    return store


ReadStoreDep = Annotated[EventStore, Depends(get_read_store)]


def get_clock(request: Request) -> Clock:
    """The app's clock: ``app.state.clock`` when set (tests set a ManualClock), else the wall clock."""
    return getattr(request.app.state, "clock", None) or SYSTEM_CLOCK


async def get_now(request: Request) -> datetime:
    """The time of this request, read once when it arrives. (The dependencies are ``async``:
    FastAPI runs a plain ``def`` dependency in a worker thread, a thread hop per dependency.)"""
    return get_clock(request).now()


Now = Annotated[datetime, Depends(get_now)]


def game_not_found(game_id: str) -> NotFound:
    return NotFound(f"no game {game_id!r}", code=ErrorCode.GAME_NOT_FOUND, where="path.game_id")


async def load_game(store: EventStore, game_id: str) -> GameState:
    """The game's state as of now, read through the cache (shared, frozen: never changed)."""
    state = await read_game(store, game_id) if len(game_id) <= 64 else None
    if state is None:
        raise game_not_found(game_id)
    return state


async def current_game(game_id: str, store: StoreDep) -> GameState:
    return await load_game(store, game_id)


CurrentGame = Annotated[GameState, Depends(current_game)]


def caller_in(request: Request, game: GameState, token: str | None) -> Caller:
    """Who holds ``token`` in ``game``."""
    return identify(token, operator_hash=request.app.state.operator_hash,
                    host_hash=game.host_token_hash, player_hashes=game.player_hashes())


def player_in(request: Request, game: GameState, token: str | None) -> Caller:
    """The holder of ``token`` as a player of ``game`` (401 or 403 otherwise)."""
    return require(caller_in(request, game, token), "player")


async def current_caller(request: Request, game: CurrentGame, token: BearerToken) -> Caller:
    return caller_in(request, game, token)


CurrentCaller = Annotated[Caller, Depends(current_caller)]


async def host_or_operator(caller: CurrentCaller) -> Caller:
    return require(caller, "host", "operator")


async def player(caller: CurrentCaller) -> Caller:
    return require(caller, "player")


HostOrOperator = Annotated[Caller, Depends(host_or_operator)]
CurrentPlayer = Annotated[Caller, Depends(player)]


@dataclass(frozen=True, slots=True)
class OrderWriter:
    """Everything a write of orders takes from its request, gathered by one dependency
    (``order_writer``): the caller, a player, and the game it was identified in; ``read``:
    whether that game was read from the store for this request (else it is this process's last
    reading of it); the bearer token, the store and the request's time."""

    game: GameState
    caller: Caller
    read: bool
    token: str | None
    store: EventStore
    now: datetime


async def order_writer(request: Request, game_id: str) -> OrderWriter:
    """One order write counted against the rate limits, then the caller as a player of the game
    as this process last read it, without a read of the store when that reading names the
    caller a player (a read otherwise, and every refusal is from a fresh read): for a write that
    appends with the game's version checked, and decides again from a fresh read, the caller
    identified again, when the game has moved on (``PUT /orders``; docs/architecture.md, "A PUT,
    step by step"). One dependency rather than five: each costs the framework's dependency
    machinery (docs/architecture.md, "A PUT, layer by layer")."""
    token, refused = bearer_or_refusal(request)
    await count_request(request, "orders", hash_token(token) if token else None)
    if refused is not None:
        raise refused
    store: EventStore = request.app.state.store
    now = get_clock(request).now()
    cached = cached_game(store, game_id)  # (an id too long for a game misses, and load_game refuses it)
    if cached is not None:
        try:
            caller = caller_in(request, cached, token)
        except DomainError:  # 401/403 from the reading: perhaps a seat taken since (another process's)
            caller = PUBLIC
        if caller.role == "player":
            return OrderWriter(cached, caller, False, token, store, now)
    game = await load_game(store, game_id)
    return OrderWriter(game, player_in(request, game, token), True, token, store, now)


setattr(order_writer, RATE_ACTION, "orders")  # counted before its body is read (route_bodies.py)


OrderWriting = Annotated[OrderWriter, Depends(order_writer)]
# where a route gathers its token in one dependency (OrderWriting), its document still says that
# it takes one (shared/http/openapi.py completes the scheme)
BEARER_REQUIRED: dict[str, object] = {"security": [{"bearer": []}]}


def request_metadata(request: Request, actor: str, player_id: str | None = None) -> EventMetadata:
    """Who asked, and the request id, stored with the events a request writes."""
    metadata: EventMetadata = {"actor": actor}
    if player_id:
        metadata["player_id"] = player_id
    # the middleware's (shared/http/observability.py): the caller's X-Request-ID or a new one
    request_id = getattr(request.state, "request_id", None) or request.headers.get("x-request-id")
    if request_id:
        metadata["request_id"] = request_id[:100]
    return metadata
