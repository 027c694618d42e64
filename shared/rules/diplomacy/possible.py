"""Every order a power could give now: the menu a client or a bot picks from.

Speed matters (bots ask for it every phase), so everything that depends only on the map is
computed once per map (`map_tables`) and the order objects themselves are shared: orders are
frozen values, so the same ``Move`` can be handed out on every call. What depends on the
position (where fleets stand for convoys, which units can be supported) is computed per call by
a few passes over the units.

Convoys are offered as the resolver judges them, by the fleets standing at sea now: an army
on a coast may move to every coast some chain of those fleets reaches, and a fleet is offered
a convoy order only where it lies on a chain that cannot be shortened (``necessary_convoys``).
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final

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
from .phase import PhaseType
from .position import Position, Power

ARMY: Final = UnitType.ARMY
FLEET: Final = UnitType.FLEET


# These dataclasses take no ``slots=True``: that builds a new class, which mypyc cannot compile
# to a native one (docs/performance.md, 2026-12-01, "The rules engine: a compiled core").
@dataclass(frozen=True)
class _UnitEntry:
    unit: Unit
    hold: Hold
    moves: tuple[Move, ...]
    reach: tuple[str, ...]  # sorted, so that menus come out in the same order in every process
    reach_set: frozenset[str]


@dataclass(eq=False)
class MapTables:
    """What the order menu needs from a map, precomputed, plus a cache of shared order objects."""

    provinces: tuple[str, ...]
    province_set: frozenset[str]
    seas: frozenset[str]
    coastal_land: frozenset[str]  # land provinces touching a sea: where convoys start and end
    units: dict[tuple[UnitType, str], Unit]  # every unit that can stand on the map
    moves: dict[Unit, tuple[Move, ...]]  # one-step moves, with coasts
    reach: dict[Unit, tuple[str, ...]]  # provinces reachable in one step (supports go there)
    holds: dict[Unit, Hold]
    adjacent_seas: dict[str, tuple[str, ...]]  # province -> sea provinces next to it
    sea_coasts: dict[str, tuple[str, ...]]  # sea -> coastal land provinces next to it
    sea_coasts_set: dict[str, frozenset[str]]
    adjacent_seas_set: dict[str, frozenset[str]]
    sea_group: dict[str, int]  # sea -> number of its connected group of seas
    convoy_reach: dict[str, frozenset[str]]  # coastal land -> coasts reachable through any seas
    by_key: dict[str, _UnitEntry]  # "A PAR" -> the unit, its hold, moves and reach
    cache: dict[tuple[Any, ...], Order] = field(default_factory=dict)  # shared orders made on demand

    def unit(self, unit_type: UnitType, location: str) -> Unit:
        return self.units.get((unit_type, location)) or Unit(unit_type, location)

    def shared(self, key: tuple[Any, ...], make: Callable[..., Order], *args: Any) -> Order:
        """The one shared order object for ``key``, made by ``make(*args)`` the first time."""
        order = self.cache.get(key)
        if order is None:
            order = self.cache[key] = make(*args)
        return order


_TABLES: Final[dict[int, tuple[object, MapTables]]] = {}


def map_tables(game_map: Any) -> MapTables:
    """The precomputed tables of ``game_map`` (built on first use, then cached per map object)."""
    cached = _TABLES.get(id(game_map))
    if cached is not None and cached[0] is game_map:
        return cached[1]
    tables = _build_tables(game_map)
    _TABLES[id(game_map)] = (game_map, tables)
    return tables


def map_provinces(game_map: Any) -> tuple[str, ...]:
    provinces = game_map.provinces
    return tuple(sorted(provinces.keys() if isinstance(provinces, Mapping) else provinces))


def _build_tables(game_map: Any) -> MapTables:
    provinces = map_provinces(game_map)
    seas = frozenset(p for p in provinces if game_map.is_sea(p))
    units = _map_units(game_map, provinces)
    moves, reach = _moves_and_reach(game_map, units)
    adjacent_seas = _adjacent_seas(game_map, provinces, seas)
    coastal_land = frozenset(p for p in provinces if p not in seas and adjacent_seas[p])
    sea_coasts: dict[str, set[str]] = {sea: set() for sea in seas}
    for province in coastal_land:
        for sea in adjacent_seas[province]:
            sea_coasts[sea].add(province)

    groups = sea_groups(seas, adjacent_seas)
    holds = {unit: Hold(unit) for unit in units.values()}
    return MapTables(
        provinces=provinces,
        province_set=frozenset(provinces),
        seas=seas,
        coastal_land=coastal_land,
        units=units,
        moves=moves,
        reach=reach,
        holds=holds,
        by_key={
            ("A " if t is ARMY else "F ") + loc: _UnitEntry(unit, holds[unit], moves[unit], reach[unit],
                                                            frozenset(reach[unit]))
            for (t, loc), unit in units.items()
        },
        adjacent_seas={p: tuple(sorted(s)) for p, s in adjacent_seas.items()},
        sea_coasts={s: tuple(sorted(c)) for s, c in sea_coasts.items()},
        sea_coasts_set={s: frozenset(c) for s, c in sea_coasts.items()},
        adjacent_seas_set={p: frozenset(s) for p, s in adjacent_seas.items()},
        sea_group=groups,
        convoy_reach=_static_convoy_reach(coastal_land, groups, adjacent_seas, sea_coasts),
    )


def _map_units(game_map: Any, provinces: tuple[str, ...]) -> dict[tuple[UnitType, str], Unit]:
    """Every unit the map can hold: an army in each land province, a fleet at each fleet location."""
    units: dict[tuple[UnitType, str], Unit] = {}
    for province in provinces:
        if game_map.is_land(province):
            units[(ARMY, province)] = Unit(ARMY, province)
        for location in game_map.fleet_locations(province):
            units[(FLEET, location)] = Unit(FLEET, location)
    return units


def _moves_and_reach(game_map: Any, units: Mapping[tuple[UnitType, str], Unit]
                     ) -> tuple[dict[Unit, tuple[Move, ...]], dict[Unit, tuple[str, ...]]]:
    """Each unit's moves without a convoy (by destination, in name order) and the provinces they reach."""
    moves: dict[Unit, tuple[Move, ...]] = {}
    reach: dict[Unit, tuple[str, ...]] = {}
    for (unit_type, location), unit in units.items():
        if unit_type is ARMY:
            destinations = sorted(game_map.army_neighbours(location))
        else:
            destinations = sorted(game_map.fleet_neighbours(location))
        moves[unit] = tuple(Move(unit, destination) for destination in destinations)
        reach[unit] = tuple(sorted({province_of(d) for d in destinations}))
    return moves, reach


