"""Retreat phases: where dislodged units go, and which are disbanded.

The rules (DATC 6.H): only dislodged units may be ordered; a dislodged unit may retreat
to one of its ``retreats`` (worked out in the movement phase, so supports and convoys
ordered then play no part); two or more retreats to one province all fail and those
units are disbanded; a dislodged unit with no order, or with a void order, is disbanded.
Every other order in a retreat phase is void.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .orders import Disband, Order, Retreat, Unit, province_of
from .position import DislodgedUnit, OrderResult, Power, PowerUnit
from .values import Value


@dataclass(frozen=True)
class RetreatOutcome(Value):
    results: tuple[OrderResult, ...]  # in input order
    units: Mapping[str, PowerUnit]  # the units after the retreats, keyed by province
    disbanded: tuple[DislodgedUnit, ...]  # dislodged units that did not survive


def resolve_retreats(
    units: Mapping[str, PowerUnit],
    dislodged: Sequence[DislodgedUnit],
    orders: Mapping[Power, Sequence[Order]],
    *,
    civil_disorder: frozenset[Power] = frozenset(),
) -> RetreatOutcome:
    """Resolve one retreat phase. Pure; the outcome does not depend on the input order."""
    by_province = {(d.power, d.unit.province): d for d in dislodged}
    judged: list[tuple[Power, Order, DislodgedUnit | None, str | None, str]] = []
    chosen: dict[DislodgedUnit, str | None] = {}  # unit -> retreat location (None: disband)
    for power, power_orders in orders.items():
        for order in power_orders:
            target, destination, void_reason = _check(power, order, by_province, chosen, civil_disorder)
            if void_reason is None and target is not None:
                chosen[target] = destination
            judged.append((power, order, target, destination, void_reason or ""))

    arrivals = Counter(province_of(dest) for dest in chosen.values() if dest is not None)
    results: list[OrderResult] = []
    for power, order, _target, destination, void_reason in judged:
        if void_reason:
            results.append(OrderResult(power, order, "void", void_reason))
        elif destination is None:
            results.append(OrderResult(power, order, "succeeds", "disbanded"))
        elif arrivals[province_of(destination)] > 1:
            results.append(
                OrderResult(power, order, "fails", f"bounced at {province_of(destination)}; disbanded")
            )
        else:
            results.append(OrderResult(power, order, "succeeds", f"retreated to {destination}"))

    new_units = dict(units)
    disbanded = []
    for unit in sorted(dislodged, key=lambda d: (d.power, d.unit.location)):
        destination = chosen.get(unit)
        if destination is not None and arrivals[province_of(destination)] == 1:
            new_units[province_of(destination)] = PowerUnit(unit.power, Unit(unit.unit.type, destination))
        else:
            disbanded.append(unit)
    return RetreatOutcome(tuple(results), new_units, tuple(disbanded))


def _check(
    power: Power,
    order: Order,
    dislodged: Mapping[tuple[Power, str], DislodgedUnit],
    chosen: Mapping[DislodgedUnit, str | None],
    civil_disorder: frozenset[Power],
) -> tuple[DislodgedUnit | None, str | None, str | None]:
    """(the dislodged unit ordered, its retreat location or None to disband, void reason)."""
    if power in civil_disorder:
        return None, None, "civil disorder: orders ignored, dislodged units disband"
    if not isinstance(order, (Retreat, Disband)):
        return None, None, "only retreats and disbands may be ordered in a retreat phase"
    target = dislodged.get((power, order.unit.province))
    if target is None:
        return None, None, f"no dislodged unit of {power} in {order.unit.province}"
    if target in chosen:
        return None, None, f"{target.unit} already has an order"
    if isinstance(order, Disband):
        return target, None, None
    destination = retreat_location(target, order.destination)
    if destination is None:
        options = ", ".join(target.retreats) or "none"
        return None, None, f"cannot retreat to {order.destination} (retreats: {options})"
    return target, destination, None


def retreat_location(unit: DislodgedUnit, destination: str) -> str | None:
    """The retreat option meant by ``destination``, or None.

    An exact match wins; a province without coast names the option when only one coast of
    it is open (``F POR R SPA`` when only ``SPA/NC`` is open)."""
    if destination in unit.retreats:
        return destination
    if "/" in destination:  # a coast on an army's retreat is ignored (DATC 4.B.6)
        province = province_of(destination)
        return province if province in unit.retreats else None
    same_province = [loc for loc in unit.retreats if province_of(loc) == destination]
    return same_province[0] if len(same_province) == 1 else None
