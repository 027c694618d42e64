"""Adjustment (winter) phases: builds, removals, waives, and removals forced by civil disorder.

The rules (DATC 6.I, 6.J, issues 4.C.3-4.C.4 and 4.D.4-4.D.8):

- a power with more owned centres than units may build that many units, one by one in
  the order given, each in a vacant home centre it owns, at most one per province; armies
  on land, fleets on a coast, naming the coast where the province has two (``F STP B``
  without a coast is void); a build may be waived (``WAIVE``), and builds not ordered are
  simply waived;
- a power with more units than centres removes that many of its own units, one by one in
  the order given; removals beyond the number required fail; the shortfall is removed for
  it by the civil-disorder rule (``civil_disorder.forced_removals``);
- an illegal order is void and uses up nothing; a legal order beyond the allowance fails.
"""
from __future__ import annotations

from collections.abc import Container, Iterable, Mapping, Sequence
from dataclasses import dataclass

from .civil_disorder import forced_removals
from .geography import GameMap
from .orders import Build, Order, Remove, Unit, UnitType, Waive, province_of
from .position import OrderResult, Position, Power, PowerUnit
from .values import Value


@dataclass(frozen=True)
class AdjustmentOutcome(Value):
    results: tuple[OrderResult, ...]  # one per input order, in input order
    units: Mapping[str, PowerUnit]  # after the adjustments, keyed by province
    forced: tuple[PowerUnit, ...]  # units removed by the civil-disorder rule


def centre_counts(centres: Mapping[str, Power]) -> dict[Power, int]:
    """How many centres each owner holds."""
    counts: dict[Power, int] = {}
    _count_by_runs(counts, centres.values(), 1)
    return counts


def adjustment_counts(
    units: Mapping[str, PowerUnit], centres: Mapping[str, Power], owned: Mapping[Power, int] | None = None
) -> dict[Power, int]:
    """Owned centres minus units, per power that has either; positive means builds.
    ``owned``: ``centre_counts(centres)`` when the caller has it already."""
    counts = centre_counts(centres) if owned is None else dict(owned)
    _count_by_runs(counts, [pu.power for pu in units.values()], -1)
    return counts


def _count_by_runs(counts: dict[Power, int], powers: Iterable[Power], step: int) -> None:
    """Add ``step`` to each power's count once for each time it is listed. Positions list centres
    and units power by power, so a run of one power is added at once: one dict lookup a run."""
    current: Power = ""
    run = 0
    for power in powers:
        if power is not current:
            if run:
                counts[current] = counts.get(current, 0) + step * run
            current, run = power, 0
        run += 1
    if run:
        counts[current] = counts.get(current, 0) + step * run


def build_sites(power: Power, units: Mapping[str, PowerUnit], centres: Mapping[str, Power],
                game_map: GameMap) -> list[str]:
    """The vacant home centres the power owns, sorted: where it may build."""
    homes = game_map.home_centres.get(power, frozenset())
    return sorted(p for p in homes if centres.get(p) == power and p not in units)


def powers_to_adjust(
    units: Mapping[str, PowerUnit],
    centres: Mapping[str, Power],
    game_map: GameMap,
    owned: Mapping[Power, int] | None = None,
) -> frozenset[Power]:
    """Powers that have something to order: a removal, or a build with somewhere to build.
    ``owned``: ``centre_counts(centres)`` when the caller has it already (after every fall)."""
    home_centres = game_map.home_centres
    acting = set()
    for power, diff in adjustment_counts(units, centres, owned).items():
        if diff < 0:
            acting.add(power)
        elif diff > 0 and any(centres.get(p) == power and p not in units for p in home_centres.get(power, ())):
            acting.add(power)  # build_sites(power, ...) is not empty
    return frozenset(acting)


