"""An open stream stops when the credential that opened it stops working: a revoked bot token,
a logged-out session (and a ticket asked for with either). The stream is asked to run for
30 s; it must end within a few seconds of the revocation, with ``event: closed``."""
from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import httpx

from tests.utils.http import Table, account_table, bearer, started_table
from tests.utils.wait import streams_started, until

from .sse import of_kind, parse_sse

ASKED_SECONDS = 30.0
CLOSED_WITHIN = 8.0  # the hub re-checks credentials every 2 s; generous on a busy machine


async def watch_then(app: Any, client: httpx.AsyncClient, path: str, params: dict[str, Any], headers: dict[str, str],
                     revoke: Callable[[], Awaitable[None]]) -> tuple[list[dict[str, Any]], float]:
    """Open the stream, revoke once it runs, and how long after the revocation it ended."""
    loop = asyncio.get_running_loop()
    watching = asyncio.create_task(client.get(path, params={"timeout": ASKED_SECONDS, **params}, headers=headers))
    await until(lambda: streams_started(app.state.store) == 1, what="the stream to have its start")
    await revoke()
    revoked_at = loop.time()
    response = await asyncio.wait_for(watching, ASKED_SECONDS + 5)
    assert response.status_code == 200, response.text
    return parse_sse(response.text), loop.time() - revoked_at


async def bot_token(table: Table, power: str) -> dict[str, Any]:
    issued = await table.client.post(f"/games/{table.game_id}/bot-tokens", headers=table.player(power),
                                     json={"label": "relay"})
    assert issued.status_code == 201, issued.text
    return issued.json()


async def test_a_revoked_bot_token_closes_its_stream(social_any) -> None:
    app, client = social_any
    table = await started_table(client)
    bot = await bot_token(table, "FRANCE")

    async def revoke() -> None:
        response = await client.delete(f"/games/{table.game_id}/bot-tokens/{bot['token_id']}",
                                       headers=table.player("FRANCE"))
        assert response.status_code == 204

    events, took = await watch_then(app, client, f"/games/{table.game_id}/stream", {}, bearer(bot["token"]), revoke)
    assert events[0]["event"] == "view" and events[0]["data"]["viewer"]["power"] == "FRANCE"
    assert events[-1] == {"id": None, "event": "closed", "data": {"reason": "credential_revoked"}}
    assert took < CLOSED_WITHIN
    again = await client.get(f"/games/{table.game_id}/stream", params={"timeout": 0.1}, headers=bearer(bot["token"]))
    assert again.status_code == 401


async def test_a_ticket_of_a_bot_token_stops_with_the_token(social_any) -> None:
    app, client = social_any
    table = await started_table(client)
    bot = await bot_token(table, "ITALY")
    ticket = (await client.post(f"/games/{table.game_id}/stream-ticket", headers=bearer(bot["token"]))).json()

    async def revoke() -> None:
        response = await client.delete(f"/games/{table.game_id}/bot-tokens/{bot['token_id']}",
                                       headers=table.player("ITALY"))
        assert response.status_code == 204

    events, took = await watch_then(app, client, f"/games/{table.game_id}/stream", {"ticket": ticket["ticket"]}, {},
                                    revoke)
    assert events[0]["data"]["viewer"]["power"] == "ITALY"
    assert events[-1]["event"] == "closed" and events[-1]["data"] == {"reason": "credential_revoked"}
    assert took < CLOSED_WITHIN


async def test_logging_out_closes_the_session_s_streams(social_any, provider, provider_url) -> None:
    app, client = social_any
    table = await account_table(client, app, provider, provider_url, prefix="logout")
    session = table.tokens["GERMANY"]  # the account's session token plays the seat

    async def log_out() -> None:
        response = await client.post("/auth/logout", headers=bearer(session))
        assert response.status_code == 204

    events, took = await watch_then(app, client, f"/games/{table.game_id}/stream", {}, bearer(session), log_out)
    assert events[0]["data"]["viewer"]["power"] == "GERMANY"
    assert events[-1]["data"] == {"reason": "credential_revoked"}
    assert took < CLOSED_WITHIN
    # the seat's own token still works, and its stream runs to its end
    seat = table.accounts["GERMANY"]["seat_token"]
    kept = await client.get(f"/games/{table.game_id}/stream", params={"timeout": 2.5}, headers=bearer(seat))
    assert kept.status_code == 200 and of_kind(parse_sse(kept.text), "closed") == []


async def test_a_credential_still_valid_keeps_its_stream_open(social_any) -> None:
    app, client = social_any
    table = await started_table(client)
    bot = await bot_token(table, "TURKEY")
    other = await bot_token(table, "TURKEY")

    async def revoke_the_other() -> None:
        response = await client.delete(f"/games/{table.game_id}/bot-tokens/{other['token_id']}",
                                       headers=table.player("TURKEY"))
        assert response.status_code == 204

    loop = asyncio.get_running_loop()
    started = loop.time()
    watching = asyncio.create_task(client.get(f"/games/{table.game_id}/stream", params={"timeout": 4.5},
                                              headers=bearer(bot["token"])))
    await until(lambda: streams_started(app.state.store) == 1, what="the stream to have its start")
    await revoke_the_other()
    await table.order_ok("TURKEY", ["A CON - BUL"])
    events = parse_sse((await watching).text)
    assert loop.time() - started >= 4.4  # ran to its timeout: two checks at least passed it
    assert of_kind(events, "closed") == []
    assert of_kind(events, "view")[-1]["data"]["orders"] == {"TURKEY": ["A CON - BUL"]}
