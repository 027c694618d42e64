"""Retreats beside dirigibles, devastation, the year and victory: rules 13-14, 23-25, 28-41 and
readings R2, R3, R6 of docs/rules/dirigible.md."""
from __future__ import annotations

from shared.rules.diplomacy import load_map, parse_order
from shared.rules.diplomacy.phase import PhaseType
from tests.utils.dirigible_board import adjudicate, reasons, results, units_of

CENTRES = {"FRANCE": ["BEL", "BRE", "MAR", "PAR"], "ENGLAND": ["EDI", "LON", "LVP"], "GERMANY": ["BER", "KIE", "MUN"]}
HOL_DISLODGED = {"FRANCE": [{"unit": "A HOL", "attacker_from": "RUH", "retreats": ["BEL", "NTH"]}]}


# --- rules 23-25: ground retreats ------------------------------------------------------------------


def test_rule_23_a_province_holding_only_a_dirigible_is_open_to_a_retreat() -> None:
    units = {"FRANCE": ["A HOL"], "GERMANY": ["A RUH", "A KIE"], "ENGLAND": ["D BEL"]}
    out = adjudicate("F1901M", units, {"GERMANY": ["A RUH - HOL", "A KIE S A RUH - HOL"]}, CENTRES)
    assert out["dislodged"]["FRANCE"] == [{"unit": "A HOL", "attacker_from": "RUH", "retreats": ["BEL"]}]


def test_rule_24_a_standoff_between_dirigibles_leaves_the_province_open_to_a_retreat() -> None:
    units = {"FRANCE": ["A HOL"], "GERMANY": ["A RUH", "A KIE", "D PIC"], "ENGLAND": ["D NTH"]}
    orders = {"GERMANY": ["A RUH - HOL", "A KIE S A RUH - HOL", "D PIC - BEL"], "ENGLAND": ["D NTH - BEL"]}
    out = adjudicate("F1901M", units, orders, CENTRES)
    assert results(out, "ENGLAND") == [("D NTH - BEL", "fails")]
    assert out["dislodged"]["FRANCE"][0]["retreats"] == ["BEL"]
    ground = adjudicate("F1901M", {"FRANCE": ["A HOL"], "GERMANY": ["A RUH", "A KIE", "A PIC"], "ENGLAND": ["F NTH"]},
                        {"GERMANY": ["A RUH - HOL", "A KIE S A RUH - HOL", "A PIC - BEL"], "ENGLAND": ["F NTH - BEL"]},
                        CENTRES)
    assert ground["dislodged"]["FRANCE"][0]["retreats"] == []  # the standard rule, for contrast


def test_rule_25_a_devastated_centre_is_open_to_a_retreat() -> None:
    units = {"FRANCE": ["A HOL"], "GERMANY": ["A RUH", "A KIE"]}
    out = adjudicate("F1901M", units, {"GERMANY": ["A RUH - HOL", "A KIE S A RUH - HOL"]}, CENTRES, devastated=["BEL"])
    assert out["dislodged"]["FRANCE"][0]["retreats"] == ["BEL"]


# --- rules 29-33: devastation -------------------------------------------------------------------------


def test_rule_29_a_dirigible_alone_in_a_foreign_centre_after_spring_may_devastate_in_the_summer() -> None:
    out = adjudicate("S1901M", {"ENGLAND": ["D NTH"]}, {"ENGLAND": ["D NTH - BEL"]}, CENTRES)
    assert out["next_phase"] == "S1901R"  # nobody retreats, but England may devastate
    summer = adjudicate("S1901R", {"ENGLAND": ["D BEL"]}, {"ENGLAND": ["D BEL devastate"]}, CENTRES)
    assert results(summer, "ENGLAND") == [("D BEL DEVASTATE", "succeeds")]
    assert summer["devastated"] == ["BEL"] and summer["next_phase"] == "F1901M"


def test_rule_29_no_devastation_under_a_ground_unit_or_outside_a_centre() -> None:
    for units in ({"ENGLAND": ["D BEL"], "FRANCE": ["A BEL"]}, {"ENGLAND": ["D BEL", "A BEL"]}, {"ENGLAND": ["D PIC"]}):
        out = adjudicate("S1901M", units, {}, CENTRES)
        assert out["next_phase"] == "F1901M"
    out = adjudicate("S1901R", {"ENGLAND": ["D BEL"], "FRANCE": ["A BEL"]}, {"ENGLAND": ["D BEL devastate"]}, CENTRES)
    assert results(out, "ENGLAND") == [("D BEL DEVASTATE", "void")]


