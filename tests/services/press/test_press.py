"""Press: who reads what, and what gunboat and public-only games refuse (nothing written)."""
from __future__ import annotations

import dataclasses
from datetime import datetime
from typing import Any

import httpx
import pytest

from services.press.service import check_message
from shared.errors import Conflict
from shared.events import game_stream
from shared.game.repository import fold_records
from shared.rules.bots.reading import holdings
from shared.store import open_store
from tests.utils.http import OPERATOR, Host, Table, bearer, seated_table, started_table


async def send(table: Table, power: str, to: Any, text: str = "hello") -> httpx.Response:
    return await table.client.post(f"/games/{table.game_id}/messages", headers=table.player(power),
                                   json={"to": to, "text": text})


async def texts(table: Table, headers: dict[str, str] | None = None) -> list[str]:
    response = await table.client.get(f"/games/{table.game_id}/messages", headers=headers or {})
    assert response.status_code == 200, response.text
    return [m["text"] for m in response.json()["messages"]]


async def test_private_messages_reach_their_participants_only(social) -> None:
    _, client = social
    table = await started_table(client)
    public = await send(table, "ENGLAND", "all", "peace in our time")
    assert public.status_code == 201, public.text
    assert public.json()["from"] == {"power": "ENGLAND", "codename": table.codenames["ENGLAND"]}
    assert public.json()["to"] == "all"
    secret = await send(table, "FRANCE", ["germany", "ITALY"], "let us split Austria")
    assert secret.status_code == 201 and secret.json()["to"] == ["GERMANY", "ITALY"]
    for power in ("FRANCE", "GERMANY", "ITALY"):
        assert await texts(table, table.player(power)) == ["peace in our time", "let us split Austria"]
    for power in ("AUSTRIA", "ENGLAND", "RUSSIA", "TURKEY"):
        assert await texts(table, table.player(power)) == ["peace in our time"]
    assert await texts(table) == ["peace in our time"]
    assert await texts(table, table.host) == ["peace in our time"]
    assert await texts(table, OPERATOR) == ["peace in our time", "let us split Austria"]
    after = public.json()["position"]
    later = (await client.get(f"/games/{table.game_id}/messages", params={"after": after},
                              headers=table.player("GERMANY"))).json()["messages"]
    assert [m["text"] for m in later] == ["let us split Austria"]
    body = (await client.get(f"/games/{table.game_id}/messages", headers=table.player("ITALY"))).text
    assert all(token not in body for token in table.tokens.values())


@pytest.mark.parametrize("press, refused", [("none", ["all", ["GERMANY"]]), ("public", [["GERMANY"]])])
async def test_gunboat_and_public_only_games_refuse_and_write_nothing(social, press: str, refused: list) -> None:
    _, client = social
    table = await table_with(client, {"press": press})
    for to in refused:
        response = await send(table, "FRANCE", to)
        assert response.status_code == 403, response.text
        assert response.json()["error"]["code"] in ("press_disabled", "private_press_disabled")
    assert await texts(table, OPERATOR) == []
    if press == "public":
        assert (await send(table, "FRANCE", "all", "open diplomacy")).status_code == 201
        assert await texts(table, OPERATOR) == ["open diplomacy"]


async def test_bad_messages_are_refused_with_a_clear_error_and_nothing_written(social) -> None:
    _, client = social
    table = await started_table(client)
    other = await started_table(client)
    cases = [
        (await send(table, "FRANCE", ["ATLANTIS"]), 422, "unknown_power"),
        (await send(table, "FRANCE", ["FRANCE"]), 422, "no_recipient"),
        (await send(table, "FRANCE", "everyone"), 422, "invalid_request"),
        (await send(table, "FRANCE", "all", "   "), 422, "invalid_request"),
        (await send(table, "FRANCE", "all", "x" * 2001), 422, "invalid_request"),
        (await client.post(f"/games/{other.game_id}/messages", headers=table.player("FRANCE"),
                           json={"to": "all", "text": "wrong game"}), 401, "invalid_token"),
        (await client.post(f"/games/{table.game_id}/messages", json={"to": "all", "text": "who?"}),
         401, "token_required"),
        (await client.post(f"/games/{table.game_id}/messages", headers=table.host,
                           json={"to": "all", "text": "host"}), 403, "wrong_role"),
    ]
    for response, status, code in cases:
        assert response.status_code == status, response.text
        assert response.json()["error"]["code"] == code
    seated, joined = await seated_table(client)
    early = await client.post(f"/games/{seated.game_id}/messages", headers=bearer(joined[0]["token"]),
                              json={"to": "all", "text": "too early"})
    assert early.status_code == 409 and early.json()["error"]["code"] == "game_not_started"
    finished = await client.post(f"/games/{table.game_id}/finish", headers=OPERATOR, json={"reason": "draw"})
    assert finished.status_code == 200
    late = await send(table, "FRANCE", "all", "too late")
    assert late.status_code == 409 and late.json()["error"]["code"] == "game_finished"
    assert await texts(table, OPERATOR) == [] and await texts(other, OPERATOR) == []


async def test_a_power_that_is_out_cannot_send(sqlite_url: str, social) -> None:
    _, client = social
    table = await started_table(client)
    store = await open_store(sqlite_url)
    try:
        state = fold_records(await store.events.read_stream(game_stream(table.game_id)))
    finally:
        await store.close()
    position = dict(state.position or {})
    position["units"] = {**holdings(position, "units"), "ITALY": []}
    position["centers"] = {**holdings(position, "centers"), "ITALY": []}
    player_id = next(s.player_id for s in state.seats if s.codename == table.codenames["ITALY"])
    out = dataclasses.replace(state, position=position)
    with pytest.raises(Conflict) as refused:
        check_message(out, player_id, None, "all", "I am still here")
    assert refused.value.code == "power_eliminated"
    assert check_message(state, player_id, None, "all", "I am still here").sender == "ITALY"


async def table_with(client: httpx.AsyncClient, settings: dict[str, Any]) -> Table:
    created = await client.post("/games", json={"name": "Press game", "settings": settings})
    assert created.status_code == 201, created.text
    table = Table(client, created.json()["id"], created.json()["host_token"])
    seats = [(await client.post(f"/games/{table.game_id}/players")).json() for _ in range(7)]
    assert (await client.post(f"/games/{table.game_id}/start", headers=table.host)).status_code == 200
    for seat in seats:
        view = (await client.get(f"/games/{table.game_id}/view", headers=bearer(seat["token"]))).json()
        table.tokens[view["viewer"]["power"]] = seat["token"]
        table.codenames[view["viewer"]["power"]] = seat["codename"]
    return table


async def test_a_message_is_dated_by_the_apps_clock_not_the_wall_clock(host: Host) -> None:
    """``sent_at`` is the time the app keeps (the hand-moved clock here), as every deadline is."""
    game = await host.started(7)
    host.clock.advance(minutes=7, seconds=30)
    sent = await host.client.post(f"{game.url}/messages", headers=game.player("ENGLAND").auth,
                                  json={"to": "all", "text": "on the hour"})
    assert sent.status_code == 201, sent.text
    expected = host.clock.now()
    assert datetime.fromisoformat(sent.json()["sent_at"]) == expected
    listed = (await host.client.get(f"{game.url}/messages")).json()["messages"]
    assert [datetime.fromisoformat(m["sent_at"]) for m in listed] == [expected]
