"""The whole Tale of Ekonia position as typed frozen records, which the engine computes on.

The state is stored as JSON (``records.EkoniaState``, the document inside the game's events,
docs/rules/ekonia.md D39). ``Ekonia.from_document`` reads a document once where it comes in
(the turn, an order check, the possible orders) and ``to_document`` writes it back once, with
the same keys in the same order as the engine always wrote them, so the stored bytes are the
same. A step of the turn returns a new record (``dataclasses.replace``) instead of changing
one. What a state learnt, spent and earned (``knowledge``, ``spending``, ``ledger``) and the
last turn's details are JSON the engine writes and does not compute on: they are kept as
their documents (``records.py``), copied on the way out so that no two states share them.
"""
from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Self

from .records import (
    Converting,
    EkoniaState,
    HiddenCities,
    Knowledge,
    LastTurn,
    Ledger,
    PowerRecord,
    SeaLaneRecord,
    Spending,
    TerritoryRecord,
    Unit,
)

Pair = tuple[str, str]  # two states, sorted: at war, or trading


@dataclass(frozen=True, slots=True)
class Conversion:
    """Land turning neutral: since which turn, and for whom."""

    by: str | None
    since: int | None

    @classmethod
    def from_document(cls, doc: Converting) -> Self:
        return cls(doc["by"], doc["since"])

    def to_document(self) -> Converting:
        return {"by": self.by, "since": self.since}


@dataclass(frozen=True, slots=True)
class Holding:
    """A land territory: its owner (None: neutral) and improvements."""

    owner: str | None
    city: bool
    fort: bool
    shipyard: bool
    gas_vent: bool
    converting: Conversion | None

    @classmethod
    def from_document(cls, doc: TerritoryRecord) -> Self:
        conv = doc["converting"]
        return cls(doc["owner"], doc["city"], doc["fort"], doc["shipyard"], doc["gas_vent"],
                   None if conv is None else Conversion.from_document(conv))

    def to_document(self) -> TerritoryRecord:
        return {"owner": self.owner, "city": self.city, "fort": self.fort, "shipyard": self.shipyard,
                "gas_vent": self.gas_vent,
                "converting": None if self.converting is None else self.converting.to_document()}


@dataclass(frozen=True, slots=True)
class SeaLane:
    """Who holds a sea lane, and whether under no flag (privateers)."""

    controller: str | None
    privateer: bool

    @classmethod
    def from_document(cls, doc: SeaLaneRecord) -> Self:
        return cls(doc["controller"], doc["privateer"])

    def to_document(self) -> SeaLaneRecord:
        return {"controller": self.controller, "privateer": self.privateer}


@dataclass(frozen=True, slots=True)
class CityCover:
    """HIDE CITIES bought: the hidden strength bonus and the turn it holds."""

    turn: int
    bonus: int

    @classmethod
    def from_document(cls, doc: HiddenCities) -> Self:
        return cls(doc["turn"], doc["bonus"])

    def to_document(self) -> HiddenCities:
        return {"turn": self.turn, "bonus": self.bonus}


@dataclass(frozen=True, slots=True)
class Realm:
    """A state of the game: its treasury, capital, unit numbering and standing orders."""

    gold: float
    capital: str | None
    alive: bool
    next_unit: int
    refund_due: int
    spared: tuple[str, ...]  # states its privateers leave alone
    hide_cities: CityCover | None

    @classmethod
    def from_document(cls, doc: PowerRecord) -> Self:
        cover = doc["hide_cities"]
        return cls(doc["gold"], doc["capital"], doc["alive"], doc["next_unit"], doc["refund_due"],
                   tuple(doc["spared"]), CityCover.from_document(cover) if cover else None)  # {}: blanked (policy.py)

    def to_document(self) -> PowerRecord:
        return {"gold": self.gold, "capital": self.capital, "alive": self.alive, "next_unit": self.next_unit,
                "refund_due": self.refund_due, "spared": list(self.spared),
                "hide_cities": None if self.hide_cities is None else self.hide_cities.to_document()}


@dataclass(frozen=True, slots=True)
class Ekonia:
    """The whole position (``state.initial_state`` makes the first)."""

    variant: str
    turn: int
    powers: Mapping[str, Realm]
    territories: Mapping[str, Holding]  # land only
    sea_lanes: Mapping[str, SeaLane]
    units: Mapping[str, Unit]
    wars: tuple[Pair, ...]  # sorted
    war_since: Mapping[str, int]  # "A:B" -> the turn war was declared
    trade: tuple[Pair, ...]  # sorted
    knowledge: Mapping[str, Sequence[Knowledge]]  # JSON kept as written (espionage.py)
    spending: Mapping[str, Mapping[str, Spending]]  # state -> phase name -> spending
    ledger: Mapping[str, Ledger]
    last_turn: LastTurn
    winners: tuple[str, ...]

    @classmethod
    def from_document(cls, doc: EkoniaState) -> Self:
        return cls(
            doc["variant"], doc["turn"],
            {p: Realm.from_document(r) for p, r in doc["powers"].items()},
            {t: Holding.from_document(r) for t, r in doc["territories"].items()},
            {t: SeaLane.from_document(r) for t, r in doc["sea_lanes"].items()},
            {u: Unit.from_document(r) for u, r in doc["units"].items()},
            tuple(_pair(w) for w in doc["wars"]), doc["war_since"], tuple(_pair(t) for t in doc["trade"]),
            doc["knowledge"], doc["spending"], doc["ledger"], doc["last_turn"], tuple(doc["winners"]))

    def to_document(self) -> EkoniaState:
        return {
            "variant": self.variant, "turn": self.turn,
            "powers": {p: r.to_document() for p, r in self.powers.items()},
            "territories": {t: r.to_document() for t, r in self.territories.items()},
            "sea_lanes": {t: r.to_document() for t, r in self.sea_lanes.items()},
            "units": {u: r.to_document() for u, r in self.units.items()},
            "wars": [list(w) for w in self.wars], "war_since": dict(self.war_since),
            "trade": [list(t) for t in self.trade],
            "knowledge": {p: copy.deepcopy(list(known)) for p, known in self.knowledge.items()},
            "spending": {p: {phase: copy.deepcopy(s) for phase, s in by_phase.items()}
                         for p, by_phase in self.spending.items()},
            "ledger": copy.deepcopy(dict(self.ledger)),
            "last_turn": copy.deepcopy(self.last_turn),
            "winners": list(self.winners),
        }


def _pair(names: list[str]) -> Pair:
    first, second = names
    return first, second
