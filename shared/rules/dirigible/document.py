"""The Dirigible variant's JSON documents: positions, orders read from text, ``entente adjudicate``.

The standard contract (``engine.document``) extended: ``"variant": "dirigible"``; dirigibles
in ``"units"`` beside the armies and fleets (``"D LON"``, sharing a province with a ground
unit); ``"devastated": ["BRE"]`` (centres devastated this game-year); in the output, the
same (``"variant"`` included, and the ``"edition"`` and ``"victory_centres"`` given, so that the
output is the next document), plus ``"points": {POWER: n}`` when a Winter phase was resolved
(the supply points of that Winter) and ``"winners"`` when somebody won. Dislodged dirigibles appear in the output's
``"dislodged"`` with no retreats: they are disbanded at once.
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from shared.rules.diplomacy.civil_disorder import EDITIONS
from shared.rules.diplomacy.document import carry_rules, position_from_document, results_with_forced
from shared.rules.diplomacy.document_fields import (
    INPUT_FIELDS,
    REPORT_FIELDS,
    DocumentError,
    centres_by_power,
    check_fields,
    checked_list,
    dislodged_by_power,
    power_list,
    power_mapping,
    units_by_power,
)
from shared.rules.diplomacy.geography import GameMap, load_map
from shared.rules.diplomacy.normalise import normalise_order
from shared.rules.diplomacy.orders import (
    Build,
    Convoy,
    Devastate,
    Hold,
    Move,
    Order,
    Remove,
    SupportHold,
    SupportMove,
    Unit,
    UnitType,
    Waive,
)
from shared.rules.diplomacy.parser import ParseError, parse_order
from shared.rules.diplomacy.phase import PhaseType
from shared.rules.diplomacy.position import Position, Power, PowerUnit, Resolution

from .economy import supply_points
from .turn import adjudicate_dirigible

VARIANT = "dirigible"
FIELDS = INPUT_FIELDS | REPORT_FIELDS | {"devastated", "points", "balance"}  # the last two: read as nothing
_DIRIGIBLE_TEXT = re.compile(r"^\s*D\s+([A-Z]{3})\s*$")


def dirigible_position_from_document(doc: Any) -> Position:
    """Read and check a Dirigible position document (the standard checks plus ``D`` units and
    ``devastated``)."""
    if not isinstance(doc, Mapping):
        raise DocumentError(f"document: expected a JSON object, got {type(doc).__name__}")
    if doc.get("variant", VARIANT) != VARIANT:
        raise DocumentError(f"variant: expected {VARIANT!r}, got {doc.get('variant')!r}")
    game_map = load_map(VARIANT)
    ground_units: dict[str, list[Any]] = {}
    air_units: dict[str, PowerUnit] = {}
    for power, texts in power_mapping(doc.get("units", {}), "units", game_map).items():
        for index, text in enumerate(checked_list(texts, f"units.{power}")):
            match = _DIRIGIBLE_TEXT.match(text.upper()) if isinstance(text, str) else None
            if match is None:
                ground_units.setdefault(power, []).append(text)
                continue
            province = match.group(1)
            field = f"units.{power}[{index}]"
            if province not in game_map.provinces or game_map.provinces[province].kind == "impassable":
                raise DocumentError(f"{field}: a dirigible cannot stand in {province}")
            if province in air_units:
                raise DocumentError(f"{field}: two dirigibles in {province}")
            air_units[province] = PowerUnit(power, Unit(UnitType.DIRIGIBLE, province))
    ground_doc = {**doc, "variant": VARIANT, "units": ground_units}
    position = position_from_document(ground_doc)
    devastated = set()
    for index, centre in enumerate(checked_list(doc.get("devastated", []), "devastated")):
        if not isinstance(centre, str) or centre.strip().upper() not in game_map.supply_centres:
            raise DocumentError(f"devastated[{index}]: {centre!r} is not a supply centre")
        devastated.add(centre.strip().upper())
    return replace(position, air_units=air_units, devastated=frozenset(devastated))


def dirigible_position_to_document(position: Position) -> dict[str, Any]:
    return {
        "variant": position.variant,
        "phase": str(position.phase),
        "units": units_by_power(list(position.units.values()) + list(position.air_units.values())),
        "centers": centres_by_power(position.centres),
        "dislodged": dislodged_by_power(position.dislodged),
        "devastated": sorted(position.devastated),
    }


def read_dirigible_order(text: Any, power: Power, position: Position, game_map: GameMap) -> Order | ParseError:
    """Parse one order and fill in what the text left out, looking at both layers."""
    order = parse_order(text, game_map=game_map, phase_type=position.phase.type, power=power)
    if isinstance(order, ParseError):
        return order
    return normalise_dirigible_order(order, position, game_map)


def normalise_dirigible_order(order: Order, position: Position, game_map: GameMap) -> Order:
    """A ``D`` unit is looked up above the board; a unit named without ``D`` where only a
    dirigible stands is taken to mean the dirigible; the rest is the standard normalisation."""
    if isinstance(order, (Build, Waive)):
        return order
    unit = _meant(order.unit, position)
    if isinstance(order, Devastate):
        return Devastate(unit)
    if isinstance(order, (SupportHold, SupportMove)):
        supported = _meant(order.supported, position)
        if unit.type is UnitType.DIRIGIBLE or supported.type is UnitType.DIRIGIBLE:
            ground_supported = supported.type is not UnitType.DIRIGIBLE
            if ground_supported:
                supported = _ground_unit(supported, position)
            if isinstance(order, SupportHold):
                return SupportHold(unit, supported)
            destination = order.destination if supported.type is UnitType.FLEET else order.destination.split("/")[0]
            return SupportMove(unit, supported, destination)
    if unit.type is UnitType.DIRIGIBLE:
        if isinstance(order, Hold):
            return Hold(unit)
        if isinstance(order, Move):
            return replace(order, unit=unit, destination=order.destination.split("/")[0])
        if isinstance(order, Remove):
            return Remove(unit)
        if isinstance(order, Convoy):
            return Convoy(unit, order.army, order.destination)
        return order
    return normalise_order(order, position, game_map)


def _meant(named: Unit, position: Position) -> Unit:
    province = named.province
    if named.type is UnitType.DIRIGIBLE:
        return Unit(UnitType.DIRIGIBLE, province)
    dislodged_here = any(d.unit.province == province for d in position.dislodged)
    if province not in position.units and province in position.air_units and not dislodged_here:
        return position.air_units[province].unit
    return named


def _ground_unit(named: Unit, position: Position) -> Unit:
    standing = position.units.get(named.province)
    return standing.unit if standing is not None else named


# --- the whole contract --------------------------------------------------------------------------


def adjudicate_dirigible_document(doc: Any) -> dict[str, Any]:
    """``entente adjudicate`` for ``"variant": "dirigible"``: one phase in, its outcome out."""
    position = dirigible_position_from_document(doc)
    check_fields(doc, FIELDS)
    game_map = load_map(VARIANT)
    edition = doc.get("edition", "2000")
    if edition not in EDITIONS:
        raise DocumentError(f"edition: {edition!r} is not one of {', '.join(EDITIONS)}")
    civil_disorder = frozenset(power_list(doc.get("civil_disorder", []), "civil_disorder", game_map))
    victory_centres = doc.get("victory_centres")
    if victory_centres is not None and (not isinstance(victory_centres, int) or victory_centres < 1):
        raise DocumentError(f"victory_centres: expected a positive integer, got {victory_centres!r}")
    entries: list[tuple[Power, str, Order | ParseError]] = []
    for power, texts in power_mapping(doc.get("orders", {}), "orders", game_map).items():
        for index, text in enumerate(checked_list(texts, f"orders.{power}")):
            if not isinstance(text, str):
                raise DocumentError(f"orders.{power}[{index}]: expected a string, got {text!r}")
            entries.append((power, text, read_dirigible_order(text, power, position, game_map)))
    parsed: dict[Power, list[Order]] = {}
    for power, _text, order in entries:
        if not isinstance(order, ParseError):
            parsed.setdefault(power, []).append(order)
    resolution = adjudicate_dirigible(position, parsed, edition=edition, civil_disorder=civil_disorder,
                                      victory_centres=victory_centres)
    out = dirigible_resolution_document(position, resolution, entries)
    carry_rules(doc, out)
    return out


def dirigible_resolution_document(before: Position, resolution: Resolution,
                                  entries: list[tuple[Power, str, Order | ParseError]]) -> dict[str, Any]:
    orders = results_with_forced(resolution, entries)
    after = resolution.position
    out = {
        "variant": VARIANT,  # read back, the output is a Dirigible document again
        "phase": str(resolution.phase),
        "orders": orders,
        "units": units_by_power(list(after.units.values()) + list(after.air_units.values())),
        "dislodged": dislodged_by_power(resolution.dislodged),
        "centers": centres_by_power(after.centres),
        "devastated": sorted(after.devastated),
        "next_phase": str(resolution.next_phase),
    }
    if resolution.phase.type is PhaseType.ADJUSTMENTS:
        out["points"] = dict(sorted(supply_points(before).items()))
    if resolution.winners:
        out["winners"] = sorted(resolution.winners)
    return out
