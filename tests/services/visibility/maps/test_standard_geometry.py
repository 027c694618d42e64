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