def resolve_adjustments(
    position: Position,
    orders: Mapping[Power, Sequence[Order]],
    game_map: GameMap,
    *,
    edition: str = "2000",
    civil_disorder: frozenset[Power] = frozenset(),
) -> AdjustmentOutcome:
    """Resolve one adjustment phase. Pure."""
    counts = adjustment_counts(position.units, position.centres)
    units = dict(position.units)
    results: list[OrderResult] = []
    used: dict[Power, int] = {}
    for power, power_orders in orders.items():
        for order in power_orders:
            allowance = abs(counts.get(power, 0))
            void_reason = _void_reason(power, order, counts.get(power, 0), position, units, game_map, civil_disorder)
            if void_reason:
                results.append(OrderResult(power, order, "void", void_reason))
            elif used.get(power, 0) >= allowance:
                results.append(OrderResult(power, order, "fails", f"{allowance} adjustment(s) allowed, all used"))
            else:
                used[power] = used.get(power, 0) + 1
                results.append(OrderResult(power, order, "succeeds", _apply(order, power, units)))

    forced: list[PowerUnit] = []
    for power in sorted(counts):
        shortfall = -counts[power] - used.get(power, 0)
        if counts[power] >= 0 or shortfall <= 0:
            continue
        for unit in forced_removals(
            [pu.unit for pu in units.values() if pu.power == power],
            shortfall,
            power=power,
            owned_centres=[p for p, owner in position.centres.items() if owner == power],
            game_map=game_map,
            edition=edition,
        ):
            del units[unit.province]
            forced.append(PowerUnit(power, unit))
    return AdjustmentOutcome(tuple(results), units, tuple(forced))


def _apply(order: Order, power: Power, units: dict[str, PowerUnit]) -> str:
    if isinstance(order, Build):
        unit = order.unit
        if unit.type is UnitType.ARMY:  # an army stands in the province, never on a coast
            unit = Unit(UnitType.ARMY, unit.province)
        units[unit.province] = PowerUnit(power, unit)
        return "built"
    if isinstance(order, Remove):
        del units[order.unit.province]
        return "removed"
    return "build waived"


def _void_reason(
    power: Power,
    order: Order,
    count: int,
    position: Position,
    units: Mapping[str, PowerUnit],
    game_map: GameMap,
    civil_disorder: frozenset[Power],
) -> str | None:
    if power in civil_disorder:
        return "civil disorder: orders ignored"
    if isinstance(order, (Build, Waive)):
        if count <= 0:
            return f"{power} has no builds ({count:+d})"
        return build_site_problem(order.unit, power, position, game_map, units) if isinstance(order, Build) else None
    if isinstance(order, Remove):
        if count >= 0:
            return f"{power} has no removals to make ({count:+d})"
        province = order.unit.province
        present = units.get(province)
        if present is None or present.power != power:
            if position.units.get(province, None) is not None and position.units[province].power == power:
                return f"{position.units[province].unit} is already removed"
            return f"no unit of {power} in {province}"
        return None
    return "only builds, removals and waives may be ordered in an adjustment phase"


def home_centre_problem(province: str, power: Power, position: Position, game_map: GameMap) -> str | None:
    """Why ``province`` is not one of ``power``'s own home centres now, or None."""
    if province not in game_map.provinces:
        return f"unknown province {province}"
    if province not in game_map.home_centres.get(power, frozenset()):
        return f"{province} is not a home centre of {power}"
    if position.centres.get(province) != power:
        return f"{power} does not own {province}"
    return None


def build_site_problem(unit: Unit, power: Power, position: Position, game_map: GameMap,
                       taken: Container[str] = ()) -> str | None:
    """Why ``power`` cannot build ``unit`` now, or None: builds go in the power's own vacant home
    centres, fleets only on a coast, named where there are two. ``taken``: provinces already
    built in this phase. The one rule for the order check at submission, the resolution of an
    adjustment phase and the dirigible variant's ground builds."""
    province = unit.province
    problem = home_centre_problem(province, power, position, game_map)
    if problem is not None:
        return problem
    if province in position.units:
        return f"{province} is occupied by {position.units[province].unit}"
    if province in taken:
        return f"a unit is already built at {province}"
    if unit.type is UnitType.ARMY:
        return None if game_map.is_land(province) else f"an army cannot stand in {province}"
    locations = game_map.fleet_locations(province)
    if not locations:
        return f"{province} is inland: fleets are built only on coasts"
    if unit.location not in locations:
        if province_of(unit.location) == unit.location and len(locations) > 1:
            return f"a fleet at {province} needs a coast: {' or '.join(locations)}"
        return f"a fleet cannot stand at {unit.location}"
    return None
