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
order types, Phase, Position, Resolution.

The re-exports are plain imports, so a type checker sees each name's real type (a lazy
module ``__getattr__`` made every one of them ``Any``). They cost nothing where the engine is
used: the standard and Dirigible variants load every one of these modules anyway, and Tale of
Ekonia never imports this package. Only a bare ``import shared.rules.diplomacy`` pays for
them, 13 to 15 ms on top of about 60 ms (``python -X importtime``, medians of 21 runs).

Nothing here reads the clock, the network or a database (tests/architecture/test_boundaries.py).

Most modules run compiled where the install could build them (``build.py``: which build runs,
``engine_build()`` says; docs/architecture.md, "Performance").
"""
from __future__ import annotations

# ``build`` first: importing it decides whether the compiled modules or their sources run.
from . import build as build

# ``adjudicate`` first: importing its submodule binds the package attribute ``adjudicate`` to
# the module, and this import then rebinds it to the function of the same name.
from .adjudicate import adjudicate, initial_position, update_centres, victory
from .adjustments import adjustment_counts, resolve_adjustments
from .build import engine_build
from .civil_disorder import EDITIONS, forced_removals
from .document import adjudicate_document, position_from_document, position_to_document, resolution_document
from .document_fields import DocumentError
from .geography import GameMap, load_map
from .legality import order_problem, orders_problems
from .movement import resolve_movement
from .normalise import normalise_order
from .orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    Remove,
    Retreat,
    SupportHold,
    SupportMove,
    Unit,
    UnitType,
    Waive,
    province_of,
)
from .parser import ParseError, parse_order
from .phase import Phase, PhaseType, Season
from .position import DislodgedUnit, OrderResult, Position, PowerUnit, Resolution
from .possible import possible_orders, possible_orders_all
from .retreats import resolve_retreats
from .small_games import SmallGame, draw_italy_side, small_game

ENGINE_VERSION = "2"  # the versions and what changed: docs/rules/standard.md

__all__ = [
    "ENGINE_VERSION", "engine_build",
    # the turn
    "adjudicate", "initial_position", "update_centres", "victory",
    # the JSON contract
    "adjudicate_document", "position_to_document", "position_from_document", "resolution_document",
    "DocumentError",
    # phases around movement
    "resolve_movement", "resolve_retreats", "resolve_adjustments", "adjustment_counts", "forced_removals",
    "EDITIONS", "small_game", "draw_italy_side", "SmallGame",
    # map, orders, text
    "load_map", "GameMap", "parse_order", "ParseError", "normalise_order", "possible_orders",
    "possible_orders_all", "order_problem", "orders_problems",
    "Unit", "UnitType", "Hold", "Move", "SupportHold", "SupportMove", "Convoy", "Retreat", "Disband",
    "Build", "Remove", "Waive", "Order", "province_of",
    "Phase", "PhaseType", "Season", "Position", "PowerUnit", "DislodgedUnit", "OrderResult", "Resolution",
]
