"""The standard board's Atlantic coast drawn by hand: Britain, Ireland, Portugal (docs/maps.md).

The dual drawing of ``standard_geometry`` gives every province a fair region but no island a
recognisable shape. This module redraws the provinces of ``PATCH`` inside the outline their
generated regions make together: that outline (their borders with France, the Low Countries,
Scandinavia, North Africa and the Western Mediterranean, and the board's edge) is kept point for
point, so the regions outside are untouched and still tile the board with these. Inside it
the borders below are drawn instead: Britain's coastline and its provinces' borders (written as
longitudes and latitudes, moved and enlarged by ``BRITAIN_FIT`` to the room the board leaves
it), the seas' borders and Iberia's west coast (written in the board's pixels). The regions
are the faces of those lines, each named by the point of ``SEEDS`` it holds.

Ireland is a decoration, impassable land drawn over the North Atlantic (the border of the North
Atlantic and the Irish Sea runs along its east and south coasts, under it): it is in no
province list, no adjacency, no region.

Every coordinate here is written for this project; none is taken from another map's artwork.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence

from . import planar
from .geometry_document import Decoration
from .planar import Point
from .standard_projection import LONGITUDE_FACTOR, SCALE

PATCH = frozenset({"CLY", "EDI", "LVP", "YOR", "WAL", "LON", "NAO", "NWG", "NTH", "IRI", "ENG",
                   "MAO", "POR", "SPA"})
"""The provinces redrawn here: Britain, the seas round it, Portugal and Spain."""

BRITAIN_FIT = (1.42, 51.38, 396.0, 604.0, 1.55)
"""Longitude and latitude of North Foreland, the pixel it is drawn at, and how much Britain
and Ireland are enlarged against the board's own scale (so that six provinces fit)."""

IRELAND_SHIFT = -0.6
"""Degrees of longitude Ireland is moved west of its place, widening the Irish Sea."""

# Great Britain's coast, clockwise from Cape Wrath; a name marks where a border meets it.
BRITAIN: tuple[tuple[float, float, str], ...] = (
    (-5.0, 58.62, "cape wrath"), (-4.6, 58.55, ""), (-4.2, 58.56, "sutherland"), (-3.6, 58.63, ""),
    (-3.05, 58.64, "duncansby"), (-3.1, 58.35, ""), (-3.8, 57.95, ""), (-4.1, 57.6, ""),
    (-3.4, 57.68, ""), (-2.5, 57.68, ""), (-1.8, 57.55, ""), (-2.05, 57.15, ""), (-2.45, 56.7, ""),
    (-2.6, 56.3, ""), (-3.1, 56.05, ""), (-2.5, 56.0, ""), (-2.0, 55.77, "berwick"),
    (-1.5, 55.2, ""), (-1.35, 54.85, ""), (-0.8, 54.55, ""), (-0.1, 54.12, ""), (0.1, 53.62, ""),
    (0.35, 53.2, ""), (0.2, 52.92, "wash"), (0.6, 52.97, ""), (1.3, 52.93, ""), (1.75, 52.55, ""),
    (1.6, 52.05, ""), (1.0, 51.75, ""), (0.7, 51.52, ""), (1.42, 51.38, "foreland"),
    (1.35, 51.13, ""), (0.95, 50.92, ""), (0.25, 50.74, ""), (-0.8, 50.75, ""), (-1.3, 50.8, ""),
    (-1.9, 50.7, "poole"), (-2.45, 50.58, ""), (-3.4, 50.62, ""), (-3.65, 50.22, ""),
    (-4.2, 50.35, ""), (-5.2, 49.96, ""), (-5.72, 50.06, "lands end"), (-5.45, 50.22, ""),
    (-4.95, 50.55, ""), (-4.5, 51.0, ""), (-3.9, 51.22, ""), (-3.2, 51.25, ""), (-2.7, 51.55, ""),
    (-3.2, 51.5, ""), (-3.95, 51.58, ""), (-4.35, 51.72, ""), (-5.25, 51.72, ""), (-5.3, 51.9, ""),
    (-4.65, 52.12, ""), (-4.1, 52.45, ""), (-4.1, 52.78, ""), (-4.75, 52.8, ""), (-4.4, 53.05, ""),
    (-4.6, 53.3, ""), (-4.1, 53.33, ""), (-3.1, 53.35, "dee"), (-3.05, 53.55, ""),
    (-3.05, 53.85, ""), (-2.85, 54.15, ""), (-3.3, 54.2, ""), (-3.65, 54.5, ""), (-3.4, 54.9, ""),
    (-3.9, 54.78, ""), (-4.4, 54.85, ""), (-4.85, 54.65, "galloway"), (-5.15, 54.9, ""),
    (-5.0, 55.05, ""), (-4.85, 55.3, ""), (-4.65, 55.47, "ayr"), (-4.85, 55.8, ""),
    (-4.9, 55.95, ""), (-5.3, 55.75, ""), (-5.6, 55.4, ""), (-5.7, 55.8, ""), (-5.55, 56.25, ""),
    (-5.5, 56.45, ""), (-6.2, 56.72, ""), (-5.8, 57.0, ""), (-5.7, 57.3, ""), (-5.85, 57.6, ""),
    (-5.3, 57.9, ""), (-5.3, 58.25, ""),
)

