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
from dataclasses import dataclass, field, replace

from . import catalogue as C
from .board import Board
from .position import Conversion, Ekonia, Holding, Realm
from .records import Event, Unit
from .state import pair


@dataclass
class _Holdings:
    """What captures change, as they change it one territory after another: each territory,
    unit and state replaced by its next record (a later territory reads the earlier changes)."""

    territories: dict[str, Holding]
    units: dict[str, Unit]
    powers: dict[str, Realm]
    events: list[Event] = field(default_factory=list)

    def put(self, tid: str, terr: Holding) -> Holding:
        """``tid`` is ``terr`` from now on."""
        self.territories[tid] = terr
        return terr


def occupiers(units: Collection[Unit], tid: str) -> dict[str, float]:
    """Land troops standing in ``tid`` (not aboard ships), as attack strength per state."""
    found: dict[str, float] = {}
    for unit in units:
        if unit.location == tid and unit.type in C.LAND_TYPES and unit.aboard is None:
            found[unit.owner] = found.get(unit.owner, 0.0) + C.UNIT_TYPES[unit.type].attack
    return found


def contenders(units: Collection[Unit], tid: str, shown: Collection[str] | None) -> tuple[set[str], bool]:
    """The states whose troops decide who holds ``tid``, and whether the map shows them:
    those whose troops the map shows there (``shown``: the ids of the units it shows; None:
    every unit), or, when it shows none, every state with troops there."""
    troops = occupiers(units, tid)
    if shown is None:
        return set(troops), True
    seen = {u.owner for u in units if u.location == tid and u.owner in troops and u.id in shown}
    return (seen, True) if seen else (set(troops), False)


def would_act(state: Ekonia, owner: str | None, taker: str) -> bool:
    """Whether troops of ``taker`` alone would take or neutralise land of ``owner``."""
    return owner is None or (owner != taker and pair(owner, taker) in state.wars)


def apply_captures(state: Ekonia, board: Board, turn: int, razes: Mapping[str, set[str]],
                   shown: Collection[str] | None = None) -> tuple[Ekonia, list[Event]]:
    """Who holds each land territory at the end of the turn: the state with its new owners,
    and what happened. ``shown``: the ids of the units the map published after the turn shows
    (None: all)."""
    held = _Holdings(dict(state.territories), dict(state.units), dict(state.powers))
    for tid in sorted(state.territories):
        _decide(state, board, held, tid, turn, razes, shown)
    return replace(state, territories=held.territories, units=held.units, powers=held.powers), held.events


def _decide(state: Ekonia, board: Board, held: _Holdings, tid: str, turn: int,
            razes: Mapping[str, set[str]], shown: Collection[str] | None) -> None:
    """One territory: kept, neutralised, razed or taken (the module's docstring)."""
    units = held.units.values()
    terr = held.territories[tid]
    troops = occupiers(units, tid)
    deciding, on_the_map = contenders(units, tid, shown)
    if len(deciding) != 1:
        if not troops:
            held.put(tid, replace(held.territories[tid], converting=None))
        elif not on_the_map:  # hidden troops of several states: each that failed learns it
            held.events.extend({"event": "not held alone", "territory": tid, "by": p} for p in sorted(deciding)
                               if would_act(state, terr.owner, p))
        return
    (taker,) = deciding
    owner = terr.owner
    if owner == taker:
        held.put(tid, replace(held.territories[tid], converting=None))
        return
    if not would_act(state, owner, taker):
        return  # peace was made this turn: no conquest between states at peace
    if owner is not None:
        lose_territory(held, board, tid, taker)
        terr = held.put(tid, replace(held.territories[tid], converting=Conversion(taker, turn)))
    if terr.fort and tid in razes.get(taker, set()):
        held.put(tid, replace(held.territories[tid], fort=False))
        held.events.append({"event": "fort razed", "territory": tid, "by": taker})
    if owner is not None:
        return
    if troops[taker] + 1e-9 >= C.NEUTRAL_CAPTURE_STRENGTH:
        gain_territory(held, board, tid, taker)
    else:
        held.put(tid, replace(held.territories[tid], converting=None))
        held.events.append({"event": "too weak to take", "territory": tid, "by": taker, "strength": troops[taker]})


def lose_territory(held: _Holdings, board: Board, tid: str, taker: str | None) -> None:
    terr = held.territories[tid]
    loser = terr.owner
    if loser is None:
        raise ValueError(f"{tid} is neutral: nobody loses it")
    held.events.append({"event": "neutralised", "territory": tid, "from": loser, "by": taker})
    terr = held.put(tid, replace(held.territories[tid], owner=None))
    lost = [u.id for u in held.units.values() if u.location == tid and u.owner == loser]
    for uid in lost:
        del held.units[uid]
    if lost:
        held.events.append({"event": "stored units lost", "territory": tid, "owner": loser, "units": lost})
    if terr.shipyard or terr.gas_vent:
        held.events.append({"event": "improvements razed", "territory": tid, "owner": loser,
                            "shipyard": terr.shipyard, "gas_vent": terr.gas_vent})
        held.put(tid, replace(held.territories[tid], shipyard=False, gas_vent=False))
    power = held.powers[loser]
    if power.capital == tid:
        capital = _next_capital(held, board, loser, tid)
        held.powers[loser] = replace(power, capital=capital)
        held.events.append({"event": "capital moved", "power": loser, "from": tid, "to": capital})


def _next_capital(held: _Holdings, board: Board, power: str, old: str) -> str | None:
    cities: list[str] = [t for t, terr in held.territories.items() if terr.owner == power and terr.city]
    if not cities:
        return None
    return min(cities, key=lambda t: (board.distance(old, t), t))


def gain_territory(held: _Holdings, board: Board, tid: str, taker: str) -> None:
    terr = held.put(tid, replace(held.territories[tid], owner=taker, converting=None))
    held.events.append({"event": "taken", "territory": tid, "by": taker})
    power = held.powers[taker]
    if power.capital is None and terr.city:
        held.powers[taker] = replace(power, capital=tid)
        held.events.append({"event": "capital moved", "power": taker, "from": None, "to": tid})
    terrs = held.territories
    if terr.fort and any(terrs[n].fort and terrs[n].owner == taker for n in board.land_neighbours(tid) if n in terrs):
        held.put(tid, replace(held.territories[tid], fort=False))
        held.events.append({"event": "fort razed", "territory": tid, "by": taker,
                            "reason": "a state may not hold forts in adjacent tiles"})
