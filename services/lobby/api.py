"""The lobby over HTTP: create, list, join, start, and the public summary of a game.

Runs alone with ``uvicorn services.lobby.api:app``.
"""
from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Query, Request

from services.factory import build_app
from shared.auth import require
from shared.events import GameSettings
from shared.settings import Settings

from . import service
from .dependencies import CurrentCaller, CurrentGame, HostOrOperator, StoreDep, request_metadata
from .schemas import CreatedGame, CreateGame, FinishGame, GameList, GameSummary, JoinedGame

router = APIRouter(tags=["lobby"])


@router.post("/games", status_code=201, response_model=CreatedGame)
async def create_game(body: CreateGame, store: StoreDep, request: Request) -> dict:
    """Create a game; the response holds the host token, shown only this once."""
    created = await service.create_game(
        store, name=body.name, variant=body.variant,
        settings=GameSettings(**body.settings.model_dump()),
        metadata=request_metadata(request, "host"))
    return {**created.state.summary(), "host_token": created.host_token}


@router.get("/games", response_model=GameList)
async def list_games(store: StoreDep,
                     status: Literal["forming", "active", "finished"] | None = None,
                     limit: Annotated[int, Query(ge=1, le=500)] = 100) -> dict:
    return {"games": await service.list_games(store, status, limit)}


@router.get("/games/{game_id}", response_model=GameSummary)
async def game_summary(game: CurrentGame) -> dict:
    """The public summary: status, phase, powers with codenames; never tokens or identities."""
    return game.summary()


@router.post("/games/{game_id}/players", status_code=201, response_model=JoinedGame)
async def join_game(game: CurrentGame, store: StoreDep, request: Request) -> dict:
    """Take a seat: a player id, a secret token and a codename unique in the game."""
    joined = await service.join_game(store, game.game_id, request_metadata(request, "player"))
    return {"game_id": game.game_id, "player_id": joined.player_id, "codename": joined.codename,
            "token": joined.token}


@router.post("/games/{game_id}/start", response_model=GameSummary)
async def start_game(game: CurrentGame, caller: HostOrOperator, store: StoreDep, request: Request) -> dict:
    """Start a full game (host or operator): powers are drawn at random from a stored seed."""
    state = await service.start_game(store, game.game_id, request_metadata(request, caller.role))
    return state.summary()


@router.post("/games/{game_id}/finish", response_model=GameSummary)
async def finish_game(game: CurrentGame, caller: CurrentCaller, body: FinishGame, store: StoreDep,
                      request: Request) -> dict:
    """End a game without a winner: a draw or an abandoned game (operator only)."""
    require(caller, "operator")
    state = await service.finish_game(store, game.game_id, body.reason, request_metadata(request, "operator"))
    return state.summary()


def create_app(settings: Settings | None = None):
    return build_app("Entente lobby", [router], settings)


app = create_app()
