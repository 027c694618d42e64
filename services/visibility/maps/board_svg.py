"""The Diplomacy board (standard and Dirigible) as SVG: the empty board, or a picture of one
phase as a viewer may see it (docs/maps.md).

A ``BoardPicture`` holds only what the caller's view holds (units, centres, dislodged units,
the orders to draw with their results when resolved); ``render_board`` draws it on the
board's geometry. Every province's region carries ``data-province``, every coast marker
``data-coast``, every unit ``data-unit`` and every drawn order ``data-order``.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from shared.rules.variants.documents import BoardMapData

from .geometry_document import Geometry
from .orders import Shape, shape_of
from .svg import (
    FAILED,
    FONT,
    INK,
    LAND,
    PAPER,
    SEA,
    SEA_INK,
    arrow_head,
    attr,
    cross,
    darker,
    num,
    path_d,
    shorten,
    text,
)

LEGEND_WIDTH = 310.0
UNIT_RADIUS = 10.0
SEASONS = {"S": "Spring", "F": "Fall", "W": "Winter"}
KINDS = {"M": "movement", "R": "retreats", "A": "adjustments"}


@dataclass(frozen=True)
class DrawnOrder:
    power: str
    order: str
    result: str | None = None  # None while pending; succeeds, fails or void once resolved
    reason: str = ""


@dataclass(frozen=True)
class BoardPicture:
    """One phase of a game on the board, as one viewer may see it."""

    title: str
    phase: str | None
    units: Mapping[str, Sequence[str]] = field(default_factory=dict)
    centres: Mapping[str, Sequence[str]] = field(default_factory=dict)
    dislodged: Sequence[Mapping[str, Any]] = ()  # power, unit, attacker_from, retreats
    orders: Sequence[DrawnOrder] = ()
    caption: str = ""  # what the orders are: "Your orders (not yet resolved)", ...
    devastated: Sequence[str] = ()
    adjustments: Mapping[str, int] = field(default_factory=dict)
    points: Mapping[str, int] = field(default_factory=dict)
    # on the board now: the last resolved phase's moves and retreats, drawn faint under the units
    last_orders: Sequence[DrawnOrder] = ()
    last_phase: str | None = None


def phase_title(phase: str | None, variant: str | None = None) -> str:
    """``S1901M`` -> ``Spring 1901, movement``; Dirigible's ``S1901R`` -> ``Summer 1901, retreats
    and devastation``, its ``F1901R`` the Late Fall's (docs/rules/dirigible.md, rule 13)."""
    if not phase or len(phase) != 6 or phase[0] not in SEASONS or phase[5] not in KINDS:
        return phase or ""
    if variant == "dirigible" and phase[5] == "R":
        return f"{'Summer' if phase[0] == 'S' else 'Late Fall'} {phase[1:5]}, retreats and devastation"
    return f"{SEASONS[phase[0]]} {phase[1:5]}, {KINDS[phase[5]]}"


@dataclass(frozen=True)
class Layers:
    """A picture as a document head, a part that is the same for every picture of the board
    (drawn once per process, and rasterised once for PNGs), and the part of this picture."""

    head: str
    static_key: str
    static: str
    dynamic: str

    def document(self) -> str:
        return f"{self.head}\n{self.static}\n{self.dynamic}\n</svg>\n"

    def static_document(self) -> str:
        return f"{self.head}\n{self.static}\n</svg>\n"

    def dynamic_document(self) -> str:
        return f"{self.head}\n{self.dynamic}\n</svg>\n"


def render_board(map_data: BoardMapData, geometry: Geometry, picture: BoardPicture | None) -> str:
    """The board as an SVG document; ``picture`` None draws the empty board."""
    return board_layers(map_data, geometry, picture).document()