def _adjacent_seas(game_map: Any, provinces: tuple[str, ...], seas: frozenset[str]) -> dict[str, set[str]]:
    """Province -> the sea provinces a fleet crosses to or from it."""
    adjacent_seas: dict[str, set[str]] = {p: set() for p in provinces}
    for province in provinces:
        for location in game_map.fleet_locations(province):
            for neighbour in game_map.fleet_neighbours(location):
                neighbour_province = province_of(neighbour)
                if neighbour_province in seas:
                    adjacent_seas[province].add(neighbour_province)
                if province in seas:
                    adjacent_seas[neighbour_province].add(province)
    return adjacent_seas


def _static_convoy_reach(
    coastal_land: frozenset[str],
    groups: Mapping[str, int],
    adjacent_seas: Mapping[str, Iterable[str]],
    sea_coasts: Mapping[str, Iterable[str]],
) -> dict[str, frozenset[str]]:
    """For each coastal province, the coasts an army there could ever be convoyed to."""
    group_coasts: dict[int, set[str]] = {}
    for sea, group in groups.items():
        group_coasts.setdefault(group, set()).update(sea_coasts[sea])
    result = {}
    for province in coastal_land:
        coasts: set[str] = set()
        for group in {groups[sea] for sea in adjacent_seas[province]}:
            coasts |= group_coasts[group]
        coasts.discard(province)
        result[province] = frozenset(coasts)
    return result


