"""Bad requests get a 4xx JSON body that says what and where, and write nothing."""
from __future__ import annotations

from typing import Any

import httpx

from tests.utils.http import OPERATOR, Table, bearer, seated_table, started_table


def error_of(response: httpx.Response, status: int) -> dict[str, Any]:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/json")
    return response.json()["error"]


async def all_events(client: httpx.AsyncClient) -> list[str]:
    """Every event of every game, through the operator's export."""
    games = (await client.get("/games", params={"limit": 500})).json()["games"]
    events: list[str] = []
    for game in games:
        response = await client.get(f"/games/{game['id']}/events", headers=OPERATOR)
        events.extend(response.text.splitlines())
    return events


async def test_malformed_and_mistyped_bodies(table: Table) -> None:
    client = table.client
    before = await all_events(client)
    malformed = await client.post("/games", content=b'{"name": "x",', headers={"content-type": "application/json"})
    assert error_of(malformed, 400)["code"] == "malformed_json"
    mistyped = error_of(await client.post("/games", json={"name": 5}), 422)
    assert mistyped["where"] == "body.name"
    assert error_of(await client.post("/games", json=[1, 2]), 422)["code"] == "invalid_request"
    assert error_of(await client.post("/games", json={"name": "x", "colour": "red"}), 422)["where"] == "body.colour"
    assert error_of(await client.post("/games", json={"name": "x" * 1_000_000}), 422)["where"] == "body.name"
    assert error_of(await client.post("/games", json={"name": "x", "variant": "chess"}), 422)["where"] == "body.variant"
    assert error_of(await client.post("/games", json={"name": "x", "settings": {"player_count": 1}}),
                    422)["where"] == "body.settings.player_count"
    assert error_of(await client.post("/games", json={"name": "x", "settings": {"edition": "1971"}}),
                    422)["where"] == "body.settings.edition"

    orders = f"/games/{table.game_id}/orders"
    france = table.player("FRANCE")
    assert error_of(await client.put(orders, json={"orders": "A PAR - BUR"}, headers=france),
                    422)["where"] == "body.orders"
    assert error_of(await client.put(orders, json={"orders": [1, 2]}, headers=france), 422)["where"] == "body.orders[0]"
    assert error_of(await client.put(orders, json={"orders": ["A PAR - BUR" * 10_000]}, headers=france),
                    422)["where"] == "body.orders[0]"
    assert error_of(await client.put(orders, json={"orders": ["A PAR H"] * 1000}, headers=france),
                    422)["where"] == "body.orders"
    assert error_of(await client.put(orders, content=b"\xff\xfe",
                                     headers={**france, "content-type": "application/json"}),
                    400)["code"] == "malformed_json"
    assert error_of(await client.put(orders, json=None, headers=france), 422)["where"] == "body"
    assert await all_events(client) == before


async def test_rejected_orders_say_what_and_write_nothing(table: Table) -> None:
    before = await table.events()
    response = await table.order("FRANCE", ["A LON - WAL", "A PAR - MOS", "F BRE - Atlantis"])
    error = error_of(response, 422)
    assert error["code"] == "orders_rejected" and error["where"] == "body.orders"
    reasons = [d["reason"] for d in error["details"]]
    assert reasons[0] == "F LON is not yours"
    assert "MOS" in reasons[1]
    assert error["details"][2]["word"] == "Atlantis"
    assert await table.events() == before

    mixed = await table.order("FRANCE", ["A PAR - BUR", "A MUN - BUR"])
    assert mixed.status_code == 200
    assert [o["status"] for o in mixed.json()["orders"]] == ["accepted", "rejected"]
    assert (await table.view("FRANCE"))["orders"] == {"FRANCE": ["A PAR - BUR"]}


async def test_unknown_games_and_routes(sqlite_client: httpx.AsyncClient) -> None:
    client = sqlite_client
    assert error_of(await client.get("/games/g_000000000000"), 404)["code"] == "game_not_found"
    assert error_of(await client.get("/games/" + "x" * 5000), 404)["code"] == "game_not_found"
    assert error_of(await client.put("/games/nope/orders", json={"orders": []}, headers=bearer("t")),
                    404)["where"] == "path.game_id"
    assert error_of(await client.post("/games/nope/players"), 404)["code"] == "game_not_found"
    assert error_of(await client.post("/games/nope/resolve", headers=OPERATOR), 404)["code"] == "game_not_found"
    assert error_of(await client.get("/games/nope/view"), 404)["code"] == "game_not_found"
    assert error_of(await client.get("/nowhere"), 404)["code"] == "not_found"
    assert error_of(await client.delete("/games"), 405)["code"] == "method_not_allowed"
    assert error_of(await client.get("/games", params={"limit": "many"}), 422)["where"] == "query.limit"


