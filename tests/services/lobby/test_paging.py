"""Lists that grow: GET /games and GET /games/{id}/messages page with a cursor and a limit
(docs/api.md, "Lists that grow")."""
from __future__ import annotations

from datetime import datetime

import httpx

from tests.utils.http import started_table


async def test_the_games_list_pages_without_gaps_or_repeats(client: httpx.AsyncClient) -> None:
    made = [(await client.post("/games", json={"name": f"Game {n}"})).json()["id"] for n in range(7)]
    first = (await client.get("/games", params={"limit": 3})).json()
    assert len(first["games"]) == 3 and first["next_cursor"]
    seen = [g["id"] for g in first["games"]]
    cursor = first["next_cursor"]
    while cursor:
        page = (await client.get("/games", params={"limit": 3, "cursor": cursor})).json()
        seen += [g["id"] for g in page["games"]]
        cursor = page["next_cursor"]
    assert sorted(seen) == sorted(made) and len(seen) == len(set(seen)) == 7
    assert seen == [g["id"] for g in (await client.get("/games")).json()["games"]]  # one order, latest first
    assert (await client.get("/games", params={"limit": 7})).json()["next_cursor"] is None
    # a game that changes while a client pages moves to the front: never seen twice in the walk
    second = (await client.get("/games", params={"limit": 3, "cursor": first["next_cursor"]})).json()
    await client.post(f"/games/{second['games'][0]['id']}/players")
    rest = (await client.get("/games", params={"limit": 10, "cursor": second["next_cursor"]})).json()
    walked = [g["id"] for g in [*first["games"], *second["games"], *rest["games"]]]
    assert len(walked) == len(set(walked)) == 7
    # status filters page too; a cursor belongs to its own list
    forming = (await client.get("/games", params={"status": "forming", "limit": 2})).json()
    assert len(forming["games"]) == 2 and forming["next_cursor"]
    for cursor, status in ((forming["next_cursor"], "active"), ("not-a-cursor", None), ("e30", None)):
        params = {"cursor": cursor, **({"status": status} if status else {})}
        refused = await client.get("/games", params=params)
        assert refused.status_code == 400 and refused.json()["error"]["code"] == "invalid_cursor", refused.text
    assert (await client.get("/games", params={"limit": 0})).status_code == 422


async def test_messages_page_by_what_the_reader_sees(sqlite_client: httpx.AsyncClient) -> None:
    table = await started_table(sqlite_client)
    url = f"/games/{table.game_id}/messages"
    for n in range(5):
        sent = await sqlite_client.post(url, headers=table.player("FRANCE"), json={"to": "all", "text": f"public {n}"})
        assert sent.status_code == 201
        await sqlite_client.post(url, headers=table.player("ENGLAND"), json={"to": ["GERMANY"], "text": f"secret {n}"})
    texts, cursor, pages = [], None, 0
    while True:
        params = {"limit": 2, **({"cursor": cursor} if cursor else {})}
        page = (await sqlite_client.get(url, params=params, headers=table.player("ITALY"))).json()
        texts += [m["text"] for m in page["messages"]]
        cursor, pages = page["next_cursor"], pages + 1
        if not page["more"]:
            break
    assert texts == [f"public {n}" for n in range(5)] and pages == 3
    # the last cursor waits for what comes next
    empty = (await sqlite_client.get(url, params={"cursor": cursor}, headers=table.player("ITALY"))).json()
    assert empty == {"messages": [], "next_cursor": cursor, "more": False}
    await sqlite_client.post(url, headers=table.player("FRANCE"), json={"to": "all", "text": "later"})
    later = (await sqlite_client.get(url, params={"cursor": cursor}, headers=table.player("ITALY"))).json()
    assert [m["text"] for m in later["messages"]] == ["later"]
    # a cursor names a message its reader saw: Germany's cursor at a secret means nothing to Italy
    germany = (await sqlite_client.get(url, params={"limit": 2}, headers=table.player("GERMANY"))).json()
    assert [m["text"] for m in germany["messages"]] == ["public 0", "secret 0"]
    refused = await sqlite_client.get(url, params={"cursor": germany["next_cursor"]}, headers=table.player("ITALY"))
    assert refused.status_code == 400 and refused.json()["error"]["code"] == "invalid_cursor"
    assert "secret" not in refused.text
    await sqlite_client.post("/games", json={"name": "Another"})
    games_cursor = (await sqlite_client.get("/games", params={"limit": 1})).json()["next_cursor"]
    assert games_cursor
    wrong_list = await sqlite_client.get(url, params={"cursor": games_cursor})
    assert wrong_list.status_code == 400 and wrong_list.json()["error"]["code"] == "invalid_cursor"