def test_rule_32_the_seed_example_d_bel_devastate_fails_when_france_retreats_a_hol_to_bel() -> None:
    units = {"ENGLAND": ["D BEL"], "GERMANY": ["A HOL"]}
    out = adjudicate("F1901R", units, {"ENGLAND": ["D BEL devastate"], "FRANCE": ["A HOL R BEL"]}, CENTRES,
                     dislodged=HOL_DISLODGED)
    assert results(out, "FRANCE") == [("A HOL R BEL", "succeeds")]
    assert results(out, "ENGLAND") == [("D BEL DEVASTATE", "fails")]
    assert out["devastated"] == []
    assert units_of(out, "FRANCE") == {"A BEL"} and units_of(out, "ENGLAND") == {"D BEL"}


def test_rule_32_the_seed_example_succeeds_when_france_retreats_elsewhere() -> None:
    units = {"ENGLAND": ["D BEL"], "GERMANY": ["A HOL"]}
    out = adjudicate("F1901R", units, {"ENGLAND": ["D BEL devastate"], "FRANCE": ["A HOL R NTH"]}, CENTRES,
                     dislodged=HOL_DISLODGED)
    assert results(out, "ENGLAND") == [("D BEL DEVASTATE", "succeeds")]
    assert out["devastated"] == ["BEL"]


def test_reading_R2_a_retreat_ordered_into_the_centre_stops_the_devastation_even_if_it_bounces() -> None:
    units = {"ENGLAND": ["D BEL"], "GERMANY": ["A HOL", "A PIC"]}
    dislodged = {"FRANCE": [{"unit": "A HOL", "attacker_from": "RUH", "retreats": ["BEL"]}],
                 "ITALY": [{"unit": "A PIC", "attacker_from": "PAR", "retreats": ["BEL"]}]}
    out = adjudicate("F1901R", units, {"ENGLAND": ["D BEL devastate"], "FRANCE": ["A HOL R BEL"],
                                       "ITALY": ["A PIC R BEL"]}, CENTRES, dislodged=dislodged)
    assert results(out, "FRANCE") == [("A HOL R BEL", "fails")]
    assert results(out, "ENGLAND") == [("D BEL DEVASTATE", "fails")]


def test_rule_33_a_devastation_cannot_be_made_conditional() -> None:
    game_map = load_map("dirigible")
    reading = parse_order("D BEL devastate if A HOL R PIC", game_map=game_map, phase_type=PhaseType.RETREATS)
    assert not hasattr(reading, "unit")  # a ParseError: there is no conditional form


def test_rule_38_nobody_devastates_a_centre_they_control() -> None:
    out = adjudicate("S1901M", {"FRANCE": ["D PIC"]}, {"FRANCE": ["D PIC - BEL"]}, CENTRES)
    assert out["next_phase"] == "F1901M"
    out = adjudicate("S1901R", {"FRANCE": ["D BEL"]}, {"FRANCE": ["D BEL devastate"]}, CENTRES)
    assert results(out, "FRANCE") == [("D BEL DEVASTATE", "void")]


def test_reading_R3_an_unowned_centre_may_be_devastated() -> None:
    out = adjudicate("S1901R", {"FRANCE": ["D HOL"]}, {"FRANCE": ["D HOL devastate"]}, CENTRES)
    assert out["devastated"] == ["HOL"]


def test_rule_28_a_dirigible_captures_nothing() -> None:
    out = adjudicate("F1901M", {"ENGLAND": ["D BEL"]}, {}, CENTRES)
    assert "BEL" in out["centers"]["FRANCE"]


def test_rule_35_devastation_lasts_to_the_end_of_the_year() -> None:
    spring = adjudicate("S1901R", {"GERMANY": ["D BRE"]}, {"GERMANY": ["D BRE devastate"]}, CENTRES)
    assert spring["devastated"] == ["BRE"]
    fall = adjudicate("F1901M", {"GERMANY": ["D BRE"], "FRANCE": ["A PAR"]}, {}, CENTRES, devastated=["BRE"])
    assert fall["next_phase"] == "W1901A" and fall["devastated"] == ["BRE"]
    winter = adjudicate("W1901A", {"GERMANY": ["D BRE"], "FRANCE": ["A PAR"]}, {"FRANCE": ["A MAR B"]}, CENTRES,
                        devastated=["BRE"])
    assert winter["points"]["FRANCE"] == 15  # BEL, MAR, PAR: Brest yields nothing this Winter
    assert winter["devastated"] == [] and winter["next_phase"] == "S1902M"


