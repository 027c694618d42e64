"""The clock: lengths checked at creation, extensions and pauses within bounds, a pause that
resumes by itself, every act an event, orders after the deadline refused."""
from __future__ import annotations

from datetime import timedelta

import pytest

from shared.clock import ManualClock
from tests.utils.http import OPERATOR, Host


@pytest.mark.parametrize("setting, minutes", [("movement_minutes", 0), ("retreat_minutes", 30 * 24 * 60 + 1),
                                              ("max_pause_minutes", -5)])
async def test_clock_lengths_are_checked_at_creation(host: Host, setting: str, minutes: int) -> None:
    response = await host.client.post("/games", json={"name": "x", "settings": {setting: minutes}})
    assert response.status_code == 422
    error = response.json()["error"]
    assert error["code"] == "clock_out_of_bounds" and error["where"] == f"body.settings.{setting}"
    assert (await host.client.get("/games")).json()["games"] == []


async def test_the_bounds_themselves_are_allowed(host: Host) -> None:
    game = await host.create(7, movement_minutes=30 * 24 * 60, retreat_minutes=1)
    assert (await game.summary())["settings"]["retreat_minutes"] == 1


async def test_extensions_add_up_to_one_phase_length(host: Host, clock: ManualClock) -> None:
    game = await host.started(7, movement_minutes=60, require_ready=True)
    extend = f"{game.url}/extend"
    player = game.players[0].auth
    assert (await host.client.post(extend, json={"minutes": 10}, headers=player)).status_code == 403
    first = await host.client.post(extend, json={"minutes": 40}, headers=game.host_auth)
    assert first.status_code == 200 and first.json()["clock"]["extended_minutes"] == 40
    assert await game.until_deadline() == timedelta(minutes=100)
    too_much = await host.client.post(extend, json={"minutes": 21}, headers=game.host_auth)
    assert too_much.status_code == 409 and too_much.json()["error"]["code"] == "extension_too_long"
    assert (await host.client.post(extend, json={"minutes": 20}, headers=OPERATOR)).status_code == 200
    assert await game.until_deadline() == timedelta(minutes=120)
    assert (await host.client.post(extend, json={"minutes": 1}, headers=game.host_auth)).status_code == 409
    kinds = [e["type"] for e in await game.game_events()]
    assert kinds.count("DeadlineExtended") == 2

    # the next phase starts afresh: its own clock, nothing extended yet
    await game.order_ok("FRANCE", ["A PAR - BUR"])  # not everybody in civil disorder: not abandoned
    assert await host.tick(minutes=119) == 0
    assert await host.tick(minutes=1) == 1
    summary = await game.summary()
    assert summary["phase"] == "F1901M" and summary["clock"]["extended_minutes"] == 0
    assert (await host.client.post(extend, json={"minutes": 60}, headers=game.host_auth)).status_code == 200
    # once the deadline has passed the phase is due: no more extensions
    clock.advance(minutes=120)
    late = await host.client.post(extend, json={"minutes": 1}, headers=game.host_auth)
    assert late.status_code == 409 and late.json()["error"]["code"] == "deadline_passed"


