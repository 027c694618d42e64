"""One phase of a Dirigible game, start to finish (docs/rules/dirigible.md).

The year: W1900A (opening builds) once, then S M (movement), S R (retreats and devastation),
F M, F R (Late Fall: retreats and devastation), W A (builds and removals paid in supply
points). A retreat phase is played when some dislodged army or fleet can retreat or some
dirigible can devastate; a Winter when some power can afford a build or owes a removal;
otherwise the phase is skipped. Centres change hands after the Late Fall, by armies and fleets
only; victory (19 undevastated centres) is checked then. Devastation lasts to the year's end.
"""
from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace

from shared.rules.diplomacy.adjudicate import update_centres
from shared.rules.diplomacy.geography import GameMap, load_map
from shared.rules.diplomacy.movement import resolve_movement
from shared.rules.diplomacy.orders import (
    Devastate,
    Order,
    Retreat,
    SupportHold,
    SupportMove,
    Unit,
    UnitType,
    province_of,
)
from shared.rules.diplomacy.phase import Phase, PhaseType, Season
from shared.rules.diplomacy.position import DislodgedUnit, OrderResult, Position, Power, PowerUnit, Resolution
from shared.rules.diplomacy.retreats import resolve_retreats

from .air import is_air_order, resolve_air
from .economy import powers_to_adjust, resolve_winter

VICTORY_CENTRES = 19
DIRIGIBLE = UnitType.DIRIGIBLE
_IGNORED = "civil disorder: orders ignored, units hold"


def adjudicate_dirigible(
    position: Position,
    orders: Mapping[Power, Sequence[Order]],
    *,
    edition: str = "2000",
    civil_disorder: frozenset[Power] = frozenset(),
    victory_centres: int | None = None,
) -> Resolution:
    """Resolve the phase of ``position`` and move on to the next phase that has something to do."""
    game_map = load_map(position.variant)
    threshold = victory_centres or VICTORY_CENTRES
    kind = position.phase.type
    if kind is PhaseType.MOVEMENT:
        return _movement(position, orders, game_map, civil_disorder, threshold)
    if kind is PhaseType.RETREATS:
        return _retreats(position, orders, game_map, civil_disorder, threshold)
    return _winter(position, orders, game_map, civil_disorder, edition)


# --- movement ----------------------------------------------------------------------------------


def _movement(position: Position, orders: Mapping[Power, Sequence[Order]], game_map: GameMap,
              civil_disorder: frozenset[Power], threshold: int) -> Resolution:
    air_orders: list[tuple[Power, Order]] = []
    ground_orders: dict[Power, list[Order]] = {}
    slots: list[tuple[Power, Order, str]] = []  # (power, order, "air" | "ground" | void reason)
    for power, power_orders in orders.items():
        for order in power_orders:
            if power in civil_disorder:
                slots.append((power, order, _IGNORED))
            elif is_air_order(order):
                air_orders.append((power, order))
                slots.append((power, order, "air"))
            elif _names_a_dirigible(order):
                slots.append((power, order, "void: armies and fleets have no effect on dirigibles"))
            else:
                ground_orders.setdefault(power, []).append(order)
                slots.append((power, order, "ground"))

    air = resolve_air(position.air_units, position.units, air_orders, position.phase, game_map)
    given = [(power, order) for _, power, order in air.ground_supports]
    ground = resolve_movement(position, ground_orders, game_map, air_supports=given)
    unmatched = {index: OrderResult(power, order, "fails", _unmatched(order, position))
                 for (index, power, order), matched in zip(air.ground_supports, ground.air_supports_given, strict=True)
                 if not matched}
    results = _interleave(slots, iter(air.with_answers(unmatched)), iter(ground.results))

    dislodged = tuple(sorted(ground.dislodged, key=lambda d: (d.power, d.unit.location)))
    reported = dislodged + air.disbanded
    after = Position(position.phase, dict(ground.units), dict(position.centres), (), position.variant,
                     air.air_units, position.devastated)
    devastators = devastation_options(after, game_map)
    retreating = frozenset(d.power for d in dislodged if d.retreats and d.power not in civil_disorder)
    if not retreating and not devastators:
        # nobody has anything to do in the retreat phase: skipped, units with nowhere to go disband
        return _season_end(position, results, after, game_map, threshold, reported)
    next_phase = position.phase.following()
    devastating = frozenset(pu.power for pu in devastators.values() if pu.power not in civil_disorder)
    return Resolution(
        phase=position.phase,
        results=results,
        dislodged=reported,
        position=Position(next_phase, after.units, after.centres, dislodged, position.variant,
                          after.air_units, after.devastated),
        next_phase=next_phase,
        must_act=retreating | devastating,
    )


