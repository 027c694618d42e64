"""After the battles: who takes, neutralises or keeps each land territory.

A neutral territory is taken at the end of a turn by the only state whose troops stand there
with a strength (attack values) of at least 2.5. An enemy territory held alone by another
state's troops turns neutral that turn (its capital moves, its fort's stored fleets, ship yard,
gas vent and based airships are lost), and can be taken from the next turn on.

"Alone" is decided by what the map shows (docs/rules/ekonia.md, "Hidden troops and
captures"): where the map shows troops, only the states it shows there take part, with all
their troops; other states' hidden troops neither block nor help. Where it shows none, the
only state with troops there acts; hidden troops of several states block each other, and only
they learn it (``not held alone``).
"""
from __future__ import annotations

from collections.abc import Collection, Mapping

from . import catalogue as C
from .board import Board
from .records import Event
from .state import State


def occupiers(state: State, tid: str) -> dict[str, float]:
    """Land troops standing in ``tid`` (not aboard ships), as attack strength per state."""
    found: dict[str, float] = {}
    for unit in state["units"].values():
        if unit["location"] == tid and unit["type"] in C.LAND_TYPES and unit["aboard"] is None:
            found[unit["owner"]] = found.get(unit["owner"], 0.0) + C.UNIT_TYPES[unit["type"]].attack
    return found


def contenders(state: State, tid: str, shown: Collection[str] | None) -> tuple[set[str], bool]:
    """The states whose troops decide who holds ``tid``, and whether the map shows them:
    those whose troops the map shows there (``shown``: the ids of the units it shows; None:
    every unit), or, when it shows none, every state with troops there."""
    troops = occupiers(state, tid)
    if shown is None:
        return set(troops), True
    seen = {u["owner"] for u in state["units"].values()
            if u["location"] == tid and u["owner"] in troops and u["id"] in shown}
    return (seen, True) if seen else (set(troops), False)


def would_act(state: State, owner: str | None, taker: str) -> bool:
    """Whether troops of ``taker`` alone would take or neutralise land of ``owner``."""
    return owner is None or (owner != taker and sorted([owner, taker]) in state["wars"])


def apply_captures(state: State, board: Board, turn: int, razes: Mapping[str, set[str]],
                   shown: Collection[str] | None = None) -> list[Event]:
    """Change owners in place (``state`` is the turn's working copy); return what happened.
    ``shown``: the ids of the units the map published after the turn shows (None: all)."""
    events: list[Event] = []
    for tid in sorted(state["territories"]):
        terr = state["territories"][tid]
        troops = occupiers(state, tid)
        deciding, on_the_map = contenders(state, tid, shown)
        if len(deciding) != 1:
            if not troops:
                terr["converting"] = None
            elif not on_the_map:  # hidden troops of several states: each that failed learns it
                events.extend({"event": "not held alone", "territory": tid, "by": p} for p in sorted(deciding)
                              if would_act(state, terr["owner"], p))
            continue
        (taker,) = deciding
        strength = troops[taker]
        owner = terr["owner"]
        if owner == taker:
            terr["converting"] = None
            continue
        if not would_act(state, owner, taker):
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
    if loser is None:
        raise ValueError(f"{tid} is neutral: nobody loses it")
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
