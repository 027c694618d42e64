"""The position of a game between phases, and the resolution of one phase."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from .orders import Order, Unit
from .phase import Phase

Power = str  # upper-case power name: "ENGLAND"
ResultKind = Literal["succeeds", "fails", "void"]


@dataclass(frozen=True, slots=True, init=False)
class PowerUnit:
    power: Power
    unit: Unit

    def __init__(self, power: Power, unit: Unit) -> None:
        # Written out for speed: see OrderResult.
        _set_power_unit_power(self, power)
        _set_power_unit_unit(self, unit)


_set_power_unit_power = PowerUnit.power.__set__  # type: ignore[attr-defined]
_set_power_unit_unit = PowerUnit.unit.__set__  # type: ignore[attr-defined]


@dataclass(frozen=True, slots=True)
class DislodgedUnit:
    power: Power
    unit: Unit
    attacker_from: str  # province the dislodging attack came from
    retreats: tuple[str, ...] = ()  # legal retreat locations, sorted


_NEW_DICT: Mapping = {}  # marks "no air_units given": each position then gets its own empty dict


@dataclass(frozen=True, init=False)
class Position:
    """Everything the rules need to play the next phase.

    ``units`` is keyed by province (one unit per province); ``centres`` maps each owned
    supply-centre province to its owner; ``dislodged`` is non-empty only in retreat phases.
    The Dirigible variant adds ``air_units`` (dirigibles, keyed by province, above the ground
    units) and ``devastated`` (centres devastated this game-year); both stay empty otherwise.
    """

    phase: Phase
    units: Mapping[str, PowerUnit]
    centres: Mapping[str, Power]
    dislodged: tuple[DislodgedUnit, ...] = ()
    variant: str = "standard"
    air_units: Mapping[str, PowerUnit] = field(default_factory=dict)
    devastated: frozenset[str] = frozenset()

    def __init__(
        self,
        phase: Phase,
        units: Mapping[str, PowerUnit],
        centres: Mapping[str, Power],
        dislodged: tuple[DislodgedUnit, ...] = (),
        variant: str = "standard",
        air_units: Mapping[str, PowerUnit] = _NEW_DICT,
        devastated: frozenset[str] = frozenset(),
    ) -> None:
        # Written out for speed (two per phase): one update of the instance dict instead of
        # the generated frozen __init__'s object.__setattr__ per field. Still frozen.
        self.__dict__.update(
            phase=phase, units=units, centres=centres, dislodged=dislodged, variant=variant,
            air_units={} if air_units is _NEW_DICT else air_units, devastated=devastated,
        )

    def units_of(self, power: Power) -> list[Unit]:
        return [pu.unit for pu in self.units.values() if pu.power == power]

    def centres_of(self, power: Power) -> list[str]:
        return sorted(p for p, owner in self.centres.items() if owner == power)


@dataclass(frozen=True, slots=True, init=False)
class OrderResult:
    power: Power
    order: Order
    result: ResultKind
    reason: str  # short machine-friendly code plus detail, e.g. "bounced at BUR"

    def __init__(self, power: Power, order: Order, result: ResultKind, reason: str) -> None:
        # Written out for speed (one result per order, every phase): the generated __init__
        # of a frozen dataclass calls object.__setattr__ per field, twice as slow as setting
        # the slots directly. The instance stays frozen: __setattr__ still refuses.
        _set_result_power(self, power)
        _set_result_order(self, order)
        _set_result_result(self, result)
        _set_result_reason(self, reason)


_set_result_power = OrderResult.power.__set__  # type: ignore[attr-defined]
_set_result_order = OrderResult.order.__set__  # type: ignore[attr-defined]
_set_result_result = OrderResult.result.__set__  # type: ignore[attr-defined]
_set_result_reason = OrderResult.reason.__set__  # type: ignore[attr-defined]


@dataclass(frozen=True, init=False)
class Resolution:
    """The outcome of one phase: results in input order, the new position, who acts next."""

    phase: Phase
    results: tuple[OrderResult, ...]
    dislodged: tuple[DislodgedUnit, ...]
    position: Position  # the position at ``next_phase``
    next_phase: Phase
    must_act: frozenset[Power]
    winners: frozenset[Power] = field(default_factory=frozenset)

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
        # Written out for speed, like Position's.
        self.__dict__.update(
            phase=phase, results=results, dislodged=dislodged, position=position,
            next_phase=next_phase, must_act=must_act, winners=winners,
        )
