"""Against seat squatting (docs/hosting.md, "Private games", "Removing a seat"), on both back ends:
a private game is left out of the lobby's list and joined only with its invite code; the host
frees a seat before the start, the freed token plays nothing and the place is taken again; every
refusal is a 4xx with the error body and writes nothing."""
from __future__ import annotations

import json
from typing import Any

import httpx

from tests.utils.http import OPERATOR, bearer, sign_in
from tests.utils.oauth_provider import LocalProvider


async def event_types(client: httpx.AsyncClient, game_id: str) -> list[str]:
    events = await client.get(f"/games/{game_id}/events", headers=OPERATOR)
    assert events.status_code == 200, events.text
    return [json.loads(line)["type"] for line in events.text.splitlines() if line.strip()]


def refused(response: httpx.Response, status: int, code: str, where: str | None = None) -> None:
    assert response.status_code == status, response.text
    error = response.json()["error"]
    assert error["code"] == code and error.get("where") == where, error
    assert "token" not in response.json()


async def test_a_private_game_is_unlisted_and_joined_only_with_its_invite_code(client: httpx.AsyncClient) -> None:
    public = (await client.post("/games", json={"name": "Open table"})).json()
    made = await client.post("/games", json={"name": "Friends only", "settings": {"private": True}})
    assert made.status_code == 201, made.text
    private = made.json()
    assert public["invite_code"] is None and len(private["invite_code"]) >= 20
    assert private["settings"]["private"] is True
    # the lobby's list: not there for anyone but the operator, whatever the filters and pages
    for params in ({}, {"status": "forming"}, {"variant": "standard"}, {"limit": 1}):
        listed = (await client.get("/games", params=params)).json()["games"]
        assert private["id"] not in [g["id"] for g in listed], params
    assert [g["id"] for g in (await client.get("/games")).json()["games"]] == [public["id"]]
    assert {g["id"] for g in (await client.get("/games", headers=OPERATOR)).json()["games"]} == \
        {public["id"], private["id"]}
    host_list = (await client.get("/games", headers=bearer(private["host_token"]))).json()["games"]
    assert [g["id"] for g in host_list] == [public["id"]]
    # joining: no code, a wrong one, the public game's (none), then the right one
    before = await event_types(client, private["id"])
    url = f"/games/{private['id']}/players"
    refused(await client.post(url), 403, "invite_required", "body.invite_code")
    refused(await client.post(url, json={}), 403, "invite_required", "body.invite_code")
    refused(await client.post(url, json={"invite_code": "guessed-code"}), 403, "invalid_invite_code",
            "body.invite_code")
    refused(await client.post(url, json={"invite_code": 12345}), 422, "invalid_request", "body.invite_code")
    assert await event_types(client, private["id"]) == before
    assert (await client.get(f"/games/{private['id']}")).json()["players"] == 0
    joined = await client.post(url, json={"invite_code": private["invite_code"]})
    assert joined.status_code == 201, joined.text
    # a public game needs none, and ignores one
    assert (await client.post(f"/games/{public['id']}/players")).status_code == 201
    assert (await client.post(f"/games/{public['id']}/players", json={"invite_code": "x"})).status_code == 201
    # the code is stored only as a hash: never in the log, a summary or a view
    readings = [await client.get(f"/games/{private['id']}/events", headers=OPERATOR),
                await client.get(f"/games/{private['id']}"), await client.get(f"/games/{private['id']}/view"),
                await client.get(f"/games/{private['id']}/view", headers=bearer(private["host_token"])),
                await client.get(f"/games/{private['id']}/view", headers=bearer(joined.json()["token"])),
                await client.get("/games", headers=OPERATOR)]
    for reading in readings:
        assert reading.status_code == 200, reading.text
        assert private["invite_code"] not in reading.text


async def test_the_host_removes_a_seat_before_the_start_and_the_place_is_taken_again(
        client: httpx.AsyncClient) -> None:
    created = (await client.post("/games", json={"name": "Squatted", "settings": {"require_ready": True}})).json()
    game_id, host = created["id"], bearer(created["host_token"])
    seats = [(await client.post(f"/games/{game_id}/players")).json() for _ in range(7)]
    squatter, other = seats[0], seats[1]
    assert (await client.get(f"/games/{game_id}/view", headers=bearer(squatter["token"]))).status_code == 200
    before = await event_types(client, game_id)
    # refusals: a player is not the host, an unknown seat, a seat of nobody; nothing written
    refused(await client.delete(f"/games/{game_id}/players/{squatter['codename']}", headers=bearer(other["token"])),
            403, "wrong_role", "header.authorization")
    refused(await client.delete(f"/games/{game_id}/players/{squatter['codename']}"), 401, "token_required",
            "header.authorization")
    refused(await client.delete(f"/games/{game_id}/players/Nobody%20Here", headers=host), 404, "seat_not_found",
            "path.seat")
    assert await event_types(client, game_id) == before
    # the host names the seat by its codename, as the summary lists it (any case)
    removed = await client.delete(f"/games/{game_id}/players/{squatter['codename'].upper()}", headers=host)
    assert removed.status_code == 200, removed.text
    summary = removed.json()
    assert summary["players"] == 6 and squatter["codename"] not in summary["codenames"]
    assert (await event_types(client, game_id))[-1] == "SeatRemoved"
    events = (await client.get(f"/games/{game_id}/events", headers=OPERATOR)).text.splitlines()
    assert '"actor": "host"' in events[-1] or '"actor":"host"' in events[-1]
    # the removed token plays nothing: not a player of this game any more
    view = await client.get(f"/games/{game_id}/view", headers=bearer(squatter["token"]))
    assert view.status_code == 401, view.text
    refused(await client.post(f"/games/{game_id}/start", headers=host), 409, "not_enough_players")
    # the operator may remove too, by player id
    by_operator = await client.delete(f"/games/{game_id}/players/{other['player_id']}", headers=OPERATOR)
    assert by_operator.status_code == 200 and by_operator.json()["players"] == 5
    for _ in range(2):
        assert (await client.post(f"/games/{game_id}/players")).status_code == 201
    started = await client.post(f"/games/{game_id}/start", headers=host)
    assert started.status_code == 200, started.text
    assert len(started.json()["powers"]) == 7
    # once started, no seat is removed
    refused(await client.delete(f"/games/{game_id}/players/{seats[2]['codename']}", headers=host), 409,
            "game_started")


async def test_an_account_whose_seat_was_removed_cannot_take_another(
        social_any: Any, provider: LocalProvider, provider_url: str) -> None:
    app, client = social_any
    provider.add_user("3001", "squatter")
    account = bearer((await sign_in(app, provider_url, "3001"))["token"])
    created = (await client.post("/games", json={"name": "No return"})).json()
    game_id = created["id"]
    seat = (await client.post(f"/games/{game_id}/players", headers=account)).json()
    assert (await client.delete(f"/games/{game_id}/players/{seat['player_id']}",
                                headers=bearer(created["host_token"]))).status_code == 200
    refused(await client.post(f"/games/{game_id}/players", headers=account), 403, "seat_removed")
    assert (await client.get("/me/games", headers=account)).json()["games"] == []
    assert (await client.get(f"/games/{game_id}")).json()["players"] == 0
