"""The air layer: rules 2, 15-22, 26-27 and reading R1 of docs/rules/dirigible.md."""
from __future__ import annotations

import pytest

from shared.rules.diplomacy import DocumentError
from tests.utils.dirigible_board import adjudicate, reasons, results, units_of

HOMES = {"ENGLAND": ["LON", "EDI", "LVP"], "FRANCE": ["PAR", "BRE", "MAR", "BEL"], "GERMANY": ["BER", "KIE", "MUN"]}


# --- rule 2 and reading R1: the unit, and where it flies ---------------------------------------------


def test_rule_2_a_dirigible_is_a_unit_of_its_own_written_D() -> None:
    out = adjudicate("S1901M", {"ENGLAND": ["D LON", "F LON"]}, {"ENGLAND": ["D LON H", "F LON H"]}, HOMES)
    assert results(out, "ENGLAND") == [("D LON H", "succeeds"), ("F LON H", "succeeds")]
    assert units_of(out, "ENGLAND") == {"D LON", "F LON"}


def test_reading_R1_dirigibles_fly_over_land_and_sea_across_any_border() -> None:
    out = adjudicate("S1901M", {"ENGLAND": ["D LON", "D EDI", "D BRE"], "GERMANY": ["D MUN"]},
                     {"ENGLAND": ["D LON - NTH", "D EDI - CLY", "D BRE - MAO"], "GERMANY": ["D MUN - SWI"]}, HOMES)
    assert results(out, "ENGLAND") == [("D LON - NTH", "succeeds"), ("D EDI - CLY", "succeeds"),
                                       ("D BRE - MAO", "succeeds")]
    assert results(out, "GERMANY") == [("D MUN - SWI", "void")]  # Switzerland stays impassable


def test_reading_R1_a_dirigible_moves_one_province_at_a_time() -> None:
    out = adjudicate("S1901M", {"ENGLAND": ["D LON"]}, {"ENGLAND": ["D LON - NWG"]}, HOMES)
    assert results(out, "ENGLAND") == [("D LON - NWG", "void")]


# --- rules 15, 16, 18: conflicts above the board, by the normal rules, untouched by ground units ----------


def test_rule_16_dirigibles_bounce_off_each_other_and_support_each_other() -> None:
    bounce = adjudicate("S1901M", {"ENGLAND": ["D LON"], "FRANCE": ["D BEL"]},
                        {"ENGLAND": ["D LON - NTH"], "FRANCE": ["D BEL - NTH"]}, HOMES)
    assert results(bounce, "ENGLAND") == [("D LON - NTH", "fails")]
    assert results(bounce, "FRANCE") == [("D BEL - NTH", "fails")]
    supported = adjudicate("S1901M", {"ENGLAND": ["D LON", "D EDI"], "FRANCE": ["D NTH"]},
                           {"ENGLAND": ["D LON - NTH", "D EDI S D LON - NTH"], "FRANCE": ["D NTH H"]}, HOMES)
    assert results(supported, "ENGLAND") == [("D LON - NTH", "succeeds"), ("D EDI S D LON - NTH", "succeeds")]
    assert reasons(supported, "FRANCE") == ["dislodged by D LON"]


def test_rule_15_a_ground_move_and_an_air_move_into_one_province_do_not_meet() -> None:
    out = adjudicate("S1901M", {"ENGLAND": ["F LON", "D LON"], "FRANCE": ["F BEL", "D BEL"]},
                     {"ENGLAND": ["F LON - NTH", "D LON - NTH"], "FRANCE": ["F BEL - HOL", "D BEL - HOL"]}, HOMES)
    assert results(out, "ENGLAND") == [("F LON - NTH", "succeeds"), ("D LON - NTH", "succeeds")]
    assert units_of(out, "ENGLAND") == {"F NTH", "D NTH"}


