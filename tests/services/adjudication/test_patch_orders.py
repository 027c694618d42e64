"""PATCH /games/{id}/orders: one order at a time, for bots that relay one command at a time
(docs/api.md, "One order at a time")."""
from __future__ import annotations

import asyncio
from typing import Any

import pytest

from tests.utils.http import POWERS as SEVEN
from tests.utils.http import Host, HostedGame, hosting


async def patch(game: HostedGame, power: str, orders: list[str] | None = None, clear: list[str] | None = None,
                **extra: Any) -> Any:
    body: dict[str, Any] = {"power": power, **extra}
    if orders is not None:
        body["orders"] = orders
    if clear is not None:
        body["clear"] = clear
    return await game.client.patch(f"{game.url}/orders", json=body, headers=game.player(power).auth)


async def stored(game: HostedGame, power: str) -> list[str]:
    response = await game.client.get(f"{game.url}/possible-orders", params={"power": power},
                                     headers=game.player(power).auth)
    assert response.status_code == 200, response.text
    return response.json()["submitted"]


async def test_each_order_replaces_only_the_orders_of_its_own_unit(host: Host) -> None:
    game = await host.started(7, require_ready=True)
    first = await patch(game, "ENGLAND", ["A LVP - WAL"])
    assert first.status_code == 200, first.text
    body = first.json()
    assert body["current"] == ["A LVP - WAL"] and body["stored"] is True and body["resolved"] is False
    assert body["orders"] == [{"text": "A LVP - WAL", "status": "accepted", "order": "A LVP - WAL",
                               "structured": {"text": "A LVP - WAL", "type": "move", "unit": "A LVP", "to": "WAL",
                                              "via_convoy": False}}]
    await patch(game, "ENGLAND", ["Fleet London to the North Sea"])
    assert await stored(game, "ENGLAND") == ["A LVP - WAL", "F LON - NTH"]
    # a new order for Liverpool replaces Liverpool's only
    again = (await patch(game, "ENGLAND", ["A LVP - YOR"])).json()
    assert again["current"] == ["F LON - NTH", "A LVP - YOR"]
    # a unit named alone, in any notation, clears its order
    cleared = (await patch(game, "ENGLAND", clear=["F LON"])).json()
    assert cleared["current"] == ["A LVP - YOR"] and cleared["orders"] == [] and cleared["accepted"] == 0
    # orders and clear together; then PUT still replaces the whole set
    both = (await patch(game, "ENGLAND", ["F EDI - NWG"], clear=["Liverpool"])).json()
    assert both["current"] == ["F EDI - NWG"]
    assert (await game.order_ok("ENGLAND", ["F LON - ENG"]))["orders"][0]["structured"]["to"] == "ENG"
    assert await stored(game, "ENGLAND") == ["F LON - ENG"]
    await host.client.post(f"{game.url}/resolve", json={"phase": "S1901M"}, headers=game.host_auth)
    resolved = (await game.resolutions())[-1]["orders"]["ENGLAND"]
    assert [o["order"] for o in resolved][0] == "F LON - ENG"


async def test_patches_are_checked_with_the_orders_kept_and_refused_like_a_put(host: Host) -> None:
    game = await host.started(7, require_ready=True)
    await patch(game, "FRANCE", ["A PAR - BUR"])
    before = len(await game.events())
    # a rejected order beside an accepted one: the accepted one is stored
    mixed = (await patch(game, "FRANCE", ["A MAR - SPA", "F BRE - Atlantis"])).json()
    assert [o["status"] for o in mixed["orders"]] == ["accepted", "rejected"]
    assert mixed["orders"][1]["word"] == "Atlantis" and mixed["current"] == ["A PAR - BUR", "A MAR - SPA"]
    # two orders for one unit in one change: the second is refused, as in a PUT
    twice = (await patch(game, "FRANCE", ["F BRE - MAO", "F BRE - ENG"])).json()
    assert [o["status"] for o in twice["orders"]] == ["accepted", "rejected"]
    assert twice["current"] == ["A PAR - BUR", "A MAR - SPA", "F BRE - MAO"]
    stored_events = len(await game.events())
    assert stored_events == before + 2
    refusals = [
        (await patch(game, "FRANCE", ["F BRE - MOS"]), 422, "orders_rejected"),
        (await patch(game, "FRANCE", clear=["Atlantis"]), 422, "unknown_unit"),
        (await patch(game, "FRANCE"), 422, "invalid_request"),
        (await patch(game, "FRANCE", ["A PAR H"], phase="F1901M"), 409, "wrong_phase"),
        (await game.client.patch(f"{game.url}/orders", json={"orders": ["A PAR H"], "power": "ENGLAND"},
                                 headers=game.player("FRANCE").auth), 403, "not_your_power"),
        (await game.client.patch(f"{game.url}/orders", json={"orders": ["A PAR H"]}), 401, "token_required"),
    ]
    for response, status, code in refusals:
        assert response.status_code == status and response.json()["error"]["code"] == code, response.text
    assert refusals[1][0].json()["error"]["where"] == "body.clear[0]"
    assert len(await game.events()) == stored_events  # a refused change writes nothing
    host.clock.advance(days=2)
    late = await patch(game, "FRANCE", ["A PAR H"])
    assert late.status_code == 409 and late.json()["error"]["code"] == "deadline_passed"


