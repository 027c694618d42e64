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
from .planning import plan_orders
from .state import State, at_war, territories_of, trading


def _ok(state: State, board: Board, power: str, order: Order) -> bool:
    return not plan_orders(state, board, power, [order], count_expected=True).reasons


def possible_orders(state: State, board: Board, power: str) -> dict[str, list[str]]:
    if power not in state["powers"] or not state["powers"][power]["alive"]:
        return {}
    menu: dict[str, list[str]] = {}
    groups = Counter((u["location"], u["type"], u["stored"]) for u in state["units"].values()
                     if u["owner"] == power and u["aboard"] is None)
    for (loc, unit_type, stored), count in sorted(groups.items()):
        options: list[Order] = []
        if unit_type == "AIRSHIP":
            options += [Rebase(1, loc, t) for t in territories_of(state, power) if t != loc]
        else:
            reach = board.neighbours(loc)
            if unit_type == "CAVALRY":
                reach = reach | {m for n in board.land_neighbours(loc) for m in board.land_neighbours(n)}
            options += [Move(count, unit_type, (loc, t)) for t in sorted(reach - {loc})]
            if unit_type in C.LAND_TYPES:
                options += [Load(count, unit_type, loc, s) for s in sorted(board.sea_neighbours(loc))]
        options.append(Disband(count, unit_type, loc))
        label = f"{count} {unit_type}{' stored' if stored else ''} at {loc}"
        menu[label] = [o.text() for o in options if _ok(state, board, power, o)]
    for tid in territories_of(state, power):
        options = [Buy(1, t, tid) for t in C.UNIT_TYPES]
        options += [Buy(1, t, tid, s) for t in ("TRIREME", "TRANSPORT")
                    for s in sorted(board.sea_neighbours(tid))]
        options += [Improve(k, tid) for k in ("FORT", "SHIPYARD", "GASVENT")]
        found = [o.text() for o in options if _ok(state, board, power, o)]
        if found:
            menu[tid] = found
    general: list[Order] = [Morale(1), Morale(2), Morale(3), HideCities(3), HideCities(5),
                            Spy("COUNTER ALL", None)]
    # any state may attack privateers without war (R42): where its ships are or can sail
    ships = {u["location"] for u in state["units"].values() if u["owner"] == power
             and C.UNIT_TYPES[u["type"]].naval and u["location"] in board.territories}
    seas = {s for loc in ships for s in ({loc} | set(board.neighbours(loc))) if board.territory(s).is_sea}
    general += [AttackPrivateers(sea) for sea in sorted(seas)]
    for other in sorted(state["powers"]):
        if other == power or not state["powers"][other]["alive"]:
            continue
        general += [Spy("MAP", other), Spy("RECORDS", other), Spy("COUNTER", other)]
        general.append(Diplomacy("PEACE" if at_war(state, power, other) else "WAR", other))
        general.append(Diplomacy("END TRADE" if trading(state, power, other) else "TRADE", other))
    menu["general"] = [o.text() for o in general if _ok(state, board, power, o)]
    return menu
