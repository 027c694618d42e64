"""How many live streams one client may hold, and what a slow reader may hold
(docs/social.md, "Limits"): one stream too many is a 429 with Retry-After before anything is
opened, a stream that ends gives its place back, and a watcher that falls too far behind is
closed (it resumes with its last id) holding no more than its bound."""
from __future__ import annotations

import asyncio
from typing import Any

import httpx

from services.visibility.credential import Credential
from services.visibility.hub import Watcher, hub_for
from services.visibility.limits import limits_of
from shared.auth import PUBLIC
from tests.utils.http import OPERATOR, started_table

from .test_stream_hub import started, until


def watch(client: httpx.AsyncClient, game_id: str, headers: dict[str, str], seconds: float) -> asyncio.Task:
    return asyncio.create_task(client.get(f"/games/{game_id}/stream", params={"timeout": seconds}, headers=headers))


def assert_too_many(response: httpx.Response) -> None:
    assert response.status_code == 429, response.text
    assert response.json()["error"]["code"] == "too_many_streams"
    assert int(response.headers["retry-after"]) > 0


async def test_a_seat_holds_at_most_its_streams_and_gets_them_back_when_they_end(social_any: Any) -> None:
    app, client = social_any
    limits_of(app).per_viewer = 2
    table = await started_table(client)
    hub = hub_for(app.state.store)
    open_now = [watch(client, table.game_id, table.player("FRANCE"), 1.5) for _ in range(2)]
    await until(lambda: started(hub) == 2)
    refused = await client.get(f"/games/{table.game_id}/stream", params={"timeout": 1}, headers=table.player("FRANCE"))
    assert_too_many(refused)
    assert refused.json()["error"]["where"] == "header.authorization"
    assert started(hub) == 2  # nothing was opened for the refused one
    # another seat, the public and the operator are not this seat
    others = [watch(client, table.game_id, headers, 0.5) for headers in (table.player("ENGLAND"), {}, OPERATOR)]
    assert [r.status_code for r in await asyncio.gather(*others)] == [200, 200, 200]
    assert [r.status_code for r in await asyncio.gather(*open_now)] == [200, 200]
    again = await client.get(f"/games/{table.game_id}/stream", params={"timeout": 0.3}, headers=table.player("FRANCE"))
    assert again.status_code == 200
    assert limits_of(app).open == {}  # every place given back


async def test_one_address_holds_at_most_its_streams_the_operator_is_not_limited(social_any: Any) -> None:
    app, client = social_any
    limits_of(app).per_address = 3
    table = await started_table(client)
    hub = hub_for(app.state.store)
    open_now = [watch(client, table.game_id, headers, 1.5) for headers in ({}, {}, table.player("ITALY"))]
    await until(lambda: started(hub) == 3)
    assert_too_many(await client.get(f"/games/{table.game_id}/stream", params={"timeout": 1}))
    assert_too_many(await client.get(f"/games/{table.game_id}/stream", params={"timeout": 1},
                                     headers=table.player("TURKEY")))
    operator = await client.get(f"/games/{table.game_id}/stream", params={"timeout": 0.3}, headers=OPERATOR)
    assert operator.status_code == 200
    assert [r.status_code for r in await asyncio.gather(*open_now)] == [200, 200, 200]
    assert (await client.get(f"/games/{table.game_id}/stream", params={"timeout": 0.3})).status_code == 200


def a_watcher(bound: int) -> Watcher:
    watcher = Watcher("g_1", PUBLIC, None, Credential("public"), "hash", b"key")
    watcher.max_queued = bound
    return watcher


def test_a_watcher_that_falls_behind_is_closed_holding_no_more_than_its_bound() -> None:
    watcher = a_watcher(1000)
    watcher.push(b"x" * 600)
    assert watcher.take() == b"x" * 600  # being sent: still held until the connection takes it
    watcher.push(b"y" * 300)
    assert watcher.closed is None
    watcher.push(b"z" * 200)  # 600 being sent + 500 queued > 1000
    assert watcher.closed == "too_slow"
    assert watcher.take() == b""  # what was queued is dropped: the client resumes with its last id
    watcher.push(b"w" * 10)
    assert watcher.take() == b""  # a closed watcher queues nothing more


def test_what_the_connection_took_no_longer_counts() -> None:
    watcher = a_watcher(1000)
    for _ in range(5):
        watcher.push(b"x" * 600)
        assert watcher.take() == b"x" * 600
        watcher.sent()
    assert watcher.closed is None
