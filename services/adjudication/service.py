"""Where the hosted game meets the rules engine, as the HTTP API and the clock worker see it.

Order intake, ready flags, early resolution and draw votes are one service of the game core,
shared/game/intake.py (commands in, outcomes out: shared/game/commands.py), which every way in
uses alike (HTTP, DAIDE, the house bots, the command line); resolution is
shared/game/resolution.py; callers import them from there. This module keeps what only the
HTTP handlers and the tests ask: a new game's opening and the phase's current submissions
(docs/architecture.md, "One way in for every order").
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from shared.events import GameSettings
from shared.game.log import phase_submissions
from shared.game.submissions import PowerSubmission
from shared.rules.variants import Opening, get_variant
from shared.store import EventStore


def opening(variant: str, settings: GameSettings, seed: int) -> Opening[Any]:
    """The first phase, state document, seats and who must act of a new game."""
    return get_variant(variant).opening(settings.for_rules(), seed)


async def current_submissions(store: EventStore, game_id: str, phase: str) -> Mapping[str, PowerSubmission]:
    """Each power's latest submission for ``phase``, with who gave it (the house bot or not)."""
    return await phase_submissions(store, game_id, phase)
