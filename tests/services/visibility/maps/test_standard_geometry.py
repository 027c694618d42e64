"""The standard board's drawing agrees with its map data (docs/maps.md): checked from the
committed polygons alone, with this file's own geometry, not the generator's."""
from __future__ import annotations

import json
import math
from importlib import resources

import pytest

from services.visibility.maps import standard_geometry

SWITZERLAND_NEIGHBOURS = {"BUR", "MAR", "MUN", "PIE", "TYR"}


def committed() -> str:
    return resources.files("shared.variants").joinpath("standard", "geometry.json").read_text("utf-8")


@pytest.fixture(scope="module")
def geometry() -> dict:
    return json.loads(committed())


@pytest.fixture(scope="module")
def board() -> dict:
    return json.loads(resources.files("shared.variants").joinpath("standard", "map.json").read_text("utf-8"))


def adjacent_pairs(board: dict) -> set[frozenset[str]]:
    pairs = set()
    for table in ("army_adjacency", "fleet_adjacency"):
        for here, there in board[table].items():
            for other in there:
                pairs.add(frozenset((here.split("/")[0], other.split("/")[0])))
    return pairs


def polygon(region: dict) -> list[tuple[float, float]]:
    return [tuple(p) for p in region["points"]]


def border_lengths(geometry: dict) -> dict[frozenset[str], float]:
    """Total length of boundary each two regions share: an edge one walks p -> q and the
    other q -> p."""
    owner = {}
    for code, region in geometry["regions"].items():
        ring = polygon(region)
        for i in range(len(ring)):
            owner[(ring[i - 1], ring[i])] = code
    lengths: dict[frozenset[str], float] = {}
    for (p, q), code in owner.items():
        other = owner.get((q, p))
        if other is not None and other != code:
            pair = frozenset((code, other))
            lengths[pair] = lengths.get(pair, 0.0) + math.dist(p, q) / 2
    return lengths


def area(ring) -> float:
    return sum(ring[i - 1][0] * ring[i][1] - ring[i][0] * ring[i - 1][1] for i in range(len(ring))) / 2


def proper_crossing(p, q, r, s) -> bool:
    def turn(a, b, c):
        return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
    if {p, q} & {r, s}:
        return False
    return turn(p, q, r) * turn(p, q, s) < 0 and turn(r, s, p) * turn(r, s, q) < 0


def inside(point, ring) -> bool:
    x, y = point
    result = False
    for i in range(len(ring)):
        (x0, y0), (x1, y1) = ring[i - 1], ring[i]
        if (y0 > y) != (y1 > y) and x < x0 + (y - y0) * (x1 - x0) / (y1 - y0):
            result = not result
    return result


def test_the_committed_geometry_is_what_the_generator_makes() -> None:
    assert committed() == standard_geometry.render_json(standard_geometry.generate())


def test_every_province_and_switzerland_has_one_region(geometry: dict, board: dict) -> None:
    assert set(geometry["regions"]) == set(board["provinces"])
    for code, region in geometry["regions"].items():
        assert region["kind"] == board["provinces"][code]["kind"]
        assert ("centre" in region) == board["provinces"][code]["supply_centre"], code


def test_adjacent_provinces_share_a_border_and_no_others_do(geometry: dict, board: dict) -> None:
    lengths = border_lengths(geometry)
    crossings = {frozenset(c["between"]) for c in geometry["crossings"]}
    for pair in adjacent_pairs(board):
        assert lengths.get(pair, 0) > 1 or pair in crossings, sorted(pair)
    for pair, length in lengths.items():
        if "SWI" in pair:
            assert pair - {"SWI"} <= SWITZERLAND_NEIGHBOURS
        else:
            assert pair in adjacent_pairs(board), (sorted(pair), length)
    assert {next(iter(p - {"SWI"})) for p in lengths if "SWI" in p} == SWITZERLAND_NEIGHBOURS


def test_the_regions_tile_the_board(geometry: dict) -> None:
    """Every region is a simple polygon walked clockwise; each of its edges is walked the
    other way by exactly one neighbour or lies on the board's edge; together they cover the
    board's area exactly: no gap, no overlap."""
    width, height = geometry["width"], geometry["height"]
    edges = {}
    for code, region in geometry["regions"].items():
        ring = polygon(region)
        assert area(ring) > 0, code
        for i in range(len(ring)):
            for j in range(i + 1, len(ring)):
                assert not proper_crossing(ring[i - 1], ring[i], ring[j - 1], ring[j]), code
            assert (ring[i - 1], ring[i]) not in edges, code
            edges[(ring[i - 1], ring[i])] = code
    for (p, q), code in edges.items():
        on_edge = (p[0] == q[0] and p[0] in (0, width)) or (p[1] == q[1] and p[1] in (0, height))
        assert on_edge or (q, p) in edges, (code, p, q)
    total = sum(area(polygon(r)) for r in geometry["regions"].values())
    assert total == pytest.approx(width * height, rel=1e-6)


def test_units_labels_and_coasts_sit_inside_their_province(geometry: dict, board: dict) -> None:
    for code, region in geometry["regions"].items():
        ring = polygon(region)
        for key in ("unit", "label", "centre"):
            if key in region:
                assert inside(tuple(region[key]), ring), (code, key)
    expected = {f"{code}/{c}" for code, p in board["provinces"].items() for c in p["coasts"]}
    assert set(geometry["coasts"]) == expected
    for coast, point in geometry["coasts"].items():
        assert inside(tuple(point), polygon(geometry["regions"][coast.split("/")[0]])), coast


