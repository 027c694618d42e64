"""The shapes of the Tale of Ekonia state document, and the unit records the engine computes on.

The state is stored as JSON inside the game's events (docs/rules/ekonia.md, D39): its shapes
are TypedDicts here (``EkoniaState`` and its parts, a turn's ``TurnDetails``), the same plain
dicts at run time, every field named and typed. The engine computes on frozen records: the
units here (``Unit``, ``PlannedUnit``), the rest of the position in position.py, each read
from its document once (``from_document``) and written back once (``to_document``).
``as_state`` is where a document from outside (an event, ``entente adjudicate``) is taken as
the stored shape; it copies nothing and checks nothing (the variant's documents are written by
this engine). Which viewer sees which field is the visibility policy's (policy.py).
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, NotRequired, Self, TypedDict, cast

from .battle_reports import BattleJSON


class UnitRecord(TypedDict):
    """A unit of a state: ``id`` is ``OWNER-N``; ``location`` a territory or a sea; a ship in a
    yard is ``stored``; troops in a transport are ``aboard`` its id; ``hidden_until`` the last
    turn espionage hides it (R60)."""

    id: str
    type: str
    owner: str
    location: str
    stored: bool
    privateer: bool
    built: int
    aboard: str | None
    hidden_until: int | None


class Converting(TypedDict):
    """Land turning neutral: since which turn, and for whom (blank in others' planning views)."""

    by: str | None
    since: int | None


class TerritoryRecord(TypedDict):
    """A land territory: its owner (None: neutral) and improvements."""

    owner: str | None
    city: bool
    fort: bool
    shipyard: bool
    gas_vent: bool
    converting: Converting | None


class SeaLaneRecord(TypedDict):
    """Who holds a sea lane, and whether under no flag (privateers)."""

    controller: str | None
    privateer: bool


class HiddenCities(TypedDict):
    """HIDE CITIES bought: the hidden strength bonus and the turn it holds."""

    turn: int
    bonus: int


class PowerRecord(TypedDict):
    """A state of the game."""

    gold: float
    capital: str | None
    alive: bool
    next_unit: int
    refund_due: int
    spared: list[str]  # states its privateers leave alone
    hide_cities: HiddenCities | None


class Spending(TypedDict):
    """What a state spent in one turn, in all and by place."""

    total: int
    by_location: dict[str, int]


class Knowledge(TypedDict):
    """One mission of a state, and what it found if it succeeded (espionage.py)."""

    turn: int
    mission: str
    target: str | None
    success: bool
    found: Any  # the mission's own shape (espionage.findings)


class Ledger(TypedDict):
    """Every term of a state's income in one turn (economy.ledger)."""

    turn: int
    start_gold: float
    costs: int
    given: int
    bti: int
    upkeep: int
    trade: dict[str, int]
    sea_lanes: list[str]
    sea_lane_income: int
    received: int
    bounty: int
    refund: int
    end_gold: float


# What the turn did to a territory or a state (captures.py, turn.py), as the turn's details and
# ``last_turn`` keep it: ``event`` names the kind ("taken", "neutralised", "capital moved", "built"...),
# and each kind has its own few fields (docs/rules/ekonia.md, "The turn's details"). The
# functional form, since one field is ``from``.
Event = TypedDict("Event", {
    "event": str, "territory": NotRequired[str], "by": NotRequired[str | None], "from": NotRequired[str | None],
    "to": NotRequired[str | None], "owner": NotRequired[str], "power": NotRequired[str],
    "units": NotRequired[list[str]], "shipyard": NotRequired[bool], "gas_vent": NotRequired[bool],
    "strength": NotRequired[float], "reason": NotRequired[str], "what": NotRequired[str],
})

# A sea lane whose holder changed at the end of the turn (economy.update_sea_lanes).
LaneChange = TypedDict("LaneChange", {"sea_lane": str, "from": str | None, "to": str | None, "privateer": bool})


class MissionResult(TypedDict):
    """A mission as the turn's details keep it: the spying state's knowledge, and whose it is."""

    power: str
    index: int
    turn: int
    mission: str
    target: str | None
    success: bool
    found: Any  # the mission's own shape (espionage.findings)


class MissionRoll(TypedDict):
    kind: Literal["mission"]
    power: str
    mission: str
    target: str | None
    roll: int
    needed: int
    success: bool


class BattleRoll(TypedDict):
    kind: Literal["battle"]
    territory: str
    battle: int  # its place among the turn's battles
    powers: list[str]
    roll: int


class TurnDetails(TypedDict):
    """Everything a resolved turn stores beside the orders (``PhaseResolved.details``); who sees
    which part is the visibility policy's ``TURN_POLICY``."""

    battles: list[BattleJSON]
    events: list[Event]
    missions: list[MissionResult]
    rolls: list[BattleRoll | MissionRoll]
    ledgers: dict[str, Ledger]
    sea_lanes: list[LaneChange]
    spending: dict[str, Spending]
    destroyed_states: list[str]


class LastTurn(TypedDict, total=False):
    """The details of the turn before (empty at the start and in planning views)."""

    turn: int
    battles: list[BattleJSON]  # battle_reports.BattleReport.as_json
    events: list[Event]
    sea_lanes: list[LaneChange]
    spent: dict[str, int]
    destroyed_states: list[str]


class EkoniaState(TypedDict):
    """The whole position (state.initial_state makes the first)."""

    variant: str
    turn: int
    powers: dict[str, PowerRecord]
    territories: dict[str, TerritoryRecord]  # land only
    sea_lanes: dict[str, SeaLaneRecord]
    units: dict[str, UnitRecord]
    wars: list[list[str]]  # pairs, each sorted
    war_since: dict[str, int]  # "A:B" -> the turn war was declared
    trade: list[list[str]]  # pairs, each sorted
    knowledge: dict[str, list[Knowledge]]
    spending: dict[str, dict[str, Spending]]  # state -> phase name -> spending
    ledger: dict[str, Ledger]
    last_turn: LastTurn
    winners: list[str]


class OrderResult(TypedDict):
    """One order of a resolved turn as written back (canonical), and what became of it."""

    order: str
    result: str  # ok, failed or invalid
    reason: str


def age_order(uid: str, built: int) -> tuple[int, str, int]:
    """The order of the unit ``uid`` built on turn ``built`` among others: by turn, owner, number."""
    owner, _, number = uid.rpartition("-")
    return (built, owner, int(number) if number.isascii() and number.isdigit() and len(number) < 10 else 0)


@dataclass(frozen=True, slots=True)
class Unit:
    """A unit of a state as the engine computes on it: the stored ``UnitRecord`` read once
    (``from_document``) and written back once (``to_document``, the same keys in the same order)."""

    id: str
    type: str
    owner: str
    location: str
    stored: bool
    privateer: bool
    built: int
    aboard: str | None
    hidden_until: int | None

    @classmethod
    def from_document(cls, doc: UnitRecord) -> Self:
        return cls(doc["id"], doc["type"], doc["owner"], doc["location"], doc["stored"], doc["privateer"],
                   doc["built"], doc["aboard"], doc["hidden_until"])

    def to_document(self) -> UnitRecord:
        return {"id": self.id, "type": self.type, "owner": self.owner, "location": self.location,
                "stored": self.stored, "privateer": self.privateer, "built": self.built, "aboard": self.aboard,
                "hidden_until": self.hidden_until}

    @property
    def order(self) -> tuple[int, str, int]:
        """Oldest first (state.unit_order)."""
        return age_order(self.id, self.built)


@dataclass(frozen=True, slots=True)
class PlannedUnit(Unit):
    """A unit during planning and the battles: where its orders put it, and how it got there.
    Planning replaces the record at each step (``dataclasses.replace``); ``to_document`` is the
    unit as the state keeps it, without these fields."""

    moved: bool = False
    used: bool = False
    entered_from: str | None = None  # the territory or sea it came from, or "AIR" (dropped)
    landed: bool = False  # unloaded or dropped this turn
    carrying: bool = False  # a transport or airship that carried troops this turn

    @classmethod
    def planned(cls, unit: Unit) -> Self:
        """A unit of the state before its orders."""
        return cls(unit.id, unit.type, unit.owner, unit.location, unit.stored, unit.privateer, unit.built,
                   unit.aboard, unit.hidden_until)

    def unit(self) -> Unit:
        """The unit as the state keeps it, without the fields of the plan."""
        return Unit(self.id, self.type, self.owner, self.location, self.stored, self.privateer, self.built,
                    self.aboard, self.hidden_until)


def as_state(document: Mapping[str, Any]) -> EkoniaState:
    """A state document from outside the engine, read as the engine's records."""
    return cast(EkoniaState, document)


def as_document(state: EkoniaState) -> dict[str, Any]:
    """A state as the platform stores it: a JSON document it never reads (the same dict)."""
    return cast(dict[str, Any], state)
