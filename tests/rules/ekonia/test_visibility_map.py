"""What the map shows of each state's holdings (docs/rules/ekonia.md section 14):
hidden strength values, units hidden on open tiles, ship yards and gas vents, stored ships,
privateers and their lanes. Each test looks through the owner (ALPHA), another state (BETA),
a state whose mission succeeded (GAMMA) and the public."""
from __future__ import annotations

from tests.utils.ekonia_viewers import (
    VARIANT,
    add_unit,
    fresh_state,
    public_units_at,
    resolved_event,
    seed_where,
    shared_part,
    text,
    views,
)


def test_units_in_a_capital_hide_up_to_its_hidden_strength_then_all_show():
    state = fresh_state()
    for i in range(10, 14):
        add_unit(state, f"ALPHA-{i}", "INFANTRY", "alpha")  # five in the capital: 5 <= 5
    seen = views(state)
    assert len([u for u in seen["owner"]["own"]["units"] if u["location"] == "alpha"]) == 5
    for name in ("other", "spy", "public"):
        assert public_units_at(seen[name], "alpha") == []
        assert "ALPHA-10" not in text(seen[name])
    add_unit(state, "ALPHA-14", "CAVALRY", "alpha")  # 6.5 > 5: all of them show, without ids
    seen = views(state)
    for name in ("other", "spy", "public"):
        shown = public_units_at(seen[name], "alpha")
        assert sorted(u["type"] for u in shown) == ["CAVALRY"] + ["INFANTRY"] * 5
        assert all(set(u) == {"type", "owner", "location"} for u in shown)


def test_a_successful_investigation_shows_the_spy_what_hides_in_a_city():
    state = fresh_state()
    for i in range(10, 13):
        add_unit(state, f"ALPHA-{i}", "INFANTRY", "alpha")
    orders = {"GAMMA": ["SPY INVESTIGATE alpha"]}
    after = resolved_event(state, orders, seed=seed_where("GAMMA", 1, 0, True, 70))["position"]
    seen = views(after)
    learnt = seen["spy"]["own"]["knowledge"]
    assert learnt == [{"turn": 1, "mission": "INVESTIGATE", "target": "alpha", "success": True,
                       "found": [{"owner": "ALPHA", "type": "INFANTRY", "privateer": False, "count": 4}]}]
    assert public_units_at(seen["spy"], "alpha") == []  # the map itself does not change
    for name in ("owner", "other", "public"):
        assert "INVESTIGATE" not in text(seen[name])


def test_hiding_cities_raises_the_limit_for_the_turn_it_covers():
    state = fresh_state()
    for i in range(10, 16):
        add_unit(state, f"ALPHA-{i}", "INFANTRY", "alpha")  # 7 > 5: shown
    assert len(public_units_at(views(state)["public"], "alpha")) == 7
    after = resolved_event(state, {"ALPHA": ["HIDE CITIES 3"]})["position"]  # 7 <= 8 next turn
    seen = views(after)
    for name in ("other", "spy", "public"):
        assert public_units_at(seen[name], "alpha") == []
        assert "hide_cities" not in shared_part(seen[name])
    assert seen["owner"]["own"]["state"]["hide_cities"] == {"turn": 2, "bonus": 3}


def test_infantry_hidden_on_open_land_do_not_show():
    state = fresh_state()
    state["powers"]["ALPHA"]["gold"] = 100
    after = resolved_event(state, {"ALPHA": ["HIDE 1 INFANTRY AT a-field"]})["position"]
    seen = views(after)
    for name in ("other", "spy", "public"):
        assert public_units_at(seen[name], "a-field") == []
    mine = [u for u in seen["owner"]["own"]["units"] if u["location"] == "a-field"]
    assert mine and mine[0]["hidden_until"] == 2
    later = resolved_event(after, {})["position"]  # the cover lapses after its turn
    assert public_units_at(views(later)["public"], "a-field") == [
        {"type": "INFANTRY", "owner": "ALPHA", "location": "a-field"}]


