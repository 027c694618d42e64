"""Where things are drawn on each board: regions, unit places, labels (docs/maps.md).

The standard board's geometry is package data made by ``standard_geometry.py``; Tale of
Ekonia's is its hex grid, as the variant's map data gives it (laid out by the rules' own
drawing, shared/rules/ekonia/draw.py, so that both pictures of that map agree). Both come in
one shape: ``width``, ``height``, ``regions`` (id -> kind, points, unit, label, and centre for
supply centres), ``coasts``, ``borders``.
"""
from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources

from shared.rules.variants import UnknownVariant

from .geometry_document import Geometry, Region


@lru_cache(maxsize=1)
def standard_geometry() -> Geometry:
    text = resources.files("shared.variants").joinpath("standard", "geometry.json").read_text("utf-8")
    geometry: Geometry = json.loads(text)  # the package's own data, written by standard_geometry.py
    return geometry


@lru_cache(maxsize=1)
def ekonia_geometry() -> Geometry:
    """One hexagon per territory (and the Maelstrom), where the variant's map data puts them
    (the cells as the rules' own drawing lays them out), moved to start at the margin."""
    from shared.rules.variants import get_variant

    data = get_variant("ekonia").map_data()
    if data["board"] != "ekonia":
        raise AssertionError(f"Tale of Ekonia is played on the {data['board']} board")
    cells = {tid: info["cell"] for tid, info in data["territories"].items()}
    cells.update({f"maelstrom-{i}": c for i, c in enumerate(data["hex_grid"]["impassable_cells"])})
    corners = [p for c in cells.values() for p in c["corners"]]
    margin = 12.0
    min_x, min_y = min(x for x, _ in corners) - margin, min(y for _, y in corners) - margin
    width = max(x for x, _ in corners) + margin - min_x
    height = max(y for _, y in corners) + margin - min_y
    regions: dict[str, Region] = {}
    for name, c in sorted(cells.items()):
        x, y = c["centre"][0] - min_x, c["centre"][1] - min_y
        kind = data["territories"][name]["kind"] if name in data["territories"] else "impassable"
        points = [[round(px - min_x, 1), round(py - min_y, 1)] for px, py in c["corners"]]
        regions[name] = {"kind": kind, "points": points,
                         "unit": [round(x, 1), round(y + 4, 1)], "label": [round(x, 1), round(y + 30, 1)],
                         "mark": [round(x, 1), round(y - 24, 1)]}
    return {"board": "ekonia", "width": round(width, 1), "height": round(height, 1), "regions": regions,
            "coasts": {}, "borders": [], "crossings": []}


def geometry_for(board: str) -> Geometry:
    """The geometry of a board named by a variant's ``map_data()["board"]``."""
    if board == "standard":
        return standard_geometry()
    if board == "ekonia":
        return ekonia_geometry()
    raise UnknownVariant(f"no drawing of the board {board!r}")
