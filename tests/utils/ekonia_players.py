"""Scripted players of a whole Tale of Ekonia game, deciding from their own view only (what
the platform shows them), so that the script works whatever the dice of the game's seed.

Vieren builds a fort and a ship yard, holds the Serane Sound lane, trades with Paresque, spies
on it (Steal Map, investigations), then declares war, takes the fort of Mernesia and the
capital Paresque with overwhelming numbers. Paresque builds a fort with a ship yard, stores a
trireme, and counter-spies. The other states hold.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

PLAYERS = ("VIEREN", "PARESQUE")


def count(view: Mapping[str, Any], unit_type: str, location: str) -> int:
    """How many of the viewer's own free units of a type stand at a place."""
    return sum(1 for u in view["own"]["units"] if u["type"] == unit_type and u["location"] == location
               and not u["stored"] and u["aboard"] is None)


def affordable(view: Mapping[str, Any], price: int, reserve: int = 0, most: int = 12) -> int:
    return max(0, min(most, int((view["own"]["gold"] - reserve) // price)))


def move_all(view: Mapping[str, Any], origin: str, target: str) -> list[str]:
    n = count(view, "INFANTRY", origin)
    return [f"MOVE {n} INFANTRY {origin} -> {target}"] if n else []


def vieren(turn: int, view: Mapping[str, Any]) -> list[str]:
    fixed = {
        1: ["BUY 2 INFANTRY AT vieren", "MOVE 3 INFANTRY vieren -> ninerest",
            "MOVE 1 TRIREME vesk-bay -> ardel-narrows"],
        2: ["FORT inesterl", "SHIPYARD vieren", "MOVE 1 TRIREME ardel-narrows -> serane-sound"],
        3: ["TRADE WITH PARESQUE", "SPY MAP PARESQUE", "BUY 3 INFANTRY AT inesterl"],
    }
    if turn in fixed:
        return fixed[turn]
    if turn == 4:
        return ["BUY 1 INFANTRY AT inesterl", *move_all(view, "inesterl", "dermore")]
    if turn in (5, 6):
        spy = ["SPY INVESTIGATE mernesia"] if turn == 5 else ["SPY INVESTIGATE FLEET mernesia"]
        cost = 15 if turn == 5 else 40
        buy = affordable(view, 10, reserve=cost)
        return [*spy, f"BUY {buy} INFANTRY AT inesterl", *move_all(view, "inesterl", "dermore")]
    if turn == 7:  # the fort of Mernesia: at least ten against its garrison
        return ["WAR ON PARESQUE", *move_all(view, "dermore", "mernesia"),
                f"BUY {affordable(view, 10)} INFANTRY AT inesterl"]
    if turn == 8:
        return [*move_all(view, "inesterl", "dermore"), f"BUY {affordable(view, 10)} INFANTRY AT inesterl"]
    if turn == 9:
        keep = 3 if count(view, "INFANTRY", "mernesia") > 3 else 0
        n = count(view, "INFANTRY", "mernesia") - keep
        attack = [f"MOVE {n} INFANTRY mernesia -> paresque"] if n > 0 else []
        return [*attack, *move_all(view, "dermore", "mernesia"), *move_all(view, "inesterl", "dermore")]
    if turn == 10:
        n = count(view, "INFANTRY", "mernesia") - 3
        return [f"MOVE {n} INFANTRY mernesia -> paresque"] if n > 0 else []
    return [f"BUY {affordable(view, 10, most=2)} INFANTRY AT vieren"] if turn % 3 == 0 else []


def paresque(turn: int, view: Mapping[str, Any]) -> list[str]:
    fixed = {
        1: ["BUY 2 INFANTRY AT paresque", "MOVE 3 INFANTRY paresque -> nikea",
            "MOVE 1 TRIREME talvane-bay -> orrin-narrows"],
        2: ["MOVE 1 TRIREME orrin-narrows -> morvish-sound", "FORT mernesia"],
        3: ["TRADE WITH VIEREN", "SHIPYARD mernesia"],
        4: ["BUY 1 TRIREME AT mernesia", "BUY 1 INFANTRY AT mernesia"],
        5: ["SPY COUNTER VIEREN"],
        6: ["BUY 2 INFANTRY AT paresque"],
    }
    return fixed.get(turn, [])


def orders_for(turn: int, power: str, view: Mapping[str, Any]) -> list[str]:
    if power == "VIEREN":
        return [o for o in vieren(turn, view) if not o.startswith("BUY 0 ")]
    if power == "PARESQUE":
        return paresque(turn, view)
    return []
