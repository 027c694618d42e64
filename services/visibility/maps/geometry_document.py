"""The geometry document of a board, typed: where each thing is drawn (docs/maps.md, "How the
standard board is drawn").

The standard board's is package data written by ``standard_geometry.py``
(shared/variants/standard/geometry.json), Tale of Ekonia's is laid out from its hex grid
(``geometry.ekonia_geometry``); both are this shape, and the drawings (board_svg.py,
ekonia_svg.py) read them as it. Points are ``[x, y]`` lists in pixels, as the JSON has them.
"""
from __future__ import annotations

from typing import NotRequired, TypedDict


class Region(TypedDict):
    """One province or territory (or an impassable cell) as drawn."""

    kind: str  # land, coast, sea, impassable
    points: list[list[float]]  # its outline
    unit: list[float]  # where a unit stands
    label: list[float]  # where its name is written
    centre: NotRequired[list[float]]  # a supply centre's marker (the standard board)
    mark: NotRequired[list[float]]  # where a battle is marked (Tale of Ekonia)


class Border(TypedDict):
    """The lines two regions share (the standard board)."""

    between: list[str]  # the two regions' codes, sorted
    lines: list[list[list[float]]]


class Decoration(TypedDict):
    """What the board draws that is no region (Ireland)."""

    name: str
    kind: str
    points: list[list[float]]


class Geometry(TypedDict):
    """A board's drawing: its size, regions, split coasts' markers and borders."""

    board: str  # standard, ekonia
    width: float
    height: float
    regions: dict[str, Region]
    coasts: dict[str, list[float]]  # STP/NC -> where a fleet on that coast stands
    borders: list[Border]
    crossings: list[list[str]]  # always empty: the drawing is planar
    decorations: NotRequired[list[Decoration]]
    generator: NotRequired[str]  # the command that wrote the document
