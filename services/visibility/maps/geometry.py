"""Where things are drawn on each board: regions, unit places, labels (docs/maps.md).

The standard board's geometry is package data made by ``standard_geometry.py``; Tale of
Ekonia's is its hex grid, laid out by the rules' own drawing (shared/rules/ekonia/draw.py) so
that both pictures of that map agree. Both come in one shape: ``width``, ``height``,
``regions`` (id -> kind, points, unit, label, and centre for supply centres), ``coasts``,
``borders``.
"""
from __future__ import annotations

import json
import math
from functools import lru_cache
from importlib import resources
from typing import Any

from shared.rules.variants import UnknownVariant


@lru_cache(maxsize=1)
def standard_geometry() -> dict[str, Any]:
    text = resources.files("shared.variants").joinpath("standard", "geometry.json").read_text("utf-8")
    return json.loads(text)


@lru_cache(maxsize=1)
def ekonia_geometry() -> dict[str, Any]:
    """One hexagon per territory (and the Maelstrom), as the rules' SVG lays them out."""
    from shared.rules.ekonia import draw
    from shared.rules.ekonia.geography import load_ekonia_map

    ekonia = load_ekonia_map()
    cells = {tid: info.hex for tid, info in ekonia.territories.items()}
    maelstrom = {f"maelstrom-{i}": cell for i, cell in enumerate(sorted(ekonia.impassable_hexes))}
    centres = {name: draw.hex_centre(cell) for name, cell in {**cells, **maelstrom}.items()}
    half_width = draw.HEX_SIZE * math.sqrt(3) / 2
    margin = 12.0
    min_x = min(x for x, _ in centres.values()) - half_width - margin
    min_y = min(y for _, y in centres.values()) - draw.HEX_SIZE - margin
    width = max(x for x, _ in centres.values()) + half_width + margin - min_x
    height = max(y for _, y in centres.values()) + draw.HEX_SIZE + margin - min_y
    regions = {}
    for name, (x, y) in sorted(centres.items()):
        x, y = x - min_x, y - min_y
        kind = "impassable" if name in maelstrom else ekonia.territories[name].kind
        regions[name] = {"kind": kind,
                         "points": [[round(px, 1), round(py, 1)] for px, py in draw.hex_corners(x, y)],
                         "unit": [round(x, 1), round(y + 4, 1)], "label": [round(x, 1), round(y + 30, 1)],
                         "mark": [round(x, 1), round(y - 24, 1)]}
    return {"board": "ekonia", "width": round(width, 1), "height": round(height, 1), "regions": regions,
            "coasts": {}, "borders": [], "crossings": []}


def geometry_for(board: str) -> dict[str, Any]:
    """The geometry of a board named by a variant's ``map_data()["board"]``."""
    if board == "standard":
        return standard_geometry()
    if board == "ekonia":
        return ekonia_geometry()
    raise UnknownVariant(f"no drawing of the board {board!r}")
