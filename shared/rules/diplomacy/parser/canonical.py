"""The canonical short notation, read fast.

Every stored order is in the canonical notation that ``str(order)`` prints (``A PAR - BUR``,
``F STP/SC - BOT``, ``A LON - NWY VIA``, ``F NTH C A LON - NWY``, ``A MUN S A BER - SIL``,
``A BUD R GAL``, ``A BUD D``, ``F STP/NC B``, ``WAIVE``), and bots send it too. This reader
takes exactly that grammar, upper-case words split by single spaces with the map's own codes,
and answers None for anything else, which the general parser then reads. It must give the same
order as the general parser for every text it accepts (tests/rules/diplomacy/test_parser_canonical.py).
"""
from __future__ import annotations

from ..geography import GameMap
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

_UNIT_TYPES = {"A": UnitType.ARMY, "F": UnitType.FLEET}  # "D" is also a verb: left to the parser


def read_canonical(text: str, game_map: GameMap, phase_type: PhaseType | None) -> Order | None:
    """The order written in canonical notation, or None when ``text`` is not exactly that."""
    if text == "WAIVE":
        return Waive()
    words = text.split(" ")
    if len(words) < 3:
        return None
    unit = _unit(words[0], words[1], game_map)
    if unit is None:
        return None
    verb, rest = words[2], words[3:]
    if verb in ("-", "R") and unit.type is UnitType.ARMY and rest and "/" in rest[0]:
        return None  # an army's destination carries no coast: the general parser drops it
    if verb == "H" and not rest:
        return Hold(unit)
    if verb == "B" and not rest:
        return Build(unit)
    if verb == "D" and not rest:
        return disband_or_remove(unit, False, phase_type)
    if verb == "R" and len(rest) == 1 and _location(rest[0], game_map):
        return Retreat(unit, rest[0])
    if verb == "-" and rest and _location(rest[0], game_map):
        if len(rest) == 1:
            return move_or_retreat(unit, rest[0], False, phase_type)
        if rest[1:] == ["VIA"]:
            return move_or_retreat(unit, rest[0], True, phase_type)
        return None
    if verb in ("S", "C") and len(rest) in (2, 4):
        other = _unit(rest[0], rest[1], game_map)
        if other is None:
            return None
        if len(rest) == 2:
            return SupportHold(unit, other) if verb == "S" else None
        if rest[2] != "-" or not _location(rest[3], game_map):
            return None
        if verb == "S":
            destination = rest[3] if other.type is UnitType.FLEET else rest[3].split("/", 1)[0]
            return SupportMove(unit, other, destination) if destination == rest[3] else None
        if other.type is UnitType.ARMY and "/" not in rest[3]:
            return Convoy(unit, other, rest[3])
    return None


def _unit(letter: str, location: str, game_map: GameMap) -> Unit | None:
    unit_type = _UNIT_TYPES.get(letter)
    if unit_type is None or not _location(location, game_map):
        return None
    if unit_type is UnitType.ARMY and "/" in location:
        return None  # armies carry no coast: the general parser drops it
    return Unit(unit_type, location)


def _location(word: str, game_map: GameMap) -> bool:
    """A province code of the map, or one of its fleet coasts (``STP/NC``)."""
    province, _, coast = word.partition("/")
    if province not in game_map.provinces:
        return False
    return not coast or word in game_map.fleet_locations(province)
