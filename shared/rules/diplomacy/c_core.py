"""The C core of the contract's movement phase, when it was built, set up on the standard map.

``core_src/`` (the extension ``_core``) reads, resolves and writes a movement-phase document
with its board, orders and decisions in C arrays, for the documents it takes (docs/rules/c_core.md: standard map,
canonical order texts for the units standing there, every order legal, no rule switches), and
answers None for every other one. ``adjudicate_document`` (document.py) asks it first; the
Python engine stays the reference and takes whatever the core leaves.

The core is used when the install built it and the engine runs compiled: with
``ENTENTE_PURE_PYTHON=1`` set, without a C compiler, or in a checkout whose core sources are
newer than the build (build.py, ``c_core_runs``), the Python engine takes every document.
``ENTENTE_NO_C_CORE=1`` turns off only the core (the equality tests compare the two ways in one
process with ``movement_document``).
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .build import C_CORE_SWITCH, c_core_runs, c_core_switched_off, engine_build
from .geography import GameMap, load_map

Core = Callable[[dict[str, Any]], "dict[str, Any] | None"]


def map_tables(game_map: GameMap) -> tuple[list[Any], ...]:
    """The map as ``_core.setup`` takes it: provinces in name order (their numbers are the
    core's slots), then the coasts; adjacency as numbers, sorted as the outputs sort them."""
    provinces = sorted(game_map.provinces)
    coasts = sorted(loc for p in provinces for loc in game_map.fleet_locations(p) if loc != p)
    locations = provinces + coasts
    number = {loc: i for i, loc in enumerate(locations)}
    fleet_places = {loc for p in provinces for loc in game_map.fleet_locations(p)}
    location_province = [number[loc.split("/")[0]] for loc in locations]
    army_adjacent = [sorted(number[n] for n in game_map.army_neighbours(p)) for p in provinces]
    fleet_adjacent = [sorted((number[n] for n in game_map.fleet_neighbours(loc)), key=lambda i: locations[i])
                      if loc in fleet_places else [] for loc in locations]
    powers = sorted(game_map.powers)
    return (
        provinces, locations, location_province, army_adjacent, fleet_adjacent,
        [int(game_map.is_land(p)) for p in provinces],
        [int(loc in fleet_places) for loc in locations],
        [int(game_map.is_sea(p)) for p in provinces],
        [int(game_map.is_coastal(p)) for p in provinces],
        [int(game_map.is_split(p)) for p in provinces],
        [int(p in game_map.supply_centres) for p in provinces],
        powers,
        [sorted(number[h] for h in game_map.home_centres.get(power, ())) for power in powers],
    )


_NOT_RUNNING = {"why": ""}  # why the core is not used in this process, once load_core has decided


def load_core() -> Core | None:
    """The core's ``movement_document`` set up on the standard map, or None when the core is
    not built or not to be used (build.py, ``c_core_runs``: the module's docstring says when)."""
    try:
        # (a C module: no stub for mypy, and absent where nothing was compiled)
        from ._core import __file__ as built  # type: ignore[import-not-found, import-untyped, unused-ignore]
        from ._core import movement_document, setup
    except ImportError:
        _NOT_RUNNING["why"] = "the C core was not built"
        return None
    if not c_core_runs(built):
        _NOT_RUNNING["why"] = (f"{C_CORE_SWITCH} is set" if c_core_switched_off()
                               else "the C core is older than its sources")
        return None
    setup(*map_tables(load_map("standard")))
    core: Core = movement_document
    return core


MOVEMENT_DOCUMENT: Core | None = load_core()
"""``movement_document(doc)``: the output document, or None (the Python engine's to do)."""


ENGINE_BUILDS = ("pure", "compiled", "compiled-c-core")
"""The engine's three builds (docs/architecture.md, "The engine's three builds"): the Python
sources; the modules compiled with mypyc; compiled, with this C core taking the movement-phase
documents it can."""


def running_build() -> tuple[str, str]:
    """Which of ``ENGINE_BUILDS`` adjudicates in this process, and why not a faster one ("" when
    none could run: ``entente --version``, ``/healthz``)."""
    build = engine_build()
    if build != "compiled":  # "pure Python", or "pure Python (ENTENTE_PURE_PYTHON is set)"
        return "pure", build.partition("(")[2].rstrip(")") or "nothing was compiled at install"
    if MOVEMENT_DOCUMENT is not None:
        return "compiled-c-core", ""
    return "compiled", _NOT_RUNNING["why"]
