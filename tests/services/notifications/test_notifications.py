"""Notifications: each player's own webhook, delivered from the outbox, retried with backoff,
dead-lettered after the maximum, never in the way of a resolution. No test sleeps: the
delivery clock is passed in."""
from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any

from services.notifications import outbox
from services.notifications.delivery import deliver_due, step
from shared.store import utc_now
from tests.utils.http import Table, started_table
from tests.utils.wait import until
from tests.utils.webhook_receiver import Receiver


async def hook(table: Table, power: str, url: str) -> None:
    response = await table.client.put(f"/games/{table.game_id}/webhook", headers=table.player(power), json={"url": url})
    assert response.status_code == 200, response.text


def kinds(payloads: list[dict[str, Any]]) -> list[str]:
    return [p["entente"]["kind"] for p in payloads]


async def test_delivered_to_the_players_own_webhook_only(social_any, receiver: Receiver, receiver_url: str) -> None:
    app, client = social_any
    store, settings = app.state.store, app.state.settings
    table = await started_table(client)
    france, england = f"france-{table.game_id}", f"england-{table.game_id}"
    await hook(table, "FRANCE", f"{receiver_url}/ok/{france}")
    await hook(table, "ENGLAND", f"{receiver_url}/ok/{england}")
    for to, text in ((["FRANCE"], "psst France"), (["GERMANY"], "psst Germany"), ("all", "hello all")):
        response = await client.post(f"/games/{table.game_id}/messages", headers=table.player("ITALY"),
                                     json={"to": to, "text": text})
        assert response.status_code == 201
    await client.post(f"/games/{table.game_id}/messages", headers=table.player("FRANCE"),
                      json={"to": "all", "text": "mine"})
    await table.resolve("S1901M")
    report = await step(store, settings, utc_now())
    assert report.delivered == 6 and report.errors == []
    to_france, to_england = receiver.received[france], receiver.received[england]
    assert kinds(to_france) == ["message_received", "message_received", "phase_resolved"]
    assert [p["entente"]["text"] for p in to_france[:2]] == ["psst France", "hello all"]
    assert to_france[0]["entente"]["from"] == {"power": "ITALY", "codename": table.codenames["ITALY"]}
    assert kinds(to_england) == ["message_received", "message_received", "phase_resolved"]
    assert [p["entente"]["text"] for p in to_england[:2]] == ["hello all", "mine"]  # France hears not its own
    assert to_england[2]["entente"]["your_powers"] == ["ENGLAND"] and to_england[2]["entente"]["next_phase"] == "F1901M"
    assert all(p["allowed_mentions"] == {"parse": []} for p in to_france + to_england)
    # nothing twice (the projection's position, the unique keys); later, only the reminder of
    # F1901M's deadline (S1901M's lapsed with its resolution)
    await step(store, settings, utc_now() + timedelta(days=30))
    assert kinds(receiver.received[france]) == kinds(to_france[:3]) + ["deadline_approaching"]
    assert receiver.received[france][3]["entente"]["phase"] == "F1901M"
    rows = await outbox.notifications(store, table.game_id)
    assert {r["player_id"] for r in rows} <= {table_player_id(rows, "FRANCE"), table_player_id(rows, "ENGLAND")}


def table_player_id(rows: list[dict[str, Any]], power: str) -> str:
    return next(r["player_id"] for r in rows if power in r["payload"]["entente"].get("your_powers", []))


async def test_a_failing_webhook_is_retried_with_backoff_then_dead_lettered(social_any, receiver: Receiver,
                                                                           receiver_url: str) -> None:
    app, client = social_any
    store, settings = app.state.store, app.state.settings
    table = await started_table(client)
    name = f"germany-{table.game_id}"
    await hook(table, "GERMANY", f"{receiver_url}/fail/{name}")
    await client.post(f"/games/{table.game_id}/messages", headers=table.player("ITALY"),
                      json={"to": ["GERMANY"], "text": "are you there?"})
    now = utc_now()
    await step(store, settings, now)
    backoff = settings.webhook_backoff_seconds
    for attempt in range(1, settings.webhook_max_attempts):
        assert len(receiver.received[name]) == attempt
        [row] = [r for r in await outbox.notifications(store, table.game_id) if r["kind"] == "message_received"]
        assert row["status"] == "pending" and row["attempts"] == attempt and row["last_error"] == "HTTP 500"
        wait = timedelta(seconds=backoff * 2 ** (attempt - 1))
        assert row["next_attempt_at"] - now == wait
        early = await deliver_due(store, settings, now + wait - timedelta(seconds=1))
        assert early.retrying == 0 and len(receiver.received[name]) == attempt  # not before its time
        now += wait
        await deliver_due(store, settings, now)
    [row] = [r for r in await outbox.notifications(store, table.game_id) if r["kind"] == "message_received"]
    assert row["status"] == "dead" and row["attempts"] == settings.webhook_max_attempts
    assert len(receiver.received[name]) == settings.webhook_max_attempts
    for _ in range(3):
        await deliver_due(store, settings, now + timedelta(days=365))
    attempts = kinds(receiver.received[name]).count("message_received")
    assert attempts == settings.webhook_max_attempts  # never retried forever


