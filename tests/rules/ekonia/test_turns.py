"""Whole turns on the small board: captures, capitals, forts, espionage, hiding, determinism."""
from __future__ import annotations

import json

from shared.rules.ekonia.espionage import mission_roll
from shared.rules.variants.ekonia import EkoniaVariant
from tests.utils.ekonia_board import fresh_state, small_board

VARIANT = EkoniaVariant(small_board())


def play(state, orders, seed=1):
    return VARIANT.resolve(state, orders, settings={}, seed=seed)


def add_unit(state, uid, unit_type, location, **extra):
    state["units"][uid] = {"id": uid, "type": unit_type, "owner": uid.rpartition("-")[0],
                           "location": location, "stored": False, "privateer": False, "built": 0,
                           "aboard": None, "hidden_until": None, **extra}
    owner, _, number = uid.rpartition("-")
    power = state["powers"][owner]
    power["next_unit"] = max(power["next_unit"], int(number) + 1)


def test_neutral_land_needs_strength_two_and_a_half():
    state = fresh_state()
    out = play(state, {"ALPHA": ["MOVE 1 INFANTRY a-field -> mid-one", "MOVE 1 INFANTRY alpha -> mid-one"]})
    assert out.state["territories"]["mid-one"]["owner"] is None
    too_weak = {"event": "too weak to take", "territory": "mid-one", "by": "ALPHA", "strength": 2.0}
    assert too_weak in out.details["events"]
    # a cavalry (1.5 when attacking) with an infantry makes 2.5
    state["powers"]["ALPHA"]["gold"] = 100
    out = play(state, {"ALPHA": ["BUY 1 CAVALRY AT alpha", "MOVE 1 CAVALRY alpha -> mid-one",
                                 "MOVE 1 INFANTRY a-field -> mid-one"]})
    assert out.state["territories"]["mid-one"]["owner"] == "ALPHA"


def fortified_beta():
    """BETA's capital has a fort, a ship yard and a gas vent, a stored trireme and an airship;
    four ALPHA infantry wait in mid-two, at war with BETA, and beta's garrison has left."""
    state = fresh_state()
    state["wars"] = [["ALPHA", "BETA"]]
    state["territories"]["mid-two"]["owner"] = "ALPHA"
    state["territories"]["beta"].update({"fort": True, "shipyard": True, "gas_vent": True})
    state["units"]["BETA-1"]["location"] = "b-town"
    add_unit(state, "BETA-7", "TRIREME", "beta", stored=True)
    add_unit(state, "BETA-8", "AIRSHIP", "beta")
    for i in range(4, 8):
        add_unit(state, f"ALPHA-{i}", "INFANTRY", "mid-two")
    return state


def test_capturing_a_capital_and_its_fort_takes_two_turns():
    state = fortified_beta()
    out = play(state, {"ALPHA": ["MOVE 4 INFANTRY mid-two -> beta"]})
    beta = out.state["territories"]["beta"]
    # turn 1: beta turns neutral; the fort stays, its stored fleet, yard, vent and airship are lost
    assert beta["owner"] is None and beta["converting"] == {"by": "ALPHA", "since": 1}
    assert beta["fort"] and not beta["shipyard"] and not beta["gas_vent"]
    assert "BETA-7" not in out.state["units"] and "BETA-8" not in out.state["units"]
    # the capital moves to BETA's nearest other city, b-town; beta is a plain city now
    assert out.state["powers"]["BETA"]["capital"] == "b-town"
    assert {"event": "capital moved", "power": "BETA", "from": "beta", "to": "b-town"} in out.details["events"]
    assert beta["city"]
    # turn 2: ALPHA takes it, with the fort
    out = play(out.state, {})
    assert out.state["territories"]["beta"]["owner"] == "ALPHA"
    assert out.state["territories"]["beta"]["fort"]
    # a captured capital pays as a city: 15
    assert out.details["ledgers"]["ALPHA"]["bti"] == 25 + 10 + 15 + 15


