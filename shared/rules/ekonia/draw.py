"""Draw the Ekonia map as SVG from its data: one hexagon per territory, pure Python.

``python -m shared.rules.ekonia.draw [PATH]`` rewrites
``shared/variants/ekonia/map.svg`` (or PATH). A test checks that the committed drawing is
exactly what ``render_svg`` makes of the committed data, so the two never drift apart.

Land is coloured by its starting state (neutral land grey), seas blue; a sea lane is a darker
blue with a dashed gold outline; a capital has a star, any other city a dot.
"""
from __future__ import annotations

import math
import sys
from importlib import resources
from pathlib import Path
from xml.sax.saxutils import escape

from .geography import EkoniaMap, load_ekonia_map

HEX_SIZE = 46.0  # centre to corner, in pixels
MARGIN = 24.0
LEGEND_WIDTH = 250.0
TITLE_HEIGHT = 44.0

STATE_COLOURS = ("#e07b5a", "#e9c46a", "#7fb685", "#8e9ad6", "#d98cb3", "#b98b5e", "#9bd0c8")
"""Fill colours handed to the states in the data's order (up to seven states)."""

NEUTRAL_FILL = "#c9c6bd"
SEA_FILL = "#b7d4ee"
LANE_FILL = "#8fb9e3"
LANE_STROKE = "#c8961e"
MAELSTROM_FILL = "#40577a"
PAPER = "#f6f1e4"
INK = "#2b2b2b"
SEA_INK = "#1f4f7f"


def _fmt(value: float) -> str:
    """Numbers with at most one decimal, so the output is stable and small."""
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


def hex_centre(cell: tuple[int, int]) -> tuple[float, float]:
    """Pixel centre of an axial cell, pointy-top, before the drawing's offset."""
    q, r = cell
    return HEX_SIZE * math.sqrt(3) * (q + r / 2), HEX_SIZE * 1.5 * r


def hex_corners(x: float, y: float, size: float = HEX_SIZE) -> list[tuple[float, float]]:
    angles = (math.radians(60 * i - 30) for i in range(6))
    return [(x + size * math.cos(a), y + size * math.sin(a)) for a in angles]


def _points(points: list[tuple[float, float]]) -> str:
    return " ".join(f"{_fmt(px)},{_fmt(py)}" for px, py in points)


def _star(x: float, y: float, outer: float = 9.0, inner: float = 3.8) -> list[tuple[float, float]]:
    corners = []
    for i in range(10):
        radius = outer if i % 2 == 0 else inner
        angle = math.radians(-90 + 36 * i)
        corners.append((x + radius * math.cos(angle), y + radius * math.sin(angle)))
    return corners


def _label(x: float, y: float, name: str, *, fill: str, italic: bool) -> list[str]:
    """The name on one line, or two when it has two words (``Chalein`` / ``Coast``)."""
    words = name.split(" ", 1)
    style = ' font-style="italic"' if italic else ""
    lines = words if len(words) == 2 else [name]
    first_y = y - 6.5 * (len(lines) - 1)
    return [
        f'<text x="{_fmt(x)}" y="{_fmt(first_y + 13 * i)}" fill="{fill}"{style}>{escape(line)}</text>'
        for i, line in enumerate(lines)
    ]


def state_colours(ekonia: EkoniaMap) -> dict[str, str]:
    return {sid: STATE_COLOURS[i % len(STATE_COLOURS)] for i, sid in enumerate(ekonia.states)}


