"""The fields of an ``entente adjudicate`` document, read and written: objects keyed by power,
lists, and the units, centres and dislodged units of a position grouped by power. The standard
document (document.py) and the Dirigible one (shared/rules/dirigible/document.py) share them.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from .geography import GameMap
from .position import DislodgedUnit, Power, PowerUnit


class DocumentError(ValueError):
    """The input document is malformed; the message names the field."""


def power_mapping(raw: Any, field: str, game_map: GameMap) -> dict[Power, Any]:
    if type(raw) is not dict and not isinstance(raw, Mapping):  # a dict first: no ABC check
        raise DocumentError(f"{field}: expected an object keyed by power")
    result: dict[Power, Any] = {}
    powers = game_map.power_info
    for key, value in raw.items():
        power = key if key in powers else key.strip().upper() if isinstance(key, str) else key
        if power not in powers:
            raise DocumentError(f"{field}: unknown power {key!r} (expected one of {', '.join(game_map.powers)})")
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
    grouped: dict[Power, list[str]] = {}
    for pu in units:
        text = str(pu.unit)
        owned = grouped.get(pu.power)
        if owned is None:
            grouped[pu.power] = [text]
        else:
            owned.append(text)
    return {power: sorted(grouped[power]) for power in sorted(grouped)}


def centres_by_power(centres: Mapping[str, Power]) -> dict[Power, list[str]]:
    grouped: dict[Power, list[str]] = {}
    for province, power in centres.items():
        owned = grouped.get(power)
        if owned is None:
            grouped[power] = [province]
        else:
            owned.append(province)
    return {power: sorted(grouped[power]) for power in sorted(grouped)}


def dislodged_by_power(dislodged: Iterable[DislodgedUnit]) -> dict[Power, list[dict[str, Any]]]:
    grouped: dict[Power, list[dict[str, Any]]] = {}
    for d in sorted(dislodged, key=lambda d: (d.power, d.unit.location)):
        grouped.setdefault(d.power, []).append(
            {"unit": str(d.unit), "attacker_from": d.attacker_from, "retreats": list(d.retreats)}
        )
    return grouped