def board_layers(map_data: BoardMapData, geometry: Geometry, picture: BoardPicture | None) -> Layers:
    width, height = geometry["width"], geometry["height"]
    total = width + LEGEND_WIDTH
    colours = {p: info["colour"] for p, info in map_data["powers"].items()}
    title = picture.title if picture else map_data["variant"].title()
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{num(total)}" height="{num(height)}"'
            f' viewBox="0 0 {num(total)} {num(height)}" font-family="{FONT}" data-variant={attr(map_data["variant"])}'
            f'{" data-phase=" + attr(picture.phase) if picture and picture.phase else ""}>\n'
            f"<title>{text(title)}</title>\n{DEFS}")
    key = f'{map_data["variant"]}:{_geometry_key(geometry)}'
    static = _static_board(map_data["variant"], _geometry_key(geometry), geometry, map_data)
    static += "\n" + _cached("legend", map_data["variant"], _geometry_key(geometry),
                             lambda: _legend_static(map_data, width, height))
    out = []
    if picture is not None:
        owner = {c: p for p, cs in picture.centres.items() for c in cs}
        out.append(_ownership(geometry, owner, colours))
        out.append(_centres(geometry, owner, colours, set(picture.devastated)))
        shapes = [(o, shape_of(o.order)) for o in picture.orders]
        under = {o.order for o, s in shapes if s and (s.kind in UNDER or _convoys_of(s, picture))}
        out.append(_last_moves(geometry, picture, colours))
        out.append(_orders(geometry, [(o, s) for o, s in shapes if s and o.order in under], colours, picture))
        out.append(_units(geometry, picture, colours))
        out.append(_orders(geometry, [(o, s) for o, s in shapes if s and o.order not in under], colours, picture))
    else:
        out.append(_centres(geometry, {}, colours, set()))
    out.append(_legend(map_data, picture, width))
    return Layers(head, key, static, "\n".join(out))


DEFS = ('<defs><pattern id="impassable" width="8" height="8" patternUnits="userSpaceOnUse"'
        ' patternTransform="rotate(45)"><rect width="8" height="8" fill="#9a958a"/>'
        '<line x1="0" y1="0" x2="0" y2="8" stroke="#6f6a60" stroke-width="3"/></pattern>'
        '<pattern id="impassable-land" width="8" height="8" patternUnits="userSpaceOnUse"'
        ' patternTransform="rotate(45)"><rect width="8" height="8" fill="#ddd3b6"/>'
        '<line x1="0" y1="0" x2="0" y2="8" stroke="#b3aa93" stroke-width="2"/></pattern></defs>')


UNDER = {"support_move", "support_hold", "convoy"}


def _geometry_key(geometry: Geometry) -> str:
    return f'{geometry["board"]}:{geometry["width"]}x{geometry["height"]}'


_STATIC: dict[tuple[str, str, str], str] = {}


def _cached(kind: str, variant: str, key: str, build: Callable[[], str]) -> str:
    """The parts of a board that never change, drawn once per process."""
    found = _STATIC.get((kind, variant, key))
    if found is None:
        found = _STATIC[(kind, variant, key)] = build()
    return found


def _static_board(variant: str, key: str, geometry: Geometry, map_data: BoardMapData) -> str:
    def build() -> str:
        out = [f'<rect width="{num(geometry["width"])}" height="{num(geometry["height"])}" fill="{SEA}"/>',
               '<g id="provinces">']
        for code, region in sorted(geometry["regions"].items()):
            kind = region["kind"]
            fill = SEA if kind == "sea" else "url(#impassable)" if kind == "impassable" else LAND
            province = map_data["provinces"].get(code)
            name = province["name"] if province is not None else code
            out.append(f'<path data-province="{code}" data-kind="{kind}" d="{path_d(region["points"])}"'
                       f' fill="{fill}"><title>{text(name)} ({code})</title></path>')
        out.append("</g>")
        return "\n".join(out) + "\n" + _overlay(geometry)
    return _cached("board", variant, key, build)


