"""The position of a game between phases, and the resolution of one phase."""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from .orders import Order, Unit
from .phase import Phase

Power = str  # upper-case power name: "ENGLAND"
ResultKind = Literal["succeeds", "fails", "void"]


def _slot_setter(cls: type, name: str) -> Callable[[Any, Any], None]:
    """The raw setter of the slot ``name`` of ``cls``: it sets a frozen dataclass's field from
    its own ``__init__`` without the generated one's ``object.__setattr__`` per field."""
    setter: Callable[[Any, Any], None] = vars(cls)[name].__set__
    return setter


@dataclass(frozen=True, slots=True, init=False)
class PowerUnit:
    power: Power
    unit: Unit

    def __init__(self, power: Power, unit: Unit) -> None:
        # Written out for speed: see OrderResult.
        _set_power_unit_power(self, power)
        _set_power_unit_unit(self, unit)


_set_power_unit_power = _slot_setter(PowerUnit, "power")
_set_power_unit_unit = _slot_setter(PowerUnit, "unit")


@dataclass(frozen=True, slots=True)
class DislodgedUnit:
    power: Power
    unit: Unit
    attacker_from: str  # province the dislodging attack came from
    retreats: tuple[str, ...] = ()  # legal retreat locations, sorted


_NEW_DICT: Mapping[str, PowerUnit] = {}  # marks "no air_units given": each position then gets its own empty dict


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


_set_result_power = _slot_setter(OrderResult, "power")
_set_result_order = _slot_setter(OrderResult, "order")
_set_result_result = _slot_setter(OrderResult, "result")
_set_result_reason = _slot_setter(OrderResult, "reason")


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
