"""Browsers on other origins: ENTENTE_CORS_ORIGINS lists the origins answered, with preflight
(docs/api.md, "CORS"); none by default."""
from __future__ import annotations

import httpx
import pytest
from pydantic import SecretStr

from services.lobby.api import create_app as lobby_app
from shared.settings import Settings, SettingsError
from tests.utils.http import OPERATOR_TOKEN, bearer, running_app, settings_for

FRONTEND = "https://play.example.org"


def with_origins(database_url: str, origins: str) -> Settings:
    return settings_for(database_url).model_copy(update={"cors_origins": origins})


def preflight(origin: str, method: str = "PUT", headers: str = "authorization, content-type") -> dict[str, str]:
    return {"origin": origin, "access-control-request-method": method, "access-control-request-headers": headers}


async def test_a_listed_origin_gets_its_preflight_answered_and_may_read_every_answer(sqlite_url: str) -> None:
    async with running_app(with_origins(sqlite_url, f"{FRONTEND}, http://localhost:5173")) as (_, client):
        created = (await client.post("/games", json={"name": "CORS"})).json()
        answer = await client.options(f"/games/{created['id']}/orders", headers=preflight(FRONTEND))
        assert answer.status_code == 204 and answer.content == b""
        assert answer.headers["access-control-allow-origin"] == FRONTEND
        assert "PATCH" in answer.headers["access-control-allow-methods"]
        allowed = {h.strip().lower() for h in answer.headers["access-control-allow-headers"].split(",")}
        assert {"authorization", "content-type", "last-event-id"} <= allowed
        assert int(answer.headers["access-control-max-age"]) > 0 and "Origin" in answer.headers["vary"]
        assert "access-control-allow-credentials" not in answer.headers  # bearer tokens, never cookies
        # the real request, and an error answer too, carry the header the browser needs to read them
        summary = await client.get(f"/games/{created['id']}", headers={"origin": FRONTEND})
        assert summary.status_code == 200 and summary.headers["access-control-allow-origin"] == FRONTEND
        refused = await client.post(f"/games/{created['id']}/start", headers={"origin": "http://localhost:5173",
                                                                             **bearer("wrong-token")})
        assert refused.status_code == 401 and refused.headers["access-control-allow-origin"] == "http://localhost:5173"
        assert "WWW-Authenticate" in refused.headers["access-control-expose-headers"]
        # another origin gets nothing: the browser keeps the answer from its page
        stranger = await client.get(f"/games/{created['id']}", headers={"origin": "https://evil.example"})
        assert stranger.status_code == 200 and "access-control-allow-origin" not in stranger.headers
        stranger_preflight = await client.options("/games", headers=preflight("https://evil.example", "POST"))
        assert stranger_preflight.status_code == 405 and "access-control-allow-origin" not in stranger_preflight.headers
        assert stranger_preflight.json()["error"]["code"] == "method_not_allowed"


async def test_no_origin_is_answered_by_default(sqlite_url: str) -> None:
    assert Settings().cors_origins == ""
    async with running_app(settings_for(sqlite_url), lobby_app) as (_, client):
        answer = await client.options("/games", headers=preflight(FRONTEND, "POST"))
        assert answer.status_code == 405 and "access-control-allow-origin" not in answer.headers
        listed = await client.get("/games", headers={"origin": FRONTEND})
        assert listed.status_code == 200 and "access-control-allow-origin" not in listed.headers


async def test_any_origin_when_asked_for_and_the_stream_too(sqlite_url: str) -> None:
    async with running_app(with_origins(sqlite_url, "*")) as (_, client):
        created = (await client.post("/games", json={"name": "CORS"})).json()
        stream = await client.get(f"/games/{created['id']}/stream", params={"timeout": 0.1},
                                  headers={"origin": "https://anywhere.example"})
        assert stream.status_code == 200 and stream.headers["access-control-allow-origin"] == (
            "https://anywhere.example")


@pytest.mark.parametrize("origins", ["play.example.org", "https://play.example.org/app", "ftp://x.example",
                                     "https://user:pw@x.example"])
def test_something_that_is_no_origin_stops_the_start(origins: str) -> None:
    with pytest.raises(SettingsError, match="ENTENTE_CORS_ORIGINS"):
        Settings(operator_token=SecretStr(OPERATOR_TOKEN), cors_origins=origins).checked()


def vary(answer: httpx.Response) -> list[str]:
    return [name.strip().lower() for value in answer.headers.get_list("vary") for name in value.split(",")]


async def test_every_answer_says_it_varies_by_origin_once_origins_are_listed(sqlite_url: str) -> None:
    """A shared cache must not hand an answer made without CORS headers (no Origin, or one
    refused) to a listed origin's request, nor the reverse: every answer names Origin in Vary."""
    async with running_app(with_origins(sqlite_url, FRONTEND)) as (_, client):
        created = (await client.post("/games", json={"name": "CORS"})).json()
        asked = {
            "no origin": await client.get(f"/games/{created['id']}"),
            "refused origin": await client.get(f"/games/{created['id']}", headers={"origin": "https://evil.example"}),
            "refused preflight": await client.options("/games", headers=preflight("https://evil.example", "POST")),
            "error, no origin": await client.get("/games/no-such-game"),
            "stream, no origin": await client.get(f"/games/{created['id']}/stream", params={"timeout": 0.1}),
            "listed origin": await client.get(f"/games/{created['id']}", headers={"origin": FRONTEND}),
            "listed preflight": await client.options("/games", headers=preflight(FRONTEND, "POST")),
        }
        for what, answer in asked.items():
            assert vary(answer).count("origin") == 1, (what, answer.headers)
        assert "access-control-allow-origin" not in asked["no origin"].headers
        assert asked["error, no origin"].status_code == 404
        # an answer that already varies by something keeps it, and gains Origin once
        document = await client.get("/variants/standard")
        refused_document = await client.get("/variants/standard", headers={"origin": "https://evil.example"})
        listed_document = await client.get("/variants/standard", headers={"origin": FRONTEND})
        for answer in (document, refused_document, listed_document):
            assert answer.status_code == 200
            assert vary(answer).count("accept-encoding") == 1 and vary(answer).count("origin") == 1, answer.headers


async def test_with_no_origin_listed_answers_do_not_vary_by_origin(sqlite_url: str) -> None:
    async with running_app(settings_for(sqlite_url)) as (_, client):
        for headers in ({}, {"origin": FRONTEND}):
            answer = await client.get("/games", headers=headers)
            assert answer.status_code == 200 and "origin" not in vary(answer)
