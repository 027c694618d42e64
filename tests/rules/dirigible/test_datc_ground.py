"""Rule 9: armies and fleets fight by the standard rules in a Dirigible game.

Every DATC 3.0 movement case (6.A to 6.G, tests/rules/diplomacy/datc/movement.json) is run
through the Dirigible variant's ``entente adjudicate`` document with no dirigible on the
board: the results, the units after the moves and the dislodged units are the DATC's.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from shared.rules.variants import get_variant

DATA = Path(__file__).parents[1] / "diplomacy" / "datc" / "movement.json"
CASES = json.loads(DATA.read_text(encoding="utf-8"))


@pytest.mark.parametrize("case", CASES, ids=[case["id"] for case in CASES])
def test_datc_movement_in_a_dirigible_game(case: dict) -> None:
    doc = {
        "variant": "dirigible",
        "phase": "S1901M",
        "units": case["units"],
        "centers": {},
        "orders": {power: [o["order"] for o in items] for power, items in case["orders"].items()},
    }
    out = get_variant("dirigible").adjudicate_document(doc)

    expected = {power: [o["result"] for o in items] for power, items in case["orders"].items()}
    assert {power: [o["result"] for o in items] for power, items in out["orders"].items()} == expected
    if "units_after" in case:
        after = {(p, u) for p, units in out["units"].items() for u in units}
        assert after == {(p, u) for p, units in case["units_after"].items() for u in units}
    if "dislodged_after" in case:
        got = sorted((d["unit"], p, d["attacker_from"]) for p, ds in out["dislodged"].items() for d in ds)
        want = sorted((d["unit"], d["power"], d["attacker_from"]) for d in case["dislodged_after"])
        assert got == want
        for d in case["dislodged_after"]:
            if "retreats" in d:
                found = next(x for x in out["dislodged"][d["power"]] if x["unit"] == d["unit"])
                assert found["retreats"] == d["retreats"]


PHASE_CASES = json.loads((DATA.parent / "phases.json").read_text(encoding="utf-8"))["cases"]
RETREAT_CASES = [case for case in PHASE_CASES if case["kind"] == "retreat"]


def _units(units: dict[str, list[str]]) -> set[tuple[str, str]]:
    return {(power, unit) for power, listed in units.items() for unit in listed}


@pytest.mark.parametrize("case", RETREAT_CASES, ids=[case["id"] for case in RETREAT_CASES])
def test_datc_retreats_in_a_dirigible_game(case: dict) -> None:
    """DATC 6.H (retreats) through the variant, no dirigible on the board."""
    variant = get_variant("dirigible")
    movement = variant.adjudicate_document({"variant": "dirigible", "phase": "S1901M", "centers": {},
                                            **case["movement"]})
    assert movement["dislodged"] == case["dislodged"]
    retreat = variant.adjudicate_document({
        "variant": "dirigible", "phase": "S1901R", "units": movement["units"], "centers": movement["centers"],
        "dislodged": movement["dislodged"], "orders": case["orders"]})
    assert {p: [o["result"] for o in items] for p, items in retreat["orders"].items()} == case["results"]
    assert _units(retreat["units"]) == _units(case["units_after"])
    assert retreat["next_phase"] == "F1901M"
