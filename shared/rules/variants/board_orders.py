"""Structured orders, menus and order subjects of the games on the Diplomacy board (standard,
Dirigible): docs/api.md, "Structured orders" and "One order at a time".

Shapes (besides ``text``, ``type``, ``unit``, ``to``):

| type | unit | to | more |
| --- | --- | --- | --- |
| hold | the unit | None | |
| move | the unit | its destination (with a coast where it matters) | ``via_convoy`` |
| support_hold | the supporting unit | None | ``supported``: the unit supported |
| support_move | the supporting unit | the supported unit's destination | ``supported`` |
| convoy | the fleet | the army's destination | ``convoyed``: the army |
| retreat | the dislodged unit | where it retreats | |
| disband | the dislodged unit | None | |
| build | the unit built (``A PAR``) | None | ``location``: the build site |
| remove | the unit removed | None | |
| waive | None | None | |
| devastate | the dirigible | None | |

A unit is written as orders write it: ``A PAR``, ``F STP/SC``, ``D LON``.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence

from shared.rules.diplomacy import ParseError
from shared.rules.diplomacy.orders import (
    Build,
    Convoy,
    Devastate,
    Disband,
    Hold,
    Move,
    Order,
    Remove,
    Retreat,
    SupportHold,
    SupportMove,
    Unit,
    UnitType,
    Waive,
)
from shared.rules.diplomacy.phase import Phase, PhaseType

from .documents import MenuGroup, StructuredOrder
from .order_reading import parse_cached
from .structured import GroupKind, menu_group, structured, unreadable_order


def order_json(order: Order) -> StructuredOrder:
    """The structured value of one order of the Diplomacy board."""
    text = str(order)
    if isinstance(order, Waive):
        return structured(text, "waive")
    unit = str(order.unit)
    if isinstance(order, Hold):
        return structured(text, "hold", unit)
    if isinstance(order, Move):
        return structured(text, "move", unit, order.destination, via_convoy=order.via_convoy)
    if isinstance(order, SupportHold):
        return structured(text, "support_hold", unit, supported=str(order.supported))
    if isinstance(order, SupportMove):
        return structured(text, "support_move", unit, order.destination, supported=str(order.supported))
    if isinstance(order, Convoy):
        return structured(text, "convoy", unit, order.destination, convoyed=str(order.army))
    if isinstance(order, Retreat):
        return structured(text, "retreat", unit, order.destination)
    if isinstance(order, Build):
        return structured(text, "build", unit, location=order.unit.province)
    if isinstance(order, Remove):
        return structured(text, "remove", unit)
    if isinstance(order, Disband):
        return structured(text, "disband", unit)
    if isinstance(order, Devastate):
        return structured(text, "devastate", unit)
    return unreadable_order(text)  # pragma: no cover - every order class is named above


def read(text: str, variant: str, phase: str, power: str) -> Order | ParseError:
    return parse_cached(text, variant, Phase.parse(phase).type, power)


def describe(text: str, variant: str, phase: str, power: str) -> StructuredOrder:
    """A stored (canonical) order text as a structured value."""
    order = read(text, variant, phase, power)
    return unreadable_order(text) if isinstance(order, ParseError) else order_json(order)


def unit_subject(unit: Unit) -> str:
    """What a unit's orders are about: its province (``LVP``; one ground unit stands there),
    or ``D LON`` for a dirigible, which flies above the ground unit of its province."""
    return f"D {unit.province}" if unit.type is UnitType.DIRIGIBLE else unit.province


def subject(text: str, variant: str, phase: str, power: str) -> str | None:
    """The subject of an order text, or of a unit named alone (``A LVP``, ``LVP``, ``D LON``):
    the unit, the build site (a build or a removal in a Winter is about its province) or
    ``WAIVE``; None when the text names nothing."""
    order = read(text, variant, phase, power)
    if isinstance(order, ParseError):
        order = parse_cached(f"{text} H", variant, PhaseType.MOVEMENT, power)  # a unit named alone
    if isinstance(order, ParseError):
        return None
    if isinstance(order, Waive):
        return "WAIVE"
    return unit_subject(order.unit)


def group_of(key: str, orders: Sequence[StructuredOrder]) -> MenuGroup:
    """One group of the menu: builds at a site, a waive, or a unit's orders."""
    kinds = {order["type"] for order in orders}
    if kinds == {"build"}:
        return menu_group(key, "site", None, str(orders[0]["location"]), orders)
    if kinds <= {"waive"}:
        return menu_group(key, "power", None, None, orders)
    unit = str(orders[0]["unit"])
    kind: GroupKind = "unit"
    return menu_group(key, kind, unit, unit.split(" ", 1)[1].split("/")[0], orders)


def menu(options: Mapping[str, Sequence[str]], variant: str, phase: str, power: str) -> list[MenuGroup]:
    """The text menu ``options`` (the variant's keys) as groups of structured orders."""
    return [group_of(key, [describe(text, variant, phase, power) for text in texts])
            for key, texts in options.items() if texts]
