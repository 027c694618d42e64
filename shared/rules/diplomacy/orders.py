"""Orders as small frozen values.

Text becomes an order only through the parser (``engine.parser``). Locations are
canonical strings: a province code (``"PAR"``) or a province with a coast
(``"STP/NC"``); ``province_of(loc)`` strips the coast.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class UnitType(StrEnum):
    ARMY = "A"
    FLEET = "F"
    DIRIGIBLE = "D"  # the Dirigible variant's air unit (docs/rules/dirigible.md)


def province_of(location: str) -> str:
    """The province of a location: ``"STP/NC"`` -> ``"STP"``."""
    return location.split("/", 1)[0]


@dataclass(frozen=True, slots=True)
class Unit:
    type: UnitType
    location: str  # canonical, with coast for fleets on split-coast provinces

    @property
    def province(self) -> str:
        return province_of(self.location)

    def __str__(self) -> str:
        return f"{self.type._value_} {self.location}"  # _value_: the same letter, without Enum's property


@dataclass(frozen=True, slots=True)
class Hold:
    unit: Unit

    def __str__(self) -> str:
        return f"{self.unit} H"


@dataclass(frozen=True, slots=True)
class Move:
    unit: Unit
    destination: str  # a location; coast given for fleets where it matters
    via_convoy: bool = False

    def __str__(self) -> str:
        return f"{self.unit} - {self.destination}" + (" VIA" if self.via_convoy else "")


@dataclass(frozen=True, slots=True)
class SupportHold:
    unit: Unit
    supported: Unit

    def __str__(self) -> str:
        return f"{self.unit} S {self.supported}"


@dataclass(frozen=True, slots=True)
class SupportMove:
    unit: Unit
    supported: Unit
    destination: str  # a province; a fleet's coast is kept when written (DATC 6.B.9 voids a wrong coast)

    def __str__(self) -> str:
        return f"{self.unit} S {self.supported} - {self.destination}"


@dataclass(frozen=True, slots=True)
class Convoy:
    unit: Unit  # the fleet
    army: Unit  # the convoyed army
    destination: str  # province

    def __str__(self) -> str:
        return f"{self.unit} C {self.army} - {self.destination}"


@dataclass(frozen=True, slots=True)
class Retreat:
    unit: Unit
    destination: str

    def __str__(self) -> str:
        return f"{self.unit} R {self.destination}"


@dataclass(frozen=True, slots=True)
class Disband:
    """Disband a dislodged unit in a retreat phase."""

    unit: Unit

    def __str__(self) -> str:
        return f"{self.unit} D"


@dataclass(frozen=True, slots=True)
class Build:
    unit: Unit

    def __str__(self) -> str:
        return f"{self.unit} B"


@dataclass(frozen=True, slots=True)
class Remove:
    """Remove a unit in an adjustment phase (written ``D`` like a disband)."""

    unit: Unit

    def __str__(self) -> str:
        return f"{self.unit} D"


@dataclass(frozen=True, slots=True)
class Devastate:
    """Dirigible variant: a dirigible devastates the centre below it (declared with the retreats)."""

    unit: Unit

    def __str__(self) -> str:
        return f"{self.unit} DEVASTATE"


@dataclass(frozen=True, slots=True)
class Waive:
    def __str__(self) -> str:
        return "WAIVE"


MovementOrder = Hold | Move | SupportHold | SupportMove | Convoy
RetreatOrder = Retreat | Disband
AdjustmentOrder = Build | Remove | Waive
Order = MovementOrder | RetreatOrder | AdjustmentOrder | Devastate
