"""Who may do what: 401 without a valid token, 403 with a token of the wrong kind."""
from __future__ import annotations

import httpx

from tests.utils.http import OPERATOR, Table, bearer, create_game, seated_table


def error_code(response: httpx.Response) -> str:
    return response.json()["error"]["code"]


async def test_start_needs_the_host(sqlite_client: httpx.AsyncClient) -> None:
    table, joined = await seated_table(sqlite_client)
    url = f"/games/{table.game_id}/start"
    assert (await sqlite_client.post(url)).status_code == 401
    assert (await sqlite_client.post(url, headers=bearer("not-a-token"))).status_code == 401
    assert (await sqlite_client.post(url, headers={"Authorization": "Basic abc"})).status_code == 401
    player = await sqlite_client.post(url, headers=bearer(joined[0]["token"]))
    assert player.status_code == 403 and error_code(player) == "wrong_role"
    other = await create_game(sqlite_client, name="Another")
    foreign_host = await sqlite_client.post(url, headers=bearer(other["host_token"]))
    assert foreign_host.status_code == 401
    assert (await sqlite_client.post(url, headers=table.host)).status_code == 200


async def test_orders_need_the_players_own_token(table: Table) -> None:
    url = f"/games/{table.game_id}/orders"
    body = {"orders": ["A PAR - BUR"]}
    assert (await table.client.put(url, json=body)).status_code == 401
    assert (await table.client.put(url, json=body, headers=table.host)).status_code == 403
    assert (await table.client.put(url, json=body, headers=OPERATOR)).status_code == 403
    # England cannot order France's army: the order is checked against England's units
    english = await table.client.put(url, json=body, headers=table.player("ENGLAND"))
    assert english.status_code == 422
    assert english.json()["error"]["details"][0]["reason"] == "A PAR is not yours"
    assert (await table.view("FRANCE"))["orders"] == {}


async def test_views_of_other_powers_are_refused(table: Table) -> None:
    await table.order_ok("FRANCE", ["A PAR - BUR"])
    url = f"/games/{table.game_id}/view"
    spy = await table.client.get(url, params={"power": "FRANCE"}, headers=table.player("ENGLAND"))
    assert spy.status_code == 403 and error_code(spy) == "not_your_power"
    public = await table.client.get(url, params={"power": "FRANCE"})
    assert public.status_code == 403
    host = await table.client.get(url, params={"power": "FRANCE"}, headers=table.host)
    assert host.status_code == 403
    assert (await table.client.get(url, headers=bearer("forged"))).status_code == 401
    operator = await table.client.get(url, params={"power": "FRANCE"}, headers=OPERATOR)
    assert operator.status_code == 200 and operator.json()["orders"] == {"FRANCE": ["A PAR - BUR"]}
    own = await table.client.get(url, params={"power": "FRANCE"}, headers=table.player("FRANCE"))
    assert own.status_code == 200 and own.json()["orders"] == {"FRANCE": ["A PAR - BUR"]}


async def test_resolve_events_and_possible_orders_roles(table: Table) -> None:
    game = f"/games/{table.game_id}"
    assert (await table.client.post(f"{game}/resolve")).status_code == 401
    assert (await table.client.post(f"{game}/resolve", headers=table.player("ITALY"))).status_code == 403
    assert (await table.client.get(f"{game}/events")).status_code == 401
    assert (await table.client.get(f"{game}/events", headers=table.host)).status_code == 403
    assert (await table.client.get(f"{game}/events", headers=table.player("ITALY"))).status_code == 403
    assert (await table.client.get(f"{game}/possible-orders")).status_code == 401
    assert (await table.client.get(f"{game}/possible-orders", headers=table.host)).status_code == 403
    possible = await table.client.get(f"{game}/possible-orders", headers=table.player("ITALY"))
    assert possible.status_code == 200
    assert "A VEN - TRI" in possible.json()["orders"]["VEN"]
    assert possible.json()["lacking"] == ["NAP", "ROM", "VEN"]
    resolved = await table.client.post(f"{game}/resolve", json={"phase": "S1901M"}, headers=OPERATOR)
    assert resolved.status_code == 200 and resolved.json()["next_phase"] == "F1901M"
