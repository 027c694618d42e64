"""Espionage outcomes reach only the state that paid for them (docs/rules/ekonia.md section 14): Steal Records,
counter-espionage, failed missions, and knowledge kept with its turn. Viewers: the target
ALPHA ("owner"), BETA ("other"), the spy GAMMA, the public."""
from __future__ import annotations

from tests.utils.ekonia_viewers import (
    VARIANT,
    fresh_state,
    resolved_event,
    seed_where,
    shared_part,
    text,
    turn_views,
    views,
)


def test_steal_records_shows_the_spy_what_the_target_spent_in_each_city_and_fort():
    state = fresh_state()
    state["powers"]["ALPHA"]["gold"] = 200
    orders = {"ALPHA": ["BUY 2 INFANTRY AT alpha", "SHIPYARD a-field"], "GAMMA": ["SPY RECORDS ALPHA"]}
    event = resolved_event(state, orders, seed=seed_where("GAMMA", 1, 0, True, 70))
    seen = views(event["position"])
    assert seen["spy"]["own"]["knowledge"][0]["found"] == {"alpha": 20}  # not the yard on open land
    assert seen["owner"]["own"]["spending"]["T01"] == {"total": 40, "by_location": {"a-field": 20, "alpha": 20}}
    for name in ("other", "spy", "public"):  # how much, not on what
        assert seen[name]["public"]["spent"]["ALPHA"] == {"T01": 40}
        assert "by_location" not in shared_part(seen[name])
    history = turn_views(event)
    for name in ("other", "spy", "public"):
        assert history[name]["details"]["spending"]["ALPHA"] == {"total": 40}
        assert "ALPHA" not in history[name]["orders"] and "SHIPYARD" not in text(history[name])
    assert history["owner"]["details"]["spending"]["ALPHA"]["by_location"] == {"a-field": 20, "alpha": 20}


def test_counter_espionage_names_the_missions_used_on_the_state_to_it_alone():
    state = fresh_state()
    state["powers"]["ALPHA"]["gold"] = 200
    orders = {"GAMMA": ["SPY MAP ALPHA"], "ALPHA": ["SPY COUNTER ALL"]}
    for seed in range(1000):  # a seed where the counter-espionage succeeds and the spy fails
        event = resolved_event(state, orders, seed=seed)
        results = {(m["power"], m["success"]) for m in event["details"]["missions"]}
        if results == {("ALPHA", True), ("GAMMA", False)}:
            break
    seen = views(event["position"])
    assert seen["owner"]["own"]["knowledge"] == [{"turn": 1, "mission": "COUNTER ALL", "target": None, "success": True,
                                                  "found": [{"by": "GAMMA", "mission": "MAP", "target": "ALPHA"}]}]
    # a failed mission teaches the spy nothing and shows nobody else anything
    assert seen["spy"]["own"]["knowledge"] == [{"turn": 1, "mission": "MAP", "target": "ALPHA", "success": False,
                                                "found": None}]
    for name in ("other", "public"):
        assert "MAP" not in text(seen[name]) and "COUNTER" not in text(seen[name])
    history = turn_views(event)
    assert [m["power"] for m in history["spy"]["details"]["missions"]] == ["GAMMA"]
    assert [m["power"] for m in history["owner"]["details"]["missions"]] == ["ALPHA"]
    assert history["other"]["details"]["missions"] == [] and history["public"]["details"]["rolls"] == []
    assert [r["power"] for r in history["spy"]["details"]["rolls"]] == ["GAMMA"]


def test_what_a_mission_found_stays_with_its_turn_while_the_map_moves_on():
    state = fresh_state()
    first = resolved_event(state, {"GAMMA": ["SPY INVESTIGATE a-field"]}, seed=seed_where("GAMMA", 1, 0, True, 70))
    second = resolved_event(first["position"], {"ALPHA": ["MOVE 1 INFANTRY a-field -> mid-one"]})
    knowledge = views(second["position"])["spy"]["own"]["knowledge"]
    assert knowledge == [{"turn": 1, "mission": "INVESTIGATE", "target": "a-field", "success": True,
                          "found": [{"owner": "ALPHA", "type": "INFANTRY", "privateer": False, "count": 1}]}]
    assert VARIANT.view(second["position"], "BETA")["own"]["knowledge"] == []


def test_a_failed_mission_shows_the_others_exactly_what_other_spending_of_its_price_would():
    state = fresh_state()
    seed = seed_where("GAMMA", 1, 0, False, 70)
    failed = resolved_event(state, {"GAMMA": ["SPY INVESTIGATE alpha"]}, seed=seed)  # 20 gold
    hiding = resolved_event(state, {"GAMMA": ["HIDE CITIES 3"]}, seed=seed)  # 20 gold too
    assert failed["details"]["spending"]["GAMMA"]["total"] == hiding["details"]["spending"]["GAMMA"]["total"] == 20
    for power in ("ALPHA", "BETA", None):
        assert text(VARIANT.view(failed["position"], power)) == text(VARIANT.view(hiding["position"], power))
        assert text(VARIANT.history_view(failed, power)) == text(VARIANT.history_view(hiding, power))
