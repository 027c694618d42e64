"""Possible orders on hand-made positions of the standard map: what a player's menu holds."""
from __future__ import annotations

import pytest

from shared.rules.diplomacy.geography import load_map
from shared.rules.diplomacy.position import DislodgedUnit
from shared.rules.diplomacy.possible import possible_orders, possible_orders_all
from tests.utils.random_play import make_position, parse_unit, random_positions

STANDARD = load_map("standard")
POWERS = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]


def opening():
    return make_position(
        "S1901M",
        {power: [str(u) for u in units] for power, units in STANDARD.starting_units.items()},
        {power: sorted(homes) for power, homes in STANDARD.home_centres.items()},
    )


def texts(position, power):
    return {loc: [str(o) for o in orders] for loc, orders in possible_orders(position, power, STANDARD).items()}


def test_opening_army_has_holds_moves_and_supports_of_its_neighbours():
    assert sorted(texts(opening(), "ENGLAND")["LVP"]) == sorted([
        "A LVP H",
        "A LVP - CLY", "A LVP - EDI", "A LVP - WAL", "A LVP - YOR",
        "A LVP S F EDI",
        "A LVP S F EDI - CLY", "A LVP S F EDI - YOR",
        "A LVP S F LON - WAL", "A LVP S F LON - YOR",
    ])


def test_opening_menu_covers_every_unit_of_every_power():
    menus = possible_orders_all(opening(), STANDARD)
    assert sorted(menus) == POWERS
    for power, units in STANDARD.starting_units.items():
        assert sorted(menus[power]) == sorted(u.location for u in units)
    assert sum(len(menu) for menu in menus.values()) == 22


def test_no_order_is_offered_twice():
    position = make_position("F1905M", {
        "ENGLAND": ["A LON", "F NTH", "F ENG", "F MAO", "A WAL"],
        "FRANCE": ["A BRE", "F SPA/NC", "A PIC"],
    })
    for power in ("ENGLAND", "FRANCE"):
        for orders in texts(position, power).values():
            assert len(orders) == len(set(orders))


def test_fleets_move_to_each_coast_they_can_reach_and_support_into_the_province_once():
    position = make_position("S1901M", {"FRANCE": ["F MAO", "A GAS"], "RUSSIA": ["F STP/SC"]})
    french = texts(position, "FRANCE")["MAO"]
    assert "F MAO - SPA/NC" in french and "F MAO - SPA/SC" in french
    assert "F MAO - SPA" not in french
    assert texts(position, "FRANCE")["GAS"].count("A GAS S F MAO - SPA") == 1
    assert sorted(o for o in texts(position, "RUSSIA")["STP/SC"] if " - " in o) == [
        "F STP/SC - BOT", "F STP/SC - FIN", "F STP/SC - LVN",
    ]


def test_army_is_offered_convoys_only_where_fleets_stand_in_seas():
    no_fleet_at_sea = make_position("S1901M", {"ENGLAND": ["A LON", "F HOL"]})
    assert not [o for o in texts(no_fleet_at_sea, "ENGLAND")["LON"] if o.endswith(("BEL", "VIA"))]

    with_fleet = make_position("S1901M", {"ENGLAND": ["A LON", "F NTH"]})
    moves = [o for o in texts(with_fleet, "ENGLAND")["LON"] if " - " in o and " S " not in o]
    assert sorted(moves) == sorted([
        "A LON - WAL", "A LON - YOR",  # by land
        "A LON - YOR VIA",  # by land too, but the player may ask for the convoy
        "A LON - BEL", "A LON - DEN", "A LON - EDI", "A LON - HOL", "A LON - NWY",
    ])
    convoys = [o for o in texts(with_fleet, "ENGLAND")["NTH"] if " C " in o]
    assert sorted(convoys) == sorted(
        f"F NTH C A LON - {p}" for p in ["BEL", "DEN", "EDI", "HOL", "NWY", "YOR"]
    )


def test_convoy_chains_run_through_consecutive_fleets_of_any_power():
    position = make_position("S1901M", {"ENGLAND": ["A LON", "F ENG"], "FRANCE": ["F MAO"]})
    assert "A LON - NAF" in texts(position, "ENGLAND")["LON"]
    assert "F MAO C A LON - NAF" in texts(position, "FRANCE")["MAO"]
    broken = make_position("S1901M", {"ENGLAND": ["A LON", "F ENG"], "FRANCE": ["F WES"]})
    assert "A LON - NAF" not in texts(broken, "ENGLAND")["LON"]


