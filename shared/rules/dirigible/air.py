"""The air layer of a Dirigible movement phase, and the dirigibles' supports to the ground.

Dirigibles fight each other by the normal rules, as a set of conflicts of their own above the
board (docs/rules/dirigible.md, rules 8-12). The standard resolver does that work: the
dirigibles become armies on the *air map*, a copy of the board on which every passable
province (sea included) is land and two provinces are adjacent when they share any border
(an army's or a fleet's). No fleet stands on the air map, so nothing is ever convoyed there.

A dirigible that supports a ground unit (only into, or the defence of, its own province)
holds in the air; its support is cut by any move of another power's dirigible into its
province (a dislodgement comes from such a move too). Uncut supports are handed to the
ground resolution as extra strength that no army or fleet can cut.

One unit, one order, as on the ground (docs/rules/datc.md, DATC 4.D.3): the same order given
twice counts once (and shares its result), and two different orders a dirigible could obey
leave it holding, both void. The translation for the air map sends every support to the
ground to a plain hold, so the resolver cannot see those conflicts: they are found here.
"""
from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache

from shared.rules.diplomacy.geography import GameMap, load_map
from shared.rules.diplomacy.movement import resolve_movement
from shared.rules.diplomacy.orders import (
    Convoy,
    Hold,
    Move,
    Order,
    SupportHold,
    SupportMove,
    Unit,
    UnitType,
    Waive,
    province_of,
)
from shared.rules.diplomacy.phase import Phase
from shared.rules.diplomacy.position import DislodgedUnit, OrderResult, Position, Power, PowerUnit

ARMY, FLEET, DIRIGIBLE = UnitType.ARMY, UnitType.FLEET, UnitType.DIRIGIBLE
_ARMY_TEXT = re.compile(r"\bA ([A-Z]{3})\b")


@lru_cache(maxsize=4)
def air_map(variant: str = "dirigible") -> GameMap:
    """The board as dirigibles see it: every passable province is land, any border joins."""
    ground = load_map(variant)
    adjacency: dict[str, set[str]] = {}
    for province, info in ground.provinces.items():
        if info.kind == "impassable":
            continue
        steps = set(ground.army_neighbours(province))
        for location in ground.fleet_locations(province):
            steps.update(province_of(n) for n in ground.fleet_neighbours(location))
        adjacency[province] = steps
    provinces = {
        code: (p if p.kind == "impassable" else replace(p, kind="land", coasts=()))
        for code, p in ground.provinces.items()
    }
    return GameMap(
        variant=ground.variant,
        provinces=provinces,
        power_info=ground.power_info,
        home_centres=ground.home_centres,
        starting_units={},
        army_adjacency={p: frozenset(n) for p, n in adjacency.items()},
        fleet_adjacency={},
        unit_types=(DIRIGIBLE,),
    )


def dirigible_reach(province: str, variant: str = "dirigible") -> frozenset[str]:
    """The provinces a dirigible in ``province`` may move to (and support into)."""
    return air_map(variant).army_neighbours(province)


@dataclass(frozen=True)
class AirOutcome:
    results: tuple[OrderResult, ...]  # one per air order given, in the order given
    air_units: dict[str, PowerUnit]  # the dirigibles after the moves (the dislodged are gone)
    disbanded: tuple[DislodgedUnit, ...]  # dislodged dirigibles: disbanded at once
    ground_supports: tuple[tuple[int, Power, SupportHold | SupportMove], ...]  # (result index, power, order) uncut
    repeats: Mapping[int, int] = field(default_factory=dict)  # result index of a repeated order -> of its first

    def with_answers(self, answers: Mapping[int, OrderResult]) -> tuple[OrderResult, ...]:
        """The results with ``answers`` (result index -> new result) put in, repeats included."""
        results = [answers.get(i, r) for i, r in enumerate(self.results)]
        for repeat, first in self.repeats.items():
            results[repeat] = results[first]
        return tuple(results)


