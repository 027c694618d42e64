"""Tale of Ekonia for the platform: ``VARIANT`` implements the ``Variant`` protocol in JSON
documents over the pure rules in ``shared.rules.ekonia`` (planning, combat, captures, economy,
espionage, the turn, and the visibility policy).

Phases are turns, named ``T01``, ``T02``...; every state orders at once each turn, and there
are no retreat or adjustment phases.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any, cast

from shared.rules.ekonia import ENGINE_VERSION
from shared.rules.ekonia.board import Board, board_from_map
from shared.rules.ekonia.catalogue import UNIT_TYPES
from shared.rules.ekonia.menu import possible_orders
from shared.rules.ekonia.parser import ParseError, parse_order
from shared.rules.ekonia.planning import plan_orders
from shared.rules.ekonia.policy import planning_view, state_view, turn_view
from shared.rules.ekonia.position import Ekonia
from shared.rules.ekonia.records import EkoniaState, as_state
from shared.rules.ekonia.seats import states_played
from shared.rules.ekonia.state import initial_state, phase_name, playing, turn_of
from shared.rules.ekonia.turn import resolve_turn

from . import ekonia_orders
from .base import Opening, OrderCheck, PhaseKind, PhaseOutcome, UnsupportedPlayerCount, VariantOf
from .documents import (
    EkoniaMapData,
    EkoniaStateSetup,
    EkoniaTerritory,
    HexCell,
    HistoryView,
    MenuGroup,
    PositionView,
    RulesSettings,
    StructuredOrder,
    read_settings,
)


@lru_cache(maxsize=1)
def ekonia_board() -> Board:
    from shared.rules.ekonia.geography import load_ekonia_map
    return board_from_map(load_ekonia_map())


def check_orders(state: EkoniaState, board: Board, power: str,
                 texts: Sequence[str]) -> list[OrderCheck]:
    """Each text read and checked with the others of the submission, counting gold the
    submission EXPECTs from other states as if it will arrive."""
    if power not in state["powers"] or not state["powers"][power]["alive"]:
        return [OrderCheck(t, False, reason=f"{power} does not play this game") for t in texts]
    read = [(t, parse_order(t, board)) for t in texts]
    valid = [o for _, o in read if not isinstance(o, ParseError)]
    plan = plan_orders(Ekonia.from_document(planning_view(state, power)), board, power, valid, count_expected=True)
    checks, index = [], 0
    for text, order in read:
        if isinstance(order, ParseError):
            checks.append(OrderCheck(text, False, reason=order.reason, where=order.where,
                                     expected=order.expected))
            continue
        reason = plan.reasons.get(index)
        checks.append(OrderCheck(text, reason is None, order=order.text(), reason=reason))
        index += 1
    return checks


def ekonia_map_data(variant: EkoniaVariant) -> EkoniaMapData:
    """The hex map of Tale of Ekonia: territories and seas with their cells, sea lanes,
    adjacency, the states at the start with their colours, and the opening (docs/maps.md)."""
    from shared.rules.ekonia.draw import HEX_SIZE, hex_centre, hex_corners, state_colours
    from shared.rules.ekonia.geography import load_ekonia_map, map_table, read_ekonia_data

    ekonia = load_ekonia_map()
    grid = map_table(read_ekonia_data(), "hex_grid")
    colours = state_colours(ekonia)
    def cell(hex_: tuple[int, int]) -> HexCell:
        """Where the rules' drawing (draw.py) puts a cell: its centre and corners, in pixels."""
        x, y = hex_centre(hex_)
        return {"centre": [round(x, 1), round(y, 1)],
                "corners": [[round(cx, 1), round(cy, 1)] for cx, cy in hex_corners(x, y)]}

    territories: dict[str, EkoniaTerritory] = {
        tid: {"name": t.name, "kind": t.kind, "coastal": t.coastal, "city": t.city, "sea_lane": t.sea_lane,
              "hex": list(t.hex), "owner": ekonia.owner_at_start(tid), "income": ekonia.base_income(tid),
              "cell": cell(t.hex)}
        for tid, t in sorted(ekonia.territories.items())}
    states: dict[str, EkoniaStateSetup] = {
        sid: {"name": st.display_name, "colour": colours[sid], "capital": st.capital,
              "cities": list(st.cities), "territories": sorted(st.territories),
              "starting_units": [list(u) for u in st.starting_units], "gold": st.gold,
              "income": ekonia.starting_income(sid)}
        for sid, st in sorted(ekonia.states.items())}
    opening = variant.opening({}, 0) if variant._board is None else None
    return {"variant": "ekonia", "board": "ekonia", "unit_types": list(UNIT_TYPES),
            "powers": {sid: {"name": st["name"], "colour": st["colour"]} for sid, st in states.items()},
            "territories": territories,
            "seas": sorted(t for t, info in territories.items() if info["kind"] == "sea"),
            "sea_lanes": sorted(ekonia.sea_lanes),
            "adjacency": {tid: sorted(ekonia.neighbours(tid)) for tid in sorted(ekonia.territories)},
            "hex_grid": {"system": str(grid["system"]), "orientation": str(grid["orientation"]), "size": HEX_SIZE,
                         "impassable": [list(c) for c in sorted(ekonia.impassable_hexes)],
                         "impassable_cells": [cell(c) for c in sorted(ekonia.impassable_hexes)]},
            "income": dict(ekonia.income),
            "states": states,
            "opening": variant.view(opening.state, None) if opening else None}


