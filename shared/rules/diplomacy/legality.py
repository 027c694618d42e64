"""Whether an order can be given now: the check the order intake runs at submission.

It rejects only what is wrong whatever the other powers order: a unit that is not there or not
the power's, an order that does not fit the phase, a place the unit can never reach from where
it stands. Whether a convoy will really be there is not known until the phase resolves, so a
move by convoy is accepted when a chain of sea provinces could carry the army (geography only).

A unit may be named without its coast ("F SPA" for the fleet on SPA/NC); a fleet may move to a
province without naming the coast when only one of its coasts is in reach (DATC 4.B.2).
Messages name the unit and the place: "A PAR cannot reach MOS", "no unit at PAR".
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Final

from .adjustments import build_site_problem
from .orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    MovementOrder,
    Order,
    Remove,
    Retreat,
    RetreatOrder,
    SupportHold,
    SupportMove,
    Unit,
    UnitType,
    Waive,
    province_of,
)
from .phase import PhaseType
from .position import DislodgedUnit, Position, Power
from .possible import MapTables, adjustment_count, build_sites, map_tables

ARMY: Final = UnitType.ARMY
FLEET: Final = UnitType.FLEET
_PHASE_WORDS: Final = {
    PhaseType.MOVEMENT: "a movement phase",
    PhaseType.RETREATS: "a retreat phase",
    PhaseType.ADJUSTMENTS: "an adjustment phase",
}


def order_problem(order: Order, power: Power, position: Position, game_map: Any) -> str | None:
    """Why ``power`` cannot give ``order`` now, or None when it can."""
    tables = map_tables(game_map)
    phase_type = position.phase.type
    if phase_type is PhaseType.MOVEMENT:
        if not isinstance(order, (Hold, Move, SupportHold, SupportMove, Convoy)):
            return f"{order} cannot be given in {_PHASE_WORDS[phase_type]}"
        return _movement_problem(order, power, position, tables)
    if phase_type is PhaseType.RETREATS:
        if not isinstance(order, (Retreat, Disband)):
            return f"{order} cannot be given in {_PHASE_WORDS[phase_type]}"
        return _retreat_problem(order, power, position)
    if not isinstance(order, (Build, Remove, Waive)):
        return f"{order} cannot be given in {_PHASE_WORDS[phase_type]}"
    return _adjustment_problem(order, power, position, tables, game_map)


def orders_problems(
    orders: Sequence[Order], power: Power, position: Position, game_map: Any
) -> list[str | None]:
    """``order_problem`` for each order of one submission, plus what is wrong only together:
    two orders for one unit, two builds in one place, more builds or removals than allowed.
    The first of two clashing orders is kept; the later one gets the problem."""
    problems = [order_problem(order, power, position, game_map) for order in orders]
    count = adjustment_count(position, power) if position.phase.type is PhaseType.ADJUSTMENTS else 0
    ordered: set[str] = set()
    builds = 0
    for index, order in enumerate(orders):
        if problems[index] is not None:
            continue
        if not isinstance(order, Waive):
            province = order.unit.province
            if province in ordered:
                problems[index] = (
                    f"a unit is already built at {province}"
                    if isinstance(order, Build)
                    else f"{order.unit} already has an order"
                )
                continue
        if isinstance(order, (Build, Waive)):
            if builds >= count:
                problems[index] = f"{power} may build only {count}"
                continue
            builds += 1
        if not isinstance(order, Waive):
            ordered.add(order.unit.province)
    removals = [i for i, o in enumerate(orders) if isinstance(o, Remove) and problems[i] is None]
    for index in removals[-count:] if count < 0 and len(removals) > -count else ():
        problems[index] = f"{power} must remove only {-count}"
    return problems


# --------------------------------------------------------------------------- movement


def _movement_problem(order: MovementOrder, power: Power, position: Position, tables: MapTables) -> str | None:
    unit, problem = _own_unit(order.unit, power, position)
    if problem:
        return problem
    if isinstance(order, Hold):
        return None
    if isinstance(order, Move):
        return _move_problem(unit, order.destination, order.via_convoy, tables)
    if isinstance(order, SupportHold):
        supported, problem = _unit_on_board(order.supported, position)
        if problem:
            return problem
        if supported.province == unit.province:
            return f"{unit} cannot support itself"
        if supported.province not in tables.reach.get(unit, ()):
            return f"{unit} cannot reach {supported.province}"
        return None
    if isinstance(order, SupportMove):
        return _support_move_problem(unit, order, position, tables)
    return _convoy_problem(unit, order, position, tables)


def _move_problem(unit: Unit, destination: str, via_convoy: bool, tables: MapTables) -> str | None:
    target = province_of(destination)
    if target not in tables.province_set:
        return f"no place called {destination}"
    if target == unit.province:
        return f"{unit} cannot move to its own province"
    if unit.type is FLEET:
        if via_convoy:
            return f"{unit} cannot be convoyed: only armies are"
        return _fleet_destination_problem(unit, destination, tables)
    # an army's destination with a coast means the province (DATC 4.B.6)
    if not via_convoy and target in tables.reach.get(unit, ()):
        return None
    if target in tables.convoy_reach.get(unit.province, ()):
        return None
    if via_convoy:
        return f"{unit} cannot be convoyed to {target}"
    return f"{unit} cannot reach {target}"


def _fleet_destination_problem(unit: Unit, destination: str, tables: MapTables) -> str | None:
    target = province_of(destination)
    coasts = [m.destination for m in tables.moves.get(unit, ()) if province_of(m.destination) == target]
    if destination in coasts or (destination == target and len(coasts) == 1):
        return None
    if destination == target and len(coasts) > 1:
        return f"{unit} - {target}: name the coast ({' or '.join(coasts)})"
    return f"{unit} cannot reach {destination}"


def _support_move_problem(unit: Unit, order: SupportMove, position: Position, tables: MapTables) -> str | None:
    supported, problem = _unit_on_board(order.supported, position)
    if problem:
        return problem
    target = province_of(order.destination)
    if supported.province == unit.province:
        return f"{unit} cannot support itself"
    if target not in tables.reach.get(unit, ()):
        return f"{unit} cannot reach {target}"
    if supported.type is FLEET and order.destination != target:  # a coast named: that coast (6.B.9)
        reachable = any(m.destination == order.destination for m in tables.moves.get(supported, ()))
        if not reachable:
            return f"{supported} cannot reach {order.destination}"
    elif supported.type is FLEET:
        reachable = target in tables.reach.get(supported, ())
    else:
        reachable = target != supported.province and (
            target in tables.reach.get(supported, ())
            or target in tables.convoy_reach.get(supported.province, ())
        )
    if not reachable:
        return f"{supported} cannot reach {target}"
    return None


def _convoy_problem(fleet: Unit, order: Convoy, position: Position, tables: MapTables) -> str | None:
    if fleet.type is not FLEET or fleet.province not in tables.seas:
        return f"{fleet} cannot convoy: only fleets in sea provinces do"
    army, problem = _unit_on_board(order.army, position)
    if problem:
        return problem
    if army.type is not ARMY:
        return f"{army} cannot be convoyed: only armies are"
    target = province_of(order.destination)
    if target not in tables.convoy_reach.get(army.province, ()):
        return f"{army} cannot be convoyed to {target}"
    group = tables.sea_group[fleet.province]
    touches_both = any(tables.sea_group[s] == group for s in tables.adjacent_seas[army.province]) and any(
        tables.sea_group[s] == group for s in tables.adjacent_seas[target]
    )
    if not touches_both:
        return f"{fleet} cannot be part of a convoy of {army} to {target}"
    return None


# --------------------------------------------------------------------------- finding units


def _unit_on_board(named: Unit, position: Position) -> tuple[Unit, str | None]:
    """The unit on the board that ``named`` means (the coast may be left out)."""
    found = position.units.get(named.province)
    if found is None:
        return named, f"no unit at {named.province}"
    if not _same_unit(named, found.unit):
        return named, f"no {named} on the board ({found.unit} is at {named.province})"
    return found.unit, None


def _own_unit(named: Unit, power: Power, position: Position) -> tuple[Unit, str | None]:
    unit, problem = _unit_on_board(named, position)
    if problem:
        return unit, problem
    owner = position.units[unit.province].power
    if owner != power:
        return unit, f"{unit} is not yours"
    return unit, None


def _same_unit(named: Unit, actual: Unit) -> bool:
    return named.type is actual.type and (
        named.location == actual.location or named.location == actual.province
    )


# --------------------------------------------------------------------------- retreats


def _retreat_problem(order: RetreatOrder, power: Power, position: Position) -> str | None:
    dislodged = _dislodged_unit(order.unit, position.dislodged)
    if dislodged is None:
        return f"no dislodged unit {order.unit}"
    if dislodged.power != power:
        return f"{dislodged.unit} is not yours"
    if isinstance(order, Disband):
        return None
    destination = order.destination
    matches = [r for r in dislodged.retreats if r == destination or province_of(r) == destination]
    if destination in dislodged.retreats or len(matches) == 1:
        return None
    if not dislodged.retreats:
        return f"{dislodged.unit} cannot retreat: it can only disband"
    return f"{dislodged.unit} cannot retreat to {destination} (only {', '.join(dislodged.retreats)})"


def _dislodged_unit(named: Unit, dislodged: Iterable[DislodgedUnit]) -> DislodgedUnit | None:
    for candidate in dislodged:
        if candidate.unit.province == named.province and _same_unit(named, candidate.unit):
            return candidate
    return None


# --------------------------------------------------------------------------- adjustments


def _adjustment_problem(
    order: Order, power: Power, position: Position, tables: MapTables, game_map: Any
) -> str | None:
    count = adjustment_count(position, power)
    if isinstance(order, Waive):
        if count <= 0:
            return f"{power} has no build to waive"
        return None if build_sites(position, power, game_map) else f"{power} has nowhere to build"
    if isinstance(order, Remove):
        if count >= 0:
            return f"{power} has no unit to remove"
        return _own_unit(order.unit, power, position)[1]
    if count <= 0:
        return f"{power} has no build"
    return build_site_problem(order.unit, power, position, game_map)
