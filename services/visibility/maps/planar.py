"""Plane geometry for drawing a board from its adjacency graph (docs/maps.md).

A board's provinces are points and its adjacencies straight segments; once no two segments
cross, the faces of that drawing are found by walking round each vertex in angular order, and
each province's region is its cell of the barycentric dual: the polygon through the midpoints
of its edges and the points of the faces between them. Two regions then share a border exactly
when their provinces are joined by an edge. Everything here is pure and deterministic.
Coordinates are (x, y) with y growing downwards, as in SVG.
"""
from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence

Point = tuple[float, float]
Edge = tuple[str, str]


def orientation(a: Point, b: Point, c: Point) -> float:
    """Twice the signed area of triangle abc: positive when a, b, c turn clockwise on the
    screen (counter-clockwise with y upwards)."""
    return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])


def segments_cross(p: Point, q: Point, r: Point, s: Point) -> bool:
    """Whether segments pq and rs meet anywhere but at an endpoint they share."""
    shared = {p, q} & {r, s}
    if shared:
        if len(shared) == 2:
            return True  # the same segment twice
        # one common endpoint: they overlap only if collinear and pointing the same way
        common = shared.pop()
        a = q if p == common else p
        b = s if r == common else r
        if abs(orientation(common, a, b)) > 1e-9:
            return False
        return (a[0] - common[0]) * (b[0] - common[0]) + (a[1] - common[1]) * (b[1] - common[1]) > 0
    d1, d2 = orientation(r, s, p), orientation(r, s, q)
    d3, d4 = orientation(p, q, r), orientation(p, q, s)
    if ((d1 > 0) != (d2 > 0)) and ((d3 > 0) != (d4 > 0)) and d1 * d2 < 0 and d3 * d4 < 0:
        return True
    return any(abs(d) <= 1e-9 and _on_segment(a, b, c) for d, a, b, c in
               ((d1, r, s, p), (d2, r, s, q), (d3, p, q, r), (d4, p, q, s)))


def _on_segment(a: Point, b: Point, c: Point) -> bool:
    return min(a[0], b[0]) - 1e-9 <= c[0] <= max(a[0], b[0]) + 1e-9 and \
        min(a[1], b[1]) - 1e-9 <= c[1] <= max(a[1], b[1]) + 1e-9


def crossings(points: Mapping[str, Point], edges: Sequence[Edge]) -> list[tuple[Edge, Edge]]:
    """Every pair of edges whose segments cross (or overlap) in the drawing."""
    found = []
    boxes = [(min(points[a][0], points[b][0]), max(points[a][0], points[b][0]),
              min(points[a][1], points[b][1]), max(points[a][1], points[b][1])) for a, b in edges]
    for i, (a, b) in enumerate(edges):
        x0, x1, y0, y1 = boxes[i]
        for j in range(i + 1, len(edges)):
            u0, u1, v0, v1 = boxes[j]
            if u0 > x1 or u1 < x0 or v0 > y1 or v1 < y0:
                continue
            c, d = edges[j]
            if segments_cross(points[a], points[b], points[c], points[d]):
                found.append(((a, b), (c, d)))
    return found


def neighbours(edges: Iterable[Edge]) -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for a, b in edges:
        graph.setdefault(a, set()).add(b)
        graph.setdefault(b, set()).add(a)
    return graph


def rotation(points: Mapping[str, Point], graph: Mapping[str, Iterable[str]]) -> dict[str, list[str]]:
    """Each vertex's neighbours in the order a clock's hand sweeps them on the screen
    (y down), starting from the east."""
    def angle(v: str, w: str) -> float:
        return math.atan2(points[w][1] - points[v][1], points[w][0] - points[v][0])
    return {v: sorted(ns, key=lambda w: angle(v, w)) for v, ns in graph.items()}


