"""The board of a variant: provinces, coasts, adjacency, centres, homes, starting units.

The data lives in ``shared/variants/<variant>/map.json`` (package data). ``load_map`` reads it
once per variant, checks it, and precomputes every lookup into frozensets so that the
resolver's inner loop does only dictionary reads.

Vocabulary: a *province* is a three-letter code (``"STP"``); a *location* is where a unit
stands: a province, or a province with a coast (``"STP/NC"``) for fleets on the three
split-coast provinces. Armies move between provinces; fleets move between locations.
"""
from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from importlib import resources
from types import MappingProxyType
from typing import Any, Final

from .orders import Unit, UnitType, province_of

PROVINCE_KINDS: Final = ("land", "coast", "sea", "impassable")
"""``land`` is inland (armies only), ``coast`` takes both unit types, ``sea`` fleets only,
``impassable`` nothing (Switzerland)."""

_VARIANT_NAME: Final = re.compile(r"^[a-z0-9_]+$")
_EMPTY: Final[frozenset[str]] = frozenset()


class MapDataError(ValueError):
    """The variant's map data is inconsistent (unknown code, one-way adjacency, ...)."""


@dataclass(frozen=True)  # no slots=True: see possible.py
class Province:
    code: str
    name: str
    kind: str
    supply_centre: bool
    home_of: str | None
    coasts: tuple[str, ...]  # coast suffixes: ("NC", "SC"); empty for most provinces
    names: Mapping[str, str] = field(default_factory=dict)  # language -> name, e.g. {"da": "Rom"}
    aliases: tuple[str, ...] = ()
    daide: str = ""


@dataclass(frozen=True)
class PowerInfo:
    name: str  # "AUSTRIA"
    adjective: str
    daide: str  # "AUS"
    names: Mapping[str, str] = field(default_factory=dict)
    aliases: tuple[str, ...] = ()


class GameMap:
    """A variant's board, read-only. Build it with ``load_map`` (or ``build_map`` for raw data)."""

    __slots__ = (
        "variant",
        "provinces",
        "powers",
        "power_set",
        "split_provinces",
        "power_info",
        "home_centres",
        "starting_units",
        "supply_centres",
        "locations",
        "_army",
        "_fleet",
        "_fleet_locations",

        "unit_types",
    )

    def __init__(
        self,
        *,
        variant: str,
        provinces: Mapping[str, Province],
        power_info: Mapping[str, PowerInfo],
        home_centres: Mapping[str, frozenset[str]],
        starting_units: Mapping[str, tuple[Unit, ...]],
        army_adjacency: Mapping[str, frozenset[str]],
        fleet_adjacency: Mapping[str, frozenset[str]],
        unit_types: tuple[UnitType, ...] = (UnitType.ARMY, UnitType.FLEET),
    ) -> None:
        self.variant = variant
        self.unit_types = unit_types  # the Dirigible variant adds UnitType.DIRIGIBLE
        self.provinces: Mapping[str, Province] = MappingProxyType(dict(provinces))
        self.power_info: Mapping[str, PowerInfo] = MappingProxyType(dict(power_info))
        self.powers: tuple[str, ...] = tuple(sorted(power_info))
        self.power_set: frozenset[str] = frozenset(power_info)  # compiled, a set's ``in`` is a C call
        self.home_centres: Mapping[str, frozenset[str]] = MappingProxyType(dict(home_centres))
        self.starting_units: Mapping[str, tuple[Unit, ...]] = MappingProxyType(dict(starting_units))
        # provinces with named coasts (``is_split``), as a set: the orders of every phase ask
        self.split_provinces: frozenset[str] = frozenset(code for code, p in provinces.items() if p.coasts)
        self.supply_centres: frozenset[str] = frozenset(
            code for code, p in provinces.items() if p.supply_centre
        )
        self._army: Mapping[str, frozenset[str]] = MappingProxyType(dict(army_adjacency))
        self._fleet: Mapping[str, frozenset[str]] = MappingProxyType(dict(fleet_adjacency))
        self._fleet_locations: Mapping[str, tuple[str, ...]] = MappingProxyType(
            {code: _fleet_locations_of(p) for code, p in provinces.items()}
        )

        self.locations: frozenset[str] = frozenset(provinces) | frozenset(
            loc for locs in self._fleet_locations.values() for loc in locs
        )

    def __copy__(self) -> GameMap:
        return self  # read-only, and known by identity (the tables built for it are kept per map)

    def __deepcopy__(self, memo: dict[int, object]) -> GameMap:
        return self

    def __repr__(self) -> str:
        return f"GameMap({self.variant!r}, {len(self.provinces)} provinces)"

    # --- adjacency -------------------------------------------------------------------------

    def army_neighbours(self, province: str) -> frozenset[str]:
        """Provinces an army can step to from ``province`` (a coast suffix is ignored)."""
        return self._army.get(province_of(province), _EMPTY)

    def fleet_neighbours(self, location: str) -> frozenset[str]:
        """Locations (with coasts) a fleet can step to from ``location``.

        A split-coast province without its coast (``"STP"``) is not a fleet location: empty.
        """
        return self._fleet.get(location, _EMPTY)


    def fleet_destinations_in(self, location: str, province: str) -> tuple[str, ...]:
        """The locations of ``province`` a fleet at ``location`` can step to, sorted."""
        nbrs = self.fleet_neighbours(location)
        return tuple(loc for loc in self.fleet_locations(province) if loc in nbrs)

    # --- provinces -------------------------------------------------------------------------

    def fleet_locations(self, province: str) -> tuple[str, ...]:
        """``("STP/NC", "STP/SC")``, ``("BRE",)``, or ``()`` where no fleet can stand."""
        return self._fleet_locations.get(province_of(province), ())

    def is_split(self, province: str) -> bool:
        return province_of(province) in self.split_provinces

    def is_sea(self, province: str) -> bool:
        p = self.provinces.get(province_of(province))
        return p is not None and p.kind == "sea"

    def is_land(self, province: str) -> bool:
        """Land an army can stand on: inland or coastal (not sea, not impassable)."""
        p = self.provinces.get(province_of(province))
        return p is not None and p.kind in ("land", "coast")


    def is_coastal(self, province: str) -> bool:
        p = self.provinces.get(province_of(province))
        return p is not None and p.kind == "coast"



