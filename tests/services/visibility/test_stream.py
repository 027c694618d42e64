"""The live stream: the viewer's own projection, resumable with Last-Event-ID, and silent about
what the viewer may not see. (Cursors that count only what the viewer sees, credentials
re-checked, tickets and the shared tailer: tests/services/visibility/.)"""
from __future__ import annotations

import asyncio

import httpx

from tests.utils.http import Table, parse_sse, started_table, whole_views
from tests.utils.wait import streams_started, until


def messages_in(event_id: str) -> int:
    """How many messages the viewer had been sent when an event had this id."""
    return int(event_id.split(".")[0])


async def open_stream(table: Table, power: str | None, seconds: float,
                      last_event_id: str | None = None) -> httpx.Response:
    headers = dict(table.player(power)) if power else {}
    if last_event_id is not None:
        headers["last-event-id"] = last_event_id
    return await table.client.get(f"/games/{table.game_id}/stream", params={"timeout": seconds}, headers=headers)


async def test_a_live_stream_shows_own_changes_and_readable_messages_only(social_any) -> None:
    app, client = social_any
    table = await started_table(client)
    watching = asyncio.create_task(open_stream(table, "FRANCE", 1.2))
    await until(lambda: streams_started(app.state.store) == 1, what="the stream to read its starting point")
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
    events = whole_views(parse_sse(response.text))
    counts = [messages_in(e["id"]) for e in events]
    assert counts == sorted(counts)
    first = events[0]
    assert first["event"] == "view" and first["data"]["viewer"]["power"] == "FRANCE"
    assert first["data"]["game"]["phase"] == "S1901M" and first["data"]["orders"] == {}
    messages = [e["data"] for e in events if e["event"] == "message"]
    readable = (await client.get(f"/games/{table.game_id}/messages", headers=table.player("FRANCE"))).json()
    assert [m["text"] for m in messages] == ["hello all"] and messages == readable["messages"]
    assert public.json()["position"] == 1  # ENGLAND's first readable message (the private one is not theirs)
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
    for text in ("one", "two", "three"):
        reply = await client.post(f"/games/{table.game_id}/messages", headers=table.player("AUSTRIA"),
                                  json={"to": ["ITALY"], "text": text})
        assert reply.status_code == 201
    await table.order_ok("ITALY", ["A ROM - APU"])
    resumed = parse_sse((await open_stream(table, "ITALY", 0.3, last_event_id=seen)).text)
    assert [e["data"]["text"] for e in resumed if e["event"] == "message"] == ["one", "two", "three"]
    assert [e["data"]["position"] for e in resumed if e["event"] == "message"] == [1, 2, 3]
    views = [e for e in resumed if e["event"] == "view"]
    assert len(views) == 1 and views[0]["data"]["orders"] == {"ITALY": ["A ROM - APU"]}
    # from the middle: only what came after, once
    second = [e for e in resumed if e["event"] == "message"][1]["id"]
    middle = parse_sse((await open_stream(table, "ITALY", 0.3, last_event_id=second)).text)
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
    digest = "0123456789abcdef"
    # "²" and "¹⁰" are digits to str.isdigit but not to int(); "9." is ahead of what FRANCE was sent
    for last_event_id in ("abc", "999999999", "²", "¹²³", f"².{digest}", f"³.{digest}", f"9.{digest}",
                          f"-1.{digest}", f"1.{digest.upper()}", f"1.{digest}0"):
        # a header is bytes, read by the server as latin-1 (where "²" is one byte, 0xB2)
        header = last_event_id.encode("latin-1")
        response = await client.get(f"/games/{table.game_id}/stream", headers={**table.player("FRANCE"),
                                    "last-event-id": header})
        assert response.status_code == 400, (last_event_id, response.text)
        assert response.json()["error"]["code"] == "invalid_last_event_id"
        query = await client.get(f"/games/{table.game_id}/stream", params={"last_event_id": last_event_id})
        assert query.status_code == 400 and query.json()["error"]["where"] == "query.last_event_id"
    other_power = await client.get(f"/games/{table.game_id}/stream", params={"power": "ENGLAND"},
                                   headers=table.player("FRANCE"))
    assert other_power.status_code == 403
    assert (await client.get("/games/g_000000000000/stream")).status_code == 404
