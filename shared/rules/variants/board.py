"""What the variants played on the Diplomacy board (standard, dirigible) share: turning engine
values into the JSON of views and outcomes, and the behaviour both give the platform."""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Generic, TypeVar

from shared.rules.diplomacy import ENGINE_VERSION, ParseError, load_map
from shared.rules.diplomacy.orders import Order
from shared.rules.diplomacy.phase import Phase, PhaseType, Season
from shared.rules.diplomacy.position import DislodgedUnit as Dislodged
from shared.rules.diplomacy.position import OrderResult as Result
from shared.rules.diplomacy.position import Position, PowerUnit

from .base import Opening, OrderCheck, PhaseKind, PhaseOutcome, UnsupportedPlayerCount, every_order_and_dislodgement
from .documents import (
    BoardDocument,
    BoardMapData,
    BoardPower,
    BoardProvince,
    DislodgedUnit,
    HistoryView,
    MenuGroup,
    OrderResult,
    PositionView,
    RulesSettings,
    StructuredOrder,
)
from .order_reading import parse_cached as parse_cached  # (standard.py reads it from here)

D = TypeVar("D")  # a state document
V = TypeVar("V")


def unreadable(text: str, error: ParseError) -> OrderCheck:
    """The check of a text the parser could not read: the parser's message, word and hopes."""
    return OrderCheck(text, False, reason=error.message, where=error.word, expected=tuple(error.expected))


def units_by_power(units: Iterable[PowerUnit]) -> dict[str, list[str]]:
    by_power: dict[str, list[str]] = {}
    for pu in sorted(units, key=lambda pu: (pu.power, pu.unit.location, pu.unit.type.value)):
        by_power.setdefault(pu.power, []).append(str(pu.unit))
    return by_power


def centres_by_power(centres: Mapping[str, str]) -> dict[str, list[str]]:
    by_power: dict[str, list[str]] = {}
    for province, owner in sorted(centres.items()):
        by_power.setdefault(owner, []).append(province)
    return by_power


def dislodged_json(dislodged: Iterable[Dislodged]) -> list[DislodgedUnit]:
    return [{"power": d.power, "unit": str(d.unit), "attacker_from": d.attacker_from,
             "retreats": list(d.retreats)} for d in dislodged]


def results_json(results: Iterable[Result]) -> dict[str, list[OrderResult]]:
    """POWER -> [{"order", "result", "reason"}], in the order the results come."""
    orders: dict[str, list[OrderResult]] = {}
    for result in results:
        orders.setdefault(result.power, []).append(
            {"order": str(result.order), "result": result.result, "reason": result.reason})
    return orders


POWER_COLOURS = {
    "AUSTRIA": "#c8413b", "ENGLAND": "#2f4a9e", "FRANCE": "#4fa3dc", "GERMANY": "#5a5a5a",
    "ITALY": "#3d9a4b", "RUSSIA": "#8a5bb0", "TURKEY": "#e0b32d",
}
"""The colours a Diplomacy player expects: Austria red, England dark blue, France light blue,
Germany grey, Italy green, Russia purple, Turkey yellow."""


def board_map_data(variant: BoardVariant) -> BoardMapData:
    """The Diplomacy board as a variant plays it: provinces, adjacency by unit type and coast,
    powers and the opening position (docs/maps.md)."""
    game_map = load_map(variant.name)
    provinces: dict[str, BoardProvince] = {
        code: {"name": p.name, "kind": p.kind, "supply_centre": p.supply_centre, "home": p.home_of,
               "coasts": [f"{code}/{c}" for c in p.coasts]}
        for code, p in sorted(game_map.provinces.items())}
    army = {code: sorted(game_map.army_neighbours(code)) for code in sorted(game_map.provinces)
            if game_map.army_neighbours(code)}
    fleet = {loc: sorted(game_map.fleet_neighbours(loc)) for loc in sorted(game_map.locations)
             if game_map.fleet_neighbours(loc)}
    powers: dict[str, BoardPower] = {name: {"adjective": info.adjective, "colour": POWER_COLOURS.get(name, "#999999"),
                     "home_centres": sorted(game_map.home_centres.get(name, ()))}
              for name, info in sorted(game_map.power_info.items())}
    opening = variant.opening(variant.default_settings, 0)
    adjacency = {"A": army, "F": fleet}
    if any(t.value == "D" for t in game_map.unit_types):
        adjacency["D"] = {code: sorted(set(army.get(code, ()))
                                       | {n.split("/")[0] for loc in game_map.fleet_locations(code)
                                          for n in fleet.get(loc, ())})
                          for code, p in sorted(game_map.provinces.items()) if p.kind != "impassable"}
    return {"variant": variant.name, "board": "standard", "unit_types": [t.value for t in game_map.unit_types],
            "powers": powers, "provinces": provinces, "adjacency": adjacency,
            "opening": variant.view(opening.state, None)}


