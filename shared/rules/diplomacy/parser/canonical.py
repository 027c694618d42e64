"""The canonical short notation, read fast.

Every stored order is in the canonical notation that ``str(order)`` prints (``A PAR - BUR``,
``F STP/SC - BOT``, ``A LON - NWY VIA``, ``F NTH C A LON - NWY``, ``A MUN S A BER - SIL``,
``A BUD R GAL``, ``A BUD D``, ``F STP/NC B``, ``WAIVE``), and bots send it too. This reader
takes exactly that grammar, upper-case words split by single spaces with the map's own codes,
and answers None for anything else, which the general parser then reads. It must give the same
order as the general parser for every text it accepts (tests/rules/diplomacy/test_parser_canonical.py).

``canonical_readings`` remembers what it read, per map and phase type (bounded): stored orders,
bots and JSON Lines of many phases repeat the same texts, and a remembered order is one dict
lookup. Only texts that ``str`` of their order gives back exactly are remembered as orders, so a
caller may print such an order as the text it came from (docs/rules/datc.md, "Speed").
"""
from __future__ import annotations

from typing import Final

from ..geography import GameMap
from ..movement_tables import MovementTables, movement_tables
from ..orders import (
    Build,
    Convoy,
    Hold,
    Order,
    Retreat,
    SupportHold,
    SupportMove,
    Unit,
    UnitType,
    Waive,
)
from ..phase import PhaseType
from .cursor import disband_or_remove, move_or_retreat

_UNIT_TYPES: Final = {"A": UnitType.ARMY, "F": UnitType.FLEET}  # "D" is also a verb: left to the parser

READINGS_KEPT: Final = 10_000
"""Texts remembered per map and phase type; past that the memory starts again (bounded, so
that no stream of distinct texts grows it without end: about 400 bytes a text, so at most about
4 MB a table; 400 phases of random games use 3,500 texts)."""

_NOT_READ: Final = Waive()  # a text not read yet: no reading is this very object

_READINGS: Final[dict[tuple[GameMap, str], dict[str, Order | None]]] = {}


def canonical_readings(game_map: GameMap, phase_type: PhaseType | None) -> dict[str, Order | None]:
    """The texts already read on this map in this kind of phase: text -> its order, or None
    when the text is not canonical. Read it, and add to it, with ``read_canonical_cached``."""
    key = (game_map, phase_type._value_ if phase_type is not None else "")  # _value_: no Enum hash call
    readings = _READINGS.get(key)
    if readings is None:
        if len(_READINGS) >= 64:  # maps built on the fly (tests, variants): keep the memory bounded
            _READINGS.clear()
        readings = _READINGS[key] = {}
    return readings


def read_canonical_cached(text: str, game_map: GameMap, phase_type: PhaseType | None,
                          readings: dict[str, Order | None] | None = None) -> Order | None:
    """``read_canonical``, remembered in ``readings`` (those of the map and phase type)."""
    if readings is None:
        readings = canonical_readings(game_map, phase_type)
    found = readings.get(text, _NOT_READ)  # (not a KeyError caught: compiled, a raise builds a traceback)
    if found is not _NOT_READ:
        return found
    order = read_canonical(text, game_map, phase_type)
    if order is not None and str(order) != text:
        order = None  # not remembered as canonical: the general parser reads it, to the same order
    if len(readings) >= READINGS_KEPT:
        readings.clear()
    readings[text] = order
    return order


def read_canonical(text: str, game_map: GameMap, phase_type: PhaseType | None) -> Order | None:
    """The order written in canonical notation, or None when ``text`` is not exactly that."""
    if text == "WAIVE":
        return Waive()
    words = text.split(" ")
    if len(words) < 3:
        return None
    tables = movement_tables(game_map)
    unit = _unit(words[0], words[1], tables)
    if unit is None:
        return None
    return _read_verb(unit, words[2], words[3:], tables, phase_type)


def _read_verb(unit: Unit, verb: str, rest: list[str], tables: MovementTables,
               phase_type: PhaseType | None) -> Order | None:
    """The order of ``unit`` written ``verb`` and ``rest`` in canonical notation, or None."""
    if verb in ("-", "R") and unit.type is UnitType.ARMY and rest and "/" in rest[0]:
        return None  # an army's destination carries no coast: the general parser drops it
    if not rest:
        return _read_alone(unit, verb, phase_type)
    if verb == "R" and len(rest) == 1 and rest[0] in tables.locations:
        return Retreat(unit, rest[0])
    if verb == "-" and rest[0] in tables.locations:
        if len(rest) == 1:
            return move_or_retreat(unit, rest[0], False, phase_type)
        return move_or_retreat(unit, rest[0], True, phase_type) if rest[1:] == ["VIA"] else None
    if verb in ("S", "C") and len(rest) in (2, 4):
        return _read_support_or_convoy(unit, verb, rest, tables)
    return None


def _read_alone(unit: Unit, verb: str, phase_type: PhaseType | None) -> Order | None:
    """A hold, build or disband: the verb with nothing after it."""
    if verb == "H":
        return Hold(unit)
    if verb == "B":
        return Build(unit)
    if verb == "D":
        return disband_or_remove(unit, False, phase_type)
    return None


def _read_support_or_convoy(unit: Unit, verb: str, rest: list[str], tables: MovementTables) -> Order | None:
    """``S``/``C`` and the other unit (a support to hold: two words; a move: four)."""
    other = _unit(rest[0], rest[1], tables)
    if other is None:
        return None
    if len(rest) == 2:
        return SupportHold(unit, other) if verb == "S" else None
    if rest[2] != "-" or rest[3] not in tables.locations:
        return None
    if verb == "S":
        destination = rest[3] if other.type is UnitType.FLEET else rest[3].split("/", 1)[0]
        return SupportMove(unit, other, destination) if destination == rest[3] else None
    if other.type is UnitType.ARMY and "/" not in rest[3]:
        return Convoy(unit, other, rest[3])
    return None


def _unit(letter: str, location: str, tables: MovementTables) -> Unit | None:
    unit_type = _UNIT_TYPES.get(letter)
    if unit_type is None or location not in tables.locations:  # a province code or a fleet coast
        return None
    if unit_type is UnitType.ARMY and "/" in location:
        return None  # armies carry no coast: the general parser drops it
    return tables.unit(unit_type, location)  # the map's shared value where it has one
