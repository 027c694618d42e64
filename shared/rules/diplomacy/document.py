"""The JSON contract of ``entente adjudicate``: one phase in as a dict, its outcome out.

Input::

    {"variant": "standard", "phase": "F1907M", "edition": "2000" (optional),
     "units": {"ENGLAND": ["A LON", "F NTH"]}, "centers": {"ENGLAND": ["LON"]},
     "dislodged": {"RUSSIA": [{"unit": "F SEV", "attacker_from": "BLA", "retreats": ["RUM"]}]},
     "orders": {"ENGLAND": ["A LON - HOL VIA"]},
     "civil_disorder": ["ITALY"] (optional), "victory_centres": 18 (optional)}

Output::

    {"phase", "orders": {POWER: [{"order", "result", "reason"}]}, "units", "dislodged",
     "centers", "next_phase"} (and "edition", "victory_centres" when the input gave them)

A power's results follow its orders in the input's order; the removals the rules made for it
(civil disorder, too few removals ordered) come after them. Orders may be written in any
notation the parser reads; text it cannot read comes back as written with a ``void`` result
and the parser's message as the reason. A malformed
document raises ``DocumentError`` (a ValueError) naming the offending field, and so does a
field the format does not have.

The shapes of outputs and views read back (docs/api.md, "The entente adjudicate document"): ``centres`` is
``centers``; ``dislodged`` may be the views' list; an output's ``next_phase`` and a view's
``adjustments`` are ignored; outside a retreat phase the units an output reported disbanded
(``"retreats": []``) are ignored. So an output, with ``phase`` set to its ``next_phase`` and
new ``orders``, is the next phase's document.
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Final, cast

from . import c_core
from .adjudicate import adjudicate, after_movement
from .civil_disorder import EDITIONS
from .document_fields import (
    INPUT_FIELDS,
    REPORT_FIELDS,
    ByPower,
    DocumentError,
    centres_by_power,
    centres_field,
    check_fields,
    checked_list,
    dislodged_by_power,
    dislodged_items,
    power_list,
    power_mapping,
    units_by_power,
)
from .geography import GameMap, MapDataError, load_map
from .movement import settle_movement
from .movement_tables import movement_tables
from .normalise import normalise_order
from .orders import Order, Unit, UnitType, province_of
from .parser import ParseError, parse_order
from .parser.canonical import canonical_readings, read_canonical_cached
from .phase import Phase, PhaseType
from .position import DislodgedUnit, OrderResult, Position, Power, PowerUnit, Resolution

# The parser's error type in a Final name: compiled, a C static, where the class's own name is
# looked up in the module's dict at every use (three times an order here). ``type(x) is`` it
# is then no narrowing for mypy where it is not: the branches that need the type ``cast`` (a type check).
_PARSE_ERROR: Final = ParseError
_DOCUMENT_FIELDS: Final = INPUT_FIELDS | REPORT_FIELDS
_NO_POWERS: Final[list[Power]] = []  # never written to
CARRIED_FIELDS: Final = ("edition", "victory_centres")
_UNIT_TEXT: Final = re.compile(r"^\s*([AF])\s+([A-Z]{3})(?:\s*(?:/|\(|\s)\s*([A-Z]{2})\s*\)?)?\s*$")


# --- the whole contract ----------------------------------------------------------------------


def adjudicate_document(doc: Any) -> dict[str, Any]:
    """Adjudicate one phase given as a contract document; returns the output document. (Each
    variant has its own document reader; ``shared.rules.variants`` picks it by ``"variant"``.)

    A movement phase goes to the C core first where it was built (c_core.py; docs/rules/c_core.md):
    it writes the same output for the documents it takes and leaves the rest to the engine."""
    core = c_core.MOVEMENT_DOCUMENT
    if core is not None and type(doc) is dict:
        out = core(doc)
        if out is not None:
            return out
    return adjudicate_document_by_engine(doc)


def adjudicate_document_by_engine(doc: Any) -> dict[str, Any]:
    """``adjudicate_document`` by the Python engine alone: the reference the C core is held to."""
    position, centres_read = _read_position(doc)
    fields = _fields(doc)
    check_fields(fields, _DOCUMENT_FIELDS)
    game_map = load_map(position.variant)
    edition = fields.get("edition", "2000")
    if edition not in EDITIONS:
        raise DocumentError(f"edition: {edition!r} is not one of {', '.join(EDITIONS)}")
    disorder = fields.get("civil_disorder", _NO_POWERS)
    civil_disorder = (frozenset(power_list(disorder, "civil_disorder", game_map))
                      if type(disorder) is not list or disorder else frozenset())
    victory_centres = fields.get("victory_centres")
    if victory_centres is not None and (not isinstance(victory_centres, int) or victory_centres < 1):
        raise DocumentError(f"victory_centres: expected a positive integer, got {victory_centres!r}")

    entries, parsed = _read_orders(fields.get("orders", {}), position, game_map)
    if position.phase.type is PhaseType.MOVEMENT and not civil_disorder:
        out = _movement_document(position, entries, parsed, game_map, centres_read)
    else:
        resolution = adjudicate(
            position, parsed, edition=edition, civil_disorder=civil_disorder, victory_centres=victory_centres
        )
        out = resolution_document(resolution, entries, printed=True,
                                  centres=_centres_as_read(resolution.position.centres, position, centres_read))
    carry_rules(fields, out)
    return out


def _movement_document(position: Position, entries: list[tuple[Power, str, Order | ParseError]],
                       orders: dict[Power, list[Order]], game_map: GameMap,
                       centres_read: dict[Power, list[str]] | None) -> dict[str, Any]:
    """The output of a movement phase (no power in civil disorder), written straight from its
    outcome: the document ``resolution_document`` writes of ``adjudicate``'s resolution, without
    the results, positions and resolution built only to be read once here (docs/performance.md,
    2026-12-02, "The rules engine: the contract writes what it reads";
    tests/rules/diplomacy/test_lean_paths.py compares the two)."""
    outcome = settle_movement(position, orders, game_map)
    units, dislodged, _ = outcome.board_after()
    next_phase, centres = after_movement(position.phase, units, position.centres, dislodged, game_map)
    written: dict[Power, list[dict[str, Any]]] = {}
    items: list[dict[str, Any]] = []
    current: Power = ""
    answered = 0
    for power, text, order in entries:
        if power is not current:  # the entries come power by power, one run a power (_read_orders)
            current, items = power, []
            written[power] = items
        if type(order) is _PARSE_ERROR:
            items.append({"order": text, "result": "void", "reason": order.message})
        else:
            result, reason = outcome.answer(answered)
            answered += 1
            items.append({"order": text, "result": result, "reason": reason})
    as_read = _centres_as_read(centres, position, centres_read)
    return {
        "phase": str(position.phase),
        "orders": written,
        "units": units_by_power(units.values()),
        "dislodged": dislodged_by_power(dislodged),
        "centers": as_read if as_read is not None else centres_by_power(centres),
        "next_phase": str(next_phase),
    }


def _centres_as_read(centres: Mapping[str, Power], before: Position,
                     centres_read: dict[Power, list[str]] | None) -> dict[Power, list[str]] | None:
    """The centres as an output writes them, from the document's own grouping (``_read_position``)
    when no centre changed hands (``centres`` is still the position's own dict); else None."""
    if centres_read is None or centres is not before.centres:
        return None
    written = {}
    for power in sorted(centres_read):
        provinces = centres_read[power]
        if provinces:
            written[power] = sorted(provinces)
    return written


def results_per_entry(resolution: Resolution, entries: list[tuple[Power, str, Order | ParseError]],
                      printed: bool = False) -> tuple[dict[Power, list[dict[str, Any]]], list[OrderResult]]:
    """One result per input entry, in input order (text the parser could not read is void with
    the parser's message), and the results the rules added beyond them (forced removals).

    ``printed``: each order's text in ``entries`` is already its canonical text (what
    ``_read_orders`` gives), so it is written as it stands instead of printed again."""
    results = resolution.results  # input-ordered first; extras follow
    answered = 0  # (an index, not ``next`` on an iterator: compiled, that is a call of the builtin by name)
    orders: ByPower[dict[str, Any]] = ByPower()
    for power, text, order in entries:
        if type(order) is _PARSE_ERROR:
            item = {"order": text, "result": "void", "reason": order.message}
        else:
            result = results[answered]
            answered += 1
            item = {"order": text if printed else str(result.order), "result": result.result,
                    "reason": result.reason}
        orders.of(power).append(item)
    return orders.lists, list(results[answered:])


def results_with_forced(resolution: Resolution, entries: list[tuple[Power, str, Order | ParseError]],
                        printed: bool = False) -> dict[Power, list[dict[str, Any]]]:
    """One result per input entry, in input order, and after a power's own results the removals
    the rules made for it (civil disorder, or too few removals ordered), as the hosted history
    lists them (docs/rules/standard.md, sections 4 and 8): every variant's output writes them so."""
    orders, extra = results_per_entry(resolution, entries, printed)
    for result in extra:
        orders.setdefault(result.power, []).append(
            {"order": str(result.order), "result": result.result, "reason": result.reason})
    return orders


def carry_rules(doc: Mapping[str, Any], out: dict[str, Any]) -> None:
    """The rules the document gave that hold for the whole game, written into its output so that
    the output, read back as the next document, is judged by the same rules (docs/api.md, "The
    entente adjudicate document"): ``edition`` and ``victory_centres``, when given. (Civil
    disorder is a fact of one phase and is not carried.)"""
    for key in CARRIED_FIELDS:
        value = doc.get(key)
        if value is not None:
            out[key] = value


def resolution_document(resolution: Resolution, entries: list[tuple[Power, str, Order | ParseError]],
                        printed: bool = False, centres: dict[Power, list[str]] | None = None) -> dict[str, Any]:
    """The output document: one result per input entry, in input order, the rules' forced removals
    after each power's own, then the new position (``centres``: the new position's centres already
    grouped as the output writes them)."""
    orders = results_with_forced(resolution, entries, printed)
    position = resolution.position
    return {
        "phase": str(resolution.phase),
        "orders": orders,
        "units": units_by_power(position.units.values()),
        "dislodged": dislodged_by_power(resolution.dislodged),
        "centers": centres if centres is not None else centres_by_power(position.centres),
        "next_phase": str(resolution.next_phase),
    }


# --- positions -------------------------------------------------------------------------------


def position_to_document(position: Position) -> dict[str, Any]:
    """A position as a contract document (without orders)."""
    return {
        "variant": position.variant,
        "phase": str(position.phase),
        "units": units_by_power(position.units.values()),
        "centers": centres_by_power(position.centres),
        "dislodged": dislodged_by_power(position.dislodged),
    }


def position_from_document(doc: Any) -> Position:
    """Read and check the position part of a contract document."""
    return _read_position(doc)[0]


def _fields(doc: Any) -> dict[str, Any]:
    """The document as a dict (itself when it is one: compiled, a dict's ``get`` is a C call
    where an untyped object's is a method looked up by name)."""
    if type(doc) is dict:
        return doc
    if not isinstance(doc, Mapping):
        raise DocumentError(f"document: expected a JSON object, got {type(doc).__name__}")
    return dict(doc)


def _read_position(given: Any) -> tuple[Position, dict[Power, list[str]] | None]:
    """The position of a contract document, and its centres by power as the document lists
    them when it writes them in the map's spelling (else None): unchanged centres are then
    written back from that grouping, sorted, instead of grouped again."""
    doc = _fields(given)
    variant = doc.get("variant", "standard")
    try:
        game_map = load_map(variant)
    except MapDataError as unknown:  # (each except names its own: compiled, a name has one type)
        raise DocumentError(f"variant: unknown variant {variant!r}") from unknown
    if "phase" not in doc:
        raise DocumentError("phase: missing (expected like S1901M)")
    try:
        phase = Phase.parse(doc["phase"])
    except ValueError as exc:
        raise DocumentError(f"phase: {exc}") from exc

    tables = movement_tables(game_map)
    units: dict[str, PowerUnit] = {}
    for power, texts in power_mapping(doc.get("units", {}), "units", game_map).items():
        shared = tables.unit_texts_of(power)  # "A PAR" -> the map's shared PowerUnit
        for index, text in enumerate(texts if type(texts) is list else checked_list(texts, f"units.{power}")):
            found = shared.get(text) if type(text) is str else None
            if found is None:  # not written exactly as the map's units are: read it the long way
                found = PowerUnit(power, read_unit(text, game_map, f"units.{power}[{index}]"))
            province = found.unit.province
            taken = len(units)
            standing = units.setdefault(province, found)  # one lookup: the usual case is a free province
            if len(units) == taken:  # (not ``standing is not found``: one shared unit may be listed twice)
                raise DocumentError(
                    f"units.{power}[{index}]: two units in {province} ({standing.unit} and {found.unit})"
                )

    centres: dict[str, Power] = {}
    spelling = centres_field(doc)
    supply_centres = game_map.supply_centres
    listed = power_mapping(doc.get(spelling, {}), spelling, game_map)
    as_written = True  # every centre in the map's spelling
    for power, provinces in listed.items():
        for index, province in enumerate(provinces if type(provinces) is list
                                          else checked_list(provinces, f"{spelling}.{power}")):
            if type(province) is not str or province not in supply_centres:  # else written as is
                field = f"{spelling}.{power}[{index}]"
                if not isinstance(province, str) or province.strip().upper() not in supply_centres:
                    raise DocumentError(f"{field}: {province!r} is not a supply centre")
                province = province.strip().upper()
                as_written = False
            taken = len(centres)
            owner = centres.setdefault(province, power)  # one lookup: the usual case is a centre not yet listed
            if len(centres) == taken:
                raise DocumentError(f"{spelling}.{power}[{index}]: {province} is owned by both {owner} and {power}")

    dislodged = _read_dislodged(doc.get("dislodged", {}), units, game_map, phase)
    if dislodged and phase.type is not PhaseType.RETREATS:
        raise DocumentError(f"dislodged: units are dislodged only in a retreat phase, not in {phase}")
    grouped = cast("dict[Power, list[str]]", listed) if as_written else None
    return Position(phase, units, centres, dislodged, variant), grouped


def read_unit(text: Any, game_map: GameMap, field: str) -> Unit:
    """``"A PAR"``, ``"F STP/NC"`` (also ``"F STP(NC)"``) checked against the map."""
    match = _UNIT_TEXT.match(text.upper()) if isinstance(text, str) else None
    if not match:
        raise DocumentError(f"{field}: {text!r} is not a unit (expected like 'A PAR' or 'F STP/NC')")
    kind, province, coast = match.groups()
    if province not in game_map.provinces:
        raise DocumentError(f"{field}: unknown province {province!r} in {text!r}")
    if kind == "A":
        if not game_map.is_land(province):
            raise DocumentError(f"{field}: an army cannot stand in {province}")
        return Unit(UnitType.ARMY, province)
    locations = game_map.fleet_locations(province)
    location = f"{province}/{coast}" if coast else province
    if location not in locations:
        if not locations:
            raise DocumentError(f"{field}: a fleet cannot stand in {province}")
        raise DocumentError(f"{field}: a fleet in {province} stands at one of {', '.join(locations)}, not {text!r}")
    return Unit(UnitType.FLEET, location)


def default_retreats(unit: Unit, attacker_from: str, units: Mapping[str, PowerUnit],
                     game_map: GameMap) -> tuple[str, ...]:
    """Retreat options when the document does not list them: every place the unit could
    move to that is empty and is not the attacker's province. (Standoffs of the movement
    phase are not known here; give ``retreats`` explicitly when there were any.)"""
    if unit.type is UnitType.ARMY:
        steps = [p for p in game_map.army_neighbours(unit.location)]
    else:
        steps = list(game_map.fleet_neighbours(unit.location))
    return tuple(sorted(s for s in steps if province_of(s) not in units and province_of(s) != attacker_from))


# --- helpers ---------------------------------------------------------------------------------


def _read_dislodged(raw: Any, units: Mapping[str, PowerUnit], game_map: GameMap,
                    phase: Phase) -> tuple[DislodgedUnit, ...]:
    dislodged: list[DislodgedUnit] = []
    seen: set[str] = set()
    air = UnitType.DIRIGIBLE in game_map.unit_types
    for power, field, item in dislodged_items(raw, game_map):
        if not isinstance(item, Mapping):
            raise DocumentError(f"{field}: expected an object with unit and attacker_from")
        if _disbanded_report(item, air, phase):
            continue
        unit = read_unit(item.get("unit"), game_map, f"{field}.unit")
        if unit.province in seen:
            raise DocumentError(f"{field}: two dislodged units in {unit.province}")
        seen.add(unit.province)
        attacker = item.get("attacker_from")
        if not isinstance(attacker, str) or province_of(attacker.strip().upper()) not in game_map.provinces:
            raise DocumentError(f"{field}.attacker_from: {attacker!r} is not a province")
        attacker = province_of(attacker.strip().upper())
        if "retreats" in item:
            retreats = []
            for j, loc in enumerate(checked_list(item["retreats"], f"{field}.retreats")):
                if not isinstance(loc, str) or loc.strip().upper() not in game_map.locations:
                    raise DocumentError(f"{field}.retreats[{j}]: {loc!r} is not a location")
                retreats.append(loc.strip().upper())
            options = tuple(sorted(retreats))
        else:
            options = default_retreats(unit, attacker, units, game_map)
        dislodged.append(DislodgedUnit(power, unit, attacker, options))
    return tuple(dislodged)


def _disbanded_report(item: Mapping[str, Any], air: bool, phase: Phase) -> bool:
    """Whether an entry is an output's report of a unit disbanded already, read as nothing: a
    unit with no retreats outside a retreat phase, or (on a map with dirigibles) a dislodged
    dirigible, which is disbanded at once (docs/rules/dirigible.md)."""
    if item.get("retreats") != []:
        return False
    dirigible = air and isinstance(item.get("unit"), str) and item["unit"].strip().upper().startswith("D ")
    return dirigible or phase.type is not PhaseType.RETREATS


def _read_orders(raw: Any, position: Position, game_map: GameMap,
                 ) -> tuple[list[tuple[Power, str, Order | ParseError]], dict[Power, list[Order]]]:
    """Each order as (power, its text, what it reads as), power by power as the document lists
    them (one run a power); an order's text is its canonical text (``str`` of the order, read back
    unchanged when it was written so: ``canonical_readings``), a parse error's the text as given.
    Beside them, each power's orders that could be read (powers with none left out)."""
    entries: list[tuple[Power, str, Order | ParseError]] = []
    parsed: dict[Power, list[Order]] = {}
    phase_type = position.phase.type
    readings = canonical_readings(game_map, phase_type)
    for power, texts in power_mapping(raw, "orders", game_map).items():
        orders: list[Order] = []
        for index, text in enumerate(texts if type(texts) is list else checked_list(texts, f"orders.{power}")):
            if not isinstance(text, str):
                raise DocumentError(f"orders.{power}[{index}]: expected a string, got {text!r}")
            # the canonical notation, remembered; anything else through the general parser
            canonical = read_canonical_cached(text, game_map, phase_type, readings)
            order = canonical if canonical is not None else parse_order(
                text, game_map=game_map, phase_type=phase_type, power=power)
            if type(order) is not _PARSE_ERROR:  # exact type: compiled, one pointer compare (no subclasses)
                order = normalise_order(cast(Order, order), position, game_map)
                orders.append(order)
                if order is not canonical:  # read another way, or filled in by normalise
                    text = str(order)
            entries.append((power, text, order))
        if orders:
            parsed[power] = orders
    return entries, parsed