# The borders inside Britain, from coast to coast through the points three provinces share.
BRITAIN_BORDERS: tuple[tuple[tuple[float, float] | str, ...], ...] = (
    ("sutherland", (-4.1, 57.9), (-4.25, 57.2), (-3.85, 56.6), (-3.55, 56.1), "clyde forth"),  # CLY|EDI
    ("clyde forth", (-4.2, 55.55), "ayr"),  # CLY|LVP
    ("clyde forth", "cheviot"),  # EDI|LVP
    ("cheviot", "berwick"),  # EDI|YOR
    ("cheviot", (-2.05, 54.6), (-1.85, 54.0), (-1.9, 53.5), "cheshire"),  # LVP|YOR
    ("cheshire", (-2.8, 53.2), "dee"),  # LVP|WAL
    ("cheshire", "midlands"),  # YOR|WAL
    ("midlands", (-0.8, 52.65), "wash"),  # YOR|LON
    ("midlands", (-2.05, 51.9), (-2.0, 51.3), "poole"),  # WAL|LON
)
BRITAIN_INLAND = {"clyde forth": (-3.5, 55.75), "cheviot": (-2.4, 55.25), "cheshire": (-2.1, 53.05),
                  "midlands": (-1.9, 52.45)}

# Ireland's coast, clockwise from Malin Head.
IRELAND: tuple[tuple[float, float, str], ...] = (
    (-7.3, 55.38, ""), (-6.95, 55.2, ""), (-6.2, 55.25, ""), (-5.75, 54.85, ""), (-5.45, 54.5, "ards"),
    (-5.9, 54.1, ""), (-6.25, 53.9, ""), (-6.1, 53.35, ""), (-6.0, 52.95, ""), (-6.35, 52.2, ""),
    (-7.0, 52.15, ""), (-7.9, 51.95, ""), (-8.3, 51.8, ""), (-9.0, 51.55, ""), (-9.8, 51.45, "mizen"),
    (-10.2, 51.8, ""), (-10.35, 52.15, ""), (-9.75, 52.55, ""), (-9.45, 52.95, ""), (-10.0, 53.35, ""),
    (-10.15, 53.9, ""), (-9.9, 54.25, ""), (-8.6, 54.3, ""), (-8.75, 54.7, ""), (-8.3, 55.15, ""),
)

# Points in the board's pixels where seas meet (and Iberia's coast): "A/B/C" names the point the
# generated regions A, B and C share on the outline.
SEA_POINTS: dict[str, Point] = {"NAO/IRI/MAO": (110.0, 672.0), "IRI/MAO/ENG": (195.0, 705.0)}

