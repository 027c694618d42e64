"""A hosted standard game's phases through the C core store what the Python engine stores
(docs/rules/c_core.md, "Hosted games").

Random games are played through the variant as the platform plays them (its ``resolve`` on the
stored state document and the canonical orders the order check accepted; a power that gave
nothing at the deadline in civil disorder; the small games' sitting-out powers ordered by
nobody), and every phase is resolved both ways: ``StandardVariant.resolve`` (the C core where
it takes the phase) and ``resolve_by_engine`` (the Python engine alone). The PhaseResolved
events the two give must be the same bytes as the store writes them. Where the core was not
built (or the pure engine runs on purpose) the comparison skips.
"""
from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from typing import cast

import orjson
import pytest

from shared.events import to_new_event
from shared.game.adjudicate import resolution_event
from shared.rules.diplomacy import c_core, load_map, position_from_document
from shared.rules.variants.base import PhaseOutcome
from shared.rules.variants.documents import BoardDocument, RulesSettings
from shared.rules.variants.standard import StandardVariant, setup_of
from shared.rules.variants.standard_core import core_movement_outcome
from tests.utils.random_play import random_orders

VARIANT = StandardVariant()  # the class itself: its engine-only resolve is no part of the protocol

pytestmark = pytest.mark.skipif(c_core.MOVEMENT_DOCUMENT is None, reason="the C core is not built or not in use here")

GAME_MAP = load_map("standard")
GAMES = 60
PLAYER_COUNTS = (7, 7, 7, 6, 5, 4, 3, 2)
Phase = tuple[BoardDocument, dict[str, list[str]], RulesSettings, int, frozenset[str]]


def stored_bytes(state: BoardDocument, outcome: PhaseOutcome[BoardDocument], settings: RulesSettings,
                 disorder: frozenset[str]) -> bytes:
    """The PhaseResolved event of ``outcome`` as the store writes its data."""
    event = resolution_event(state, outcome, str(settings["edition"]), VARIANT.engine_version,
                             civil_disorder=disorder)
    return orjson.dumps(to_new_event(event).data)


def hosted_phases(games: int, *, disorder_with_orders: bool = False) -> Iterator[Phase]:
    """Every phase of ``games`` seeded random games: (state, stored orders, settings, seed, civil
    disorder). A seated power gives nothing now and then and is put in civil disorder, as the
    clock does at a deadline; with ``disorder_with_orders`` such a power's orders are stored
    all the same (which only the engine resolves: it voids them)."""
    for seed in range(games):
        rng = random.Random(seed)
        settings: RulesSettings = {"player_count": PLAYER_COUNTS[seed % len(PLAYER_COUNTS)], "edition": "2000"}
        setup = setup_of(settings, seed)
        state = VARIANT.opening(settings, seed).state
        for _ in range(80):
            position = position_from_document(state)
            sitting_out = setup.sitting_out_at(position.phase)
            orders: dict[str, list[str]] = {}
            disorder: set[str] = set()
            for power, given in random_orders(position, GAME_MAP, rng).items():
                if power in sitting_out:
                    continue
                if rng.random() < 0.04:
                    disorder.add(power)
                    if not disorder_with_orders:
                        continue
                orders[power] = [str(order) for order in given]
            yield state, orders, settings, seed, frozenset(disorder)
            outcome = VARIANT.resolve_by_engine(state, orders, settings=settings, seed=seed,
                                                civil_disorder=frozenset(disorder))
            if outcome.winners:
                break
            state = outcome.state


def test_hosted_phases_store_the_same_bytes_with_and_without_the_c_core() -> None:
    seen: Counter[str] = Counter()
    for state, orders, settings, seed, disorder in hosted_phases(GAMES):
        hosted = VARIANT.resolve(state, orders, settings=settings, seed=seed, civil_disorder=disorder)
        engine = VARIANT.resolve_by_engine(state, orders, settings=settings, seed=seed, civil_disorder=disorder)
        assert stored_bytes(state, hosted, settings, disorder) == stored_bytes(state, engine, settings, disorder), \
            (seed, state["phase"])
        kind = state["phase"][-1]
        seen[kind] += 1
        if kind == "M":
            taken = core_movement_outcome(state, orders, setup_of(settings, seed), disorder) is not None
            seen["taken by the core"] += taken
            results = [r for power in engine.orders.values() for r in power]
            seen["convoys"] += taken and any(" C " in r["order"] and r["result"] == "succeeds" for r in results)
            seen["dislodged"] += taken and bool(engine.details["dislodged"])
            seen["in disorder"] += taken and bool(disorder)
            seen["won"] += taken and bool(engine.winners)
        elif kind == "A":
            seen["builds"] += any(r["order"].endswith(" B") for power in engine.orders.values() for r in power)
    # every movement phase as the platform stores it is the core's, and the games went everywhere
    assert seen["taken by the core"] == seen["M"] > 2000, seen
    assert seen["convoys"] > 200 and seen["dislodged"] > 400 and seen["in disorder"] > 300, seen
    assert seen["R"] > 300 and seen["A"] > 600 and seen["builds"] > 500 and seen["won"] > 2, seen


def test_orders_of_a_power_in_civil_disorder_go_to_the_engine_which_voids_them() -> None:
    left = 0
    for state, orders, settings, seed, disorder in hosted_phases(12, disorder_with_orders=True):
        hosted = VARIANT.resolve(state, orders, settings=settings, seed=seed, civil_disorder=disorder)
        engine = VARIANT.resolve_by_engine(state, orders, settings=settings, seed=seed, civil_disorder=disorder)
        assert stored_bytes(state, hosted, settings, disorder) == stored_bytes(state, engine, settings, disorder)
        ordered_in_disorder = any(orders.get(power) for power in disorder)
        if state["phase"].endswith("M") and ordered_in_disorder:
            assert core_movement_outcome(state, orders, setup_of(settings, seed), disorder) is None
            left += 1
            assert all(r["result"] == "void" for power in disorder for r in hosted.orders.get(power, []))
    assert left > 20


def test_a_state_the_core_does_not_read_is_resolved_by_the_engine() -> None:
    settings: RulesSettings = {"player_count": 7, "edition": "2000"}
    opening = VARIANT.opening(settings, 0).state
    orders = {"FRANCE": ["A PAR - BUR", "A MAR S A PAR - BUR", "F BRE - MAO"], "GERMANY": ["A MUN - BUR"]}
    assert core_movement_outcome(opening, orders, setup_of(settings, 0), frozenset()) is not None
    odd = cast(BoardDocument, {**opening, "edition": "1982"})  # a field position_to_document never writes
    assert core_movement_outcome(odd, orders, setup_of(settings, 0), frozenset()) is None
    by_core = VARIANT.resolve(opening, orders, settings=settings, seed=0)
    outcome = VARIANT.resolve(odd, orders, settings=settings, seed=0)
    assert outcome == by_core
    assert [r["result"] for r in outcome.orders["FRANCE"]] == ["succeeds", "succeeds", "succeeds"]
    assert outcome.state["units"]["FRANCE"] == ["A BUR", "A MAR", "F MAO"]
    assert outcome.must_act == sorted(GAME_MAP.home_centres) and outcome.next_phase == "F1901M"