def test_ship_yards_and_gas_vents_never_show_but_steal_map_tells_its_spy():
    state = fresh_state()
    state["territories"]["alpha"].update({"shipyard": True, "gas_vent": True})
    state["territories"]["a-field"]["shipyard"] = True
    seen = views(state)
    assert seen["owner"]["own"]["improvements"]["alpha"] == {"shipyard": True, "gas_vent": True}
    for name in ("other", "spy", "public"):
        assert "shipyard" not in shared_part(seen[name]) and "gas_vent" not in shared_part(seen[name])
        assert "alpha" not in seen[name].get("own", {}).get("improvements", {})
    after = resolved_event(state, {"GAMMA": ["SPY MAP ALPHA"]}, seed=seed_where("GAMMA", 1, 0, True, 55))["position"]
    seen = views(after)
    assert seen["spy"]["own"]["knowledge"][0]["found"] == {"shipyards": ["a-field", "alpha"], "gas_vents": ["alpha"]}
    assert "shipyard" not in shared_part(seen["other"]) and "shipyard" not in shared_part(seen["public"])


def test_stored_ships_do_not_show_and_a_fleet_investigation_finds_them():
    state = fresh_state()
    state["territories"]["alpha"]["shipyard"] = True
    add_unit(state, "ALPHA-9", "TRIREME", "alpha", stored=True)
    seen = views(state)
    assert any(u["id"] == "ALPHA-9" and u["stored"] for u in seen["owner"]["own"]["units"])
    for name in ("other", "spy", "public"):
        assert public_units_at(seen[name], "alpha") == [] and "ALPHA-9" not in text(seen[name])
    orders = {"GAMMA": ["SPY INVESTIGATE FLEET alpha"]}
    after = resolved_event(state, orders, seed=seed_where("GAMMA", 1, 0, True, 55))["position"]
    found = views(after)["spy"]["own"]["knowledge"][0]["found"]
    assert found == {"units": [{"owner": "ALPHA", "type": "INFANTRY", "privateer": False, "count": 1}],
                     "fleet": [{"owner": "ALPHA", "type": "TRIREME", "privateer": False, "count": 1}]}


def test_privateers_show_without_an_owner_and_so_do_the_lanes_they_hold():
    state = fresh_state()
    state["units"]["ALPHA-3"]["privateer"] = True  # the trireme on the sea-west lane
    after = resolved_event(state, {})["position"]
    assert after["sea_lanes"]["sea-west"] == {"controller": "ALPHA", "privateer": True}
    seen = views(after)
    for name in ("other", "spy", "public"):
        assert seen[name]["public"]["sea_lanes"]["sea-west"] == "PRIVATEERS"
        assert public_units_at(seen[name], "sea-west") == [{"type": "TRIREME", "owner": "PRIVATEERS",
                                                             "location": "sea-west"}]
        assert seen[name]["units"]["ALPHA"] == [u for u in seen[name]["units"]["ALPHA"] if u["location"] != "sea-west"]
    assert seen["owner"]["own"]["sea_lanes"] == ["sea-west"]
    assert any(u["privateer"] for u in seen["owner"]["own"]["units"])


def test_a_state_sees_everything_of_its_own_and_others_see_none_of_it():
    state = fresh_state()
    state["powers"]["ALPHA"]["gold"] = 77
    seen = views(state)
    own = seen["owner"]["own"]
    assert own["gold"] == 77 and own["state"]["next_unit"] == state["powers"]["ALPHA"]["next_unit"]
    assert {u["id"] for u in own["units"]} == {"ALPHA-1", "ALPHA-2", "ALPHA-3"}
    assert own["units"][0] == state["units"]["ALPHA-1"]
    for name in ("other", "spy", "public"):
        assert "77" not in text(seen[name]["public"]) and seen[name].get("own", {}).get("power") != "ALPHA"
    assert "own" not in seen["public"]


def test_who_took_a_territory_to_neutral_is_known_to_the_taker_only():
    state = fresh_state()
    state["wars"] = [["ALPHA", "BETA"]]
    add_unit(state, "ALPHA-7", "INFANTRY", "b-field")
    state["units"]["BETA-2"]["location"] = "beta"  # b-field left empty
    event = resolved_event(state, {})
    seen = views(event["position"])
    assert seen["public"]["public"]["territories"]["b-field"] == {
        "owner": None, "city": False, "fort": False, "converting": {"since": 1}}
    assert seen["owner"]["own"]["converting"] == ["b-field"]
    history = {name: VARIANT.history_view(event, power)
               for name, power in (("owner", "ALPHA"), ("other", "BETA"), ("public", None))}
    assert ({"event": "neutralised", "territory": "b-field", "from": "BETA", "by": "ALPHA"}
            in history["owner"]["details"]["events"])
    assert {"event": "neutralised", "territory": "b-field", "from": "BETA"} in history["other"]["details"]["events"]
    assert {"event": "neutralised", "territory": "b-field", "from": "BETA"} in history["public"]["details"]["events"]
