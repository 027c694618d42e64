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


def test_outside_adjustments_the_summary_read_off_the_document_is_the_views() -> None:
    """The standard variant answers a movement or retreat phase's summary from the document
    itself (standard.py, ``summary_outside_adjustments``): the same as the board view's, on
    every phase of random games played until powers are out, and the view's own answer in an
    adjustment phase."""
    from collections import Counter

    from shared.rules.variants.board import board_summary
    from shared.rules.variants.standard import board_document, summary_outside_adjustments
    from tests.utils.random_play import random_play

    standard = variant_named("standard")
    assert isinstance(standard, BoardVariant)
    seen: Counter[str] = Counter()
    for seed in range(16):
        for _, _, resolution in random_play(seed, phases=90):
            document = board_document(resolution.position)
            expected = board_summary(standard.board(document))
            quick = summary_outside_adjustments(document)
            kind = document["phase"][-1]
            seen[kind] += 1
            assert (quick is None) == (kind == "A")
            seen["someone out"] += len(expected.surviving) < 7
            seen["centres, no units"] += any(not document["units"].get(p) for p in expected.surviving)
            answered = (standard.surviving(document), standard.adjustments(document), standard.forced_only(document))
            assert answered == (expected.surviving, dict(expected.adjustments), expected.forced_only), document
    assert seen["M"] > 800 and seen["R"] > 150 and seen["A"] > 300, seen
    assert seen["someone out"] > 300 and seen["centres, no units"] > 2, seen
