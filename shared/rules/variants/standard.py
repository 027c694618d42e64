"""The standard game (and its small games, docs/rules/standard.md) behind the ``Variant`` protocol.

A thin adapter: every rule lives in ``shared.rules.diplomacy``; this module only turns
JSON documents into engine values and back.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any, cast

from shared.rules.diplomacy import (
    ParseError,
    adjudicate,
    adjudicate_document,
    draw_italy_side,
    initial_position,
    load_map,
    normalise_order,
    position_from_document,
    position_to_document,
    possible_orders,
    small_game,
)
from shared.rules.diplomacy.geography import GameMap
from shared.rules.diplomacy.legality import orders_problems
from shared.rules.diplomacy.orders import Order
from shared.rules.diplomacy.phase import PhaseType
from shared.rules.diplomacy.position import Position, Resolution
from shared.rules.diplomacy.possible import adjustment_count
from shared.rules.diplomacy.small_games import SmallGame

from .base import Opening, OrderCheck, PhaseOutcome, VariantOf
from .board import (
    BoardRules,
    BoardSummary,
    BoardVariant,
    board_summary,
    centres_by_power,
    dislodged_json,
    parse_cached,
    results_json,
    units_by_power,
    unreadable,
)
from .documents import BoardDocument, PositionView, RulesSettings
from .standard_core import core_movement_outcome


def setup_of(settings: RulesSettings, seed: int) -> SmallGame:
    """The small-game setup (2 to 7 players) of a game's settings and stored seed."""
    players = int(settings.get("player_count", 7))
    return _setup(players, draw_italy_side(seed) if players == 2 else 0)


@lru_cache(maxsize=16)
def _setup(players: int, italy_joins_seat: int) -> SmallGame:
    """A setup is a frozen value, and there are eleven: each built once, not at every phase
    (docs/performance.md, "Hosted phases through the C core")."""
    return small_game(players, italy_joins_seat=italy_joins_seat)


def read_orders(texts: Sequence[str], power: str, position: Position) -> list[Order | ParseError]:
    game_map = load_map(position.variant)
    readings: list[Order | ParseError] = []
    for text in texts:
        reading = parse_cached(text, position.variant, position.phase.type, power)
        if not isinstance(reading, ParseError):
            reading = normalise_order(reading, position, game_map)
        readings.append(reading)
    return readings


def check_orders(texts: Sequence[str], power: str, position: Position) -> list[OrderCheck]:
    """Each text read and checked: accepted in canonical notation, or rejected with the reason."""
    readings = read_orders(texts, power, position)
    orders = [r for r in readings if not isinstance(r, ParseError)]
    problems = iter(orders_problems(orders, power, position, load_map(position.variant)))
    checks = []
    for text, reading in zip(texts, readings, strict=True):
        if isinstance(reading, ParseError):
            checks.append(unreadable(text, reading))
            continue
        problem = next(problems)
        checks.append(OrderCheck(text, problem is None, order=str(reading) if problem is None else None,
                                 reason=problem))
    return checks


def position_view(position: Position) -> PositionView:
    """The board as every viewer sees it (nothing is hidden in the standard game), with the
    builds allowed (positive) or removals owed (negative) of each power in adjustment phases."""
    units = units_by_power(position.units.values())
    centres = centres_by_power(position.centres)
    adjusting = position.phase.type is PhaseType.ADJUSTMENTS
    powers = sorted(set(units) | set(centres))
    return {
        "phase": str(position.phase),
        "units": units,
        "centres": centres,
        "adjustments": {p: n for p in powers if (n := adjustment_count(position, p))} if adjusting else {},
        "dislodged": dislodged_json(position.dislodged),
    }


def outcome_of(resolution: Resolution) -> PhaseOutcome[BoardDocument]:
    return PhaseOutcome(
        phase=str(resolution.phase), orders=results_json(resolution.results),
        state=board_document(resolution.position),
        next_phase=str(resolution.next_phase), must_act=sorted(resolution.must_act),
        winners=sorted(resolution.winners), details={"dislodged": dislodged_json(resolution.dislodged)})


def adjudicate_phase(position: Position, orders: dict[str, list[Order]], settings: RulesSettings, seed: int,
                     civil_disorder: frozenset[str]) -> PhaseOutcome[BoardDocument]:
    """One phase resolved: the powers of a small game that sit it out are in civil disorder,
    and those that sit out the next one are not waited for."""
    setup = setup_of(settings, seed)
    resolution = adjudicate(
        position, orders, edition=str(settings.get("edition", "2000")),
        civil_disorder=civil_disorder | setup.sitting_out_at(position.phase),
        victory_centres=setup.victory_centres, teams=setup.teams_at(position.phase))
    outcome = outcome_of(resolution)
    sitting_out = setup.sitting_out_at(resolution.next_phase)
    return PhaseOutcome(outcome.phase, outcome.orders, outcome.state, outcome.next_phase,
                        [p for p in outcome.must_act if p not in sitting_out], outcome.winners,
                        outcome.details)


