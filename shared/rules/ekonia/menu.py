"""A short menu of orders a state could give: per group of units and per territory, each
template checked alone against the state (together they may cost more than the treasury)."""
from __future__ import annotations

from collections import Counter

from . import catalogue as C
from .board import Board
from .orders import (
    AttackPrivateers,
    Buy,
    Diplomacy,
    Disband,
    HideCities,
    Improve,
    Load,
    Morale,
    Move,
    Order,
    Rebase,
    Spy,
)
from .planning import plan_orders, planned_units
from .position import Ekonia
from .state import at_war, territories_of, trading


def possible_orders(state: Ekonia, board: Board, power: str) -> dict[str, list[str]]:
    if power not in state.powers or not state.powers[power].alive:
        return {}
    start = planned_units(state, power)

    def _ok(state: Ekonia, board: Board, power: str, order: Order) -> bool:
        """The order alone passes the check (each template planned from the same units)."""
        return not plan_orders(state, board, power, [order], count_expected=True, start=start).reasons

    menu: dict[str, list[str]] = {}
    groups = Counter((u.location, u.type, u.stored) for u in state.units.values()
                     if u.owner == power and u.aboard is None)
    for (loc, unit_type, stored), count in sorted(groups.items()):
        label = f"{count} {unit_type}{' stored' if stored else ''} at {loc}"
        options = group_options(state, board, power, loc, unit_type, count)
        menu[label] = [o.text() for o in options if _ok(state, board, power, o)]
    for tid in territories_of(state, power):
        found = [o.text() for o in site_options(board, tid) if _ok(state, board, power, o)]
        if found:
            menu[tid] = found
    menu["general"] = [o.text() for o in general_options(state, board, power) if _ok(state, board, power, o)]
    return menu


def group_options(state: Ekonia, board: Board, power: str, loc: str, unit_type: str, count: int) -> list[Order]:
    """What a group of ``count`` like units at ``loc`` might be ordered, before the check: an
    airship rebases; others move (cavalry two steps on land), board ships (land units); all disband."""
    options: list[Order] = []
    if unit_type == "AIRSHIP":
        options += [Rebase(1, loc, t) for t in territories_of(state, power) if t != loc]
    else:
        options += [Move(count, unit_type, (loc, t)) for t in sorted(_reach(board, loc, unit_type) - {loc})]
        if unit_type in C.LAND_TYPES:
            options += [Load(count, unit_type, loc, s) for s in sorted(board.sea_neighbours(loc))]
    options.append(Disband(count, unit_type, loc))
    return options


def _reach(board: Board, loc: str, unit_type: str) -> set[str]:
    reach = set(board.neighbours(loc))
    if unit_type == "CAVALRY":
        reach |= {m for n in board.land_neighbours(loc) for m in board.land_neighbours(n)}
    return reach


def site_options(board: Board, tid: str) -> list[Order]:
    """What might be bought or built in an owned territory: every unit, ships into each
    neighbouring sea, and each improvement."""
    options: list[Order] = [Buy(1, t, tid) for t in C.UNIT_TYPES]
    options += [Buy(1, t, tid, s) for t in ("TRIREME", "TRANSPORT") for s in sorted(board.sea_neighbours(tid))]
    options += [Improve(k, tid) for k in ("FORT", "SHIPYARD", "GASVENT")]
    return options


def general_options(state: Ekonia, board: Board, power: str) -> list[Order]:
    """The orders of no unit and no place: morale, hidden cities, counter-espionage, attacks on
    privateers, and toward each other living state spying and diplomacy."""
    general: list[Order] = [Morale(1), Morale(2), Morale(3), HideCities(3), HideCities(5),
                            Spy("COUNTER ALL", None)]
    general += [AttackPrivateers(sea) for sea in _privateer_seas(state, board, power)]
    for other in sorted(state.powers):
        if other != power and state.powers[other].alive:
            general += _toward(state, power, other)
    return general


def _privateer_seas(state: Ekonia, board: Board, power: str) -> list[str]:
    """Any state may attack privateers without war (R42): where its ships are or can sail."""
    ships = {u.location for u in state.units.values() if u.owner == power
             and C.UNIT_TYPES[u.type].naval and u.location in board.territories}
    return sorted({s for loc in ships for s in ({loc} | set(board.neighbours(loc))) if board.territory(s).is_sea})


def _toward(state: Ekonia, power: str, other: str) -> list[Order]:
    return [Spy("MAP", other), Spy("RECORDS", other), Spy("COUNTER", other),
            Diplomacy("PEACE" if at_war(state, power, other) else "WAR", other),
            Diplomacy("END TRADE" if trading(state, power, other) else "TRADE", other)]
