"""Structured orders, menus and order subjects of Tale of Ekonia (docs/api.md, "Structured
orders" and "One order at a time").

Unit orders name a group of a state's units by count, type and place; their ``unit`` is written
``3 INFANTRY at anesia``. Shapes (besides ``text``, ``type``, ``unit``, ``to``):

| type | unit | to | more |
| --- | --- | --- | --- |
| move | the group | the last territory of the path | ``count``, ``unit_type``, ``from``, ``path`` |
| load, unload, bombard, | the group | the sea loaded into, | ``count``, ``unit_type``, |
| drop, rebase | | the territory reached | ``from`` |
| disband, hide_units, privateer | the group | None | ``count``, ``unit_type``, ``location`` |
| buy | None | the sea a ship is launched into, or None | ``count``, ``unit_type``, ``location`` |
| improve | None | None | ``improvement`` (FORT, SHIPYARD, GASVENT), ``location`` |
| raze | None | None | ``location`` |
| morale, hide_cities | None | None | ``level`` |
| spy | None | None | ``mission``, ``target`` (a territory, a state or None) |
| give, expect | None | None | ``amount``, ``power`` (to whom, from whom) |
| diplomacy | None | None | ``stance`` (WAR, PEACE, TRADE, END TRADE, SPARE, HUNT), ``power`` |

An order of a kind not in this table comes with its own fields under its snake-case name.
"""
from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping, Sequence
from typing import Any, cast

from shared.rules.ekonia import orders as O
from shared.rules.ekonia.board import Board
from shared.rules.ekonia.parser import ParseError, parse_order

from .documents import MenuGroup, StructuredOrder
from .structured import menu_group, structured, unreadable_order

GROUP_KEY = re.compile(r"^(\d+) ([A-Z]+)( stored)? at (\S+)$")
DIPLOMACY_AXES = {"WAR": "STANCE", "PEACE": "STANCE", "TRADE": "TRADE", "END TRADE": "TRADE",
                  "SPARE": "PRIVATEERS", "HUNT": "PRIVATEERS"}


def group(count: int, unit_type: str, place: str) -> str:
    return f"{count} {unit_type} at {place}"


def _units(text: str, kind: str, count: int, unit_type: str, origin: str, to: str | None) -> StructuredOrder:
    return structured(text, kind, group(count, unit_type, origin), to, count=count, unit_type=unit_type,
                      **{"from": origin})


def _standing(text: str, kind: str, count: int, unit_type: str, at: str) -> StructuredOrder:
    return structured(text, kind, group(count, unit_type, at), None, count=count, unit_type=unit_type, location=at)


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def order_json(order: Any) -> StructuredOrder:
    """The structured value of one Ekonia order."""
    text = order.text()
    if isinstance(order, O.Move):
        return {**_units(text, "move", order.count, order.unit, order.origin, order.target), "path": list(order.path)}
    if isinstance(order, O.Load):
        return _units(text, "load", order.count, order.unit, order.origin, order.sea)
    if isinstance(order, O.Unload):
        return _units(text, "unload", order.count, order.unit, order.sea, order.target)
    if isinstance(order, O.Bombard):
        return _units(text, "bombard", order.count, "TRIREME", order.origin, order.target)
    if isinstance(order, O.Drop):
        return _units(text, "drop", order.count, "INFANTRY", order.base, order.target)
    if isinstance(order, O.Rebase):
        return _units(text, "rebase", order.count, "AIRSHIP", order.base, order.target)
    if isinstance(order, O.Disband):
        return _standing(text, "disband", order.count, order.unit, order.at)
    if isinstance(order, O.HideUnits):
        return _standing(text, "hide_units", order.count, "INFANTRY", order.at)
    if isinstance(order, O.Privateer):
        return _standing(text, "privateer", order.count, "TRIREME", order.at)
    if isinstance(order, O.Buy):
        return structured(text, "buy", None, order.launch_to, count=order.count, unit_type=order.unit,
                          location=order.at)
    if isinstance(order, O.Improve):
        return structured(text, "improve", improvement=order.kind, location=order.at)
    if isinstance(order, O.Raze):
        return structured(text, "raze", location=order.at)
    if isinstance(order, O.AttackPrivateers):
        return structured(text, "attack_privateers", location=order.at)
    if isinstance(order, O.Morale):
        return structured(text, "morale", level=order.level)
    if isinstance(order, O.HideCities):
        return structured(text, "hide_cities", level=order.level)
    if isinstance(order, O.Spy):
        return structured(text, "spy", mission=order.mission, target=order.target)
    if isinstance(order, O.Give):
        return structured(text, "give", amount=order.amount, power=order.to)
    if isinstance(order, O.Expect):
        return structured(text, "expect", amount=order.amount, power=order.source)
    if isinstance(order, O.Diplomacy):
        return structured(text, "diplomacy", stance=order.kind, power=order.other)
    fields = {f.name: getattr(order, f.name) for f in dataclasses.fields(order) if f.name not in ("text", "type")}
    return cast(StructuredOrder, {**structured(text, _snake(type(order).__name__)),
                                  **{k: list(v) if isinstance(v, tuple) else v for k, v in fields.items()}})


def describe(text: str, board: Board) -> StructuredOrder:
    order = parse_order(text, board)
    return unreadable_order(text) if isinstance(order, ParseError) else order_json(order)


def subject(text: str, board: Board) -> str | None:
    """What an order (or a group named alone, ``3 INFANTRY at anesia``) is about: a group's
    orders are about its units' type and place (``INFANTRY at anesia``: moving two of them and
    loading the third are one decision), a purchase about the type and place, diplomacy about
    the other state and the matter (war or peace; trade; privateers), morale and hidden cities
    about themselves, any other order about its own text."""
    named = GROUP_KEY.match(text.strip())
    if named:
        return f"{named.group(2)} at {named.group(4)}"
    order = parse_order(text, board)
    if isinstance(order, ParseError):
        return None
    described = order_json(order)
    if described["unit"] is not None:
        return f"{described['unit_type']} at {described.get('from') or described['location']}"
    if isinstance(order, O.Buy):
        return f"BUY {order.unit} AT {order.at}"
    if isinstance(order, (O.Morale, O.HideCities)):
        return str(described["type"]).upper()
    if isinstance(order, O.Diplomacy):
        return f"{DIPLOMACY_AXES.get(order.kind, order.kind)} {order.other}"
    if isinstance(order, (O.Give, O.Expect)):
        return f"{described['type'].upper()} {described['power']}"
    return str(described["text"])


def menu(options: Mapping[str, Sequence[str]], board: Board) -> list[MenuGroup]:
    """The text menu's groups (``3 INFANTRY at anesia``, a territory, ``general``) as groups of
    structured orders."""
    groups = []
    for key, texts in options.items():
        if not texts:
            continue
        orders = [describe(text, board) for text in texts]
        named = GROUP_KEY.match(key)
        if key == "general":
            groups.append(menu_group(key, "power", None, None, orders))
        elif named:
            groups.append(menu_group(key, "unit", key, named.group(4), orders))
        else:
            groups.append(menu_group(key, "site", None, key, orders))
    return groups