def board_document(position: Position) -> BoardDocument:
    """``position_to_document``: the compiled engine's writer says ``dict[str, Any]``, and
    writes a ``BoardDocument``."""
    return cast(BoardDocument, position_to_document(position))


RULES = BoardRules(
    from_document=position_from_document, to_document=board_document,
    read_orders=read_orders, check_orders=check_orders,
    adjudicate=adjudicate_phase,
    possible_orders=lambda position, power: possible_orders(position, power, load_map(position.variant)),
    view=position_view)


class StandardVariant(BoardVariant):
    name = "standard"
    default_settings: RulesSettings = {"player_count": 7}
    rules = RULES

    def opening(self, settings: RulesSettings, seed: int) -> Opening[BoardDocument]:
        setup = setup_of(settings, seed)
        position = initial_position(self.name, year=setup.first_phase.year)
        must_act = sorted({pu.power for pu in position.units.values()} - setup.sitting_out_at(position.phase))
        return Opening(str(position.phase), board_document(position),
                       [list(seat) for seat in setup.seats], must_act,
                       tuple((j.power, j.seat, str(j.phase)) for j in setup.joins))

    def resolve(self, state: BoardDocument, orders: Mapping[str, Sequence[str]], *,
                settings: RulesSettings, seed: int,
                civil_disorder: frozenset[str] = frozenset()) -> PhaseOutcome[BoardDocument]:
        """A movement phase through the C core where it runs and takes the phase
        (standard_core.py, docs/rules/c_core.md "Hosted games"), else through the engine
        (``resolve_by_engine``): the same outcome either way."""
        outcome = core_movement_outcome(state, orders, setup_of(settings, seed), frozenset(civil_disorder))
        if outcome is not None:
            return outcome
        return self.resolve_by_engine(state, orders, settings=settings, seed=seed, civil_disorder=civil_disorder)

    def resolve_by_engine(self, state: BoardDocument, orders: Mapping[str, Sequence[str]], *,
                          settings: RulesSettings, seed: int,
                          civil_disorder: frozenset[str] = frozenset()) -> PhaseOutcome[BoardDocument]:
        """``resolve`` by the Python engine alone: the reference the C core is held to."""
        return super().resolve(state, orders, settings=settings, seed=seed, civil_disorder=civil_disorder)

    def adjudicate_document(self, doc: Mapping[str, Any]) -> dict[str, Any]:
        return adjudicate_document(dict(doc))

    def _summary(self, state: BoardDocument) -> BoardSummary:
        return self._summaries.get(state, self._summary_of)

    def _summary_of(self, state: BoardDocument) -> BoardSummary:
        """Outside an adjustment phase, read off the document itself (summary_outside_adjustments);
        in one, from the board view, which counts each power's builds and removals."""
        summary = summary_outside_adjustments(state)
        return summary if summary is not None else board_summary(self.board(state))


def summary_outside_adjustments(state: BoardDocument) -> BoardSummary | None:
    """What the guards read of a board outside an adjustment phase, from the state document as
    ``position_to_document`` writes it, without reading the position into the engine's values:
    a power survives while it holds a unit or a centre, and nobody adjusts. After a resolution
    the platform asks it of the new state at once (is the game abandoned, whom does it wait
    for): the board view would read back the position the C core left as a document
    (docs/performance.md, "2026-12-07: Hosted phases through the C core"). None for an
    adjustment phase, or a document in another shape: the view answers those."""
    phase, units, centres = state.get("phase"), state.get("units"), state.get("centers")
    if type(phase) is not str or phase.endswith("A") or type(units) is not dict or type(centres) is not dict \
            or "centres" in state:
        return None
    holding = {power for power, held in units.items() if held} | {power for power, held in centres.items() if held}
    return BoardSummary(surviving=frozenset(holding), adjustments={}, forced_only=frozenset())


def home_centres() -> dict[str, list[str]]:
    """Each power's home centres on the standard map, sorted (the MILA saved-game export names them)."""
    return {power: sorted(centres) for power, centres in load_map("standard").home_centres.items()}


def standard_map() -> GameMap:
    """The standard board itself, for code outside the rules that speaks another program's
    notation of it (the MILA saved-game export: its hash tables and its ``VIA`` moves)."""
    return load_map("standard")


VARIANT: VariantOf[Position, BoardDocument] = StandardVariant()  # checked against the protocol here
