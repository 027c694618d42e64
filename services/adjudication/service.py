"""Where the hosted game meets the rules engine, as the HTTP API and the clock worker see it.

Order intake, ready flags, early resolution and draw votes are one service of the game core,
shared/game/intake.py (commands in, outcomes out: shared/game/commands.py), which every way in
uses alike (HTTP, DAIDE, the house bots, the command line); resolution is
shared/game/resolution.py. This module names them for the HTTP handlers, the worker, the
scripts and the tests, and keeps what only they ask: a new game's opening and the phase's
current orders (docs/architecture.md, "One way in for every order").
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from shared.game.intake import (
    check_orders,
    handle,
    patch,
    patched_orders,
    ready,
    resolve,
    resolve_early,
    set_ready,
    store_orders,
    submit,
    submit_orders,
    variant_of,
    vote,
    whole_set_accepted,
)
from shared.game.log import phase_submissions
from shared.game.resolution import (
    MAX_CHAINED_PHASES,
    Plan,
    abandoned,
    plan_due,
    record_resolution,
    resolution_plan,
    resolve_bot_phases,
    resolve_if_complete,
    resolve_in,
    resolve_phase,
    write_plan,
)
from shared.game.submissions import PowerSubmission, submitted_orders
from shared.rules.variants import Opening, get_variant
from shared.store import EventStore

__all__ = [
    "MAX_CHAINED_PHASES", "Plan", "abandoned", "check_orders", "current_orders", "current_submissions", "handle",
    "opening", "patch", "patched_orders", "plan_due", "ready", "record_resolution", "resolution_plan", "resolve",
    "resolve_bot_phases", "resolve_early", "resolve_if_complete", "resolve_in", "resolve_phase", "set_ready",
    "store_orders", "submit", "submit_orders", "variant_of", "vote", "whole_set_accepted", "write_plan",
]


def opening(variant: str, settings: Mapping[str, Any], seed: int) -> Opening:
    """The first phase, state document, seats and who must act of a new game."""
    return get_variant(variant).opening(settings, seed)


async def current_orders(store: EventStore, game_id: str, phase: str) -> dict[str, list[str]]:
    """Each power's latest submission for ``phase``."""
    return submitted_orders(await phase_submissions(store, game_id, phase))


async def current_submissions(store: EventStore, game_id: str, phase: str) -> Mapping[str, PowerSubmission]:
    """Each power's latest submission for ``phase``, with who gave it (the house bot or not)."""
    return await phase_submissions(store, game_id, phase)
