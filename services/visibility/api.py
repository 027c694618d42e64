"""Views of a game over HTTP, and the operator's export of the log.
Runs alone with ``entente serve --service visibility`` (``services.cli.serve``
builds the app: ``create_app`` is its factory)."""
from __future__ import annotations

import json
from collections.abc import Callable
from functools import partial
from typing import Annotated

import anyio
from fastapi import APIRouter, FastAPI, Query
from fastapi.responses import Response

from shared.auth import require
from shared.game.cached import caches_of
from shared.game.log import phase_submissions, read_log
from shared.game.phases import with_phases
from shared.game.repository import with_recent_history
from shared.http.app import build_app
from shared.http.dependencies import CurrentCaller, CurrentGame, ReadStoreDep, StoreDep
from shared.settings import Settings

from .past import checked_phase, past_view, read_past_lagging
from .rendering import view_json
from .schemas import GameView
from .view import HISTORY_PAGE, GameViewJSON, view_of, viewer_for

router = APIRouter(tags=["visibility"])


@router.get("/games/{game_id}/view", response_model=GameView)
async def game_view(game: CurrentGame, caller: CurrentCaller, store: StoreDep, read_store: ReadStoreDep,
                    power: Annotated[str | None, Query(max_length=20)] = None,
                    phase: Annotated[str | None, Query(max_length=20, description=(
                        "a resolved phase, e.g. F1903M: the game as it stood then, as the caller "
                        "may see it (default: now)"))] = None,
                    history_before: Annotated[str | None, Query(max_length=20, description=(
                        "a resolved phase: the history page is the phases before it (the view's own "
                        "history_before gives the page before the one shown)"))] = None) -> Response:
    """The caller's view: a player's own power (and own pending orders); public without a token.
    With ``phase``, the board that phase was played from and its resolution. ``history`` is
    one page of the resolved phases (docs/api.md, "History pages"). The JSON is the model's,
    written by ``rendering.view_json`` (each history entry's text remembered). An older page
    or a past phase reads only the phases it shows (past.py), and the view is drawn in a
    worker thread (docs/performance.md)."""
    viewer = viewer_for(caller, game, power)
    number = checked_phase(game, phase)
    end = checked_phase(game, history_before, "query.history_before") if history_before else None
    if history_before and end is None:  # the current phase: every resolved phase is before it
        end = game.resolved_count
    draw: Callable[[], GameViewJSON]
    caches = caches_of(store)
    if number is not None:
        past = await read_past_lagging(read_store, store, game, number, end)
        draw = partial(past_view, game, past, viewer, caches=caches)
    else:
        active = game.status == "active" and game.phase
        submissions = await phase_submissions(store, game.game_id, str(game.phase)) if active else {}
        if end is None:  # the latest page: the recent phases the cache keeps
            game = await with_recent_history(store, game)
        else:
            game = await with_phases(store, game, end - HISTORY_PAGE, end)
        draw = partial(view_of, game, submissions, viewer, end, caches=caches)
    text = await anyio.to_thread.run_sync(lambda: view_json(draw(), caches=caches))
    return Response(text, media_type="application/json")


@router.get("/games/{game_id}/events", response_class=Response,
            responses={200: {"content": {"application/x-ndjson": {}}}})
async def game_events(game: CurrentGame, caller: CurrentCaller, store: StoreDep) -> Response:
    """The whole log of the game, its own stream and its order streams, as JSON lines (operator)."""
    require(caller, "operator")
    async with store.reading() as tx:
        records = (await read_log(tx, game.game_id, all_orders=True)).records()
    lines = [json.dumps({"stream_id": r.stream_id, "version": r.version, "position": r.position,
                         "type": r.type, "schema_version": r.schema_version, "data": r.data,
                         "metadata": r.metadata, "recorded_at": r.recorded_at.isoformat()})
             for r in records]
    return Response("\n".join(lines) + "\n", media_type="application/x-ndjson")


def create_app(settings: Settings | None = None) -> FastAPI:
    """The visibility service alone: views, the live stream, the operator's log."""
    from services.visibility.maps.api import router as maps_router
    from services.visibility.stream import router as stream_router

    return build_app("Entente visibility", [router, stream_router, maps_router], settings)
