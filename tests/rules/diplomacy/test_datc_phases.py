"""DATC 3.0 cases 6.H (retreats), 6.I (builds) and 6.J (removals, civil disorder), as data.

Each case runs through the JSON contract (``adjudicate_document``), so the parser, the
movement resolver and the retreat/adjustment rules are all exercised as a user meets them.
The data (datc/phases.json) was written from the DATC 3.0 document; see its "about".
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from shared.rules.diplomacy import adjudicate_document

CASES = json.loads((Path(__file__).parent / "datc" / "phases.json").read_text(encoding="utf-8"))["cases"]


def unit_set(units: dict[str, list[str]]) -> set[tuple[str, str]]:
    return {(power, unit) for power, us in units.items() for unit in us}


def results_of(output: dict) -> dict[str, list[str]]:
    return {power: [item["result"] for item in items] for power, items in output["orders"].items()}


def run_retreat_case(case: dict) -> None:
    movement = adjudicate_document({"variant": "standard", "phase": "S1901M", "centers": {}, **case["movement"]})
    assert movement["dislodged"] == case["dislodged"], "the movement phase leaves other dislodged units"
    someone_can_retreat = any(d["retreats"] for ds in movement["dislodged"].values() for d in ds)
    # a retreat phase in which nobody can retreat is skipped (its units are disbanded at once);
    # the retreat orders of the case are still adjudicated against the dislodged units
    assert movement["next_phase"] == ("S1901R" if someone_can_retreat else "F1901M")
    retreat = adjudicate_document(
        {
            "variant": "standard",
            "phase": "S1901R",
            "units": movement["units"],
            "centers": movement["centers"],
            "dislodged": movement["dislodged"],
            "orders": case["orders"],
        }
    )
    assert results_of(retreat) == case["results"], json.dumps(retreat["orders"], indent=1)
    assert unit_set(retreat["units"]) == unit_set(case["units_after"])
    assert retreat["dislodged"] == {}
    assert retreat["next_phase"] == "F1901M"


def run_adjustment_case(case: dict, edition: str) -> None:
    output = adjudicate_document(
        {
            "variant": "standard",
            "phase": "W1901A",
            "edition": edition,
            "units": case["units"],
            "centers": case["centres"],
            "orders": case["orders"],
        }
    )
    # each power's results: one per order given, then the removals the rules made for it
    # (docs/rules/standard.md, section 4), which are the case's units removed unordered
    given = {power: items[:len(case["orders"].get(power, []))] for power, items in output["orders"].items()}
    forced = {power: items[len(case["orders"].get(power, [])):] for power, items in output["orders"].items()}
    assert {p: [i["result"] for i in items] for p, items in given.items() if items} == case["results"], \
        json.dumps(output["orders"], indent=1)
    assert {(power, item["order"][:-2]) for power, items in forced.items() for item in items} == \
        unit_set(case["removed"]), f"edition {edition}"
    assert all(item["result"] == "succeeds" and item["reason"].endswith("removed by the rules, farthest from home")
               or item["reason"] == "civil disorder: removed, farthest from home"
               for items in forced.values() for item in items)
    removed = unit_set(case["units"]) - unit_set(output["units"])
    ordered_removals = {
        (power, item["order"][:-2]) for power, items in given.items()
        for item in items if item["result"] == "succeeds" and item["order"].endswith(" D")
    }
    assert removed - ordered_removals == unit_set(case["removed"]), f"edition {edition}"
    assert unit_set(output["units"]) == unit_set(case["units_after"]), f"edition {edition}"
    assert output["next_phase"] == "S1902M"


@pytest.mark.parametrize("case", CASES, ids=[case["id"] for case in CASES])
def test_datc(case: dict) -> None:
    if case["kind"] == "retreat":
        run_retreat_case(case)
    else:
        for edition in case["editions"]:
            run_adjustment_case(case, edition)


def test_every_case_from_6H1_to_6J11_is_here() -> None:
    ids = {case["id"] for case in CASES}
    expected = ({f"6.H.{n}" for n in range(1, 17)} | {f"6.I.{n}" for n in range(1, 8)}
                | {f"6.J.{n}" for n in range(1, 12)})
    assert expected <= ids
