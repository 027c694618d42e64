"""One phase resolved from stored canonical orders, as a PhaseResolved event: a pure rule over
the game's state (no store, no clock), the same call for a live resolution
(services/adjudication/service.py) and for ``entente replay`` and the MILA import
(services/cli), so that a replay checks exactly what was stored (docs/architecture.md,
"Where things are built")."""
from __future__ import annotations

from collections.abc import Mapping, Sequence

from shared.events import PhaseResolved
from shared.game.state import GameState
from shared.rules.variants import PhaseOutcome, get_variant
from shared.rules.variants.base import DocumentT  # a variant's state document, stored as it wrote it


def adjudicate_phase(state: GameState, position_before: dict[str, object], submitted: Mapping[str, Sequence[str]],
                     civil_disorder: frozenset[str] = frozenset(), house_bot: Sequence[str] = ()) -> PhaseResolved:
    """Resolve one phase from stored canonical orders. ``house_bot``: the powers whose orders
    the house bot gave, recorded (docs/bots.md)."""
    seed = state.seed if state.seed is not None else 0
    variant = get_variant(state.variant)
    outcome = variant.resolve(position_before, submitted, settings=state.settings.for_rules(),
                              seed=seed, civil_disorder=civil_disorder)
    return resolution_event(position_before, outcome, state.settings.edition, variant.engine_version,
                            civil_disorder=civil_disorder, house_bot=house_bot)


def resolution_event(position_before: DocumentT, outcome: PhaseOutcome[DocumentT], edition: str, engine_version: str, *,
                     civil_disorder: frozenset[str] = frozenset(), house_bot: Sequence[str] = ()) -> PhaseResolved:
    """The PhaseResolved event recording an engine's outcome of one phase: validated in one
    call from plain values (the results and dislodged units as the engine wrote them), not order
    by order (docs/performance.md, "2026-12-07: Hosted phases through the C core")."""
    details = dict(outcome.details)
    dislodged = details.pop("dislodged", [])
    return PhaseResolved.model_validate({
        "phase": outcome.phase, "position_before": position_before, "orders": outcome.orders,
        "dislodged": dislodged, "position": outcome.state, "next_phase": outcome.next_phase,
        "must_act": list(outcome.must_act), "winners": list(outcome.winners), "edition": edition,
        "engine_version": engine_version, "civil_disorder": sorted(civil_disorder), "house_bot": sorted(house_bot),
        "details": details})
