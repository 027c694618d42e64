"""The geometry of the standard board, made from its adjacency graph (docs/maps.md).

``python -m services.visibility.maps.standard_geometry`` rewrites
``shared/variants/standard/geometry.json``; tests/maps/test_standard_geometry.py checks that
the committed file is exactly what ``generate()`` makes, and that the drawing agrees with the
map data.

How: every province (and Switzerland, and a ring of frame points off the board) has a rough
geographic position written below (longitude, latitude, set by hand so that the straight
segments of the adjacency graph never cross); the segments of the union of army and fleet
adjacency cut the plane into faces; each province's region is its cell of the barycentric
dual (``planar.py``), its borders smoothed where that keeps the regions apart, and clipped to
the board's rectangle. Nothing here is copied from another map's artwork.
"""
from __future__ import annotations

import json
import math
import sys
from importlib import resources
from pathlib import Path
from typing import TypedDict

from . import planar, standard_atlantic
from .geometry_document import Geometry, Region
from .planar import Point
from .standard_projection import LONGITUDE_FACTOR, SCALE

# Where each province lies (longitude, latitude, in degrees), roughly: the middle of the
# province as the Diplomacy board draws it, nudged where a straight adjacency would cross
# another (Norway sits north so that its border with St Petersburg passes above Finland; the
# Mid-Atlantic sits south-west so that its passage to the Western Mediterranean runs below
# Spain; the English Channel and the North Sea meet east of London).
POSITIONS: dict[str, tuple[float, float]] = {
    # Britain
    "CLY": (-4.8, 57.0), "EDI": (-3.0, 56.5), "LVP": (-3.0, 54.0), "YOR": (-1.3, 53.8),
    "WAL": (-3.8, 52.0), "LON": (-1.3, 51.6),
    # France and the Low Countries
    "BRE": (-2.8, 48.1), "PIC": (2.0, 50.0), "PAR": (2.3, 48.5), "BUR": (4.8, 47.3),
    "GAS": (0.0, 44.2), "MAR": (5.0, 44.0), "BEL": (4.5, 50.7), "HOL": (5.5, 52.3),
    # Iberia and Africa
    "POR": (-8.3, 41.0), "SPA": (-4.5, 38.8), "NAF": (2.0, 34.5), "TUN": (9.5, 35.0),
    # Germany
    "RUH": (7.2, 51.2), "KIE": (9.8, 53.5), "BER": (13.4, 52.8), "MUN": (11.0, 48.8),
    "SIL": (17.0, 51.0), "PRU": (19.5, 54.0),
    # Scandinavia
    "DEN": (9.5, 56.0), "NWY": (11.0, 64.0), "SWE": (16.0, 61.0), "FIN": (25.5, 63.5),
    # Italy
    "PIE": (8.0, 44.8), "VEN": (12.0, 45.5), "TUS": (11.0, 43.5), "ROM": (12.8, 41.9),
    "APU": (16.5, 41.0), "NAP": (15.5, 40.0),
    # Austria-Hungary and the Balkans
    "TYR": (12.0, 47.0), "BOH": (14.5, 49.8), "VIE": (16.5, 47.8), "TRI": (15.5, 45.0),
    "BUD": (20.0, 47.2), "GAL": (24.0, 49.3), "SER": (21.0, 43.8), "ALB": (20.0, 41.2),
    "GRE": (22.0, 39.5), "BUL": (25.0, 42.7), "RUM": (25.5, 45.0),
    # Russia
    "STP": (33.0, 63.5), "LVN": (25.0, 57.0), "MOS": (37.6, 55.7), "WAR": (21.0, 52.0),
    "UKR": (30.0, 49.5), "SEV": (37.0, 47.0),
    # Turkey
    "CON": (28.5, 41.0), "ANK": (33.5, 40.8), "SMY": (30.0, 38.3), "ARM": (41.0, 40.0),
    "SYR": (38.0, 36.0),
    # seas
    "NAO": (-18.0, 56.0), "NWG": (3.0, 66.0), "BAR": (38.0, 72.0), "NTH": (4.5, 56.5),
    "SKA": (9.5, 58.0), "HEL": (7.5, 54.3), "BAL": (17.5, 56.0), "BOT": (20.0, 60.5),
    "IRI": (-6.0, 52.5), "ENG": (-2.5, 49.6), "MAO": (-15.0, 39.5), "WES": (2.5, 37.0),
    "LYO": (5.0, 42.0), "TYS": (12.0, 39.5), "ION": (18.5, 36.5), "ADR": (16.0, 43.0),
    "AEG": (25.0, 38.5), "EAS": (30.0, 34.0), "BLA": (34.0, 43.5),
    # impassable
    "SWI": (8.2, 46.8),
}