def _names_a_dirigible(order: Order) -> bool:
    """A ground order that supports or convoys a dirigible."""
    for name in ("supported", "army"):
        other = getattr(order, name, None)
        if isinstance(other, Unit) and other.type is DIRIGIBLE:
            return True
    return False


def _unmatched(order: SupportHold | SupportMove, position: Position) -> str:
    supported = position.units[province_of(order.supported.location)].unit
    if isinstance(order, SupportHold):
        return f"{supported} did not hold"
    return f"{supported} did not move to {order.destination}"


def _interleave(slots: Sequence[tuple[Power, Order, str]], air: Iterator[OrderResult],
                ground: Iterator[OrderResult]) -> tuple[OrderResult, ...]:
    out = []
    for power, order, where in slots:
        if where == "air":
            out.append(next(air))
        elif where == "ground":
            out.append(next(ground))
        else:
            out.append(OrderResult(power, order, "void", where))
    return tuple(out)


# --- retreats and devastation -------------------------------------------------------------------


def devastation_options(position: Position, game_map: GameMap) -> dict[str, PowerUnit]:
    """Centre -> the dirigible that may devastate it: alone above it (no army or fleet there),
    not devastated already, not owned by the dirigible's power."""
    return {
        province: pu
        for province, pu in sorted(position.air_units.items())
        if province in game_map.supply_centres
        and province not in position.units
        and province not in position.devastated
        and position.centres.get(province) != pu.power
    }


def _retreats(position: Position, orders: Mapping[Power, Sequence[Order]], game_map: GameMap,
              civil_disorder: frozenset[Power], threshold: int) -> Resolution:
    ground_orders: dict[Power, list[Order]] = {}
    declared: list[tuple[Power, Devastate]] = []
    for power, power_orders in orders.items():
        for order in power_orders:
            if isinstance(order, Devastate):
                declared.append((power, order))
            else:
                ground_orders.setdefault(power, []).append(order)
    outcome = resolve_retreats(position.units, position.dislodged, ground_orders, civil_disorder=civil_disorder)
    retreats_to = {province_of(r.order.destination) for r in outcome.results
                   if isinstance(r.order, Retreat) and r.result != "void"}
    options = devastation_options(position, game_map)
    devastated = set(position.devastated)
    answers: dict[int, OrderResult] = {}
    for number, (power, order) in enumerate(declared):
        answers[number] = _devastation(power, order, options, retreats_to, devastated, civil_disorder)
    ground_results = iter(outcome.results)
    numbered = iter(range(len(declared)))
    results = tuple(
        answers[next(numbered)] if isinstance(order, Devastate) else next(ground_results)
        for power_orders in orders.values() for order in power_orders
    )
    after = Position(position.phase, dict(outcome.units), dict(position.centres), (), position.variant,
                     dict(position.air_units), frozenset(devastated))
    # reported like every disbanded unit: with no retreat left (docs/rules/dirigible.md, R10)
    disbanded = tuple(replace(d, retreats=()) for d in outcome.disbanded)
    return _season_end(position, results, after, game_map, threshold, disbanded)


