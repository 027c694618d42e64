"""The game as it stood at a resolved phase, for ``GET /games/{id}/view?phase=`` and the map
pictures of a past phase: the position it was played from and the history before it, as the
viewer's view showed them then, and that phase's resolution as the viewer's history shows it.
Built from the variant's ``view`` and ``history_view`` only, never from the raw state (Tale of
Ekonia's policy decides what each viewer sees of a past turn as of the present one).
"""
from __future__ import annotations

from typing import Any

from shared.errors import NotFound, Unprocessable
from shared.game.state import GameState
from shared.rules.variants import get_variant

from .view import Viewer, history_entry, view_of


def checked_phase(state: GameState, phase: str | None, where: str = "query.phase") -> int | None:
    """The index in ``state.resolved`` of the phase asked for; None for the current phase.
    A name the variant does not use is a 422; a phase this game has not played, 404."""
    if phase is None:
        return None
    wanted = phase.strip().upper()
    try:
        get_variant(state.variant).phase_order(wanted)
    except (ValueError, KeyError):
        raise Unprocessable(f"{phase!r} is not a phase name of this variant", code="invalid_phase",
                            where=where) from None
    if wanted == (state.phase or "").upper():
        return None
    for index, resolved in enumerate(state.resolved):
        if resolved.phase.upper() == wanted:
            return index
    raise NotFound(f"this game has not played the phase {wanted}", code="phase_not_found", where=where)


def state_at(state: GameState, index: int) -> GameState:
    """The game as it stood when its ``index``-th resolved phase was being played."""
    then = state.copy()
    resolved = state.resolved[index]
    then.phase, then.position, then.status = resolved.phase, resolved.position_before, "active"
    then.resolved = list(state.resolved[:index])
    then.winners = []
    then.must_act = list(state.resolved[index - 1].must_act) if index else _opening_must_act(state)
    return then


def _opening_must_act(state: GameState) -> list[str]:
    """Who had to act in the first phase: the opening's answer, from the game's stored seed."""
    opening = get_variant(state.variant).opening(state.settings.model_dump(), state.seed or 0)
    return list(opening.must_act)


def past_view(state: GameState, index: int, viewer: Viewer, history_end: int | None = None) -> dict[str, Any]:
    """The viewer's view of the game at its ``index``-th resolved phase, with ``resolution``:
    that phase's orders and results as the viewer's history shows them. Who had submitted is
    who acted (the powers that had to act and were not in civil disorder); ready flags and who
    was still ordering are not kept past their phase (null), and nobody is waited for; the
    clock then is not kept either (null)."""
    then = state_at(state, index)
    resolved = state.resolved[index]
    seen = view_of(then, {}, viewer, history_end)
    power = viewer.power if viewer.kind == "power" else None
    disorder = set(resolved.civil_disorder)
    return {**seen, "submitted": [p for p in then.must_act if p not in disorder], "ready": None,
            "ordering": None, "waiting_for": [], "clock": None, "civil_disorder": sorted(disorder), "result": None,
            "resolution": history_entry(get_variant(state.variant), resolved, power)}