WEIGHTS: dict[str, float] = {
    "NAO": 2.5, "MAO": 2.5, "NWG": 2.5, "BAR": 2.0, "STP": 1.8, "MOS": 1.8, "SEV": 1.6,
    "NAF": 1.5, "ARM": 1.4, "SYR": 1.3, "ION": 1.6, "EAS": 1.3, "WES": 1.3, "TYS": 1.2,
    "NTH": 1.5, "BLA": 1.3, "UKR": 1.2,
    "POR": 0.7, "LON": 1.2, "BEL": 0.8, "HOL": 0.8, "DEN": 0.9, "HEL": 1.0, "PIC": 0.8,
    "WAL": 0.8, "YOR": 0.8, "PAR": 0.9, "APU": 1.2, "NAP": 0.9, "ROM": 0.9, "SWI": 0.7,
    "ADR": 0.9, "TUS": 0.9,
}
"""How much room a province takes against its neighbours (1 when not listed): the border
between two provinces crosses their segment nearer the lighter one."""


def weight(code: str) -> float:
    return WEIGHTS.get(code, 1.0)


ANCHORED = frozenset({"POR", "MAO", "SPA"})
"""Provinces the relaxation leaves where they are written: Portugal has only two neighbours,
and the middles of the Mid-Atlantic's and Spain's regions would pull them north, squashing Portugal between
the Mid-Atlantic's borders with Gascony and Spain."""

SWITZERLAND = "SWI"
SWITZERLAND_BORDERS = ("BUR", "MAR", "PIE", "TYR", "MUN")
"""Switzerland is in no adjacency list, but it is drawn: these provinces surround it."""

BOUNDARY = ("NAO", "NWG", "BAR", "STP", "MOS", "SEV", "ARM", "SYR", "EAS", "ION", "TUN", "NAF", "MAO")
"""The provinces on the board's edge, clockwise from the north-west."""

FRAME: tuple[tuple[float, float], ...] = (
    (-45.0, 95.0),  # between NAO and NWG
    (20.0, 97.0),   # NWG and BAR
    (62.0, 90.0),   # BAR and STP
    (68.0, 60.0),   # STP and MOS
    (68.0, 49.0),   # MOS and SEV
    (68.0, 40.0),   # SEV and ARM
    (60.0, 20.0),   # ARM and SYR
    (32.0, 14.0),   # SYR and EAS
    (20.0, 14.0),   # EAS and ION
    (12.0, 14.0),   # ION and TUN
    (2.0, 14.0),    # TUN and NAF
    (-30.0, 18.0),  # NAF and MAO
    (-50.0, 46.0),  # MAO and NAO
)
"""Points off the board, one between each two neighbours of BOUNDARY: with them every
province is inside the drawing, so every province's region is closed."""

BOARD = (-22.0, 73.5, 46.0, 32.5)
"""The board's rectangle: west and north edge, east and south edge (degrees)."""