SEA_BORDERS: tuple[tuple[Point | str, ...], ...] = (
    ("cape wrath", (200.0, 230.0), (150.0, 150.0), (95.0, 80.0), "NAO/NWG/~0"),  # NAO|NWG
    ("duncansby", (370.0, 300.0), (455.0, 298.0), "NWG/NTH/NWY"),  # NWG|NTH
    ("foreland", (409.0, 594.0), "NTH/ENG/BEL"),  # NTH|ENG
    ("lands end", "IRI/MAO/ENG"),  # IRI|ENG
    ("IRI/MAO/ENG", (245.0, 725.0), "ENG/MAO/BRE"),  # ENG|MAO
    ("NAO/IRI/MAO", (150.0, 690.0), "IRI/MAO/ENG"),  # IRI|MAO
    ("NAO/IRI/MAO", (50.0, 676.0), "NAO/MAO/~12"),  # NAO|MAO
    # Iberia: the north coast, Portugal's coast, the south coast, and Portugal's land border
    ("MAO/SPA/GAS", (290.0, 852.0), (270.0, 850.0), (250.0, 851.0), (233.0, 853.0), (222.0, 860.0),
     (221.0, 870.0), "minho"),
    ("minho", (220.0, 890.0), (217.0, 905.0), (213.0, 921.0), (219.0, 931.0), (216.0, 946.0),
     (215.0, 962.0), (226.0, 968.0), (242.0, 967.0), "guadiana"),
    ("guadiana", (268.0, 974.0), (283.0, 979.0), (297.0, 978.0), (308.0, 972.0), "MAO/SPA/WES"),
    ("minho", (245.0, 878.0), (266.0, 882.0), (272.0, 900.0), (268.0, 918.0), (276.0, 935.0),
     (266.0, 952.0), "guadiana"),
)
IBERIA_POINTS: dict[str, Point] = {"minho": (224.0, 877.0), "guadiana": (258.0, 968.0)}

SEEDS: dict[str, Point | tuple[float, float, str]] = {
    "CLY": (-5.0, 57.0, "lonlat"), "EDI": (-3.0, 57.3, "lonlat"), "LVP": (-2.7, 54.3, "lonlat"),
    "YOR": (-1.0, 54.0, "lonlat"), "WAL": (-3.7, 52.2, "lonlat"), "LON": (0.0, 51.8, "lonlat"),
    "NAO": (60.0, 300.0), "NWG": (400.0, 150.0), "NTH": (450.0, 450.0), "IRI": (150.0, 640.0),
    "ENG": (330.0, 670.0), "MAO": (100.0, 900.0), "POR": (240.0, 920.0), "SPA": (320.0, 910.0),
}
"""A point inside each redrawn region, naming the face that holds it (Britain's by longitude and
latitude, the others in pixels)."""


def fitted(lon: float, lat: float, shift: float = 0.0) -> Point:
    """Britain's and Ireland's longitudes and latitudes to the board's pixels (docs/maps.md)."""
    lon0, lat0, x0, y0, enlarge = BRITAIN_FIT
    return (round(x0 + (lon + shift - lon0) * LONGITUDE_FACTOR * SCALE * enlarge, 1),
            round(y0 + (lat0 - lat) * SCALE * enlarge, 1))


def ireland() -> list[Point]:
    return [fitted(lon, lat, IRELAND_SHIFT) for lon, lat, _ in IRELAND]


def decorations() -> list[Decoration]:
    """What the board draws that is no province: Ireland."""
    return [{"name": "Ireland", "kind": "impassable", "points": [list(p) for p in ireland()]}]


