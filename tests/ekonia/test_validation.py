"""Orders checked against what the state holds, can afford and can reach (rules 1-39, 70)."""
from __future__ import annotations

from shared.rules.variants.ekonia import EkoniaVariant

from .helpers import fresh_state, small_board

VARIANT = EkoniaVariant(small_board())


def check(state, power, *texts):
    return [(c.accepted, c.reason) for c in VARIANT.check_orders(state, power, list(texts))]


def test_buying_where_units_are_made():
    state = fresh_state()
    state["territories"]["a-field"]["shipyard"] = True
    assert check(state, "ALPHA", "BUY 1 INFANTRY AT alpha") == [(True, None)]
    assert check(state, "ALPHA", "BUY 1 INFANTRY AT a-field")[0][1] == \
        "INFANTRY is made only at a fort or the capital; a-field is neither"
    assert check(state, "ALPHA", "BUY 1 INFANTRY AT beta")[0][1] == "beta is not a territory of ALPHA"
    assert check(state, "ALPHA", "BUY 1 TRIREME AT alpha")[0][1] == \
        "ships are made only at a ship yard; alpha has none"
    assert check(state, "ALPHA", "BUY 1 TRIREME AT a-field")[0][1].startswith(
        "a ship yard outside a fort or capital stores no ships")
    assert check(state, "ALPHA", "BUY 1 TRIREME AT a-field -> sea-west") == [(True, None)]
    assert check(state, "ALPHA", "BUY 1 TRIREME AT a-field -> sea-east")[0][1] == \
        "sea-east is not a sea next to a-field"
    assert check(state, "ALPHA", "BUY 1 AIRSHIP AT alpha")[0][1].startswith(
        "airships are made only at a fort or capital with a gas vent")


def test_storage_and_airship_limits():
    state = fresh_state()
    state["powers"]["ALPHA"]["gold"] = 500
    state["territories"]["alpha"].update(shipyard=True, gas_vent=True)
    assert check(state, "ALPHA", "BUY 4 TRIREME AT alpha", "BUY 2 TRANSPORT AT alpha") == [(True, None)] * 2
    assert check(state, "ALPHA", "BUY 5 TRIREME AT alpha")[0][1] == "alpha stores at most 4 TRIREME"
    assert check(state, "ALPHA", "BUY 2 AIRSHIP AT alpha") == [(True, None)]
    assert check(state, "ALPHA", "BUY 3 AIRSHIP AT alpha")[0][1] == "alpha holds at most 2 airships"


def test_spending_is_checked_in_order_against_the_treasury():
    state = fresh_state()  # 50 gold
    result = check(state, "ALPHA", "BUY 1 CAVALRY AT alpha", "BUY 2 INFANTRY AT alpha",
                   "BUY 1 INFANTRY AT alpha")
    assert result == [(True, None), (True, None), (False, "cannot afford: costs 10 gold, 5 left")]


def test_gold_expected_from_another_state_counts_when_checking():
    state = fresh_state()
    assert check(state, "ALPHA", "BUY 6 INFANTRY AT alpha")[0][0] is False
    assert check(state, "ALPHA", "EXPECT 10 FROM BETA", "BUY 6 INFANTRY AT alpha") == [(True, None)] * 2


def test_gifts_only_from_gold_held():
    state = fresh_state()
    assert check(state, "ALPHA", "GIVE 30 TO BETA", "GIVE 30 TO GAMMA")[1][1].startswith("cannot give 30")


