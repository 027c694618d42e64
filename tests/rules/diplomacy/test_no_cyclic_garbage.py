"""The rules leave no reference cycles behind: everything they make for a phase, a menu of
possible orders or an order check is freed by reference counting as it returns, not left for the
cycle collector to find later, so that a process serving games for days holds no more than the
work at hand (docs/rules/datc.md, "Speed")."""
from __future__ import annotations

import random

import pytest

from shared.rules.variants import get_variant
from tests.rules.diplomacy.test_compiled import outcome_of, random_documents
from tests.utils.cycles import cycle_collector_off


def test_adjudicating_random_phases_leaves_nothing_for_the_cycle_collector() -> None:
    documents = random_documents(2_000)  # movement, retreats and adjustments; a fifth of them mangled
    outcome_of(documents[0])  # the first call's imports and tables made before the count starts
    with cycle_collector_off() as collect:
        outcomes = [outcome_of(document) for document in documents]
        left_in_cycles = collect()
    assert sum("error" in outcome for outcome in outcomes) > 0  # the refusals' paths were taken too
    assert left_in_cycles == 0


@pytest.mark.parametrize("name", ["standard", "dirigible", "ekonia"])
def test_a_random_game_through_its_variant_leaves_nothing_for_the_cycle_collector(name: str) -> None:
    variant, rng = get_variant(name), random.Random(7)
    opening = variant.opening({}, 7)
    state, must_act = opening.state, opening.must_act
    variant.possible_orders(state, must_act[0])  # first calls' tables made before the count starts
    left = {"menus": 0, "checks": 0, "resolutions": 0}
    with cycle_collector_off() as collect:
        for _ in range(30):
            orders: dict[str, list[str]] = {}
            for power in must_act:
                menu = variant.possible_orders(state, power)
                left["menus"] += collect()
                picked = [rng.choice(found) for key, found in sorted(menu.items()) if found and key != "WAIVE"]
                checks = variant.check_orders(state, power, picked)
                left["checks"] += collect()
                orders[power] = [check.order for check in checks if check.accepted and check.order is not None]
            outcome = variant.resolve(state, orders, settings={}, seed=7)
            left["resolutions"] += collect()
            state, must_act = outcome.state, outcome.must_act
            if not must_act:
                break
    assert left == {"menus": 0, "checks": 0, "resolutions": 0}
