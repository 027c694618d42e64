"""Random Dirigible games through the variant's adapter, seeded: every order the menu offers is
accepted by the order check, every order gets one result, and the rules' invariants hold after
every phase (upkeep fits the points after a Winter, devastation ends with the year, no two
dirigibles share a province, dirigibles capture nothing)."""
from __future__ import annotations

import random

import pytest

from shared.rules.diplomacy import load_map
from shared.rules.dirigible import balances
from shared.rules.dirigible.document import dirigible_position_from_document
from shared.rules.variants import get_variant

VARIANT = get_variant("dirigible")
VARIANT_MAP = load_map("dirigible")
YEARS = 3


def pick_orders(state: dict, power: str, rng: random.Random) -> list[str]:
    menu = VARIANT.possible_orders(state, power)
    if state["phase"].startswith("W"):
        picks = [rng.choice(found) for key, found in sorted(menu.items()) if key != "WAIVE" and rng.random() < 0.7]
        return picks
    return [rng.choice(found) for _, found in sorted(menu.items())]


def check_invariants(before: dict, after: dict) -> None:
    position = dirigible_position_from_document(after)  # the state document reads back
    air = [u for units in after["units"].values() for u in units if u.startswith("D ")]
    assert len(air) == len(set(air))
    if before["phase"].startswith("W"):
        assert all(balance >= 0 for balance in balances(position).values()), balances(position)
    if after["phase"].startswith("S") and after["phase"].endswith("M"):
        assert after.get("devastated", []) == []


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_dirigible_games_keep_the_rules(seed: int) -> None:
    rng = random.Random(seed)
    opening = VARIANT.opening({}, seed)
    state, must_act = opening.state, opening.must_act
    phases = [state["phase"]]
    while not state["phase"].startswith(f"S{1901 + YEARS}"):
        orders: dict[str, list[str]] = {}
        for power in must_act:
            texts = pick_orders(state, power, rng)
            checks = VARIANT.check_orders(state, power, texts)
            if not state["phase"].startswith("W"):
                assert all(c.accepted for c in checks), [c.as_json() for c in checks if not c.accepted]
            orders[power] = [c.order for c in checks if c.accepted and c.order is not None]
        outcome = VARIANT.resolve(state, orders, settings={}, seed=seed)
        for power, texts in orders.items():
            assert [o["order"] for o in outcome.orders[power]][:len(texts)] == texts
        owners_before = {c: p for p, cs in state["centers"].items() for c in cs}
        check_invariants(state, outcome.state)
        if outcome.phase.startswith("F"):
            ground = {u.split()[1].split("/")[0]: p for p, us in outcome.state["units"].items()
                      for u in us if not u.startswith("D ")}
            for centre, owner in ((c, p) for p, cs in outcome.state["centers"].items() for c in cs):
                assert owner == owners_before.get(centre) or ground.get(centre) == owner
        state, must_act = outcome.state, outcome.must_act
        phases.append(state["phase"])
    assert phases[0] == "W1900A" and phases[1] == "S1901M"


@pytest.mark.parametrize("seed", [4, 5])
def test_arbitrary_orders_never_break_the_dirigible_rules(seed: int) -> None:
    """Orders built from random units and provinces (mostly illegal) always get one result each."""
    rng = random.Random(seed)
    provinces = sorted(p for p in VARIANT_MAP.provinces)
    forms = ["{u} {a} H", "{u} {a} - {b}", "{u} {a} S {v} {b}", "{u} {a} S {v} {b} - {c}", "{u} {a} C {v} {b} - {c}",
             "{u} {a} R {b}", "{u} {a} D", "{u} {a} B", "{u} {a} devastate", "WAIVE"]
    opening = VARIANT.opening({}, seed)
    state, must_act = opening.state, opening.must_act
    for _ in range(8):
        orders = {p: [c.order for c in VARIANT.check_orders(state, p, pick_orders(state, p, rng))
                      if c.accepted and c.order is not None] for p in must_act}
        outcome = VARIANT.resolve(state, orders, settings={}, seed=seed)
        for power in sorted(VARIANT_MAP.powers):
            texts = [rng.choice(forms).format(u=rng.choice("ADF"), v=rng.choice("ADF"), a=rng.choice(provinces),
                                              b=rng.choice(provinces), c=rng.choice(provinces)) for _ in range(6)]
            doc = {**state, "orders": {power: texts}}
            out = VARIANT.adjudicate_document(doc)
            assert len(out["orders"][power]) >= len(texts)
            VARIANT.check_orders(state, power, texts)
        state, must_act = outcome.state, outcome.must_act