def _overlay(geometry: Geometry) -> str:
    """Borders (coastlines thicker), names and coast markers."""
    kinds = {code: r["kind"] for code, r in geometry["regions"].items()}
    thin: list[str] = []
    coastal: list[str] = []
    for border in geometry.get("borders", []):
        a, b = border["between"]
        is_coast = (kinds[a] == "sea") != (kinds[b] == "sea")
        for line in border["lines"]:
            (coastal if is_coast else thin).append(path_d(line, closed=False))
    out = [f'<path id="borders" d="{"".join(thin)}" fill="none" stroke="#6b6455" stroke-width="1"'
           ' stroke-linejoin="round"/>',
           f'<path id="coastlines" d="{"".join(coastal)}" fill="none" stroke="#3c3a33" stroke-width="2.6"'
           ' stroke-linejoin="round" stroke-linecap="round"/>',
           *_decorations(geometry),
           f'<rect width="{num(geometry["width"])}" height="{num(geometry["height"])}" fill="none"'
           ' stroke="#3c3a33" stroke-width="3"/>',
           '<g id="names" font-size="11" text-anchor="middle">']
    for code, region in sorted(geometry["regions"].items()):
        if region["kind"] == "impassable":
            continue
        x, y = region["label"]
        style = f' fill="{SEA_INK}" font-style="italic"' if region["kind"] == "sea" else f' fill="{INK}"'
        out.append(f'<text x="{num(x)}" y="{num(y + 4)}"{style}>{code}</text>')
    out.append("</g>")
    out.append('<g id="coasts" font-size="8" text-anchor="middle">')
    for coast, (x, y) in sorted(geometry.get("coasts", {}).items()):
        out.append(f'<g data-coast="{coast}"><circle cx="{num(x)}" cy="{num(y)}" r="6" fill="#ffffff"'
                   f' fill-opacity="0.75" stroke="{SEA_INK}" stroke-width="1"/><text x="{num(x)}"'
                   f' y="{num(y + 3)}" fill="{SEA_INK}">{coast[-2:].lower()}</text></g>')
    out.append("</g>")
    return "\n".join(out)


def _decorations(geometry: Geometry) -> list[str]:
    """Land that is no province (Ireland on the standard board, docs/maps.md): drawn over the
    seas and their borders, land hatched lightly (impassable, but not a neutral country like
    Switzerland), in no region: a click on it reaches no province."""
    out = []
    for item in geometry.get("decorations", []):
        out.append(f'<path data-decoration="{text(item["name"])}" data-kind="{item["kind"]}"'
                   f' d="{path_d(item["points"])}" fill="url(#impassable-land)" stroke="#3c3a33" stroke-width="2.6"'
                   f' stroke-linejoin="round"><title>{text(item["name"])} (impassable)</title></path>')
    return out


def _ownership(geometry: Geometry, owner: Mapping[str, str], colours: Mapping[str, str]) -> str:
    """Owned supply centres tinted in their owner's colour, over the board (translucent, so
    that borders and names show through)."""
    out = ['<g id="ownership">']
    for code, power in sorted(owner.items()):
        region = geometry["regions"].get(code)
        if region is not None and power in colours:
            out.append(f'<path data-owner="{power}" d="{path_d(region["points"])}"'
                       f' fill="{colours[power]}" fill-opacity="0.38"/>')
    out.append("</g>")
    return "\n".join(out)


def _centres(geometry: Geometry, owner: Mapping[str, str], colours: Mapping[str, str],
             devastated: set[str]) -> str:
    out = ['<g id="centres">']
    for code, region in sorted(geometry["regions"].items()):
        if "centre" not in region:
            continue
        x, y = region["centre"]
        power = owner.get(code)
        fill = colours.get(power, "#ffffff") if power else "#ffffff"
        out.append(f'<circle data-centre="{code}"{f" data-owner={attr(power)}" if power else ""} cx="{num(x)}"'
                   f' cy="{num(y)}" r="6" fill="{fill}" stroke="{INK}" stroke-width="1.6"/>')
        if code in devastated:
            out.append(f'<g data-devastated="{code}">{cross(x, y, 6, "#7a1b0c", 2.5)}</g>')
    out.append("</g>")
    return "\n".join(out)


def place(geometry: Geometry, unit_type: str, location: str) -> tuple[float, float]:
    """Where a unit is drawn: its province's unit point, a fleet's coast marker, a dirigible
    above the ground unit's point."""
    province = location.split("/")[0]
    if "/" in location and location in geometry.get("coasts", {}):
        x, y = geometry["coasts"][location]
    else:
        x, y = geometry["regions"][province]["unit"]
    if unit_type == "D":
        return (x + 4, y - 22)
    return (x, y)


