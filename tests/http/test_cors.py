"""Browsers on other origins: ENTENTE_CORS_ORIGINS lists the origins answered, with preflight
(docs/api.md, "CORS"); none by default."""
from __future__ import annotations

import pytest

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
        Settings(operator_token=OPERATOR_TOKEN, cors_origins=origins).checked()
