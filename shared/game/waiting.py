"""Who a phase waits for: the rule early resolution and the deadline apply, and the public
lists every view and summary shows (docs/hosting.md, "Early resolution").

Pure functions of the folded state and the phase's submissions (``submissions``).
"""
from __future__ import annotations

from collections.abc import Mapping

from shared.rules.variants import get_variant

from .state import GameState
from .submissions import OrderStatusJSON, PowerSubmission, who_has_ordered


def forced_only_powers(state: GameState) -> frozenset[str]:
    """Powers whose only possible orders are forced (removing every unit they have): waited
    for like any other power until they order or the deadline passes, but never counted as
    missing it (the rules remove their units as their orders would: docs/hosting.md, "Early
    resolution")."""
    return frozenset() if state.position is None else get_variant(state.variant).forced_only(state.position)


def missing_powers(state: GameState, submissions: Mapping[str, PowerSubmission],
                   forced: frozenset[str] | None = None) -> list[str]:
    """Powers that must act and have stored no orders at all (civil disorder at the deadline):
    orders stored one at a time count, though the power never said it was done."""
    forced = forced_only_powers(state) if forced is None else forced
    return [p for p in state.must_act if submissions.get(p, PowerSubmission()).orders is None and p not in forced]


def waiting_for(state: GameState, submissions: Mapping[str, PowerSubmission]) -> list[str]:
    """Powers the phase still waits for before it may resolve early: every acting power that
    is not done (a whole set sent or the ready flag set), and in ``require_ready`` games every
    one whose flag is not set. A power owed removals is waited for like any other, even when
    the removals are forced (every unit it has): a player, a bot over DAIDE, may still mean to
    give them, and an order that arrives once the next phase began never counts."""
    if state.status != "active":
        return []
    nobody = PowerSubmission()
    waiting = {p for p in state.must_act if not submissions.get(p, nobody).done}
    if state.settings.require_ready:
        waiting |= {p for p in state.must_act if not submissions.get(p, nobody).ready}
    return sorted(waiting)


def order_status(state: GameState, submissions: Mapping[str, PowerSubmission]) -> OrderStatusJSON:
    """The public lists of who has ordered (``who_has_ordered``) for the current phase of an
    active game, empty otherwise."""
    if state.status != "active" or not state.phase:
        return who_has_ordered([], {})
    return who_has_ordered(state.must_act, submissions, waiting_for(state, submissions))
