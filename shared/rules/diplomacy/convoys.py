"""Convoy routes: which chains of fleets can carry an army from one coast to another.

Pure graph helpers. A *route* is a chain of fleets in sea provinces, each adjacent to
the next, the first adjacent to the army's province and the last to the destination.
``sea_neighbours`` maps each fleet's sea province to the provinces it borders.
"""
from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping


def route_exists(
    origin: str,
    destination: str,
    fleets: Iterable[str],
    sea_neighbours: Mapping[str, frozenset[str]],
    usable: Callable[[str], bool] | None = None,
) -> bool:
    """Whether some chain of ``fleets`` (sea provinces) joins ``origin`` to ``destination``.

    ``usable`` is asked lazily, only about fleets the search reaches, in a fixed order
    (sorted provinces), so a caller can make it an expensive or order-sensitive decision.
    """
    remaining = sorted(fleets)
    frontier = [f for f in remaining if origin in sea_neighbours[f]]
    seen: set[str] = set()
    while frontier:
        fleet = frontier.pop(0)
        if fleet in seen:
            continue
        seen.add(fleet)
        if usable is not None and not usable(fleet):
            continue
        if destination in sea_neighbours[fleet]:
            return True
        frontier.extend(f for f in remaining if f not in seen and f in sea_neighbours[fleet])
    return False


def fleets_on_some_route(
    origin: str,
    destination: str,
    fleets: Collection[str],
    sea_neighbours: Mapping[str, frozenset[str]],
) -> frozenset[str]:
    """The fleets that lie on at least one *necessary* route from origin to destination.

    A route is necessary when no fleet on it could be skipped: no fleet but the first
    borders the origin, none but the last borders the destination, and no two fleets
    that are not consecutive border each other (DATC 4.E.1 and 6.G.19: a convoy order of
    a fleet that is necessary for no route is illegal).
    """
    on_route: set[str] = set()
    ordered = sorted(fleets)
    for first in ordered:
        if origin in sea_neighbours[first] and first != destination:
            _extend([first], origin, destination, ordered, sea_neighbours, on_route)
    return frozenset(on_route)


def _extend(path: list[str], origin: str, destination: str, ordered: list[str],
            sea_neighbours: Mapping[str, frozenset[str]], on_route: set[str]) -> None:
    """Add to ``on_route`` the fleets of every necessary route that continues ``path``. (A
    function of its own, not a closure: a closure that calls itself is a reference cycle, left
    for the garbage collector at every phase with a convoy.)"""
    last = path[-1]
    if destination in sea_neighbours[last]:
        on_route.update(path)
        return
    for fleet in ordered:
        if fleet in path or fleet not in sea_neighbours[last]:
            continue
        if origin in sea_neighbours[fleet]:
            continue  # the route could have started at this fleet
        if any(fleet in sea_neighbours[earlier] for earlier in path[:-1]):
            continue  # an earlier fleet could have passed the army on directly
        path.append(fleet)
        _extend(path, origin, destination, ordered, sea_neighbours, on_route)
        path.pop()