def is_air_order(order: Order) -> bool:
    unit = getattr(order, "unit", None)
    return isinstance(unit, Unit) and unit.type is DIRIGIBLE


def ground_support_problem(order: SupportHold | SupportMove, ground: Mapping[str, PowerUnit],
                           game_map: GameMap) -> str | None:
    """Why a dirigible's support to a ground unit is void, or None."""
    here = order.unit.province
    target = province_of(order.supported.location)
    supported = ground.get(target)
    if supported is None:
        return f"void: no army or fleet at {target} to support"
    if isinstance(order, SupportHold):
        if target != here:
            return f"void: {order.unit} may only support the defence of {here}, the province below it"
        return None
    if province_of(order.destination) != here:
        return f"void: {order.unit} may only support an attack into {here}, the province below it"
    mover = supported.unit
    if mover.type is FLEET:
        reachable = bool(game_map.fleet_destinations_in(mover.location, here))
    else:
        reachable = here in game_map.army_neighbours(target) or (
            game_map.is_coastal(target) and game_map.is_coastal(here))
    return None if reachable else f"void: {mover} cannot reach {here}"


def resolve_air(
    air_units: Mapping[str, PowerUnit],
    ground: Mapping[str, PowerUnit],
    orders: Sequence[tuple[Power, Order]],
    phase: Phase,
    game_map: GameMap,
) -> AirOutcome:
    """Resolve the dirigibles' orders among themselves. ``ground`` (the armies and fleets before
    the moves) is read only to check supports given to it."""
    sky = air_map(game_map.variant)
    board = {p: PowerUnit(pu.power, Unit(ARMY, p)) for p, pu in air_units.items()}
    translated: dict[Power, list[Order]] = {}
    slots: list[tuple[Power, Order, int | None, str]] = []  # power, order, index in translated, void reason
    counts: dict[Power, int] = {}
    ground_supports: list[tuple[int, Power, SupportHold | SupportMove]] = []
    first_given: dict[tuple[Power, Order], int] = {}
    repeats: dict[int, int] = {}  # slot of a repeated order -> slot of its first
    for power, order in orders:
        earlier = first_given.setdefault((power, order), len(slots))
        if earlier != len(slots):  # the same order again: it counts once
            repeats[len(slots)] = earlier
            slots.append((power, order, None, ""))
            continue
        as_army, void = _as_army(power, order, air_units, ground, game_map)
        if as_army is None:
            slots.append((power, order, None, void))
            continue
        translated.setdefault(power, []).append(as_army)
        slots.append((power, order, counts.get(power, 0), ""))
        counts[power] = counts.get(power, 0) + 1
    outcome = resolve_movement(Position(phase, board, {}, (), game_map.variant), translated, sky)
    by_power: dict[Power, list[OrderResult]] = {}
    flat = iter(outcome.results)
    for power, power_orders in translated.items():
        by_power[power] = [next(flat) for _ in power_orders]
    conflicting = _conflicting(slots, by_power)

    attackers = _effective_attackers(by_power)
    results: list[OrderResult] = []
    for number, (power, order, index, void) in enumerate(slots):
        if number in repeats:
            results.append(results[repeats[number]])
            continue
        if index is None:
            results.append(OrderResult(power, order, "void", void))
            continue
        if number in conflicting:
            results.append(OrderResult(power, order, "void", f"void: conflicting orders for D {_province(order)}"))
            continue
        answer = by_power[power][index]
        if isinstance(order, (SupportHold, SupportMove)) and order.supported.type is not DIRIGIBLE:
            cutter = next((move for who, move in attackers.get(order.unit.province, ()) if who != power), None)
            if answer.result == "void":
                results.append(OrderResult(power, order, "void", _as_dirigibles(answer.reason)))
            elif cutter is not None:
                results.append(OrderResult(power, order, "fails", f"support cut by D {cutter.unit.province}"))
            else:
                results.append(OrderResult(power, order, "succeeds", "support given"))
                ground_supports.append((len(results) - 1, power, order))
            continue
        results.append(OrderResult(power, order, answer.result, _as_dirigibles(answer.reason)))

    after = {p: PowerUnit(pu.power, Unit(DIRIGIBLE, p)) for p, pu in outcome.units.items()}
    disbanded = tuple(
        DislodgedUnit(d.power, Unit(DIRIGIBLE, d.unit.province), d.attacker_from, ())
        for d in outcome.dislodged
    )
    return AirOutcome(tuple(results), after, disbanded, tuple(ground_supports), repeats)


