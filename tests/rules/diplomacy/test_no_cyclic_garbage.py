"""A phase leaves no reference cycles behind: everything the rules make for it is freed by
reference counting as it returns, not left for the cycle collector to find later, so that a
process adjudicating for days holds no more than the phase at hand (docs/rules/datc.md, "Speed")."""
from __future__ import annotations

import gc

from tests.rules.diplomacy.test_compiled import outcome_of, random_documents


def test_adjudicating_random_phases_leaves_nothing_for_the_cycle_collector() -> None:
    documents = random_documents(2_000)  # movement, retreats and adjustments; a fifth of them mangled
    outcome_of(documents[0])  # the first call's imports and tables made before the count starts
    was_enabled = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        outcomes = [outcome_of(document) for document in documents]
        left_in_cycles = gc.collect()
    finally:
        if was_enabled:
            gc.enable()
    assert sum("error" in outcome for outcome in outcomes) > 0  # the refusals' paths were taken too
    assert left_in_cycles == 0