class EkoniaVariant:
    name = "ekonia"
    default_settings: RulesSettings = {"player_count": 6}
    engine_version = ENGINE_VERSION

    def __init__(self, board: Board | None = None) -> None:
        self._board = board

    @property
    def board(self) -> Board:
        return self._board or ekonia_board()

    def opening(self, settings: RulesSettings, seed: int) -> Opening[EkoniaState]:
        """Six states; ``player_count`` (default: all) from 2 to 6. With fewer players the
        states that play sit evenly around the ring where they can (seats.py), at an offset
        drawn from the game's seed; the others' land starts neutral."""
        states = sorted(self.board.states)
        count = settings.get("player_count") or len(states)
        self.check_player_count(count)
        powers = states_played(self.board, count, seed)
        state = initial_state(self.board, powers)
        seats = playing(state)
        return Opening(phase_name(state["turn"]), state, [[p] for p in seats], seats)

    def powers(self) -> list[str]:
        return sorted(self.board.states)

    def seated(self, state: EkoniaState) -> list[str]:
        return sorted(state["powers"])

    def read_state(self, document: EkoniaState) -> Ekonia:
        return Ekonia.from_document(document)

    def write_state(self, state: Ekonia) -> EkoniaState:
        return state.to_document()

    def phase_kind(self, phase: str) -> PhaseKind:
        return "movement"

    def phase_order(self, phase: str) -> tuple[int, ...]:
        return (turn_of(phase),)

    def surviving(self, state: EkoniaState) -> frozenset[str]:
        return frozenset(playing(state))

    def adjustments(self, state: EkoniaState) -> dict[str, int]:
        return {}

    def forced_only(self, state: EkoniaState) -> frozenset[str]:
        return frozenset()

    def check_orders(self, state: EkoniaState, power: str,
                     texts: Sequence[str]) -> list[OrderCheck]:
        return check_orders(state, self.board, power, texts)

    def resolve(self, state: EkoniaState, orders: Mapping[str, Sequence[str]], *,
                settings: RulesSettings, seed: int,
                civil_disorder: frozenset[str] = frozenset()) -> PhaseOutcome[EkoniaState]:
        """Civil disorder needs nothing special: a state without orders buys nothing, its
        units stay where they are and its income still comes in."""
        result = resolve_turn(state, self.board, orders, seed=seed, max_turns=settings.get("max_turns"))
        must_act = [] if result.winners else playing(result.state)
        return PhaseOutcome(result.phase, result.orders, result.state, result.next_phase,
                            must_act, result.winners, dict(result.details))

    def possible_orders(self, state: EkoniaState, power: str) -> dict[str, list[str]]:
        if power not in state["powers"]:
            return {}
        return possible_orders(Ekonia.from_document(planning_view(state, power)), self.board, power)

    def view(self, state: EkoniaState, viewer: str | None) -> PositionView:
        # the policy's projection has the protocol's phase, units and centres, and its own keys
        return cast(PositionView, state_view(state, self.board, viewer))

    def history_view(self, resolved: Mapping[str, Any], viewer: str | None) -> HistoryView:
        return cast(HistoryView, turn_view(resolved, viewer))

    def check_settings(self, settings: RulesSettings) -> None:
        """2 to 6 players (``opening`` says it again); ``max_turns`` a positive number or none."""
        self.check_player_count(settings.get("player_count") or len(self.board.states))
        max_turns = settings.get("max_turns")
        if max_turns is not None and max_turns < 1:
            raise ValueError(f"max_turns must be at least 1, not {max_turns}")

    def check_player_count(self, players: int) -> None:
        """One player a state: 2 to 6 (R75)."""
        if not 2 <= players <= len(self.board.states):
            raise UnsupportedPlayerCount(
                f"Tale of Ekonia seats 2 to {len(self.board.states)} players, one state each, not {players}")

    def map_data(self) -> EkoniaMapData:
        return ekonia_map_data(self)

    def describe_order(self, text: str, phase: str, power: str) -> StructuredOrder:
        return ekonia_orders.describe(text, self.board)

    def order_subject(self, text: str, phase: str, power: str) -> str | None:
        return ekonia_orders.subject(text, self.board)

    def order_menu(self, state: EkoniaState, power: str) -> list[MenuGroup]:
        return ekonia_orders.menu(self.possible_orders(state, power), self.board)

    def adjudicate_document(self, doc: Mapping[str, Any]) -> dict[str, Any]:
        """``{"variant": "ekonia", "state", "orders": {STATE: [texts]}, "seed", "settings"}``
        resolved. The output carries the ``seed`` and ``settings`` beside the new ``state``, so
        that it, with new ``orders``, is the next turn's document (docs/rules/ekonia.md, D39)."""
        seed = int(doc.get("seed", 0))
        settings = dict(doc.get("settings") or {})
        read = read_settings(settings)
        state = as_state(doc.get("state") or self.opening(read, seed).state)
        result = resolve_turn(state, self.board, doc.get("orders") or {}, seed=seed, max_turns=read.get("max_turns"))
        return {"variant": "ekonia", "phase": result.phase, "orders": result.orders,
                "state": result.state, "next_phase": result.next_phase,
                "rolls": result.details["rolls"], "battles": result.details["battles"],
                "events": result.details["events"], "missions": result.details["missions"],
                "ledgers": result.details["ledgers"], "winners": result.winners,
                "seed": seed, "settings": settings}


VARIANT = EkoniaVariant()
_AS_PROTOCOL: VariantOf[Ekonia, EkoniaState] = VARIANT  # mypy checks the protocol here

__all__ = ["VARIANT", "EkoniaVariant", "check_orders", "ekonia_board"]