def faces(order: Mapping[str, Sequence[str]]) -> dict[tuple[str, str], int]:
    """The face of each directed edge (v, w), numbered. A face is walked by leaving each
    vertex along the neighbour that comes just before the one it arrived from in the sweep
    of ``rotation``, so bounded faces are walked clockwise on the screen, the outer face
    anticlockwise; ``face_cycles`` lists each face's vertices."""
    face_of: dict[tuple[str, str], int] = {}
    number = 0
    for v, ns in order.items():
        for w in ns:
            if (v, w) in face_of:
                continue
            edge = (v, w)
            while edge not in face_of:
                face_of[edge] = number
                edge = next_edge(order, edge)
            number += 1
    return face_of


def next_edge(order: Mapping[str, Sequence[str]], edge: tuple[str, str]) -> tuple[str, str]:
    """The directed edge that follows ``edge`` round its face."""
    a, b = edge
    around = order[b]
    return (b, around[(around.index(a) - 1) % len(around)])


def face_cycles(order: Mapping[str, Sequence[str]], face_of: Mapping[tuple[str, str], int]) -> dict[int, list[str]]:
    """Each face's vertices in walking order, from its smallest directed edge (a vertex
    appears twice in a face that touches it on two sides)."""
    starts: dict[int, tuple[str, str]] = {}
    for edge, f in sorted(face_of.items()):
        starts.setdefault(f, edge)
    cycles = {}
    for f, first in starts.items():
        cycle, edge = [], first
        while True:
            cycle.append(edge[0])
            edge = next_edge(order, edge)
            if edge == first:
                break
        cycles[f] = cycle
    return cycles


def signed_area(polygon: Sequence[Point]) -> float:
    """Positive for a polygon walked clockwise on the screen (y down)."""
    return sum(polygon[i - 1][0] * polygon[i][1] - polygon[i][0] * polygon[i - 1][1]
               for i in range(len(polygon))) / 2


def centroid(polygon: Sequence[Point]) -> Point:
    """The centre of mass of a simple polygon's area (its vertices' mean if it has none)."""
    area = signed_area(polygon)
    if abs(area) < 1e-12:
        return (sum(p[0] for p in polygon) / len(polygon), sum(p[1] for p in polygon) / len(polygon))
    cx = cy = 0.0
    for i in range(len(polygon)):
        (x0, y0), (x1, y1) = polygon[i - 1], polygon[i]
        cross = x0 * y1 - x1 * y0
        cx += (x0 + x1) * cross
        cy += (y0 + y1) * cross
    return (cx / (6 * area), cy / (6 * area))


def star_shaped_from(point: Point, polygon: Sequence[Point]) -> bool:
    """Whether every vertex of a clockwise (on screen) polygon is seen from ``point`` turning
    the same way: the fan of triangles from ``point`` tiles the polygon."""
    return all(orientation(point, polygon[i - 1], polygon[i]) > 1e-9 for i in range(len(polygon)))


def kernel(polygon: Sequence[Point]) -> list[Point]:
    """The points of a clockwise (on screen) polygon that see all of it: the intersection of
    the inner half-planes of its edges (empty when the polygon is not star-shaped)."""
    xs, ys = [p[0] for p in polygon], [p[1] for p in polygon]
    region = [(min(xs), min(ys)), (max(xs), min(ys)), (max(xs), max(ys)), (min(xs), max(ys))]
    for i in range(len(polygon)):
        a, b = polygon[i - 1], polygon[i]
        inside = [orientation(a, b, p) for p in region]
        cut: list[Point] = []
        for j in range(len(region)):
            p, q, dp, dq = region[j - 1], region[j], inside[j - 1], inside[j]
            if (dp > 0) != (dq > 0):
                t = dp / (dp - dq)
                cut.append((p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])))
            if dq > 0:
                cut.append(q)
        region = cut
        if len(region) < 3:
            return []
    return region


def point_in_polygon(point: Point, polygon: Sequence[Point]) -> bool:
    x, y = point
    inside = False
    for i in range(len(polygon)):
        (x0, y0), (x1, y1) = polygon[i - 1], polygon[i]
        if (y0 > y) != (y1 > y) and x < x0 + (y - y0) * (x1 - x0) / (y1 - y0):
            inside = not inside
    return inside


