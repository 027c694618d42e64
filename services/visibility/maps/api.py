"""Map data and pictures over HTTP (docs/api.md, docs/maps.md).

``GET /variants``, ``GET /variants/{name}``, ``GET /variants/{name}/map.svg``: the boards;
``GET /games/{id}/map.svg`` and ``map.png``: a game as the caller may see it, with the same
roles as ``GET /games/{id}/view`` (public without a token, a player's own power, the
operator everything, or one power with ``?power=``).
"""
from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from functools import lru_cache
from typing import Annotated, Any

import anyio
import orjson
from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import Response
from pydantic import BaseModel, Field

from shared.auth import Caller
from shared.errors import ErrorCode, NotFound
from shared.game.log import phase_submissions
from shared.game.state import GameState
from shared.http.caching import cached_answer
from shared.http.dependencies import CurrentCaller, CurrentGame, StoreDep, get_read_store
from shared.http.rate_limits import client_address
from shared.rules.variants import UnknownVariant, variant_names
from shared.rules.variants.documents import MapData
from shared.store import EventStore

from ..past import checked_phase, read_past_lagging
from ..view import Viewer, pending_orders, viewer_for
from .cache import Kind, Lane, Picture, close_pictures, etag_matches, etag_of, pictures_of
from .geometry import geometry_for
from .pictures import check_started, empty_layers, last_resolution, map_data_of


@asynccontextmanager
async def pictures_lifespan(app: Any) -> AsyncIterator[None]:
    """Inside the app's own lifespan: the drawing processes stop before the store closes."""
    yield
    store = getattr(app.state, "store", None)
    if store is not None:
        await close_pictures(store)


router = APIRouter(tags=["maps"], lifespan=pictures_lifespan)
SVG = "image/svg+xml"
VariantName = Annotated[str, Path(max_length=40)]
PhaseQuery = Annotated[str | None, Query(max_length=20, description="a resolved phase, e.g. S1901M (default: now)")]
PowerQuery = Annotated[str | None, Query(max_length=20)]


def _variant_data(name: str) -> MapData:
    try:
        return map_data_of(name)
    except UnknownVariant:
        raise NotFound(f"no variant {name!r}; the variants are {variant_names()}", code=ErrorCode.VARIANT_NOT_FOUND,
                       where="path.name") from None


class VariantSummary(BaseModel):
    name: str = Field(..., description="the name a game is created with and GET /variants/{name} takes")
    board: str = Field(..., description="the board it is played on: variants on one board share its drawing")
    powers: list[str] = Field(..., description="its powers, in alphabetical order")


class VariantList(BaseModel):
    variants: list[VariantSummary]


@router.get("/variants", response_model=VariantList)
async def list_variants() -> VariantList:
    """Every variant this server hosts, with the board it is played on."""
    return VariantList(variants=[variant_summary(name) for name in variant_names()])


def variant_summary(name: str) -> VariantSummary:
    """One variant's entry of ``GET /variants``, its map data read once."""
    data = map_data_of(name)
    return VariantSummary(name=name, board=data["board"], powers=sorted(data["powers"]))


@router.get("/variants/{name}", response_class=Response,
            responses={200: {"content": {"application/json": {"schema": {"type": "object"}}}}})
async def variant_map(name: VariantName, request: Request) -> Response:
    """Everything needed to draw and check the board: the variant's map data and the
    drawing's geometry (regions, unit places, coasts, borders). Cacheable: an ETag, 304 to
    ``If-None-Match``, gzip (docs/api.md, "Caching")."""
    return cached_answer(request, _variant_document(name), "application/json")


@lru_cache(maxsize=16)
def _document_of(name: str) -> bytes:
    data = map_data_of(name)
    return json.dumps({**data, "geometry": geometry_for(data["board"])}, ensure_ascii=False,
                      separators=(",", ":")).encode()


def _variant_document(name: str) -> bytes:
    _variant_data(name)  # 404 for an unknown variant
    return _document_of(name)