def _unit_svg(unit: str, power: str, x: float, y: float, colour: str, *, scale: float = 1.0,
              dislodged: bool = False) -> str:
    kind = unit[0]
    r = UNIT_RADIUS * scale
    stroke = FAILED if dislodged else darker(colour, 0.45)
    width = 2.6 if dislodged else 1.5
    extra = ' data-dislodged="true"' if dislodged else ""
    if kind == "F":
        body = (f'<path d="M{num(x - r * 1.3)} {num(y - r * 0.35)}L{num(x + r * 1.3)} {num(y - r * 0.35)}'
                f'L{num(x + r * 0.8)} {num(y + r * 0.75)}L{num(x - r * 0.8)} {num(y + r * 0.75)}Z"')
    elif kind == "D":
        body = f'<ellipse cx="{num(x)}" cy="{num(y)}" rx="{num(r * 1.45)}" ry="{num(r * 0.72)}"'
    else:
        body = f'<circle cx="{num(x)}" cy="{num(y)}" r="{num(r)}"'
    return (f'<g data-unit={attr(unit)} data-power="{power}"{extra}>{body} fill="{colour}" stroke="{stroke}"'
            f' stroke-width="{num(width)}"/><text x="{num(x)}" y="{num(y + 4 * scale)}" font-size="{num(11 * scale)}"'
            f' font-weight="bold" text-anchor="middle" fill="#ffffff" stroke="{darker(colour, 0.4)}"'
            f' stroke-width="0.6">{kind}</text><title>{text(power.title())}: {text(unit)}</title></g>')


def _units(geometry: Geometry, picture: BoardPicture, colours: Mapping[str, str]) -> str:
    ground, air = ['<g id="units">'], ['<g id="dirigibles">']
    for power, units in sorted(picture.units.items()):
        for unit in units:
            kind, _, location = unit.partition(" ")
            if location.split("/")[0] not in geometry["regions"]:
                continue
            x, y = place(geometry, kind, location)
            (air if kind == "D" else ground).append(_unit_svg(unit, power, x, y, colours.get(power, "#999999")))
    ground.append("</g>")
    air.append("</g>")
    out = ["\n".join(ground), "\n".join(air), '<g id="dislodged">']
    for d in picture.dislodged:
        unit, power = str(d["unit"]), str(d["power"])
        kind, _, location = unit.partition(" ")
        if location.split("/")[0] not in geometry["regions"]:
            continue
        x, y = place(geometry, kind, location)
        x, y = x + 15, y + 12
        for target in d.get("retreats", []):
            if target.split("/")[0] in geometry["regions"]:
                tx, ty = place(geometry, kind, target)
                (ax, ay), (bx, by) = shorten((x, y), (tx, ty), 8, 8)
                out.append(f'<path data-retreat-option={attr(f"{unit} R {target}")} d="M{num(ax)} {num(ay)}'
                           f'L{num(bx)} {num(by)}" stroke="{FAILED}" stroke-width="1.4" stroke-dasharray="2 4"'
                           ' fill="none"/>')
        out.append(_unit_svg(unit, power, x, y, colours.get(power, "#999999"), scale=0.85, dislodged=True))
    out.append("</g>")
    return "\n".join(out)


