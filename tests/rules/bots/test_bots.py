"""The house bots as pure functions (docs/bots.md): legal, complete and deterministic orders
in every kind of phase, and a heuristic bot that does better than holding."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
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


# --- the heuristic bot's play, and the DumbBot yardstick (docs/bots.md, "How strong, measured") ---

def opening() -> dict[str, Any]:
    return dict(get_variant("standard").opening({"player_count": 7}, 1).state)


def with_units(state: dict[str, Any], phase: str, **units: list[str]) -> dict[str, Any]:
    return {**state, "phase": phase, "units": {**state["units"], **units}}


def holding_orders(state: dict[str, Any], but: str) -> dict[str, list[str]]:
    rules = get_variant("standard")
    return {p: orders_for("standard", state, p, strength="holding") for p in POWERS
            if p != but and rules.possible_orders(state, p)}


def test_the_dumbbot_yardstick_gives_legal_orders_for_every_unit_in_every_kind_of_phase() -> None:
    rules = get_variant("standard")
    kinds = set()
    for seed in (1, 2):
        state = rules.opening({"player_count": 7}, seed).state
        for _ in range(40):
            phase = str(state["phase"])
            kinds.add(phase[-1])
            orders = {p: orders_for("standard", state, p, strength="dumbbot", seed=seed) for p in POWERS
                      if rules.possible_orders(state, p)}
            for power, given in orders.items():
                checks = rules.check_orders(state, power, given)
                assert all(c.accepted for c in checks), (phase, power, [c.as_json() for c in checks])
                if not phase.endswith("A"):
                    assert len(given) == len([k for k in rules.possible_orders(state, power) if k != "WAIVE"])
            outcome = rules.resolve(state, orders, settings={"player_count": 7}, seed=seed)
            if outcome.winners:
                break
            state = outcome.state
    assert kinds >= {"M", "R", "A"}


def test_the_heuristic_bot_convoys_an_army_across_the_sea_to_a_centre() -> None:
    """An army in London and a fleet in the North Sea, in the autumn: no centre is a step away
    for the army, so the fleet carries it to one, and the centre is England's in the winter."""
    rules = get_variant("standard")
    state = with_units(opening(), "F1901M", ENGLAND=["A LON", "F NTH"])
    orders = orders_for("standard", state, "ENGLAND", seed=1)
    army = next(o for o in orders if o.startswith("A LON"))
    target = army.split()[3]
    assert target in ("NWY", "HOL", "BEL", "DEN") and f"F NTH C A LON - {target}" in orders, orders
    after = rules.resolve(state, {**holding_orders(state, "ENGLAND"), "ENGLAND": orders},
                          settings={"player_count": 7}, seed=1).state
    assert "A " + target in after["units"]["ENGLAND"] and target in after["centers"]["ENGLAND"], after


def test_a_dislodged_unit_retreats_in_the_autumn_onto_an_empty_centre_it_then_holds() -> None:
    """Turkey's army in Bulgaria is dislodged in the autumn; of Constantinople (its own),
    Greece and Serbia (neutral, empty) it retreats to a neutral centre, which becomes Turkey's."""
    rules = get_variant("standard")
    state = with_units(opening(), "F1901M", TURKEY=["A BUL", "F ANK", "A SMY"],
                       RUSSIA=["A RUM", "F BLA", "A MOS", "F STP/SC"])
    attack = {**holding_orders(state, "RUSSIA"), "RUSSIA": ["A RUM - BUL", "F BLA S A RUM - BUL", "A MOS H",
                                                            "F STP/SC H"]}
    retreat_phase = rules.resolve(state, attack, settings={"player_count": 7}, seed=1).state
    assert retreat_phase["phase"] == "F1901R"
    orders = orders_for("standard", retreat_phase, "TURKEY", seed=1)
    assert orders in (["A BUL R GRE"], ["A BUL R SER"]), orders
    winter = rules.resolve(retreat_phase, {"TURKEY": orders}, settings={"player_count": 7}, seed=1).state
    assert orders[0].split()[-1] in winter["centers"]["TURKEY"]