PHASE_KINDS: dict[PhaseType, PhaseKind] = {
    PhaseType.MOVEMENT: "movement", PhaseType.RETREATS: "retreats", PhaseType.ADJUSTMENTS: "adjustments"}
SEASON_ORDER = {Season.SPRING: 0, Season.FALL: 1, Season.WINTER: 2}
TYPE_ORDER = {PhaseType.MOVEMENT: 0, PhaseType.RETREATS: 1, PhaseType.ADJUSTMENTS: 2}


@dataclass(frozen=True)
class BoardSummary:
    surviving: frozenset[str]  # holding a unit or a centre
    adjustments: Mapping[str, int]  # builds allowed (positive) or removals owed (negative)
    forced_only: frozenset[str]  # whose only orders are removing every unit they have


def board_summary(board: PositionView) -> BoardSummary:
    units = board["units"]
    return BoardSummary(
        surviving=frozenset({p for p, held in units.items() if held}
                            | {p for p, centres in board["centres"].items() if centres}),
        adjustments=dict(board.get("adjustments", {})),
        forced_only=frozenset(power for power, owed in board.get("adjustments", {}).items()
                              if owed < 0 and -owed >= len(units.get(power, []))))


class ByDocument(Generic[D, V]):
    """Values worked out from state documents, remembered by the document's identity: the
    platform's documents are shared and never changed in place, and each is asked the same
    things on every request. The document is kept beside its value, so that while it is
    remembered no other object can have its id, and a hit is checked to be that very document;
    the oldest is forgotten past ``kept`` (a miss only costs the work again). Views are built in
    worker threads beside the event loop's requests, so two threads may forget the same oldest
    document at once, or find the dict changed as they look for it: each forgets what is still
    there to forget, and the bound holds within a document a thread (the rules take no lock:
    tests/architecture/test_boundaries.py)."""

    def __init__(self, kept: int) -> None:
        self._kept = kept
        self._found: dict[int, tuple[D, V]] = {}

    def get(self, document: D, work_out: Callable[[D], V]) -> V:
        found = self._found.get(id(document))
        if found is not None and found[0] is document:
            return found[1]
        value = work_out(document)
        if len(self._found) >= self._kept:
            try:
                self._found.pop(next(iter(self._found)), None)  # the oldest, if another has not
            except (StopIteration, RuntimeError):  # emptied, or changed while looked at
                pass
        self._found[id(document)] = (document, value)
        return value


DOCUMENTS_KEPT = 1024  # per variant and purpose: the current phases of as many busy games

Readings = list[Order | ParseError]  # a submission's texts as read, in order


@dataclass(frozen=True)
class BoardRules:
    """The engine a variant on the Diplomacy board plays by, as the functions its adapter needs:
    ``BoardVariant`` reads documents, checks orders, resolves, lists possible orders and shows
    the board through these, the same way for every such variant."""

    from_document: Callable[[BoardDocument], Position]
    to_document: Callable[[Position], BoardDocument]
    read_orders: Callable[[Sequence[str], str, Position], Readings]  # texts, power, position
    check_orders: Callable[[Sequence[str], str, Position], list[OrderCheck]]
    # the position, each power's readable orders, then settings, seed and civil disorder
    adjudicate: Callable[[Position, dict[str, list[Order]], RulesSettings, int, frozenset[str]],
                         PhaseOutcome[BoardDocument]]
    possible_orders: Callable[[Position, str], Mapping[str, Iterable[Order]]]
    view: Callable[[Position], PositionView]