def test_rule_18_armies_and_fleets_have_no_effect_on_dirigibles() -> None:
    out = adjudicate(
        "S1901M", {"ENGLAND": ["D NTH"], "FRANCE": ["F ENG", "F BEL", "F HOL"]},
        {"ENGLAND": ["D NTH H"], "FRANCE": ["F ENG - NTH", "F BEL S F ENG - NTH", "F HOL S D NTH"]}, HOMES)
    assert results(out, "FRANCE") == [("F ENG - NTH", "succeeds"), ("F BEL S F ENG - NTH", "succeeds"),
                                      ("F HOL S D NTH", "void")]
    assert reasons(out, "FRANCE")[2] == "void: armies and fleets have no effect on dirigibles"
    assert units_of(out, "ENGLAND") == {"D NTH"} and out["dislodged"] == {}


# --- rules 17, 19, 20: supports towards the ground --------------------------------------------------


FIGHT = {"FRANCE": ["A BEL"], "GERMANY": ["A HOL", "D BEL"]}


def test_rule_17_a_dirigible_supports_an_attack_into_the_province_below_it() -> None:
    out = adjudicate("S1901M", FIGHT, {"GERMANY": ["A HOL - BEL", "D BEL S A HOL - BEL"], "FRANCE": ["A BEL H"]}, HOMES)
    assert results(out, "GERMANY") == [("A HOL - BEL", "succeeds"), ("D BEL S A HOL - BEL", "succeeds")]
    assert out["dislodged"]["FRANCE"][0]["unit"] == "A BEL"
    without = adjudicate("S1901M", FIGHT, {"GERMANY": ["A HOL - BEL"], "FRANCE": ["A BEL H"]}, HOMES)
    assert results(without, "GERMANY") == [("A HOL - BEL", "fails")]


def test_rule_17_a_dirigible_supports_the_defence_of_the_province_below_it() -> None:
    units = {"FRANCE": ["A BEL", "D BEL"], "GERMANY": ["A HOL", "A RUH"]}
    out = adjudicate("S1901M", units, {"FRANCE": ["A BEL H", "D BEL S A BEL"],
                                       "GERMANY": ["A HOL - BEL", "A RUH S A HOL - BEL"]}, HOMES)
    assert results(out, "GERMANY") == [("A HOL - BEL", "fails"), ("A RUH S A HOL - BEL", "succeeds")]
    assert results(out, "FRANCE") == [("A BEL H", "succeeds"), ("D BEL S A BEL", "succeeds")]


@pytest.mark.parametrize("order", ["D BEL S A HOL - RUH", "D BEL S A HOL", "D BEL S A PIC - BUR"])
def test_rule_17_no_support_to_the_ground_beyond_the_province_below(order: str) -> None:
    units = {"FRANCE": ["A PIC"], "GERMANY": ["A HOL", "D BEL"]}
    out = adjudicate("S1901M", units, {"GERMANY": [order]}, HOMES)
    assert results(out, "GERMANY") == [(order, "void")]


def test_rule_17_a_support_to_a_move_not_made_fails() -> None:
    out = adjudicate("S1901M", FIGHT, {"GERMANY": ["A HOL H", "D BEL S A HOL - BEL"]}, HOMES)
    assert results(out, "GERMANY")[1] == ("D BEL S A HOL - BEL", "fails")
    assert reasons(out, "GERMANY")[1] == "A HOL did not move to BEL"


def test_rule_19_a_supporting_dirigible_does_not_move_and_holds_its_place() -> None:
    units = {"FRANCE": ["A BEL", "D PIC"], "GERMANY": ["A HOL", "D BEL"]}
    out = adjudicate("S1901M", units, {"GERMANY": ["A HOL - BEL", "D BEL S A HOL - BEL"],
                                       "FRANCE": ["D PIC - BEL"]}, HOMES)
    assert "D BEL" in units_of(out, "GERMANY")
    assert results(out, "FRANCE") == [("D PIC - BEL", "fails")]