def _fleet_locations_of(p: Province) -> tuple[str, ...]:
    if p.kind in ("land", "impassable"):
        return ()
    if p.coasts:
        return tuple(f"{p.code}/{c}" for c in p.coasts)
    return (p.code,)


# --- loading ---------------------------------------------------------------------------------


def load_map(variant: str = "standard") -> GameMap:
    """The checked map of a variant, read once from package data and cached."""
    loaded = _LOADED.get(variant) if type(variant) is str else None  # the usual case: one dict read
    if loaded is not None:
        return loaded
    if not isinstance(variant, str) or not _VARIANT_NAME.match(variant):
        raise MapDataError(f"not a variant name: {variant!r}")
    loaded = _LOADED[variant] = _load(variant)
    return loaded


_LOADED: Final[dict[str, GameMap]] = {}


def _load(variant: str) -> GameMap:
    resource = resources.files("shared.variants").joinpath(variant, "map.json")
    try:
        text = resource.read_text(encoding="utf-8")
    except (FileNotFoundError, NotADirectoryError) as exc:
        raise MapDataError(f"no map data for variant {variant!r}") from exc
    return build_map(json.loads(text))


def build_map(data: Mapping[str, Any]) -> GameMap:
    """Build and check a GameMap from the map.json structure; raises MapDataError."""
    try:
        return _build(data)
    except MapDataError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise MapDataError(f"malformed map data: {exc!r}") from exc