SMOOTHING_SAMPLES = 6  # points per smoothed border, between its two ends
DIGITS = 1  # decimals kept in the output
RELAX_ITERATIONS = 30
RELAX_STEP = 0.5  # of the way to the region's middle, each iteration
RELAX_PULL = 0.15  # of the way back to the geographic place, each iteration


def project(lon: float, lat: float) -> Point:
    """Degrees to pixels: x east from the board's west edge, y south from its north edge."""
    west, north = BOARD[0], BOARD[1]
    return ((lon - west) * LONGITUDE_FACTOR * SCALE, (north - lat) * SCALE)


def board_box() -> tuple[float, float, float, float]:
    left, top = project(BOARD[0], BOARD[1])
    right, bottom = project(BOARD[2], BOARD[3])
    return (left, top, right, bottom)


class MapFileProvince(TypedDict):
    """What the drawing reads of a province in shared/variants/standard/map.json."""

    kind: str  # land, coast, sea
    supply_centre: bool
    coasts: list[str]  # NC, SC; empty for most


class StandardMapFile(TypedDict):
    """What the drawing reads of shared/variants/standard/map.json (the rest is the rules')."""

    provinces: dict[str, MapFileProvince]
    army_adjacency: dict[str, list[str]]
    fleet_adjacency: dict[str, list[str]]  # a province or one of its coasts -> where a fleet goes


def read_map() -> StandardMapFile:
    text = resources.files("shared.variants").joinpath("standard", "map.json").read_text("utf-8")
    data: StandardMapFile = json.loads(text)
    return data


def province_edges(data: StandardMapFile) -> set[tuple[str, str]]:
    """Adjacency by province: an army's or a fleet's (any coast) step joins two provinces."""
    edges = set()
    for table in (data["army_adjacency"], data["fleet_adjacency"]):
        for here, there in table.items():
            for other in there:
                a, b = here.split("/")[0], other.split("/")[0]
                edges.add((min(a, b), max(a, b)))
    return edges


def frame_names() -> list[str]:
    return [f"~{i}" for i in range(len(FRAME))]


def drawing_graph(data: StandardMapFile) -> tuple[dict[str, Point], list[tuple[str, str]]]:
    """The points and segments drawn: provinces, Switzerland and the frame."""
    points = {code: project(*where) for code, where in POSITIONS.items()}
    edges = set(province_edges(data))
    edges |= {(min(SWITZERLAND, p), max(SWITZERLAND, p)) for p in SWITZERLAND_BORDERS}
    frame = frame_names()
    for i, name in enumerate(frame):
        points[name] = project(*FRAME[i])
        after = frame[(i + 1) % len(frame)]
        beside, next_beside = BOUNDARY[i], BOUNDARY[(i + 1) % len(BOUNDARY)]
        edges |= {(name, after), (min(name, beside), max(name, beside)),
                  (min(name, next_beside), max(name, next_beside))}
    return points, sorted(edges)


def _rounded(p: Point) -> tuple[float, float]:
    return (round(p[0], DIGITS), round(p[1], DIGITS))


def _quadratic(a: Point, control: Point, b: Point, samples: int) -> list[Point]:
    """Points of the quadratic Bézier a-control-b strictly between its ends."""
    out = []
    for i in range(1, samples + 1):
        t = i / (samples + 1)
        u = 1 - t
        out.append((u * u * a[0] + 2 * u * t * control[0] + t * t * b[0],
                    u * u * a[1] + 2 * u * t * control[1] + t * t * b[1]))
    return out