def _devastation(power: Power, order: Devastate, options: Mapping[str, PowerUnit], retreats_to: set[str],
                 devastated: set[str], civil_disorder: frozenset[Power]) -> OrderResult:
    province = order.unit.province
    if power in civil_disorder:
        return OrderResult(power, order, "void", "civil disorder: orders ignored")
    if order.unit.type is not DIRIGIBLE:
        return OrderResult(power, order, "void", "only a dirigible devastates")
    here = options.get(province)
    if here is None or here.power != power:
        return OrderResult(power, order, "void", f"no dirigible of {power} can devastate {province}")
    if province in devastated:
        return OrderResult(power, order, "void", f"{province} is already devastated")
    if province in retreats_to:
        return OrderResult(power, order, "fails", f"a retreat into {province} was ordered")
    devastated.add(province)
    return OrderResult(power, order, "succeeds", f"devastated {province}")


# --- the end of a season, and Winter -------------------------------------------------------------


def _season_end(position: Position, results: Sequence[OrderResult], after: Position, game_map: GameMap,
                threshold: int, reported: tuple[DislodgedUnit, ...] = ()) -> Resolution:
    phase = position.phase
    if phase.season is Season.SPRING:
        next_phase = Phase(phase.year, Season.FALL, PhaseType.MOVEMENT)
        return Resolution(phase, tuple(results), reported, _at(after, next_phase), next_phase,
                          _powers_with_units(after))
    centres = update_centres(after.centres, after.units, game_map)  # dirigibles capture nothing
    settled = Position(phase, after.units, centres, (), after.variant, after.air_units, after.devastated)
    winners = victory(settled, threshold)
    acting = powers_to_adjust(settled, game_map)
    if acting:
        next_phase = Phase(phase.year, Season.WINTER, PhaseType.ADJUSTMENTS)
        new_position = _at(settled, next_phase)
    else:  # the Winter is skipped: the year, and its devastation, ends now
        next_phase = Phase(phase.year + 1, Season.SPRING, PhaseType.MOVEMENT)
        new_position = _at(settled, next_phase, devastated=frozenset())
        acting = _powers_with_units(settled)
    return Resolution(phase, tuple(results), reported, new_position, next_phase, acting, winners)


def victory(position: Position, threshold: int = VICTORY_CENTRES) -> frozenset[Power]:
    """The power holding at least ``threshold`` undevastated centres (the most, if two did)."""
    counts: dict[Power, int] = {}
    for centre, owner in position.centres.items():
        if centre not in position.devastated:
            counts[owner] = counts.get(owner, 0) + 1
    reaching = sorted((n, p) for p, n in counts.items() if n >= threshold)
    if not reaching or (len(reaching) > 1 and reaching[-1][0] == reaching[-2][0]):
        return frozenset()
    return frozenset({reaching[-1][1]})


def _winter(position: Position, orders: Mapping[Power, Sequence[Order]], game_map: GameMap,
            civil_disorder: frozenset[Power], edition: str) -> Resolution:
    outcome = resolve_winter(position, orders, game_map, civil_disorder=civil_disorder, edition=edition)
    next_phase = Phase(position.phase.year + 1, Season.SPRING, PhaseType.MOVEMENT)
    new_position = Position(next_phase, outcome.units, dict(position.centres), (), position.variant,
                            outcome.air_units, frozenset())  # devastation ends with the year
    return Resolution(position.phase, outcome.results, (), new_position, next_phase,
                      _powers_with_units(new_position))


def _at(position: Position, phase: Phase, devastated: frozenset[str] | None = None) -> Position:
    return Position(phase, position.units, position.centres, (), position.variant, position.air_units,
                    position.devastated if devastated is None else devastated)


def _powers_with_units(position: Position) -> frozenset[Power]:
    return frozenset(pu.power for pu in list(position.units.values()) + list(position.air_units.values()))