def ireland(geometry: dict) -> list[tuple[float, float]]:
    (decoration,) = [d for d in geometry["decorations"] if d["name"] == "Ireland"]
    return [tuple(p) for p in decoration["points"]]


def test_ireland_is_drawn_as_impassable_land_but_is_no_province(geometry: dict, board: dict) -> None:
    """Ireland is a decoration: impassable, on the board, and in no province list, adjacency
    or region; it lies in the North Atlantic and the Irish Sea, which part along its coast."""
    (decoration,) = geometry["decorations"]
    assert decoration["name"] == "Ireland" and decoration["kind"] == "impassable"
    ring = ireland(geometry)
    assert area(ring) > 5000  # an island a regular sees, not a speck
    assert all(0 < x < geometry["width"] and 0 < y < geometry["height"] for x, y in ring)
    names = {p["name"].lower() for p in board["provinces"].values()}
    assert "ireland" not in names and not any(c.startswith("IRE") for c in board["provinces"])
    assert set(geometry["regions"]) == set(board["provinces"])
    covered = {code for code, region in geometry["regions"].items()
               if any(inside(p, polygon(region)) for p in ring)}
    assert covered <= {"NAO", "IRI"}
    for table in ("army_adjacency", "fleet_adjacency"):
        assert not any(k.startswith("IRE") or any(n.startswith("IRE") for n in v) for k, v in board[table].items())


def test_nothing_a_player_needs_is_hidden_under_ireland(geometry: dict) -> None:
    ring = ireland(geometry)
    for code, region in geometry["regions"].items():
        for key in ("unit", "label", "centre"):
            if key in region:
                assert not inside(tuple(region[key]), ring), (code, key)
    for coast, point in geometry["coasts"].items():
        assert not inside(tuple(point), ring), coast


def label_box(region: dict, code: str) -> list[tuple[float, float]]:
    """The corners of a province's name as drawn: centred on the label's x, its baseline 4
    pixels below the label's y; 11-pixel type (13 on the web page's zoomed board, docs/web.md):
    capitals at most about 10 pixels wide each and 10 tall."""
    x, y = region["label"]
    half = 5 * len(code)
    return [(x - half, y - 5), (x + half, y - 5), (x + half, y + 5), (x - half, y + 5)]


def test_every_label_lies_inside_the_board_and_its_own_region(geometry: dict) -> None:
    """No name runs off the map's edge or out of its province (Portugal's included)."""
    width, height = geometry["width"], geometry["height"]
    outside = []
    for code, region in geometry["regions"].items():
        if region["kind"] == "impassable":
            continue  # Switzerland carries no name
        box = label_box(region, code)
        if not all(0 <= x <= width and 0 <= y <= height and inside((x, y), polygon(region)) for x, y in box):
            outside.append(code)
    assert outside == []


def test_every_unit_drawn_fits_inside_its_region(geometry: dict) -> None:
    """A unit (about 16 pixels across) stands wholly inside its province: its point is at
    least 8 pixels from the region's edge."""
    def clearance(point, ring) -> float:
        def to_segment(p, a, b) -> float:
            dx, dy = b[0] - a[0], b[1] - a[1]
            t = max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / ((dx * dx + dy * dy) or 1)))
            return math.dist(p, (a[0] + t * dx, a[1] + t * dy))
        return min(to_segment(point, ring[i - 1], ring[i]) for i in range(len(ring)))
    cramped = [code for code, region in geometry["regions"].items()
               if region["kind"] != "impassable" and clearance(tuple(region["unit"]), polygon(region)) < 8]
    assert cramped == []


def test_britain_and_portugal_have_their_shapes(geometry: dict) -> None:
    """Scotland (Clyde and Edinburgh) is narrower than England, Wales bulges west of London and
    Yorkshire, Britain runs north to south; Portugal is a strip on Iberia's west, taller than
    wide, west of Spain."""
    def box(*codes: str) -> tuple[float, float, float, float]:
        points = [p for c in codes for p in geometry["regions"][c]["points"]]
        return (min(p[0] for p in points), min(p[1] for p in points),
                max(p[0] for p in points), max(p[1] for p in points))
    scotland, england = box("CLY", "EDI"), box("LVP", "YOR", "WAL", "LON")
    britain = box("CLY", "EDI", "LVP", "YOR", "WAL", "LON")
    assert scotland[2] - scotland[0] < england[2] - england[0]
    assert britain[3] - britain[1] > 1.5 * (britain[2] - britain[0])
    assert scotland[3] <= england[1] + 60  # Scotland above England
    wales, london, yorkshire = box("WAL"), box("LON"), box("YOR")
    assert wales[0] < london[0] and wales[0] < yorkshire[0]
    portugal, spain = box("POR"), box("SPA")
    assert portugal[3] - portugal[1] > 1.4 * (portugal[2] - portugal[0])
    assert portugal[0] < spain[0] and portugal[2] < spain[2]
    assert box("IRI")[0] < wales[0] and min(x for x, _ in ireland(geometry)) < scotland[0]


def test_no_supply_centre_marker_covers_a_name(geometry: dict) -> None:
    """A centre's white circle (6 pixels round) keeps off its province's name."""
    covering = []
    for code, region in geometry["regions"].items():
        if "centre" in region:
            (left, top), _, (right, bottom), _ = label_box(region, code)
            x, y = region["centre"]
            nearest = (min(max(x, left), right), min(max(y, top), bottom))
            if math.dist((x, y), nearest) < 6:
                covering.append(code)
    assert covering == []
