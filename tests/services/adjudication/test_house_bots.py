"""House bots at the table (docs/bots.md): they take the seats nobody joined, and a power
whose player missed its phases, give their orders as each phase begins, never hold the phase
up, and give the seat back when its player orders again."""
from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import datetime
from typing import Any

import pytest

from services.cli.ops import replay_log
from shared.store import RecordedEvent
from tests.utils.http import Host, HostedGame, hosting


async def bot_game(host: Host, humans: int, **settings: Any) -> HostedGame:
    created = await host.client.post("/games", json={"name": "With bots", "variant": "standard",
                                                     "settings": {"player_count": 7, **settings}})
    assert created.status_code == 201, created.text
    game = HostedGame(host, created.json()["id"], created.json()["host_token"])
    for _ in range(humans):
        await game.join()
    await game.start()
    return game


def human_powers(game: HostedGame) -> list[str]:
    return sorted(p for player in game.players for p in player.powers)


def records(events: list[dict[str, Any]]) -> list[RecordedEvent]:
    return [RecordedEvent(**{**e, "recorded_at": datetime.fromisoformat(e["recorded_at"])}) for e in events]


@pytest.fixture
async def each_host(store_url: str) -> AsyncIterator[Host]:
    """A hosted app on each back end."""
    async with hosting(store_url) as host:
        yield host


async def test_bots_take_the_empty_seats_order_at_once_and_never_hold_the_phase_up(each_host: Host) -> None:
    host = each_host
    game = await bot_game(host, 2, house_bot="heuristic", bots_fill_empty_seats=True)
    summary = await game.summary()
    humans = human_powers(game)
    bots = sorted(p for p in summary["powers"] if p not in humans)
    assert len(humans) == 2 and len(bots) == 5
    assert {p for p, seat in summary["powers"].items() if seat["house_bot"]} == set(bots)
    assert sorted(summary["codenames"]) == sorted([*(f"House Bot {n}" for n in range(1, 6)),
                                                   *(p.codename for p in game.players)])
    assert summary["submitted"] == bots and summary["waiting_for"] == humans  # the bots are done already
    view = await game.view(humans[0])
    assert view["powers"][bots[0]]["house_bot"] is True and view["powers"][humans[0]]["house_bot"] is False
    assert set(view["orders"]) <= {humans[0]}  # a bot's orders are as secret as anyone's
    assert (await game.order_ok(humans[0], []))["resolved"] is False
    assert (await game.order_ok(humans[1], []))["resolved"] is True
    resolved = (await game.resolutions())[-1]
    assert resolved["house_bot"] == bots and resolved["civil_disorder"] == []
    moved = [o for p in bots for o in resolved["orders"][p] if " - " in o["order"]]
    assert moved, "the heuristic bot moves its units in the opening"
    assert (await game.summary())["submitted"] == bots  # its orders for the next phase, at once
    assert replay_log(game.game_id, records(await game.events())).difference is None


async def test_a_bot_plays_a_power_after_missed_phases_and_gives_it_back(each_host: Host) -> None:
    host = each_host
    game = await bot_game(host, 7, house_bot="holding", bot_after_missed_phases=1)
    for power in human_powers(game):
        if power != "ENGLAND":
            await game.order_ok(power, [])
    await host.tick(days=2)  # England misses S1901M
    summary = await game.summary()
    assert summary["phase"] == "F1901M" and summary["civil_disorder"] == ["ENGLAND"]
    assert summary["powers"]["ENGLAND"]["house_bot"] is True and "ENGLAND" in summary["submitted"]
    for power in human_powers(game):
        if power != "ENGLAND":
            last = await game.order_ok(power, [])
    assert last["resolved"] is True  # nobody waits for the bot
    resolved = (await game.resolutions())[-1]
    assert resolved["phase"] == "F1901M" and resolved["house_bot"] == ["ENGLAND"]
    assert {o["order"] for o in resolved["orders"]["ENGLAND"]} == {"F EDI H", "F LON H", "A LVP H"}
    # England's player is back: their own orders replace the bot's, and the seat is theirs again
    phase = (await game.summary())["phase"]
    await game.order_ok("ENGLAND", [])
    for power in human_powers(game):
        if power != "ENGLAND":
            await game.order_ok(power, [])
    after = await game.summary()
    assert after["phase"] != phase and after["powers"]["ENGLAND"]["house_bot"] is False
    assert (await game.resolutions())[-1]["house_bot"] == []
    assert replay_log(game.game_id, records(await game.events())).difference is None


async def test_a_house_bot_never_stands_in_the_way_of_a_draw_the_players_agree_on(host: Host) -> None:
    game = await bot_game(host, 2, house_bot="holding", bots_fill_empty_seats=True)
    assert (await game.vote(human_powers(game)[0])).status_code == 200
    assert (await game.summary())["status"] == "active"
    assert (await game.vote(human_powers(game)[1])).status_code == 200
    summary = await game.summary()
    assert summary["status"] == "finished" and summary["result"]["reason"] == "draw"
    assert len(summary["result"]["drawn"]) == 7


