"""Supply points, the opening builds and the Winter: rules 3-12, 35-37, 39-40 and readings R4-R7."""
from __future__ import annotations

from shared.rules.diplomacy import load_map
from shared.rules.dirigible import adjudicate_dirigible, balances, opening_position, supply_points
from shared.rules.dirigible.document import read_dirigible_order
from shared.rules.variants import get_variant
from tests.utils.dirigible_board import adjudicate, reasons, results, units_of
from tests.utils.random_play import readable

VARIANT = get_variant("dirigible")
ENGLAND_HOMES = {"ENGLAND": ["EDI", "LON", "LVP"]}


def test_rules_7_and_8_the_game_opens_in_winter_1900_with_the_points_of_the_home_centres() -> None:
    opening = VARIANT.opening({}, seed=1)
    assert opening.phase == "W1900A"
    assert opening.state["units"] == {}
    assert sorted(opening.must_act) == sorted(load_map("dirigible").powers)
    view = VARIANT.view(opening.state, None)
    assert view["points"] == {"AUSTRIA": 15, "ENGLAND": 15, "FRANCE": 15, "GERMANY": 15,
                              "ITALY": 15, "RUSSIA": 20, "TURKEY": 15}


def test_rule_12_englands_opening_builds_spend_all_15_points() -> None:
    out = adjudicate("W1900A", {}, {"ENGLAND": ["F LVP B", "F LON B", "F EDI B", "D LON B", "D EDI B"]},
                     ENGLAND_HOMES)
    assert results(out, "ENGLAND") == [("F LVP B", "succeeds"), ("F LON B", "succeeds"), ("F EDI B", "succeeds"),
                                       ("D LON B", "succeeds"), ("D EDI B", "fails")]
    assert reasons(out, "ENGLAND")[4] == "D EDI costs 3 SP, 0 left"
    assert units_of(out, "ENGLAND") == {"F LVP", "F LON", "F EDI", "D LON"}
    assert out["points"] == {"ENGLAND": 15}
    assert out["next_phase"] == "S1901M"


def test_rule_8_builds_are_made_in_home_centres_only() -> None:
    out = adjudicate("W1900A", {}, {"ENGLAND": ["A YOR B", "D BEL B"]}, ENGLAND_HOMES)
    assert results(out, "ENGLAND") == [("A YOR B", "void"), ("D BEL B", "void")]


def test_rule_9_russia_may_not_open_with_a_fleet_on_st_petersburgs_north_coast() -> None:
    russia = {"RUSSIA": ["MOS", "SEV", "STP", "WAR"]}
    out = adjudicate("W1900A", {}, {"RUSSIA": ["F STP/NC B"]}, russia)
    assert results(out, "RUSSIA") == [("F STP/NC B", "void")]
    out = adjudicate("W1900A", {}, {"RUSSIA": ["F STP/SC B", "A MOS B", "A WAR B", "F SEV B", "D MOS B", "D WAR B"]},
                     russia)
    assert [r for _, r in results(out, "RUSSIA")] == ["succeeds"] * 5 + ["fails"]  # 19 of 20 spent
    assert out["points"] == {"RUSSIA": 20}


def test_reading_R4_the_north_coast_is_open_to_russia_after_the_opening() -> None:
    out = adjudicate("W1901A", {"RUSSIA": ["A MOS"]}, {"RUSSIA": ["F STP/NC B"]},
                     {"RUSSIA": ["MOS", "SEV", "STP", "WAR"]})
    assert results(out, "RUSSIA") == [("F STP/NC B", "succeeds")]


def test_rule_10_normal_build_restrictions_apply() -> None:
    out = adjudicate("W1900A", {}, {"GERMANY": ["F MUN B", "F KIE B", "A KIE B"]}, {"GERMANY": ["BER", "KIE", "MUN"]})
    assert results(out, "GERMANY") == [("F MUN B", "void"), ("F KIE B", "succeeds"), ("A KIE B", "void")]