def render_svg(ekonia: EkoniaMap) -> str:
    """The whole drawing as an SVG document (a string ending with a newline)."""
    cells = [t.hex for t in ekonia.territories.values()] + sorted(ekonia.impassable_hexes)
    centres = [hex_centre(c) for c in cells]
    half_width = HEX_SIZE * math.sqrt(3) / 2
    min_x = min(x for x, _ in centres) - half_width
    min_y = min(y for _, y in centres) - HEX_SIZE
    map_width = max(x for x, _ in centres) + half_width - min_x
    map_height = max(y for _, y in centres) + HEX_SIZE - min_y
    dx, dy = MARGIN - min_x, MARGIN + TITLE_HEIGHT - min_y
    width = map_width + 2 * MARGIN + LEGEND_WIDTH
    height = max(map_height + 2 * MARGIN + TITLE_HEIGHT, 560.0)

    colours = state_colours(ekonia)
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_fmt(width)}" height="{_fmt(height)}"'
        f' viewBox="0 0 {_fmt(width)} {_fmt(height)}" font-family="DejaVu Sans, Verdana, sans-serif">',
        "<title>Tale of Ekonia</title>",
        f'<rect width="100%" height="100%" fill="{PAPER}"/>',
        f'<text x="{_fmt(MARGIN)}" y="{_fmt(MARGIN + 18)}" font-size="24" font-weight="bold" fill="{INK}">'
        "Tale of Ekonia</text>",
    ]

    hexes, marks, labels = ['<g id="territories" stroke="#fdfbf6" stroke-width="2">'], ['<g id="marks">'], [
        '<g id="names" font-size="11" text-anchor="middle">']
    for cell in sorted(ekonia.impassable_hexes):
        x, y = hex_centre(cell)
        hexes.append(f'<polygon points="{_points(hex_corners(x + dx, y + dy))}" fill="{MAELSTROM_FILL}">'
                     "<title>The Maelstrom (impassable)</title></polygon>")
        labels += _label(x + dx, y + dy, "The Maelstrom", fill="#e8eef7", italic=True)
    for tid, info in ekonia.territories.items():
        x, y = hex_centre(info.hex)
        x, y = x + dx, y + dy
        owner = ekonia.owner_at_start(tid)
        if info.kind == "sea":
            fill = LANE_FILL if info.sea_lane else SEA_FILL
        else:
            fill = colours[owner] if owner else NEUTRAL_FILL
        hexes.append(f'<polygon id="{tid}" points="{_points(hex_corners(x, y))}" fill="{fill}">'
                     f"<title>{escape(info.name)}</title></polygon>")
        if info.sea_lane:
            marks.append(f'<polygon points="{_points(hex_corners(x, y, HEX_SIZE - 6))}" fill="none"'
                         f' stroke="{LANE_STROKE}" stroke-width="2.5" stroke-dasharray="6 4"/>')
        if ekonia.is_starting_capital(tid):
            marks.append(f'<polygon points="{_points(_star(x, y - 20))}" fill="#b8860b" stroke="{INK}"'
                         ' stroke-width="0.8"/>')
        elif info.city:
            marks.append(f'<circle cx="{_fmt(x)}" cy="{_fmt(y - 20)}" r="5" fill="{INK}"/>')
        is_sea = info.kind == "sea"
        labels += _label(x, y + 6, info.name, fill=SEA_INK if is_sea else INK, italic=is_sea)
    out += hexes + ["</g>"] + marks + ["</g>"] + labels + ["</g>"]
    out += _legend(ekonia, colours, map_width + 2 * MARGIN, MARGIN + TITLE_HEIGHT)
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _legend(ekonia: EkoniaMap, colours: dict[str, str], left: float, top: float) -> list[str]:
    out = ['<g id="legend" font-size="13">',
           f'<text x="{_fmt(left)}" y="{_fmt(top)}" font-weight="bold" fill="{INK}">'
           "States (income at start)</text>"]
    y = top + 14
    for sid, state in ekonia.states.items():
        out.append(f'<rect x="{_fmt(left)}" y="{_fmt(y)}" width="20" height="14" fill="{colours[sid]}"/>')
        out.append(f'<text x="{_fmt(left + 28)}" y="{_fmt(y + 12)}" fill="{INK}">'
                   f"{escape(state.display_name)}: {ekonia.starting_income(sid)} gold</text>")
        y += 22
    y += 10
    swatches = (
        (NEUTRAL_FILL, None, "Neutral land"),
        (SEA_FILL, None, "Sea"),
        (LANE_FILL, LANE_STROKE, "Sea lane (+15% income)"),
        (MAELSTROM_FILL, None, "Maelstrom (impassable)"),
    )
    for fill, stroke, text in swatches:
        edge = f' stroke="{stroke}" stroke-width="2" stroke-dasharray="4 2"' if stroke else ""
        out.append(f'<rect x="{_fmt(left)}" y="{_fmt(y)}" width="20" height="14" fill="{fill}"{edge}/>')
        out.append(f'<text x="{_fmt(left + 28)}" y="{_fmt(y + 12)}" fill="{INK}">{escape(text)}</text>')
        y += 22
    out.append(f'<polygon points="{_points(_star(left + 10, y + 7))}" fill="#b8860b" stroke="{INK}"'
               ' stroke-width="0.8"/>')
    out.append(f'<text x="{_fmt(left + 28)}" y="{_fmt(y + 12)}" fill="{INK}">Capital (25 gold)</text>')
    y += 22
    out.append(f'<circle cx="{_fmt(left + 10)}" cy="{_fmt(y + 7)}" r="5" fill="{INK}"/>')
    out.append(f'<text x="{_fmt(left + 28)}" y="{_fmt(y + 12)}" fill="{INK}">City (15 gold)</text>')
    y += 22
    out.append(f'<text x="{_fmt(left)}" y="{_fmt(y + 12)}" fill="{INK}">Other land: 10 gold</text>')
    out.append("</g>")
    return out


def default_svg_path() -> Path:
    """map.svg beside map.json in the maps' package data (a file on disk: this command writes it)."""
    return Path(str(resources.files("shared.variants").joinpath("ekonia", "map.svg")))


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    target = Path(args[0]) if args else default_svg_path()
    target.write_text(render_svg(load_ekonia_map()), encoding="utf-8")
    print(f"wrote {target}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