def test_rule_20_an_air_attack_on_the_supporting_dirigible_cuts_its_support() -> None:
    units = {"FRANCE": ["A BEL", "D PIC"], "GERMANY": ["A HOL", "D BEL"]}
    out = adjudicate("S1901M", units, {"GERMANY": ["A HOL - BEL", "D BEL S A HOL - BEL"],
                                       "FRANCE": ["A BEL H", "D PIC - BEL"]}, HOMES)
    assert results(out, "GERMANY") == [("A HOL - BEL", "fails"), ("D BEL S A HOL - BEL", "fails")]
    assert reasons(out, "GERMANY")[1] == "support cut by D PIC"
    assert "A BEL" in units_of(out, "FRANCE")


def test_rule_20_a_ground_attack_does_not_cut_a_dirigibles_support() -> None:
    units = {"FRANCE": ["A BEL", "D BEL", "A PIC"], "GERMANY": ["A HOL", "A RUH", "A BUR"]}
    out = adjudicate("S1901M", units, {
        "FRANCE": ["A BEL H", "D BEL S A BEL", "A PIC S A BEL"],
        "GERMANY": ["A HOL - BEL", "A RUH S A HOL - BEL", "A BUR - PIC"]}, HOMES)
    assert results(out, "FRANCE") == [("A BEL H", "succeeds"), ("D BEL S A BEL", "succeeds"),
                                      ("A PIC S A BEL", "fails")]
    assert results(out, "GERMANY")[0] == ("A HOL - BEL", "fails")


def test_rule_20_by_the_normal_rules_a_dirigible_does_not_cut_its_own_powers_support() -> None:
    units = {"FRANCE": ["A BEL"], "GERMANY": ["A HOL", "D BEL", "D RUH"]}
    out = adjudicate("S1901M", units, {"GERMANY": ["A HOL - BEL", "D BEL S A HOL - BEL", "D RUH - BEL"]}, HOMES)
    assert results(out, "GERMANY") == [("A HOL - BEL", "succeeds"), ("D BEL S A HOL - BEL", "succeeds"),
                                       ("D RUH - BEL", "fails")]


def test_rule_17_an_air_support_of_a_power_does_not_help_dislodge_its_own_unit() -> None:
    units = {"FRANCE": ["A BEL", "D BEL"], "GERMANY": ["A HOL"]}
    out = adjudicate("S1901M", units, {"GERMANY": ["A HOL - BEL"], "FRANCE": ["D BEL S A HOL - BEL"]}, HOMES)
    assert results(out, "GERMANY") == [("A HOL - BEL", "fails")]


# --- rules 21, 22 --------------------------------------------------------------------------------


def test_rule_21_one_dirigible_per_province_beside_any_ground_unit() -> None:
    out = adjudicate("S1901M", {"FRANCE": ["D LON"], "ENGLAND": ["F LON"]}, {}, HOMES)
    assert units_of(out, "FRANCE") == {"D LON"} and units_of(out, "ENGLAND") == {"F LON"}
    with pytest.raises(DocumentError, match="two dirigibles in LON"):
        adjudicate("S1901M", {"FRANCE": ["D LON"], "ENGLAND": ["D LON"]}, {}, HOMES)


def test_rule_21_a_dirigible_moving_onto_a_foreign_ground_unit_is_not_stopped_by_it() -> None:
    out = adjudicate("S1901M", {"FRANCE": ["D PIC"], "ENGLAND": ["A BEL"]}, {"FRANCE": ["D PIC - BEL"]}, HOMES)
    assert results(out, "FRANCE") == [("D PIC - BEL", "succeeds")]
    assert units_of(out, "FRANCE") == {"D BEL"} and units_of(out, "ENGLAND") == {"A BEL"}


def test_rule_22_a_dislodged_dirigible_is_disbanded_at_once() -> None:
    out = adjudicate("S1901M", {"ENGLAND": ["D LON", "D EDI"], "FRANCE": ["D NTH"]},
                     {"ENGLAND": ["D LON - NTH", "D EDI S D LON - NTH"]}, HOMES)
    assert out["dislodged"] == {"FRANCE": [{"unit": "D NTH", "attacker_from": "LON", "retreats": []}]}
    assert "FRANCE" not in out["units"]
    assert out["next_phase"] == "F1901M"  # nothing to retreat: the Summer is skipped


