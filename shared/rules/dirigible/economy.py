"""Supply points and the Winter phase of the Dirigible variant (docs/rules/dirigible.md, rules 2-7).

Each undevastated centre a power owns yields 5 supply points (SP) a year; an army or a fleet
costs 4 SP of upkeep, a dirigible 3. Nothing is saved or given away: the points of a Winter
are spent in that Winter or lost. A power whose points exceed its upkeep may build, in its
own undevastated home centres, units costing up to the difference; one whose upkeep exceeds
its points removes units until the upkeep fits, and the civil-disorder rule removes the rest.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from shared.rules.diplomacy.adjudicate import forced_removal_reason
from shared.rules.diplomacy.adjustments import build_site_problem, home_centre_problem
from shared.rules.diplomacy.civil_disorder import unit_distance
from shared.rules.diplomacy.geography import GameMap
from shared.rules.diplomacy.orders import Build, Order, Remove, Unit, UnitType, Waive
from shared.rules.diplomacy.phase import Phase, PhaseType, Season
from shared.rules.diplomacy.position import OrderResult, Position, Power, PowerUnit, ResultKind

ARMY, FLEET, DIRIGIBLE = UnitType.ARMY, UnitType.FLEET, UnitType.DIRIGIBLE
POINTS_PER_CENTRE = 5
UPKEEP = {ARMY: 4, FLEET: 4, DIRIGIBLE: 3}
CHEAPEST = min(UPKEEP.values())
OPENING_YEAR = 1900  # W1900A: the opening builds


def supply_points(position: Position) -> dict[Power, int]:
    """Each power's points this Winter: 5 per owned centre not devastated this year."""
    points: dict[Power, int] = {}
    for centre, owner in position.centres.items():
        if centre not in position.devastated:
            points[owner] = points.get(owner, 0) + POINTS_PER_CENTRE
    return points


def upkeep(position: Position) -> dict[Power, int]:
    cost: dict[Power, int] = {}
    for pu in _all_units(position):
        cost[pu.power] = cost.get(pu.power, 0) + UPKEEP[pu.unit.type]
    return cost


def balances(position: Position) -> dict[Power, int]:
    """Points minus upkeep per power that has centres or units: above 0 builds, below removes."""
    points, cost = supply_points(position), upkeep(position)
    return {p: points.get(p, 0) - cost.get(p, 0) for p in sorted(set(points) | set(cost))}


def removals_needed(position: Position, power: Power) -> int:
    """The fewest units the power must remove for its upkeep to fit its points (dearest first)."""
    shortfall = -balances(position).get(power, 0)
    costs = sorted((UPKEEP[pu.unit.type] for pu in _all_units(position) if pu.power == power), reverse=True)
    count = 0
    while shortfall > 0 and count < len(costs):
        shortfall -= costs[count]
        count += 1
    return count


def build_problem(unit: Unit, power: Power, position: Position, game_map: GameMap,
                  ground: Mapping[str, PowerUnit], air: Mapping[str, PowerUnit]) -> str | None:
    """Why ``power`` cannot build ``unit`` now (``ground``/``air``: the units, builds included)."""
    province = unit.province
    problem = home_centre_problem(province, power, position, game_map)
    if problem is not None:
        return problem
    if province in position.devastated:
        return f"{province} is devastated this year"
    if unit.type is DIRIGIBLE:
        if province in air:
            return f"a dirigible is already in {province}"
        return None
    problem = build_site_problem(unit, power, position, game_map, ground)
    if problem is not None:
        return problem
    if position.phase.year == OPENING_YEAR and power == "RUSSIA" and unit.location == "STP/NC":
        return "Russia may not build F STP/NC in the opening builds"
    return None


def can_build_somewhere(power: Power, budget: int, position: Position, game_map: GameMap) -> bool:
    ground, air = dict(position.units), dict(position.air_units)
    for province in game_map.home_centres.get(power, frozenset()):
        for unit_type, location in _unit_kinds(province, game_map):
            if UPKEEP[unit_type] <= budget and build_problem(
                    Unit(unit_type, location), power, position, game_map, ground, air) is None:
                return True
    return False


def powers_to_adjust(position: Position, game_map: GameMap) -> frozenset[Power]:
    """Powers with something to order this Winter: a removal owed, or a build they can afford."""
    acting = set()
    for power, balance in balances(position).items():
        if balance < 0 or (balance >= CHEAPEST and can_build_somewhere(power, balance, position, game_map)):
            acting.add(power)
    return frozenset(acting)


@dataclass(frozen=True)
class WinterOutcome:
    results: tuple[OrderResult, ...]  # one per order given, in order, then the forced removals
    units: dict[str, PowerUnit]
    air_units: dict[str, PowerUnit]
    points: dict[Power, int]


