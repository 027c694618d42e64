"""Helpers for the visibility tests: four viewers of one state or turn (the owner ALPHA,
another state BETA, a spy GAMMA, the public) on the small board of ekonia_board.py."""
from __future__ import annotations

import json
from typing import Any

from shared.rules.ekonia.espionage import mission_roll
from shared.rules.variants.documents import HistoryView, PositionView
from shared.rules.variants.ekonia import EkoniaVariant
from tests.utils.ekonia_board import fresh_state, small_board

VARIANT = EkoniaVariant(small_board())
VIEWERS = {"owner": "ALPHA", "other": "BETA", "spy": "GAMMA", "public": None}


def text(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


def add_unit(state, uid, unit_type, location, **extra):
    state["units"][uid] = {"id": uid, "type": unit_type, "owner": uid.rpartition("-")[0],
                           "location": location, "stored": False, "privateer": False, "built": 0,
                           "aboard": None, "hidden_until": None, **extra}
    owner, _, number = uid.rpartition("-")
    power = state["powers"][owner]
    power["next_unit"] = max(power["next_unit"], int(number) + 1)


def views(state) -> dict[str, PositionView]:
    return {name: VARIANT.view(state, power) for name, power in VIEWERS.items()}


def resolved_event(state, orders, seed=1) -> dict[str, Any]:
    """A turn resolved as the platform stores it (the PhaseResolved fields history_view reads)."""
    out = VARIANT.resolve(state, orders, settings={}, seed=seed)
    return {"phase": out.phase, "orders": out.orders, "dislodged": [], "details": out.details,
            "position_before": state, "position": out.state, "next_phase": out.next_phase}


def turn_views(resolved) -> dict[str, HistoryView]:
    return {name: VARIANT.history_view(resolved, power) for name, power in VIEWERS.items()}


def seed_where(power: str, turn: int, index: int, success: bool, odds: int) -> int:
    """A seed whose roll makes ``power``'s mission (its ``index``-th order) succeed or fail."""
    return next(s for s in range(1000) if (mission_roll(s, turn, power, index) <= odds) == success)


def shared_part(view) -> str:
    """A view without the viewer's own section: what it shows of the others."""
    return text({key: value for key, value in view.items() if key != "own"})


def public_units_at(view, tid):
    return [u for u in view["public"]["units"] if u["location"] == tid]


__all__ = ["VARIANT", "VIEWERS", "add_unit", "fresh_state", "public_units_at", "resolved_event",
           "seed_where", "shared_part", "text", "turn_views", "views"]
