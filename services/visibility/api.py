"""Views of a game over HTTP, and the operator's export of the log.
Runs alone with ``uvicorn services.visibility.api:app``."""
from __future__ import annotations

import json
from functools import lru_cache
from typing import Annotated, Any

from fastapi import APIRouter, Query
from fastapi.responses import Response

from services.adjudication.engine import load_map
from services.adjudication.engine.geography import MapDataError
from services.adjudication.variants import get_variant
from services.factory import build_app
from services.lobby.dependencies import CurrentCaller, CurrentGame, StoreDep
from services.lobby.state import GameState, fold
from shared.auth import Caller, require
from shared.errors import Forbidden, Unprocessable
from shared.events import from_recorded, game_stream, orders_prefix
from shared.settings import Settings

from .schemas import GameView
from .view import Viewer, view

router = APIRouter(tags=["visibility"])



@lru_cache(maxsize=None)
def variant_powers(variant: str) -> frozenset[str]:
    """Every power of a variant: the standard map's home centres, or the powers of a full
    opening for a variant with its own board (Tale of Ekonia's six states)."""
    try:
        return frozenset(load_map(variant).home_centres)
    except MapDataError:
        return frozenset(get_variant(variant).opening({}, 0).powers)


def viewer_for(caller: Caller, game: GameState, power: str | None) -> Viewer:
    """The viewer a caller may be: a player sees as their power, the operator as anyone."""
    if power is not None and power.upper() not in variant_powers(game.variant):
        raise Unprocessable(f"unknown power {power!r}", code="unknown_power", where="query.power")
    wanted = power.upper() if power else None
    if caller.role == "operator":
        return Viewer("power", wanted) if wanted else Viewer("operator")
    if caller.role == "player":
        seat = game.seat(caller.player_id)
        own = tuple(seat.powers) if seat else ()
        if wanted and wanted not in own:
            raise Forbidden(f"a player may see only their own power's view, not {wanted}",
                            code="not_your_power", where="query.power")
        codename = seat.codename if seat else None
        if not own:
            return Viewer("public", None, codename, player_id=caller.player_id)
        return Viewer("power", wanted or own[0], codename, own, caller.player_id)
    if wanted:
        raise Forbidden(f"the view of {wanted} needs that player's token", code="not_your_power",
                        where="query.power")
    return Viewer.public()


@router.get("/games/{game_id}/view", response_model=GameView)
async def game_view(game: CurrentGame, caller: CurrentCaller, store: StoreDep,
                    power: Annotated[str | None, Query(max_length=20)] = None) -> dict[str, Any]:
    """The caller's view: a player's own power (and own pending orders); public without a token."""
    viewer = viewer_for(caller, game, power)
    async with store.reading() as tx:
        records = await tx.read_stream(game_stream(game.game_id))
        events = [from_recorded(r) for r in records]
        current = fold(events).phase
        order_records = []
        if current:
            for stream in (await tx.read_streams(orders_prefix(game.game_id, current))).values():
                order_records.extend(stream)
    order_records.sort(key=lambda r: r.position)
    return view(events + [from_recorded(r) for r in order_records], viewer)


@router.get("/games/{game_id}/events", response_class=Response,
            responses={200: {"content": {"application/x-ndjson": {}}}})
async def game_events(game: CurrentGame, caller: CurrentCaller, store: StoreDep) -> Response:
    """The whole log of the game, its own stream and its order streams, as JSON lines (operator)."""
    require(caller, "operator")
    async with store.reading() as tx:
        records = list(await tx.read_stream(game_stream(game.game_id)))
        for stream in (await tx.read_streams(orders_prefix(game.game_id))).values():
            records.extend(stream)
    records.sort(key=lambda r: r.position)
    lines = [json.dumps({"stream_id": r.stream_id, "version": r.version, "position": r.position,
                         "type": r.type, "schema_version": r.schema_version, "data": r.data,
                         "metadata": r.metadata, "recorded_at": r.recorded_at.isoformat()})
             for r in records]
    return Response("\n".join(lines) + "\n", media_type="application/x-ndjson")


def create_app(settings: Settings | None = None):
    """The visibility service alone: views, the live stream, the operator's log."""
    from services.accounts.api import install as install_accounts
    from services.visibility.stream import router as stream_router

    return install_accounts(build_app("Entente visibility", [router, stream_router], settings))


app = create_app()
