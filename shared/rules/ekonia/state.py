"""The opening document, phase names, and the small questions the engine asks of a position
(``position.Ekonia``: who owns a territory, who is at war, what a state earns).

Everything that some players must not see is its own field, so that the per-player views can
leave it out: stored units (``stored``), privateer owners (``privateer``), hidden units
(``hidden_until``), ship yards and gas vents, gold, spending per place, espionage knowledge.
"""
from __future__ import annotations

import re
from collections.abc import Iterable

from .board import CAPITAL_INCOME, CITY_INCOME, TILE_INCOME, Board
from .position import Ekonia, Pair
from .records import EkoniaState, UnitRecord, age_order

State = EkoniaState  # the stored document (records.py); the engine computes on ``Ekonia`` (position.py)


def phase_name(turn: int) -> str:
    return f"T{turn:02d}"


_PHASE = re.compile(r"T(\d{1,6})", re.ASCII)


def turn_of(phase: str) -> int:
    """The turn number of a phase name ``T07``; raises ValueError on anything else."""
    match = _PHASE.fullmatch(str(phase).strip().upper())
    if match is None or int(match.group(1)) < 1:
        raise ValueError(f"not an Ekonia phase: {phase!r} (expected like T01)")
    return int(match.group(1))


def new_unit(state: State, owner: str, unit_type: str, location: str, turn: int, *,
             stored: bool = False) -> UnitRecord:
    """Add a unit with the owner's next id (``FRANCE-7``) and return it."""
    power = state["powers"][owner]
    uid = f"{owner}-{power['next_unit']}"
    power["next_unit"] += 1
    unit: UnitRecord = {"id": uid, "type": unit_type, "owner": owner, "location": location,
            "stored": stored, "privateer": False, "built": turn, "aboard": None,
            "hidden_until": None}
    state["units"][uid] = unit
    return unit


def initial_state(board: Board, powers: Iterable[str] | None = None) -> State:
    """Turn 1: every state with its territories, capital, starting units and gold."""
    chosen = sorted(powers) if powers is not None else sorted(board.states)
    state: State = {
        "variant": "ekonia", "turn": 1,
        "powers": {}, "territories": {}, "sea_lanes": {}, "units": {},
        "wars": [], "war_since": {}, "trade": [], "knowledge": {}, "spending": {},
        "ledger": {}, "last_turn": {}, "winners": [],
    }
    for tid, terr in sorted(board.territories.items()):
        if terr.is_sea:
            if terr.sea_lane:
                state["sea_lanes"][tid] = {"controller": None, "privateer": False}
            continue
        state["territories"][tid] = {"owner": None, "city": terr.city, "fort": False,
                                     "shipyard": False, "gas_vent": False, "converting": None}
    for name in chosen:
        start = board.states[name]
        state["powers"][name] = {"gold": start.gold, "capital": start.capital, "alive": True,
                                 "next_unit": 1, "refund_due": 0, "spared": [],
                                 "hide_cities": None}
        state["knowledge"][name] = []
        state["spending"][name] = {}
        for tid in {*start.territories, start.capital}:
            state["territories"][tid]["owner"] = name
        state["territories"][start.capital]["city"] = True  # a capital is a city with a bonus
        for tid in start.forts:
            state["territories"][tid]["fort"] = True
        for unit_type, location in start.units:
            new_unit(state, name, unit_type, location, 0)
    return state


def owner_of(state: Ekonia, tid: str) -> str | None:
    terr = state.territories.get(tid)
    return terr.owner if terr else None


def capital_owner(state: Ekonia, tid: str) -> str | None:
    for name, power in state.powers.items():
        if power.capital == tid:
            return name
    return None


def is_fort(state: Ekonia, tid: str) -> bool:
    terr = state.territories.get(tid)
    return bool(terr and terr.fort)


def improvement_of(state: Ekonia, board: Board, tid: str) -> str:
    """fort, capital, city or tile: what the public map shows of a land territory."""
    if is_fort(state, tid):
        return "fort"
    if capital_owner(state, tid):
        return "capital"
    if state.territories[tid].city:
        return "city"
    return "tile"


def base_income(state: Ekonia, board: Board, tid: str) -> int:
    terr = state.territories.get(tid)
    if terr is None:
        return 0
    if terr.owner and state.powers[terr.owner].capital == tid:
        return CAPITAL_INCOME
    return CITY_INCOME if terr.city else TILE_INCOME


def territories_of(state: Ekonia, power: str) -> list[str]:
    return sorted(t for t, terr in state.territories.items() if terr.owner == power)


def bti(state: Ekonia, board: Board, power: str) -> int:
    """Base tile income: capital, cities and other tiles the power owns."""
    return sum(base_income(state, board, t) for t in territories_of(state, power))


PRIVATEER_PARTY = "/privateers"  # a state's privateers in a battle fight as a party of their own (D30)


def party_of(unit: UnitRecord) -> str:
    """Whom a unit fights for in a battle: its state under its flag, or its state's privateers
    as a party of their own, never merged with the flag, since the map shows no owner (D30)."""
    return str(unit["owner"]) + (PRIVATEER_PARTY if unit["privateer"] else "")


def state_of(party: str) -> str:
    """The state behind a party of a battle (itself, or the owner of those privateers)."""
    return party.removesuffix(PRIVATEER_PARTY)


def is_privateer_party(party: str) -> bool:
    return party.endswith(PRIVATEER_PARTY)


def unit_order(unit: UnitRecord) -> tuple[int, str, int]:
    """Oldest first: the order in which groups are picked for orders and survive battles."""
    return age_order(unit["id"], unit["built"])



def pair(a: str, b: str) -> Pair:
    """Two states as the wars and trade agreements name them: sorted."""
    return (a, b) if a <= b else (b, a)


def at_war(state: Ekonia, a: str, b: str) -> bool:
    return pair(a, b) in state.wars


def trading(state: Ekonia, a: str, b: str) -> bool:
    return pair(a, b) in state.trade


def alive_powers(state: Ekonia) -> list[str]:
    return sorted(p for p, power in state.powers.items() if power.alive)


def playing(document: State) -> list[str]:
    """``alive_powers`` of a stored document (the variant asks it of every stored state)."""
    return sorted(p for p, power in document["powers"].items() if power["alive"])