async def test_orders_outside_an_order_phase(sqlite_client: httpx.AsyncClient) -> None:
    client = sqlite_client
    table, joined = await seated_table(client)
    orders = f"/games/{table.game_id}/orders"
    before = await all_events(client)
    early = await client.put(orders, json={"orders": ["A PAR - BUR"]}, headers=bearer(joined[0]["token"]))
    assert error_of(early, 409)["code"] == "game_not_started"
    assert error_of(await client.post(f"/games/{table.game_id}/resolve", headers=OPERATOR),
                    409)["code"] == "game_not_started"
    assert error_of(await client.post(f"/games/{table.game_id}/players"), 409)["code"] == "game_full"
    assert await all_events(client) == before


async def test_wrong_phase_and_finished_game(table: Table) -> None:
    client = table.client
    game = f"/games/{table.game_id}"
    late = await client.put(f"{game}/orders", json={"orders": ["A PAR H"], "phase": "F1905M"},
                            headers=table.player("FRANCE"))
    assert error_of(late, 409)["code"] == "wrong_phase"
    assert error_of(await client.post(f"{game}/finish", json={"reason": "draw"}, headers=table.host),
                    403)["code"] == "wrong_role"
    finished = await client.post(f"{game}/finish", json={"reason": "draw"}, headers=OPERATOR)
    assert finished.status_code == 200 and finished.json()["status"] == "finished"
    before = await table.events()
    after_end = await table.order("FRANCE", ["A PAR - BUR"])
    assert error_of(after_end, 409)["code"] == "game_finished"
    assert error_of(await client.post(f"{game}/resolve", headers=OPERATOR), 409)["code"] == "game_finished"
    assert error_of(await client.post(f"{game}/finish", json={"reason": "draw"}, headers=OPERATOR),
                    409)["code"] == "game_finished"
    assert error_of(await client.get(f"{game}/possible-orders", headers=table.player("FRANCE")),
                    409)["code"] == "game_finished"
    assert await table.events() == before
    assert (await table.view())["game"]["status"] == "finished"


async def test_a_body_that_is_not_declared_json_gets_415_and_writes_nothing(table: Table) -> None:
    """Found by fuzzing the OpenAPI document: a JSON text sent as text/plain used to reach the
    validation handler as bytes, which it could not put in its JSON answer (a 500)."""
    client = table.client
    before = await all_events(client)
    for path, body in ((f"/games/{table.game_id}/resolve", b'{"phase": ""}'),
                       (f"/games/{table.game_id}/extend", b'{"minutes": 1}'),
                       ("/games", b'{"name": "x"}')):
        error = error_of(await client.post(path, content=body, headers={**OPERATOR, "content-type": "text/plain"}), 415)
        assert error["code"] == "unsupported_media_type" and error["where"] == "header.content-type"
    sent_as_orders = await client.put(f"/games/{table.game_id}/orders", content=b"\xff\xfe not json",
                                      headers={**table.player("FRANCE"), "content-type": "application/octet-stream"})
    assert sent_as_orders.status_code == 415
    assert await all_events(client) == before


async def test_control_characters_in_user_text_are_refused_alike_on_both_back_ends(client: httpx.AsyncClient) -> None:
    """PostgreSQL's JSONB cannot hold U+0000 (it was a 500 there, and stored on SQLite): names
    and messages with control characters get a 422 naming the field, and nothing is written."""
    table = await started_table(client)
    before = await all_events(client)
    named = error_of(await client.post("/games", json={"name": "bad\u0000name"}), 422)
    assert named["where"] == "body.name" and "U+0000" in named["message"]
    said = error_of(await client.post(f"/games/{table.game_id}/messages", headers=table.player("FRANCE"),
                                      json={"to": "all", "text": "hello\u0000there"}), 422)
    assert said["where"] == "body.text"
    assert await all_events(client) == before
    fine = await client.post(f"/games/{table.game_id}/messages", headers=table.player("FRANCE"),
                             json={"to": "all", "text": "line one\nline two\ttabbed"})
    assert fine.status_code == 201, fine.text


