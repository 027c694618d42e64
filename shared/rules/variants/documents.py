"""The JSON documents of the ``Variant`` protocol (base.py), named and typed.

Every variant answers in these shapes (docs/api.md: "Positions", "Structured orders"); the
fields one variant has and another lacks are ``NotRequired``. TypedDicts are plain dicts at
run time, so an answer is written to JSON as it always was. The state document itself stays
the variant's own (``StateDocument``): the platform stores it and hands it back, and never
reads it.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, NotRequired, TypedDict

StateDocument = dict[str, Any]  # a variant's full state as the platform stores it, read only by its variant


class RulesSettings(TypedDict, total=False):
    """What the rules read of a game's settings (``shared.events.GameSettings.for_rules``; an
    ``entente adjudicate`` document's ``settings``): the rest are the platform's."""

    player_count: int  # seats of the game; absent: the variant's full table
    edition: str  # the standard rules' edition, ``2000`` or ``2023``
    max_turns: int | None  # Tale of Ekonia: the last turn played; None: no limit


def read_settings(given: Mapping[str, Any]) -> RulesSettings:
    """The settings of an ``entente adjudicate`` document (JSON) as the rules read them: a
    number may be written as a string of digits; ValueError for one that is no number."""
    settings: RulesSettings = {}
    if given.get("player_count") is not None:
        settings["player_count"] = int(given["player_count"])
    if given.get("edition") is not None:
        settings["edition"] = str(given["edition"])
    if given.get("max_turns") is not None:
        settings["max_turns"] = int(given["max_turns"])
    return settings


class BoardDislodged(TypedDict):
    """A dislodged unit inside a board document (the power is the key it is listed under)."""

    unit: str
    attacker_from: str | None
    retreats: list[str]


class BoardDocument(TypedDict):
    """A position on the Diplomacy board as the standard and Dirigible engines store it
    (``position_to_document``, ``dirigible_position_to_document``; docs/rules/standard.md)."""

    variant: NotRequired[str]  # absent in a standard position written before the tag existed
    phase: str
    units: dict[str, list[str]]
    centers: dict[str, list[str]]
    dislodged: dict[str, list[BoardDislodged]]
    devastated: NotRequired[list[str]]  # Dirigible


class DislodgedUnit(TypedDict):
    power: str
    unit: str  # as orders write it: ``A PAR``
    attacker_from: str | None
    retreats: list[str]


class OrderResult(TypedDict):
    """One order of a resolved phase and what became of it."""

    order: str
    result: str
    reason: str


class OrderCheckAnswer(TypedDict):
    """One submitted text as the order check answers it (``OrderCheck.as_json``)."""

    text: str
    status: str  # accepted or rejected
    order: NotRequired[str | None]  # the canonical text of an accepted order
    reason: NotRequired[str | None]  # why a rejected one was rejected
    word: NotRequired[str]  # the word the parser stumbled on
    expected: NotRequired[list[str]]  # what the parser hoped for there


class PositionView(TypedDict):
    """What a viewer sees of a position (``Variant.view``): the phase, and every power's units
    and centres, whatever else the variant shows."""

    phase: str
    units: dict[str, list[Any]]  # board games: ``A PAR``; Tale of Ekonia: units as the map shows them
    centres: dict[str, list[str]]  # supply centres; Tale of Ekonia: territories held
    adjustments: NotRequired[dict[str, int]]  # builds (positive) or removals owed (negative)
    dislodged: NotRequired[list[DislodgedUnit]]
    devastated: NotRequired[list[str]]  # Dirigible
    points: NotRequired[dict[str, int]]  # Dirigible, in a Winter
    balance: NotRequired[dict[str, int]]  # Dirigible, in a Winter
    surviving: NotRequired[list[str]]  # Tale of Ekonia
    public: NotRequired[dict[str, Any]]  # Tale of Ekonia: the public map
    own: NotRequired[dict[str, Any]]  # Tale of Ekonia: the viewer's own records


class HistoryView(TypedDict):
    """What a viewer sees of a resolved phase (``Variant.history_view``)."""

    phase: str
    orders: dict[str, list[OrderResult]]
    dislodged: list[DislodgedUnit]
    next_phase: str
    details: NotRequired[dict[str, Any]]


# One structured order (structured.py): the four keys every order has, then its type's own.
# The functional form, since one of them is ``from``.
StructuredOrder = TypedDict("StructuredOrder", {
    "text": str, "type": str, "unit": str | None, "to": str | None,
    "via_convoy": NotRequired[bool], "supported": NotRequired[str], "convoyed": NotRequired[str],
    "location": NotRequired[str], "count": NotRequired[int], "unit_type": NotRequired[str],
    "from": NotRequired[str], "path": NotRequired[list[str]], "improvement": NotRequired[str],
    "level": NotRequired[int], "mission": NotRequired[str], "target": NotRequired[str | None],
    "amount": NotRequired[int], "power": NotRequired[str], "stance": NotRequired[str],
})


class MenuGroup(TypedDict):
    """One group of a menu of possible orders (``Variant.order_menu``)."""

    key: str
    kind: str  # unit, site or power (structured.GroupKind)
    unit: str | None
    location: str | None
    orders: list[StructuredOrder]


# --- map data (``Variant.map_data``; docs/maps.md, "Map data") ----------------------------------


class BoardProvince(TypedDict):
    name: str
    kind: str  # land, coast, sea, impassable
    supply_centre: bool
    home: str | None  # the power whose home centre it is
    coasts: list[str]  # STP/NC, STP/SC; empty for most


class BoardPower(TypedDict):
    adjective: str
    colour: str
    home_centres: list[str]


class BoardMapData(TypedDict):
    """The Diplomacy board as a variant plays it (``board.board_map_data``)."""

    variant: str
    board: Literal["standard"]
    unit_types: list[str]  # A, F; Dirigible's D
    powers: dict[str, BoardPower]
    provinces: dict[str, BoardProvince]
    adjacency: dict[str, dict[str, list[str]]]  # unit type -> province or coast -> its neighbours
    opening: PositionView


class HexCell(TypedDict):
    """Where the rules' drawing puts a hex cell, in pixels."""

    centre: list[float]
    corners: list[list[float]]


class EkoniaTerritory(TypedDict):
    name: str
    kind: str  # land, sea
    coastal: bool
    city: bool
    sea_lane: bool
    hex: list[int]
    owner: str | None  # the state holding it at the start
    income: int
    cell: HexCell


class EkoniaPower(TypedDict):
    name: str
    colour: str


class EkoniaStateSetup(TypedDict):
    name: str
    colour: str
    capital: str
    cities: list[str]
    territories: list[str]
    starting_units: list[list[str]]  # [unit type, territory]
    gold: int
    income: int


class HexGrid(TypedDict):
    system: str
    orientation: str
    size: float
    impassable: list[list[int]]
    impassable_cells: list[HexCell]


class EkoniaMapData(TypedDict):
    """The hex map of Tale of Ekonia (``ekonia.ekonia_map_data``)."""

    variant: str
    board: Literal["ekonia"]
    unit_types: list[str]
    powers: dict[str, EkoniaPower]
    territories: dict[str, EkoniaTerritory]
    seas: list[str]
    sea_lanes: list[str]
    adjacency: dict[str, list[str]]
    hex_grid: HexGrid
    income: dict[str, int]
    states: dict[str, EkoniaStateSetup]
    opening: PositionView | None  # None for a board built for a test (EkoniaVariant(board))


MapData = BoardMapData | EkoniaMapData  # told apart by ``board``