def test_peace_made_in_the_turn_stops_the_conquest():
    state = fortified_beta()
    out = play(state, {"ALPHA": ["MOVE 4 INFANTRY mid-two -> beta", "PEACE WITH BETA"],
                       "BETA": ["PEACE WITH ALPHA"]})
    assert out.state["wars"] == []
    assert out.state["territories"]["beta"]["owner"] == "BETA"
    assert out.details["battles"] == []


def test_a_conquered_fort_may_be_razed_before_it_is_taken():
    state = fortified_beta()
    out = play(state, {"ALPHA": ["MOVE 4 INFANTRY mid-two -> beta", "RAZE beta"]})
    assert out.orders["ALPHA"][1] == {"order": "RAZE beta", "result": "ok", "reason": "fort razed"}
    assert not out.state["territories"]["beta"]["fort"]


def test_a_state_without_cities_has_no_capital_until_it_takes_one():
    state = fortified_beta()
    state["territories"]["b-town"]["owner"] = None
    out = play(state, {"ALPHA": ["MOVE 4 INFANTRY mid-two -> beta"]})
    assert out.state["powers"]["BETA"]["capital"] is None
    # BETA takes neutral b-town (a city) with three infantry: its new capital
    state = out.state
    state["powers"]["BETA"]["gold"] = 100
    for i in (10, 11):
        add_unit(state, f"BETA-{i}", "INFANTRY", "b-field")
    add_unit(state, "BETA-12", "INFANTRY", "b-field")
    out = play(state, {"BETA": ["MOVE 3 INFANTRY b-field -> b-town"]})
    assert out.state["powers"]["BETA"]["capital"] == "b-town"


def test_a_destroyed_state_leaves_the_game_and_the_last_one_wins():
    state = fresh_state()
    state["wars"] = [["ALPHA", "GAMMA"]]
    del state["units"]["GAMMA-1"]
    state["territories"]["g-field"]["owner"] = None
    for i in range(4, 8):
        add_unit(state, f"ALPHA-{i}", "INFANTRY", "mid-three")
    out = play(state, {"ALPHA": ["MOVE 4 INFANTRY mid-three -> gamma"]})
    # GAMMA held one territory and no unit: once gamma turns neutral, GAMMA is gone
    assert out.state["territories"]["gamma"]["owner"] is None
    assert out.details["destroyed_states"] == ["GAMMA"]
    assert not out.state["powers"]["GAMMA"]["alive"]
    assert out.must_act == ["ALPHA", "BETA"] and out.winners == []
    # with BETA gone too, ALPHA is the last state standing
    state = out.state
    state["wars"] = [["ALPHA", "BETA"]]
    for tid in ("beta", "b-field", "b-town"):
        state["territories"][tid]["owner"] = None
    for uid in ("BETA-1", "BETA-2"):
        del state["units"][uid]
    out = play(state, {})
    assert out.winners == ["ALPHA"] and out.must_act == []


def first_seed(condition):
    return next(seed for seed in range(500) if condition(seed))


def test_espionage_finds_units_and_counter_espionage_finds_the_spy():
    state = fortified_beta()
    # seed where ALPHA's investigation (order 0) and BETA's counter-espionage (order 0) succeed
    seed = first_seed(lambda s: mission_roll(s, 1, "ALPHA", 0) <= 55 and mission_roll(s, 1, "BETA", 0) <= 50)
    state["powers"]["BETA"]["gold"] = 70
    out = play(state, {"ALPHA": ["SPY INVESTIGATE FLEET beta"], "BETA": ["SPY COUNTER ALL"]}, seed=seed)
    alpha_knows = out.state["knowledge"]["ALPHA"][-1]
    assert alpha_knows == {"turn": 1, "mission": "INVESTIGATE FLEET", "target": "beta", "success": True,
                           "found": {"units": [{"owner": "BETA", "type": "AIRSHIP", "privateer": False, "count": 1}],
                                     "fleet": [{"owner": "BETA", "type": "TRIREME", "privateer": False, "count": 1}]}}
    beta_knows = out.state["knowledge"]["BETA"][-1]
    assert beta_knows["found"] == [{"by": "ALPHA", "mission": "INVESTIGATE FLEET", "target": "beta"}]
    rolls = [r for r in out.details["rolls"] if r["kind"] == "mission"]
    assert {(r["power"], r["success"]) for r in rolls} == {("ALPHA", True), ("BETA", True)}
    # a failed mission teaches nothing
    seed = first_seed(lambda s: mission_roll(s, 1, "ALPHA", 0) > 70)
    out = play(state, {"ALPHA": ["SPY INVESTIGATE b-town"]}, seed=seed)
    assert out.state["knowledge"]["ALPHA"][-1]["success"] is False
    assert out.state["knowledge"]["ALPHA"][-1]["found"] is None
    assert out.orders["ALPHA"][0]["reason"] == "mission failed"


