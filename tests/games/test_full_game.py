"""A seven-player hosted game from creation to a draw: scripted players, a hand-moved clock,
missed deadlines (civil disorder), a phase skipped, a draw vote; every phase asserted."""
from __future__ import annotations

from datetime import timedelta

from shared.clock import ManualClock
from tests.utils.http import Host

POWERS = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]
SPRING = {
    "AUSTRIA": ["A VIE - TYR", "A BUD - SER", "F TRI H"],
    "ITALY": ["A VEN H", "A ROM H", "F NAP - ION"],
    "FRANCE": ["A PAR - BUR", "A MAR - SPA", "F BRE - MAO"],
    "ENGLAND": ["F LON - NTH", "F EDI - NWG", "A LVP - YOR"],
    "GERMANY": ["A MUN H", "A BER - KIE", "F KIE - DEN"],
    "RUSSIA": ["F SEV - RUM", "A MOS - UKR", "A WAR H", "F STP/SC - BOT"],
    "TURKEY": ["F ANK - BLA", "A CON - BUL", "A SMY H"],
}
FALL = {  # Italy misses this deadline
    "AUSTRIA": ["F TRI - VEN", "A TYR S F TRI - VEN", "A SER H"],
    "FRANCE": ["A BUR - BEL", "A SPA H", "F MAO - POR"],
    "ENGLAND": ["F NTH - NWY", "F NWG S F NTH - NWY", "A YOR H"],
    "GERMANY": ["A MUN H", "A KIE - HOL", "F DEN H"],
    "RUSSIA": ["F RUM H", "A UKR H", "A WAR H", "F BOT - SWE"],
    "TURKEY": ["A BUL H", "F BLA H", "A SMY H"],
}


async def test_a_seven_player_game_to_a_draw(host: Host, clock: ManualClock) -> None:
    game = await host.started(7, movement_minutes=60, retreat_minutes=20)
    assert sorted(p for player in game.players for p in player.powers) == POWERS
    summary = await game.summary()
    assert summary["phase"] == "S1901M" and summary["must_act"] == POWERS
    assert await game.until_deadline() == timedelta(minutes=60)

    # S1901M: everyone orders; the last order resolves the phase at once, before the deadline
    for power in POWERS[:-1]:
        assert (await game.order_ok(power, SPRING[power]))["resolved"] is False
    assert (await game.order_ok("TURKEY", SPRING["TURKEY"]))["resolved"] is True
    clock.advance(minutes=10)
    assert await host.worker.run_once() == 0  # nothing is due
    spring = (await game.resolutions())[-1]
    assert spring["phase"] == "S1901M" and spring["next_phase"] == "F1901M" and spring["civil_disorder"] == []
    assert await game.until_deadline() == timedelta(minutes=50)  # F1901M's clock started at the resolution

    # F1901M: Italy orders nothing; at the deadline it is in civil disorder
    for power, orders in FALL.items():
        await game.order_ok(power, orders)
    assert await host.tick(minutes=49) == 0
    assert (await game.summary())["phase"] == "F1901M"
    assert await host.tick(minutes=1) == 1
    fall, retreats = (await game.resolutions())[-2:]
    assert fall["phase"] == "F1901M" and fall["civil_disorder"] == ["ITALY"]
    assert [d["unit"] for d in fall["dislodged"]] == ["A VEN"]
    # Italy's dislodged army was Italy's only business in the retreats: skipped at once
    assert retreats["phase"] == "F1901R"
    assert retreats["must_act"] == ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "RUSSIA", "TURKEY"]
    assert retreats["next_phase"] == "W1901A"
    summary = await game.summary()
    assert summary["phase"] == "W1901A" and summary["civil_disorder"] == ["ITALY"]
    assert await game.until_deadline() == timedelta(minutes=20)  # the shorter clock
    italy = (await game.view("ITALY"))["position"]["units"]["ITALY"]
    assert sorted(italy) == ["A ROM", "F ION"]

    # W1901A: Austria and Germany build; the others miss the builds deadline and build nothing
    await game.order_ok("AUSTRIA", ["A VIE B"])
    await game.order_ok("GERMANY", ["A BER B"])
    late = await game.order("FRANCE", ["A PAR B"], phase="W1901A")
    assert late.status_code == 200  # still in time
    assert await host.tick(minutes=20) == 1
    winter = (await game.resolutions())[-1]
    assert winter["phase"] == "W1901A" and winter["next_phase"] == "S1902M"
    assert winter["civil_disorder"] == ["ENGLAND", "RUSSIA", "TURKEY"]
    after_deadline = await game.order("ENGLAND", ["F EDI B"], phase="W1901A")
    assert after_deadline.status_code == 409 and after_deadline.json()["error"]["code"] == "wrong_phase"
    board = (await game.view())["position"]["units"]
    assert "A VIE" in board["AUSTRIA"] and "A BER" in board["GERMANY"] and "A PAR" in board["FRANCE"]
    assert len(board["ENGLAND"]) == 3 and len(board["RUSSIA"]) == 4 and len(board["TURKEY"]) == 3
    assert (await game.summary())["civil_disorder"] == ["ENGLAND", "ITALY", "RUSSIA", "TURKEY"]

    # S1902M: a draw vote; secret, withdrawn once, then everyone agrees
    for power in POWERS[:-1]:
        response = await game.vote(power)
        assert response.status_code == 200 and response.json() == {"passed": False, "your_vote": True}
    assert (await game.vote("AUSTRIA", False)).json()["your_vote"] is False
    assert (await game.view("ENGLAND"))["draw"] == {"passed": False, "your_vote": True}
    assert (await game.view())["draw"] == {"passed": False, "your_vote": None}
    assert "votes" not in (await game.summary())["draw"] or (await game.summary())["draw"]["votes"] is None
    assert (await game.vote("TURKEY")).json()["passed"] is False  # Austria withdrew
    final = await game.vote("AUSTRIA")
    assert final.json() == {"passed": True, "your_vote": True}

    summary = await game.summary()
    assert summary["status"] == "finished" and summary["clock"]["deadline"] is None
    assert summary["result"] == {"reason": "draw", "winners": [], "drawn": POWERS}
    kinds = [e["type"] for e in await game.game_events()]
    assert kinds[-2:] == ["DrawVoted", "GameFinished"]
    assert [r["phase"] for r in await game.resolutions()] == ["S1901M", "F1901M", "F1901R", "W1901A"]
    refused = await game.order("FRANCE", ["A PAR H"])
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "game_finished"
    assert (await game.vote("FRANCE")).status_code == 409
    assert await host.tick(days=2) == 0  # a finished game is never due


async def test_replay_reproduces_a_hosted_game_with_civil_disorder_and_skipped_phases(host: Host) -> None:
    from services.cli.ops import read_game_log, replay_log

    game = await host.started(7, movement_minutes=60, retreat_minutes=20)
    for power in POWERS:
        await game.order_ok(power, SPRING[power])
    for power, orders in FALL.items():
        await game.order_ok(power, orders)
    await host.tick(minutes=60)
    await game.order_ok("AUSTRIA", ["A VIE B"])
    await host.tick(minutes=20)
    records = await read_game_log(host.store, game.game_id)
    outcome = replay_log(game.game_id, records)
    assert outcome.phases_checked == 4 and outcome.difference is None