@pytest.mark.parametrize(("variant", "settings", "where"), [
    ("ekonia", {"player_count": 2, "house_bot": "holding"}, "body.settings.house_bot"),
    ("standard", {"bots_fill_empty_seats": True}, "body.settings.house_bot"),
    ("standard", {"bot_after_missed_phases": 2}, "body.settings.house_bot"),
    ("standard", {"house_bot": "clever"}, "body.settings.house_bot"),
    ("standard", {"house_bot": "holding", "bot_after_missed_phases": 0}, "body.settings.bot_after_missed_phases"),
])
async def test_house_bot_settings_a_game_cannot_have_are_refused(host: Host, variant: str,
                                                                 settings: dict[str, Any], where: str) -> None:
    answer = await host.client.post("/games", json={"name": "No", "variant": variant, "settings": settings})
    assert answer.status_code == 422, answer.text
    assert answer.json()["error"]["where"].startswith(where)


async def test_without_the_setting_a_game_still_needs_every_seat_taken(host: Host) -> None:
    created = await host.client.post("/games", json={"name": "Short", "variant": "standard",
                                                     "settings": {"player_count": 7, "house_bot": "heuristic"}})
    game = HostedGame(host, created.json()["id"], created.json()["host_token"])
    await game.join()
    answer = await host.client.post(f"{game.url}/start", headers=game.host_auth)
    assert answer.status_code == 409 and answer.json()["error"]["code"] == "not_enough_players"


async def test_a_game_whose_every_person_left_it_to_the_bots_ends_as_abandoned(each_host: Host) -> None:
    """Two players and five bots; the bot takes a power after one missed phase. One player
    goes on ordering: the game goes on. Once both are gone to the bot, the game ends as
    abandoned instead of running on by itself (docs/hosting.md, "Missing a deadline")."""
    host = each_host
    game = await bot_game(host, 2, house_bot="holding", bots_fill_empty_seats=True, bot_after_missed_phases=1)
    stays, leaves = human_powers(game)
    await game.order_ok(stays, [])
    await host.tick(days=2)  # the other misses S1901M: the bot plays it from now on
    summary = await game.summary()
    assert summary["status"] == "active" and summary["powers"][leaves]["house_bot"] is True
    await host.tick(days=2)  # now the last one misses F1901M too
    summary = await game.summary()
    assert summary["status"] == "finished" and summary["result"]["reason"] == "abandoned", summary
    finished = (await game.game_events())[-1]
    assert finished["type"] == "GameFinished" and len(finished["data"]["in_disorder"]) == 7
    assert await host.tick(days=30) == 0  # nothing runs on by itself


async def test_an_absent_player_and_the_bot_at_play_are_shown(each_host: Host) -> None:
    """The summary and every view say who missed phases, who is in civil disorder, and since
    when the bot plays a power; the returning player reads the bot's orders as the bot's."""
    host = each_host
    game = await bot_game(host, 7, house_bot="holding", bot_after_missed_phases=2)
    for power in human_powers(game):
        if power != "ENGLAND":
            await game.order_ok(power, [])
    await host.tick(days=2)  # England misses S1901M: in civil disorder, not yet the bot's
    england = (await game.summary())["powers"]["ENGLAND"]
    assert england == {"codename": england["codename"], "house_bot": False, "house_bot_since": None,
                       "missed": 1, "civil_disorder": True}
    for power in human_powers(game):
        if power != "ENGLAND":
            await game.order_ok(power, [])
    await host.tick(days=2)  # and F1901M: the bot plays England from the next phase on
    summary = await game.summary()
    assert summary["powers"]["ENGLAND"]["house_bot"] is True
    assert summary["powers"]["ENGLAND"]["house_bot_since"] == summary["phase"]
    assert summary["powers"]["ENGLAND"]["missed"] == 2
    assert summary["powers"]["FRANCE"] == {**summary["powers"]["FRANCE"], "missed": 0, "civil_disorder": False}
    watched = (await game.view("FRANCE"))["powers"]["ENGLAND"]
    assert watched["house_bot_since"] == summary["phase"] and watched["missed"] == 2
    # England's player is back: the orders stored for them are the bot's, and say so
    england_player = game.player("ENGLAND")
    options = (await host.client.get(f"{game.url}/possible-orders", headers=england_player.auth)).json()
    assert options["submitted_by_house_bot"] is True and options["submitted"]
    await game.order_ok("ENGLAND", [])
    options = (await host.client.get(f"{game.url}/possible-orders", headers=england_player.auth)).json()
    assert options["submitted_by_house_bot"] is False
