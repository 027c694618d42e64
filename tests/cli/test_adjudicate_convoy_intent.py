"""Seed 004: "the convoyed army's order need not name the convoy, the fleet's convoy order takes care
of that; this can lead to an army being convoyed without it being meant" read with the fourth
edition's convoy intent (docs/rules/datc.md, 4.A.3): through ``entente adjudicate`` and over HTTP.

- An army ordered to a province it cannot reach by land is convoyed by whatever fleets are ordered
  to convoy it, foreign ones included, though its order does not say "via".
- An army with a land route goes by sea when a fleet of its own power is ordered to convoy it,
  though its order does not say "via" (the player's own convoy order takes care of it).
- A foreign fleet's convoy order does not take an army with a land route to sea: it moves by land.
"""
from __future__ import annotations

from typing import Any

from tests.utils.adjudicate_command import adjudicated
from tests.utils.http import Host, start_at


def results(output: dict[str, Any]) -> dict[str, list[tuple[str, str]]]:
    return {power: [(item["order"], item["result"]) for item in items] for power, items in output["orders"].items()}


def swap(convoying_power: str) -> dict[str, Any]:
    """England's army in Norway and Russia's fleet in Sweden change places, a fleet in the
    Skagerrak ordered to convoy the army, whose own order does not say "via"."""
    units: dict[str, list[str]] = {"ENGLAND": ["A NWY"], "RUSSIA": ["F SWE"]}
    units.setdefault(convoying_power, []).append("F SKA")
    orders: dict[str, list[str]] = {"ENGLAND": ["A NWY - SWE"], "RUSSIA": ["F SWE - NWY"]}
    orders.setdefault(convoying_power, []).append("F SKA C A NWY - SWE")
    return {"variant": "standard", "phase": "S1902M", "units": units, "centers": {}, "orders": orders}


LONDON_TO_BELGIUM: dict[str, Any] = {"variant": "standard", "phase": "S1902M",
                                     "units": {"ENGLAND": ["A LON"], "FRANCE": ["F ENG"]}, "centers": {},
                                     "orders": {"ENGLAND": ["A LON - BEL"], "FRANCE": ["F ENG C A LON - BEL"]}}


def test_a_foreign_fleet_convoys_an_army_without_a_land_route_that_never_said_via() -> None:
    out = adjudicated(LONDON_TO_BELGIUM)
    assert results(out) == {"ENGLAND": [("A LON - BEL", "succeeds")], "FRANCE": [("F ENG C A LON - BEL", "succeeds")]}
    assert out["units"]["ENGLAND"] == ["A BEL"]


def test_an_own_fleets_convoy_takes_an_army_with_a_land_route_to_sea_unasked() -> None:
    out = adjudicated(swap("ENGLAND"))
    # by sea, so no head-to-head battle with the fleet coming the other way: the two swap
    assert results(out) == {"ENGLAND": [("A NWY - SWE", "succeeds"), ("F SKA C A NWY - SWE", "succeeds")],
                            "RUSSIA": [("F SWE - NWY", "succeeds")]}
    assert sorted(out["units"]["ENGLAND"]) == ["A SWE", "F SKA"] and out["units"]["RUSSIA"] == ["F NWY"]


def test_a_foreign_fleet_cannot_take_an_army_with_a_land_route_to_sea() -> None:
    out = adjudicated(swap("GERMANY"))
    # over land: a head-to-head battle with the Russian fleet, one against one, both bounce
    assert results(out) == {"ENGLAND": [("A NWY - SWE", "fails")], "RUSSIA": [("F SWE - NWY", "fails")],
                            "GERMANY": [("F SKA C A NWY - SWE", "fails")]}
    assert out["orders"]["GERMANY"][0]["reason"] == "A NWY took the land route"
    assert out["units"]["ENGLAND"] == ["A NWY"]


async def test_the_same_three_cases_in_hosted_games(host: Host) -> None:
    for document, expected in ((swap("ENGLAND"), {"A SWE", "F SKA"}), (swap("GERMANY"), {"A NWY"}),
                               (LONDON_TO_BELGIUM, {"A BEL"})):
        position = {key: document[key] for key in ("variant", "phase", "units", "centers")}
        game = await start_at(host, position, sorted(document["orders"]))
        for power, orders in sorted(document["orders"].items()):
            await game.order_ok(power, orders)
        hosted = (await game.resolutions())[-1]
        assert {p: [(o["order"], o["result"]) for o in items] for p, items in hosted["orders"].items()} == \
            results(adjudicated(document))
        assert set((await game.view())["position"]["units"]["ENGLAND"]) == expected