def _order_svg(geometry: Geometry, order: DrawnOrder, shape: Shape, colour: str,
               picture: BoardPicture) -> str:
    """One order's drawing, in a group carrying ``data-order`` (and ``data-result``)."""
    here = place(geometry, shape.unit_type, shape.unit)
    failed = order.result in ("fails", "void")
    dash = ' stroke-dasharray="7 5"' if failed else ""
    ink = darker(colour, 0.8)
    parts: list[str] = []
    mark: tuple[float, float] | None = None
    if shape.kind in ("move", "retreat"):
        route = _route(geometry, shape, picture)
        a, _ = shorten(route[0], route[1], UNIT_RADIUS + 2, 0)
        tail, b = shorten(route[-2], route[-1], 0, UNIT_RADIUS + 1)
        if len(route) == 2:
            tail = a
        line = f"M{num(a[0])} {num(a[1])}" + _through(route[1:-1], b)
        width = 4.2 if shape.kind == "move" else 3.2
        parts.append(f'<path d="{line}" stroke="#ffffff" stroke-width="{num(width + 3)}"'
                     ' stroke-linecap="round" fill="none"/>')
        parts.append(f'<path d="{line}" stroke="{ink}" stroke-width="{num(width)}"'
                     f' stroke-linecap="round" fill="none"{dash}/>')
        parts.append(f'<polygon points="{arrow_head(b, tail, 14)}" fill="{ink}" stroke="#ffffff" stroke-width="1"/>')
        mark = ((tail[0] + b[0]) / 2, (tail[1] + b[1]) / 2)
    elif shape.kind == "convoy" and _convoyed_move_drawn(shape, picture):
        # the army's arrow runs through this fleet: a dotted ring says it carries it
        parts.append(f'<circle cx="{num(here[0])}" cy="{num(here[1])}" r="{num(UNIT_RADIUS + 6)}" fill="none"'
                     f' stroke="{ink}" stroke-width="2.6" stroke-dasharray="2 4" stroke-linecap="round"/>')
        mark = (here[0] + UNIT_RADIUS + 6, here[1] - UNIT_RADIUS - 4)
    elif shape.kind in ("support_move", "convoy"):
        start = place(geometry, shape.other_type, shape.other)
        end = place(geometry, shape.other_type, shape.target)
        middle = ((start[0] + end[0]) / 2, (start[1] + end[1]) / 2)
        a, b = shorten(here, middle, UNIT_RADIUS + 1, 3)
        pattern = "2 5" if shape.kind == "convoy" else "8 4"
        parts.append(f'<path d="M{num(a[0])} {num(a[1])}L{num(b[0])} {num(b[1])}" stroke="{ink}" stroke-width="2.4"'
                     f' stroke-dasharray="{pattern}" stroke-linecap="round" fill="none"/>')
        parts.append(f'<circle cx="{num(b[0])}" cy="{num(b[1])}" r="4" fill="{ink}"/>')
        mark = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
    elif shape.kind == "support_hold":
        there = place(geometry, shape.other_type, shape.other)
        a, b = shorten(here, there, UNIT_RADIUS + 1, UNIT_RADIUS + 5)
        parts.append(f'<path d="M{num(a[0])} {num(a[1])}L{num(b[0])} {num(b[1])}" stroke="{ink}" stroke-width="2.4"'
                     ' stroke-dasharray="8 4" fill="none"/>')
        parts.append(f'<circle cx="{num(there[0])}" cy="{num(there[1])}" r="{num(UNIT_RADIUS + 5)}" fill="none"'
                     f' stroke="{ink}" stroke-width="2.4" stroke-dasharray="8 4"/>')
        mark = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
    elif shape.kind == "hold":
        parts.append(f'<circle cx="{num(here[0])}" cy="{num(here[1])}" r="{num(UNIT_RADIUS + 5)}" fill="none"'
                     f' stroke="{ink}" stroke-width="3.2"{dash}/>')
        mark = (here[0] + UNIT_RADIUS + 6, here[1] - UNIT_RADIUS - 4) if failed else None
    elif shape.kind in ("disband",):
        unit = f"{shape.unit_type} {shape.unit}"
        spot = (here[0] + 15, here[1] + 12) if any(str(d["unit"]) == unit for d in picture.dislodged) else here
        parts.append(cross(spot[0], spot[1], 11, FAILED if not failed else "#777777", 4))
    elif shape.kind == "build":
        parts.append(f'<circle cx="{num(here[0])}" cy="{num(here[1])}" r="{num(UNIT_RADIUS + 6)}" fill="none"'
                     f' stroke="{ink}" stroke-width="3" stroke-dasharray="3 3"/>')
        parts.append(_unit_svg(f"{shape.unit_type} {shape.unit}", order.power, here[0], here[1], colour, scale=0.8)
                     .replace("<g data-unit=", "<g data-built=", 1))
        mark = (here[0] + UNIT_RADIUS + 6, here[1] - UNIT_RADIUS - 4) if failed else None
    elif shape.kind == "devastate":
        parts.append(f'<circle cx="{num(here[0])}" cy="{num(here[1])}" r="{num(UNIT_RADIUS + 8)}" fill="none"'
                     f' stroke="#b3300e" stroke-width="3" stroke-dasharray="2 3"/>')
        mark = (here[0] + UNIT_RADIUS + 6, here[1] - UNIT_RADIUS - 4) if failed else None
    if failed and mark is not None:
        parts.append(cross(mark[0], mark[1], 6))
    result = f' data-result="{order.result}"' if order.result else ""
    tip = order.order + (f" ({order.result}{': ' + order.reason if order.reason else ''})" if order.result else "")
    return (f'<g data-order={attr(order.order)} data-power="{order.power}"{result}>' + "".join(parts)
            + f"<title>{text(tip)}</title></g>")