def test_reach_and_movement_allowance():
    state = fresh_state()
    state["powers"]["ALPHA"]["gold"] = 100
    assert check(state, "ALPHA", "MOVE 1 INFANTRY alpha -> mid-one") == [(True, None)]
    assert check(state, "ALPHA", "MOVE 1 INFANTRY alpha -> mid-two")[0][1] == "mid-two is not next to alpha by land"
    assert check(state, "ALPHA", "MOVE 1 INFANTRY alpha -> mid-one -> mid-two")[0][1] == \
        "INFANTRY moves at most 1 step(s)"
    assert check(state, "ALPHA", "MOVE 2 INFANTRY alpha -> mid-one")[0][1] == \
        "only 1 INFANTRY free at alpha, 2 ordered"
    # cavalry bought this turn ride two steps through neutral mid-one
    assert check(state, "ALPHA", "BUY 1 CAVALRY AT alpha", "MOVE 1 CAVALRY alpha -> mid-two") == [(True, None)] * 2
    assert check(state, "ALPHA", "MOVE 1 INFANTRY alpha -> sea-west")[0][1] == \
        "sea-west is a sea: troops cross it only in a transport"
    assert check(state, "ALPHA", "MOVE 1 TRIREME sea-west -> mid-one")[0][1] == \
        "ships are stored only in an own fort or capital with a ship yard"


def test_entering_another_states_land_needs_war():
    state = fresh_state()
    state["territories"]["mid-one"]["owner"] = "BETA"
    assert check(state, "ALPHA", "MOVE 1 INFANTRY alpha -> mid-one")[0][1] == \
        "mid-one belongs to BETA, with whom ALPHA is not at war"
    assert check(state, "ALPHA", "WAR ON BETA", "MOVE 1 INFANTRY alpha -> mid-one") == [(True, None)] * 2


def test_each_unit_acts_once():
    state = fresh_state()
    assert check(state, "ALPHA", "MOVE 1 INFANTRY alpha -> mid-one",
                 "MOVE 1 INFANTRY alpha -> a-field")[1][1] == "only 0 INFANTRY free at alpha, 1 ordered"


def test_forts_not_next_to_each_other_and_improvements_where_allowed():
    state = fresh_state()
    state["powers"]["ALPHA"]["gold"] = 200
    assert check(state, "ALPHA", "FORT alpha", "FORT a-field")[1][1] == \
        "a state may not hold forts in adjacent tiles (alpha)"
    assert check(state, "ALPHA", "GASVENT a-field")[0][1] == "gas vents are built only in a fort or the capital"
    assert check(state, "GAMMA", "SHIPYARD gamma")[0][1] == "gamma is not on the coast"


def test_transport_rules():
    state = fresh_state()
    state["powers"]["ALPHA"]["gold"] = 200
    state["territories"]["alpha"]["shipyard"] = True
    # a transport made this turn may not carry
    assert check(state, "ALPHA", "BUY 1 TRANSPORT AT alpha -> sea-west",
                 "LOAD 1 INFANTRY alpha -> sea-west")[1][1] == \
        "no transport of ALPHA at sea-west able to carry this turn (a transport loads, moves and unloads only " \
        "two of these a turn)"
    state["units"]["ALPHA-9"] = {"id": "ALPHA-9", "type": "TRANSPORT", "owner": "ALPHA",
                                 "location": "sea-west", "stored": False, "privateer": False,
                                 "built": 0, "aboard": None, "hidden_until": None}
    # load and sail (written in reverse order) in one turn; unloading as well would be a third step
    assert check(state, "ALPHA", "MOVE 1 TRANSPORT sea-west -> sea-east", "LOAD 1 INFANTRY alpha -> sea-west") == \
        [(True, None)] * 2
    assert check(state, "ALPHA", "UNLOAD 1 INFANTRY sea-east -> mid-two",
                 "MOVE 1 TRANSPORT sea-west -> sea-east", "LOAD 1 INFANTRY alpha -> sea-west")[0][1] == \
        "a transport loads, moves and unloads only two of these a turn: the one at sea-east has loaded and moved"
    # capacity 6: four cavalry weigh 6
    orders = ["BUY 2 CAVALRY AT alpha", "LOAD 2 CAVALRY alpha -> sea-west", "LOAD 1 INFANTRY alpha -> sea-west"]
    assert [a for a, _ in check(state, "ALPHA", *orders)] == [True, True, True]


