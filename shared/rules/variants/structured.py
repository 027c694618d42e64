"""Orders as structured values beside their text, and the menus of possible orders, in one
shape for every variant (docs/api.md, "Structured orders").

Every structured order has ``text`` (canonical), ``type``, ``unit`` (what it orders, as the
variant writes a unit, or None) and ``to`` (where it goes, or None); each type adds its own
keys. A menu is a list of groups ``{"key", "kind", "unit", "location", "orders"}``: ``kind``
says what the group is about, ``unit`` (a unit of the power), ``site`` (a place where
something is built or bought) or ``power`` (orders of the power as a whole: waiving a build,
Tale of Ekonia's diplomacy and espionage), whatever the variant's own keys (``key``, the key
of the text menu) look like.

The helpers here are pure and shared by the adapters; the readings are the variants' own.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal, cast

from .documents import MenuGroup, StructuredOrder

GroupKind = Literal["unit", "site", "power"]


def structured(text: str, kind: str, unit: str | None = None, to: str | None = None,
               **extra: Any) -> StructuredOrder:
    """One structured order: the four keys every order has, then the type's own (the keys
    documents.StructuredOrder names, or for an Ekonia order of a kind not named there, its
    own fields)."""
    return cast(StructuredOrder, {"text": text, "type": kind, "unit": unit, "to": to, **extra})


def unreadable_order(text: str) -> StructuredOrder:
    """A text no reading of the variant makes an order of (an Ekonia order stored as invalid)."""
    return structured(text, "unknown")


def menu_group(key: str, kind: GroupKind, unit: str | None, location: str | None,
               orders: Sequence[StructuredOrder]) -> MenuGroup:
    return {"key": key, "kind": kind, "unit": unit, "location": location, "orders": list(orders)}