async def test_a_pause_resumes_by_itself_with_the_time_that_was_left(host: Host, clock: ManualClock) -> None:
    game = await host.started(7, movement_minutes=60, max_pause_minutes=120, require_ready=True)
    clock.advance(minutes=45)
    too_long = await host.client.post(f"{game.url}/pause", json={"minutes": 121}, headers=game.host_auth)
    assert too_long.status_code == 409 and too_long.json()["error"]["code"] == "pause_too_long"
    paused = await host.client.post(f"{game.url}/pause", json={"minutes": 90}, headers=game.host_auth)
    assert paused.status_code == 200
    assert paused.json()["clock"]["deadline"] is None
    assert paused.json()["clock"]["paused_until"] == (clock.now() + timedelta(minutes=90)).isoformat()
    # orders may still be given during a pause; extensions wait for the clock
    assert (await game.order("FRANCE", ["A PAR - BUR"])).status_code == 200
    extended = await host.client.post(f"{game.url}/extend", json={"minutes": 5}, headers=game.host_auth)
    assert extended.json()["error"]["code"] == "game_paused"
    assert await host.tick(minutes=89) == 0
    assert await host.tick(minutes=1) == 1  # the worker resumes it
    summary = await game.summary()
    assert summary["phase"] == "S1901M" and summary["clock"]["paused_until"] is None
    assert await game.until_deadline() == timedelta(minutes=15)  # what was left when it stopped
    again = await host.client.post(f"{game.url}/pause", headers=game.host_auth)
    assert again.status_code == 409 and again.json()["error"]["code"] == "already_paused_this_phase"
    assert await host.tick(minutes=15) == 1
    resolved = (await game.resolutions())[-1]
    assert resolved["phase"] == "S1901M"
    assert [o["order"] for o in resolved["orders"]["FRANCE"]] == ["A PAR - BUR"]
    kinds = [e["type"] for e in await game.game_events()]
    assert kinds[-4:] == ["GamePaused", "GameResumed", "PhaseResolved", "DeadlineSet"]
    resumed = next(e for e in await game.game_events() if e["type"] == "GameResumed")
    assert resumed["data"]["by"] == "clock"


async def test_the_host_resumes_early(host: Host, clock: ManualClock) -> None:
    game = await host.started(7, movement_minutes=60)
    not_paused = await host.client.post(f"{game.url}/resume", headers=game.host_auth)
    assert not_paused.status_code == 409 and not_paused.json()["error"]["code"] == "not_paused"
    clock.advance(minutes=20)
    assert (await host.client.post(f"{game.url}/pause", headers=game.host_auth)).status_code == 200
    clock.advance(hours=5)
    resumed = await host.client.post(f"{game.url}/resume", headers=game.host_auth)
    assert resumed.status_code == 200
    assert await game.until_deadline() == timedelta(minutes=40)
    by = [e["data"].get("by") for e in await game.game_events() if e["type"] in ("GamePaused", "GameResumed")]
    assert by == ["host", "host"]


async def test_orders_after_the_deadline_are_refused_and_not_counted(host: Host, clock: ManualClock) -> None:
    game = await host.started(7, movement_minutes=60, require_ready=True)
    await game.order_ok("FRANCE", ["A PAR - BUR"])
    clock.advance(minutes=60)  # the deadline passes; the worker has not swept yet
    late = await game.order("GERMANY", ["A MUN - RUH"])
    assert late.status_code == 409 and late.json()["error"]["code"] == "deadline_passed"
    late_ready = await game.ready("FRANCE")
    assert late_ready.status_code == 409 and late_ready.json()["error"]["code"] == "deadline_passed"
    assert await host.worker.run_once() == 1
    resolved = (await game.resolutions())[-1]
    assert "GERMANY" not in resolved["orders"] and "FRANCE" in resolved["orders"]
    assert sorted(resolved["civil_disorder"]) == ["AUSTRIA", "ENGLAND", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]
    assert not [e for e in await game.events() if e["type"] == "OrdersSubmitted" and e["data"]["power"] == "GERMANY"]


async def test_the_default_clocks_are_a_day_for_movement_and_six_hours_for_retreats_and_builds(host: Host) -> None:
    game = await host.started(7)
    assert await game.until_deadline() == timedelta(hours=24)
    assert (await game.summary())["clock"]["phase_minutes"] == 24 * 60
    for power in ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA"):
        await game.order_ok(power, [])
    await game.order_ok("TURKEY", ["F ANK - BLA", "A CON - BUL"])
    for power in ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA"):
        await game.order_ok(power, [])
    await game.order_ok("TURKEY", [])  # Turkey takes Bulgaria: a build
    summary = await game.summary()
    assert summary["phase"] == "W1901A" and summary["must_act"] == ["TURKEY"]
    assert await game.until_deadline() == timedelta(hours=6)
