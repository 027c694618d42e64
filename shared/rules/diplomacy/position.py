"""The position of a game between phases, and the resolution of one phase.

Immutable values written like the orders (orders.py says why): dataclasses with ``Final``
fields and a written-out ``__init__``, so that the install can compile them.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final, Literal

from .orders import Order, Unit
from .phase import Phase
from .values import Value

Power = str  # upper-case power name: "ENGLAND"
ResultKind = Literal["succeeds", "fails", "void"]


@dataclass(init=False, unsafe_hash=True)
class PowerUnit(Value):
    power: Final[Power]
    unit: Final[Unit]

    def __init__(self, power: Power, unit: Unit) -> None:
        self.power = power
        self.unit = unit


@dataclass(init=False, unsafe_hash=True)
class DislodgedUnit(Value):
    power: Final[Power]
    unit: Final[Unit]
    attacker_from: Final[str]  # province the dislodging attack came from
    retreats: Final[tuple[str, ...]]  # legal retreat locations, sorted

    def __init__(self, power: Power, unit: Unit, attacker_from: str, retreats: tuple[str, ...] = ()) -> None:
        self.power = power
        self.unit = unit
        self.attacker_from = attacker_from
        self.retreats = retreats


@dataclass(init=False)
class Position(Value):
    """Everything the rules need to play the next phase.

    ``units`` is keyed by province (one unit per province); ``centres`` maps each owned
    supply-centre province to its owner; ``dislodged`` is non-empty only in retreat phases.
    The Dirigible variant adds ``air_units`` (dirigibles, keyed by province, above the ground
    units) and ``devastated`` (centres devastated this game-year); both stay empty otherwise.
    """

    phase: Final[Phase]
    units: Final[Mapping[str, PowerUnit]]
    centres: Final[Mapping[str, Power]]
    dislodged: Final[tuple[DislodgedUnit, ...]]
    variant: Final[str]
    air_units: Final[Mapping[str, PowerUnit]]
    devastated: Final[frozenset[str]]

    def __init__(
        self,
        phase: Phase,
        units: Mapping[str, PowerUnit],
        centres: Mapping[str, Power],
        dislodged: tuple[DislodgedUnit, ...] = (),
        variant: str = "standard",
        air_units: Mapping[str, PowerUnit] | None = None,
        devastated: frozenset[str] = frozenset(),
    ) -> None:
        self.phase = phase
        self.units = units
        self.centres = centres
        self.dislodged = dislodged
        self.variant = variant
        self.air_units = {} if air_units is None else air_units  # each position its own empty dict
        self.devastated = devastated

    def units_of(self, power: Power) -> list[Unit]:
        return [pu.unit for pu in self.units.values() if pu.power == power]


@dataclass(init=False, unsafe_hash=True)
class OrderResult(Value):
    power: Final[Power]
    order: Final[Order]
    result: Final[ResultKind]
    reason: Final[str]  # short machine-friendly code plus detail, e.g. "bounced at BUR"

    def __init__(self, power: Power, order: Order, result: ResultKind, reason: str) -> None:
        self.power = power
        self.order = order
        self.result = result
        self.reason = reason


@dataclass(init=False)
class Resolution(Value):
    """The outcome of one phase: results in input order, the new position, who acts next."""

    phase: Final[Phase]
    results: Final[tuple[OrderResult, ...]]
    dislodged: Final[tuple[DislodgedUnit, ...]]
    position: Final[Position]  # the position at ``next_phase``
    next_phase: Final[Phase]
    must_act: Final[frozenset[Power]]
    winners: Final[frozenset[Power]]

    def __init__(
        self,
        phase: Phase,
        results: tuple[OrderResult, ...],
        dislodged: tuple[DislodgedUnit, ...],
        position: Position,
        next_phase: Phase,
        must_act: frozenset[Power],
        winners: frozenset[Power] = frozenset(),
    ) -> None:
        self.phase = phase
        self.results = results
        self.dislodged = dislodged
        self.position = position
        self.next_phase = next_phase
        self.must_act = must_act
        self.winners = winners
