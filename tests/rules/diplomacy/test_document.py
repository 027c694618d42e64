"""The JSON contract: adjudicate_document against the worked examples, and its input checks."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from shared.rules.diplomacy import (
    DocumentError,
    adjudicate,
    adjudicate_document,
    initial_position,
    position_from_document,
    position_to_document,
)
from tests.utils.random_play import readable

CONTRACT = Path(__file__).parent / "contract"
INPUTS = [json.loads(line) for line in (CONTRACT / "adjudicate-input.jsonl").read_text().splitlines() if line.strip()]
OUTPUTS = [json.loads(line) for line in (CONTRACT / "adjudicate-output.jsonl").read_text().splitlines() if line.strip()]


def as_sets(groups: dict[str, list[str]]) -> set[tuple[str, str]]:
    return {(power, item) for power, items in groups.items() for item in items}


def assert_matches_contract(got: dict, expected: dict) -> None:
    """Same keys; units and centres as sets; one result per input order, in order."""
    assert set(got) == set(expected)
    assert got["phase"] == expected["phase"]
    assert got["next_phase"] == expected["next_phase"]
    assert as_sets(got["units"]) == as_sets(expected["units"])
    assert as_sets(got["centers"]) == as_sets(expected["centers"])
    assert got["dislodged"] == expected["dislodged"]
    assert list(got["orders"]) == list(expected["orders"])
    for power, items in expected["orders"].items():
        assert [(i["order"], i["result"]) for i in got["orders"][power]] == [(i["order"], i["result"]) for i in items]


@pytest.mark.parametrize("index", range(len(INPUTS)), ids=[doc["phase"] for doc in INPUTS])
def test_the_worked_examples(index: int) -> None:
    assert len(INPUTS) == len(OUTPUTS) == 4
    assert_matches_contract(adjudicate_document(INPUTS[index]), OUTPUTS[index])


def test_every_result_carries_a_reason() -> None:
    output = adjudicate_document(INPUTS[1])
    reasons = [item["reason"] for items in output["orders"].values() for item in items]
    assert all(isinstance(r, str) and r for r in reasons)


def test_orders_in_other_notations_come_back_canonical() -> None:
    doc = {"variant": "standard", "phase": "S1901M", "units": {"FRANCE": ["A PAR", "F BRE"]}, "centers": {},
           "orders": {"FRANCE": ["A Paris - Burgundy", "( FRA FLT BRE ) MTO MAO"]}}
    output = adjudicate_document(doc)
    assert output["orders"]["FRANCE"] == [
        {"order": "A PAR - BUR", "result": "succeeds", "reason": "moved to BUR"},
        {"order": "F BRE - MAO", "result": "succeeds", "reason": "moved to MAO"},
    ]


def test_unreadable_text_comes_back_void_with_the_parsers_message() -> None:
    doc = {"variant": "standard", "phase": "S1901M", "units": {"FRANCE": ["A PAR"]}, "centers": {},
           "orders": {"FRANCE": ["A PAR - XYZ", "A PAR - BUR"]}}
    output = adjudicate_document(doc)
    first, second = output["orders"]["FRANCE"]
    assert first == {"order": "A PAR - XYZ", "result": "void", "reason": "'XYZ' is not a province"}
    assert second["order"] == "A PAR - BUR" and second["result"] == "succeeds"


def test_a_document_may_put_powers_in_civil_disorder() -> None:
    # Italy's orders are ignored: Venice holds instead of moving, and is not dislodged by one army.
    doc = {"variant": "standard", "phase": "S1901M", "units": {"ITALY": ["A VEN", "A ROM"], "AUSTRIA": ["A TRI"]},
           "centers": {}, "orders": {"ITALY": ["A VEN - TYR", "A ROM S A VEN"], "AUSTRIA": ["A TRI - VEN"]},
           "civil_disorder": ["ITALY"]}
    output = adjudicate_document(doc)
    assert [i["result"] for i in output["orders"]["ITALY"]] == ["void", "void"]
    assert output["orders"]["AUSTRIA"][0]["result"] == "fails"
    assert as_sets(output["units"]) == {("ITALY", "A VEN"), ("ITALY", "A ROM"), ("AUSTRIA", "A TRI")}


def test_retreat_options_default_to_the_empty_neighbours_but_the_attackers_province() -> None:
    doc = {"variant": "standard", "phase": "F1901R", "units": {"RUSSIA": ["F BLA", "A UKR"], "TURKEY": ["A RUM"]},
           "centers": {}, "dislodged": {"RUSSIA": [{"unit": "F SEV", "attacker_from": "BLA"}]}}
    assert position_from_document(doc).dislodged[0].retreats == ("ARM",)


def test_a_movement_phase_that_dislodges_lists_the_retreats() -> None:
    doc = {"variant": "standard", "phase": "F1901M", "units": {"RUSSIA": ["F SEV"], "TURKEY": ["F BLA", "A ARM"]},
           "centers": {"RUSSIA": ["SEV"]}, "orders": {"TURKEY": ["F BLA - SEV", "A ARM S F BLA - SEV"]}}
    output = adjudicate_document(doc)
    assert output["dislodged"] == {"RUSSIA": [{"unit": "F SEV", "attacker_from": "BLA", "retreats": ["RUM"]}]}
    assert output["next_phase"] == "F1901R"
    assert output["centers"] == {"RUSSIA": ["SEV"]}  # ownership changes after the retreats


def test_position_documents_round_trip() -> None:
    start = initial_position()
    document = position_to_document(start)
    assert document["phase"] == "S1901M"
    assert document["units"]["RUSSIA"] == ["A MOS", "A WAR", "F SEV", "F STP/SC"]
    assert position_from_document(document) == start


def test_json_round_trip_of_a_position_with_dislodged_units() -> None:
    from shared.rules.diplomacy import load_map, parse_order
    from shared.rules.diplomacy.phase import PhaseType

    doc = {"variant": "standard", "phase": "F1901M", "units": {"RUSSIA": ["F SEV"], "TURKEY": ["F BLA", "A ARM"]},
           "centers": {}}
    position = position_from_document(doc)
    game_map = load_map("standard")
    orders = {"TURKEY": [readable(parse_order(t, game_map=game_map, phase_type=PhaseType.MOVEMENT, power="TURKEY"))
                         for t in ("F BLA - SEV", "A ARM S F BLA - SEV")]}
    retreat_phase = adjudicate(position, orders).position
    assert retreat_phase.dislodged
    assert position_from_document(json.loads(json.dumps(position_to_document(retreat_phase)))) == retreat_phase


BASE = {"variant": "standard", "phase": "S1901M", "units": {"FRANCE": ["A PAR"]}, "centers": {}, "orders": {}}


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"variant": "atlantis"}, "variant"),
        ({"phase": "S1901X"}, "phase"),
        ({"phase": "W1901M"}, "phase"),
        ({"units": {"FRANCE": ["A XYZ"]}}, "units.FRANCE[0]"),
        ({"units": {"FRANCE": ["A PAR", "F PAR"]}}, "units.FRANCE[1]"),
        ({"units": {"FRANCE": ["A PAR"], "GERMANY": ["A PAR"]}}, "units.GERMANY[0]"),
        ({"units": {"FRANCE": ["F MOS"]}}, "units.FRANCE[0]"),
        ({"units": {"FRANCE": ["A NTH"]}}, "units.FRANCE[0]"),
        ({"units": {"FRANCE": ["F STP"]}}, "units.FRANCE[0]"),
        ({"units": {"FRANCE": "A PAR"}}, "units.FRANCE"),
        ({"units": {"PRUSSIA": ["A BER"]}}, "units"),
        ({"centers": {"FRANCE": ["BUR"]}}, "centers.FRANCE[0]"),
        ({"centers": {"FRANCE": ["PAR"], "ENGLAND": ["PAR"]}}, "centers.ENGLAND[0]"),
        ({"orders": {"FRANCE": [42]}}, "orders.FRANCE[0]"),
        ({"orders": ["A PAR H"]}, "orders"),
        ({"edition": "1971"}, "edition"),
        ({"dislodged": {"FRANCE": [{"unit": "A BUR", "attacker_from": "MUN"}]}}, "dislodged"),
        ({"civil_disorder": ["ATLANTIS"]}, "civil_disorder[0]"),
    ],
)
def test_bad_input_raises_a_value_error_naming_the_field(change: dict, field: str) -> None:
    with pytest.raises(DocumentError) as info:
        adjudicate_document({**BASE, **change})
    assert isinstance(info.value, ValueError)
    assert str(info.value).startswith(field), str(info.value)


@pytest.mark.parametrize("doc", [[], "S1901M", None, 3])
def test_a_document_must_be_an_object(doc: object) -> None:
    with pytest.raises(ValueError, match="^document: expected a JSON object"):
        adjudicate_document(doc)


def test_a_missing_phase_is_named() -> None:
    with pytest.raises(ValueError, match="^phase: missing"):
        adjudicate_document({"variant": "standard", "units": {}})


@pytest.mark.parametrize("units", [{"ENGLAND": ["A LON", "A LON"]}, {"ENGLAND": ["A LON"], "FRANCE": ["F LON"]},
                                   {"ENGLAND": ["A LON", "a lon"]}])
def test_two_units_in_one_province_are_refused_naming_the_second(units: dict[str, list[str]]) -> None:
    second = "units.ENGLAND[1]" if len(units) == 1 else "units.FRANCE[0]"
    with pytest.raises(DocumentError, match=rf"^{re.escape(second)}: two units in LON"):
        adjudicate_document({**BASE, "units": units})


def test_unit_text_may_write_coasts_in_brackets() -> None:
    doc = {**BASE, "units": {"RUSSIA": ["F STP(SC)", "f stp/nc"]}}
    with pytest.raises(DocumentError, match="two units in STP"):
        adjudicate_document(doc)
    position = position_from_document({**BASE, "units": {"RUSSIA": ["F STP(SC)"]}})
    assert str(position.units["STP"].unit) == "F STP/SC"
