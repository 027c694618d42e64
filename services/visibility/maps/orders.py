"""Orders as the map draws them: the canonical short notation read into shapes.

Every stored order is in the canonical notation (docs/notation.md: ``A PAR - BUR``,
``F NTH C A LON - NWY``, ``A PAR S A MAR - BUR``, ``A BUD R GAL``, ``F STP/NC B``,
``D BEL DEVASTATE``, ``WAIVE``...), so a drawing needs no parser of the rules: these patterns
say which shape to draw and where; a text they do not match is listed, not drawn. Nothing
here decides whether an order is legal or how it resolves: the results come from the
phase's adjudication.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

_LOC = r"([A-Z]{3}(?:/[A-Z]{2})?)"
_UNIT = r"([AFD]) " + _LOC
PATTERNS = (
    ("waive", re.compile(r"^WAIVE$")),
    ("hold", re.compile(rf"^{_UNIT} H$")),
    ("move", re.compile(rf"^{_UNIT} - {_LOC}( VIA)?$")),
    ("support_move", re.compile(rf"^{_UNIT} S {_UNIT} - {_LOC}$")),
    ("support_hold", re.compile(rf"^{_UNIT} S {_UNIT}$")),
    ("convoy", re.compile(rf"^{_UNIT} C {_UNIT} - {_LOC}$")),
    ("retreat", re.compile(rf"^{_UNIT} R {_LOC}$")),
    ("disband", re.compile(rf"^{_UNIT} D$")),
    ("build", re.compile(rf"^{_UNIT} B$")),
    ("devastate", re.compile(rf"^{_UNIT} DEVASTATE$")),
)


@dataclass(frozen=True, slots=True)
class Shape:
    """What an order draws: ``kind`` and the places it joins. ``unit`` is the ordered unit's
    type and location; ``target`` the destination (moves, retreats, supported and convoyed
    moves); ``other`` the supported or convoyed unit's location."""

    kind: str
    unit_type: str = ""
    unit: str = ""
    target: str = ""
    other: str = ""
    other_type: str = ""
    via: bool = False


def shape_of(text: str) -> Shape | None:
    """The shape of a canonical order, or None for a text the map cannot place."""
    text = " ".join(str(text).upper().split())
    for kind, pattern in PATTERNS:
        match = pattern.match(text)
        if match is None:
            continue
        g = match.groups()
        if kind == "waive":
            return Shape("waive")
        if kind in ("hold", "disband", "build", "devastate"):
            return Shape(kind, g[0], g[1])
        if kind in ("move", "retreat"):
            return Shape(kind, g[0], g[1], target=g[2], via=kind == "move" and bool(g[3]))
        if kind in ("support_move", "convoy"):
            return Shape(kind, g[0], g[1], target=g[4], other=g[3], other_type=g[2])
        return Shape(kind, g[0], g[1], other=g[3], other_type=g[2])  # support_hold
    return None
