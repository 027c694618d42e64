"""A token that the store does not know is 401 ``invalid_token`` wherever it is presented,
whatever it claims to be; 403 ``out_of_scope`` is for a real bot token used outside its seat's
game (docs/social.md, "Bot tokens")."""
from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from tests.utils.http import Table, bearer, running_client, started_table


@pytest.fixture
async def tables(store_url: str) -> AsyncIterator[tuple[Table, Table]]:
    async with running_client(store_url) as client:
        yield await started_table(client), await started_table(client)


async def test_unknown_bot_and_session_tokens_are_401_everywhere(tables: tuple[Table, Table]) -> None:
    table, other = tables
    client = table.client
    issued = await client.post(f"/games/{table.game_id}/bot-tokens", headers=table.player("FRANCE"), json={})
    assert issued.status_code == 201, issued.text
    real = bearer(issued.json()["token"])
    game = f"/games/{table.game_id}"
    forged = ["b.g_fake.zzzz", f"b.{table.game_id}.zzzz", f"b.{other.game_id}.zzzz", "b.g_" + "x" * 200 + ".z",
              "b.nonsense", "s.a_fake.zzzz", "s.nonsense"]
    requests = [("GET", f"{game}/view"), ("PUT", f"{game}/orders"), ("POST", f"{game}/players"),
                ("GET", "/me"), ("GET", "/me/games"), ("GET", f"/games/{other.game_id}/view"),
                ("POST", f"{game}/messages")]
    for token in forged:
        for method, path in requests:
            body: dict[str, Any] = {"orders": []} if path.endswith("orders") else {"to": "all", "text": "hi"}
            response = await client.request(method, path, headers=bearer(token),
                                            json=body if method != "GET" else None)
            assert response.status_code == 401, (token, method, path, response.text)
            assert response.json()["error"]["code"] == "invalid_token", (token, path)
            assert response.headers.get("www-authenticate") == "Bearer"
    # a real bot token outside its game, or taking a seat, is out of scope
    for method, path in (("GET", f"/games/{other.game_id}/view"), ("POST", f"{game}/players"), ("GET", "/me")):
        response = await client.request(method, path, headers=real)
        assert response.status_code == 403 and response.json()["error"]["code"] == "out_of_scope", path
    assert (await client.get(f"{game}/view", headers=real)).json()["viewer"]["power"] == "FRANCE"
    revoked = await client.delete(f"{game}/bot-tokens/{issued.json()['token_id']}", headers=table.player("FRANCE"))
    assert revoked.status_code == 204
    for method, path in (("GET", f"/games/{other.game_id}/view"), ("GET", f"{game}/view"), ("GET", "/me")):
        response = await client.request(method, path, headers=real)
        assert response.status_code == 401 and response.json()["error"]["code"] == "invalid_token", path