def test_airship_drops():
    state = fresh_state()
    state["territories"]["alpha"].update(gas_vent=True)
    state["units"]["ALPHA-9"] = {"id": "ALPHA-9", "type": "AIRSHIP", "owner": "ALPHA",
                                 "location": "alpha", "stored": False, "privateer": False,
                                 "built": 0, "aboard": None, "hidden_until": None}
    state["powers"]["ALPHA"]["gold"] = 100
    assert check(state, "ALPHA", "BUY 2 INFANTRY AT alpha", "DROP 3 INFANTRY alpha -> mid-three") == [(True, None)] * 2
    # alpha, mid-one, mid-two, beta: 3 steps; b-town is one more; over sea-west a sea counts 2
    assert check(state, "ALPHA", "WAR ON BETA", "DROP 1 INFANTRY alpha -> beta") == [(True, None)] * 2
    assert check(state, "ALPHA", "WAR ON BETA", "DROP 1 INFANTRY alpha -> b-town")[1][1] == \
        "b-town is 4 tiles from alpha; airships reach 3"
    assert check(state, "ALPHA", "BUY 3 INFANTRY AT alpha", "DROP 4 INFANTRY alpha -> mid-one")[1][1] == \
        "only 1 AIRSHIP free at alpha, 2 ordered"


def test_raze_only_a_fort_not_held():
    state = fresh_state()
    state["territories"]["alpha"]["fort"] = True
    assert check(state, "ALPHA", "RAZE alpha")[0][1] == "a state may not raze a fort it controls"
    assert check(state, "ALPHA", "RAZE beta")[0][1] == "there is no fort at beta"


def test_spying_costs_by_target():
    state = fresh_state()
    state["territories"]["beta"]["fort"] = True
    # investigating a fort's fleet: 30 + 10 = 40; a second costly mission no longer fits
    assert check(state, "ALPHA", "SPY INVESTIGATE FLEET beta", "SPY MAP BETA") == [
        (True, None), (False, "cannot afford: costs 40 gold, 10 left")]
    assert check(state, "ALPHA", "SPY INVESTIGATE FLEET mid-three")[0][1] == \
        "only a fort's or a capital's fleet can be investigated"
    assert check(state, "ALPHA", "SPY MAP ALPHA")[0][1] == "cannot spy on ALPHA"


def test_morale_costs_per_unit_held():
    state = fresh_state()  # ALPHA holds 3 units: morale 3 costs 45, level 2 costs 30
    assert check(state, "ALPHA", "MORALE 3") == [(True, None)]
    assert check(state, "ALPHA", "MORALE 2", "MORALE 1")[1][1] == "morale is already bought this turn"
    state["powers"]["ALPHA"]["gold"] = 44
    assert check(state, "ALPHA", "MORALE 3")[0][1] == "cannot afford: costs 45 gold, 44 left"


def test_hiding_units_only_on_plain_tiles():
    state = fresh_state()
    assert check(state, "ALPHA", "HIDE 1 INFANTRY AT a-field") == [(True, None)]
    assert check(state, "ALPHA", "HIDE 1 INFANTRY AT alpha")[0][1] == \
        "units are hidden only in tiles without a fort, city or capital"
    # hiding applies where the units end the turn
    moved_and_hidden = check(state, "ALPHA", "MOVE 1 INFANTRY a-field -> mid-one", "HIDE 1 INFANTRY AT mid-one")
    assert moved_and_hidden == [(True, None)] * 2


def test_possible_orders_are_all_accepted():
    state = fresh_state()
    menu = VARIANT.possible_orders(state, "ALPHA")
    assert "MOVE 1 INFANTRY alpha -> mid-one" in menu["1 INFANTRY at alpha"]
    assert "BUY 1 INFANTRY AT alpha" in menu["alpha"]
    assert "WAR ON BETA" in menu["general"]
    for options in menu.values():
        for text in options:
            assert VARIANT.check_orders(state, "ALPHA", [text])[0].accepted, text