def sea_groups(seas: Iterable[str], adjacent_seas: Mapping[str, Iterable[str]]) -> dict[str, int]:
    """Connected groups of the given sea provinces: sea -> group number."""
    members = set(seas)
    group_of: dict[str, int] = {}
    group = -1
    for start in sorted(members):
        if start in group_of:
            continue
        group += 1
        group_of[start] = group
        frontier = [start]
        while frontier:
            sea = frontier.pop()
            for neighbour in adjacent_seas[sea]:
                if neighbour in members and neighbour not in group_of:
                    group_of[neighbour] = group
                    frontier.append(neighbour)
    return group_of


# --------------------------------------------------------------------------- movement


@dataclass
class _ConvoyRoutes:
    """Where armies can be convoyed now: by the fleets actually standing in sea provinces."""

    fleet_seas: frozenset[str]
    destinations: dict[str, tuple[str, ...]]  # army key -> coasts reachable by convoy
    convoys: dict[str, list[tuple[str, str]]]  # fleet key -> (army key, destination) it can carry


def _convoy_routes(tables: MapTables, board: list[_Placed]) -> _ConvoyRoutes:
    fleet_key = {province: key for _, province, key, unit in board if province in tables.seas and unit.type is FLEET}
    routes = _ConvoyRoutes(frozenset(fleet_key), {}, {})
    if not fleet_key:
        return routes
    for _, province, key, unit in board:
        if unit.type is not ARMY or province not in tables.coastal_land:
            continue
        if not any(sea in fleet_key for sea in tables.adjacent_seas[province]):
            continue
        carried = necessary_convoys(tables, province, routes.fleet_seas)
        reachable: set[str] = set()
        for sea in sorted(carried):
            reachable |= carried[sea]
            fleet_convoys = routes.convoys.setdefault(fleet_key[sea], [])
            fleet_convoys.extend((key, destination) for destination in sorted(carried[sea]))
        routes.destinations[key] = tuple(sorted(reachable))
    return routes


def necessary_convoys(tables: MapTables, origin: str, fleet_seas: frozenset[str]) -> dict[str, set[str]]:
    """For each fleet at sea, the coasts it could help convoy an army from ``origin`` to.

    A fleet helps when it lies on a *necessary* chain: no fleet of the chain could be skipped
    (none after the first borders the origin, none before the last borders the destination,
    no two that are not consecutive border each other). The resolver voids any other convoy
    order (DATC 4.E.1, 6.G.19). One walk over the chordless chains from ``origin`` serves
    every destination at once; their union is every coast a convoy can reach.
    """
    carried: dict[str, set[str]] = {}
    for first in tables.adjacent_seas[origin]:
        if first in fleet_seas:
            _extend_chain(tables, origin, fleet_seas, [], first, frozenset(), frozenset(), carried)
    return carried


def _extend_chain(tables: MapTables, origin: str, fleet_seas: frozenset[str], path: list[str], last: str,
                  covered: frozenset[str], blocked: frozenset[str], carried: dict[str, set[str]]) -> None:
    """``necessary_convoys``' walk from the chain ``path`` on to ``last``: ``covered``, the coasts
    bordered by the fleets before it; ``blocked``, the seas they border. (A function of its own,
    not a closure: a closure that calls itself is a reference cycle left for the collector.)"""
    coasts, seas = tables.sea_coasts_set, tables.adjacent_seas_set
    path.append(last)
    new = coasts[last] - covered - {origin}
    if new:
        for sea in path:
            carried.setdefault(sea, set()).update(new)
    next_covered = covered | coasts[last]
    next_blocked = blocked | seas[last]
    for sea in seas[last]:
        if sea in fleet_seas and sea not in blocked and sea not in path and origin not in coasts[sea]:
            _extend_chain(tables, origin, fleet_seas, path, sea, next_covered, next_blocked, carried)
    path.pop()


