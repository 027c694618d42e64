"""Civil disorder: which units a power loses when it does not (fully) order its removals.

DATC 4.D.8 and 6.J: units farthest from home go first; at equal distance fleets before
armies; then alphabetically by the province's English name. How distance is counted
depends on the edition of the rules:

- ``"2000"`` (Avalon Hill 2000, fourth edition, the default): the number of moves to reach
  any of the power's *home* supply centres (owned or not). Fleets count fleet moves (coasts
  matter: St Petersburg is reached from either coast); armies may step over land and sea
  provinces alike, as if convoyed (the most common reading before 2023, DATC 4.D.8).
- ``"2023"``: the number of moves to the nearest supply centre the power *owns*, armies and
  fleets alike stepping over land and sea provinces.

A unit that cannot reach any target at all counts as infinitely far and goes first.
"""
from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Sequence
from typing import Final

from .geography import GameMap
from .orders import Unit, UnitType, province_of
from .position import Power

EDITIONS: Final = ("2000", "2023")
UNREACHABLE: Final = 10**6


def check_edition(edition: str) -> str:
    if edition not in EDITIONS:
        raise ValueError(f"unknown rules edition {edition!r}; expected one of {', '.join(EDITIONS)}")
    return edition


def forced_removals(
    units: Sequence[Unit],
    count: int,
    *,
    power: Power,
    owned_centres: Iterable[str],
    game_map: GameMap,
    edition: str = "2000",
) -> list[Unit]:
    """The ``count`` units to remove, in the order the civil-disorder rule takes them."""
    if count <= 0:
        return []
    ranked = sorted(
        units,
        key=lambda unit: (
            -unit_distance(unit, power=power, owned_centres=owned_centres, game_map=game_map, edition=edition),
            0 if unit.type is UnitType.FLEET else 1,
            game_map.provinces[unit.province].name.upper(),
        ),
    )
    return ranked[:count]


def unit_distance(
    unit: Unit, *, power: Power, owned_centres: Iterable[str], game_map: GameMap, edition: str = "2000"
) -> int:
    """Moves from the unit to the nearest target centre, counted as the edition says."""
    if check_edition(edition) == "2023":
        targets = frozenset(owned_centres)
        return _distance(unit.province, targets, lambda p: _any_step(game_map, p), province_of)
    targets = game_map.home_centres.get(power, frozenset())
    if unit.type is UnitType.FLEET:
        return _distance(unit.location, targets, game_map.fleet_neighbours, province_of)
    return _distance(unit.province, targets, lambda p: _any_step(game_map, p), province_of)


def _any_step(game_map: GameMap, province: str) -> frozenset[str]:
    """Provinces one step away over land or sea, whatever the unit type."""
    steps = set(game_map.army_neighbours(province))
    for location in game_map.fleet_locations(province):
        steps.update(province_of(n) for n in game_map.fleet_neighbours(location))
    return frozenset(steps)


def _distance(
    start: str,
    targets: frozenset[str],
    neighbours: Callable[[str], Iterable[str]],
    province: Callable[[str], str],
) -> int:
    """Breadth-first search from ``start`` to any node whose province is a target."""
    if not targets:
        return UNREACHABLE
    seen = {start}
    frontier: deque[tuple[str, int]] = deque([(start, 0)])
    while frontier:
        node, steps = frontier.popleft()
        if province(node) in targets:
            return steps
        for nxt in neighbours(node):
            if nxt not in seen:
                seen.add(nxt)
                frontier.append((nxt, steps + 1))
    return UNREACHABLE
