"""The policy table names every field of the Ekonia state and of a resolved turn (issue 7):
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
