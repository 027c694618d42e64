"""Orders as small immutable values.

Text becomes an order only through the parser (``engine.parser``). Locations are
canonical strings: a province code (``"PAR"``) or a province with a coast
(``"STP/NC"``); ``province_of(loc)`` strips the coast.

The values are dataclasses for their equality, hash, ``repr`` and ``dataclasses.replace``,
with ``Final`` fields set by a written-out ``__init__``: so the install can compile them
(docs/architecture.md, "Performance"). Compiled, each is a C struct built without a
Python-level ``__init__`` and its fields cannot be set (AttributeError); as pure Python,
strict mypy refuses any assignment to a field outside ``__init__``. (A frozen dataclass
would compile to a class whose generated ``__init__`` costs ten times as much.)
"""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Final

from .values import Value


class UnitType(StrEnum):
    ARMY = "A"
    FLEET = "F"
    DIRIGIBLE = "D"  # the Dirigible variant's air unit (docs/rules/dirigible.md)

    # Hash as the letter it equals (Enum's own hash is a Python-level hash of the name, slow
    # in every dict key holding a unit type, and unlike the str it compares equal to).
    __hash__ = str.__hash__


_ARMY: Final = UnitType.ARMY  # compiled, a Final module value is a C static; ``UnitType.ARMY`` a lookup
_FLEET: Final = UnitType.FLEET


def unit_text(unit_type: UnitType, location: str) -> str:
    """``"A PAR"``, ``"F STP/NC"``: the letter picked by identity, so that two plain strs are
    joined (a StrEnum operand sends ``+`` down Python's slow path for str subclasses, about
    three times the cost; docs/rules/datc.md, "Speed")."""
    if unit_type is _ARMY:
        return "A " + location
    if unit_type is _FLEET:
        return "F " + location
    return str.__str__(unit_type) + " " + location


class Place:
    """What a map's movement tables know of one of their shared units, kept on the unit so that
    the movement phase reads it instead of looking it up (docs/performance.md, 2026-12-02, "The
    rules engine: the contract writes what it reads"): the numbering of the board it belongs to
    (``numbers``, the tables' own: a unit's place counts only on that board), its province's
    ``slot`` there, its ``steps`` (the moves it can make without a convoy, as ``MovementTables``
    lists them) and the provinces it borders (``reach``). Never changed once made."""

    __slots__ = ("numbers", "slot", "steps", "reach")

    def __init__(self, numbers: dict[str, int], slot: int, steps: dict[str, tuple[str, str, int]],
                 reach: frozenset[str]) -> None:
        self.numbers = numbers
        self.slot = slot
        self.steps = steps
        self.reach = reach


NOWHERE: Final = Place({}, -1, {}, frozenset())  # the place of a unit built anywhere but by a map's tables


def province_of(location: str) -> str:
    """The province of a location: ``"STP/NC"`` -> ``"STP"``."""
    slash = location.find("/")
    return location if slash < 0 else location[:slash]  # no list built, no copy of a bare province


@dataclass(init=False)
class Unit(Value):
    type: Final[UnitType]
    location: Final[str]  # canonical, with coast for fleets on split-coast provinces
    # Worked out once, when the unit is built (the map's shared units are read in every phase):
    # the province (``location`` without its coast) and the text, ``"F STP/NC"``. Not compared,
    # not printed by ``repr``: they follow from the two fields above.
    province: str = field(init=False, repr=False, compare=False)
    text: str = field(init=False, repr=False, compare=False)
    # What a map's movement tables know of the unit (``Place``): set on the shared units they hand
    # out, ``NOWHERE`` on any other.
    place: Place = field(init=False, repr=False, compare=False)

    def __init__(self, type: UnitType, location: str) -> None:
        self.type = type
        self.location = location
        self.province = province_of(location)
        self.text = unit_text(type, location)
        self.place = NOWHERE

    def __hash__(self) -> int:
        # Written out (the dataclass would generate the same in Python): units key the tables
        # of possible orders, and compiled this is a C function.
        return hash((self.type, self.location))

    def __str__(self) -> str:
        return self.text


