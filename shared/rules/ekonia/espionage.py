"""Espionage missions: each succeeds on its own roll of 1-100 against its odds, and what it
finds is written into the spying state's knowledge with the turn it was learnt.

Missions look at the state at the end of the turn (after the battles), which is the position
the spy's owner plans the next turn against. A failed mission teaches nothing; the target
learns of missions against it only through counter-espionage.
"""
from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal, NamedTuple, TypedDict

from . import catalogue as C
from .orders import Spy
from .position import Ekonia
from .records import Knowledge, MissionResult, MissionRoll, Spending, Unit


class Mission(NamedTuple):
    """A mission of the turn: the spying state, the index of its order, the order, its cost."""

    power: str
    order_index: int
    spy: Spy
    cost: int


def mission_roll(seed: int, turn: int, power: str, index: int) -> int:
    return random.Random(f"{seed}:{turn}:spy:{power}:{index}").randint(1, 100)


def target_power(state: Ekonia, spy: Spy) -> str | None:
    """The state a mission is used on (the owner of an investigated territory)."""
    if spy.mission.startswith("INVESTIGATE"):
        terr = state.territories.get(spy.target) if spy.target is not None else None
        return terr.owner if terr is not None else None
    return spy.target


class UnitCount(TypedDict):
    """How many units of one owner and type a mission counted (privateers apart)."""

    owner: str
    type: str
    privateer: bool
    count: int


def _count_units(units: Sequence[Unit]) -> list[UnitCount]:
    counts: dict[tuple[str, str, bool], int] = {}
    for unit in units:
        key = (unit.owner, unit.type, unit.privateer)
        counts[key] = counts.get(key, 0) + 1
    return [{"owner": o, "type": t, "privateer": p, "count": n}
            for (o, t, p), n in sorted(counts.items())]


def findings(state: Ekonia, spy: Spy, power: str, turn: int, spending: Mapping[str, Spending],
             missions: Sequence[Mission], start_targets: Mapping[tuple[str, int], str | None]) -> Any:
    """What a successful mission of ``power`` finds, in the mission's own shape."""
    if spy.mission.startswith("INVESTIGATE"):
        return _investigated(state, spy)
    if spy.mission == "MAP":
        return {"shipyards": _owned_with(state, spy.target, "shipyard"),
                "gas_vents": _owned_with(state, spy.target, "gas_vent")}
    if spy.mission == "RECORDS":
        return _records(state, spy.target, spending)
    return [{"by": who, "mission": m.mission, "target": m.target}
            for who, idx, m, _ in missions
            if who != power and start_targets.get((who, idx)) == power
            and (spy.mission == "COUNTER ALL" or who == spy.target)]


def _investigated(state: Ekonia, spy: Spy) -> Any:
    """INVESTIGATE: the living units, on land or at sea (privateers' owners too); INVESTIGATE
    FLEET: those and the stored ships, in one mission."""
    here = [u for u in sorted(state.units.values(), key=lambda u: u.order) if u.location == spy.target]
    living = _count_units([u for u in here if not u.stored])
    if spy.mission == "INVESTIGATE FLEET":
        return {"units": living, "fleet": _count_units([u for u in here if u.stored])}
    return living


def _owned_with(state: Ekonia, owner: str | None, improvement: Literal["shipyard", "gas_vent"]) -> list[str]:
    return sorted(t for t, terr in state.territories.items()
                  if terr.owner == owner and (terr.shipyard if improvement == "shipyard" else terr.gas_vent))


def _records(state: Ekonia, target: str | None, spending: Mapping[str, Spending]) -> dict[str, int]:
    """RECORDS: gold spent this turn in each city or fort (so no plain land yard shows)."""
    terrs = state.territories
    spent = spending.get(target) if target is not None else None
    return {t: gold for t, gold in (spent["by_location"] if spent is not None else {}).items()
            if t in terrs and (terrs[t].city or terrs[t].fort)}


@dataclass(frozen=True, slots=True)
class MissionOutcome:
    """One mission rolled: the roll against the odds, and what it found if it succeeded.
    ``knowledge`` is what the spying state keeps; ``result_json`` and ``roll_json`` what the
    turn's details keep (the same keys, in the same order, as they always were)."""

    power: str
    index: int  # of its order in the state's submission
    turn: int
    mission: str
    target: str | None
    roll: int
    needed: int
    found: Any  # the mission's own shape (``findings``); None when it failed

    @property
    def success(self) -> bool:
        return self.roll <= self.needed

    def knowledge(self) -> Knowledge:
        return {"turn": self.turn, "mission": self.mission, "target": self.target, "success": self.success,
                "found": self.found}

    def result_json(self) -> MissionResult:
        return {"power": self.power, "index": self.index, **self.knowledge()}

    def roll_json(self) -> MissionRoll:
        return {"kind": "mission", "power": self.power, "mission": self.mission, "target": self.target,
                "roll": self.roll, "needed": self.needed, "success": self.success}


def run_missions(state: Ekonia, turn: int, seed: int, missions: Sequence[Mission],
                 spending: Mapping[str, Spending], start_targets: Mapping[tuple[str, int], str | None]
                 ) -> tuple[Ekonia, list[MissionOutcome]]:
    """Roll every mission: the state with what each taught its spy in its ``knowledge``, and
    each mission's outcome."""
    outcomes = []
    knowledge = {p: list(known) for p, known in state.knowledge.items()}
    for power, index, spy, _cost in sorted(missions, key=lambda m: (m.power, m.order_index)):
        roll, odds = mission_roll(seed, turn, power, index), C.MISSION_ODDS[spy.mission]
        found = findings(state, spy, power, turn, spending, missions, start_targets) if roll <= odds else None
        outcome = MissionOutcome(power, index, turn, spy.mission, spy.target, roll, odds, found)
        knowledge.setdefault(power, []).append(outcome.knowledge())
        outcomes.append(outcome)
    return replace(state, knowledge=knowledge), outcomes
