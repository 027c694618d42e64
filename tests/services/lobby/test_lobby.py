"""The lobby on its own app: create, list, join, start; powers drawn from the stored seed."""
from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest

from services.lobby.api import create_app as create_lobby_app
from services.lobby.service import draw_seats
from shared.events import DeadlineSet, GameStarted, from_recorded
from shared.store import open_store
from tests.utils.http import OPERATOR, POWERS, bearer, running_client


@pytest.fixture
async def lobby(store_url: str) -> AsyncIterator[httpx.AsyncClient]:
    async with running_client(store_url, create_lobby_app) as client:
        yield client


async def create(lobby: httpx.AsyncClient, **body) -> dict:
    response = await lobby.post("/games", json={"name": "Friday game", **body})
    assert response.status_code == 201, response.text
    return response.json()


async def test_create_and_list(lobby: httpx.AsyncClient) -> None:
    created = await create(lobby, settings={"edition": "2023"})
    assert created["id"].startswith("g_") and len(created["host_token"]) >= 32
    assert created["status"] == "forming" and created["phase"] is None
    assert {k: created["settings"][k] for k in ("player_count", "edition")} == {"player_count": 7, "edition": "2023"}
    other = await create(lobby, name="Other")
    listed = (await lobby.get("/games")).json()["games"]
    assert {g["id"] for g in listed} == {created["id"], other["id"]}
    assert all("host_token" not in g for g in listed)
    assert (await lobby.get("/games", params={"status": "active"})).json()["games"] == []
    summary = (await lobby.get(f"/games/{created['id']}")).json()
    assert summary["name"] == "Friday game" and summary["players"] == 0


async def test_join_seven_with_unique_codenames_then_full(lobby: httpx.AsyncClient) -> None:
    game = await create(lobby)
    seats = []
    for _ in range(7):
        response = await lobby.post(f"/games/{game['id']}/players")
        assert response.status_code == 201
        seats.append(response.json())
    assert len({s["codename"] for s in seats}) == 7
    assert len({s["player_id"] for s in seats}) == 7 and len({s["token"] for s in seats}) == 7
    assert all(len(s["codename"].split()) == 2 for s in seats)
    full = await lobby.post(f"/games/{game['id']}/players")
    assert full.status_code == 409 and full.json()["error"]["code"] == "game_full"
    summary = (await lobby.get(f"/games/{game['id']}")).json()
    # sorted, never in join order
    assert summary["codenames"] == sorted(s["codename"] for s in seats)
    text = str(summary)
    assert not any(s["token"] in text or s["player_id"] in text for s in seats)


async def test_start_draws_powers_from_the_stored_seed(lobby: httpx.AsyncClient, store_url: str) -> None:
    game = await create(lobby)
    host = bearer(game["host_token"])
    too_early = await lobby.post(f"/games/{game['id']}/start", headers=host)
    assert too_early.status_code == 409 and too_early.json()["error"]["code"] == "not_enough_players"
    seats = [(await lobby.post(f"/games/{game['id']}/players")).json() for _ in range(7)]
    started = await lobby.post(f"/games/{game['id']}/start", headers=host)
    assert started.status_code == 200
    summary = started.json()
    assert summary["status"] == "active" and summary["phase"] == "S1901M"
    assert sorted(summary["powers"]) == list(POWERS)
    assert summary["must_act"] == list(POWERS)
    again = await lobby.post(f"/games/{game['id']}/start", headers=host)
    assert again.status_code == 409 and again.json()["error"]["code"] == "game_started"

    store = await open_store(store_url)
    try:
        records = await store.events.read_stream(f"game-{game['id']}")
    finally:
        await store.close()
    started_event = from_recorded(records[-2])
    assert isinstance(from_recorded(records[-1]), DeadlineSet)
    assert isinstance(started_event, GameStarted)
    seed, powers = started_event.seed, started_event.powers
    assert powers == draw_seats(seed, [s["player_id"] for s in seats], [[p] for p in POWERS])
    by_codename = {s["codename"]: powers[s["player_id"]][0] for s in seats}
    assert {p: v["codename"] for p, v in summary["powers"].items()} == {v: k for k, v in by_codename.items()}
    listed = (await lobby.get("/games", params={"status": "active"})).json()["games"]
    assert [g["id"] for g in listed] == [game["id"]]


def test_drawn_seats_are_a_function_of_the_seed() -> None:
    players = [f"p{i}" for i in range(7)]
    seats = [[p] for p in POWERS]
    first = draw_seats(12345, players, seats)
    assert first == draw_seats(12345, players, list(reversed(seats)))
    assert sorted(power for [power] in first.values()) == list(POWERS)
    assert any(draw_seats(seed, players, seats) != first for seed in range(5))


async def test_unsupported_settings_are_refused(lobby: httpx.AsyncClient) -> None:
    response = await lobby.post("/games", json={"name": "x", "settings": {"player_count": 1}})
    assert response.status_code == 422
    assert response.json()["error"]["where"] == "body.settings.player_count"
    assert (await lobby.get("/games")).json()["games"] == []


async def test_a_forming_game_the_operator_finished_answers_game_finished_not_game_started(store_url: str) -> None:
    async with running_client(store_url) as client:
        created = (await client.post("/games", json={"name": "Called off"})).json()
        url = f"/games/{created['id']}"
        assert (await client.post(f"{url}/players")).status_code == 201
        finished = await client.post(f"{url}/finish", json={"reason": "abandoned"}, headers=OPERATOR)
        assert finished.status_code == 200, finished.text
        joining = await client.post(f"{url}/players")
        starting = await client.post(f"{url}/start", headers=bearer(created["host_token"]))
        for refused in (joining, starting):
            assert refused.status_code == 409, refused.text
            assert refused.json()["error"]["code"] == "game_finished"
        assert (await client.get(url)).json()["players"] == 1  # nothing was written


async def test_a_seated_players_view_of_a_forming_game_says_player_with_the_codename(store_url: str) -> None:
    async with running_client(store_url) as client:
        created = (await client.post("/games", json={"name": "Forming"})).json()
        seat = (await client.post(f"/games/{created['id']}/players")).json()
        viewer = (await client.get(f"/games/{created['id']}/view", headers=bearer(seat["token"]))).json()["viewer"]
        assert viewer == {"kind": "player", "power": None, "codename": seat["codename"], "powers": []}
        public = (await client.get(f"/games/{created['id']}/view")).json()["viewer"]
        assert public == {"kind": "public", "power": None, "codename": None, "powers": []}