@router.get("/variants/{name}/map.svg", response_class=Response, responses={200: {"content": {SVG: {}}}})
async def variant_svg(name: VariantName, request: Request) -> Response:
    """The empty board (cacheable as ``GET /variants/{name}``)."""
    _variant_data(name)
    return cached_answer(request, empty_layers(name).document().encode(), SVG)


async def _picture(kind: Kind, game: GameState, caller: Caller, store: EventStore, request: Request, *,
                   power: str | None, phase: str | None) -> Response:
    """The caller's picture of the game now or at ``phase``: remembered (cache.py), 304 when
    ``If-None-Match`` names it, else drawn in turn in a worker thread (503 when the queue is full)."""
    viewer = viewer_for(caller, game, power)
    check_started(game)
    number = checked_phase(game, phase)
    active = game.status == "active" and game.phase
    submissions = await phase_submissions(store, game.game_id, str(game.phase)) if active and number is None else {}
    pending = pending_orders(submissions, game, viewer)
    # keyed by the version others can see: a secret draw vote redraws nothing (docs/maps.md)
    key = (kind, game.game_id, game.shown_version, number, viewer, orjson.dumps(pending))
    pictures = pictures_of(store, request.app.state.settings)
    found = pictures.remembered(key)
    if found is None:
        async with pictures.queue.turn(*_lane(viewer, number, request)):
            found = pictures.remembered(key)  # drawn by another request while this one waited
            if found is None:
                past = (await read_past_lagging(await get_read_store(request), store, game, number, history=False)
                        if number is not None else None)
                last = await last_resolution(store, game) if past is None else None
                digest, body = await anyio.to_thread.run_sync(pictures.drawer.draw, kind, game, submissions,
                                                              viewer, past, last)
                found = Picture(etag_of(kind, viewer, digest), digest), body
                pictures.bodies.put(digest, body, len(body))
                pictures.remember(key, found[0])
    picture, body = found
    headers = {"ETag": picture.etag, "Cache-Control": "private, no-cache"}
    if etag_matches(request.headers.get("if-none-match"), picture.etag):
        return Response(status_code=304, headers=headers)
    return Response(body, media_type=SVG if kind == "svg" else "image/png", headers=headers)


def _lane(viewer: Viewer, number: int | None, request: Request) -> tuple[Lane, str | None]:
    """The render queue's lane of a picture, and the address an anonymous one counts against
    (cache.py, ``RenderQueue``): a seat's own current board, and the operator's, go first."""
    if viewer.kind == "operator" or (viewer.kind in ("power", "player") and number is None):
        return "own", None
    return "others", client_address(request) if viewer.kind == "public" else None


NOT_MODIFIED: dict[int | str, dict[str, Any]] = {
    304: {"description": "the picture named by If-None-Match is still the caller's (no body)"}}


@router.get("/games/{game_id}/map.svg", response_class=Response,
            responses={200: {"content": {SVG: {}}}, **NOT_MODIFIED})
async def game_svg(game: CurrentGame, caller: CurrentCaller, store: StoreDep, request: Request,
                   phase: PhaseQuery = None, power: PowerQuery = None) -> Response:
    """The board as the caller may see it, now or at a resolved ``phase`` (with an ETag:
    ``If-None-Match`` gets 304; docs/maps.md)."""
    return await _picture("svg", game, caller, store, request, power=power, phase=phase)


@router.get("/games/{game_id}/map.png", response_class=Response,
            responses={200: {"content": {"image/png": {}}}, **NOT_MODIFIED})
async def game_png(game: CurrentGame, caller: CurrentCaller, store: StoreDep, request: Request,
                   phase: PhaseQuery = None, power: PowerQuery = None) -> Response:
    """The same picture as ``map.svg``, as PNG (drawn in a worker thread, in turn: 503 with
    Retry-After when too many wait; docs/maps.md)."""
    return await _picture("png", game, caller, store, request, power=power, phase=phase)