def convoy_route_exists(tables: MapTables, origin: str, destination: str, fleet_seas: Iterable[str]) -> bool:
    """Whether a chain of fleets in ``fleet_seas`` joins the two coasts."""
    fleets = set(fleet_seas)
    frontier = [sea for sea in tables.adjacent_seas[origin] if sea in fleets]
    seen = set(frontier)
    while frontier:
        sea = frontier.pop()
        if destination in tables.sea_coasts_set[sea]:
            return True
        for neighbour in tables.adjacent_seas[sea]:
            if neighbour in fleets and neighbour not in seen:
                seen.add(neighbour)
                frontier.append(neighbour)
    return False


_Placed = tuple[Power, str, str, Unit]  # power, province, unit key ("A PAR"), unit


def _unit_key(unit: Unit) -> str:
    return ("A " if unit.type is ARMY else "F ") + unit.location


def _movement_orders(tables: MapTables, position: Position, only: Power | None = None,
                     ) -> dict[Power, dict[str, list[Order]]]:
    """The movement menu of every unit on the board (of the units of ``only``, when given: the
    same menus, without working out the other powers').

    The inner loops run a few hundred times per board, so they work on unit keys (strings
    hash in C) and reuse shared order objects from ``tables.cache``.
    """
    known = tables.by_key
    board: list[_Placed] = []
    key_at: dict[str, str] = {}
    unit_of: dict[str, Unit] = {}
    for province, pu in position.units.items():
        key = _unit_key(pu.unit)
        unit = known[key].unit if key in known else pu.unit
        board.append((pu.power, province, key, unit))
        key_at[province] = key
        unit_of[key] = unit
    routes = _convoy_routes(tables, board)

    # Who could move into each province: the inverted move map, for supports.
    movers_into: dict[str, list[str]] = {}
    for _, _, key, _ in board:
        for target in known[key].reach if key in known else ():
            movers_into.setdefault(target, []).append(key)
    for key, destinations in routes.destinations.items():
        land_reach = known[key].reach_set
        for destination in destinations:
            if destination not in land_reach:
                movers_into.setdefault(destination, []).append(key)

    cache = tables.cache
    menu: dict[Power, dict[str, list[Order]]] = {}
    for power, province, key, unit in board:
        if only is not None and power != only:
            continue
        entry = known.get(key)
        if entry is None:  # a unit where the map has no place for it: it can only hold
            menu.setdefault(power, {})[unit.location] = [Hold(unit)]
            continue
        orders: list[Order] = [entry.hold, *entry.moves]
        reach = entry.reach
        for destination in routes.destinations.get(key, ()):
            via = destination in entry.reach_set  # adjacent anyway: VIA asks for the convoy
            order = cache.get((key, destination, via))
            if order is None:
                order = cache[(key, destination, via)] = Move(unit, destination, via)
            orders.append(order)
        at_sea = province in routes.fleet_seas
        for target in reach:
            occupant = key_at.get(target)
            if occupant is not None:
                order = cache.get((key, occupant))
                if order is None:
                    order = cache[(key, occupant)] = SupportHold(unit, unit_of[occupant])
                orders.append(order)
            for mover in movers_into.get(target, ()):
                if mover is key:
                    continue
                if at_sea and not _carries_without(tables, routes, mover, target, province):
                    continue
                order = cache.get((key, mover, target))
                if order is None:
                    order = cache[(key, mover, target)] = SupportMove(unit, unit_of[mover], target)
                orders.append(order)
        for army, destination in routes.convoys.get(key, ()):
            order = cache.get((key, army, destination, "C"))
            if order is None:
                order = cache[(key, army, destination, "C")] = Convoy(unit, unit_of[army], destination)
            orders.append(order)
        menu.setdefault(power, {})[unit.location] = orders
    return menu


def _carries_without(tables: MapTables, routes: _ConvoyRoutes, mover: str, target: str, sea: str) -> bool:
    """Whether ``mover`` reaches ``target`` by land, or by a convoy that leaves out the fleet in
    ``sea`` (which cannot both support the move and carry it)."""
    if target in tables.by_key[mover].reach_set:
        return True
    return convoy_route_exists(tables, province_of(mover[2:]), target, routes.fleet_seas - {sea})


