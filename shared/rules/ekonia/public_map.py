"""The rules of the public map: which units every state sees (hidden strength values, hidden
and stored units). The views built on it are the visibility policy's (policy.py,
docs/rules/ekonia.md section 14).
"""
from __future__ import annotations

from . import catalogue as C
from .board import Board
from .position import Ekonia
from .records import EkoniaState, Unit, UnitRecord
from .state import improvement_of


def hidden_strength_limit(state: Ekonia | EkoniaState, board: Board, tid: str) -> float:
    """The strength of troops a city, capital or fort hides (a tile hides none); a stored
    document is read as the engine's records first."""
    if not isinstance(state, Ekonia):
        state = Ekonia.from_document(state)
    kind = improvement_of(state, board, tid)
    if kind == "tile":
        return 0.0
    owner = state.territories[tid].owner
    hide = state.powers[owner].hide_cities if owner else None
    bonus = hide.bonus if hide and hide.turn == state.turn else 0
    return float(C.HSV[kind] + bonus)


def shown_units(state: Ekonia, board: Board) -> list[Unit]:
    """The units the public map shows, oldest first."""
    shown: list[Unit] = []
    strength: dict[str, float] = {}
    for unit in state.units.values():
        if unit.location in state.territories and not unit.stored:
            strength[unit.location] = strength.get(unit.location, 0.0) + C.UNIT_TYPES[unit.type].attack
    for unit in sorted(state.units.values(), key=lambda u: u.order):
        loc = unit.location
        if unit.stored or unit.aboard or unit.type == "AIRSHIP":
            continue
        if unit.hidden_until is not None and unit.hidden_until >= state.turn:
            continue
        if loc in state.territories and strength[loc] <= hidden_strength_limit(state, board, loc):
            continue
        shown.append(unit)
    return shown


def visible_units(state: EkoniaState, board: Board) -> list[UnitRecord]:
    """The units the public map shows of a stored document, as full records (the policy decides
    which fields a viewer sees)."""
    return [unit.to_document() for unit in shown_units(Ekonia.from_document(state), board)]
