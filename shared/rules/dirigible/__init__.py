"""The Dirigible variant's rules: an air layer, supply points, devastation (docs/rules/dirigible.md).

Pure rules beside the standard engine, which they reuse through small hooks (the air supports
of ``resolve_movement``, ``Position.air_units`` and ``Position.devastated``): the air layer is
resolved by the standard resolver on an *air map*, the ground layer by the standard resolver
with the dirigibles' uncut supports added, retreats by the standard retreat rules.
"""
from __future__ import annotations

from .air import air_map, dirigible_reach, resolve_air
from .economy import balances, opening_position, powers_to_adjust, resolve_winter, supply_points, upkeep
from .turn import VICTORY_CENTRES, adjudicate_dirigible, devastation_options, victory

__all__ = [
    "VICTORY_CENTRES", "adjudicate_dirigible", "air_map", "balances", "devastation_options",
    "dirigible_reach", "opening_position", "powers_to_adjust", "resolve_air", "resolve_winter",
    "supply_points", "upkeep", "victory",
]
