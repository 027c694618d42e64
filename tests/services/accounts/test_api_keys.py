"""An account's API keys (docs/social.md, "API keys"): one bot identity across every game of the
account, finding what it owes from one list; scoped (it plays, it cannot manage), revocable,
listed."""
from __future__ import annotations

from typing import Any

import httpx

from tests.utils.http import bearer, sign_in
from tests.utils.oauth_provider import LocalProvider


async def hosted(client: httpx.AsyncClient, **settings: Any) -> tuple[str, str]:
    created = await client.post("/games", json={"name": "Bots welcome", "settings": {"player_count": 2, **settings}})
    assert created.status_code == 201, created.text
    return created.json()["id"], created.json()["host_token"]


async def test_one_key_finds_and_plays_its_seats_in_two_games(social, provider: LocalProvider,
                                                              provider_url: str) -> None:
    app, client = social
    provider.add_user("2001", "bot-author")
    session = (await sign_in(app, provider_url, "2001"))["token"]
    made = await client.post("/me/api-keys", json={"label": "my bot"}, headers=bearer(session))
    assert made.status_code == 201, made.text
    key, key_id = made.json()["key"], made.json()["key_id"]
    assert key.startswith("k.") and made.json()["label"] == "my bot"
    listed = (await client.get("/me/api-keys", headers=bearer(session))).json()
    assert listed == {"api_keys": [{"key_id": key_id, "label": "my bot"}]}  # never the key itself

    welcome, welcome_host = await hosted(client, bots_may_join=True)
    closed, closed_host = await hosted(client)
    assert (await client.post(f"/games/{welcome}/players", headers=bearer(key))).status_code == 201
    refused = await client.post(f"/games/{closed}/players", headers=bearer(key))
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "bots_not_allowed"
    assert (await client.post(f"/games/{closed}/players", headers=bearer(session))).status_code == 201
    for game, host in ((welcome, welcome_host), (closed, closed_host)):
        assert (await client.post(f"/games/{game}/players")).status_code == 201
        assert (await client.post(f"/games/{game}/start", headers=bearer(host))).status_code == 200

    seats = (await client.get("/me/games", headers=bearer(key))).json()["games"]
    assert sorted(s["game_id"] for s in seats) == sorted([welcome, closed])
    for seat in seats:
        assert seat["status"] == "active" and seat["deadline"] and seat["must_act"] == seat["powers"]
        assert seat["waiting_for"] == seat["powers"] and seat["submitted"] == []
        for power in seat["waiting_for"]:  # what it owes, ordered with the one key
            put = await client.put(f"/games/{seat['game_id']}/orders", json={"orders": [], "power": power},
                                   headers=bearer(key))
            assert put.status_code == 200, put.text
    after = (await client.get("/me/games", headers=bearer(key))).json()["games"]
    assert all(s["waiting_for"] == [] and s["submitted"] == s["powers"] for s in after)


async def test_a_key_plays_but_cannot_manage_and_a_revoked_key_stops_at_once(social, provider: LocalProvider,
                                                                             provider_url: str) -> None:
    app, client = social
    provider.add_user("2002", "careful")
    session = (await sign_in(app, provider_url, "2002"))["token"]
    key_id, key = (lambda body: (body["key_id"], body["key"]))(
        (await client.post("/me/api-keys", headers=bearer(session))).json())
    assert (await client.get("/me", headers=bearer(key))).status_code == 200
    for method, path in (("POST", "/me/api-keys"), ("GET", "/me/api-keys"),
                         ("DELETE", f"/me/api-keys/{key_id}"), ("POST", "/auth/logout")):
        answer = await client.request(method, path, headers=bearer(key))
        assert answer.status_code == 403 and answer.json()["error"]["code"] == "session_required", (method, path)
    game, _ = await hosted(client, bots_may_join=True)
    assert (await client.post(f"/games/{game}/players", headers=bearer(key))).status_code == 201
    minted = await client.post(f"/games/{game}/bot-tokens", headers=bearer(key))
    assert minted.status_code == 403 and minted.json()["error"]["code"] == "wrong_role"

    assert (await client.delete(f"/me/api-keys/{key_id}", headers=bearer(session))).status_code == 204
    gone = await client.get("/me/games", headers=bearer(key))
    assert gone.status_code == 401 and gone.json()["error"]["code"] == "invalid_token"
    again = await client.delete(f"/me/api-keys/{key_id}", headers=bearer(session))
    assert again.status_code == 404 and again.json()["error"]["code"] == "api_key_not_found"
    assert (await client.get("/me/api-keys", headers=bearer(session))).json() == {"api_keys": []}
    assert (await client.get("/me/games", headers=bearer(session))).status_code == 200  # the session stays


async def test_an_account_holds_at_most_ten_keys(social, provider: LocalProvider, provider_url: str) -> None:
    app, client = social
    provider.add_user("2003", "many")
    session = (await sign_in(app, provider_url, "2003"))["token"]
    for _ in range(10):
        assert (await client.post("/me/api-keys", headers=bearer(session))).status_code == 201
    over = await client.post("/me/api-keys", headers=bearer(session))
    assert over.status_code == 409 and over.json()["error"]["code"] == "too_many_api_keys"
    forged = await client.get("/me", headers=bearer("k.a_0123456789abcdef.not-a-key"))
    assert forged.status_code == 401
