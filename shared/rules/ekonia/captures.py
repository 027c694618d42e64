"""After the battles: who takes, neutralises or keeps each land territory.

A neutral territory is taken at the end of a turn by the only state whose troops stand there
with a strength (attack values) of at least 2.5. An enemy territory held alone by another
state's troops turns neutral that turn (its capital moves, its fort's stored fleets, ship yard,
gas vent and based airships are lost), and can be taken from the next turn on.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from . import catalogue as C
from .board import Board
from .state import State

Event = dict[str, Any]


def occupiers(state: State, tid: str) -> dict[str, float]:
    """Land troops standing in ``tid`` (not aboard ships), as attack strength per state."""
    found: dict[str, float] = {}
    for unit in state["units"].values():
        if unit["location"] == tid and unit["type"] in C.LAND_TYPES and unit["aboard"] is None:
            found[unit["owner"]] = found.get(unit["owner"], 0.0) + C.UNIT_TYPES[unit["type"]].attack
    return found


def apply_captures(state: State, board: Board, turn: int,
                   razes: Mapping[str, set[str]]) -> list[Event]:
    """Change owners in place (``state`` is the turn's working copy); return what happened."""
    events: list[Event] = []
    for tid in sorted(state["territories"]):
        terr = state["territories"][tid]
        troops = occupiers(state, tid)
        if len(troops) != 1:
            if not troops:
                terr["converting"] = None
            continue
        (taker, strength), = troops.items()
        owner = terr["owner"]
        if owner == taker:
            terr["converting"] = None
            continue
        if owner is not None and sorted([owner, taker]) not in state["wars"]:
            continue  # peace was made this turn: no conquest between states at peace
        if owner is not None:
            events.extend(lose_territory(state, board, tid, taker, turn))
            terr["converting"] = {"by": taker, "since": turn}
        if terr["fort"] and tid in razes.get(taker, set()):
            terr["fort"] = False
            events.append({"event": "fort razed", "territory": tid, "by": taker})
        if owner is not None:
            continue
        if strength + 1e-9 >= C.NEUTRAL_CAPTURE_STRENGTH:
            events.extend(gain_territory(state, board, tid, taker))
        else:
            terr["converting"] = None
            events.append({"event": "too weak to take", "territory": tid, "by": taker,
                           "strength": strength})
    return events


def lose_territory(state: State, board: Board, tid: str, taker: str | None, turn: int) -> list[Event]:
    terr = state["territories"][tid]
    loser = terr["owner"]
    events: list[Event] = [{"event": "neutralised", "territory": tid, "from": loser, "by": taker}]
    terr["owner"] = None
    lost = [u["id"] for u in state["units"].values()
            if u["location"] == tid and u["owner"] == loser]
    for uid in lost:
        del state["units"][uid]
    if lost:
        events.append({"event": "stored units lost", "territory": tid, "owner": loser, "units": lost})
    if terr["shipyard"] or terr["gas_vent"]:
        events.append({"event": "improvements razed", "territory": tid, "owner": loser,
                       "shipyard": terr["shipyard"], "gas_vent": terr["gas_vent"]})
        terr["shipyard"] = terr["gas_vent"] = False
    power = state["powers"][loser]
    if power["capital"] == tid:
        power["capital"] = _next_capital(state, board, loser, tid)
        events.append({"event": "capital moved", "power": loser, "from": tid,
                       "to": power["capital"]})
    return events


def _next_capital(state: State, board: Board, power: str, old: str) -> str | None:
    cities: list[str] = [t for t, terr in state["territories"].items()
                         if terr["owner"] == power and terr["city"]]
    if not cities:
        return None
    return min(cities, key=lambda t: (board.distance(old, t), t))


def gain_territory(state: State, board: Board, tid: str, taker: str) -> list[Event]:
    terr = state["territories"][tid]
    terr["owner"], terr["converting"] = taker, None
    events: list[Event] = [{"event": "taken", "territory": tid, "by": taker}]
    power = state["powers"][taker]
    if power["capital"] is None and terr["city"]:
        power["capital"] = tid
        events.append({"event": "capital moved", "power": taker, "from": None, "to": tid})
    if terr["fort"] and any(state["territories"][n]["fort"] and state["territories"][n]["owner"] == taker
                            for n in board.land_neighbours(tid) if n in state["territories"]):
        terr["fort"] = False
        events.append({"event": "fort razed", "territory": tid, "by": taker,
                       "reason": "a state may not hold forts in adjacent tiles"})
    return events