def _convoys_of(shape: Shape, picture: BoardPicture) -> list[Shape]:
    """The convoy orders of the picture that carry this army's move (same army, same target)."""
    if shape.kind != "move" or shape.unit_type != "A":
        return []
    found = [shape_of(o.order) for o in picture.orders]
    return [c for c in found if c and c.kind == "convoy" and c.other == shape.unit and c.target == shape.target]


def _convoyed_move_drawn(convoy: Shape, picture: BoardPicture) -> bool:
    moves = (shape_of(o.order) for o in picture.orders)
    return any(m and m.kind == "move" and m.unit_type == "A" and m.unit == convoy.other and m.target == convoy.target
               for m in moves)


def _route(geometry: Geometry, shape: Shape, picture: BoardPicture) -> list[tuple[float, float]]:
    """Where a move's arrow runs: from the unit to its target, through the fleets that convoy it
    (in the picture's orders), each next fleet the nearest of those left (docs/maps.md)."""
    start = place(geometry, shape.unit_type, shape.unit)
    end = place(geometry, shape.unit_type, shape.target)
    left = [place(geometry, c.unit_type, c.unit) for c in _convoys_of(shape, picture)
            if c.unit.split("/")[0] in geometry["regions"]]
    route = [start]
    while left:
        nearest = min(left, key=lambda p: (p[0] - route[-1][0]) ** 2 + (p[1] - route[-1][1]) ** 2)
        left.remove(nearest)
        route.append(nearest)
    return [*route, end]


def _through(points: Sequence[tuple[float, float]], end: tuple[float, float]) -> str:
    """The rest of a path from its start through ``points`` to ``end``: straight lines."""
    return "".join(f"L{num(x)} {num(y)}" for x, y in [*points, end])


def _last_moves(geometry: Geometry, picture: BoardPicture, colours: Mapping[str, str]) -> str:
    """The last resolved phase's moves and retreats on the board now: thin, faint arrows under
    the units, each carrying ``data-last-order`` and its ``data-result`` (docs/maps.md)."""
    if not picture.last_orders:
        return ""
    out = [f'<g id="last-orders" opacity="0.55" pointer-events="none"'
           f'{" data-phase=" + attr(picture.last_phase) if picture.last_phase else ""}>']
    for order in picture.last_orders:
        shape = shape_of(order.order)
        if shape is None or shape.kind not in ("move", "retreat"):
            continue
        if any(p.split("/")[0] not in geometry["regions"] for p in (shape.unit, shape.target)):
            continue
        a, b = shorten(place(geometry, shape.unit_type, shape.unit), place(geometry, shape.unit_type, shape.target),
                       UNIT_RADIUS - 2, UNIT_RADIUS + 1)
        ink = darker(colours.get(order.power, "#777777"), 0.8)
        dash = ' stroke-dasharray="5 4"' if order.result in ("fails", "void") else ""
        result = f' data-result="{order.result}"' if order.result else ""
        out.append(f'<g data-last-order={attr(order.order)} data-power="{order.power}"{result}>'
                   f'<path d="M{num(a[0])} {num(a[1])}L{num(b[0])} {num(b[1])}" stroke="{ink}" stroke-width="2.6"'
                   f' stroke-linecap="round" fill="none"{dash}/>'
                   f'<polygon points="{arrow_head(b, a, 10)}" fill="{ink}"/>'
                   f'<title>{text(phase_title(picture.last_phase))}: {text(order.order)} ({text(order.result or "")})'
                   '</title></g>')
    out.append("</g>")
    return "\n".join(out)


def _orders(geometry: Geometry, shaped: Sequence[tuple[DrawnOrder, Shape]], colours: Mapping[str, str],
            picture: BoardPicture) -> str:
    regions = geometry["regions"]
    out = ['<g class="orders">']
    for order, shape in shaped:
        places = [shape.unit, shape.target, shape.other]
        if shape.kind == "waive" or any(p and p.split("/")[0] not in regions for p in places):
            continue
        out.append(_order_svg(geometry, order, shape, colours.get(order.power, "#777777"), picture))
    out.append("</g>")
    return "\n".join(out)