STRICT_GAME_BODIES: list[tuple[dict[str, Any], str]] = [
    ({"settings": {"player_count": "7"}}, "body.settings.player_count"),
    ({"settings": {"player_count": True}}, "body.settings.player_count"),
    ({"settings": {"player_count": 6.5}}, "body.settings.player_count"),
    ({"settings": {"movement_minutes": "60"}}, "body.settings.movement_minutes"),
    ({"settings": {"retreat_minutes": False}}, "body.settings.retreat_minutes"),
    ({"settings": {"max_pause_minutes": "60"}}, "body.settings.max_pause_minutes"),
    ({"settings": {"max_turns": "30"}}, "body.settings.max_turns"),
    ({"settings": {"require_ready": "true"}}, "body.settings.require_ready"),
    ({"settings": {"public_votes": 1}}, "body.settings.public_votes"),
    ({"settings": {"reveal_identities": "yes"}}, "body.settings.reveal_identities"),
    ({"settings": {"host_may_resolve": 0}}, "body.settings.host_may_resolve"),
]


async def test_an_integer_written_with_a_fraction_is_that_integer(table: Table) -> None:
    """docs/api.md, "Bad input": 7.0 and 7e0 are the number 7, as JSON Schema's integer counts it."""
    for count in ("7.0", "7e0", "70e-1"):
        body = '{"name": "Seven", "settings": {"player_count": ' + count + ', "movement_minutes": 60.0}}'
        answer = await table.client.post("/games", content=body, headers={"content-type": "application/json"})
        assert answer.status_code == 201, answer.text
        settings = answer.json()["settings"]
        assert settings["player_count"] == 7 and settings["movement_minutes"] == 60, count


async def test_booleans_and_integers_of_request_bodies_are_strict(table: Table) -> None:
    """docs/api.md: true or false for a boolean, a JSON integer (7, 7.0) for an integer; nothing else."""
    client = table.client
    before = await all_events(client)
    for body, where in STRICT_GAME_BODIES:
        error = error_of(await client.post("/games", json={"name": "Strict", **body}), 422)
        assert (error["code"], error["where"]) == ("invalid_request", where), body
    draw = f"/games/{table.game_id}/draw"
    for vote in ("yes", "no", "true", 1, 0, None):
        error = error_of(await client.post(draw, json={"vote": vote}, headers=table.player("FRANCE")), 422)
        assert (error["code"], error["where"]) == ("invalid_request", "body.vote"), vote
    for act, minutes in (("extend", "120"), ("extend", True), ("pause", "60"), ("pause", 60.5)):
        error = error_of(await client.post(f"/games/{table.game_id}/{act}", json={"minutes": minutes},
                                           headers=table.host), 422)
        assert (error["code"], error["where"]) == ("invalid_request", "body.minutes"), (act, minutes)
    orders = f"/games/{table.game_id}/orders"
    error = error_of(await client.put(orders, json={"orders": [], "phase": 1901}, headers=table.player("FRANCE")),
                     422)
    assert error["where"] == "body.phase"
    assert await all_events(client) == before
    assert (await client.post(draw, json={"vote": True}, headers=table.player("FRANCE"))).status_code == 200
    schemas = (await client.get("/openapi.json")).json()["components"]["schemas"]  # strictness reads as before
    assert schemas["DrawVote"]["properties"]["vote"]["type"] == "boolean"
    assert schemas["ExtendDeadline"]["properties"]["minutes"]["type"] == "integer"


async def test_an_order_of_200_characters_is_taken_and_one_of_201_refused_as_docs_notation_says(table: Table) -> None:
    orders = f"/games/{table.game_id}/orders"
    taken = await table.client.put(orders, json={"orders": ["A PAR - BUR".ljust(200)]}, headers=table.player("FRANCE"))
    assert taken.status_code == 200, taken.text
    assert taken.json()["orders"][0]["order"] == "A PAR - BUR"
    error = error_of(await table.client.put(orders, json={"orders": ["A PAR - BUR".ljust(201)]},
                                            headers=table.player("FRANCE")), 422)
    assert (error["code"], error["where"]) == ("invalid_request", "body.orders[0]")
