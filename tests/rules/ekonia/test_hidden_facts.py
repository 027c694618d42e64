"""Three hidden facts that the public once read off a turn (docs/rules/ekonia.md, "Who holds a
lane", "A trade proposal's answer", "Hidden troops and captures"), each as twin games on the
small board that differ only in that fact: whose a privateer is, whether the partner proposed
trade, where hidden troops stand. Every viewer but the states that know the fact gets the
same view, history and possible orders, byte for byte.
"""
from __future__ import annotations

import json
from typing import Any

import pytest

from shared.rules.ekonia.state import State
from tests.utils.ekonia_viewers import VARIANT, add_unit, fresh_state, resolved_event


def text(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


def assert_same_for(viewers: tuple[str | None, ...], one: dict[str, Any], two: dict[str, Any]) -> None:
    """The twins' turns (resolved events) look the same to ``viewers``: the position before
    and after, the turn's history and the possible orders."""
    for viewer in viewers:
        for key in ("position_before", "position"):
            assert text(VARIANT.view(one[key], viewer)) == text(VARIANT.view(two[key], viewer)), (viewer, key)
            if viewer is not None:
                assert text(VARIANT.possible_orders(one[key], viewer)) == \
                    text(VARIANT.possible_orders(two[key], viewer)), (viewer, key)
        assert text(VARIANT.history_view(one, viewer)) == text(VARIANT.history_view(two, viewer)), viewer


# -- who holds a lane ---------------------------------------------------------------------------

def peaceful_sea() -> State:
    """Nobody at war and every privateer sparing everyone: ships share seas without battles.
    ALPHA's flagged trireme ALPHA-3 is out of the way (sea-east), and no lane is held yet."""
    state = fresh_state()
    for power, others in (("ALPHA", ["BETA", "GAMMA"]), ("BETA", ["ALPHA", "GAMMA"]), ("GAMMA", ["ALPHA", "BETA"])):
        state["powers"][power]["spared"] = others
    state["units"]["ALPHA-3"]["location"] = "sea-east"
    return state


# (the ships on sea-west besides the privateer whose owner differs, the public holder)
LANE_SHAPES = {
    "beside its own state's flagged trireme, or another's": ([("ALPHA-3", False)], None),
    "beside a third state's flagged trireme": ([("GAMMA-8", False)], None),
    "beside another privateer of one of the two": ([("ALPHA-8", True)], "PRIVATEERS"),
    "beside a third state's privateer": ([("GAMMA-8", True)], "PRIVATEERS"),
    "alone": ([], "PRIVATEERS"),
}


def lane_twin(owner: str, ships: list[tuple[str, bool]]) -> dict[str, Any]:
    """A turn at the end of which ``owner``'s privateer and ``ships`` are on the sea-west lane."""
    state = peaceful_sea()
    for uid, privateer in ships:
        if uid in state["units"]:
            state["units"][uid].update({"location": "sea-west", "privateer": privateer})
        else:
            add_unit(state, uid, "TRIREME", "sea-west", privateer=privateer)
    add_unit(state, f"{owner}-9", "TRIREME", "sea-west", privateer=True)
    return resolved_event(state, {})


@pytest.mark.parametrize("shape", list(LANE_SHAPES))
def test_a_lanes_public_holder_is_decided_by_the_flags_the_map_shows(shape: str) -> None:
    ships, holder = LANE_SHAPES[shape]
    one, two = lane_twin("ALPHA", ships), lane_twin("BETA", ships)
    assert not one["details"]["battles"] and not two["details"]["battles"]
    for event in (one, two):
        assert VARIANT.view(event["position"], None)["public"]["sea_lanes"]["sea-west"] == holder
    outsiders = ("GAMMA", None) if not any(uid.startswith("GAMMA") for uid, _ in ships) else (None,)
    assert_same_for(outsiders, one, two)


def test_privateers_hold_a_lane_for_their_owner_only_when_they_are_all_its() -> None:
    same = lane_twin("ALPHA", [("ALPHA-8", True)])["position"]
    mixed = lane_twin("BETA", [("ALPHA-8", True)])["position"]
    assert same["sea_lanes"]["sea-west"] == {"controller": "ALPHA", "privateer": True}
    assert mixed["sea_lanes"]["sea-west"] == {"controller": None, "privateer": True}
    # ALPHA-3 holds sea-east under ALPHA's flag in both; sea-west pays ALPHA only when all its privateers are ALPHA's
    assert same["ledger"]["ALPHA"]["sea_lanes"] == ["sea-east", "sea-west"]
    assert mixed["ledger"]["ALPHA"]["sea_lanes"] == ["sea-east"]
    assert VARIANT.view(same, "ALPHA")["own"]["sea_lanes"] == ["sea-east", "sea-west"]
    assert VARIANT.view(mixed, "ALPHA")["own"]["sea_lanes"] == ["sea-east"]
    assert VARIANT.view(mixed, "ALPHA")["public"]["sea_lanes"]["sea-west"] == "PRIVATEERS"
    # its own flagged trireme beside its privateer: two flags, a contested lane, for it too
    own = lane_twin("ALPHA", [("ALPHA-3", False)])["position"]
    assert own["sea_lanes"]["sea-west"] == {"controller": None, "privateer": False}


# -- whose privateers fight in a battle --------------------------------------------------------

# (what stands beside the privateer whose owner differs: ALPHA's flagged trireme, ALPHA's privateer)
BATTLE_SHAPES = {"beside its state's flag": "ALPHA-3", "beside another privateer": "ALPHA-8"}


def battle_twin(owner: str, beside: str) -> dict[str, Any]:
    """GAMMA's two triremes meet, on sea-west, ``owner``'s privateer and ``beside``; ALPHA is
    at war with GAMMA, ALPHA and BETA spare each other and neither spares GAMMA."""
    state = fresh_state()
    state["wars"] = [["ALPHA", "GAMMA"]]
    state["powers"]["ALPHA"]["spared"], state["powers"]["BETA"]["spared"] = ["BETA"], ["ALPHA"]
    for uid in ("GAMMA-8", "GAMMA-9"):
        add_unit(state, uid, "TRIREME", "sea-west")
    if beside == "ALPHA-3":
        state["units"]["ALPHA-3"]["location"] = "sea-west"
    else:
        state["units"]["ALPHA-3"]["location"] = "sea-east"
        add_unit(state, beside, "TRIREME", "sea-west", privateer=True)
    add_unit(state, f"{owner}-9", "TRIREME", "sea-west", privateer=True)
    return resolved_event(state, {})


@pytest.mark.parametrize("shape", list(BATTLE_SHAPES))
def test_a_privateer_fights_apart_from_its_states_flag_and_privateers_of_two_states_look_like_one(
        shape: str) -> None:
    """A battle report, its dice and its losses depend on what the map shows: a state's
    privateers fight as a party of their own beside its flag (never merged with it), and
    privateers of several states in one camp read as PRIVATEERS once (docs/rules/ekonia.md D30)."""
    one, two = battle_twin("ALPHA", BATTLE_SHAPES[shape]), battle_twin("BETA", BATTLE_SHAPES[shape])
    for event in (one, two):
        assert [b["territory"] for b in event["details"]["battles"]] == ["sea-west"]
    assert_same_for(("GAMMA", None), one, two)
    [report] = VARIANT.history_view(one, "GAMMA")["details"]["battles"]
    expected = ["ALPHA", "PRIVATEERS"] if shape == "beside its state's flag" else ["PRIVATEERS"]
    assert sorted(side["powers"] for side in report["sides"]) == sorted([["GAMMA"], expected])


# -- a trade proposal's answer ------------------------------------------------------------------

@pytest.mark.parametrize("where", ["apart", "at war"])
def test_a_trade_proposal_that_cannot_succeed_says_why_whatever_the_partner_ordered(where: str) -> None:
    state = fresh_state()  # ALPHA and GAMMA share no border and hold no lanes
    if where == "at war":
        state["territories"]["mid-three"]["owner"] = "ALPHA"  # now they border each other
        state["wars"] = [["ALPHA", "GAMMA"]]
    one = resolved_event(state, {"ALPHA": ["TRADE WITH GAMMA"], "GAMMA": []})
    two = resolved_event(state, {"ALPHA": ["TRADE WITH GAMMA"], "GAMMA": ["TRADE WITH ALPHA"]})
    assert_same_for(("ALPHA", "BETA", None), one, two)
    reason = one["orders"]["ALPHA"][0]["reason"]
    assert reason == ("ALPHA and GAMMA are at war" if where == "at war" else
                      "ALPHA and GAMMA neither border each other nor both hold a sea lane under their flag")


def test_trade_already_in_force_answers_the_same_whatever_the_partner_ordered() -> None:
    state = fresh_state()
    state["territories"]["mid-three"]["owner"] = "ALPHA"
    state["trade"] = [["ALPHA", "GAMMA"]]
    one = resolved_event(state, {"ALPHA": ["TRADE WITH GAMMA"]})
    two = resolved_event(state, {"ALPHA": ["TRADE WITH GAMMA"], "GAMMA": ["TRADE WITH ALPHA"]})
    assert_same_for(("ALPHA", "BETA", None), one, two)
    assert one["orders"]["ALPHA"][0] == {"order": "TRADE WITH GAMMA", "result": "failed",
                                         "reason": "already trading with GAMMA"}


# -- hidden troops and captures -----------------------------------------------------------------

def hidden_troops_twin(where: str, alpha_hides: bool = False) -> dict[str, Any]:
    """ALPHA marches three infantry from mid-one into neutral mid-three, at peace with
    everyone; GAMMA's infantry GAMMA-9, hidden by espionage, stands in ``where`` and is hidden
    again there (10 gold in both twins)."""
    state = fresh_state()
    for i in (6, 7, 8):
        add_unit(state, f"ALPHA-{i}", "INFANTRY", "mid-one")
    add_unit(state, "GAMMA-9", "INFANTRY", where, hidden_until=1)
    alpha = ["MOVE 3 INFANTRY mid-one -> mid-three"] + (["HIDE 3 INFANTRY AT mid-three"] if alpha_hides else [])
    return resolved_event(state, {"ALPHA": alpha, "GAMMA": [f"HIDE 1 INFANTRY AT {where}"]})


def test_hidden_troops_of_another_state_neither_block_nor_show_a_capture() -> None:
    there, elsewhere = hidden_troops_twin("mid-three"), hidden_troops_twin("g-field")
    assert there["position_before"]["units"]["GAMMA-9"]["location"] == "mid-three"
    assert_same_for(("ALPHA", "BETA", None), there, elsewhere)
    for event in (there, elsewhere):
        assert event["position"]["territories"]["mid-three"]["owner"] == "ALPHA"
        assert {"event": "taken", "territory": "mid-three", "by": "ALPHA"} in event["details"]["events"]
    assert there["position"]["units"]["GAMMA-9"]["location"] == "mid-three"  # it stays, at peace, unseen
    assert "GAMMA" not in text(VARIANT.view(there["position"], None)["public"]["units"])


def test_hidden_troops_of_two_states_block_each_other_and_only_they_learn_it() -> None:
    event = hidden_troops_twin("mid-three", alpha_hides=True)
    assert event["position"]["territories"]["mid-three"]["owner"] is None
    news = [e for e in event["details"]["events"] if e["territory"] == "mid-three"]
    assert news == [{"event": "not held alone", "territory": "mid-three", "by": "ALPHA"},
                    {"event": "not held alone", "territory": "mid-three", "by": "GAMMA"}]
    for viewer, seen in (("ALPHA", ["ALPHA"]), ("GAMMA", ["GAMMA"]), ("BETA", []), (None, [])):
        events = VARIANT.history_view(event, viewer)["details"]["events"]
        assert [e["by"] for e in events if e["territory"] == "mid-three"] == seen, viewer
    # without GAMMA's there, ALPHA's hidden troops take the land alone (their own capture shows them)
    alone = hidden_troops_twin("g-field", alpha_hides=True)
    assert alone["position"]["territories"]["mid-three"]["owner"] == "ALPHA"  # hidden troops take land alone