def test_rule_11_a_dirigible_may_be_built_where_an_army_or_fleet_stands_or_is_being_built() -> None:
    out = adjudicate("W1901A", {"GERMANY": ["A MUN"]}, {"GERMANY": ["D MUN B", "F KIE B", "D KIE B"]},
                     {"GERMANY": ["BER", "KIE", "MUN", "DEN"]})
    assert results(out, "GERMANY") == [("D MUN B", "succeeds"), ("F KIE B", "succeeds"), ("D KIE B", "succeeds")]
    assert units_of(out, "GERMANY") == {"A MUN", "D MUN", "F KIE", "D KIE"}


def test_rules_3_to_5_units_are_paid_in_points_not_counted_against_centres() -> None:
    """Three centres (15 SP) keep four units: three dirigibles (9 SP) and a fleet (4 SP)."""
    out = adjudicate("W1900A", {}, {"ENGLAND": ["D LON B", "D EDI B", "D LVP B", "F LON B"]}, ENGLAND_HOMES)
    assert [r for _, r in results(out, "ENGLAND")] == ["succeeds"] * 4
    assert len(units_of(out, "ENGLAND")) == 4


def test_rule_5_an_army_costs_four_so_one_point_short_fails() -> None:
    units = {"ENGLAND": ["F NTH", "F NWG", "D NTH"]}  # upkeep 11 of 15: 4 left
    out = adjudicate("W1901A", units, {"ENGLAND": ["D LON B", "A LVP B"]}, ENGLAND_HOMES)
    assert results(out, "ENGLAND") == [("D LON B", "succeeds"), ("A LVP B", "fails")]
    assert reasons(out, "ENGLAND")[1] == "A LVP costs 4 SP, 1 left"


def test_rule_6_points_left_unspent_are_lost() -> None:
    game_map = load_map("dirigible")
    position = opening_position("dirigible", game_map)
    build = [readable(read_dirigible_order("F LON B", "ENGLAND", position, game_map))]
    resolution = adjudicate_dirigible(position, {"ENGLAND": build})
    assert str(resolution.next_phase) == "S1901M"
    for _ in range(2):  # spring and fall: everybody holds
        resolution = adjudicate_dirigible(resolution.position, {})
    assert str(resolution.next_phase) == "W1901A"
    winter = resolution.position
    assert supply_points(winter)["ENGLAND"] == 15  # not 15 + the 11 left over in 1900
    assert balances(winter)["ENGLAND"] == 11


def test_removals_until_the_upkeep_fits_then_no_more() -> None:
    units = {"ENGLAND": ["F NTH", "F LON", "D LON"]}  # 11 SP upkeep on 10 SP
    out = adjudicate("W1901A", units, {"ENGLAND": ["D LON D", "F NTH D"]}, {"ENGLAND": ["LON", "EDI"]})
    view = VARIANT.view({"variant": "dirigible", "phase": "W1901A", "units": units,
                         "centers": {"ENGLAND": ["LON", "EDI"]}}, None)
    assert view["balance"] == {"ENGLAND": -1} and view["adjustments"] == {"ENGLAND": -1}  # one unit to remove
    assert results(out, "ENGLAND") == [("D LON D", "succeeds"), ("F NTH D", "fails")]
    assert reasons(out, "ENGLAND")[1] == "the upkeep already fits the points"
    assert units_of(out, "ENGLAND") == {"F NTH", "F LON"}


def test_reading_R5_civil_disorder_removes_farthest_first_until_the_upkeep_fits() -> None:
    units = {"ENGLAND": ["F NTH", "F LON", "D LON", "A WAL"]}  # 15 SP upkeep on 10 SP
    out = adjudicate("W1901A", units, {}, {"ENGLAND": ["LON", "EDI"]})
    assert results(out, "ENGLAND") == [("F NTH D", "succeeds"), ("A WAL D", "succeeds")]
    assert units_of(out, "ENGLAND") == {"F LON", "D LON"}


