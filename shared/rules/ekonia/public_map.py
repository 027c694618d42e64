"""The rules of the public map: which units every state sees (hidden strength values, hidden
and stored units). The views built on it are the visibility policy's (policy.py,
docs/rules/ekonia.md section 14).
"""
from __future__ import annotations

from . import catalogue as C
from .board import Board
from .records import EkoniaState, UnitRecord
from .state import improvement_of, unit_order


def hidden_strength_limit(state: EkoniaState, board: Board, tid: str) -> float:
    kind = improvement_of(state, board, tid)
    if kind == "tile":
        return 0.0
    owner = state["territories"][tid]["owner"]
    hide = state["powers"][owner]["hide_cities"] if owner else None
    bonus = hide["bonus"] if hide and hide["turn"] == state["turn"] else 0
    return float(C.HSV[kind] + bonus)


def visible_units(state: EkoniaState, board: Board) -> list[UnitRecord]:
    """The units the public map shows (full records: the policy decides which fields)."""
    shown: list[UnitRecord] = []
    strength: dict[str, float] = {}
    for unit in state["units"].values():
        if unit["location"] in state["territories"] and not unit["stored"]:
            loc = unit["location"]
            strength[loc] = strength.get(loc, 0.0) + C.UNIT_TYPES[unit["type"]].attack
    for unit in sorted(state["units"].values(), key=unit_order):
        loc = unit["location"]
        if unit["stored"] or unit["aboard"] or unit["type"] == "AIRSHIP":
            continue
        if unit["hidden_until"] is not None and unit["hidden_until"] >= state["turn"]:
            continue
        if loc in state["territories"] and strength[loc] <= hidden_strength_limit(state, board, loc):
            continue
        shown.append(unit)
    return shown