async def test_ready_flags_in_a_game_that_requires_them(host: Host) -> None:
    game = await host.started(7, require_ready=True)
    for power in SEVEN:
        assert (await patch(game, power, [{"AUSTRIA": "A VIE H", "ENGLAND": "F LON H", "FRANCE": "A PAR H",
                                           "GERMANY": "A BER H", "ITALY": "A ROM H", "RUSSIA": "A MOS H",
                                           "TURKEY": "A CON H"}[power]])).json()["resolved"] is False
    for power in SEVEN[:-1]:
        assert (await game.ready(power)).status_code == 200
    # the same order again changes nothing: nothing is written and France stays ready
    same = (await patch(game, "FRANCE", ["A PAR H"])).json()
    assert same["stored"] is False and same["current"] == ["A PAR H"]
    # a change clears Austria's flag, as a new PUT would
    assert (await patch(game, "AUSTRIA", ["A BUD - SER"])).json()["stored"] is True
    assert (await game.ready("TURKEY")).json()["resolved"] is False
    assert (await game.summary())["ready"] == ["ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]
    assert (await game.ready("AUSTRIA")).json()["resolved"] is True
    austria = (await game.resolutions())[-1]["orders"]["AUSTRIA"]
    assert {o["order"] for o in austria} >= {"A VIE H", "A BUD - SER"}


async def test_a_change_of_one_order_is_not_done_until_the_power_says_so(host: Host) -> None:
    """Without ready flags too: the last power's first click stores an order but does not end
    the phase; its ready flag (Done) or its whole set (PUT) does (docs/hosting.md)."""
    quick = await host.started(7)
    for power in SEVEN[:-1]:
        await patch(quick, power, clear=["WAIVE"])  # nothing submitted, nothing cleared: no submission
    assert (await quick.summary())["submitted"] == []
    for power in SEVEN[:-1]:
        assert (await quick.order_ok(power, []))["resolved"] is False
    first = (await patch(quick, "TURKEY", ["F ANK - BLA"])).json()
    assert first["stored"] is True and first["resolved"] is False
    second = (await patch(quick, "TURKEY", ["A CON - BUL"])).json()
    assert second["resolved"] is False and second["current"] == ["F ANK - BLA", "A CON - BUL"]
    summary = await quick.summary()
    assert summary["phase"] == "S1901M"
    assert summary["ordering"] == ["TURKEY"] and summary["waiting_for"] == ["TURKEY"]
    assert "TURKEY" not in summary["submitted"]
    done = (await quick.ready("TURKEY")).json()
    assert done["resolved"] is True
    turkey = {o["order"] for o in (await quick.resolutions())[-1]["orders"]["TURKEY"]}
    assert {"F ANK - BLA", "A CON - BUL"} <= turkey


async def test_a_change_after_a_whole_set_makes_the_power_ordering_again(host: Host) -> None:
    game = await host.started(7)
    assert (await game.order_ok("FRANCE", ["A PAR - BUR"]))["resolved"] is False
    summary = await game.summary()
    assert "FRANCE" in summary["submitted"] and summary["ordering"] == []
    await patch(game, "FRANCE", ["A MAR - SPA"])
    summary = await game.summary()
    assert summary["ordering"] == ["FRANCE"] and "FRANCE" in summary["waiting_for"]
    assert "FRANCE" not in summary["submitted"]
    # taking the flag back after a change leaves the power ordering; a PUT makes it done again
    assert (await game.ready("FRANCE")).status_code == 200
    assert "FRANCE" in (await game.summary())["submitted"]
    assert (await game.ready("FRANCE", False)).status_code == 200
    assert (await game.summary())["ordering"] == ["FRANCE"]
    await game.order_ok("FRANCE", ["A PAR H"])
    summary = await game.summary()
    assert "FRANCE" in summary["submitted"] and summary["ordering"] == []
    for power in SEVEN:
        if power != "FRANCE":
            last = await game.order_ok(power, [])
    assert last["resolved"] is True


async def test_orders_stored_one_at_a_time_count_at_the_deadline(host: Host) -> None:
    """A power that never said it was done is not in civil disorder: its stored orders count."""
    game = await host.started(7)
    await patch(game, "ENGLAND", ["F LON - NTH"])
    await host.tick(days=2)
    resolved = (await game.resolutions())[-1]
    assert resolved["phase"] == "S1901M"
    assert "ENGLAND" not in resolved["civil_disorder"]
    england = {o["order"]: o["result"] for o in resolved["orders"]["ENGLAND"]}
    assert england["F LON - NTH"] == "succeeds"


async def test_racing_patches_of_one_power_never_lose_one_another(store_url: str) -> None:
    async with hosting(store_url) as host:
        game = await host.started(7, require_ready=True)
        for _ in range(3):
            await patch(game, "RUSSIA", clear=["A MOS", "A WAR", "F SEV"])
            answers = await asyncio.gather(patch(game, "RUSSIA", ["A MOS - UKR"]),
                                           patch(game, "RUSSIA", ["A WAR - GAL"]),
                                           patch(game, "RUSSIA", ["F SEV - BLA"]))
            assert [a.status_code for a in answers] == [200, 200, 200], [a.text for a in answers]
            # the one applied last saw the others: nothing was lost
            assert sorted(await stored(game, "RUSSIA")) == ["A MOS - UKR", "A WAR - GAL", "F SEV - BLA"]


async def test_one_order_at_a_time_in_tale_of_ekonia(host: Host) -> None:
    response = await host.client.post("/games", json={"name": "Ekonia", "variant": "ekonia",
                                                      "settings": {"player_count": 2, "require_ready": True}})
    created = response.json()
    game = HostedGame(host, created["id"], created["host_token"])
    await game.join()
    await game.join()
    await game.start()
    power = game.players[0].powers[0]
    menu = (await host.client.get(f"{game.url}/possible-orders", headers=game.player(power).auth)).json()["menu"]
    group = next(g for g in menu if g["kind"] == "unit" and sum(o["type"] == "move" for o in g["orders"]) > 1)
    site = next(g for g in menu if g["kind"] == "site" and any(o["type"] == "buy" for o in g["orders"]))
    moves = [o["text"] for o in group["orders"] if o["type"] == "move"]
    buy = next(o["text"] for o in site["orders"] if o["type"] == "buy")
    assert (await patch(game, power, [moves[0], buy])).json()["current"] == [moves[0], buy]
    # another move of the same group replaces the first; the purchase stays
    assert (await patch(game, power, [moves[1]])).json()["current"] == [buy, moves[1]]
    # the group named as the menu names it clears its orders
    assert (await patch(game, power, clear=[group["key"]])).json()["current"] == [buy]


async def test_a_power_writes_its_orders_at_most_so_often_in_a_phase(host: Host) -> None:
    """One seat cannot fill the log: past the bound a write is 429 with Retry-After (the time
    to the deadline), nothing is stored, and the orders stored stand (docs/api.md)."""
    from shared.game.guards import MAX_ORDER_WRITES_PER_PHASE

    game = await host.started(7)
    for n in range(MAX_ORDER_WRITES_PER_PHASE):
        answer = await patch(game, "FRANCE", ["A PAR - BUR" if n % 2 == 0 else "A PAR H"])
        assert answer.status_code == 200 and answer.json()["stored"] is True, answer.text
    before = len(await game.events())
    refused = [await patch(game, "FRANCE", ["A PAR - PIC"]), await game.order("FRANCE", ["A PAR - PIC"]),
               await game.ready("FRANCE")]
    for answer in refused:
        assert answer.status_code == 429, answer.text
        assert answer.json()["error"]["code"] == "too_many_order_writes"
        left = (await game.until_deadline()).total_seconds()
        assert 0 < int(answer.headers["retry-after"]) <= left + 1
    assert len(await game.events()) == before
    assert await stored(game, "FRANCE") == ["A PAR H"]
    assert (await game.order("GERMANY", ["A BER - KIE"])).status_code == 200  # other powers are not bound
    await host.tick(days=2)
    assert (await game.summary())["phase"] == "F1901M"
    assert (await game.order("FRANCE", [])).status_code == 200  # a new phase, a new count


@pytest.mark.parametrize(("variant", "players"), [("standard", 2), ("dirigible", 7), ("ekonia", 2)])
async def test_in_every_variant_changes_wait_for_done(host: Host, variant: str, players: int) -> None:
    """Every power orders one thing with PATCH: the phase waits; each says it is done, and the
    last one resolves it."""
    created = await host.client.post("/games", json={"name": "Any", "variant": variant,
                                                     "settings": {"player_count": players}})
    assert created.status_code == 201, created.text
    game = HostedGame(host, created.json()["id"], created.json()["host_token"])
    for _ in range(players):
        await game.join()
    await game.start()
    phase = (await game.summary())["phase"]
    acting = (await game.summary())["must_act"]
    for power in acting:
        menu = (await game.client.get(f"{game.url}/possible-orders", params={"power": power},
                                      headers=game.player(power).auth)).json()["menu"]
        first = next(order["text"] for group in menu for order in group["orders"])
        answer = (await patch(game, power, [first])).json()
        assert answer["stored"] is True and answer["resolved"] is False, answer
    summary = await game.summary()
    assert summary["phase"] == phase and summary["ordering"] == sorted(acting)
    assert summary["waiting_for"] == sorted(acting) and summary["submitted"] == []
    answers = [(await game.ready(power)).json() for power in acting]
    assert [a["resolved"] for a in answers] == [False] * (len(acting) - 1) + [True]
    assert (await game.summary())["phase"] != phase