def test_rule_37_nothing_is_built_in_a_devastated_home_centre() -> None:
    out = adjudicate("W1901A", {"GERMANY": ["D BRE"]}, {"FRANCE": ["F BRE B", "A PAR B"]}, CENTRES, devastated=["BRE"])
    assert results(out, "FRANCE") == [("F BRE B", "void"), ("A PAR B", "succeeds")]


def test_rule_14_retreats_and_devastations_are_ordered_in_one_phase() -> None:
    units = {"ENGLAND": ["D BEL"], "FRANCE": ["A HOL"], "GERMANY": ["A RUH", "A KIE", "D BUR"]}
    out = adjudicate("F1901M", units,
                     {"GERMANY": ["A RUH - HOL", "A KIE S A RUH - HOL", "D BUR - PAR"]}, CENTRES)
    assert out["next_phase"] == "F1901R"
    late_fall = adjudicate("F1901R", {"ENGLAND": ["D BEL"], "GERMANY": ["A HOL", "A KIE", "D PAR"]},
                           {"FRANCE": ["A HOL R BEL"], "ENGLAND": ["D BEL devastate"], "GERMANY": ["D PAR devastate"]},
                           CENTRES, dislodged=HOL_DISLODGED)
    assert results(late_fall, "GERMANY") == [("D PAR DEVASTATE", "succeeds")]
    assert results(late_fall, "ENGLAND") == [("D BEL DEVASTATE", "fails")]
    assert late_fall["devastated"] == ["PAR"]


# --- rules 13 and 41, reading R6: the year and victory ---------------------------------------------------


def test_rule_13_the_phases_of_a_year() -> None:
    units = {"ENGLAND": ["F LON", "D NTH"], "FRANCE": ["A PAR"]}
    spring = adjudicate("S1901M", units, {"ENGLAND": ["D NTH - BEL"]}, CENTRES)
    assert spring["next_phase"] == "S1901R"
    summer = adjudicate("S1901R", {"ENGLAND": ["F LON", "D BEL"], "FRANCE": ["A PAR"]},
                        {"ENGLAND": ["D BEL devastate"]}, CENTRES)
    assert summer["next_phase"] == "F1901M"
    fall = adjudicate("F1901M", {"ENGLAND": ["F LON", "D BEL"], "FRANCE": ["A PAR"]}, {}, CENTRES,
                      devastated=["BEL"])
    assert fall["next_phase"] == "W1901A"  # England (15 SP, 7 upkeep) can build
    winter = adjudicate("W1901A", {"ENGLAND": ["F LON", "D BEL"], "FRANCE": ["A PAR"]}, {}, CENTRES,
                        devastated=["BEL"])
    assert winter["next_phase"] == "S1902M"


def test_rule_41_victory_needs_19_undevastated_centres_after_the_late_fall() -> None:
    nineteen = sorted(load_map("dirigible").supply_centres)[:19]
    centres = {"GERMANY": nineteen}
    out = adjudicate("F1905M", {"GERMANY": ["A MUN"]}, {}, centres)
    assert out["winners"] == ["GERMANY"]
    out = adjudicate("F1905M", {"GERMANY": ["A MUN"]}, {}, centres, devastated=[nineteen[0]])
    assert "winners" not in out
    spring = adjudicate("S1905M", {"GERMANY": ["A MUN"]}, {}, centres)
    assert "winners" not in spring
    assert reasons(spring, "GERMANY") == []


def test_reading_R11_a_tie_gives_no_winner_and_devastation_can_break_it() -> None:
    """Two powers cannot both reach 19 of 34 centres; a lower threshold (``victory_centres``) shows the rule."""
    centres = sorted(load_map("dirigible").supply_centres)
    tied = {"GERMANY": centres[:12], "FRANCE": centres[12:24]}
    out = adjudicate("F1905M", {}, {}, tied, victory_centres=10)
    assert "winners" not in out
    out = adjudicate("F1905M", {}, {}, tied, victory_centres=10, devastated=[centres[12]])
    assert out["winners"] == ["GERMANY"]