def test_steal_map_and_records():
    state = fortified_beta()
    seed = first_seed(lambda s: mission_roll(s, 1, "ALPHA", 0) <= 55 and mission_roll(s, 1, "ALPHA", 1) <= 70)
    state["powers"]["ALPHA"]["gold"] = 100
    state["powers"]["BETA"]["gold"] = 100
    out = play(state, {"ALPHA": ["SPY MAP BETA", "SPY RECORDS BETA"],
                       "BETA": ["BUY 2 INFANTRY AT beta", "SHIPYARD b-field", "HIDE 1 INFANTRY AT b-field"]},
               seed=seed)
    found = [k["found"] for k in out.state["knowledge"]["ALPHA"]]
    assert found[0] == {"shipyards": ["beta"], "gas_vents": ["beta"]}
    assert out.orders["BETA"][1]["result"] == "failed"  # b-field has no coast
    # records show the gold spent in cities and forts only: not the 10 for hiding in b-field
    assert found[1] == {"beta": 20}
    assert out.state["spending"]["BETA"]["T01"]["by_location"] == {"b-field": 10, "beta": 20}


def test_hidden_units_are_marked_for_the_next_turn_and_spending_is_recorded():
    state = fresh_state()
    out = play(state, {"ALPHA": ["HIDE 1 INFANTRY AT a-field", "HIDE CITIES 5"]})
    assert out.state["units"]["ALPHA-2"]["hidden_until"] == 2
    assert out.state["powers"]["ALPHA"]["hide_cities"] == {"turn": 2, "bonus": 5}
    assert out.state["spending"]["ALPHA"]["T01"] == {"total": 50, "by_location": {"a-field": 10}}
    public = VARIANT.view(out.state, None)["public"]
    assert {"type": "INFANTRY", "owner": "ALPHA", "location": "a-field"} not in public["units"]
    assert public["spent"]["ALPHA"] == {"T01": 50}
    out = play(out.state, {})
    assert out.state["units"]["ALPHA-2"]["hidden_until"] is None


def test_privateers_attack_unless_told_to_spare():
    state = fresh_state()
    add_unit(state, "BETA-9", "TRIREME", "sea-east")
    add_unit(state, "BETA-10", "TRIREME", "sea-east")
    add_unit(state, "BETA-11", "TRIREME", "sea-east")
    state["units"]["ALPHA-3"]["privateer"] = True
    out = play(state, {"ALPHA": ["MOVE 1 TRIREME sea-west -> sea-east"]})
    assert [b["territory"] for b in out.details["battles"]] == ["sea-east"]
    out = play(state, {"ALPHA": ["SPARE BETA", "MOVE 1 TRIREME sea-west -> sea-east"]})
    assert out.details["battles"] == []
    assert out.state["powers"]["ALPHA"]["spared"] == ["BETA"]


def test_same_seed_same_turn_whatever_the_order_of_the_states():
    state = fortified_beta()
    orders = {"ALPHA": ["MOVE 3 INFANTRY mid-two -> beta", "SPY INVESTIGATE b-town"],
              "BETA": ["MOVE 1 INFANTRY b-field -> beta", "BUY 1 INFANTRY AT b-town", "SPY COUNTER ALL"],
              "GAMMA": ["MOVE 1 INFANTRY gamma -> mid-three"]}
    one = play(state, orders, seed=99)
    two = play(state, dict(reversed(list(orders.items()))), seed=99)
    assert json.dumps(one.state, sort_keys=True) == json.dumps(two.state, sort_keys=True)
    assert one.details == two.details and one.orders == two.orders
    assert one.details["battles"], "the test wants a battle with dice"


