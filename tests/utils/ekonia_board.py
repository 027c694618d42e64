"""A small hand-made board for the Ekonia tests, and builders for states and units.

    sea-west (lane) touches alpha, a-field, mid-one         sea-east touches mid-two, beta
    sea-west -- sea-east

    alpha(ALPHA capital, city) - a-field - mid-one - mid-two(city) - b-field - beta(BETA capital)
    alpha - mid-one;  mid-one - mid-three;  mid-three - b-field;  mid-two - beta
    gamma(GAMMA capital, city) - g-field - mid-three;  gamma - mid-three
"""
from __future__ import annotations

from shared.rules.ekonia.board import Board, StartingState, Territory, make_board
from shared.rules.ekonia.position import Ekonia
from shared.rules.ekonia.records import PlannedUnit
from shared.rules.ekonia.sides import BattleContext, BattleUnit
from shared.rules.ekonia.state import State, initial_state


def land(tid: str, *, city: bool = False, coastal: bool = False) -> Territory:
    return Territory(tid, tid.replace("-", " ").title(), "land", coastal=coastal, city=city)


def small_board() -> Board:
    territories = [
        land("alpha", city=True, coastal=True), land("a-field", coastal=True),
        land("mid-one", coastal=True), land("mid-two", city=True, coastal=True),
        land("mid-three"), land("b-field"), land("beta", city=True, coastal=True),
        land("gamma", city=True), land("g-field"), land("b-town", city=True),
        Territory("sea-west", "Sea West", "sea", sea_lane=True),
        Territory("sea-east", "Sea East", "sea", sea_lane=True),
    ]
    edges = [
        ("alpha", "a-field"), ("a-field", "mid-one"), ("alpha", "mid-one"), ("mid-one", "mid-two"),
        ("mid-two", "b-field"), ("b-field", "beta"), ("mid-two", "beta"), ("mid-one", "mid-three"),
        ("mid-three", "b-field"), ("gamma", "g-field"), ("g-field", "mid-three"),
        ("gamma", "mid-three"), ("beta", "b-town"), ("b-field", "b-town"),
        ("sea-west", "alpha"), ("sea-west", "a-field"), ("sea-west", "mid-one"),
        ("sea-east", "mid-two"), ("sea-east", "beta"), ("sea-west", "sea-east"),
    ]
    states = [
        StartingState("ALPHA", "alpha", ("alpha", "a-field"),
                      (("INFANTRY", "alpha"), ("INFANTRY", "a-field"), ("TRIREME", "sea-west"))),
        StartingState("BETA", "beta", ("beta", "b-field", "b-town"),
                      (("INFANTRY", "beta"), ("INFANTRY", "b-field"))),
        StartingState("GAMMA", "gamma", ("gamma", "g-field"), (("INFANTRY", "gamma"),)),
    ]
    return make_board(territories, edges, states)


def fresh_state(board: Board | None = None) -> State:
    return initial_state(board or small_board())


def unit(uid: str, unit_type: str, location: str, *, moved: bool = False, built: int = 0,
         entered_from: str | None = None, landed: bool = False, hidden_until: int | None = None,
         privateer: bool = False, aboard: str | None = None) -> PlannedUnit:
    """A unit as planned for a battle on turn 1 (``uid`` like ``ALPHA-1`` names the owner)."""
    return PlannedUnit(uid, unit_type, uid.rpartition("-")[0], location, stored=False, privateer=privateer,
                       built=built, aboard=aboard, hidden_until=hidden_until, moved=moved, used=moved,
                       entered_from=entered_from, landed=landed)


def battle_context(state: State, board: Board, units: list[PlannedUnit], *,
                   wars: set[tuple[str, str]] | None = None, morale: dict[str, int] | None = None,
                   bombardments: list[tuple[str, list[str], str, str]] | None = None,
                   turn: int = 1, hunts: dict[str, set[str]] | None = None) -> BattleContext:
    every_unit = {u.id: BattleUnit.of(u) for u in units}
    return BattleContext(board, Ekonia.from_document(state), wars if wars is not None else {("ALPHA", "BETA")}, turn,
                         seed=7, morale=morale or {}, units=every_unit,
                         bombardments=bombardments or [], hunts=hunts or {})


def at_war(state: State, *pairs: tuple[str, str]) -> State:
    state["wars"] = sorted(sorted(p) for p in pairs)
    return state
