"""Fill in what order text leaves out, using the position. Pure; never raises.

The parser reads text alone; this step looks at the board:

- The ordered unit becomes the unit that really stands in the named province: its real type
  (a missing or wrong A/F is ignored, DATC 4.C.1 and 4.C.2) and its real coast (``F STP - BOT``
  for the fleet on STP/SC; a wrong coast is ignored, DATC 4.B.5). In a retreat phase the
  dislodged unit is the one looked up. Builds are left alone (no unit stands there yet, and an
  uncoasted fleet build on a split coast must fail, DATC 4.B.7).
- A fleet's destination on a split-coast province without a coast gets the coast when exactly
  one coast is reachable (``F GAS - SPA`` -> ``SPA/NC``, DATC 4.B.2); with two reachable coasts
  it stays without, and the move is void (``F MAO - SPA``, DATC 4.B.1). An army's destination
  loses any coast.
- Supported and convoyed units, likewise, become the units standing there (type and coast).
  A convoy's destination is a province. A support's destination keeps the coast written for a
  supported fleet (a support to the wrong coast is void, DATC 3.0 6.B.9) and is reduced to the
  province for a supported army; without a coast it matches a move to either coast (6.B.7).
"""
from __future__ import annotations

from dataclasses import replace
from typing import overload

from .geography import GameMap
from .orders import (
    Build,
    Convoy,
    Devastate,
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
from .position import Position, PowerUnit


@overload
def normalise_order(order: Order, position: Position, game_map: GameMap) -> Order: ...
@overload
def normalise_order(order: object, position: object, game_map: object) -> object: ...
def normalise_order(order: object, position: object, game_map: object) -> object:
    """The order with what its text left out filled in; anything else comes back unchanged.
    (Typed ``object`` underneath: compiled, a typed parameter would refuse a wrong value with a
    TypeError instead of returning it; docs/performance.md, 2026-12-01, "The rules engine: a
    compiled core".)"""
    # the classes written out, not a tuple held in a name: compiled, each is then a type check in C
    if not isinstance(order, (Move, Hold, SupportMove, SupportHold, Convoy, Retreat, Disband, Build, Remove, Waive,
                              Devastate)) or not isinstance(position, Position) or not isinstance(game_map, GameMap):
        return order
    if _unchanged(order, position, game_map):  # the usual case, answered with a few pointer compares
        return order
    try:
        return _normalise(order, position, game_map)
    except Exception:  # a malformed order or position: leave the order as it was written
        return order



def _normalise(order: Order, position: Position, game_map: GameMap) -> Order:
    """The normalised order; the very same object when nothing changes (the common case: an
    order in canonical notation for the unit that stands there), so nothing new is built."""
    if isinstance(order, (Build, Waive)):
        return order
    if isinstance(order, (Retreat, Disband)):
        unit = _dislodged_unit(order.unit, position)
        if isinstance(order, Retreat):
            destination = _destination(unit, order.destination, game_map)
            return order if _same(unit, order.unit) and destination == order.destination else Retreat(unit, destination)
        return order if _same(unit, order.unit) else Disband(unit)
    unit = _standing_unit(order.unit, position)
    same = _same(unit, order.unit)
    if isinstance(order, Hold):
        return order if same else Hold(unit)
    if isinstance(order, Remove):
        return order if same else Remove(unit)
    if isinstance(order, Move):
        destination = _destination(unit, order.destination, game_map)
        return order if same and destination == order.destination else replace(
            order, unit=unit, destination=destination)
    if isinstance(order, SupportHold):
        supported = _standing_unit(order.supported, position)
        return order if same and _same(supported, order.supported) else SupportHold(unit, supported)
    if isinstance(order, SupportMove):
        supported = _standing_unit(order.supported, position)
        destination = _support_destination(supported, order.destination)
        if same and _same(supported, order.supported) and destination == order.destination:
            return order
        return SupportMove(unit, supported, destination)
    if isinstance(order, Convoy):
        army = _standing_unit(order.army, position)
        destination = province_of(order.destination)
        if same and _same(army, order.army) and destination == order.destination:
            return order
        return Convoy(unit, army, destination)
    return order


def _unchanged(order: Order, position: Position, game_map: GameMap) -> bool:
    """Whether a movement-phase order is already what ``_normalise`` makes of it, judged without
    building anything: its units are the very values standing on the board (the map's shared
    ones, which the canonical reader and the document reader both hand out) and its destination
    needs no coast added or taken away. False means only "work it out" (``_normalise``)."""
    units = position.units
    if not isinstance(units, dict):
        return False
    if type(order) is Move:
        return _stands(order.unit, units) and (_destination(order.unit, order.destination, game_map)
                                               == order.destination)
    if type(order) is Hold:
        return _stands(order.unit, units)
    if type(order) is SupportHold:
        return _stands(order.unit, units) and _stands(order.supported, units)
    if type(order) is SupportMove:
        return (_stands(order.unit, units) and _stands(order.supported, units)
                and _support_destination(order.supported, order.destination) == order.destination)
    return False


def _stands(unit: Unit, units: dict[str, PowerUnit]) -> bool:
    """Whether ``unit`` is the very value standing in its province."""
    standing = units.get(unit.province)
    return standing is not None and standing.unit is unit


def _same(unit: Unit, other: Unit) -> bool:
    """The same unit: the very object (the map's shared units), or an equal one."""
    return unit is other or unit == other


def _standing_unit(named: Unit, position: Position) -> Unit:
    """The unit in the named province, whatever type and coast the text gave it."""
    units = position.units
    # a dict (as the document reader and the rules build them): compiled, a dict read is a C
    # call, a Mapping's ``get`` a method looked up by name
    standing = units.get(named.province) if isinstance(units, dict) else units.get(named.province)
    return standing.unit if standing is not None else named


def _dislodged_unit(named: Unit, position: Position) -> Unit:
    for dislodged in position.dislodged:
        if dislodged.unit.province == named.province:
            return dislodged.unit
    return named


def _support_destination(supported: Unit, destination: str) -> str:
    """A support's destination keeps the coast written for a supported fleet, not for an army."""
    return destination if supported.type is UnitType.FLEET else province_of(destination)


def _destination(unit: Unit, destination: str, game_map: GameMap) -> str:
    if unit.type is UnitType.ARMY:
        return province_of(destination)
    if destination not in game_map.split_provinces:  # (a coast given, or a province without coasts)
        return destination
    reachable = game_map.fleet_destinations_in(unit.location, destination)
    return reachable[0] if len(reachable) == 1 else destination
