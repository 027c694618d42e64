"""Tale of Ekonia's hex map as SVG, drawn only from what a viewer's view holds (docs/maps.md).

The picture is made of the view's public map (owners, cities, forts, capitals, sea lanes, the
units the map shows) and, for a state's player, its own section (its own units, hidden ones
too, and its gold); nothing else reaches this module. Every hexagon carries
``data-province``, every unit badge ``data-unit`` and every drawn order ``data-order``.
"""
from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from shared.rules.variants.documents import EkoniaMapData

from .board_svg import DrawnOrder, Layers
from .geometry_document import Geometry
from .svg import (
    FAILED,
    FONT,
    INK,
    PAPER,
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

LEGEND_WIDTH = 330.0
MIN_WIDTH = 1200
NEUTRAL = "#cfcabd"
SEA = "#b7d4ee"
LANE = "#8fb9e3"
LANE_STROKE = "#c8961e"
MAELSTROM = "#40577a"
PRIVATEERS = "PRIVATEERS"
TYPE_LETTERS = {"INFANTRY": "I", "CAVALRY": "C", "TRIREME": "T", "TRANSPORT": "Tr", "AIRSHIP": "A"}
_SLUG = r"[a-z]+(?:-[a-z]+)*"
_ARROW = re.compile(rf"({_SLUG}) -> ({_SLUG})")
_AT = re.compile(rf"\b(?:AT|INVESTIGATE|SHIPYARD|GASVENT|FORT|RAZE|MORALE|CITY) ({_SLUG})\b", re.IGNORECASE)


@dataclass(frozen=True)
class EkoniaPicture:
    """One turn of Tale of Ekonia as one viewer may see it."""

    title: str
    phase: str | None
    public: Mapping[str, Any]  # the view's position.public
    own: Sequence[Mapping[str, Any]] = ()  # the viewer's own section (every state's, for an operator's document)
    orders: Sequence[DrawnOrder] = ()
    battles: Sequence[str] = ()  # territories where a battle the viewer may know of was fought
    caption: str = ""
    alive: Sequence[str] = field(default_factory=tuple)


def units_shown(picture: EkoniaPicture) -> Counter[tuple[str, str, str, str]]:
    """(owner, type, location, mark) -> count: the viewer's own units (marked hidden, stored
    or aboard where they are) and the map's units of everyone else."""
    counts: Counter[tuple[str, str, str, str]] = Counter()
    mine = {own["power"] for own in picture.own}
    own_privateers: Counter[tuple[str, str]] = Counter()
    for own in picture.own:
        for unit in own["units"]:
            mark = "stored" if unit.get("stored") else "aboard" if unit.get("aboard") else \
                "hidden" if unit.get("hidden_until") else "privateer" if unit.get("privateer") else ""
            counts[(own["power"], unit["type"], unit["location"], mark)] += 1
            if unit.get("privateer") and not unit.get("stored") and not unit.get("aboard"):
                own_privateers[(unit["type"], unit["location"])] += 1
    for unit in picture.public.get("units", []):
        if unit["owner"] in mine:
            continue
        key = (unit["type"], unit["location"])
        if unit["owner"] == PRIVATEERS and own_privateers[key] > 0:
            own_privateers[key] -= 1  # the viewer's own privateer, counted above
            continue
        counts[(unit["owner"], unit["type"], unit["location"], "")] += 1
    return counts


def ekonia_layers(map_data: EkoniaMapData, geometry: Geometry, picture: EkoniaPicture | None) -> Layers:
    width, height = geometry["width"], geometry["height"]
    total = width + LEGEND_WIDTH
    title = picture.title if picture else "Tale of Ekonia"
    scale = max(1.0, MIN_WIDTH / total)  # pictures at least MIN_WIDTH pixels wide
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{round(total * scale)}"'
            f' height="{round(max(height, 640) * scale)}"'
            f' viewBox="0 0 {num(total)} {num(max(height, 640))}" font-family="{FONT}" data-variant="ekonia"'
            f'{" data-phase=" + attr(picture.phase) if picture and picture.phase else ""}>\n'
            f'<title>{text(title)}</title>')
    static = _static(map_data, geometry, total, max(height, 640))
    colours = {p: info["colour"] for p, info in map_data["powers"].items()}
    out = []
    if picture is None:
        territories = {tid: {"owner": t["owner"], "city": t["city"], "fort": False}
                       for tid, t in map_data["territories"].items()}
        capitals = {sid: st["capital"] for sid, st in map_data["states"].items()}
        out.append(_territories(geometry, territories, capitals, {}, colours))
    else:
        out.append(_territories(geometry, picture.public.get("territories", {}), picture.public.get("capitals", {}),
                                picture.public.get("sea_lanes", {}), colours))
        out.append(_battles(geometry, picture.battles))
        out.append(_units(geometry, units_shown(picture), colours))
        out.append(_orders(geometry, picture.orders, colours))
    out.append(_legend(map_data, picture, colours, width))
    return Layers(head, f"ekonia:{width}x{height}", static, "\n".join(out))