class Embedding:
    """A straight-line drawing of the graph with no crossing, and its faces."""

    def __init__(self, points: dict[str, Point], edges: list[tuple[str, str]]) -> None:
        self.points = points
        self.edges = edges
        self.frame = set(frame_names())
        self.order = planar.rotation(points, planar.neighbours(edges))
        self.face_of = planar.faces(self.order)
        self.cycles = planar.face_cycles(self.order, self.face_of)

    def problem(self) -> str | None:
        """Why the drawing cannot be used, or None: crossing segments, a face that is not
        star-shaped from its centroid."""
        crossed = planar.crossings(self.points, self.edges)
        if crossed:
            return f"adjacency segments cross: {crossed[:5]}"
        for cycle in self.face_cycles():
            polygon = [self.points[v] for v in cycle]
            if planar.signed_area(polygon) <= 0:
                return f"face {cycle} is not walked clockwise"
            if not planar.star_shaped_from(self.face_point(cycle), polygon):
                return f"face {cycle} is not star-shaped from its junction point"
        return None

    def cyclic_order(self) -> dict[str, tuple[str, ...]]:
        """Each vertex's neighbours in sweep order, starting from the first by name: two
        drawings with the same cyclic orders have the same faces."""
        out = {}
        for v, around in self.order.items():
            first = around.index(min(around))
            out[v] = tuple(around[first:] + around[:first])
        return out

    def face_cycles(self) -> list[list[str]]:
        """The bounded faces (not the outer one, which holds only frame points)."""
        return [c for c in self.cycles.values() if not all(v in self.frame for v in c)]

    def face_point(self, cycle: list[str]) -> Point:
        """Where the regions round a face meet: the mean of the points where its edges'
        borders cross them; where that point would not see every corner of the face, the middle
        of the part of the face that does (its kernel)."""
        crossings = [self.edge_point(cycle[i - 1], cycle[i]) for i in range(len(cycle))]
        point = (sum(p[0] for p in crossings) / len(crossings), sum(p[1] for p in crossings) / len(crossings))
        polygon = [self.points[v] for v in cycle]
        if planar.star_shaped_from(point, polygon):
            return point
        seeing = planar.kernel(polygon)
        return planar.centroid(seeing) if seeing else planar.centroid(polygon)

    def edge_point(self, a: str, b: str) -> Point:
        """Where the border between a and b crosses their segment: nearer the lighter one."""
        (ax, ay), (bx, by) = self.points[a], self.points[b]
        t = weight(a) / (weight(a) + weight(b))
        return (ax + t * (bx - ax), ay + t * (by - ay))

    def face_points(self) -> dict[int, Point]:
        return {f: self.face_point(cycle) for f, cycle in self.cycles.items()
                if not all(v in self.frame for v in cycle)}

    def borders(self, smooth: bool) -> dict[tuple[str, str], list[Point]]:
        """Each edge's border polyline, from the face left of (a, b) to the face left of
        (b, a), through the edge's middle; smoothed into a curve when that curve stays in the
        two regions' kite (the segment between the two face points crosses the edge)."""
        points, face_point = self.points, self.face_points()
        borders: dict[tuple[str, str], list[Point]] = {}
        for a, b in self.edges:
            if a in self.frame and b in self.frame:
                continue
            left, right = face_point[self.face_of[(a, b)]], face_point[self.face_of[(b, a)]]
            middle = self.edge_point(a, b)
            if smooth and planar.segments_cross(left, right, points[a], points[b]):
                inner = _quadratic(left, middle, right, SMOOTHING_SAMPLES)
            else:
                inner = [middle]
            borders[(a, b)] = [left, *inner, right]
        return borders

    def regions(self, borders: dict[tuple[str, str], list[Point]]) -> dict[str, list[Point]]:
        """Each vertex's dual cell but the frame's: its borders in the sweep's order."""
        regions: dict[str, list[Point]] = {}
        for v, around in self.order.items():
            if v in self.frame:
                continue
            ring: list[Point] = []
            for w in around:
                # face_of[(v, w)] is the corner after w in the sweep round v: walk the border
                # from the corner before w to the one after it
                border = list(reversed(borders[(v, w)])) if (v, w) in borders else borders[(w, v)]
                ring.extend(border[:-1])
            regions[v] = ring
        return regions


