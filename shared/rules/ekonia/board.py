"""The static board the Ekonia engine reads: territories, adjacency and the states at the start.

The engine depends on this small, frozen shape only. ``board_from_map`` adapts the variant's
map (geography.py, another module) to it; tests build small boards by hand with ``make_board``.
"""
from __future__ import annotations

import heapq
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

CAPITAL_INCOME = 25
CITY_INCOME = 15
TILE_INCOME = 10


@dataclass(frozen=True, slots=True)
class Territory:
    id: str
    name: str
    kind: str  # "land" or "sea"
    coastal: bool = False
    city: bool = False
    sea_lane: bool = False

    @property
    def is_sea(self) -> bool:
        return self.kind == "sea"


@dataclass(frozen=True, slots=True)
class StartingState:
    name: str
    capital: str
    territories: tuple[str, ...]
    units: tuple[tuple[str, str], ...]  # (unit type, location)
    gold: int = 50
    forts: tuple[str, ...] = ()


@dataclass(frozen=True)
class Board:
    territories: Mapping[str, Territory]
    adjacency: Mapping[str, frozenset[str]]
    states: Mapping[str, StartingState]
    _names: Mapping[str, str] = field(default_factory=dict)

    def territory(self, tid: str) -> Territory:
        return self.territories[tid]

    def neighbours(self, tid: str) -> frozenset[str]:
        return self.adjacency.get(tid, frozenset())

    def land_neighbours(self, tid: str) -> frozenset[str]:
        return frozenset(n for n in self.neighbours(tid) if not self.territories[n].is_sea)

    def sea_neighbours(self, tid: str) -> frozenset[str]:
        return frozenset(n for n in self.neighbours(tid) if self.territories[n].is_sea)

    def resolve_name(self, word: str) -> str | None:
        """A territory id from its id or its name, in any case, spaces or underscores alike."""
        key = _key(word)
        if key in self.territories:
            return key
        return self._names.get(key)

    def distance(self, a: str, b: str, sea_cost: int = 2) -> int:
        """Steps from a to b where entering a sea tile costs ``sea_cost`` (airship drops)."""
        best = {a: 0}
        queue = [(0, a)]
        while queue:
            cost, here = heapq.heappop(queue)
            if here == b:
                return cost
            if cost > best.get(here, cost):
                continue
            for nxt in sorted(self.neighbours(here)):
                step = sea_cost if self.territories[nxt].is_sea else 1
                if cost + step < best.get(nxt, 1 << 30):
                    best[nxt] = cost + step
                    heapq.heappush(queue, (cost + step, nxt))
        return 1 << 30


def _key(word: str) -> str:
    return "_".join(word.strip().lower().replace("-", " ").replace("_", " ").split())


def make_board(territories: Iterable[Territory], edges: Iterable[tuple[str, str]],
               states: Iterable[StartingState]) -> Board:
    """A board from territories, undirected edges and starting states."""
    terr = {t.id: t for t in territories}
    adjacency: dict[str, set[str]] = {tid: set() for tid in terr}
    for a, b in edges:
        adjacency[a].add(b)
        adjacency[b].add(a)
    names = {_key(t.name): t.id for t in terr.values()}
    return Board(terr, {k: frozenset(v) for k, v in adjacency.items()},
                 {s.name: s for s in states}, names)


def _get(obj: Any, name: str, default: Any = None) -> Any:
    if isinstance(obj, Mapping):
        return obj.get(name, default)
    return getattr(obj, name, default)


def _as_items(collection: Any) -> list[tuple[str, Any]]:
    if isinstance(collection, Mapping):
        return list(collection.items())
    return [(_get(item, "id") or _get(item, "name"), item) for item in collection]


def board_from_map(ekonia_map: Any) -> Board:
    """Adapt the variant's map object (geography.EkoniaMap) to a Board.

    Reads attributes by name so that small changes in the map's shape stay in this function.
    """
    territories = []
    for tid, t in _as_items(_get(ekonia_map, "territories")):
        territories.append(Territory(
            id=str(tid), name=str(_get(t, "name", tid)), kind=str(_get(t, "kind", "land")),
            coastal=bool(_get(t, "coastal", False)), city=bool(_get(t, "city", False)),
            sea_lane=bool(_get(t, "sea_lane", False))))
    edges = []
    for t in territories:
        for n in ekonia_map.neighbours(t.id):
            edges.append((t.id, str(n)))
    states = []
    for name, s in _as_items(_get(ekonia_map, "states")):
        units = []
        for unit in _get(s, "units", None) or _get(s, "starting_units", None) or ():
            if isinstance(unit, (tuple, list)):
                units.append((str(unit[0]).upper(), str(unit[1])))
            else:
                units.append((str(_get(unit, "type")).upper(),
                              str(_get(unit, "location", _get(unit, "territory")))))
        states.append(StartingState(
            name=str(_get(s, "name", name)).upper(), capital=str(_get(s, "capital")),
            territories=tuple(str(x) for x in _get(s, "territories", ())),
            units=tuple(units), gold=int(_get(s, "gold", 50) or 50),
            forts=tuple(str(x) for x in (_get(s, "forts", ()) or ()))))
    return make_board(territories, edges, states)