def distance_to_segment(p: Point, a: Point, b: Point) -> float:
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = dx * dx + dy * dy
    t = 0.0 if length == 0 else max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / length))
    return math.hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy)


def inner_point(polygon: Sequence[Point], steps: int = 24) -> Point:
    """A point well inside a polygon: of a grid over its bounding box, the one farthest from
    the boundary (a cheap pole of inaccessibility), refined once around the best cell."""
    xs, ys = [p[0] for p in polygon], [p[1] for p in polygon]
    best, best_d = centroid(polygon), -1.0
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    for _ in range(2):
        for i in range(steps + 1):
            for j in range(steps + 1):
                p = (x0 + (x1 - x0) * i / steps, y0 + (y1 - y0) * j / steps)
                if not point_in_polygon(p, polygon):
                    continue
                d = min(distance_to_segment(p, polygon[k - 1], polygon[k]) for k in range(len(polygon)))
                if d > best_d:
                    best, best_d = p, d
        w, h = (x1 - x0) / steps, (y1 - y0) / steps
        x0, x1, y0, y1 = best[0] - w, best[0] + w, best[1] - h, best[1] + h
    return best


def shared_borders(polygons: Mapping[str, Sequence[Point]]) -> dict[tuple[str, str], list[list[Point]]]:
    """For each two polygons with an edge in common (walked opposite ways, as neighbours in a
    tiling are), their common boundary as polylines; keyed (a, b) with a < b."""
    owner: dict[tuple[Point, Point], str] = {}
    for name, polygon in polygons.items():
        for i in range(len(polygon)):
            owner[(polygon[i - 1], polygon[i])] = name
    pieces: dict[tuple[str, str], list[tuple[Point, Point]]] = {}
    for name, polygon in polygons.items():
        for i in range(len(polygon)):
            p, q = polygon[i - 1], polygon[i]
            other = owner.get((q, p))
            if other is not None and name < other:
                pieces.setdefault((name, other), []).append((p, q))
    return {pair: _chains(segments) for pair, segments in sorted(pieces.items())}


def _chains(segments: list[tuple[Point, Point]]) -> list[list[Point]]:
    """Segments joined end to start into as few polylines as they make."""
    starting = {p: q for p, q in segments}
    ending = set(starting.values())
    chains, seen = [], set()
    for p, _ in segments:
        if p in ending or p in seen:
            continue
        chain = [p]
        while chain[-1] in starting and chain[-1] not in seen:
            seen.add(chain[-1])
            chain.append(starting[chain[-1]])
        chains.append(chain)
    for p, _ in segments:  # closed loops (a region inside another)
        if p not in seen:
            chain = [p]
            while chain[-1] not in seen:
                seen.add(chain[-1])
                chain.append(starting[chain[-1]])
            chains.append(chain)
    return chains


def clip_to_box(polygon: Sequence[Point], box: tuple[float, float, float, float]) -> list[Point]:
    """The part of a polygon inside the box (left, top, right, bottom), Sutherland-Hodgman.
    An edge is cut at a point computed from its endpoints in a fixed order, so two regions
    sharing that edge are cut at exactly the same point."""
    left, top, right, bottom = box
    planes = ((0, left, 1), (1, top, 1), (0, right, -1), (1, bottom, -1))
    out = list(polygon)
    for axis, limit, sign in planes:
        if not out:
            break
        source, out = out, []
        for i in range(len(source)):
            prev, here = source[i - 1], source[i]
            here_in = sign * (here[axis] - limit) >= 0
            prev_in = sign * (prev[axis] - limit) >= 0
            if here_in != prev_in:
                out.append(_cut(prev, here, axis, limit))
            if here_in:
                out.append(here)
    return out


def _cut(a: Point, b: Point, axis: int, limit: float) -> Point:
    a, b = min(a, b), max(a, b)
    t = (limit - a[axis]) / (b[axis] - a[axis])
    x, y = a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])
    return (limit, y) if axis == 0 else (x, limit)