async def test_the_games_list_filters_by_variant_and_says_when_each_game_changed(client: httpx.AsyncClient) -> None:
    standard = [(await client.post("/games", json={"name": f"Same name {n}"})).json()["id"] for n in range(3)]
    ekonia = [(await client.post("/games", json={"name": "Same name", "variant": "ekonia"})).json()["id"]
              for _ in range(2)]
    listed = (await client.get("/games", params={"variant": "ekonia"})).json()["games"]
    assert [g["id"] for g in listed] == ekonia[::-1] and {g["variant"] for g in listed} == {"ekonia"}
    stamps = [datetime.fromisoformat(g["updated_at"]) for g in listed]
    assert stamps == sorted(stamps, reverse=True) and all(s.tzinfo is not None for s in stamps)
    # the filter pages with the status filter, and its cursor belongs to it
    first = (await client.get("/games", params={"variant": "standard", "status": "forming", "limit": 2})).json()
    rest = (await client.get("/games", params={"variant": "standard", "status": "forming", "limit": 2,
                                               "cursor": first["next_cursor"]})).json()
    assert [g["id"] for g in first["games"] + rest["games"]] == standard[::-1] and rest["next_cursor"] is None
    other = await client.get("/games", params={"variant": "ekonia", "status": "forming",
                                               "cursor": first["next_cursor"]})
    assert other.status_code == 400 and other.json()["error"]["code"] == "invalid_cursor"
    unknown = await client.get("/games", params={"variant": "standrad"})
    assert unknown.status_code == 422 and unknown.json()["error"]["code"] == "unsupported_variant"
    assert unknown.json()["error"]["where"] == "query.variant"
    # the summary of one game is not a list's: no updated_at there
    assert (await client.get(f"/games/{standard[0]}")).json()["updated_at"] is None


async def test_the_games_list_filters_by_whether_bots_may_join(client: httpx.AsyncClient) -> None:
    """A bot author asks for the games a bot may take a seat in (docs/bots.md): the filter pages
    with the others, its cursor belongs to it, and a value that is not a boolean is a 422."""
    welcome = [(await client.post("/games", json={"name": f"Bots welcome {n}", "settings": {"bots_may_join": True}}
                                  )).json()["id"] for n in range(3)]
    people = [(await client.post("/games", json={"name": f"People only {n}"})).json()["id"] for n in range(2)]
    first = (await client.get("/games", params={"bots_may_join": "true", "limit": 2})).json()
    rest = (await client.get("/games", params={"bots_may_join": "true", "limit": 2,
                                               "cursor": first["next_cursor"]})).json()
    listed = first["games"] + rest["games"]
    assert [g["id"] for g in listed] == welcome[::-1] and rest["next_cursor"] is None
    assert all(g["settings"]["bots_may_join"] is True for g in listed)
    others = (await client.get("/games", params={"bots_may_join": "false", "status": "forming"})).json()["games"]
    assert [g["id"] for g in others] == people[::-1]
    every = {g["id"] for g in (await client.get("/games")).json()["games"]}
    assert set(welcome) | set(people) <= every  # without the filter: every game
    mixed = await client.get("/games", params={"bots_may_join": "false", "cursor": first["next_cursor"]})
    assert mixed.status_code == 400 and mixed.json()["error"]["code"] == "invalid_cursor"
    wrong = await client.get("/games", params={"bots_may_join": "perhaps"})
    assert wrong.status_code == 422 and wrong.json()["error"]["where"] == "query.bots_may_join", wrong.text