class BoardVariant:
    """Behaviour common to the variants on the Diplomacy board: phases named like S1901M,
    nothing hidden once a phase is resolved, a power survives while it holds a unit or a
    centre, and the game ends by victory or draw, never by the calendar."""

    name: str
    default_settings: RulesSettings
    engine_version = ENGINE_VERSION
    rules: BoardRules

    def powers(self) -> list[str]:
        return sorted(load_map(self.name).home_centres)

    def seated(self, state: BoardDocument) -> list[str]:
        return self.powers()  # a small game shares the seven powers out, every one of them on the board

    def read_state(self, document: BoardDocument) -> Position:
        return self.position(document)

    def write_state(self, state: Position) -> BoardDocument:
        return self.rules.to_document(state)

    def phase_kind(self, phase: str) -> PhaseKind:
        return PHASE_KINDS[Phase.parse(phase).type]

    def phase_order(self, phase: str) -> tuple[int, ...]:
        parsed = Phase.parse(phase)
        return parsed.year, SEASON_ORDER[parsed.season], TYPE_ORDER[parsed.type]

    def board(self, state: BoardDocument) -> PositionView:
        """The board every viewer sees: units, centres and adjustments by power."""
        return self.view(state, None)

    def opening(self, settings: RulesSettings, seed: int) -> Opening[BoardDocument]:
        raise NotImplementedError

    def view(self, state: BoardDocument, viewer: str | None) -> PositionView:
        return self.rules.view(self.position(state))  # nothing is hidden from any viewer

    def check_orders(self, state: BoardDocument, power: str, texts: Sequence[str]) -> list[OrderCheck]:
        return self.rules.check_orders(texts, power, self.position(state))

    def resolve(self, state: BoardDocument, orders: Mapping[str, Sequence[str]], *,
                settings: RulesSettings, seed: int,
                civil_disorder: frozenset[str] = frozenset()) -> PhaseOutcome[BoardDocument]:
        """The stored orders read again (those that no longer read are left out), resolved."""
        position = self.position(state)
        read = {power: [o for o in self.rules.read_orders(texts, power, position) if not isinstance(o, ParseError)]
                for power, texts in sorted(orders.items())}
        return self.rules.adjudicate(position, read, settings, seed, frozenset(civil_disorder))

    def possible_orders(self, state: BoardDocument, power: str) -> dict[str, list[str]]:
        options = self.rules.possible_orders(self.position(state), power)
        return {key: [str(o) for o in found] for key, found in sorted(options.items())}

    def surviving(self, state: BoardDocument) -> frozenset[str]:
        return self._summary(state).surviving

    def adjustments(self, state: BoardDocument) -> dict[str, int]:
        return dict(self._summary(state).adjustments)

    def forced_only(self, state: BoardDocument) -> frozenset[str]:
        return self._summary(state).forced_only

    def _summary(self, state: BoardDocument) -> BoardSummary:
        """What the game's guards read of the public board, once per state document: every
        order submission asks which powers are forced only (a whole board view otherwise)."""
        return self._summaries.get(state, lambda document: board_summary(self.board(document)))

    def position(self, state: BoardDocument) -> Position:
        """The position a state document holds, read once per document (a checked order
        submission, a possible-orders request and a view each need it)."""
        return self._positions.get(state, self.read_position)

    def read_position(self, state: BoardDocument) -> Position:
        return self.rules.from_document(state)

    @cached_property
    def _summaries(self) -> ByDocument[BoardDocument, BoardSummary]:
        return ByDocument(DOCUMENTS_KEPT)

    @cached_property
    def _positions(self) -> ByDocument[BoardDocument, Position]:
        return ByDocument(DOCUMENTS_KEPT)

    def history_view(self, resolved: Mapping[str, Any], viewer: str | None) -> HistoryView:
        return every_order_and_dislodgement(resolved)  # orders are public once resolved

    def map_data(self) -> BoardMapData:
        return board_map_data(self)

    def describe_order(self, text: str, phase: str, power: str) -> StructuredOrder:
        from .board_orders import describe

        return describe(text, self.name, phase, power)

    def order_subject(self, text: str, phase: str, power: str) -> str | None:
        from .board_orders import subject

        return subject(text, self.name, phase, power)

    def order_menu(self, state: BoardDocument, power: str) -> list[MenuGroup]:
        from .board_orders import menu

        return menu(self.possible_orders(state, power), self.name, str(self.position(state).phase), power)

    def check_settings(self, settings: RulesSettings) -> None:
        self.check_player_count(int(settings.get("player_count") or 7))
        if settings.get("max_turns") is not None:
            raise ValueError("max_turns is for variants that end by the calendar; this one ends by victory or draw")

    def check_player_count(self, players: int) -> None:
        """2 to 7: fewer than seven share the powers (docs/rules/standard.md, section 7)."""
        if not 2 <= players <= 7:
            raise UnsupportedPlayerCount(
                f"a {self.name} game seats 2 to 7 players (fewer than seven share the powers), not {players}")
