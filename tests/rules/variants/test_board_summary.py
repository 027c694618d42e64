"""What the guards read of a board (surviving, adjustments, forced-only powers) and the position a
state document holds are worked out once per document and remembered by the document's
identity (the document kept beside it, so that no other object can take its id meanwhile):
each document is answered for itself."""
from __future__ import annotations

import copy
from typing import Any

from shared.rules.variants import get_variant as variant_named
from shared.rules.variants.board import BoardVariant

WINTER: dict[str, Any] = {"variant": "standard", "phase": "W1902A",
          "units": {"GERMANY": ["F NAO", "A BUR", "A BER"], "ITALY": ["A TUS"], "FRANCE": ["A PIC"]},
          "centers": {"GERMANY": ["BER"], "FRANCE": ["PAR", "MAR", "BRE", "SPA"], "RUSSIA": ["ROM"]}}


def test_the_summary_of_a_winter_board() -> None:
    standard = variant_named("standard")
    document = copy.deepcopy(WINTER)
    assert standard.forced_only(document) == {"ITALY"}  # its one unit must go; Germany still chooses
    assert standard.adjustments(document) == {"GERMANY": -2, "ITALY": -1, "FRANCE": 3, "RUSSIA": 1}
    assert standard.surviving(document) == {"GERMANY", "ITALY", "FRANCE", "RUSSIA"}
    assert standard.forced_only(document) == {"ITALY"}  # asked again: the same answer


def test_a_changed_answer_given_out_does_not_change_the_next() -> None:
    standard = variant_named("standard")
    document = copy.deepcopy(WINTER)
    standard.adjustments(document)["ITALY"] = 5
    assert standard.adjustments(document)["ITALY"] == -1


def test_each_document_is_answered_for_itself() -> None:
    standard = variant_named("standard")
    for centres in (["BER"], ["BER", "KIE", "MUN", "HOL"], ["BER"], ["BER", "KIE", "MUN", "HOL"]):
        document = copy.deepcopy(WINTER)
        document["centers"]["GERMANY"] = centres
        assert standard.adjustments(document)["GERMANY"] == len(centres) - 3
        assert "GERMANY" not in standard.forced_only(document)


def test_a_documents_position_is_read_once_and_each_document_gets_its_own() -> None:
    for name in ("standard", "dirigible"):
        chosen = variant_named(name)
        assert isinstance(chosen, BoardVariant)  # the games on the Diplomacy board read positions
        document = chosen.opening({}, 1).state
        position = chosen.position(document)
        assert chosen.position(document) is position  # remembered
        moved = copy.deepcopy(document)
        moved["phase"] = "F1901M" if document["phase"] != "F1901M" else "S1902M"
        assert chosen.position(moved) is not position
        assert str(chosen.position(moved).phase) == "F1901M" and str(position.phase) == document["phase"]
