"""The reference web client's pages and static files (docs/web.md).

Plain files, no build step: ``/`` (the lobby page), ``/play/{game_id}`` (the game page) and
``/static/{name}``. The pages are public and hold no game data: the browser reads everything
through the public API with the player's token from local storage. Left out of the OpenAPI
document, which describes the API only. Mounted by the combined app (``entente serve``) and
by the lobby service (the multi-service deployment routes these paths to it).
"""
from __future__ import annotations

from functools import cache
from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse
from starlette.exceptions import HTTPException

STATIC = Path(__file__).parent / "static"
MEDIA_TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
               ".css": "text/css; charset=utf-8", ".svg": "image/svg+xml"}
# The pages call their own origin only (docs/web.md, "No other host"); the board's SVG is
# inlined and carries presentation attributes, hence inline styles.
HEADERS = {
    "Content-Security-Policy": ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
                                "img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; "
                                "base-uri 'none'; form-action 'self'"),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-cache",  # revalidated each time: a new version is seen at once
}

router = APIRouter(include_in_schema=False)


@cache
def static_files() -> dict[str, Path]:
    """The files that may be served, by name: nothing outside the folder can be asked for."""
    return {path.name: path for path in STATIC.iterdir() if path.is_file() and path.suffix in MEDIA_TYPES}


def _file(name: str) -> FileResponse:
    path = static_files().get(name)
    if path is None:
        raise HTTPException(404, f"no static file {name!r}")
    return FileResponse(path, media_type=MEDIA_TYPES[path.suffix], headers=HEADERS)


@router.api_route("/", methods=["GET", "HEAD"])
async def index_page() -> FileResponse:
    return _file("index.html")


@router.api_route("/play/{game_id}", methods=["GET", "HEAD"])
async def game_page(game_id: str) -> FileResponse:
    """The same page for every game: the script reads the id from the address."""
    return _file("play.html")


@router.api_route("/static/{name}", methods=["GET", "HEAD"])
async def static_file(name: str) -> FileResponse:
    return _file(name)
