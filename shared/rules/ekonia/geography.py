"""The map of Tale of Ekonia: territories, seas, sea lanes, adjacency and the states' setup.

The data lives in ``shared/variants/ekonia/map.json`` (package data). Every territory and sea
is one cell of a hex grid (axial coordinates, pointy-top); adjacency is stored explicitly in
the data and must equal "cells share an edge", give or take the links the designers list in
``links_added`` and ``links_cut``. ``load_ekonia_map`` reads the file once, checks it (a
``EkoniaMapError`` names the first problem) and precomputes every lookup, including all
shortest distances, so the engine only reads dictionaries.

Ids are slugs (``"chalein-coast"``); states are upper-case names of their capitals
(``"VIEREN"``). Land without a starting owner is neutral.
"""
from __future__ import annotations

import heapq
import json
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from types import MappingProxyType

KINDS = ("land", "sea")
UNIT_TYPES = ("infantry", "cavalry", "trireme", "transport", "airship")
LAND_UNITS = frozenset({"infantry", "cavalry"})
SHIPS = frozenset({"trireme", "transport"})

HEX_DIRECTIONS: tuple[tuple[int, int], ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
"""The six axial neighbours of a hex cell."""

_SLUG = re.compile(r"^[a-z]+(?:-[a-z]+)*$")
_STATE_ID = re.compile(r"^[A-Z]+$")


class EkoniaMapError(ValueError):
    """The Ekonia map data is inconsistent (unknown id, one-way link, misplaced unit, ...)."""


@dataclass(frozen=True, slots=True)
class Territory:
    id: str
    name: str
    kind: str  # "land" | "sea"
    coastal: bool  # land touching a sea
    city: bool  # has a city (capitals are cities too)
    sea_lane: bool  # seas only
    hex: tuple[int, int]


@dataclass(frozen=True, slots=True)
class StateSetup:
    name: str  # the state's id, upper case: "VIEREN"
    capital: str
    cities: tuple[str, ...]  # the capital first, then the other cities
    territories: tuple[str, ...]  # every territory it starts with, capital and cities included
    starting_units: tuple[tuple[str, str], ...]  # (unit type, territory)
    gold: int
    display_name: str = ""  # "Vieren"


class EkoniaMap:
    """The checked Ekonia board, read-only. Build it with ``load_ekonia_map`` or ``build_ekonia_map``."""

    __slots__ = (
        "territories", "states", "income", "neutral_capture_strength", "impassable_hexes",
        "_neighbours", "_land", "_sea", "_owner", "_capital_of", "_distance",
    )

    def __init__(
        self,
        territories: Mapping[str, Territory],
        states: Mapping[str, StateSetup],
        adjacency: Mapping[str, frozenset[str]],
        income: Mapping[str, int],
        neutral_capture_strength: float,
        impassable_hexes: frozenset[tuple[int, int]],
    ) -> None:
        self.territories: Mapping[str, Territory] = MappingProxyType(dict(territories))
        self.states: Mapping[str, StateSetup] = MappingProxyType(dict(states))
        self.income: Mapping[str, int] = MappingProxyType(dict(income))
        self.neutral_capture_strength = neutral_capture_strength
        self.impassable_hexes = impassable_hexes
        seas = {t for t, info in territories.items() if info.kind == "sea"}
        self._neighbours = MappingProxyType(dict(adjacency))
        self._land = MappingProxyType({t: frozenset(n - seas) if t not in seas else frozenset()
                                       for t, n in adjacency.items()})
        self._sea = MappingProxyType({t: frozenset(n & seas) for t, n in adjacency.items()})
        self._owner = MappingProxyType({t: s.name for s in states.values() for t in s.territories})
        self._capital_of = MappingProxyType({s.capital: s.name for s in states.values()})
        ids = list(territories)
        self._distance = _all_pairs(ids, adjacency, lambda t: 2 if t in seas else 1)

    # --- lookups -----------------------------------------------------------------------------

    def territory(self, territory: str) -> Territory:
        try:
            return self.territories[territory]
        except KeyError:
            raise KeyError(f"no territory {territory!r} on the Ekonia map") from None

    def neighbours(self, territory: str) -> frozenset[str]:
        """Every adjacent territory, land and sea."""
        self.territory(territory)
        return self._neighbours[territory]

    def land_neighbours(self, territory: str) -> frozenset[str]:
        """Land territories adjacent to a land territory (empty for a sea)."""
        self.territory(territory)
        return self._land[territory]

    def sea_neighbours(self, territory: str) -> frozenset[str]:
        """Seas adjacent to a territory: the waters a coast touches, or a sea's next seas."""
        self.territory(territory)
        return self._sea[territory]

    def adjacent(self, a: str, b: str) -> bool:
        return b in self.neighbours(a)

    def is_sea(self, territory: str) -> bool:
        return self.territory(territory).kind == "sea"

    def is_land(self, territory: str) -> bool:
        return self.territory(territory).kind == "land"


    @property
    def land_territories(self) -> frozenset[str]:
        return frozenset(t for t, info in self.territories.items() if info.kind == "land")

    @property
    def seas(self) -> frozenset[str]:
        return frozenset(t for t, info in self.territories.items() if info.kind == "sea")

    @property
    def sea_lanes(self) -> frozenset[str]:
        return frozenset(t for t, info in self.territories.items() if info.sea_lane)

    @property
    def cities(self) -> frozenset[str]:
        return frozenset(t for t, info in self.territories.items() if info.city)


    # --- states and income -------------------------------------------------------------------

    def owner_at_start(self, territory: str) -> str | None:
        self.territory(territory)
        return self._owner.get(territory)

    def is_starting_capital(self, territory: str) -> bool:
        return territory in self._capital_of

    def base_income(self, territory: str) -> int:
        """Gold per turn at the start: 25 a capital (of its starting state), 15 a city, 10 a tile, 0 a sea."""
        info = self.territory(territory)
        if info.kind == "sea":
            return 0
        if territory in self._capital_of:
            return self.income["capital"]
        return self.income["city"] if info.city else self.income["tile"]

    def starting_income(self, state: str) -> int:
        """A state's base tile income on the first turn: the sum over its starting territories."""
        return sum(self.base_income(t) for t in self.states[state].territories)

    def borders(self, a_state: str, b_state: str) -> bool:
        """Do two states' starting territories share a land edge?"""
        mine = set(self.states[a_state].territories)
        theirs = set(self.states[b_state].territories)
        return any(self._land[t] & theirs for t in mine)

    # --- distances ---------------------------------------------------------------------------

    def distance(self, a: str, b: str, *, sea_cost: int = 2) -> int:
        """Fewest steps from ``a`` to ``b`` over land and sea, entering a sea costing ``sea_cost``.

        With the default cost of 2 this is the airship radius of the rules ("sea tiles count
        as 2 tiles"). Every territory reaches every other (the loader checks it).
        """
        self.territory(a)
        self.territory(b)
        if sea_cost == 2:
            return self._distance[a][b]
        seas = self.seas
        table = _dijkstra(a, self._neighbours, lambda t: sea_cost if t in seas else 1)
        return table[b]



# --- graph helpers ---------------------------------------------------------------------------


def _dijkstra(start: str, graph: Mapping[str, Iterable[str]], cost_to_enter: Callable[[str], int]) -> dict[str, int]:
    best = {start: 0}
    queue = [(0, start)]
    while queue:
        dist, here = heapq.heappop(queue)
        if dist > best[here]:
            continue
        for there in graph[here]:
            step = dist + cost_to_enter(there)
            if step < best.get(there, step + 1):
                best[there] = step
                heapq.heappush(queue, (step, there))
    return best


def _all_pairs(ids: list[str], graph: Mapping[str, Iterable[str]],
               cost_to_enter: Callable[[str], int]) -> Mapping[str, Mapping[str, int]]:
    return MappingProxyType({t: MappingProxyType(_dijkstra(t, graph, cost_to_enter)) for t in ids})


def hex_neighbour_cells(cell: tuple[int, int]) -> tuple[tuple[int, int], ...]:
    q, r = cell
    return tuple((q + dq, r + dr) for dq, dr in HEX_DIRECTIONS)


def hex_adjacency(territories: Mapping[str, Territory]) -> dict[str, frozenset[str]]:
    """Adjacency as the grid gives it: two territories whose cells share an edge."""
    at = {info.hex: tid for tid, info in territories.items()}
    return {tid: frozenset(at[c] for c in hex_neighbour_cells(info.hex) if c in at)
            for tid, info in territories.items()}


# --- loading ---------------------------------------------------------------------------------


def load_ekonia_map() -> EkoniaMap:
    """The checked Ekonia map, read once from package data and cached."""
    return _load_cached()


@lru_cache(maxsize=1)
def _load_cached() -> EkoniaMap:
    return build_ekonia_map(read_ekonia_data())


def read_ekonia_data() -> dict[str, object]:
    """The raw map.json document (for tests and tools such as the SVG drawing): JSON, which
    ``build_ekonia_map`` checks as it reads it."""
    text = resources.files("shared.variants").joinpath("ekonia", "map.json").read_text("utf-8")
    return _table(json.loads(text), "map.json")


def _table(value: object, what: str) -> dict[str, object]:
    """A JSON object of map.json, or TypeError (``build_ekonia_map`` calls the map malformed)."""
    if not isinstance(value, dict):
        raise TypeError(f"{what} is not a JSON object: {type(value).__name__}")
    return value


def _list(value: object, what: str) -> list[object]:
    """A JSON array of map.json, or TypeError."""
    if not isinstance(value, list):
        raise TypeError(f"{what} is not a JSON array: {type(value).__name__}")
    return value


def map_table(data: Mapping[str, object], key: str) -> dict[str, object]:
    """``data[key]`` as a JSON object: KeyError where it is absent, TypeError where it is no object."""
    return _table(data[key], key)


def _optional_list(data: Mapping[str, object], key: str) -> list[object]:
    value = data.get(key)
    return [] if value is None else _list(value, key)


def _impassable(data: Mapping[str, object]) -> list[object]:
    grid = data.get("hex_grid")
    return [] if grid is None else _optional_list(_table(grid, "hex_grid"), "impassable")


def _number(value: object, what: str) -> int | float | str:
    """A number of map.json (or a string of one, as ``int()`` and ``float()`` read it)."""
    if isinstance(value, (int, float, str)):
        return value
    raise TypeError(f"{what} is not a number: {value!r}")


def build_ekonia_map(data: Mapping[str, object]) -> EkoniaMap:
    """Build and check an EkoniaMap from the map.json structure; raises EkoniaMapError."""
    try:
        return _build(data)
    except EkoniaMapError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise EkoniaMapError(f"malformed Ekonia map data: {exc!r}") from exc


def _build(data: Mapping[str, object]) -> EkoniaMap:
    territories = {tid: _territory(tid, _table(raw, tid)) for tid, raw in map_table(data, "territories").items()}
    _check_cells(territories, data)
    adjacency = _checked_adjacency(data, territories)
    _check_territories(territories, adjacency)
    states = {sid: _state(sid, _table(raw, sid)) for sid, raw in map_table(data, "states").items()}
    _check_states(states, territories, adjacency)
    income = {key: int(_number(map_table(data, "income")[key], key)) for key in ("capital", "city", "tile")}
    impassable = frozenset(_cell(c) for c in _impassable(data))
    game_map = EkoniaMap(territories, states, adjacency, income,
                         float(_number(data.get("neutral_capture_strength", 2.5), "neutral_capture_strength")),
                         impassable)
    _check_connected(game_map)
    return game_map


def _cell(raw: object) -> tuple[int, int]:
    q, r = _list(raw, "a hex cell")
    if not (isinstance(q, int) and isinstance(r, int)):
        raise EkoniaMapError(f"a hex cell is two integers, not {raw!r}")
    return (q, r)


def _territory(tid: str, raw: Mapping[str, object]) -> Territory:
    if not _SLUG.match(tid):
        raise EkoniaMapError(f"territory id {tid!r} is not a slug (lower case words joined by '-')")
    kind = raw["kind"]
    if not isinstance(kind, str) or kind not in KINDS:
        raise EkoniaMapError(f"{tid}: unknown kind {kind!r} (expected land or sea)")
    if kind == "sea" and (raw.get("city") or raw.get("coastal")):
        raise EkoniaMapError(f"{tid}: a sea has neither a city nor a coast")
    if kind == "land" and raw.get("sea_lane"):
        raise EkoniaMapError(f"{tid}: only a sea can be a sea lane")
    return Territory(
        id=tid,
        name=str(raw["name"]),
        kind=kind,
        coastal=bool(raw.get("coastal", False)),
        city=bool(raw.get("city", False)),
        sea_lane=bool(raw.get("sea_lane", False)),
        hex=_cell(raw["hex"]),
    )


def _check_cells(territories: Mapping[str, Territory], data: Mapping[str, object]) -> None:
    seen: dict[tuple[int, int], str] = {}
    impassable = {_cell(c) for c in _impassable(data)}
    for tid, info in territories.items():
        if info.hex in seen:
            raise EkoniaMapError(f"{tid} and {seen[info.hex]} share the hex cell {info.hex}")
        if info.hex in impassable:
            raise EkoniaMapError(f"{tid} stands on the impassable cell {info.hex}")
        seen[info.hex] = tid
    names = [info.name for info in territories.values()]
    if len(set(names)) != len(names):
        raise EkoniaMapError("two territories share a display name")


def _pair(raw: object, territories: Mapping[str, Territory], what: str) -> tuple[str, str]:
    a, b = _list(raw, what)
    for t in (a, b):
        if not isinstance(t, str) or t not in territories:
            raise EkoniaMapError(f"{what} names an unknown territory {t!r}")
    return str(a), str(b)


def _checked_adjacency(data: Mapping[str, object],
                       territories: Mapping[str, Territory]) -> dict[str, frozenset[str]]:
    """The stored adjacency, checked: known ids, symmetric, and equal to the grid's edges
    plus ``links_added`` minus ``links_cut``."""
    raw = map_table(data, "adjacency")
    if set(raw) != set(territories):
        missing = sorted(set(territories) - set(raw)) or sorted(set(raw) - set(territories))
        raise EkoniaMapError(f"adjacency and territories disagree about {missing[:5]}")
    adjacency: dict[str, frozenset[str]] = {}
    for tid, listed in raw.items():
        names: list[str] = []
        for other in _list(listed, tid):
            if not isinstance(other, str) or other not in territories:
                raise EkoniaMapError(f"{tid} is adjacent to an unknown territory {other!r}")
            if other == tid:
                raise EkoniaMapError(f"{tid} is adjacent to itself")
            names.append(other)
        adjacency[tid] = frozenset(names)
    for tid, links in adjacency.items():
        for other in links:
            if tid not in adjacency[other]:
                raise EkoniaMapError(f"one-way link: {tid} -> {other} but not back")
    expected = {tid: set(links) for tid, links in hex_adjacency(territories).items()}
    for a, b in (_pair(p, territories, "links_added") for p in _optional_list(data, "links_added")):
        expected[a].add(b)
        expected[b].add(a)
    for a, b in (_pair(p, territories, "links_cut") for p in _optional_list(data, "links_cut")):
        expected[a].discard(b)
        expected[b].discard(a)
    for tid in territories:
        if adjacency[tid] != expected[tid]:
            extra = sorted(adjacency[tid] - expected[tid])
            lacking = sorted(expected[tid] - adjacency[tid])
            raise EkoniaMapError(
                f"{tid}: stored adjacency differs from the hex grid (with links_added/links_cut):"
                f" extra {extra}, missing {lacking}")
    return adjacency


def _check_territories(territories: Mapping[str, Territory], adjacency: Mapping[str, frozenset[str]]) -> None:
    for tid, info in territories.items():
        if not adjacency[tid]:
            raise EkoniaMapError(f"{tid} is isolated: it has no neighbour")
        touches_sea = any(territories[n].kind == "sea" for n in adjacency[tid])
        if info.kind == "land" and info.coastal != touches_sea:
            touches = "touches" if touches_sea else "does not touch"
            raise EkoniaMapError(f"{tid}: coastal is {info.coastal} but it {touches} a sea")
        if info.kind == "sea" and not any(territories[n].kind == "land" for n in adjacency[tid]):
            raise EkoniaMapError(f"sea {tid} touches no coast")


def _state(sid: str, raw: Mapping[str, object]) -> StateSetup:
    if not _STATE_ID.match(sid):
        raise EkoniaMapError(f"state id {sid!r} is not an upper-case name")
    units = []
    for unit in _list(raw["starting_units"], f"{sid}'s starting_units"):
        unit_type, where = _list(unit, f"a starting unit of {sid}")
        if unit_type not in UNIT_TYPES:
            raise EkoniaMapError(f"{sid}: unknown unit type {unit_type!r}")
        units.append((str(unit_type), str(where)))
    return StateSetup(
        name=sid,
        capital=str(raw["capital"]),
        cities=tuple(str(city) for city in _list(raw["cities"], f"{sid}'s cities")),
        territories=tuple(str(tid) for tid in _list(raw["territories"], f"{sid}'s territories")),
        starting_units=tuple(units),
        gold=int(_number(raw["gold"], f"{sid}'s gold")),
        display_name=str(raw.get("name", sid.title())),
    )


def _check_states(states: Mapping[str, StateSetup], territories: Mapping[str, Territory],
                  adjacency: Mapping[str, frozenset[str]]) -> None:
    owner: dict[str, str] = {}
    for sid, state in states.items():
        for tid in state.territories:
            if tid not in territories:
                raise EkoniaMapError(f"{sid} owns an unknown territory {tid!r}")
            if territories[tid].kind != "land":
                raise EkoniaMapError(f"{sid} owns the sea {tid}: states own land only")
            if tid in owner:
                raise EkoniaMapError(f"{tid} belongs to both {owner[tid]} and {sid}")
            owner[tid] = sid
        if state.capital not in state.territories:
            raise EkoniaMapError(f"{sid}: capital {state.capital} is not inside the state")
        if not state.cities or state.cities[0] != state.capital:
            raise EkoniaMapError(f"{sid}: the cities list starts with the capital")
        for city in state.cities:
            if city not in state.territories or not territories[city].city:
                raise EkoniaMapError(f"{sid}: {city} is not a city of the state")
        owned_cities = {t for t in state.territories if territories[t].city}
        if owned_cities != set(state.cities):
            raise EkoniaMapError(f"{sid}: its territories hold the cities {sorted(owned_cities)},"
                                 f" its cities list says {sorted(state.cities)}")
        for unit_type, where in state.starting_units:
            _check_starting_unit(sid, state, unit_type, where, territories, adjacency)
        if state.gold < 0:
            raise EkoniaMapError(f"{sid}: negative starting gold")


def _check_starting_unit(sid: str, state: StateSetup, unit_type: str, where: str,
                         territories: Mapping[str, Territory],
                         adjacency: Mapping[str, frozenset[str]]) -> None:
    """Land units on the state's own land; ships at sea off the state's own coast; airships
    at the capital (their base; no forts exist at the start)."""
    if where not in territories:
        raise EkoniaMapError(f"{sid}: a starting {unit_type} stands on an unknown territory {where!r}")
    if unit_type in LAND_UNITS:
        ok = where in state.territories
        rule = "on the state's own land"
    elif unit_type in SHIPS:
        ok = territories[where].kind == "sea" and bool(adjacency[where] & set(state.territories))
        rule = "at sea, next to one of the state's coasts"
    else:
        ok = where == state.capital
        rule = "at the state's capital"
    if not ok:
        raise EkoniaMapError(f"{sid}: a starting {unit_type} in {where} must stand {rule}")


def _check_connected(game_map: EkoniaMap) -> None:
    """Every territory reaches every other over land and sea."""
    ids = list(game_map.territories)
    unreachable = [t for t in ids if t not in game_map._distance[ids[0]]]
    if unreachable:
        raise EkoniaMapError(f"cut off from {ids[0]}: {unreachable[:5]}")
