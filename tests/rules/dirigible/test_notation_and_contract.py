"""Writing dirigible orders (rule 2, reading R7), the variant's order check and menu, and its
``adjudicate_document`` (the ``entente adjudicate`` command with ``"variant": "dirigible"`` is
tested in tests/cli/)."""
from __future__ import annotations

import pytest

from shared.rules.diplomacy import ParseError, load_map, parse_order
from shared.rules.diplomacy.phase import PhaseType
from shared.rules.variants import get_variant

DIRIGIBLE_MAP = load_map("dirigible")
VARIANT = get_variant("dirigible")


@pytest.mark.parametrize("text, phase, canonical", [
    ("D LON - NTH", PhaseType.MOVEMENT, "D LON - NTH"),
    ("D BEL S A HOL - BEL", PhaseType.MOVEMENT, "D BEL S A HOL - BEL"),
    ("D BEL S A BEL", PhaseType.MOVEMENT, "D BEL S A BEL"),
    ("D NTH S D LON - EDI", PhaseType.MOVEMENT, "D NTH S D LON - EDI"),
    ("D BEL devastate", PhaseType.RETREATS, "D BEL DEVASTATE"),
    ("D LON B", PhaseType.ADJUSTMENTS, "D LON B"),
    ("Build D LON", PhaseType.ADJUSTMENTS, "D LON B"),
    ("D LON D", PhaseType.ADJUSTMENTS, "D LON D"),
    ("A HOL D", PhaseType.RETREATS, "A HOL D"),
    ("Dirigible London to North Sea", PhaseType.MOVEMENT, "D LON - NTH"),
    ("Dirigible Belgium supports Army Holland to Belgium", PhaseType.MOVEMENT, "D BEL S A HOL - BEL"),
    ("Dirigible Belgium devastates", PhaseType.RETREATS, "D BEL DEVASTATE"),
    ("Luftskib Belgien hærger", PhaseType.RETREATS, "D BEL DEVASTATE"),
])
def test_rule_2_dirigible_orders_in_the_written_notations(text: str, phase: PhaseType, canonical: str) -> None:
    order = parse_order(text, game_map=DIRIGIBLE_MAP, phase_type=phase)
    assert not isinstance(order, ParseError), order
    assert str(order) == canonical


def test_the_standard_map_knows_no_dirigible() -> None:
    assert str(parse_order("D LON", phase_type=PhaseType.RETREATS)) == "A LON D"  # "disband London"
    assert isinstance(parse_order("A BEL devastate", phase_type=PhaseType.RETREATS), ParseError)


def test_reading_R7_a_unit_named_without_its_type_is_the_dirigible_where_only_one_flies() -> None:
    state = {"variant": "dirigible", "phase": "S1901M", "units": {"ENGLAND": ["D NTH", "F LON", "D LON"]},
             "centers": {}}
    checks = VARIANT.check_orders(state, "ENGLAND", ["NTH - NWG", "LON - ENG"])
    assert [c.order for c in checks] == ["D NTH - NWG", "F LON - ENG"]


def test_the_order_check_rejects_what_the_rules_would_ignore_and_keeps_the_first_order() -> None:
    state = {"variant": "dirigible", "phase": "S1901M", "units": {"ENGLAND": ["A WAL", "D LON"]}, "centers": {}}
    checks = VARIANT.check_orders(state, "ENGLAND", ["D LON S A WAL - LON", "D LON - NTH", "D LON S A WAL - YOR"])
    assert [c.accepted for c in checks] == [True, False, False]
    assert checks[1].reason == "D LON already has an order"
    winter = VARIANT.opening({}, seed=0).state
    checks = VARIANT.check_orders(winter, "ENGLAND", ["F LVP B", "F LON B", "F EDI B", "D LON B", "D EDI B"])
    assert [c.accepted for c in checks] == [True, True, True, True, False]
    assert checks[4].reason == "D EDI costs 3 SP, 0 left"


def test_the_menu_offers_each_dirigible_its_moves_and_supports() -> None:
    state = {"variant": "dirigible", "phase": "S1901M", "units": {"ENGLAND": ["A WAL", "D LON", "F LON"]},
             "centers": {}}
    menu = VARIANT.possible_orders(state, "ENGLAND")
    assert menu["D LON"] == ["D LON H", "D LON - ENG", "D LON - NTH", "D LON - WAL", "D LON - YOR",
                             "D LON S F LON", "D LON S A WAL - LON"]
    for order in menu["D LON"]:
        assert VARIANT.check_orders(state, "ENGLAND", [order])[0].accepted, order
    russia = VARIANT.possible_orders(VARIANT.opening({}, seed=0).state, "RUSSIA")
    assert "F STP/SC B" in russia["STP"] and "F STP/NC B" not in russia["STP"]


def test_a_bad_dirigible_document_names_the_field() -> None:
    with pytest.raises(ValueError, match=r"devastated\[0\]"):
        VARIANT.adjudicate_document({"variant": "dirigible", "phase": "S1901M", "units": {}, "devastated": ["NTH"]})
    with pytest.raises(ValueError, match="units.ENGLAND"):
        VARIANT.adjudicate_document({"variant": "dirigible", "phase": "S1901M", "units": {"ENGLAND": ["D SWI"]}})


def test_reading_R7_in_a_retreat_phase_an_untyped_unit_is_the_dislodged_one_before_the_dirigible() -> None:
    out = VARIANT.adjudicate_document({
        "variant": "dirigible", "phase": "F1901R", "units": {"ENGLAND": ["D HOL", "D BEL"], "GERMANY": ["A RUH"]},
        "centers": {"FRANCE": ["BEL"]},
        "dislodged": {"FRANCE": [{"unit": "A HOL", "attacker_from": "KIE", "retreats": ["BEL"]}]},
        "orders": {"FRANCE": ["HOL R BEL"], "ENGLAND": ["BEL devastate"]}})
    assert [(o["order"], o["result"]) for o in out["orders"]["FRANCE"]] == [("A HOL R BEL", "succeeds")]
    assert [(o["order"], o["result"]) for o in out["orders"]["ENGLAND"]] == [("D BEL DEVASTATE", "fails")]


def test_reading_R9_an_order_rejected_on_its_own_claims_no_unit_so_its_correction_stands() -> None:
    state = {"variant": "dirigible", "phase": "S1901M", "units": {"FRANCE": ["D PAR"]}, "centers": {}}
    checks = VARIANT.check_orders(state, "FRANCE", ["D PAR - MOS", "D PAR - BUR", "D PAR - PIC"])
    assert [(c.accepted, c.order) for c in checks] == [(False, None), (True, "D PAR - BUR"), (False, None)]
    assert checks[0].reason == "void: D PAR cannot reach MOS (a dirigible moves to a neighbour)"
    assert checks[2].reason == "D PAR already has an order"
    winter = VARIANT.opening({}, seed=0).state
    checks = VARIANT.check_orders(winter, "RUSSIA", ["F STP/NC B", "F STP/SC B"])
    assert [(c.accepted, c.order) for c in checks] == [(False, None), (True, "F STP/SC B")]
    assert checks[0].reason == "Russia may not build F STP/NC in the opening builds"
