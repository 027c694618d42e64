"""Stream tickets: the way a browser's EventSource (no Authorization header) opens the stream.
A ticket is single-use, valid a minute, for one game, and acts as the credential that asked for
it; a token in the URL is refused. Tickets are stored, so one issued by a replica opens the
stream on another."""
from __future__ import annotations

import asyncio
from datetime import datetime, timedelta
from typing import Any

import httpx
import pytest

from shared.clock import ManualClock
from tests.utils.http import (
    OPERATOR,
    Table,
    account_table,
    app_client,
    bearer,
    running_app,
    social_settings,
    started_table,
)

from .sse import of_kind, parse_sse, read_events, served


async def ticket_for(client: httpx.AsyncClient, game_id: str, headers: dict[str, str]) -> dict[str, Any]:
    response = await client.post(f"/games/{game_id}/stream-ticket", headers=headers)
    assert response.status_code == 201, response.text
    return response.json()


async def open_with(client: httpx.AsyncClient, game_id: str, ticket: str, seconds: float = 0.1,
                    **params: Any) -> httpx.Response:
    return await client.get(f"/games/{game_id}/stream", params={"ticket": ticket, "timeout": seconds, **params})


async def test_a_ticket_acts_once_as_the_credential_that_asked(social_any, provider, provider_url) -> None:
    app, client = social_any
    table = await account_table(client, app, provider, provider_url, prefix="tickets")
    bot = (await client.post(f"/games/{table.game_id}/bot-tokens", headers=table.player("ITALY"),
                             json={"label": "relay"})).json()
    askers = {  # who asks -> the viewer the stream must show
        "account session": (table.player("FRANCE"), {"kind": "power", "power": "FRANCE"}),
        "seat token": (bearer(table.accounts["GERMANY"]["seat_token"]), {"kind": "power", "power": "GERMANY"}),
        "bot token": (bearer(bot["token"]), {"kind": "power", "power": "ITALY"}),
        "operator": (OPERATOR, {"kind": "operator", "power": None}),
        "host": (table.host, {"kind": "public", "power": None}),
        "nobody": ({}, {"kind": "public", "power": None}),
    }
    for asker, (headers, viewer) in askers.items():
        issued = await ticket_for(client, table.game_id, headers)
        assert set(issued) == {"ticket", "expires_at"}
        lifetime = datetime.fromisoformat(issued["expires_at"]) - datetime.now(datetime.fromisoformat(
            issued["expires_at"]).tzinfo)
        assert timedelta(seconds=50) < lifetime <= timedelta(seconds=60), asker
        opened = await open_with(client, table.game_id, issued["ticket"])
        assert opened.status_code == 200, (asker, opened.text)
        seen = of_kind(parse_sse(opened.text), "view")[0]["data"]["viewer"]
        assert {"kind": seen["kind"], "power": seen["power"]} == viewer, asker
        again = await open_with(client, table.game_id, issued["ticket"])
        assert again.status_code == 401 and again.json()["error"]["code"] == "invalid_ticket", asker


async def test_tickets_refused(social_any) -> None:
    app, client = social_any
    table, other = await started_table(client), await started_table(client)
    clock = ManualClock(datetime.now().astimezone())
    app.state.clock = clock
    issued = await ticket_for(client, table.game_id, table.player("FRANCE"))
    wrong_game = await open_with(client, other.game_id, issued["ticket"])
    assert wrong_game.status_code == 401 and wrong_game.json()["error"]["code"] == "invalid_ticket"
    both = await client.get(f"/games/{table.game_id}/stream", params={"ticket": issued["ticket"]},
                            headers=table.player("FRANCE"))
    assert both.status_code == 400 and both.json()["error"]["code"] == "ticket_and_token"
    clock.advance(seconds=61)
    expired = await open_with(client, table.game_id, issued["ticket"])
    assert expired.status_code == 401 and "expired" in expired.json()["error"]["message"]
    for forged in ("st_" + "A" * 43, "not-a-ticket", ""):
        response = await open_with(client, table.game_id, forged)
        assert response.status_code == 401 and response.json()["error"]["where"] == "query.ticket", forged
    assert (await open_with(client, table.game_id, "st_" + "x" * 200)).status_code == 422
    # what failed spent nothing: a fresh ticket works (and a refused one was not a 500)
    fresh = await ticket_for(client, table.game_id, table.player("FRANCE"))
    assert (await open_with(client, table.game_id, fresh["ticket"])).status_code == 200