def _static(map_data: EkoniaMapData, geometry: Geometry, total: float, height: float) -> str:
    out = [f'<rect width="{num(total)}" height="{num(height)}" fill="{PAPER}"/>', '<g id="provinces">']
    for tid, region in sorted(geometry["regions"].items()):
        if region["kind"] == "impassable":
            out.append(f'<path d="{path_d(region["points"])}" fill="{MAELSTROM}" stroke="#fdfbf6" stroke-width="2">'
                       "<title>The Maelstrom (impassable)</title></path>")
            continue
        info = map_data["territories"][tid]
        fill = (LANE if info["sea_lane"] else SEA) if info["kind"] == "sea" else NEUTRAL
        out.append(f'<path data-province="{tid}" data-kind="{info["kind"]}" d="{path_d(region["points"])}"'
                   f' fill="{fill}" stroke="#fdfbf6" stroke-width="2"><title>{text(info["name"])}</title></path>')
    out.append('</g><g id="names" font-size="11" text-anchor="middle">')
    for tid, region in sorted(geometry["regions"].items()):
        if region["kind"] == "impassable":
            continue
        info = map_data["territories"][tid]
        x, y = region["label"]
        style = f' fill="{SEA_INK}" font-style="italic"' if info["kind"] == "sea" else f' fill="{INK}"'
        words = info["name"].split(" ", 1)
        for i, word in enumerate(words):
            out.append(f'<text x="{num(x)}" y="{num(y - 6 * (len(words) - 1) + 12 * i)}"{style}>{text(word)}</text>')
    out.append("</g>")
    return "\n".join(out)


def _territories(geometry: Geometry, territories: Mapping[str, Mapping[str, Any]],
                 capitals: Mapping[str, str | None], lanes: Mapping[str, str | None],
                 colours: Mapping[str, str]) -> str:
    """Owners as translucent tints, sea lanes' holders, cities, capitals and forts."""
    out = ['<g id="ownership">']
    capital_of = {tid: sid for sid, tid in capitals.items() if tid}
    for tid, terr in sorted(territories.items()):
        region = geometry["regions"].get(tid)
        if region is None:
            continue
        owner = terr.get("owner")
        if owner is not None and owner in colours:
            out.append(f'<path data-owner="{owner}" d="{path_d(region["points"])}" fill="{colours[owner]}"'
                       ' fill-opacity="0.6"/>')
        x, y = region["mark"]
        if tid in capital_of:
            out.append(f'<polygon data-capital="{capital_of[tid]}" points="{_star(x, y)}" fill="#b8860b"'
                       f' stroke="{INK}" stroke-width="0.8"/>')
        elif terr.get("city"):
            out.append(f'<circle data-city="{tid}" cx="{num(x)}" cy="{num(y)}" r="5" fill="{INK}"/>')
        if terr.get("fort"):
            out.append(f'<rect data-fort="{tid}" x="{num(x + 9)}" y="{num(y - 6)}" width="11" height="11"'
                       f' fill="#6b4b2a" stroke="{INK}" stroke-width="0.8"/>')
        if terr.get("converting"):
            out.append(f'<path data-converting="{tid}" d="{path_d(region["points"])}" fill="none" stroke="{INK}"'
                       ' stroke-width="2" stroke-dasharray="3 4"/>')
    for tid, holder in sorted(lanes.items()):
        region = geometry["regions"].get(tid)
        if region is None:
            continue
        unheld = "#222222" if holder == PRIVATEERS else LANE_STROKE
        stroke = colours.get(holder, unheld) if holder is not None else unheld
        points = [[x + (region["unit"][0] - x) * 0.12, y + (region["unit"][1] - y) * 0.12] for x, y in region["points"]]
        out.append(f'<path data-lane="{tid}"{f" data-holder={attr(holder)}" if holder else ""} d="{path_d(points)}"'
                   f' fill="none" stroke="{stroke}" stroke-width="2.5" stroke-dasharray="6 4"/>')
    out.append("</g>")
    return "\n".join(out)


