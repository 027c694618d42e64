"""A battle's report as typed frozen records (docs/rules/ekonia.md, "Battles"): what combat.py
works out, every unit's strength and modifiers, every camp's roll and outcome, and what each
side lost. ``as_json`` is the one way out, into the turn's details and the state's
``last_turn`` (stored, and read by the visibility policy as JSON): the same keys, in the same
order, with the same values as the dictionaries the engine used to build, so the stored bytes
do not change.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal, TypedDict

CampRole = Literal["defender", "attacker"]
CampOutcome = Literal["untouched", "won", "overran", "lost", "overrun", "drawn"]


class UnitStrengthJSON(TypedDict):
    unit: str
    owner: str
    type: str
    base: float
    modifiers: dict[str, float]
    strength: float


class PassengerJSON(TypedDict):
    unit: str
    owner: str
    type: str


class CampJSON(TypedDict):
    powers: list[str]
    role: CampRole
    privateers: list[str]
    armed: bool
    units: list[UnitStrengthJSON]
    passengers: list[PassengerJSON]
    base_strength: float
    strength: float
    directions: list[str]
    bombardment: float
    roll: int | None
    dice_bonus: float
    total: float
    outcome: CampOutcome
    survivors: int | None


class BattleJSON(TypedDict):
    """A battle as the turn's details and ``last_turn`` store it (``BattleReport.as_json``)."""

    territory: str
    sides: list[CampJSON]
    winner: list[str] | None
    survivor_strength: int | None
    destroyed: dict[str, list[str]]
    bounty: dict[str, int]
    overrun: list[str]


@dataclass(frozen=True, slots=True)
class UnitStrength:
    """One fighting unit of a camp: its value, the modifiers that apply (fractions, by name) and
    the strength they give it."""

    unit: str
    owner: str  # the party it fights for (its state, or its state's privateers)
    type: str
    base: float
    modifiers: Mapping[str, float]
    strength: float

    def as_json(self) -> UnitStrengthJSON:
        return {"unit": self.unit, "owner": self.owner, "type": self.type, "base": self.base,
                "modifiers": dict(self.modifiers), "strength": self.strength}


@dataclass(frozen=True, slots=True)
class Passenger:
    """A unit carried aboard a transport or airship: no strength; lost with its carrier."""

    unit: str
    owner: str
    type: str

    def as_json(self) -> PassengerJSON:
        return {"unit": self.unit, "owner": self.owner, "type": self.type}


@dataclass(frozen=True, slots=True)
class CampReport:
    """One camp of a battle: its parties, its strength and how it was reached, its die, and
    how the battle ended for it (``survivors``: the strength a winner keeps)."""

    powers: tuple[str, ...]
    role: CampRole
    privateers: tuple[str, ...]  # its parties that fight as privateers
    armed: bool
    units: tuple[UnitStrength, ...]
    passengers: tuple[Passenger, ...]
    base_strength: float
    strength: float
    directions: tuple[str, ...]
    bombardment: float
    roll: int | None
    dice_bonus: float
    total: float
    outcome: CampOutcome = "untouched"
    survivors: int | None = None

    @property
    def defending(self) -> bool:
        return self.role == "defender"

    def as_json(self) -> CampJSON:
        return {
            "powers": list(self.powers), "role": self.role, "privateers": list(self.privateers),
            "armed": self.armed, "units": [u.as_json() for u in self.units],
            "passengers": [p.as_json() for p in self.passengers],
            "base_strength": self.base_strength, "strength": self.strength,
            "directions": list(self.directions), "bombardment": self.bombardment,
            "roll": self.roll, "dice_bonus": self.dice_bonus, "total": self.total,
            "outcome": self.outcome, "survivors": self.survivors,
        }


@dataclass(frozen=True, slots=True)
class BattleReport:
    """One battle: where, every camp, the winner (None in a tie), the strength that survived
    its win, the units destroyed by party, the privateers' bounty and the camps overrun."""

    territory: str
    sides: tuple[CampReport, ...]
    winner: tuple[str, ...] | None
    survivor_strength: int | None
    destroyed: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    bounty: Mapping[str, int] = field(default_factory=dict)
    overrun: tuple[str, ...] = ()

    def as_json(self) -> BattleJSON:
        return {"territory": self.territory, "sides": [s.as_json() for s in self.sides],
                "winner": None if self.winner is None else list(self.winner),
                "survivor_strength": self.survivor_strength,
                "destroyed": {p: list(ids) for p, ids in self.destroyed.items()},
                "bounty": dict(self.bounty), "overrun": list(self.overrun)}
