"""The map lookups the movement resolver needs, flattened into plain dicts and sets.

Built once per ``GameMap`` (maps are immutable, so the cache is safe) to keep the
resolver's per-call work to dictionary reads.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from .geography import GameMap
from .orders import Place, Unit, UnitType, province_of, unit_text
from .position import PowerUnit

_NONE: Final[frozenset[str]] = frozenset()
_NO_UNIT_TEXTS: Final[dict[str, PowerUnit]] = {}  # never written to
_ARMY: Final = UnitType.ARMY
_FLEET: Final = UnitType.FLEET


class MovementTables:
    __slots__ = ("provinces", "province_of", "army", "fleet", "fleet_reach", "fleet_into", "sea", "coastal", "split",
                 "units", "power_units", "army_steps", "fleet_steps", "locations", "unit_texts", "power_unit_texts",
                 "numbers", "power_armies", "power_fleets", "sea_bits", "sea_links", "seas_beside", "moved_to",
                 "bounced_at")

    def __init__(self, game_map: GameMap) -> None:
        self.provinces = frozenset(game_map.provinces)
        # province -> its number, in the order of the names: the movement phase's slots (movement.py)
        self.numbers = {province: number for number, province in enumerate(sorted(game_map.provinces))}
        # the two commonest reasons of a move's result, by the slot of its destination: written once
        self.moved_to = [f"moved to {province}" for province in sorted(game_map.provinces)]
        self.bounced_at = [f"bounced at {province}" for province in sorted(game_map.provinces)]
        self.army = {p: game_map.army_neighbours(p) for p in game_map.provinces}
        locations = [loc for p in game_map.provinces for loc in game_map.fleet_locations(p)]
        self.fleet = {loc: game_map.fleet_neighbours(loc) for loc in locations}
        # location -> province: a dict read instead of a split for the map's own locations (a
        # plain dict: compiled, a dict subclass's item is read through the generic protocol)
        self.province_of = {loc: province_of(loc) for loc in [*game_map.provinces, *locations]}
        self.fleet_reach = {loc: frozenset(province_of(n) for n in nbrs) for loc, nbrs in self.fleet.items()}
        # location -> province -> the locations of that province a fleet there can step to
        self.fleet_into = _fleet_into(self.fleet)
        self.sea = frozenset(p for p in game_map.provinces if game_map.is_sea(p))
        self.coastal = frozenset(p for p in game_map.provinces if game_map.is_coastal(p))
        self.split = game_map.split_provinces
        self.army_steps, self.fleet_steps = self._steps()
        self.sea_bits, self.sea_links, self.seas_beside = _convoy_bits(self.sea, self.fleet_reach, game_map.provinces)
        # Units are immutable values: one shared instance per (type, location) saves allocations.
        self.units = self._shared_units()
        self.power_units = {
            (power, unit.type, unit.location): PowerUnit(power, unit)
            for power in game_map.powers
            for unit in self.units.values()
        }
        # The same shared values by their canonical text (``"F STP/NC"``): what documents and
        # orders write, read with one dict lookup and no new object (docs/rules/datc.md, "Speed").
        self.locations = frozenset(self.province_of)
        self.unit_texts = {str(unit): unit for unit in self.units.values()
                           if unit.type is UnitType.FLEET or game_map.is_land(unit.location)}
        self.power_unit_texts = {
            power: {text: self.power_units[(power, unit.type, unit.location)] for text, unit in self.unit_texts.items()}
            for power in game_map.powers
        }
        # ... and by power and location, one table per unit type: a moved unit's new value is read
        # without building its text
        self.power_armies = _by_location(self.power_unit_texts, UnitType.ARMY)
        self.power_fleets = _by_location(self.power_unit_texts, UnitType.FLEET)

    def _shared_units(self) -> dict[tuple[UnitType, str], Unit]:
        """One unit per (type, location) of the map, each knowing its place on it (orders.py, Place)."""
        units = {(UnitType.ARMY, p): Unit(UnitType.ARMY, p) for p in self.army}
        units.update({(UnitType.FLEET, loc): Unit(UnitType.FLEET, loc) for loc in self.fleet})
        for unit in units.values():
            if unit.type is _ARMY:
                steps, reach = self.army_steps.get(unit.location, {}), self.army.get(unit.location, _NONE)
            else:
                steps, reach = self.fleet_steps.get(unit.location, {}), self.fleet_reach.get(unit.location, _NONE)
            unit.place = Place(self.numbers, self.numbers[unit.province], steps, reach)
        return units

    def _steps(self) -> tuple[dict[str, dict[str, tuple[str, str, int]]], dict[str, dict[str, tuple[str, str, int]]]]:
        """Every move order that is legal without a convoy, by the moving unit's location and
        the destination as an order may write it (a province, or a location with a coast):
        the province entered, the location the unit ends at and the province's slot (its
        number, movement.py). An army's coast is ignored
        (DATC 4.B.6); a fleet needs the coast where it could reach both (DATC 4.B.1 to 4.B.3).
        Anything else (unknown names, convoys, void orders) is checked the long way."""
        written = {*self.provinces, *self.fleet}  # every province and every fleet location
        army_steps: dict[str, dict[str, tuple[str, str, int]]] = {}
        for origin, neighbours in self.army.items():
            army_steps[origin] = {
                name: (province_of(name), province_of(name), self.numbers[province_of(name)])
                for name in written
                if province_of(name) in neighbours and province_of(name) != origin
            }
        fleet_steps: dict[str, dict[str, tuple[str, str, int]]] = {}
        for location, into in self.fleet_into.items():
            steps = fleet_steps[location] = {}
            for name in written:
                target = province_of(name)
                reachable = into.get(target, ())
                if not reachable or target == province_of(location):
                    continue
                if target not in self.split:
                    steps[name] = (target, reachable[0], self.numbers[target])
                elif name != target and name in reachable:
                    steps[name] = (target, name, self.numbers[target])
                elif name == target and len(reachable) == 1:
                    steps[name] = (target, reachable[0], self.numbers[target])
        return army_steps, fleet_steps


    def province(self, location: str) -> str:
        """The province of a location; one the map does not know is split like any other."""
        found = self.province_of.get(location)
        return found if found is not None else province_of(location)

    def shared_power_unit(self, power: str, unit_type: UnitType, location: str) -> PowerUnit | None:
        """The map's shared value for this power's unit, or None where the map has none."""
        if unit_type is _ARMY:
            armies = self.power_armies.get(power)
            return armies.get(location) if armies is not None else None
        if unit_type is _FLEET:
            fleets = self.power_fleets.get(power)
            return fleets.get(location) if fleets is not None else None
        return self.unit_texts_of(power).get(unit_text(unit_type, location))

    def unit_texts_of(self, power: str) -> dict[str, PowerUnit]:
        """``"A PAR"`` -> the map's shared value of that unit of ``power`` (empty for a power the
        map does not have)."""
        return self.power_unit_texts.get(power, _NO_UNIT_TEXTS)

    def unit(self, unit_type: UnitType, location: str) -> Unit:
        found = self.units.get((unit_type, location))
        return found if found is not None else Unit(unit_type, location)

    def army_neighbours(self, province: str) -> frozenset[str]:
        return self.army.get(province, _NONE)

    def fleet_neighbours(self, location: str) -> frozenset[str]:
        return self.fleet.get(location, _NONE)

    def fleet_destinations_in(self, location: str, province: str) -> tuple[str, ...]:
        return self.fleet_into.get(location, {}).get(province, ())



def _fleet_into(fleet: dict[str, frozenset[str]]) -> dict[str, dict[str, tuple[str, ...]]]:
    """Location -> province -> the locations of that province a fleet there can step to."""
    found: dict[str, dict[str, tuple[str, ...]]] = {}
    for loc, nbrs in fleet.items():
        into: dict[str, list[str]] = {}
        for n in sorted(nbrs):
            into.setdefault(province_of(n), []).append(n)
        found[loc] = {p: tuple(locs) for p, locs in into.items()}
    return found


def _convoy_bits(sea: frozenset[str], fleet_reach: dict[str, frozenset[str]], provinces: Iterable[str]
                 ) -> tuple[dict[str, int], list[int], dict[str, int]]:
    """Convoy chains as bit sets: a bit per sea province (in name order); for each sea, the seas
    a fleet there borders; for each province, the seas whose fleets border it."""
    seas = sorted(sea)
    sea_bits = {name: 1 << number for number, name in enumerate(seas)}
    sea_links = [sum(sea_bits[s] for s in fleet_reach.get(name, _NONE) if s in sea_bits) for name in seas]
    seas_beside = {p: sum(bit for name, bit in sea_bits.items() if p in fleet_reach.get(name, _NONE))
                   for p in provinces}
    return sea_bits, sea_links, seas_beside


def _by_location(power_unit_texts: dict[str, dict[str, PowerUnit]], unit_type: UnitType
                 ) -> dict[str, dict[str, PowerUnit]]:
    """Power -> location -> the map's shared value of that power's unit of ``unit_type`` there."""
    return {power: {unit.location: unit_at for unit_at in by_text.values() if (unit := unit_at.unit).type is unit_type}
            for power, by_text in power_unit_texts.items()}


_TABLES: Final[dict[GameMap, MovementTables]] = {}


def movement_tables(game_map: GameMap) -> MovementTables:
    """The tables of a map, built once (a dict read: maps hash by identity)."""
    tables = _TABLES.get(game_map)
    if tables is None:
        if len(_TABLES) >= 16:  # maps built on the fly (tests, variants): keep the memory bounded
            _TABLES.clear()
        tables = _TABLES[game_map] = MovementTables(game_map)
    return tables