@dataclass(init=False, unsafe_hash=True)
class Hold(Value):
    unit: Final[Unit]

    def __init__(self, unit: Unit) -> None:
        self.unit = unit

    def __str__(self) -> str:
        return f"{self.unit} H"


@dataclass(init=False, unsafe_hash=True)
class Move(Value):
    unit: Final[Unit]
    destination: Final[str]  # a location; coast given for fleets where it matters
    via_convoy: Final[bool]

    def __init__(self, unit: Unit, destination: str, via_convoy: bool = False) -> None:
        self.unit = unit
        self.destination = destination
        self.via_convoy = via_convoy

    def __str__(self) -> str:
        return f"{self.unit} - {self.destination}" + (" VIA" if self.via_convoy else "")


@dataclass(init=False, unsafe_hash=True)
class SupportHold(Value):
    unit: Final[Unit]
    supported: Final[Unit]

    def __init__(self, unit: Unit, supported: Unit) -> None:
        self.unit = unit
        self.supported = supported

    def __str__(self) -> str:
        return f"{self.unit} S {self.supported}"


@dataclass(init=False, unsafe_hash=True)
class SupportMove(Value):
    unit: Final[Unit]
    supported: Final[Unit]
    destination: Final[str]  # a province; a fleet's coast is kept when written (DATC 6.B.9 voids a wrong coast)
    # the province of ``destination``, worked out once (as a unit's province is): not compared, not printed
    target: str = field(init=False, repr=False, compare=False)

    def __init__(self, unit: Unit, supported: Unit, destination: str) -> None:
        self.unit = unit
        self.supported = supported
        self.destination = destination
        self.target = province_of(destination)

    def __str__(self) -> str:
        return f"{self.unit} S {self.supported} - {self.destination}"


@dataclass(init=False, unsafe_hash=True)
class Convoy(Value):
    unit: Final[Unit]  # the fleet
    army: Final[Unit]  # the convoyed army
    destination: Final[str]  # province

    def __init__(self, unit: Unit, army: Unit, destination: str) -> None:
        self.unit = unit
        self.army = army
        self.destination = destination

    def __str__(self) -> str:
        return f"{self.unit} C {self.army} - {self.destination}"


@dataclass(init=False, unsafe_hash=True)
class Retreat(Value):
    unit: Final[Unit]
    destination: Final[str]

    def __init__(self, unit: Unit, destination: str) -> None:
        self.unit = unit
        self.destination = destination

    def __str__(self) -> str:
        return f"{self.unit} R {self.destination}"


@dataclass(init=False, unsafe_hash=True)
class Disband(Value):
    """Disband a dislodged unit in a retreat phase."""

    unit: Final[Unit]

    def __init__(self, unit: Unit) -> None:
        self.unit = unit

    def __str__(self) -> str:
        return f"{self.unit} D"


@dataclass(init=False, unsafe_hash=True)
class Build(Value):
    unit: Final[Unit]

    def __init__(self, unit: Unit) -> None:
        self.unit = unit

    def __str__(self) -> str:
        return f"{self.unit} B"


@dataclass(init=False, unsafe_hash=True)
class Remove(Value):
    """Remove a unit in an adjustment phase (written ``D`` like a disband)."""

    unit: Final[Unit]

    def __init__(self, unit: Unit) -> None:
        self.unit = unit

    def __str__(self) -> str:
        return f"{self.unit} D"


@dataclass(init=False, unsafe_hash=True)
class Devastate(Value):
    """Dirigible variant: a dirigible devastates the centre below it (declared with the retreats)."""

    unit: Final[Unit]

    def __init__(self, unit: Unit) -> None:
        self.unit = unit

    def __str__(self) -> str:
        return f"{self.unit} DEVASTATE"


@dataclass(init=False, unsafe_hash=True)
class Waive(Value):
    def __str__(self) -> str:
        return "WAIVE"


MovementOrder = Hold | Move | SupportHold | SupportMove | Convoy
RetreatOrder = Retreat | Disband
AdjustmentOrder = Build | Remove | Waive
Order = MovementOrder | RetreatOrder | AdjustmentOrder | Devastate
