"""Taking a seat with an account or bot token: one seat per account and game, even when two
joins race, the seat linked in the join's own transaction, and no seat for a bot token."""
from __future__ import annotations

import asyncio

from tests.utils.http import OPERATOR, bearer, sign_in
from tests.utils.oauth_provider import LocalProvider


async def _event_types(client, game_id: str) -> list[str]:
    events = await client.get(f"/games/{game_id}/events", headers=OPERATOR)
    assert events.status_code == 200, events.text
    return [line for line in events.text.splitlines() if line.strip()]


async def test_a_bot_token_cannot_take_a_seat(social) -> None:
    _, client = social
    created = (await client.post("/games", json={"name": "No bots at the door"})).json()
    game_id = created["id"]
    seat = (await client.post(f"/games/{game_id}/players")).json()
    issued = await client.post(f"/games/{game_id}/bot-tokens", headers=bearer(seat["token"]))
    assert issued.status_code == 201, issued.text
    before = await _event_types(client, game_id)
    refused = await client.post(f"/games/{game_id}/players", headers=bearer(issued.json()["token"]))
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "out_of_scope"
    assert "token" not in refused.json()
    assert await _event_types(client, game_id) == before
    assert (await client.get(f"/games/{game_id}")).json()["players"] == 1


async def test_two_racing_joins_of_one_account_give_one_seat_and_one_conflict(
        social_any, provider: LocalProvider, provider_url: str) -> None:
    app, client = social_any
    provider.add_user("2001", "racer")
    account = await sign_in(app, provider_url, "2001")
    mine = bearer(account["token"])
    game_id = (await client.post("/games", json={"name": "Race to the table"})).json()["id"]
    first, second = await asyncio.gather(client.post(f"/games/{game_id}/players", headers=mine),
                                         client.post(f"/games/{game_id}/players", headers=mine))
    assert sorted((first.status_code, second.status_code)) == [201, 409], (first.text, second.text)
    won, lost = (first, second) if first.status_code == 201 else (second, first)
    assert lost.json()["error"]["code"] == "already_seated"
    assert (await client.get(f"/games/{game_id}")).json()["players"] == 1
    listed = (await client.get("/me/games", headers=mine)).json()["games"]
    assert [(g["game_id"], g["player_id"]) for g in listed] == [(game_id, won.json()["player_id"])]
