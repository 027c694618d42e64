"""The engine's frozen position (position.Ekonia) against the stored documents: a document read
as records and written back is the same bytes, key order included; a turn leaves the document
it was given as it was; and no two stored states share a list or a dict (decisions/0022)."""
from __future__ import annotations

import copy
import json
import random
from typing import Any

from shared.rules.ekonia.position import Ekonia
from shared.rules.ekonia.records import EkoniaState, as_state
from shared.rules.variants.ekonia import VARIANT


def played(seed: int, turns: int) -> list[tuple[EkoniaState, dict[str, list[str]]]]:
    """A game of random possible orders on the real map, war declared early: each turn's
    position and the orders given."""
    rng = random.Random(seed)
    state = VARIANT.opening({}, seed).state
    game = []
    for turn in range(1, turns + 1):
        orders = {}
        for power in sorted(VARIANT.surviving(state)):
            texts = [t for options in VARIANT.possible_orders(state, power).values() for t in options]
            orders[power] = rng.sample(texts, min(len(texts), 6)) + [t for t in texts if t.startswith("WAR")][:1]
        game.append((state, orders))
        state = VARIANT.resolve(state, orders, settings={}, seed=seed * 100 + turn).state
    return game


def ids(value: Any) -> set[int]:
    """The identities of every list and dict inside a JSON value."""
    if isinstance(value, dict):
        return {id(value)} | {i for v in value.values() for i in ids(v)}
    if isinstance(value, list):
        return {id(value)} | {i for v in value for i in ids(v)}
    return set()


def test_a_stored_state_read_as_records_and_written_back_is_the_same_bytes():
    for state, _ in played(seed=3, turns=8):
        assert json.dumps(Ekonia.from_document(as_state(state)).to_document()) == json.dumps(state)


def test_a_turn_leaves_the_state_it_was_given_as_it_was_and_shares_nothing_with_the_next():
    for state, orders in played(seed=5, turns=6):
        before = copy.deepcopy(state)
        after = VARIANT.resolve(state, orders, settings={}, seed=11).state
        assert json.dumps(state) == json.dumps(before)
        assert not ids(state) & ids(after)