def test_other_units_may_support_a_move_by_convoy():
    position = make_position("S1901M", {"ENGLAND": ["A LON", "F NTH"], "GERMANY": ["A RUH"]})
    assert "A RUH S A LON - BEL" in texts(position, "GERMANY")["RUH"]


def test_a_fleet_supports_a_convoyed_move_only_if_another_chain_carries_the_army():
    alone = make_position("S1901M", {"ENGLAND": ["A LON", "F NTH"]})
    assert "F NTH S A LON - BEL" not in texts(alone, "ENGLAND")["NTH"]
    helped = make_position("S1901M", {"ENGLAND": ["A LON", "F NTH", "F ENG"]})
    assert "F NTH S A LON - BEL" in texts(helped, "ENGLAND")["NTH"]


def test_convoys_are_offered_only_to_fleets_on_a_chain_that_cannot_be_shortened():
    # KIE borders BAL and BAL borders PRU: the fleet in BOT is not needed (DATC 4.E.1).
    position = make_position("S1901M", {"GERMANY": ["A KIE", "F BAL"], "RUSSIA": ["F BOT"]})
    assert "F BAL C A KIE - PRU" in texts(position, "GERMANY")["BAL"]
    russian = texts(position, "RUSSIA")["BOT"]
    assert "F BOT C A KIE - PRU" not in russian
    assert "F BOT C A KIE - FIN" in russian


def test_retreat_phase_offers_the_retreats_and_a_disband_to_the_dislodged_only():
    position = make_position(
        "F1901R",
        {"GERMANY": ["A BEL", "F HOL"], "FRANCE": ["A BUR"]},
        dislodged=[DislodgedUnit("FRANCE", parse_unit("A PIC"), "BEL", ("BRE", "PAR"))],
    )
    assert texts(position, "FRANCE") == {"PIC": ["A PIC R BRE", "A PIC R PAR", "A PIC D"]}
    assert texts(position, "GERMANY") == {}


def test_builds_in_owned_vacant_home_centres_with_fleets_on_each_coast():
    position = make_position(
        "W1901A",
        {"GERMANY": ["A BEL", "F HOL", "A RUH"], "RUSSIA": ["A WAR"]},
        {"GERMANY": ["BER", "KIE", "MUN", "HOL", "BEL"], "RUSSIA": ["STP", "MOS", "WAR"]},
    )
    german = texts(position, "GERMANY")
    assert german == {
        "BER": ["A BER B", "F BER B"],
        "KIE": ["A KIE B", "F KIE B"],
        "MUN": ["A MUN B"],
        "WAIVE": ["WAIVE"],
    }
    assert sorted(texts(position, "RUSSIA")["STP"]) == ["A STP B", "F STP/NC B", "F STP/SC B"]
    assert "WAR" not in texts(position, "RUSSIA")  # occupied


def test_unowned_home_centres_are_not_build_sites():
    position = make_position(
        "W1901A", {"GERMANY": ["A RUH"]}, {"GERMANY": ["KIE", "HOL"], "FRANCE": ["MUN"]}
    )
    assert sorted(texts(position, "GERMANY")) == ["KIE", "WAIVE"]


def test_a_power_with_too_many_units_is_offered_each_removal():
    position = make_position(
        "W1901A", {"FRANCE": ["A PAR", "A BUR", "F MAO"]}, {"FRANCE": ["BRE", "PAR"]}
    )
    assert texts(position, "FRANCE") == {
        "BUR": ["A BUR D"], "MAO": ["F MAO D"], "PAR": ["A PAR D"],
    }


@pytest.mark.parametrize("phase", ["S1901M", "F1901R", "W1901A"])
def test_powers_without_anything_to_order_get_an_empty_menu(phase):
    position = make_position(phase, {"FRANCE": ["A PAR"]}, {"FRANCE": ["PAR"]})
    menus = possible_orders_all(position, STANDARD)
    assert sorted(menus) == POWERS
    assert all(menus[p] == {} for p in POWERS if p != "FRANCE" or phase != "S1901M")



def test_one_powers_menu_is_its_part_of_the_whole_boards() -> None:
    """possible_orders(position, power) works out only that power's units: the same menus."""
    checked = 0
    for position in random_positions(21, 40):
        everyone = possible_orders_all(position, STANDARD)
        for power in POWERS:
            assert possible_orders(position, power, STANDARD) == everyone.get(power, {}), (position.phase, power)
            checked += 1
    assert checked == 40 * len(POWERS)
