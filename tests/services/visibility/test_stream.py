"""The live stream: the viewer's own projection, resumable with Last-Event-ID, and silent about
what the viewer may not see."""
from __future__ import annotations

import asyncio

import httpx

from tests.utils.http import Table, parse_sse, started_table


async def open_stream(table: Table, power: str | None, seconds: float,
                      last_event_id: int | None = None) -> httpx.Response:
    headers = dict(table.player(power)) if power else {}
    if last_event_id is not None:
        headers["last-event-id"] = str(last_event_id)
    return await table.client.get(f"/games/{table.game_id}/stream", params={"timeout": seconds}, headers=headers)


async def test_a_live_stream_shows_own_changes_and_readable_messages_only(social_any) -> None:
    _, client = social_any
    table = await started_table(client)
    watching = asyncio.create_task(open_stream(table, "FRANCE", 1.2))
    await asyncio.sleep(0.2)  # let the stream read its starting point
    await table.order_ok("GERMANY", ["A MUN - RUH"])
    secret = await client.post(f"/games/{table.game_id}/messages", headers=table.player("ITALY"),
                               json={"to": ["GERMANY"], "text": "secret plan"})
    assert secret.status_code == 201
    await table.order_ok("FRANCE", ["A PAR - BUR"])
    public = await client.post(f"/games/{table.game_id}/messages", headers=table.player("ENGLAND"),
                               json={"to": "all", "text": "hello all"})
    await table.resolve("S1901M")
    response = await watching
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/event-stream")
    events = parse_sse(response.text)
    ids = [e["id"] for e in events]
    assert ids == sorted(ids)
    first = events[0]
    assert first["event"] == "view" and first["data"]["viewer"]["power"] == "FRANCE"
    assert first["data"]["game"]["phase"] == "S1901M" and first["data"]["orders"] == {}
    messages = [e["data"] for e in events if e["event"] == "message"]
    assert [m["text"] for m in messages] == ["hello all"] and messages[0]["position"] == public.json()["position"]
    assert events[-1]["event"] == "view" and events[-1]["data"] == await table.view("FRANCE")
    assert "secret plan" not in response.text and "RUH" not in response.text.split("history")[0]
    for event in events:
        if event["event"] == "view" and event["data"]["game"]["phase"] == "S1901M":
            assert set(event["data"]["orders"]) <= {"FRANCE"}


async def test_resuming_with_last_event_id_has_no_gaps_and_no_repeats(social) -> None:
    _, client = social
    table = await started_table(client)
    start = parse_sse((await open_stream(table, "ITALY", 0.1)).text)
    assert [e["event"] for e in start] == ["view"]
    seen = start[0]["id"]
    sent = []
    for text in ("one", "two", "three"):
        reply = await client.post(f"/games/{table.game_id}/messages", headers=table.player("AUSTRIA"),
                                  json={"to": ["ITALY"], "text": text})
        sent.append(reply.json()["position"])
    await table.order_ok("ITALY", ["A ROM - APU"])
    resumed = parse_sse((await open_stream(table, "ITALY", 0.3, last_event_id=seen)).text)
    assert [e["data"]["text"] for e in resumed if e["event"] == "message"] == ["one", "two", "three"]
    views = [e for e in resumed if e["event"] == "view"]
    assert len(views) == 1 and views[0]["data"]["orders"] == {"ITALY": ["A ROM - APU"]}
    # from the middle: only what came after, once
    middle = parse_sse((await open_stream(table, "ITALY", 0.3, last_event_id=sent[1])).text)
    assert [e["data"]["text"] for e in middle if e["event"] == "message"] == ["three"]
    assert [e["event"] for e in middle][-1] == "view"
    # from the end: nothing
    last = resumed[-1]["id"]
    assert parse_sse((await open_stream(table, "ITALY", 0.3, last_event_id=last)).text) == []


async def test_what_the_viewer_may_not_see_produces_no_event(social) -> None:
    """Others' orders reach the viewer only as who has submitted (docs/api.md); a private
    message between others produces nothing at all."""
    _, client = social
    table = await started_table(client)
    head = parse_sse((await open_stream(table, "FRANCE", 0.1)).text)[0]["id"]
    await table.order_ok("GERMANY", ["A MUN - BUR"])
    await table.order_ok("RUSSIA", ["A MOS - UKR"])
    assert (await client.post(f"/games/{table.game_id}/messages", headers=table.player("ITALY"),
                              json={"to": ["GERMANY", "AUSTRIA"], "text": "psst"})).status_code == 201
    quiet = await open_stream(table, "FRANCE", 0.4, last_event_id=head)
    events = parse_sse(quiet.text)
    assert quiet.status_code == 200 and events and {e["event"] for e in events} == {"view"}
    assert events[-1]["data"]["submitted"] == ["GERMANY", "RUSSIA"]
    assert all(e["data"]["orders"] == {} for e in events)
    assert "BUR" not in quiet.text and "UKR" not in quiet.text and "psst" not in quiet.text
    public = parse_sse((await open_stream(table, None, 0.1)).text)
    assert public[0]["data"]["viewer"]["kind"] == "public" and public[0]["data"]["orders"] == {}


async def test_bad_stream_requests(social) -> None:
    _, client = social
    table = await started_table(client)
    for last_event_id in ("abc", "999999999"):
        response = await client.get(f"/games/{table.game_id}/stream", headers={**table.player("FRANCE"),
                                    "last-event-id": last_event_id})
        assert response.status_code == 400 and response.json()["error"]["code"] == "invalid_last_event_id"
    other_power = await client.get(f"/games/{table.game_id}/stream", params={"power": "ENGLAND"},
                                   headers=table.player("FRANCE"))
    assert other_power.status_code == 403
    assert (await client.get("/games/g_000000000000/stream")).status_code == 404
