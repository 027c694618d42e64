"""Methods as HTTP says (docs/api.md, "Methods"): HEAD wherever GET is, a 405 whose Allow names
every method of the path, and operation ids a generated client can call by name."""
from __future__ import annotations

import re
import time

import httpx
import pytest

from tests.utils.http import OPERATOR, running_app, settings_for
from tests.utils.served import KeptConnection, entente_serve

METHODS = ("get", "put", "post", "delete", "patch")


def example_path(template: str, game_id: str) -> str:
    return re.sub(r"\{[^}]+\}", lambda m: {"{game_id}": game_id, "{name}": "standard"}.get(m[0], "x1"), template)


async def test_every_path_answers_a_method_it_lacks_with_every_method_it_has(sqlite_url: str) -> None:
    async with running_app(settings_for(sqlite_url)) as (app, client):
        game_id = (await client.post("/games", json={"name": "Methods"})).json()["id"]
        document = app.openapi()
        for template, item in document["paths"].items():
            served = {m.upper() for m in METHODS if m in item}
            expected = sorted(served | ({"HEAD"} if "GET" in served else set()))
            for method in (m.upper() for m in METHODS if m not in item):
                answer = await client.request(method, example_path(template, game_id), headers=OPERATOR)
                assert answer.status_code == 405, (method, template, answer.text)
                assert answer.headers["allow"] == ", ".join(expected), (method, template)
                assert answer.json()["error"]["code"] == "method_not_allowed"


async def test_head_answers_as_get_does_without_the_body(sqlite_url: str) -> None:
    async with running_app(settings_for(sqlite_url)) as (_, client):
        game_id = (await client.post("/games", json={"name": "Heads"})).json()["id"]
        for path in ("/healthz", "/games", f"/games/{game_id}", f"/games/{game_id}/view", "/variants",
                     "/variants/standard", "/variants/standard/map.svg", "/games/g_unknown", "/"):
            got, head = await client.get(path), await client.head(path)
            assert head.status_code == got.status_code, path
            assert head.content == b"", path
            assert head.headers["content-type"] == got.headers["content-type"], path
            assert head.headers.get("content-length") == got.headers.get("content-length"), path


def test_head_of_the_live_stream_answers_at_once(postgres_url: str) -> None:
    """The stream never ends by itself; its HEAD does, and the server goes on serving."""
    with entente_serve(postgres_url) as base_url:
        game_id = httpx.post(f"{base_url}/games", json={"name": "Stream head"}).json()["id"]
        connection = KeptConnection(base_url)
        began = time.monotonic()
        answer = connection.request("HEAD", f"/games/{game_id}/stream")
        assert answer.status == 200 and answer.body == b""
        assert answer.headers["content-type"].startswith("text/event-stream")
        assert time.monotonic() - began < 10
        assert connection.request("GET", "/healthz").status == 200  # the same connection, kept


def test_operation_ids_are_the_handlers_names_and_unique() -> None:
    from services.app import create_app

    document = create_app().openapi()
    ids = [op["operationId"] for item in document["paths"].values() for m, op in item.items() if m in METHODS]
    assert len(ids) == len(set(ids))
    assert {"submit_orders", "patch_orders", "game_view", "create_game", "send_message", "list_messages",
            "game_stream"} <= set(ids)
    assert all(re.fullmatch(r"[a-z][a-z_]*[a-z]", i) for i in ids), ids


@pytest.mark.parametrize("path", ["/games/g_x/orders"])
async def test_a_405_changes_nothing(sqlite_url: str, path: str) -> None:
    async with running_app(settings_for(sqlite_url)) as (_, client):
        before = (await client.get("/games")).json()
        assert (await client.post(path, json={"orders": []})).status_code == 405
        assert (await client.get("/games")).json() == before
