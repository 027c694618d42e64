"""The games list tells nothing that the public may not see (docs/api.md, "Identifiers that
reveal nothing"): a secret draw vote changes no game's ``updated_at``, its place in the list
or the list's cursor, while a public change (a phase resolved) moves the game to the front.
Both back ends."""
from __future__ import annotations

import httpx

from tests.utils.http import started_table


async def test_a_secret_vote_moves_nothing_in_the_public_list(client: httpx.AsyncClient) -> None:
    table = await started_table(client)
    other = (await client.post("/games", json={"name": "Changed later"})).json()["id"]  # in front of it
    before = (await client.get("/games", params={"limit": 1})).json()
    listed = {g["id"]: g for g in (await client.get("/games")).json()["games"]}
    assert before["games"][0]["id"] == other
    voted = await client.post(f"/games/{table.game_id}/draw", json={"vote": True}, headers=table.player("FRANCE"))
    assert voted.status_code == 200 and voted.json()["passed"] is False, voted.text
    after = (await client.get("/games", params={"limit": 1})).json()
    assert after == before  # the same first page, the same cursor
    again = {g["id"]: g for g in (await client.get("/games")).json()["games"]}
    assert again[table.game_id] == listed[table.game_id]  # updated_at included

    await table.resolve("S1901M")  # a public change: the game moves to the front, with a new time
    moved = (await client.get("/games", params={"limit": 1})).json()["games"][0]
    assert moved["id"] == table.game_id and moved["updated_at"] > listed[table.game_id]["updated_at"]
