"""Map data and pictures over HTTP (docs/api.md, docs/maps.md).

``GET /variants``, ``GET /variants/{name}``, ``GET /variants/{name}/map.svg``: the boards;
``GET /games/{id}/map.svg`` and ``map.png``: a game as the caller may see it, with the same
roles as ``GET /games/{id}/view`` (public without a token, a player's own power, the
operator everything, or one power with ``?power=``).
"""
from __future__ import annotations

import asyncio
import json
from functools import lru_cache
from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import Response

from shared.errors import NotFound
from shared.game.log import phase_submissions
from shared.game.repository import full_state, with_recent_history
from shared.http.caching import cached_answer
from shared.http.dependencies import CurrentCaller, CurrentGame, StoreDep
from shared.rules.variants import UnknownVariant, variant_names

from ..view import viewer_for
from .geometry import geometry_for
from .pictures import empty_layers, game_layers, map_data_of
from .png import layers_to_png

router = APIRouter(tags=["maps"])
SVG = "image/svg+xml"
VariantName = Annotated[str, Path(max_length=40)]
PhaseQuery = Annotated[str | None, Query(max_length=20, description="a resolved phase, e.g. S1901M (default: now)")]
PowerQuery = Annotated[str | None, Query(max_length=20)]


def _variant_data(name: str) -> dict[str, Any]:
    try:
        return map_data_of(name)
    except UnknownVariant:
        raise NotFound(f"no variant {name!r}; the variants are {variant_names()}", code="variant_not_found",
                       where="path.name") from None


@router.get("/variants")
async def list_variants() -> dict[str, Any]:
    """Every variant this server hosts, with the board it is played on."""
    return {"variants": [{"name": name, "board": map_data_of(name)["board"],
                          "powers": sorted(map_data_of(name)["powers"])} for name in variant_names()]}


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


async def _layers(game, caller, store, power: str | None, phase: str | None):
    viewer = viewer_for(caller, game, power)
    active = game.status == "active" and game.phase
    asked_now = phase is None or phase.strip().upper() == str(game.phase or "").upper()
    submissions = await phase_submissions(store, game.game_id, str(game.phase)) if active and asked_now else {}
    state = await full_state(store, game) if phase and not asked_now else await with_recent_history(store, game)
    return game_layers(state, submissions, viewer, phase)


@router.get("/games/{game_id}/map.svg", response_class=Response, responses={200: {"content": {SVG: {}}}})
async def game_svg(game: CurrentGame, caller: CurrentCaller, store: StoreDep,
                   phase: PhaseQuery = None, power: PowerQuery = None) -> Response:
    """The board as the caller may see it, now or at a resolved ``phase``."""
    layers = await _layers(game, caller, store, power, phase)
    return Response(layers.document(), media_type=SVG, headers={"Cache-Control": "private, no-store"})


@router.get("/games/{game_id}/map.png", response_class=Response, responses={200: {"content": {"image/png": {}}}})
async def game_png(game: CurrentGame, caller: CurrentCaller, store: StoreDep,
                   phase: PhaseQuery = None, power: PowerQuery = None) -> Response:
    """The same picture as ``map.svg``, as PNG (drawn in a worker thread)."""
    layers = await _layers(game, caller, store, power, phase)
    png = await asyncio.to_thread(layers_to_png, layers)
    return Response(png, media_type="image/png", headers={"Cache-Control": "private, no-store"})