POWERS_TOP = 100.0  # where the legend's list of powers starts
ROW = 24.0


def _key_top(map_data: BoardMapData) -> float:
    return POWERS_TOP + ROW * len(map_data["powers"]) + 96


def _legend_static(map_data: BoardMapData, left: float, height: float) -> str:
    """The legend's panel, the powers' colours and names, and the key: the same on every
    picture of the variant."""
    x = left + 18
    colours = {p: info["colour"] for p, info in map_data["powers"].items()}
    out = [f'<g id="legend" font-size="15" fill="{INK}">',
           f'<rect x="{num(left)}" width="{num(LEGEND_WIDTH)}" height="{num(height)}" fill="{PAPER}"/>',
           f'<text x="{num(x)}" y="{num(POWERS_TOP - 10)}" font-weight="bold">Power</text>']
    y = POWERS_TOP
    for power in sorted(map_data["powers"]):
        out.append(f'<rect x="{num(x)}" y="{num(y + 6)}" width="22" height="16" fill="{colours[power]}"'
                   f' stroke="{INK}" stroke-width="0.8"/>'
                   f'<text x="{num(x + 30)}" y="{num(y + 20)}">{text(power.title())}</text>')
        y += ROW
    y = _key_top(map_data)
    out.append(f'<text x="{num(x)}" y="{num(y)}" font-weight="bold">Key</text>')
    y += 14
    key_colour = "#8a8a8a"
    samples = [("A", "Army"), ("F", "Fleet")]
    if "D" in map_data.get("unit_types", ()):
        samples.append(("D", "Dirigible (above the ground)"))
    for kind, label in samples:
        out.append(_unit_svg(kind, label, x + 12, y + 12, key_colour).replace("data-unit=", "data-key=", 1))
        out.append(f'<text x="{num(x + 34)}" y="{num(y + 17)}">{label}</text>')
        y += 28
    out.append(f'<circle cx="{num(x + 12)}" cy="{num(y + 12)}" r="6" fill="#ffffff" stroke="{INK}" stroke-width="1.6"/>'
               f'<text x="{num(x + 34)}" y="{num(y + 17)}">Supply centre (owner\'s colour)</text>')
    y += 28
    out.append(f'<path d="M{num(x)} {num(y + 12)}L{num(x + 24)} {num(y + 12)}" stroke="{INK}" stroke-width="4"/>'
               f'<polygon points="{arrow_head((x + 28, y + 12), (x, y + 12), 12)}" fill="{INK}"/>'
               f'<text x="{num(x + 34)}" y="{num(y + 17)}">Move, retreat</text>')
    y += 28
    out.append(f'<path d="M{num(x)} {num(y + 12)}L{num(x + 26)} {num(y + 12)}" stroke="{INK}" stroke-width="2.4"'
               f' stroke-dasharray="8 4"/><text x="{num(x + 34)}" y="{num(y + 17)}">Support (dots: convoy)</text>')
    y += 28
    out.append(cross(x + 12, y + 12, 6) + f'<text x="{num(x + 34)}" y="{num(y + 17)}">Failed order, removal</text>')
    y += 28
    out.append(f'<circle cx="{num(x + 12)}" cy="{num(y + 12)}" r="8" fill="{key_colour}"'
               f' stroke="{FAILED}" stroke-width="2.6"/>'
               f'<text x="{num(x + 34)}" y="{num(y + 17)}">Dislodged unit</text>')
    y += 28
    out.append(f'<rect x="{num(x)}" y="{num(y + 4)}" width="24" height="16" fill="url(#impassable)"/>'
               f'<text x="{num(x + 34)}" y="{num(y + 17)}">Impassable</text>')
    if "D" in map_data.get("unit_types", ()):  # Dirigible: the marker _centres draws on a devastated centre
        y += 28
        out.append(f'<g data-key="devastated"><circle cx="{num(x + 12)}" cy="{num(y + 12)}" r="6" fill="#ffffff"'
                   f' stroke="{INK}" stroke-width="1.6"/>{cross(x + 12, y + 12, 6, "#7a1b0c", 2.5)}'
                   f'<text x="{num(x + 34)}" y="{num(y + 17)}">Devastated centre</text></g>')
    out.append("</g>")
    return "\n".join(out)


