"""The rules engine: pure functions from (position, orders) to a resolution.

The public API, importable from here::

    ENGINE_VERSION                                   stored in events; bump when results may change
    initial_position(variant="standard") -> Position  the position at S1901M
    adjudicate(position, orders, *, edition="2000", civil_disorder=frozenset(),
               victory_centres=None, teams=()) -> Resolution
    adjudicate_document(doc) -> dict                 the JSON contract of `entente adjudicate`
    position_to_document(position) -> dict, position_from_document(doc) -> Position
    small_game(players, *, italy_joins_seat=0) -> SmallGame

and re-exported: load_map, parse_order, ParseError, normalise_order, possible_orders, the
order types, Phase, Position, Resolution. Names are loaded on first use, so importing the
package stays cheap and a module's own imports stay where they are used.

Nothing here reads the clock, the network or a database (tests/adjudication/test_engine_purity.py).
"""
from __future__ import annotations

import importlib
from typing import Any

ENGINE_VERSION = "1"

# Imported eagerly: the submodule ``adjudicate`` would otherwise shadow the function of the
# same name as an attribute of this package once anything imported the submodule.
from .adjudicate import adjudicate, initial_position  # noqa: E402

_EXPORTS: dict[str, str] = {
    # the turn
    "update_centres": "adjudicate",
    "victory": "adjudicate",
    # the JSON contract
    "adjudicate_document": "document",
    "position_to_document": "document",
    "position_from_document": "document",
    "resolution_document": "document",
    "DocumentError": "document_fields",
    # phases around movement
    "resolve_movement": "movement",
    "resolve_retreats": "retreats",
    "resolve_adjustments": "adjustments",
    "adjustment_counts": "adjustments",
    "forced_removals": "civil_disorder",
    "EDITIONS": "civil_disorder",
    "small_game": "small_games",
    "draw_italy_side": "small_games",
    "SmallGame": "small_games",
    # map, orders, text
    "load_map": "geography",
    "GameMap": "geography",
    "parse_order": "parser",
    "ParseError": "parser",
    "normalise_order": "normalise",
    "possible_orders": "possible",
    "possible_orders_all": "possible",
    "order_problem": "legality",
    "orders_problems": "legality",
    "Unit": "orders",
    "UnitType": "orders",
    "Hold": "orders",
    "Move": "orders",
    "SupportHold": "orders",
    "SupportMove": "orders",
    "Convoy": "orders",
    "Retreat": "orders",
    "Disband": "orders",
    "Build": "orders",
    "Remove": "orders",
    "Waive": "orders",
    "Order": "orders",
    "province_of": "orders",
    "Phase": "phase",
    "PhaseType": "phase",
    "Season": "phase",
    "Position": "position",
    "PowerUnit": "position",
    "DislodgedUnit": "position",
    "OrderResult": "position",
    "Resolution": "position",
}

__all__ = ["ENGINE_VERSION", "adjudicate", "initial_position", *_EXPORTS]


def __getattr__(name: str) -> Any:
    module_name = _EXPORTS.get(name)
    if module_name is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module_name}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
