"""The Dirigible variant behind the ``Variant`` protocol.

A thin adapter: the rules live in ``shared.rules.dirigible``; this module turns
JSON documents into engine values and back. The game opens in Winter 1900 with no units:
every power builds with the supply points of its home centres.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

from shared.rules.diplomacy import ParseError, load_map
from shared.rules.diplomacy.orders import Build, Order, Unit, UnitType
from shared.rules.diplomacy.phase import PhaseType
from shared.rules.diplomacy.position import OrderResult, Position, Resolution
from shared.rules.dirigible import adjudicate_dirigible, balances, opening_position, supply_points
from shared.rules.dirigible.document import (
    VARIANT as NAME,
)
from shared.rules.dirigible.document import (
    adjudicate_dirigible_document,
    dirigible_position_from_document,
    dirigible_position_to_document,
    read_dirigible_order,
)
from shared.rules.dirigible.economy import removals_needed
from shared.rules.dirigible.possible import dirigible_possible_orders

from .base import Opening, OrderCheck, PhaseOutcome, UnsupportedPlayerCount, VariantOf
from .board import BoardRules, BoardVariant, centres_by_power, dislodged_json, results_json, units_by_power, unreadable
from .documents import BoardDocument, PositionView, RulesSettings


def read_orders(texts: Sequence[str], power: str, position: Position) -> list[Order | ParseError]:
    game_map = load_map(NAME)
    return [read_dirigible_order(text, power, position, game_map) for text in texts]


def check_orders(texts: Sequence[str], power: str, position: Position) -> list[OrderCheck]:
    """Each text read, then judged by resolving the power's submission alone: an order the
    rules would ignore (void) is rejected with the rules' reason, and so, in a Winter, is a
    build the points cannot pay for. Of two orders to one unit (or build site) the first the
    rules would obey is kept, as in the standard game: an order rejected on its own claims
    nothing, so a correction written after it stands."""
    readings = read_orders(texts, power, position)
    alone = _rejected_alone(readings, power, position)
    again = _second_orders(readings, alone)
    kept = [(i, r) for i, r in enumerate(readings)
            if not isinstance(r, ParseError) and i not in again and i not in alone]
    orders = [order for _, order in kept]
    trial = adjudicate_dirigible(position, {power: orders}) if orders else None
    answers = dict(zip((i for i, _ in kept), trial.results if trial is not None else (), strict=False))
    checks = []
    for index, (text, reading) in enumerate(zip(texts, readings, strict=True)):
        if isinstance(reading, ParseError):
            checks.append(unreadable(text, reading))
        elif index in alone:
            checks.append(OrderCheck(text, False, reason=alone[index]))
        elif index in again:
            checks.append(OrderCheck(text, False, reason=again[index]))
        else:
            problem = _rejection(answers[index], position)
            checks.append(OrderCheck(text, problem is None, order=None if problem else str(reading), reason=problem))
    return checks


def _rejection(answer: OrderResult, position: Position) -> str | None:
    """Why the order check rejects an order the trial resolution answered so, or None."""
    winter = position.phase.type is PhaseType.ADJUSTMENTS
    return answer.reason if answer.result == "void" or (winter and answer.result == "fails") else None


def _rejected_alone(readings: Sequence[Order | ParseError], power: str, position: Position) -> dict[int, str]:
    """Index -> reason for each order to a unit that has other orders too, if the rules would
    reject it given on its own (only such orders need the extra trial)."""
    keys = [_claim(r) for r in readings]
    shared = {k for k in keys if k is not None and keys.count(k) > 1}
    rejected: dict[int, str] = {}
    for index, reading in enumerate(readings):
        if keys[index] in shared and not isinstance(reading, ParseError):
            (answer,) = adjudicate_dirigible(position, {power: [reading]}).results[:1]
            problem = _rejection(answer, position)
            if problem is not None:
                rejected[index] = problem
    return rejected


def _claim(reading: Order | ParseError) -> tuple[bool, str] | None:
    """What an order claims: a unit (or a build site) of the ground or of the air."""
    unit = getattr(reading, "unit", None)
    if isinstance(reading, ParseError) or not isinstance(unit, Unit):
        return None
    return unit.type is UnitType.DIRIGIBLE, unit.province


def _second_orders(readings: Sequence[Order | ParseError], rejected: Mapping[int, str]) -> dict[int, str]:
    """Index -> problem for each later order to a unit (or build site) already claimed by an
    order not rejected on its own: the first order is the one kept, as in the standard game."""
    seen: set[tuple[bool, str]] = set()
    problems: dict[int, str] = {}
    for index, reading in enumerate(readings):
        key = _claim(reading)
        if key is None or index in rejected:
            continue
        if key in seen:
            unit = getattr(reading, "unit", None)
            problems[index] = (f"a unit is already built at {key[1]}" if isinstance(reading, Build)
                               else f"{unit} already has an order")
        seen.add(key)
    return problems


def position_view(position: Position) -> PositionView:
    """The board as every viewer sees it (nothing is hidden): dirigibles in ``units`` beside the
    armies and fleets, the centres devastated this year, and in a Winter each power's supply
    points, its balance (points minus upkeep) and its ``adjustments``: the points it may spend
    on builds (positive), or minus the fewest units it must remove (negative)."""
    units = units_by_power([*position.units.values(), *position.air_units.values()])
    centres = centres_by_power(position.centres)
    winter = position.phase.type is PhaseType.ADJUSTMENTS
    return {
        "phase": str(position.phase),
        "units": units,
        "centres": centres,
        "devastated": sorted(position.devastated),
        "points": dict(sorted(supply_points(position).items())) if winter else {},
        "balance": balances(position) if winter else {},
        "adjustments": {p: n if n > 0 else -removals_needed(position, p)
                        for p, n in balances(position).items() if n} if winter else {},
        "dislodged": dislodged_json(position.dislodged),
    }


def outcome_of(before: Position, resolution: Resolution) -> PhaseOutcome[BoardDocument]:
    orders = results_json(resolution.results)
    details: dict[str, Any] = {"dislodged": dislodged_json(resolution.dislodged),
                               "devastated": sorted(resolution.position.devastated)}
    if before.phase.type is PhaseType.ADJUSTMENTS:
        details["points"] = dict(sorted(supply_points(before).items()))
    return PhaseOutcome(
        phase=str(resolution.phase), orders=orders, state=board_document(resolution.position),
        next_phase=str(resolution.next_phase), must_act=sorted(resolution.must_act),
        winners=sorted(resolution.winners), details=details)


def adjudicate_phase(position: Position, orders: dict[str, list[Order]], settings: RulesSettings, seed: int,
                     civil_disorder: frozenset[str]) -> PhaseOutcome[BoardDocument]:
    resolution = adjudicate_dirigible(position, orders, edition=str(settings.get("edition", "2000")),
                                      civil_disorder=civil_disorder)
    return outcome_of(position, resolution)


def board_document(position: Position) -> BoardDocument:
    """``dirigible_position_to_document``, which writes a ``BoardDocument`` with ``devastated``."""
    return cast(BoardDocument, dirigible_position_to_document(position))


RULES = BoardRules(
    from_document=dirigible_position_from_document, to_document=board_document,
    read_orders=read_orders, check_orders=check_orders,
    adjudicate=adjudicate_phase,
    possible_orders=lambda position, power: dirigible_possible_orders(position, power, load_map(NAME)),
    view=position_view)
SEATS = 7  # one power each: the small games of the standard game are not offered


class DirigibleVariant(BoardVariant):
    name = NAME
    default_settings: RulesSettings = {"player_count": SEATS}
    rules = RULES

    def check_player_count(self, players: int) -> None:
        if players != SEATS:  # docs/rules/dirigible.md, reading R12
            raise UnsupportedPlayerCount(f"a Dirigible game seats {SEATS} players, one power each, not {players}")

    def opening(self, settings: RulesSettings, seed: int) -> Opening[BoardDocument]:
        self.check_player_count(int(settings.get("player_count") or SEATS))
        position = opening_position(NAME, load_map(NAME))
        powers = sorted(load_map(NAME).powers)
        return Opening(str(position.phase), board_document(position),
                       [[power] for power in powers], powers)

    def adjudicate_document(self, doc: Mapping[str, Any]) -> dict[str, Any]:
        return adjudicate_dirigible_document(dict(doc))


VARIANT: VariantOf[Position, BoardDocument] = DirigibleVariant()  # checked against the protocol here