def relax(points: dict[str, Point], edges: list[tuple[str, str]], iterations: int) -> dict[str, Point]:
    """Move each province a little towards the middle of its region, and back towards its
    geographic place, keeping the drawing planar with the same faces: thin slivers fatten
    and the map keeps its shape. A step that would break the drawing is halved, up to four
    times, or skipped."""
    geographic = dict(points)
    box = board_box()
    current = Embedding(points, edges)
    for _ in range(iterations):
        cells = current.regions(current.borders(smooth=False))
        wanted = {}
        for v, cell in cells.items():
            if v in ANCHORED:
                continue
            clipped = planar.clip_to_box(cell, box)
            target = planar.centroid(clipped) if len(clipped) >= 3 else current.points[v]
            wanted[v] = target
        for step in (RELAX_STEP, RELAX_STEP / 2, RELAX_STEP / 4, RELAX_STEP / 8, RELAX_STEP / 16):
            moved = dict(current.points)
            for v, (tx, ty) in wanted.items():
                x, y = current.points[v]
                x, y = x + step * (tx - x), y + step * (ty - y)
                gx, gy = geographic[v]
                moved[v] = (x + RELAX_PULL * (gx - x), y + RELAX_PULL * (gy - y))
            trial = Embedding(moved, edges)
            if trial.cyclic_order() == current.cyclic_order() and trial.problem() is None:
                current = trial
                break
    return current.points


def generate() -> Geometry:
    """The geometry document (docs/maps.md gives its fields)."""
    data = read_map()
    points, edges = drawing_graph(data)
    problem = Embedding(points, edges).problem()
    if problem:
        raise ValueError(f"the positions do not give a planar drawing: {problem}")
    embedding = Embedding(relax(points, edges, RELAX_ITERATIONS), edges)
    problem = embedding.problem()
    if problem:  # pragma: no cover - relax keeps every step planar
        raise ValueError(f"the relaxed drawing is not planar: {problem}")
    box = board_box()
    polygons: dict[str, list[Point]] = {}
    for code, ring in sorted(embedding.regions(embedding.borders(smooth=True)).items()):
        polygon = [_rounded(p) for p in planar.clip_to_box(ring, box)]
        polygons[code] = [p for i, p in enumerate(polygon) if p != polygon[i - 1]]
    polygons = standard_atlantic.redraw(polygons)
    borders = planar.shared_borders(polygons)
    regions: dict[str, Region] = {}
    for code, polygon in polygons.items():
        province = data["provinces"][code]
        unit = planar.inner_point(polygon)
        label = _label(code, unit, polygon)
        region: Region = {"kind": province["kind"], "points": [list(p) for p in polygon],
                                  "unit": list(_rounded(unit)), "label": list(_rounded(label))}
        if province["supply_centre"]:
            spots = [(unit[0] + 16, unit[1] - 12), (unit[0] - 16, unit[1] - 12),
                     (unit[0] + 16, unit[1] + 12), (unit[0] - 16, unit[1] + 12)]
            # the marker (6 pixels round) keeps off the name (capitals as _label counts them)
            clear = [(x, y) for x, y in spots
                     if abs(x - label[0]) > 5 * len(code) + 7 or abs(y - label[1]) > 5 + 7]
            centre = _roomiest(clear or spots, polygon)
            region["centre"] = list(_rounded(centre))
        regions[code] = region
    return {
        "board": "standard",
        "generator": "python -m services.visibility.maps.standard_geometry",
        "width": round(box[2] - box[0], DIGITS), "height": round(box[3] - box[1], DIGITS),
        "regions": regions,
        "coasts": _coast_markers(data, polygons, borders, regions),
        "borders": [{"between": [a, b], "lines": [[list(p) for p in line] for line in lines]}
                    for (a, b), lines in sorted(borders.items())],
        "crossings": [],
        "decorations": standard_atlantic.decorations(),
    }