def _conflicting(slots: Sequence[tuple[Power, Order, int | None, str]],
                 by_power: Mapping[Power, list[OrderResult]]) -> frozenset[int]:
    """The slots of dirigibles given two different orders the resolver obeyed (those whose
    translations are the same hold: a hold and a support to the ground, two such supports)."""
    obeyed: dict[str, list[int]] = {}
    for number, (power, order, index, _) in enumerate(slots):
        unit = getattr(order, "unit", None)
        if index is not None and isinstance(unit, Unit) and by_power[power][index].result != "void":
            obeyed.setdefault(unit.province, []).append(number)
    return frozenset(n for numbers in obeyed.values() if len(numbers) > 1 for n in numbers)


def _as_army(power: Power, order: Order, air_units: Mapping[str, PowerUnit],
             ground: Mapping[str, PowerUnit], game_map: GameMap) -> tuple[Order | None, str]:
    """The order as the air map's resolver reads it, or None and a void reason."""
    if isinstance(order, Waive):
        return None, "void: not a movement-phase order"
    here = air_units.get(order.unit.province)
    if here is None:
        return None, f"void: no dirigible at {order.unit.province}"
    if here.power != power:
        return None, f"void: {here.unit} is not your unit"
    unit = Unit(ARMY, order.unit.province)
    if isinstance(order, Hold):
        return Hold(unit), ""
    if isinstance(order, Move):
        if order.via_convoy:
            return None, "void: dirigibles are never convoyed"
        destination = province_of(order.destination)
        if destination != unit.province and destination not in dirigible_reach(unit.province, game_map.variant):
            return None, f"void: {order.unit} cannot reach {destination} (a dirigible moves to a neighbour)"
        return Move(unit, destination), ""
    if isinstance(order, Convoy):
        return None, "void: dirigibles carry nothing"
    if isinstance(order, (SupportHold, SupportMove)):
        if order.supported.type is not DIRIGIBLE:
            problem = ground_support_problem(order, ground, game_map)
            if problem is not None:
                return None, problem
            return Hold(unit), ""  # a supporting dirigible does not move
        supported = Unit(ARMY, order.supported.province)
        if isinstance(order, SupportHold):
            return SupportHold(unit, supported), ""
        return SupportMove(unit, supported, province_of(order.destination)), ""
    return None, "void: not a movement-phase order"


def _province(order: Order) -> str:
    unit = getattr(order, "unit", None)
    return unit.province if isinstance(unit, Unit) else ""


def _effective_attackers(by_power: Mapping[Power, list[OrderResult]]) -> dict[str, list[tuple[Power, Move]]]:
    """Province -> the air moves into it that were not void, with their powers (each cuts a
    support there)."""
    found: dict[str, list[tuple[Power, Move]]] = {}
    for answers in by_power.values():
        for answer in answers:
            if isinstance(answer.order, Move) and answer.result != "void":
                found.setdefault(province_of(answer.order.destination), []).append((answer.power, answer.order))
    return found


def _as_dirigibles(reason: str) -> str:
    """The resolver names the air map's units as armies; on the air map every unit is a dirigible."""
    return _ARMY_TEXT.sub(r"D \1", reason)