# --------------------------------------------------------------------------- retreats, adjustments


def _retreat_orders(position: Position) -> dict[Power, dict[str, list[Order]]]:
    menu: dict[Power, dict[str, list[Order]]] = {}
    for dislodged in position.dislodged:
        unit = dislodged.unit
        orders: list[Order] = [Retreat(unit, destination) for destination in dislodged.retreats]
        orders.append(Disband(unit))
        menu.setdefault(dislodged.power, {})[unit.location] = orders
    return menu


def adjustment_count(position: Position, power: Power) -> int:
    """Builds allowed (positive) or removals owed (negative) in an adjustment phase."""
    centres = sum(1 for owner in position.centres.values() if owner == power)
    units = sum(1 for pu in position.units.values() if pu.power == power)
    return centres - units


def build_sites(position: Position, power: Power, game_map: Any) -> list[str]:
    """Home centres of ``power`` it owns and no unit stands on, sorted."""
    return sorted(
        home
        for home in game_map.home_centres.get(power, ())
        if position.centres.get(home) == power and home not in position.units
    )


def build_orders_at(tables: MapTables, game_map: Any, province: str) -> list[Order]:
    orders: list[Order] = []
    if province not in tables.seas:
        orders.append(tables.shared(("B", ARMY, province), Build, tables.unit(ARMY, province)))
    if province in tables.coastal_land:
        for location in game_map.fleet_locations(province):
            orders.append(tables.shared(("B", FLEET, location), Build, tables.unit(FLEET, location)))
    return orders


def _adjustment_orders(tables: MapTables, position: Position, game_map: Any, power: Power) -> dict[str, list[Order]]:
    count = adjustment_count(position, power)
    menu: dict[str, list[Order]] = {}
    if count > 0:
        for province in build_sites(position, power, game_map):
            menu[province] = build_orders_at(tables, game_map, province)
        if menu:
            menu["WAIVE"] = [Waive()]
    elif count < 0:
        for unit in sorted(position.units_of(power), key=lambda u: u.location):
            menu[unit.location] = [Remove(unit)]
    return menu


# --------------------------------------------------------------------------- the public functions


def powers_in(position: Position, game_map: Any = None) -> list[Power]:
    """The powers to offer orders to: the map's powers if it names them, else those on the board."""
    named = getattr(game_map, "powers", None)
    if named:
        return sorted(named)
    found = {pu.power for pu in position.units.values()}
    found.update(position.centres.values())
    found.update(d.power for d in position.dislodged)
    return sorted(found)


def possible_orders_all(position: Position, game_map: Any) -> dict[Power, dict[str, list[Order]]]:
    """``possible_orders`` for every power at once (cheaper than seven separate calls)."""
    tables = map_tables(game_map)
    phase_type = position.phase.type
    if phase_type is PhaseType.MOVEMENT:
        found = _movement_orders(tables, position)
    elif phase_type is PhaseType.RETREATS:
        found = _retreat_orders(position)
    else:
        found = {
            power: _adjustment_orders(tables, position, game_map, power)
            for power in powers_in(position, game_map)
        }
    return {power: found.get(power, {}) for power in powers_in(position, game_map)} | {
        power: menu for power, menu in found.items()
    }


def possible_orders(position: Position, power: Power, game_map: Any) -> dict[str, list[Order]]:
    """Every order ``power`` could give now, keyed by the unit's location.

    In adjustment phases the keys are build sites (each with its army and fleet builds),
    ``"WAIVE"``, or the locations of units that may be removed.
    """
    if position.phase.type is PhaseType.ADJUSTMENTS:
        return _adjustment_orders(map_tables(game_map), position, game_map, power)
    if position.phase.type is PhaseType.MOVEMENT:
        return _movement_orders(map_tables(game_map), position, only=power).get(power, {})
    return possible_orders_all(position, game_map).get(power, {})
