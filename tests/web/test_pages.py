"""The web client's files as served (docs/web.md): public pages beside an unchanged API, only
the folder's own files, nothing fetched from any other host, and no module missing."""
from __future__ import annotations

import re

import httpx

from services.lobby.api import create_app as lobby_app
from shared.web import STATIC
from tests.utils.http import running_client

IMPORT = re.compile(r"""^import\s[^;]*?from\s+["']([^"']+)["']""", re.MULTILINE)


async def test_the_pages_are_public_html_with_a_strict_policy(sqlite_client: httpx.AsyncClient) -> None:
    for path in ("/", "/play/g_000000000000"):
        answer = await sqlite_client.get(path)
        assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/html")
        policy = answer.headers["content-security-policy"]
        assert "default-src 'self'" in policy and "connect-src 'self'" in policy
        assert answer.headers["x-content-type-options"] == "nosniff"
    script = await sqlite_client.get("/static/game.js")
    assert script.status_code == 200 and script.headers["content-type"].startswith("text/javascript")


async def test_only_the_folders_own_files_are_served(sqlite_client: httpx.AsyncClient) -> None:
    for path in ("/static/nothing.js", "/static/..%2F__init__.py", "/static/__init__.py", "/static/"):
        answer = await sqlite_client.get(path)
        assert answer.status_code == 404 and answer.json()["error"]["code"] == "not_found", path


async def test_the_api_is_unchanged_beside_the_pages(sqlite_client: httpx.AsyncClient) -> None:
    document = (await sqlite_client.get("/openapi.json")).json()
    assert not {"/", "/play/{game_id}", "/static/{name}"} & set(document["paths"])
    missing = await sqlite_client.get("/nowhere")
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_found"
    assert (await sqlite_client.post("/")).json()["error"]["code"] == "method_not_allowed"


async def test_the_lobby_service_serves_the_pages_too(sqlite_url: str) -> None:
    async with running_client(sqlite_url, lobby_app) as client:
        assert (await client.get("/")).status_code == 200
        assert (await client.get("/static/style.css")).headers["content-type"].startswith("text/css")


def test_every_imported_module_is_there_and_no_other_host_is_named() -> None:
    for path in STATIC.iterdir():
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"https?://", text), f"{path.name} names another host"
        for module in IMPORT.findall(text) if path.suffix == ".js" else []:
            assert module.startswith("./") and (STATIC / module).is_file(), f"{path.name} imports {module}"
    pages = [STATIC / "index.html", STATIC / "play.html"]
    for page in pages:
        for source in re.findall(r'(?:src|href)="/static/([^"]+)"', page.read_text(encoding="utf-8")):
            assert (STATIC / source).is_file(), f"{page.name} loads {source}"