async def test_tokens_never_go_into_urls(social_any) -> None:
    _, client = social_any
    table = await started_table(client)
    token = table.tokens["FRANCE"]
    for name in ("token", "access_token"):
        for method, path in (("GET", "stream"), ("POST", "stream-ticket")):
            response = await client.request(method, f"/games/{table.game_id}/{path}", params={name: token})
            assert response.status_code == 400, (name, path, response.text)
            error = response.json()["error"]
            assert error["code"] == "token_in_url" and error["where"] == f"query.{name}"
            assert token not in response.text


async def test_a_ticket_from_one_replica_opens_the_stream_on_another(postgres_url: str, provider_url: str) -> None:
    settings = social_settings(postgres_url, provider_url)
    async with running_app(settings) as (first_app, first), running_app(settings) as (second_app, second):
        table = await started_table(first)
        issued = await ticket_for(first, table.game_id, table.player("ENGLAND"))
        opened = await open_with(second, table.game_id, issued["ticket"])
        assert opened.status_code == 200, opened.text
        assert of_kind(parse_sse(opened.text), "view")[0]["data"]["viewer"]["power"] == "ENGLAND"
        # two replicas racing to redeem one ticket: exactly one stream opens
        racing = await ticket_for(first, table.game_id, table.player("ENGLAND"))
        replies = await asyncio.gather(open_with(first, table.game_id, racing["ticket"]),
                                       open_with(app_client(second_app), table.game_id, racing["ticket"]))
        assert sorted(r.status_code for r in replies) == [200, 401]


# ----------------------------------------------------------------------------- a browser's way


@pytest.mark.parametrize("backend", ["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
async def test_an_event_source_opens_the_stream_with_a_ticket_and_resumes(
        backend: str, request: pytest.FixtureRequest, provider_url: str) -> None:
    database_url = request.getfixturevalue("sqlite_url" if backend == "sqlite" else "postgres_url")
    with served(database_url, provider_url) as base:
        async with httpx.AsyncClient(base_url=base, timeout=20) as api, httpx.AsyncClient(timeout=20) as browser:
            table: Table = await started_table(api)
            issued = await ticket_for(api, table.game_id, table.player("FRANCE"))
            url = f"{base}/games/{table.game_id}/stream?ticket={issued['ticket']}&timeout=20"
            # what EventSource sends: a GET with Accept: text/event-stream, no Authorization header
            async with browser.stream("GET", url, headers={"accept": "text/event-stream"}) as response:
                assert response.status_code == 200
                assert response.headers["content-type"].startswith("text/event-stream")
                assert response.headers["cache-control"] == "no-cache"
                lines = response.aiter_lines()
                [first] = await asyncio.wait_for(read_events(lines, 1), 10)
                assert first["event"] == "view" and first["data"]["viewer"]["power"] == "FRANCE"
                await table.order_ok("FRANCE", ["A PAR - BUR"])
                [changed] = await asyncio.wait_for(read_events(lines, 1), 10)
                assert changed["event"] == "view" and changed["data"]["orders"] == {"FRANCE": ["A PAR - BUR"]}
            # the page opens a new EventSource with a new ticket and the last id it saw
            said = await api.post(f"/games/{table.game_id}/messages", headers=table.player("ENGLAND"),
                                  json={"to": "all", "text": "while you were away"})
            assert said.status_code == 201
            again = await ticket_for(api, table.game_id, table.player("FRANCE"))
            resumed = await browser.get(f"{base}/games/{table.game_id}/stream", params={
                "ticket": again["ticket"], "last_event_id": changed["id"], "timeout": 0.5})
            events = parse_sse(resumed.text)
            assert [(e["event"], e["data"].get("text")) for e in events] == [("message", "while you were away")]
            # the spent ticket, as EventSource's own reconnection would send it: refused
            spent = await browser.get(url)
            assert spent.status_code == 401