def test_reading_R5_a_too_small_removal_is_completed_by_the_rules() -> None:
    units = {"ENGLAND": ["F NTH", "F LON", "D LON", "D EDI"]}  # 14 SP upkeep on 5 SP
    out = adjudicate("W1901A", units, {"ENGLAND": ["D LON D"]}, {"ENGLAND": ["LON"]})
    assert results(out, "ENGLAND")[0] == ("D LON D", "succeeds")
    by_the_rules = "removal not ordered: removed by the rules, farthest from home"
    assert [r for r in out["orders"]["ENGLAND"][1:]] == [
        {"order": "F NTH D", "result": "succeeds", "reason": by_the_rules},
        {"order": "F LON D", "result": "succeeds", "reason": by_the_rules}]
    assert units_of(out, "ENGLAND") == {"D EDI"}  # at equal distance fleets go before dirigibles


def test_rule_36_englands_points_without_a_devastated_brest() -> None:
    centres = {"ENGLAND": ["LON", "LVP", "EDI", "BEL", "BRE"]}
    out = adjudicate("W1901A", {"ENGLAND": ["F NTH"], "GERMANY": ["D BRE"]}, {}, centres, devastated=["BRE"])
    assert out["points"]["ENGLAND"] == 20
    assert out["devastated"] == []  # the year is over


def test_rule_40_england_has_11_points_and_may_not_build_d_lon_beside_a_french_dirigible() -> None:
    centres = {"ENGLAND": ["LON", "EDI", "LVP", "NWY", "BEL", "DEN"], "FRANCE": ["PAR", "BRE", "MAR"]}
    units = {"ENGLAND": ["F NTH", "A NWY", "F DEN", "F BEL", "D NTH"], "FRANCE": ["D LON"]}
    out = adjudicate("W1901A", units, {"ENGLAND": ["D LON B", "F LON B", "D EDI B", "A LVP B", "D LVP B"]}, centres)
    assert out["points"]["ENGLAND"] == 30
    view = VARIANT.view({"variant": "dirigible", "phase": "W1901A", "units": units, "centers": centres}, None)
    assert view["balance"]["ENGLAND"] == 11 and view["adjustments"]["ENGLAND"] == 11
    assert results(out, "ENGLAND") == [("D LON B", "void"), ("F LON B", "succeeds"), ("D EDI B", "succeeds"),
                                       ("A LVP B", "succeeds"), ("D LVP B", "fails")]  # 4 + 3 + 4 = 11
    assert reasons(out, "ENGLAND")[0] == "a dirigible is already in LON"


def test_rule_40_with_london_devastated_nothing_is_built_there() -> None:
    centres = {"ENGLAND": ["LON", "EDI", "LVP", "NWY", "BEL", "DEN"], "FRANCE": ["PAR", "BRE", "MAR"]}
    units = {"ENGLAND": ["F NTH", "A NWY", "F DEN", "F BEL", "D NTH"], "FRANCE": ["D LON"]}
    out = adjudicate("W1901A", units, {"ENGLAND": ["F LON B", "A LVP B"]}, centres, devastated=["LON"])
    assert out["points"]["ENGLAND"] == 25
    assert results(out, "ENGLAND") == [("F LON B", "void"), ("A LVP B", "succeeds")]
    assert reasons(out, "ENGLAND")[0] == "LON is devastated this year"


def test_rule_39_no_dirigible_is_built_in_a_home_centre_holding_a_dirigible_of_its_own_power_either() -> None:
    out = adjudicate("W1901A", {"ENGLAND": ["D LON"]}, {"ENGLAND": ["D LON B", "A LON B"]}, ENGLAND_HOMES)
    assert results(out, "ENGLAND") == [("D LON B", "void"), ("A LON B", "succeeds")]


def test_reading_R6_a_winter_nobody_can_act_in_is_skipped_and_the_devastation_ends() -> None:
    centres = {"ENGLAND": ["LON", "EDI", "LVP"], "FRANCE": ["BRE"]}
    units = {"ENGLAND": ["F NTH", "F NWG", "F ENG"]}  # 12 SP of 15: a dirigible is affordable
    out = adjudicate("F1901M", units, {}, centres)
    assert out["next_phase"] == "W1901A"
    units = {"ENGLAND": ["F NTH", "F NWG", "F ENG", "D NTH"]}  # 15 SP of 15; France: 0 of 0
    out = adjudicate("F1901M", units, {}, centres, devastated=["BRE"])
    assert out["next_phase"] == "S1902M"
    assert out["devastated"] == []