def _build(data: Mapping[str, Any]) -> GameMap:
    variant = str(data["variant"])
    raw_provinces: Mapping[str, Any] = data["provinces"]
    raw_powers: Mapping[str, Any] = data["powers"]

    home_of: dict[str, str] = {}
    for power, info in raw_powers.items():
        for centre in info["home_centres"]:
            if centre in home_of:
                raise MapDataError(f"{centre} is a home centre of both {home_of[centre]} and {power}")
            home_of[centre] = power

    provinces: dict[str, Province] = {}
    for code, raw in raw_provinces.items():
        kind = raw["kind"]
        if kind not in PROVINCE_KINDS:
            raise MapDataError(f"{code}: unknown kind {kind!r}")
        coasts = tuple(raw.get("coasts", ()))
        if coasts and kind != "coast":
            raise MapDataError(f"{code}: only coastal provinces have coasts")
        provinces[code] = Province(
            code=code,
            name=raw["name"],
            kind=kind,
            supply_centre=bool(raw["supply_centre"]),
            home_of=home_of.get(code),
            coasts=coasts,
            names=MappingProxyType(dict(raw.get("names", {}))),
            aliases=tuple(raw.get("aliases", ())),
            daide=raw.get("daide", code),
        )

    for centre, power in home_of.items():
        if centre not in provinces or not provinces[centre].supply_centre:
            raise MapDataError(f"home centre {centre} of {power} is not a supply centre")

    army = _checked_graph(data["army_adjacency"], "army")
    fleet = _checked_graph(data["fleet_adjacency"], "fleet")
    _check_army_graph(army, provinces)
    _check_fleet_graph(fleet, provinces)

    power_info = {
        power: PowerInfo(
            name=power,
            adjective=info.get("adjective", power.title()),
            daide=info.get("daide", power[:3]),
            names=MappingProxyType(dict(info.get("names", {}))),
            aliases=tuple(info.get("aliases", ())),
        )
        for power, info in raw_powers.items()
    }
    home_centres = {p: frozenset(info["home_centres"]) for p, info in raw_powers.items()}
    starting_units = {
        p: tuple(_parse_unit(text, provinces, fleet, p) for text in info["starting_units"])
        for p, info in raw_powers.items()
    }
    return GameMap(
        variant=variant,
        provinces=provinces,
        power_info=power_info,
        home_centres=home_centres,
        starting_units=starting_units,
        army_adjacency=army,
        fleet_adjacency=fleet,
        unit_types=tuple(UnitType(t) for t in data.get("unit_types", ("A", "F"))),
    )


def _checked_graph(raw: Mapping[str, Iterable[str]], label: str) -> dict[str, frozenset[str]]:
    graph = {node: frozenset(nbrs) for node, nbrs in raw.items()}
    for node, nbrs in graph.items():
        if node in nbrs:
            raise MapDataError(f"{label} adjacency: {node} borders itself")
        for nbr in nbrs:
            if node not in graph.get(nbr, _EMPTY):
                raise MapDataError(f"{label} adjacency is not symmetric: {node} -> {nbr} but not back")
    return graph


def _check_army_graph(army: Mapping[str, frozenset[str]], provinces: Mapping[str, Province]) -> None:
    for node in army:
        p = provinces.get(node)
        if p is None:
            raise MapDataError(f"army adjacency: unknown province {node}")
        if p.kind not in ("land", "coast"):
            raise MapDataError(f"army adjacency: {node} is {p.kind}, armies cannot stand there")


def _check_fleet_graph(fleet: Mapping[str, frozenset[str]], provinces: Mapping[str, Province]) -> None:
    valid = {loc for p in provinces.values() for loc in _fleet_locations_of(p)}
    for node in fleet:
        if node not in valid:
            raise MapDataError(f"fleet adjacency: {node} is not a fleet location")
    for loc in sorted(valid):
        if not fleet.get(loc):
            raise MapDataError(f"fleet adjacency: fleet location {loc} has no neighbours")


def _parse_unit(
    text: str, provinces: Mapping[str, Province], fleet: Mapping[str, frozenset[str]], power: str
) -> Unit:
    kind, _, location = text.partition(" ")
    unit = Unit(UnitType(kind), location)
    if unit.type is UnitType.ARMY and getattr(provinces.get(location), "kind", None) not in ("land", "coast"):
        raise MapDataError(f"starting unit {text!r} of {power}: not a land province")
    if unit.type is UnitType.FLEET and location not in fleet:
        raise MapDataError(f"starting unit {text!r} of {power}: not a fleet location")
    return unit