def test_builds_go_where_the_next_spring_needs_them() -> None:
    """Germany, one build, a French army in Burgundy beside Munich: the army is built in Munich."""
    rules = get_variant("standard")
    state = {**with_units(opening(), "W1901A", GERMANY=["A HOL", "F DEN"], FRANCE=["A BUR", "F BRE", "A PAR"]),
             "centers": opening()["centers"]}
    assert rules.adjustments(state)["GERMANY"] == 1
    assert orders_for("standard", state, "GERMANY", seed=1) == ["A MUN B"]


def test_removals_keep_the_units_that_guard_and_gain() -> None:
    """Russia must remove one of four, a Turkish fleet in the Black Sea: not the fleet guarding
    Sevastopol, not the army facing Austria in Galicia, not the fleet beside Sweden; the army in
    Ukraine, behind the others."""
    rules = get_variant("standard")
    state = {**with_units(opening(), "W1901A", RUSSIA=["A UKR", "A GAL", "F SEV", "F BOT"],
                          TURKEY=["F BLA", "A CON", "A SMY"]),
             "centers": {**opening()["centers"], "RUSSIA": ["MOS", "SEV", "WAR"]}}
    assert rules.adjustments(state)["RUSSIA"] == -1
    assert orders_for("standard", state, "RUSSIA", seed=1) == ["A UKR D"]


def test_one_heuristic_bot_among_six_dumbbots_takes_more_than_its_share() -> None:
    """The seven seatings of one seeded game to 1906: the lone heuristic bot ends with more
    than a fair share (1/7) of the centres on average, and the most centres in most games."""
    rules = get_variant("standard")
    shares, tops = [], 0
    for hero in POWERS:
        state = rules.opening({"player_count": 7}, 5).state
        while int(str(state["phase"])[1:5]) < 1906:
            orders = {p: orders_for("standard", state, p, strength="heuristic" if p == hero else "dumbbot", seed=5)
                      for p in POWERS if rules.possible_orders(state, p)}
            if hero in orders and str(state["phase"]).endswith("M"):  # every unit of its own games ordered
                assert len(orders[hero]) == len(state["units"][hero]), (state["phase"], orders[hero])
            state = rules.resolve(state, orders, settings={"player_count": 7}, seed=5).state
        centres = {p: len(state["centers"].get(p, [])) for p in POWERS}
        shares.append(centres[hero] / sum(centres.values()))
        tops += centres[hero] == max(centres.values())
    assert sum(shares) / len(shares) > 0.2 and tops >= 4, (shares, tops)


PLAY_A_FEW_PHASES = """
import json
from shared.rules.bots import orders_for
from shared.rules.variants import get_variant
rules = get_variant("standard")
state = rules.opening({"player_count": 7}, 4).state
given = []
for _ in range(8):
    orders = {p: orders_for("standard", state, p, strength=STRENGTH, seed=4) for p in sorted(state["units"])
              if rules.possible_orders(state, p)}
    given.append(orders)
    state = rules.resolve(state, orders, settings={"player_count": 7}, seed=4).state
print(json.dumps(given))
"""


@pytest.mark.parametrize("strength", ["heuristic", "dumbbot"])
def test_the_same_seed_gives_the_same_orders_in_another_process(strength: str) -> None:
    """Python salts its string hashes per process: nothing a bot chooses may follow them (a
    set's order), or a replayed or re-run game would not be the same game."""
    root = Path(__file__).resolve().parents[3]
    runs = []
    for hash_seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed, "PYTHONPATH": str(root)}
        done = subprocess.run([sys.executable, "-c", f"STRENGTH = {strength!r}\n{PLAY_A_FEW_PHASES}"], env=env,
                              capture_output=True, text=True, check=True, cwd=root)
        runs.append(json.loads(done.stdout))
    assert runs[0] == runs[1]