def _orders_count(count: int) -> str:
    """"1 order", "3 orders"."""
    return f"{count} order{'' if count == 1 else 's'}"


def _legend(map_data: BoardMapData, picture: BoardPicture | None, left: float) -> str:
    """The legend's words of this picture: title, phase, counts, what the orders are."""
    x, right = left + 18, left + LEGEND_WIDTH - 18
    title = picture.title if picture else map_data["variant"].title()
    out = [f'<g id="legend-text" font-size="15" fill="{INK}">',
           f'<text x="{num(x)}" y="34" font-size="20" font-weight="bold">{text(title[:26])}</text>']
    if picture and picture.phase:
        title_now = phase_title(picture.phase, map_data["variant"])
        out.append(f'<text x="{num(x)}" y="60" font-size="16">{text(title_now)}</text>')
    out.append(f'<text x="{num(right)}" y="{num(POWERS_TOP - 10)}" text-anchor="end" font-weight="bold">'
               f'{"centres / units" if picture else "home centres"}</text>')
    centres = {p: len(cs) for p, cs in (picture.centres.items() if picture else ())}
    units = {p: len(us) for p, us in (picture.units.items() if picture else ())}
    y = POWERS_TOP
    for power, info in sorted(map_data["powers"].items()):
        counts = (f"{centres.get(power, 0)} / {units.get(power, 0)}" if picture
                  else str(len(info.get("home_centres", ()))))
        adjust = picture.adjustments.get(power) if picture else None
        if adjust:
            counts += f" ({adjust:+d})"
        if picture and picture.points.get(power):
            counts = f"{picture.points[power]} SP, " + counts
        out.append(f'<text x="{num(right)}" y="{num(y + 20)}" text-anchor="end">{counts}</text>')
        y += ROW
    y += 30
    if picture and picture.caption:
        out.append(f'<text x="{num(x)}" y="{num(y)}" font-weight="bold">{text(picture.caption)}</text>')
        counted = _orders_count(len(picture.orders))
        if any(o.result for o in picture.orders):
            failed = sum(1 for o in picture.orders if o.result in ("fails", "void"))
            out.append(f'<text x="{num(x)}" y="{num(y + 22)}">{counted}, {failed} failed</text>')
        elif picture.orders:
            out.append(f'<text x="{num(x)}" y="{num(y + 22)}">{counted}</text>')
    if picture:
        out.extend(_legend_below_key(map_data, picture, x))
    out.append("</g>")
    return "\n".join(out)


def _key_end(map_data: BoardMapData) -> float:
    """Where the key drawn by ``_legend_static`` ends: its heading, the unit samples and six rows
    (Dirigible's seventh, the devastated centre)."""
    samples = 3 if "D" in map_data.get("unit_types", ()) else 2
    rows = 6 if samples == 3 else 5
    return _key_top(map_data) + 14 + 28 * (samples + rows) + 20


def _legend_below_key(map_data: BoardMapData, picture: BoardPicture, x: float) -> list[str]:
    """Under the key: what the faint arrows are, and every dislodged unit the picture draws
    (its power, where it stands, where it was attacked from), so that the legend names each one."""
    out: list[str] = []
    y = _key_end(map_data) + 24
    if picture.last_orders and picture.last_phase:
        last = phase_title(picture.last_phase, map_data["variant"])
        out.append(f'<text x="{num(x)}" y="{num(y)}">Faint arrows: the moves of</text>'
                   f'<text x="{num(x)}" y="{num(y + 20)}">{text(last)}</text>')
        y += 52
    if picture.dislodged:
        out.append(f'<text x="{num(x)}" y="{num(y)}" font-weight="bold" data-legend="dislodged">'
                   f'Dislodged ({len(picture.dislodged)})</text>')
        for d in picture.dislodged[:12]:
            source = d.get("attacker_from")
            line = f'{str(d["power"]).title()}: {d["unit"]}' + (f" (from {source})" if source else "")
            y += 20
            out.append(f'<text x="{num(x)}" y="{num(y)}" data-legend-dislodged={attr(str(d["unit"]))}>'
                       f'{text(line)}</text>')
    return out