def test_writing_a_states_orders_in_another_order_changes_nothing():
    state = fortified_beta()
    state["powers"]["ALPHA"]["gold"] = 200
    state["territories"]["alpha"]["shipyard"] = True
    add_unit(state, "ALPHA-9", "TRANSPORT", "sea-west")
    orders = ["MOVE 3 INFANTRY mid-two -> beta", "BUY 2 INFANTRY AT alpha", "LOAD 2 INFANTRY alpha -> sea-west",
              "MOVE 1 TRANSPORT sea-west -> sea-east", "SPY MAP BETA"]
    one = play(state, {"ALPHA": orders}, seed=3)
    two = play(state, {"ALPHA": list(reversed(orders))}, seed=3)
    assert all(r["result"] == "ok" for r in one.orders["ALPHA"])
    assert json.dumps(one.state["units"], sort_keys=True) == json.dumps(two.state["units"], sort_keys=True)
    assert one.details["battles"] == two.details["battles"]


def test_the_input_state_is_not_changed():
    state = fortified_beta()
    before = json.dumps(state, sort_keys=True)
    play(state, {"ALPHA": ["MOVE 4 INFANTRY mid-two -> beta", "SPY MAP BETA"]})
    assert json.dumps(state, sort_keys=True) == before


def test_r49_a_state_at_peace_keeps_its_units_through_a_battle_of_others():
    state = fresh_state()
    state["wars"] = [["ALPHA", "BETA"]]
    add_unit(state, "ALPHA-7", "INFANTRY", "mid-one")
    add_unit(state, "ALPHA-8", "INFANTRY", "mid-one")
    for seed in range(8):
        out = play(state, {"ALPHA": ["MOVE 2 INFANTRY mid-one -> mid-three"],
                           "BETA": ["MOVE 1 INFANTRY b-field -> mid-three"],
                           "GAMMA": ["MOVE 1 INFANTRY gamma -> mid-three"]}, seed=seed)
        battle, = out.details["battles"]
        assert sorted(p for s in battle["sides"] for p in s["powers"]) == ["ALPHA", "BETA"]
        assert out.state["units"]["GAMMA-1"]["location"] == "mid-three"


def test_r42_privateers_sparing_a_state_on_its_lane_can_be_attacked_by_it_without_war():
    state = fresh_state()
    state["units"]["ALPHA-3"].update({"privateer": True, "location": "sea-east"})
    state["powers"]["ALPHA"]["spared"] = ["BETA"]
    add_unit(state, "BETA-7", "TRIREME", "sea-west")
    add_unit(state, "BETA-8", "TRIREME", "sea-west")
    quiet = play(state, {"BETA": ["MOVE 2 TRIREME sea-west -> sea-east"]})
    assert quiet.details["battles"] == [] and quiet.state["wars"] == []
    out = play(state, {"BETA": ["MOVE 2 TRIREME sea-west -> sea-east", "ATTACK PRIVATEERS AT sea-east"]})
    assert [r["result"] for r in out.orders["BETA"]] == ["ok", "ok"]
    battle, = out.details["battles"]
    assert battle["territory"] == "sea-east" and out.state["wars"] == []
    assert sorted(s["powers"] for s in battle["sides"]) == [["ALPHA"], ["BETA"]]


def test_r31_investigating_a_sea_finds_who_owns_its_privateers():
    state = fresh_state()
    state["units"]["ALPHA-3"]["privateer"] = True
    seed = first_seed(lambda s: mission_roll(s, 1, "BETA", 0) <= 70)
    out = play(state, {"BETA": ["SPY INVESTIGATE sea-west"]}, seed=seed)
    assert out.state["knowledge"]["BETA"][-1]["found"] == [
        {"owner": "ALPHA", "type": "TRIREME", "privateer": True, "count": 1}]
    assert out.details["ledgers"]["BETA"]["costs"] == 10
