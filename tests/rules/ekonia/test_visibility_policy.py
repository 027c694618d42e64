"""The policy table names every field of the Ekonia state and of a resolved turn (docs/rules/ekonia.md section 14):
a field added to the engine without a row would be for operators only, and this test says so."""
from __future__ import annotations

from shared.rules.ekonia.policy import OPERATORS, STATE_POLICY, TURN_POLICY, audience

from .test_scripted_game import play


def state_paths(state):
    """Every field of a state document, with ``*`` for the keys of its collections."""
    paths = set()
    for key, value in state.items():
        if key in ("powers", "territories", "sea_lanes", "units"):
            for record in value.values():
                for field, inner in record.items():
                    if isinstance(inner, dict) and key == "territories":
                        paths |= {f"{key}.*.{field}.{k}" for k in inner}
                    else:
                        paths.add(f"{key}.*.{field}")
        elif key == "spending":
            paths |= {f"spending.*.*.{f}" for by_turn in value.values() for rec in by_turn.values() for f in rec}
        elif key in ("knowledge", "ledger"):
            paths.add(f"{key}.*")
        else:
            paths.add(key)
    return paths


def test_every_field_of_a_played_state_has_a_row():
    history = play(turns=14)
    paths = set().union(*(state_paths(out.state) for _, _, out in history))
    assert {"territories.*.converting.by", "units.*.privateer", "spending.*.*.by_location"} <= paths
    missing = sorted(p for p in paths if p not in STATE_POLICY)
    assert missing == []
    assert audience(STATE_POLICY, "last_turn") == OPERATORS


def test_every_field_of_a_resolved_turn_has_a_row():
    history = play(turns=14)
    kinds = {e["event"] + (f" {e['what']}" if e["event"] == "built" else "")
             for _, _, out in history for e in out.details["events"]}
    for kind in kinds:
        assert f"details.events.{kind}" in TURN_POLICY, kind
    fields = {k for _, _, out in history for k in out.details}
    named = {row.split(".")[1] for row in TURN_POLICY if row.startswith("details.")}
    assert fields <= named, fields - named
    battle_fields = {k for _, _, out in history for b in out.details["battles"] for k in b}
    assert {f"details.battles.*.{k}" for k in battle_fields} <= set(TURN_POLICY)
    assert {f"details.rolls.{r['kind']}" for _, _, out in history for r in out.details["rolls"]} <= set(TURN_POLICY)


def test_every_field_of_a_battle_report_has_a_row_down_to_its_units():
    history = play(turns=14)
    rows = set()
    for _, _, out in history:
        for battle in out.details["battles"]:
            for side in battle["sides"]:
                rows |= {f"details.battles.*.sides.*.{k}" for k in side}
                for key in ("units", "passengers"):
                    rows |= {f"details.battles.*.sides.*.{key}.*.{k}" for u in side[key] for k in u}
    assert "details.battles.*.sides.*.passengers.*.unit" in rows  # the T12 transport carried troops
    assert sorted(r for r in rows if r not in TURN_POLICY) == []
    assert audience(TURN_POLICY, "details.battles.*.sides.*.privateers") == OPERATORS


def test_what_a_state_plans_on_holds_nothing_the_policy_hides_from_it():
    from shared.rules.ekonia.policy import planning_view

    state = play(turns=14)[-1][2].state
    for power in state["powers"]:
        known = planning_view(state, power)
        assert {u["owner"] for u in known["units"].values()} <= {power}
        assert all(rec["gold"] == 0 for p, rec in known["powers"].items() if p != power)
        assert not any(t["shipyard"] or t["gas_vent"] for t in known["territories"].values() if t["owner"] != power)
        assert all(not v for p, v in known["knowledge"].items() if p != power)
        assert set(known["ledger"]) <= {power}
