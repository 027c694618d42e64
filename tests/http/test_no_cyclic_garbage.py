"""A request leaves no reference cycles behind in the server: what the app makes to answer it
is freed by reference counting when the answer is sent, not left for the cycle collector, so a
worker's memory between collections is the requests in flight (docs/rules/datc.md, "No cycles
left for the collector", says the same of the rules). Counted with the collector stopped, on the
requests players make most: orders written (accepted and refused), views, menus, the game.
(Not a body that is not JSON at all: FastAPI answers it by raising an error from the frame
that holds it, a cycle of its own making, 68 objects a request, which the collector's youngest
generation takes; the body gate leaves such bodies to it, docs/api.md, "Bad input".)

The app is called as the HTTP server calls it, one ASGI call a request: an HTTP client's own
objects (httpx's requests and responses refer to their streams and back) are not the server's."""
from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import pytest

from tests.utils.cycles import cycle_collector_off
from tests.utils.http import Table, asgi_request, bearer, running_app, settings_for, started_table


@pytest.fixture
async def served(sqlite_url: str) -> AsyncIterator[tuple[Any, Table]]:
    async with running_app(settings_for(sqlite_url)) as (app, client):
        yield app, await started_table(client)


async def test_the_common_requests_leave_nothing_for_the_cycle_collector(served: tuple[Any, Table]) -> None:
    app, table = served
    game, france = table.game_id, table.player("FRANCE")
    menu = (await table.client.get(f"/games/{game}/possible-orders", headers=france)).json()
    holds = [next(o for o in options if o.endswith(" H")) for options in menu["orders"].values()]
    as_json = {**france, "content-type": "application/json"}
    requests = {
        "PUT orders": ("PUT", f"/games/{game}/orders", json.dumps({"orders": holds}).encode(), as_json),
        "PUT refused orders": ("PUT", f"/games/{game}/orders", b'{"orders": ["A XXX - YYY"]}', as_json),
        "PUT with a forged token": ("PUT", f"/games/{game}/orders", b'{"orders": []}',
                                    {**bearer("forged"), "content-type": "application/json"}),
        "GET view": ("GET", f"/games/{game}/view", b"", france),
        "GET possible orders": ("GET", f"/games/{game}/possible-orders", b"", france),
        "GET game": ("GET", f"/games/{game}", b"", {}),
        "GET a game that is not there": ("GET", "/games/nope", b"", {}),
    }
    left: dict[str, int] = {}
    for name, (method, path, body, headers) in requests.items():
        for _ in range(3):  # the first answers fill this process's caches
            await asgi_request(app, method, path, body, headers)
        with cycle_collector_off() as collect:
            statuses = {(await asgi_request(app, method, path, body, headers))[0] for _ in range(20)}
            left[name] = collect()  # what only the collector could free, of what the requests made
        assert statuses <= {200, 400, 401, 404, 422}, (name, statuses)
    assert left == dict.fromkeys(requests, 0)
