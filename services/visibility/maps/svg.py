"""Small SVG writing helpers shared by the board pictures."""
from __future__ import annotations

import math
from collections.abc import Sequence
from xml.sax.saxutils import escape, quoteattr

FONT = "DejaVu Sans, Verdana, sans-serif"
PAPER = "#f4efe1"
INK = "#262626"
LAND = "#efe3c2"
SEA = "#a9cbe8"
SEA_INK = "#23507d"
FAILED = "#c0142b"


def num(value: float) -> str:
    """A coordinate with at most one decimal (stable, small output)."""
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


def attr(value: str) -> str:
    return quoteattr(str(value))


def text(value: str) -> str:
    return escape(str(value))


def path_d(points: Sequence[Sequence[float]], *, closed: bool = True) -> str:
    head, *rest = points
    d = f"M{num(head[0])} {num(head[1])}" + "".join(f"L{num(x)} {num(y)}" for x, y in rest)
    return d + "Z" if closed else d


def shorten(a: Sequence[float], b: Sequence[float], start: float,
            end: float) -> tuple[tuple[float, float], tuple[float, float]]:
    """The segment a-b with ``start`` pixels cut from a's end and ``end`` from b's."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy) or 1.0
    if start + end >= length:
        start = end = length / 3
    ux, uy = dx / length, dy / length
    return (a[0] + ux * start, a[1] + uy * start), (b[0] - ux * end, b[1] - uy * end)


def arrow_head(tip: Sequence[float], tail: Sequence[float], size: float = 11.0) -> str:
    """A filled triangle's points at ``tip``, pointing away from ``tail``."""
    dx, dy = tip[0] - tail[0], tip[1] - tail[1]
    length = math.hypot(dx, dy) or 1.0
    ux, uy = dx / length, dy / length
    bx, by = tip[0] - ux * size, tip[1] - uy * size
    left = (bx - uy * size * 0.5, by + ux * size * 0.5)
    right = (bx + uy * size * 0.5, by - ux * size * 0.5)
    return " ".join(f"{num(x)},{num(y)}" for x, y in (tip, left, right))


def cross(x: float, y: float, size: float, colour: str = FAILED, width: float = 3.5) -> str:
    """An X (a failed order, a removal)."""
    return (f'<path d="M{num(x - size)} {num(y - size)}L{num(x + size)} {num(y + size)}'
            f'M{num(x - size)} {num(y + size)}L{num(x + size)} {num(y - size)}" stroke="{colour}"'
            f' stroke-width="{num(width)}" stroke-linecap="round" fill="none"/>')


def darker(colour: str, factor: float = 0.6) -> str:
    """``#rrggbb`` darkened (for outlines and text on a power's colour)."""
    r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return "#" + "".join(f"{int(c * factor):02x}" for c in (r, g, b))


def lighter(colour: str, factor: float = 0.55) -> str:
    """``#rrggbb`` mixed with white (a territory's tint)."""
    r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return "#" + "".join(f"{int(c + (255 - c) * factor):02x}" for c in (r, g, b))
