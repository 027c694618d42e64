"""Every order a power could give now in a Dirigible game: the menu clients and bots pick from.

Armies and fleets get the standard menu (computed on the ground alone: they cannot support
or convoy a dirigible). Each dirigible, keyed ``"D LON"``, may hold, move to any province
it borders, support another dirigible's hold or move where it could move itself, and support
the army or fleet below it holding or another one moving in. In a retreat phase a dirigible
that can devastate is offered ``DEVASTATE``; in a Winter, the affordable builds and, when the
upkeep exceeds the points, the removal of any unit.
"""
from __future__ import annotations

from dataclasses import replace

from shared.rules.diplomacy.geography import GameMap
from shared.rules.diplomacy.orders import (
    Build,
    Devastate,
    Hold,
    Move,
    Order,
    Remove,
    SupportHold,
    SupportMove,
    Unit,
    UnitType,
    Waive,
)
from shared.rules.diplomacy.phase import PhaseType
from shared.rules.diplomacy.position import Position, Power
from shared.rules.diplomacy.possible import possible_orders

from .air import dirigible_reach, ground_support_problem
from .economy import UPKEEP, balances, build_problem
from .turn import devastation_options

DIRIGIBLE = UnitType.DIRIGIBLE


def dirigible_possible_orders(position: Position, power: Power, game_map: GameMap) -> dict[str, list[Order]]:
    kind = position.phase.type
    if kind is PhaseType.ADJUSTMENTS:
        return _winter(position, power, game_map)
    ground_only = replace(position, air_units={})
    options = {key: list(found) for key, found in possible_orders(ground_only, power, game_map).items()}
    if kind is PhaseType.RETREATS:
        for province, pu in devastation_options(position, game_map).items():
            if pu.power == power:
                options[f"D {province}"] = [Devastate(pu.unit)]
        return options
    for province, pu in sorted(position.air_units.items()):
        if pu.power == power:
            options[f"D {province}"] = _air_menu(pu.unit, position, game_map)
    return options


def _air_menu(unit: Unit, position: Position, game_map: GameMap) -> list[Order]:
    here = unit.province
    reach = dirigible_reach(here, game_map.variant)
    menu: list[Order] = [Hold(unit)]
    menu += [Move(unit, p) for p in sorted(reach)]
    for other_province, other in sorted(position.air_units.items()):
        if other_province == here:
            continue
        if other_province in reach:
            menu.append(SupportHold(unit, other.unit))
        for target in sorted(dirigible_reach(other_province, game_map.variant) & reach):
            menu.append(SupportMove(unit, other.unit, target))
    below = position.units.get(here)
    if below is not None:
        menu.append(SupportHold(unit, below.unit))
    for province, pu in sorted(position.units.items()):
        if province != here:
            order = SupportMove(unit, pu.unit, here)
            if ground_support_problem(order, position.units, game_map) is None and _steps_in(pu.unit, here, game_map):
                menu.append(order)
    return menu


def _steps_in(unit: Unit, province: str, game_map: GameMap) -> bool:
    """A one-step move (convoys are left out of the menu of supports from the air)."""
    if unit.type is UnitType.FLEET:
        return bool(game_map.fleet_destinations_in(unit.location, province))
    return province in game_map.army_neighbours(unit.province)


def _winter(position: Position, power: Power, game_map: GameMap) -> dict[str, list[Order]]:
    balance = balances(position).get(power, 0)
    options: dict[str, list[Order]] = {}
    if balance > 0:
        ground, air = dict(position.units), dict(position.air_units)
        for province in sorted(game_map.home_centres.get(power, ())):
            kinds = [Unit(DIRIGIBLE, province)]
            if game_map.is_land(province):
                kinds.append(Unit(UnitType.ARMY, province))
            kinds += [Unit(UnitType.FLEET, loc) for loc in game_map.fleet_locations(province)]
            builds: list[Order] = [Build(u) for u in kinds if UPKEEP[u.type] <= balance
                      and build_problem(u, power, position, game_map, ground, air) is None]
            if builds:
                options[province] = builds
        if options:
            options["WAIVE"] = [Waive()]
    elif balance < 0:
        for pu in sorted(list(position.units.values()) + list(position.air_units.values()),
                         key=lambda pu: (pu.unit.type is DIRIGIBLE, pu.unit.location)):
            if pu.power == power:
                options[str(pu.unit)] = [Remove(pu.unit)]
    return options