# --- rules 26, 27 -----------------------------------------------------------------------------------


def test_rule_26_dirigibles_carry_nothing() -> None:
    out = adjudicate("S1901M", {"ENGLAND": ["D NTH", "A LON"]},
                     {"ENGLAND": ["D NTH C A LON - NWY", "A LON - NWY"]}, HOMES)
    assert results(out, "ENGLAND") == [("D NTH C A LON - NWY", "void"), ("A LON - NWY", "void")]


def test_rule_27_dirigibles_are_never_convoyed() -> None:
    out = adjudicate("S1901M", {"ENGLAND": ["D LON", "F NTH"]},
                     {"ENGLAND": ["D LON - NWY VIA", "F NTH C D LON - NWY"]}, HOMES)
    assert results(out, "ENGLAND") == [("D LON - NWY VIA", "void"), ("F NTH C D LON - NWY", "void")]
    assert units_of(out, "ENGLAND") == {"D LON", "F NTH"}


# --- rule 1: one unit, one order, in the air as on the ground (DATC 4.D.3) ------------------------------


def test_rule_1_the_same_support_given_twice_by_a_dirigible_counts_once() -> None:
    units = {"ENGLAND": ["D BEL", "A PIC"], "FRANCE": ["A BEL", "A HOL"]}
    twice = ["A PIC - BEL", "D BEL S A PIC - BEL", "D BEL S A PIC - BEL"]
    out = adjudicate("S1901M", units, {"ENGLAND": twice, "FRANCE": ["A HOL S A BEL"]}, HOMES)
    assert results(out, "ENGLAND") == [("A PIC - BEL", "fails"), ("D BEL S A PIC - BEL", "succeeds"),
                                       ("D BEL S A PIC - BEL", "succeeds")]
    assert units_of(out, "FRANCE") == {"A BEL", "A HOL"}  # one support against one: a standoff


def test_rule_1_a_dirigible_ordered_to_hold_and_to_support_holds_and_gives_no_support() -> None:
    units = {"ENGLAND": ["D BEL", "A PIC"], "FRANCE": ["A BEL"]}
    for orders in (["A PIC - BEL", "D BEL H", "D BEL S A PIC - BEL"],
                   ["A PIC - BEL", "D BEL S A PIC - BEL", "D BEL H"]):
        out = adjudicate("S1901M", units, {"ENGLAND": orders}, HOMES)
        assert [r for _, r in results(out, "ENGLAND")] == ["fails", "void", "void"]
        assert reasons(out, "ENGLAND")[1:] == ["void: conflicting orders for D BEL"] * 2
        assert units_of(out, "FRANCE") == {"A BEL"}


def test_rule_1_two_different_supports_to_the_ground_leave_the_dirigible_holding() -> None:
    units = {"ENGLAND": ["D BEL", "A PIC", "A RUH"], "FRANCE": ["A BEL"]}
    out = adjudicate("S1901M", units, {"ENGLAND": ["A PIC - BEL", "D BEL S A PIC - BEL", "D BEL S A RUH - BEL"]},
                     HOMES)
    assert results(out, "ENGLAND") == [("A PIC - BEL", "fails"), ("D BEL S A PIC - BEL", "void"),
                                       ("D BEL S A RUH - BEL", "void")]


def test_rule_1_a_hold_and_a_move_of_one_dirigible_leave_it_holding_as_on_the_ground() -> None:
    out = adjudicate("S1901M", {"ENGLAND": ["D LON"]}, {"ENGLAND": ["D LON - NTH", "D LON H"]}, HOMES)
    assert results(out, "ENGLAND") == [("D LON - NTH", "void"), ("D LON H", "void")]
    assert units_of(out, "ENGLAND") == {"D LON"}
    out = adjudicate("S1901M", {"ENGLAND": ["D LON"]}, {"ENGLAND": ["D LON - NTH", "D LON - NTH"]}, HOMES)
    assert results(out, "ENGLAND") == [("D LON - NTH", "succeeds")] * 2
