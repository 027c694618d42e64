"""Missing a deadline (docs/hosting.md): civil disorder, forced removals, forced-only powers, abandoned games."""
from __future__ import annotations

from shared.clock import ManualClock
from tests.utils.http import POWERS as SEVEN
from tests.utils.http import Host, start_at


async def test_a_power_in_civil_disorder_holds_unsupported_and_its_dislodged_unit_disbands(host: Host) -> None:
    position = {"variant": "standard", "phase": "S1902M",
                "units": {"FRANCE": ["A BUR", "A RUH"], "GERMANY": ["A MUN", "A BER", "F KIE"]},
                "centers": {"FRANCE": ["PAR", "MAR", "BRE"], "GERMANY": ["BER", "KIE", "MUN"]}}
    game = await start_at(host, position, ["FRANCE", "GERMANY"], movement_minutes=60)
    await game.order_ok("FRANCE", ["A BUR - MUN", "A RUH S A BUR - MUN"])
    assert await host.tick(minutes=60) == 1
    spring, retreats = await game.resolutions()
    assert spring["civil_disorder"] == ["GERMANY"]
    assert spring["orders"].get("GERMANY") is None  # nothing ordered: A BER gave A MUN no support
    assert [d["unit"] for d in spring["dislodged"]] == ["A MUN"] and spring["dislodged"][0]["retreats"]
    # Germany had retreats, but a power in civil disorder does not retreat: the phase goes at once
    assert retreats["phase"] == "S1902R" and retreats["next_phase"] == "F1902M"
    units = (await game.view())["position"]["units"]
    assert sorted(units["GERMANY"]) == ["A BER", "F KIE"] and sorted(units["FRANCE"]) == ["A MUN", "A RUH"]
    summary = await game.summary()
    assert summary["phase"] == "F1902M" and summary["civil_disorder"] == ["GERMANY"]
    assert summary["status"] == "active"  # France still plays
    # ordering again takes Germany out of civil disorder at the next resolution
    await game.order_ok("GERMANY", ["A BER H"])
    await game.order_ok("FRANCE", ["A MUN H"])
    assert (await game.summary())["phase"] != "F1902M"  # both acted: resolved early
    assert (await game.summary())["civil_disorder"] == []


WINTER = {"variant": "standard", "phase": "W1902A",
          "units": {"GERMANY": ["F NAO", "A BUR", "A BER"], "ITALY": ["A TUS"], "FRANCE": ["A PIC"]},
          "centers": {"GERMANY": ["BER"], "FRANCE": ["PAR", "MAR", "BRE", "SPA"], "RUSSIA": ["ROM"]}}


async def test_forced_removals_follow_the_rule_and_forced_only_powers_are_not_missing(host: Host) -> None:
    game = await start_at(host, WINTER, ["FRANCE", "GERMANY", "ITALY"], retreat_minutes=30)
    await game.order_ok("FRANCE", ["A PAR B"])
    assert await host.tick(minutes=30) == 1
    winter = (await game.resolutions())[-1]
    # Italy's only possible order was removing its last unit: not counted as missing
    assert winter["civil_disorder"] == ["GERMANY"]
    # farthest from home first, fleets before armies: F NAO, then A BUR; A BER stays
    assert [o["order"] for o in winter["orders"]["GERMANY"]] == ["F NAO D", "A BUR D"]
    assert [o["order"] for o in winter["orders"]["ITALY"]] == ["A TUS D"]
    units = (await game.view())["position"]["units"]
    assert units["GERMANY"] == ["A BER"] and "ITALY" not in units
    assert sorted(units["FRANCE"]) == ["A PAR", "A PIC"]
    assert (await game.summary())["civil_disorder"] == ["GERMANY"]


async def test_a_power_owed_only_forced_removals_is_waited_for_until_it_orders(host: Host) -> None:
    game = await start_at(host, WINTER, ["FRANCE", "GERMANY", "ITALY"], retreat_minutes=30)
    await game.order_ok("GERMANY", ["A BER D", "A BUR D"])
    assert (await game.order_ok("FRANCE", ["A PAR B"]))["resolved"] is False  # Italy has not ordered yet
    assert (await game.summary())["phase"] == "W1902A"
    assert (await game.order_ok("ITALY", ["A TUS D"]))["resolved"] is True  # its removal: nobody is waited for
    winter = (await game.resolutions())[-1]
    assert winter["civil_disorder"] == []
    assert [o["order"] for o in winter["orders"]["ITALY"]] == ["A TUS D"]
    assert (await game.view())["position"]["units"]["GERMANY"] == ["F NAO"]


async def test_a_game_whose_every_surviving_power_is_in_civil_disorder_is_abandoned(host: Host,
                                                                                     clock: ManualClock) -> None:
    game = await host.started(7, movement_minutes=60)
    await game.order_ok("FRANCE", ["A PAR - BUR"])
    assert await host.tick(minutes=60) == 1
    assert (await game.summary())["status"] == "active"  # France acted
    assert await host.tick(minutes=60) == 1  # now nobody did
    summary = await game.summary()
    assert summary["status"] == "finished"
    assert summary["result"] == {"reason": "abandoned", "winners": [], "drawn": []}
    finished = (await game.game_events())[-1]
    assert finished["type"] == "GameFinished" and finished["data"]["reason"] == "abandoned"
    assert finished["data"]["in_disorder"] == list(SEVEN)
    assert await host.tick(days=30) == 0
