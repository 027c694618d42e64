"""The house bots as pure functions (docs/bots.md): legal, complete and deterministic orders
in every kind of phase, and a heuristic bot that does better than holding."""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from shared.rules.bots import STRENGTHS, orders_for
from shared.rules.variants import get_variant

POWERS = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")


def played(variant: str, seed: int, phases: int) -> Iterator[dict[str, Any]]:
    """The state documents of a game the random bot plays (every kind of phase comes up)."""
    rules = get_variant(variant)
    state = rules.opening({"player_count": 7}, seed).state
    for _ in range(phases):
        yield state
        orders = {p: orders_for(variant, state, p, strength="random", seed=seed) for p in POWERS
                  if rules.possible_orders(state, p)}
        outcome = rules.resolve(state, orders, settings={"player_count": 7}, seed=seed)
        if outcome.winners:
            return
        state = outcome.state


@pytest.mark.parametrize("variant", ["standard", "dirigible"])
@pytest.mark.parametrize("strength", STRENGTHS)
def test_every_order_is_legal_and_every_unit_has_one(variant: str, strength: str) -> None:
    rules = get_variant(variant)
    kinds = set()
    for seed in (1, 2):
        for state in played(variant, seed, 30):
            phase = str(state["phase"])
            kinds.add(phase[-1])
            adjustments = rules.adjustments(state)
            for power in POWERS:
                possible = rules.possible_orders(state, power)
                if not possible:
                    continue
                orders = orders_for(variant, state, power, strength=strength, seed=seed)  # type: ignore[arg-type]
                checks = rules.check_orders(state, power, orders)
                assert all(c.accepted for c in checks), (phase, power, [c.as_json() for c in checks])
                if phase.endswith(("M", "R")) and strength != "holding" or phase.endswith("M"):
                    units = [key for key in possible if key != "WAIVE"]
                    assert len(orders) == len(units), (phase, power, orders)
                elif phase.endswith("A") and strength != "holding":
                    assert len(orders) <= abs(adjustments.get(power, 0)), (phase, power, orders)
    assert kinds >= {"M", "R", "A"}


@pytest.mark.parametrize("strength", STRENGTHS)
def test_the_same_seed_gives_the_same_orders(strength: str) -> None:
    states = list(played("standard", 3, 12))
    for state in states:
        for power in POWERS:
            first = orders_for("standard", state, power, strength=strength, seed=7)  # type: ignore[arg-type]
            assert orders_for("standard", state, power, strength=strength, seed=7) == first  # type: ignore[arg-type]
    opening = states[0]
    differ = {tuple(orders_for("standard", opening, "FRANCE", strength="random", seed=s)) for s in range(5)}
    assert len(differ) > 1  # the seed does matter where there is a choice


def test_the_heuristic_bot_gains_centres_against_holding_bots() -> None:
    """Six years against six powers that only hold: it takes the neutral centres and more."""
    rules = get_variant("standard")
    for seed, hero in ((1, "FRANCE"), (2, "RUSSIA"), (3, "TURKEY")):
        state = rules.opening({"player_count": 7}, seed).state
        while int(str(state["phase"])[1:5]) < 1907:
            orders = {p: orders_for("standard", state, p, strength="heuristic" if p == hero else "holding", seed=seed)
                      for p in POWERS if rules.possible_orders(state, p)}
            state = rules.resolve(state, orders, settings={"player_count": 7}, seed=seed).state
        centres = {p: len(state["centers"].get(p, [])) for p in POWERS}
        assert centres[hero] >= 8 and centres[hero] == max(centres.values()), (hero, centres)
