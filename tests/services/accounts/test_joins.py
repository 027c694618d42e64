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


async def test_the_host_seats_a_bot_by_taking_a_seat_not_by_minting_for_others(social) -> None:
    """docs/bots.md, "Connecting a bot": a bot token is minted by the seat it plays. The host's
    token mints none (403 wrong_role, saying how to do it instead) and nothing is written; the
    host who takes a seat mints one with that seat's token."""
    _, client = social
    created = (await client.post("/games", json={"name": "The host brings a bot"})).json()
    game_id, host = created["id"], bearer(created["host_token"])
    before = await _event_types(client, game_id)
    refused = await client.post(f"/games/{game_id}/bot-tokens", headers=host, json={"label": "host's bot"})
    assert refused.status_code == 403, refused.text
    error = refused.json()["error"]
    assert error["code"] == "wrong_role" and "take a seat" in error["message"] and "token" not in refused.json()
    assert await _event_types(client, game_id) == before
    assert (await client.get(f"/games/{game_id}/bot-tokens", headers=host)).status_code == 403
    seat = (await client.post(f"/games/{game_id}/players")).json()  # the host takes a seat like anyone
    minted = await client.post(f"/games/{game_id}/bot-tokens", headers=bearer(seat["token"]), json={"label": "b"})
    assert minted.status_code == 201 and minted.json()["token"].startswith(f"b.{game_id}.")