def _star(x: float, y: float, outer: float = 9.0, inner: float = 3.8) -> str:
    import math

    corners = []
    for i in range(10):
        radius = outer if i % 2 == 0 else inner
        angle = math.radians(-90 + 36 * i)
        corners.append(f"{num(x + radius * math.cos(angle))},{num(y + radius * math.sin(angle))}")
    return " ".join(corners)


def _battles(geometry: Geometry, battles: Sequence[str]) -> str:
    out = ['<g id="battles">']
    for tid in sorted(set(battles)):
        if tid in geometry["regions"]:
            x, y = geometry["regions"][tid]["mark"]
            out.append(f'<g data-battle="{tid}">{cross(x - 20, y, 7, "#8b1a1a", 3)}<title>battle</title></g>')
    out.append("</g>")
    return "\n".join(out)


def _units(geometry: Geometry, counts: Counter[tuple[str, str, str, str]], colours: Mapping[str, str]) -> str:
    """A badge per owner, type and mark in each territory: letter and count."""
    out = ['<g id="units" font-size="10" font-weight="bold" text-anchor="middle">']
    by_place: dict[str, list[tuple[str, str, str, int]]] = {}
    for (owner, unit_type, location, mark), count in sorted(counts.items()):
        by_place.setdefault(location, []).append((owner, unit_type, mark, count))
    for location, badges in sorted(by_place.items()):
        region = geometry["regions"].get(location)
        if region is None:
            continue
        x0, y0 = region["unit"]
        per_row = 3
        for i, (owner, unit_type, mark, count) in enumerate(badges):
            x = x0 + (i % per_row - (min(len(badges), per_row) - 1) / 2) * 24
            y = y0 - 8 + (i // per_row) * 16
            colour = colours.get(owner, "#333333")
            label = f"{TYPE_LETTERS.get(unit_type, unit_type[:1])}{count}"
            dash = ' stroke-dasharray="2 2"' if mark else ""
            marked = f" data-mark={attr(mark)}" if mark else ""
            out.append(f'<g data-unit={attr(f"{owner} {unit_type} {location}")} data-count="{count}"{marked}>'
                       f'<rect x="{num(x - 11)}" y="{num(y - 7)}" width="22" height="14" rx="3" fill="{colour}"'
                       f' stroke="{darker(colour, 0.45) if owner in colours else "#000000"}" stroke-width="1.2"{dash}/>'
                       f'<text x="{num(x)}" y="{num(y + 4)}" fill="#ffffff">{text(label)}</text>'
                       f"<title>{text(owner.title())}: {count} {text(unit_type.lower())}"
                       f"{' (' + mark + ')' if mark else ''}"
                       "</title></g>")
    out.append("</g>")
    return "\n".join(out)


def _orders(geometry: Geometry, orders: Sequence[DrawnOrder], colours: Mapping[str, str]) -> str:
    regions = geometry["regions"]
    out = ['<g class="orders">']
    for order in orders:
        failed = order.result in ("failed", "invalid")
        colour = darker(colours.get(order.power, "#555555"), 0.7)
        parts = []
        for a, b in _ARROW.findall(order.order):
            if a in regions and b in regions:
                start, end = shorten(regions[a]["unit"], regions[b]["unit"], 14, 14)
                line = f"M{num(start[0])} {num(start[1])}L{num(end[0])} {num(end[1])}"
                dash = ' stroke-dasharray="7 5"' if failed else ""
                parts.append(f'<path d="{line}" stroke="#ffffff" stroke-width="7" stroke-linecap="round" fill="none"/>'
                             f'<path d="{line}" stroke="{colour}" stroke-width="4"'
                             f' stroke-linecap="round" fill="none"{dash}/>'
                             f'<polygon points="{arrow_head(end, start, 13)}" fill="{colour}"/>')
                if failed:
                    parts.append(cross((start[0] + end[0]) / 2, (start[1] + end[1]) / 2, 6))
        if not parts:
            for place in _AT.findall(order.order):
                if place in regions:
                    x, y = regions[place]["unit"]
                    parts.append(f'<circle cx="{num(x)}" cy="{num(y)}" r="24" fill="none" stroke="{colour}"'
                                 f' stroke-width="2.5" stroke-dasharray="4 3"/>')
                    if failed:
                        parts.append(cross(x + 18, y - 18, 6))
                    break
        if parts:
            result = f' data-result="{order.result}"' if order.result else ""
            out.append(f'<g data-order={attr(order.order)} data-power="{order.power}"{result}>' + "".join(parts)
                       + f"<title>{text(order.order)}{' (' + order.result + ')' if order.result else ''}</title></g>")
    out.append("</g>")
    return "\n".join(out)


def _legend(map_data: EkoniaMapData, picture: EkoniaPicture | None, colours: Mapping[str, str], left: float) -> str:
    x = left + 18
    out = [f'<g id="legend" font-size="15" fill="{INK}">']
    title = picture.title if picture else "Tale of Ekonia"
    out.append(f'<text x="{num(x)}" y="34" font-size="20" font-weight="bold">{text(title[:28])}</text>')
    y = 60.0
    if picture and picture.phase:
        turn = text(picture.phase[1:].lstrip("0") or "0")
        out.append(f'<text x="{num(x)}" y="{num(y)}" font-size="16">Turn {turn}</text>')
    y = 96.0
    owned = Counter(t.get("owner") for t in (picture.public.get("territories", {}).values() if picture else
                                             map_data["territories"].values()))
    out.append(f'<text x="{num(x)}" y="{num(y - 10)}" font-weight="bold">State</text>'
               f'<text x="{num(left + LEGEND_WIDTH - 18)}" y="{num(y - 10)}" text-anchor="end"'
               ' font-weight="bold">land</text>')
    alive = set(picture.alive) if picture else set(map_data["powers"])
    for sid, info in sorted(map_data["powers"].items()):
        name = info["name"] + ("" if sid in alive else " (out)")
        out.append(f'<rect x="{num(x)}" y="{num(y + 6)}" width="22" height="16" fill="{colours[sid]}" stroke="{INK}"'
                   f' stroke-width="0.8"/><text x="{num(x + 30)}" y="{num(y + 20)}">{text(name)}</text>'
                   f'<text x="{num(left + LEGEND_WIDTH - 18)}" y="{num(y + 20)}" text-anchor="end">'
                   f'{owned.get(sid, 0)}</text>')
        y += 24
    y += 26
    if picture:
        for own in picture.own[:1] if len(picture.own) == 1 else ():
            out.append(f'<text x="{num(x)}" y="{num(y)}">Your gold: {own.get("gold", 0)}</text>')
            y += 24
        if picture.caption:
            out.append(f'<text x="{num(x)}" y="{num(y)}" font-weight="bold">{text(picture.caption)}</text>')
            y += 20
            for order in list(picture.orders)[:14]:
                mark = "" if order.result in (None, "ok") else f" ({order.result})"
                fill = f' fill="{FAILED}"' if order.result in ("failed", "invalid") else ""
                label = text((order.order + mark)[:44])
                out.append(f'<text x="{num(x)}" y="{num(y)}" font-size="12"{fill}>{label}</text>')
                y += 16
            if len(picture.orders) > 14:
                out.append(f'<text x="{num(x)}" y="{num(y)}" font-size="12">and {len(picture.orders) - 14} more</text>')
                y += 16
            y += 10
    out.append(f'<text x="{num(x)}" y="{num(y + 8)}" font-size="13">Badges: I infantry, C cavalry, T trireme,</text>')
    out.append(f'<text x="{num(x)}" y="{num(y + 24)}" font-size="13">Tr transport, A airship; dashed: hidden</text>')
    out.append(f'<text x="{num(x)}" y="{num(y + 40)}" font-size="13">Star capital, dot city, square fort</text>')
    out.append("</g>")
    return "\n".join(out)
