"""The fields of an ``entente adjudicate`` document, read and written: objects keyed by power,
lists, and the units, centres and dislodged units of a position grouped by power. The standard
document (document.py) and the Dirigible one (shared/rules/dirigible/document.py) share them.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Generic, TypeVar

from .geography import GameMap
from .position import DislodgedUnit, Power, PowerUnit

_T = TypeVar("_T")


class ByPower(Generic[_T]):
    """Lists keyed by power (``lists``), filled with ``of(power).append(...)``. Documents and
    positions list things power by power, so the list of the power met last is kept at hand: one
    dict lookup a power rather than one an item (docs/performance.md, 2026-12-02, "The rules
    engine: a numbered board and fewer lookups")."""

    def __init__(self) -> None:
        self.lists: dict[Power, list[_T]] = {}
        self._power: Power = ""
        self._list: list[_T] = []

    def of(self, power: Power) -> list[_T]:
        if power is not self._power:
            found = self.lists.get(power)  # (not setdefault: it builds an empty list each time)
            if found is None:
                found = self.lists[power] = []
            self._power, self._list = power, found
        return self._list


class DocumentError(ValueError):
    """The input document is malformed; the message names the field."""


INPUT_FIELDS = frozenset({"variant", "phase", "edition", "units", "centers", "centres", "dislodged", "orders",
                          "civil_disorder", "victory_centres"})
"""The fields an ``entente adjudicate`` document may give (docs/api.md, "The entente adjudicate document")."""
REPORT_FIELDS = frozenset({"next_phase", "winners", "adjustments"})
"""Fields an output or a view writes that mean nothing as input: accepted and ignored, so an
output (with ``phase`` set to its ``next_phase`` and new ``orders``) reads as the next document."""


def check_fields(doc: Mapping[str, Any], known: frozenset[str]) -> None:
    """A field the document format does not have is refused: a misspelt one would be ignored."""
    for key in doc:
        if key not in known:
            raise DocumentError(f"{key}: not a field of the document (expected {', '.join(sorted(known))})")


def centres_field(doc: Mapping[str, Any]) -> str:
    """``centers`` (the documents' spelling) or ``centres`` (the views'): either, not both."""
    if "centres" in doc:
        if "centers" in doc:
            raise DocumentError("centres: give the owned centres once, as centers or as centres")
        return "centres"
    return "centers"


def dislodged_items(raw: Any, game_map: GameMap) -> list[tuple[Power, str, Any]]:
    """(power, field, item) for each dislodged unit, from either shape: the documents' object
    by power, ``{"RUSSIA": [{"unit", "attacker_from", "retreats"}]}``, or the views' list,
    ``[{"power": "RUSSIA", "unit", "attacker_from", "retreats"}]``."""
    if type(raw) is dict and not raw:  # the usual case, nobody dislodged (no ABC check)
        return []
    if not isinstance(raw, (list, Mapping)):
        raise DocumentError("dislodged: expected an object keyed by power, or a list of objects with power")
    if isinstance(raw, list):
        items: list[tuple[Power, str, Any]] = []
        for index, item in enumerate(raw):
            field = f"dislodged[{index}]"
            if not isinstance(item, Mapping):
                raise DocumentError(f"{field}: expected an object with power, unit and attacker_from")
            power = item.get("power")
            key = power.strip().upper() if isinstance(power, str) else ""
            if key not in game_map.power_info:
                raise DocumentError(f"{field}.power: unknown power {power!r}")
            items.append((key, field, {k: v for k, v in item.items() if k != "power"}))
        return items
    return [(power, f"dislodged.{power}[{index}]", item)
            for power, listed in power_mapping(raw, "dislodged", game_map).items()
            for index, item in enumerate(checked_list(listed, f"dislodged.{power}"))]


def power_mapping(raw: Any, field: str, game_map: GameMap) -> dict[Power, Any]:
    """The object keyed by power names, each written as the map writes it. Read only: the usual
    document, whose keys are written so already, comes back as it is, not copied."""
    powers = game_map.power_set
    if type(raw) is dict:  # (typed below: compiled, its keys are then read as a dict's)
        given: dict[Any, Any] = raw
        canonical = True
        for key in given:
            if key not in powers:
                canonical = False
                break
        if canonical:
            return given
    elif not isinstance(raw, Mapping):
        raise DocumentError(f"{field}: expected an object keyed by power")
    result: dict[Power, Any] = {}
    for key, value in raw.items():
        power = key if key in powers else key.strip().upper() if isinstance(key, str) else key
        if power not in powers:
            raise DocumentError(f"{field}: unknown power {key!r} (expected one of {', '.join(game_map.powers)})")
        if power in result:  # two spellings of one power: which to take is anybody's guess
            raise DocumentError(f"{field}: {key!r} names {power} again (give each power once)")
        result[power] = value
    return result


def power_list(raw: Any, field: str, game_map: GameMap) -> list[Power]:
    powers = []
    for index, item in enumerate(checked_list(raw, field)):
        power = item.strip().upper() if isinstance(item, str) else item
        if power not in game_map.power_info:
            raise DocumentError(f"{field}[{index}]: unknown power {item!r}")
        powers.append(power)
    return powers


def checked_list(raw: Any, field: str) -> list[Any]:
    if not isinstance(raw, list):
        raise DocumentError(f"{field}: expected a list, got {type(raw).__name__}")
    return raw


def units_by_power(units: Iterable[PowerUnit]) -> dict[Power, list[str]]:
    grouped: ByPower[str] = ByPower()
    for pu in units:
        grouped.of(pu.power).append(pu.unit.text)
    return _sorted_by_power(grouped.lists)


def centres_by_power(centres: Mapping[str, Power]) -> dict[Power, list[str]]:
    # a dict as the rules build them, read as one (compiled, a Mapping's items are method calls)
    return _sorted_by_power(_owned_by_power(centres if isinstance(centres, dict) else dict(centres)))


def _owned_by_power(centres: dict[str, Power]) -> dict[Power, list[str]]:
    grouped: ByPower[str] = ByPower()
    for province, power in centres.items():
        grouped.of(power).append(province)
    return grouped.lists


def _sorted_by_power(grouped: dict[Power, list[str]]) -> dict[Power, list[str]]:
    """The lists sorted where they are (they are this function's own: no copy), powers in order."""
    result: dict[Power, list[str]] = {}
    for power in sorted(grouped):
        listed = grouped[power]
        listed.sort()
        result[power] = listed
    return result


def dislodged_by_power(dislodged: Iterable[DislodgedUnit]) -> dict[Power, list[dict[str, Any]]]:
    grouped: dict[Power, list[dict[str, Any]]] = {}
    for d in sorted(dislodged, key=lambda d: (d.power, d.unit.location)):
        grouped.setdefault(d.power, []).append(
            {"unit": d.unit.text, "attacker_from": d.attacker_from, "retreats": list(d.retreats)}
        )
    return grouped