async def test_a_hanging_webhook_never_holds_up_a_resolution(social, receiver: Receiver, receiver_url: str) -> None:
    app, client = social
    store = app.state.store
    settings = app.state.settings.model_copy(update={"webhook_timeout_seconds": 1.0})
    table = await started_table(client)
    name = f"slow-{table.game_id}"
    await hook(table, "RUSSIA", f"{receiver_url}/slow/{name}")
    await client.post(f"/games/{table.game_id}/messages", headers=table.player("TURKEY"),
                      json={"to": "all", "text": "hi"})
    delivering = asyncio.create_task(step(store, settings, utc_now()))
    await until(lambda: receiver.received[name], what="the delivery to be in flight")
    resolved = await table.resolve("S1901M")
    assert resolved["next_phase"] == "F1901M" and not delivering.done()
    report = await delivering
    assert report.retrying == 1 and report.errors == ["ReadTimeout"]


async def test_deadline_reminders_go_to_those_who_must_act_and_lapse_with_the_phase(
        social, receiver: Receiver, receiver_url: str) -> None:
    app, client = social
    store, settings = app.state.store, app.state.settings
    table = await started_table(client)
    name = f"austria-{table.game_id}"
    await hook(table, "AUSTRIA", f"{receiver_url}/ok/{name}")
    await step(store, settings, utc_now())
    [row] = [r for r in await outbox.notifications(store, table.game_id) if r["kind"] == "deadline_approaching"]
    deadline = row["next_attempt_at"] + timedelta(minutes=settings.deadline_warning_minutes)
    assert timedelta(hours=23) < deadline - utc_now() <= timedelta(hours=24)
    await deliver_due(store, settings, row["next_attempt_at"] - timedelta(seconds=1))
    assert receiver.received[name] == []
    await deliver_due(store, settings, row["next_attempt_at"])
    [reminder] = receiver.received[name]
    assert reminder["entente"]["kind"] == "deadline_approaching" and reminder["entente"]["your_powers"] == ["AUSTRIA"]
    assert reminder["entente"]["phase"] == "S1901M"
    # the next phase's reminder is planned; resolving that phase cancels it unsent
    await table.resolve("S1901M")
    await step(store, settings, utc_now())
    await table.resolve("F1901M")
    await step(store, settings, utc_now())
    reminders = [r for r in await outbox.notifications(store, table.game_id) if r["kind"] == "deadline_approaching"]
    assert [(r["phase"], r["status"]) for r in reminders][:2] == [("S1901M", "delivered"), ("F1901M", "cancelled")]
    removed = await client.delete(f"/games/{table.game_id}/webhook", headers=table.player("AUSTRIA"))
    assert removed.status_code == 204
    await step(store, settings, utc_now())
    assert all(r["status"] != "pending" for r in await outbox.notifications(store, table.game_id))


async def test_webhook_urls_are_checked(social) -> None:
    app, client = social
    table = await started_table(client)
    settings = app.state.settings
    from services.notifications.webhook_urls import check_webhook_url

    # the form only; where the host leads is tests/services/notifications/test_webhook_addresses.py's part
    assert check_webhook_url("https://discord.com/api/webhooks/1/abc", False)
    for url in ("http://discord.com/api/webhooks/1/abc", "https://user:pw@example.com/x", "ftp://example.com/x",
                "https:///x"):
        try:
            check_webhook_url(url, False)
        except Exception as error:
            assert getattr(error, "code", "") == "invalid_webhook"
        else:
            raise AssertionError(f"{url} was accepted")
    assert settings.webhook_allow_private_hosts  # the tests' receiver is on 127.0.0.1
    bad = await client.put(f"/games/{table.game_id}/webhook", headers=table.player("FRANCE"), json={"url": "ftp://x.org/y"})
    assert bad.status_code == 422 and bad.json()["error"]["code"] == "invalid_webhook"
    assert (await client.get(f"/games/{table.game_id}/webhook", headers=table.player("FRANCE"))).json() == {"url": None}
    anonymous = await client.put(f"/games/{table.game_id}/webhook", json={"url": "https://example.com/x"})
    assert anonymous.status_code == 401


async def test_two_workers_plan_and_deliver_each_notification_once(social_any, receiver: Receiver,
                                                                   receiver_url: str) -> None:
    app, client = social_any
    store, settings = app.state.store, app.state.settings
    table = await started_table(client)
    names = {power: f"twice-{power}-{table.game_id}" for power in ("FRANCE", "GERMANY", "ITALY")}
    for power, name in names.items():
        await hook(table, power, f"{receiver_url}/ok/{name}")
    for index in range(5):
        await client.post(f"/games/{table.game_id}/messages", headers=table.player("ENGLAND"),
                          json={"to": "all", "text": f"news {index}"})
    now = utc_now()
    reports = await asyncio.gather(step(store, settings, now), step(store, settings, now), step(store, settings, now))
    assert sum(r.delivered for r in reports) == 15
    for name in names.values():  # each once; in order within a worker, not across workers (docs/store.md)
        assert sorted(p["entente"]["text"] for p in receiver.received[name]) == [f"news {i}" for i in range(5)]


async def test_the_worker_loop_delivers_until_stopped(social, receiver: Receiver, receiver_url: str) -> None:
    from services.notifications.delivery import run_worker

    app, client = social
    table = await started_table(client)
    name = f"worker-{table.game_id}"
    await hook(table, "TURKEY", f"{receiver_url}/ok/{name}")
    await client.post(f"/games/{table.game_id}/messages", headers=table.player("RUSSIA"),
                      json={"to": ["TURKEY"], "text": "Black Sea?"})
    stop = asyncio.Event()
    worker = asyncio.create_task(run_worker(app.state.store, app.state.settings, stop, interval=0.05))
    await until(lambda: receiver.received[name], what="the worker's delivery")
    stop.set()
    await asyncio.wait_for(worker, 5)
    assert [p["entente"]["text"] for p in receiver.received[name]] == ["Black Sea?"]