def _clearance(point: Point, polygon: list[Point]) -> float:
    """Distance to the polygon's boundary, negative outside it."""
    d = min(planar.distance_to_segment(point, polygon[i - 1], polygon[i]) for i in range(len(polygon)))
    return d if planar.point_in_polygon(point, polygon) else -d


def _label(code: str, unit: Point, polygon: list[Point]) -> Point:
    """Where a province's name goes: below its unit, else above, right or left of it, the first
    spot with 8 pixels of room whose name lies wholly inside the region (capitals about 10
    pixels wide each and 10 tall: board_svg draws them 11 pixels high, the web page's zoomed
    board 13, docs/web.md); else the nearest spot clear of the unit where the name fits."""
    half = 5 * len(code)
    candidates = [(unit[0], unit[1] + 17), (unit[0], unit[1] - 17), (unit[0] + 22, unit[1]),
                  (unit[0] - 22, unit[1]), (unit[0], unit[1] + 13), (unit[0], unit[1] - 13)]

    def room(spot: Point) -> float:
        corners = [(spot[0] + dx, spot[1] + dy) for dx in (-half, half) for dy in (-5, 5)]
        return min(_clearance(c, polygon) for c in corners)
    for spot in candidates:
        if _clearance(spot, polygon) >= 8 and room(spot) > 0:
            return spot
    # a narrow province (Apulia): the nearest spot clear of the unit whose name fits
    nearby = sorted(((unit[0] + dx, unit[1] + dy) for dx in range(-60, 61, 2) for dy in range(-60, 61, 2)
                     if abs(dy) >= 13 or abs(dx) >= half + 9), key=lambda p: math.dist(p, unit))
    return next((spot for spot in nearby if room(spot) > 1), max(candidates, key=room))


def _roomiest(candidates: list[Point], polygon: list[Point]) -> Point:
    """The first candidate with 8 pixels of room, else the one with the most."""
    for candidate in candidates:
        if _clearance(candidate, polygon) >= 8:
            return candidate
    return max(candidates, key=lambda c: _clearance(c, polygon))


def _coast_markers(data: StandardMapFile, polygons: dict[str, list[Point]],
                   borders: dict[tuple[str, str], list[list[Point]]],
                   regions: dict[str, Region]) -> dict[str, list[float]]:
    """A point for each coast of a split-coast province (``STP/NC``): inside the province,
    near its border with what only that coast touches (seas first)."""
    markers = {}
    fleet = data["fleet_adjacency"]
    for code, province in sorted(data["provinces"].items()):
        coasts = province["coasts"]
        for coast in coasts:
            mine = {n.split("/")[0] for n in fleet[f"{code}/{coast}"]}
            others = {n.split("/")[0] for c in coasts if c != coast for n in fleet[f"{code}/{c}"]}
            only = sorted(mine - others)
            seas = [n for n in only if data["provinces"][n]["kind"] == "sea"] or only
            lines = [line for n in seas for line in borders.get((min(code, n), max(code, n)), [])]
            line = max(lines, key=len)
            x, y = line[len(line) // 2] if len(line) % 2 else (
                (line[len(line) // 2 - 1][0] + line[len(line) // 2][0]) / 2,
                (line[len(line) // 2 - 1][1] + line[len(line) // 2][1]) / 2)
            ux, uy = regions[code]["unit"]
            distance = math.hypot(ux - x, uy - y) or 1.0
            t = min(0.5, 14 / distance)
            markers[f"{code}/{coast}"] = list(_rounded((x + t * (ux - x), y + t * (uy - y))))
    return markers


def geometry_path() -> Path:
    import shared.variants.standard as package

    return Path(package.__file__).resolve().parent / "geometry.json"


def render_json(document: Geometry) -> str:
    return json.dumps(document, separators=(",", ":"), sort_keys=True) + "\n"


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    target = Path(args[0]) if args else geometry_path()
    target.write_text(render_json(generate()), encoding="utf-8")
    print(f"wrote {target}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