def _junction(polygons: Mapping[str, Sequence[Point]], name: str) -> Point:
    """The one vertex the generated regions named "A/B/C" share (a frame point ~i stands for
    the board's edge: the point of A and B on it)."""
    codes = name.split("/")
    common = set(polygons[codes[0]])
    for code in codes[1:]:
        if not code.startswith("~"):
            common &= set(polygons[code])
    if any(code.startswith("~") for code in codes):
        common = {p for p in common if p[0] == 0.0 or p[1] == 0.0}
    if len(common) != 1:
        raise ValueError(f"the generated regions {name} do not meet at one point: {sorted(common)}")
    return common.pop()


def _outline(polygons: Mapping[str, Sequence[Point]]) -> list[tuple[Point, Point]]:
    """The edges of the patch's regions that no other region of the patch walks back."""
    edges = {(ring[i - 1], ring[i]) for code in PATCH for ring in [polygons[code]] for i in range(len(ring))}
    return [(p, q) for p, q in edges if (q, p) not in edges]


def lines(polygons: Mapping[str, Sequence[Point]]) -> list[list[Point]]:
    """Every line drawn inside the patch, in pixels: Britain's coast (closed), its borders, the
    seas' and Iberia's borders."""
    coast = [fitted(lon, lat) for lon, lat, _ in BRITAIN]
    named: dict[str, Point] = {name: fitted(lon, lat) for lon, lat, name in BRITAIN if name}
    named.update({name: fitted(*where) for name, where in BRITAIN_INLAND.items()})
    named.update({name: p for (lon, lat, name), p in zip(IRELAND, ireland(), strict=True) if name})
    named.update(SEA_POINTS)
    named.update(IBERIA_POINTS)

    def point(item: Point | str, lonlat: bool) -> Point:
        if isinstance(item, str):
            return named[item] if item in named else _junction(polygons, item)
        return fitted(*item) if lonlat else (round(item[0], 1), round(item[1], 1))

    out = [coast + coast[:1]]
    out += [[point(item, True) for item in border] for border in BRITAIN_BORDERS]
    out += [[point(item, False) for item in border] for border in SEA_BORDERS]
    # the North Atlantic and the Irish Sea part along Ireland's east and south coasts, under it
    shore = ireland()
    names = [name for _, _, name in IRELAND]
    out.append([named["galloway"], *shore[names.index("ards"):names.index("mizen") + 1], SEA_POINTS["NAO/IRI/MAO"]])
    return out


def redraw(polygons: Mapping[str, list[Point]]) -> dict[str, list[Point]]:
    """The regions with the patch's provinces redrawn (each clockwise, as ``planar`` walks
    faces); the others as they were."""
    segments = set(_outline(polygons))
    for line in lines(polygons):
        segments |= {(line[i - 1], line[i]) for i in range(1, len(line)) if line[i - 1] != line[i]}
    names: dict[Point, str] = {}
    for p, q in sorted(segments):
        for v in (p, q):
            names.setdefault(v, f"v{len(names)}")
    where = {name: v for v, name in names.items()}
    edges = sorted({(min(names[p], names[q]), max(names[p], names[q])) for p, q in segments})
    crossed = planar.crossings(where, edges)
    if crossed:
        raise ValueError(f"the hand-drawn lines cross: {[(where[a], where[b]) for (a, b), _ in crossed[:3]]}")
    order = planar.rotation(where, planar.neighbours(edges))
    face_of = planar.faces(order)
    faces = [[where[v] for v in cycle] for cycle in planar.face_cycles(order, face_of).values()]
    faces = [f for f in faces if planar.signed_area(f) > 0]
    out = {code: list(ring) for code, ring in polygons.items() if code not in PATCH}
    for code, place in SEEDS.items():
        seed = fitted(place[0], place[1]) if len(place) == 3 else (place[0], place[1])
        holding = [f for f in faces if planar.point_in_polygon(seed, f)]
        if len(holding) != 1:
            raise ValueError(f"{code}'s seed {seed} is in {len(holding)} faces")
        out[code] = holding[0]
    if len(faces) != len(SEEDS):
        raise ValueError(f"the patch has {len(faces)} faces for {len(SEEDS)} provinces")
    return out
