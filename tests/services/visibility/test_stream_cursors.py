"""The stream's ids count only what the viewer sees: another power's orders, a private message
between others and a secret draw vote change no id a viewer is given, and resuming stays exact.
(Message positions in ``GET /messages``: tests/services/press/test_message_positions.py.)"""
from __future__ import annotations

from typing import Any

import httpx

from tests.utils.http import Table, started_table

from .sse import of_kind, parse_sse


async def stream(table: Table, power: str | None, seconds: float = 0.1,
                 last_event_id: str | None = None) -> list[dict[str, Any]]:
    headers = dict(table.player(power)) if power else {}
    if last_event_id is not None:
        headers["last-event-id"] = last_event_id
    response = await table.client.get(f"/games/{table.game_id}/stream", params={"timeout": seconds},
                                      headers=headers)
    assert response.status_code == 200, response.text
    return parse_sse(response.text)


async def hidden_events(client: httpx.AsyncClient, table: Table) -> None:
    """What FRANCE and the public may not see: orders of two powers, a private message between
    others, a secret draw vote."""
    await table.order_ok("GERMANY", ["A MUN - RUH"])
    await table.order_ok("RUSSIA", ["A MOS - UKR"])
    private = await client.post(f"/games/{table.game_id}/messages", headers=table.player("ITALY"),
                                json={"to": ["GERMANY"], "text": "between us"})
    assert private.status_code == 201
    vote = await client.post(f"/games/{table.game_id}/draw", headers=table.player("TURKEY"), json={"vote": True})
    assert vote.status_code == 200, vote.text


async def test_what_a_viewer_may_not_see_changes_no_id_it_is_given(social_any) -> None:
    _, client = social_any
    table = await started_table(client)
    public_message = await client.post(f"/games/{table.game_id}/messages", headers=table.player("ENGLAND"),
                                       json={"to": "all", "text": "hello"})
    assert public_message.status_code == 201
    # that a power has submitted is public ("submitted" in every view, docs/api.md); what it
    # submitted, and how often it changed it since, is not
    await table.order_ok("GERMANY", ["A MUN H"])
    await table.order_ok("RUSSIA", ["A MOS H"])
    before = {viewer: (await stream(table, viewer))[0]["id"] for viewer in (None, "FRANCE", "GERMANY", "TURKEY")}
    await hidden_events(client, table)
    after = {viewer: (await stream(table, viewer))[0]["id"] for viewer in (None, "FRANCE", "GERMANY", "TURKEY")}
    assert after[None] == before[None] and after["FRANCE"] == before["FRANCE"]
    # the ones who did something see their own view change, and only that
    assert after["GERMANY"] != before["GERMANY"] and after["TURKEY"] != before["TURKEY"]
    assert before[None] == f"1.{before[None].split('.')[1]}"  # one message readable so far
    assert after["GERMANY"].startswith("2.")  # the public one and the private one to GERMANY
    # resuming from before the hidden events: nothing for those who may not see them
    assert await stream(table, None, 0.3, before[None]) == []
    assert await stream(table, "FRANCE", 0.3, before["FRANCE"]) == []
    resumed = await stream(table, "GERMANY", 0.3, before["GERMANY"])
    assert [e["data"]["text"] for e in of_kind(resumed, "message")] == ["between us"]
    assert of_kind(resumed, "view")[-1]["data"]["orders"] == {"GERMANY": ["A MUN - RUH"]}


async def test_twin_games_that_differ_in_hidden_events_give_the_same_ids(social_any) -> None:
    _, client = social_any
    quiet, busy = await started_table(client), await started_table(client)
    ids: dict[str, list[tuple[str, int]]] = {}
    for name, table in (("quiet", quiet), ("busy", busy)):
        for round_number in range(2):
            if name == "busy":
                await hidden_events(client, table)
            sent = await client.post(f"/games/{table.game_id}/messages", headers=table.player("ENGLAND"),
                                     json={"to": "all", "text": f"public {round_number}"})
            assert sent.status_code == 201
        events = await stream(table, None, 0.1, last_event_id="0")
        ids[name] = [(e["event"], int(e["id"].split(".")[0])) for e in events]
        positions = [m["position"] for m in
                     (await client.get(f"/games/{table.game_id}/messages")).json()["messages"]]
        assert positions == [1, 2]
    assert ids["quiet"] == ids["busy"] == [("message", 1), ("message", 2), ("view", 2)]


async def test_ids_and_positions_of_one_viewer_agree_across_connections(social_any) -> None:
    _, client = social_any
    table = await started_table(client)
    for text in ("one", "two"):
        assert (await client.post(f"/games/{table.game_id}/messages", headers=table.player("AUSTRIA"),
                                  json={"to": ["ITALY"], "text": text})).status_code == 201
        assert (await client.post(f"/games/{table.game_id}/messages", headers=table.player("AUSTRIA"),
                                  json={"to": ["FRANCE"], "text": "not for Italy"})).status_code == 201
    everything = await stream(table, "ITALY", 0.1, last_event_id="0")
    messages = of_kind(everything, "message")
    listed = (await client.get(f"/games/{table.game_id}/messages", headers=table.player("ITALY"))).json()
    assert [m["data"] for m in messages] == listed["messages"]
    assert [m["id"].split(".")[0] for m in messages] == ["1", "2"]
    # the ids carry the view last sent: a message's id before the first view is "nothing yet"
    assert messages[0]["id"] == "1.0000000000000000"
    view = of_kind(everything, "view")[0]
    assert view["id"].startswith("2.") and view["id"] == (await stream(table, "ITALY"))[0]["id"]
    # after the first message: the second message, then the view
    after_first = await stream(table, "ITALY", 0.3, last_event_id=messages[0]["id"])
    assert [(e["event"], e["id"]) for e in after_first] == [("message", messages[1]["id"]), ("view", view["id"])]