def resolve_winter(position: Position, orders: Mapping[Power, Sequence[Order]], game_map: GameMap, *,
                   civil_disorder: frozenset[Power] = frozenset(), edition: str = "2000") -> WinterOutcome:
    """Builds and removals paid in supply points, in the order given. Pure."""
    balance = balances(position)
    left = dict(balance)  # builds: points still to spend; removals: upkeep still to shed (negative)
    ground, air = dict(position.units), dict(position.air_units)
    results: list[OrderResult] = []
    for power, power_orders in orders.items():
        for order in power_orders:
            results.append(_judge(power, order, position, game_map, ground, air, left=left,
                                  initial=balance.get(power, 0), civil_disorder=civil_disorder))
    for power in sorted(left):
        if left[power] >= 0:
            continue
        for pu in _forced_order(power, ground, air, position, game_map, edition):
            if left[power] >= 0:
                break
            (air if pu.unit.type is DIRIGIBLE else ground).pop(pu.unit.province)
            left[power] += UPKEEP[pu.unit.type]
            reason = forced_removal_reason(power, civil_disorder)
            results.append(OrderResult(power, Remove(pu.unit), "succeeds", reason))
    return WinterOutcome(tuple(results), ground, air, supply_points(position))


def _judge(power: Power, order: Order, position: Position, game_map: GameMap,
           ground: dict[str, PowerUnit], air: dict[str, PowerUnit], *, left: dict[Power, int],
           initial: int, civil_disorder: frozenset[Power]) -> OrderResult:
    def result(kind: ResultKind, reason: str) -> OrderResult:
        return OrderResult(power, order, kind, reason)

    if power in civil_disorder:
        return result("void", "civil disorder: orders ignored")
    balance = left.get(power, 0)
    if isinstance(order, Waive):
        if initial > 0:
            return result("succeeds", "build waived")
        return result("void", f"{power} has nothing to build with")
    if isinstance(order, Build):
        if initial <= 0:
            return result("void", f"{power} has no supply points to build with ({initial:+d})")
        unit = order.unit if order.unit.type is FLEET else Unit(order.unit.type, order.unit.province)
        problem = build_problem(unit, power, position, game_map, ground, air)
        if problem:
            return result("void", problem)
        cost = UPKEEP[unit.type]
        if cost > balance:
            return result("fails", f"{unit} costs {cost} SP, {balance} left")
        (air if unit.type is DIRIGIBLE else ground)[unit.province] = PowerUnit(power, unit)
        left[power] = balance - cost
        return result("succeeds", "built")
    if isinstance(order, Remove):
        layer = air if order.unit.type is DIRIGIBLE else ground
        present = layer.get(order.unit.province)
        if present is None or present.power != power:
            return result("void", f"no {_kind(order.unit)} of {power} in {order.unit.province}")
        if initial >= 0:
            return result("void", f"{power} has no removals to make ({initial:+d})")
        if balance >= 0:
            return result("fails", "the upkeep already fits the points")
        del layer[order.unit.province]
        left[power] = balance + UPKEEP[present.unit.type]
        return result("succeeds", "removed")
    return result("void", "only builds, removals and waives may be ordered in an adjustment phase")


def _kind(unit: Unit) -> str:
    return "dirigible" if unit.type is DIRIGIBLE else "army or fleet"


def _forced_order(power: Power, ground: Mapping[str, PowerUnit], air: Mapping[str, PowerUnit],
                  position: Position, game_map: GameMap, edition: str) -> list[PowerUnit]:
    """The power's units in the order civil disorder removes them: farthest from home first
    (a dirigible's distance counted like an army's, over land and sea), then fleets,
    dirigibles, armies, then by the province's name."""
    owned = [p for p, owner in position.centres.items() if owner == power]
    rank = {FLEET: 0, DIRIGIBLE: 1, ARMY: 2}

    def key(pu: PowerUnit) -> tuple[int, int, str]:
        measured = pu.unit if pu.unit.type is not DIRIGIBLE else Unit(ARMY, pu.unit.province)
        distance = unit_distance(measured, power=power, owned_centres=owned, game_map=game_map, edition=edition)
        return (-distance, rank[pu.unit.type], game_map.provinces[pu.unit.province].name.upper())

    mine = [pu for pu in list(ground.values()) + list(air.values()) if pu.power == power]
    return sorted(mine, key=key)


def _unit_kinds(province: str, game_map: GameMap) -> list[tuple[UnitType, str]]:
    kinds = [(DIRIGIBLE, province)]
    if game_map.is_land(province):
        kinds.append((ARMY, province))
    kinds += [(FLEET, loc) for loc in game_map.fleet_locations(province)]
    return kinds


def _all_units(position: Position) -> list[PowerUnit]:
    return list(position.units.values()) + list(position.air_units.values())


def opening_position(variant: str, game_map: GameMap) -> Position:
    """Winter 1900: no units, every power owns its home centres (15 SP, Russia 20)."""
    centres = {c: power for power, homes in game_map.home_centres.items() for c in homes}
    return Position(Phase(OPENING_YEAR, Season.WINTER, PhaseType.ADJUSTMENTS), {}, centres, (), variant)
