"""One phase of a game, start to finish: the turn as a readable script.

``adjudicate`` dispatches on the phase type (movement, retreats, adjustments), then walks
the phase sequence S M -> S R -> F M -> F R -> W A -> next S M, skipping a retreat phase
in which no dislodged unit can retreat and an adjustment phase in which nobody can build or has
to remove. Centre ownership changes once a year, after the Fall retreats (after Fall
movement when that retreat phase is skipped): a power owns every centre one of its units
stands on. Victory is checked at the same moment.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

from .adjustments import centre_counts, powers_to_adjust, resolve_adjustments
from .civil_disorder import check_edition
from .geography import GameMap, load_map
from .movement import resolve_movement
from .orders import Order, Remove
from .phase import Phase, PhaseType, Season
from .position import DislodgedUnit, OrderResult, Position, Power, PowerUnit, Resolution
from .retreats import resolve_retreats

CIVIL_DISORDER_REMOVAL: Final = "civil disorder: removed, farthest from home"
RULES_REMOVAL: Final = "removal not ordered: removed by the rules, farthest from home"


def forced_removal_reason(power: Power, civil_disorder: frozenset[Power]) -> str:
    """Why the rules removed a unit: its power missed the deadline (civil disorder), or ordered
    fewer removals than it owed (docs/rules/standard.md)."""
    return CIVIL_DISORDER_REMOVAL if power in civil_disorder else RULES_REMOVAL


def initial_position(variant: str = "standard", year: int = 1901) -> Position:
    """The starting position of a variant: units and home centres in spring of ``year``."""
    game_map = load_map(variant)
    units = {
        unit.province: PowerUnit(power, unit)
        for power, power_units in game_map.starting_units.items()
        for unit in power_units
    }
    centres = {centre: power for power, homes in game_map.home_centres.items() for centre in homes}
    return Position(Phase(year, Season.SPRING, PhaseType.MOVEMENT), units, centres, (), variant)


def default_victory_centres(game_map: GameMap) -> int:
    """A majority of the board's supply centres: 18 of 34 on the standard map."""
    return len(game_map.supply_centres) // 2 + 1


def adjudicate(
    position: Position,
    orders: Mapping[Power, Sequence[Order]],
    *,
    edition: str = "2000",
    civil_disorder: frozenset[Power] = frozenset(),
    victory_centres: int | None = None,
    teams: Sequence[frozenset[Power]] = (),
) -> Resolution:
    """Resolve the phase of ``position`` with ``orders`` and move on to the next phase.

    ``civil_disorder`` powers have their orders ignored: their units hold without
    supporting each other, their dislodged units disband, their removals are forced.
    ``teams`` groups powers played by one player (the two-player game): their centres
    count together for victory, and the whole team wins.
    """
    check_edition(edition)
    game_map = load_map(position.variant)
    threshold = victory_centres or default_victory_centres(game_map)
    kind = position.phase.type
    if kind is PhaseType.MOVEMENT:
        return _movement(position, orders, game_map, civil_disorder, threshold, teams)
    if kind is PhaseType.RETREATS:
        retreats = resolve_retreats(position.units, position.dislodged, orders, civil_disorder=civil_disorder)
        return _season_end(position, retreats.results, retreats.units, game_map, threshold, teams)
    adjustments = resolve_adjustments(position, orders, game_map, edition=edition, civil_disorder=civil_disorder)
    forced = tuple(OrderResult(pu.power, Remove(pu.unit), "succeeds", forced_removal_reason(pu.power, civil_disorder))
                   for pu in adjustments.forced)
    next_phase = position.phase.following()
    new_position = Position(next_phase, adjustments.units, dict(position.centres), (), position.variant)
    return Resolution(
        phase=position.phase,
        results=adjustments.results + forced,
        dislodged=(),
        position=new_position,
        next_phase=next_phase,
        must_act=_powers_with_units(adjustments.units),
    )


def _movement(
    position: Position,
    orders: Mapping[Power, Sequence[Order]],
    game_map: GameMap,
    civil_disorder: frozenset[Power],
    threshold: int,
    teams: Sequence[frozenset[Power]],
) -> Resolution:
    if civil_disorder:
        obeyed = {power: list(o) for power, o in orders.items() if power not in civil_disorder}
        outcome = resolve_movement(position, obeyed, game_map)
        results = _in_input_order(orders, civil_disorder, outcome.results)
    else:  # the resolver answers every order, in input order already
        outcome = resolve_movement(position, orders, game_map)
        results = outcome.results
    dislodged = outcome.dislodged
    if dislodged:
        dislodged = tuple(sorted(dislodged, key=lambda d: (d.power, d.unit.location)))
    if not any(d.retreats for d in dislodged):
        # Nobody has a retreat to order (docs/rules/standard.md: a phase in which nobody has anything to do
        # is skipped): units with nowhere to go are disbanded at once.
        return _season_end(position, results, outcome.units, game_map, threshold, teams, dislodged)
    next_phase = position.phase.following()
    return Resolution(
        phase=position.phase,
        results=results,
        dislodged=dislodged,
        # (positions are values, never changed: the new one shares the outcome's fresh units and
        # the unchanged centres rather than copies; docs/performance.md, 2026-12-02, "The rules
        # engine: a numbered board and fewer lookups")
        position=Position(next_phase, outcome.units, position.centres, dislodged, position.variant),
        next_phase=next_phase,
        # a unit with nowhere to go is disbanded whatever its power orders: nothing to wait for
        must_act=frozenset(d.power for d in dislodged if d.retreats and d.power not in civil_disorder),
    )


def _in_input_order(
    orders: Mapping[Power, Sequence[Order]],
    civil_disorder: frozenset[Power],
    resolved: Sequence[OrderResult],
) -> tuple[OrderResult, ...]:
    """One result per input order, in input order: the resolver answers the obeyed orders
    one for one, in order; the ignored orders of powers in civil disorder are put back."""
    answers = iter(resolved)
    ordered: list[OrderResult] = []
    for power, power_orders in orders.items():
        for order in power_orders:
            if power in civil_disorder:
                ordered.append(OrderResult(power, order, "void", "civil disorder: orders ignored, units hold"))
            else:
                ordered.append(next(answers))
    return tuple(ordered) + tuple(answers)


def _season_end(
    position: Position,
    results: Sequence[OrderResult],
    after: Mapping[str, PowerUnit],
    game_map: GameMap,
    threshold: int,
    teams: Sequence[frozenset[Power]],
    disbanded: tuple[DislodgedUnit, ...] = (),
) -> Resolution:
    """After the movement (and retreats, if any) of a season: on to the next phase.

    ``after``: the units after the season, a dict the phase's outcome built for it and nothing
    else writes (the movement's and the retreats' outcomes are immutable values): the new
    position shares it. ``disbanded`` are units dislodged by the movement that had nowhere to
    retreat: reported in the resolution, gone from the new position."""
    phase = position.phase
    units: dict[str, PowerUnit] = after if type(after) is dict else dict(after)
    next_phase, centres, owned, acting = _next_season(phase, units, position.centres, game_map)
    winners = victory(centres, threshold, teams, owned) if owned is not None else frozenset()
    if not acting:
        acting = _powers_with_units(units)
    return Resolution(
        phase=phase,
        results=tuple(results),
        dislodged=disbanded,
        position=Position(next_phase, units, centres, (), position.variant),  # (shared: as above)
        next_phase=next_phase,
        must_act=acting,
        winners=winners,
    )


def _next_season(phase: Phase, units: dict[str, PowerUnit], centres: Mapping[str, Power], game_map: GameMap,
                 ) -> tuple[Phase, Mapping[str, Power], dict[Power, int] | None, frozenset[Power]]:
    """After the movement (and retreats) of a season: the next phase, the centres then, their
    counts by power and the powers that adjust (after a spring: the fall, the same centres, no
    counts and nobody)."""
    if phase.season is Season.SPRING:
        return Phase(phase.year, Season.FALL, PhaseType.MOVEMENT), centres, None, frozenset()
    return end_of_year(phase, units, centres, game_map)


def end_of_year(phase: Phase, units: dict[str, PowerUnit], centres: Mapping[str, Power], game_map: GameMap,
                ) -> tuple[Phase, dict[str, Power], dict[Power, int], frozenset[Power]]:
    """After the fall's movement and retreats: the phase that follows (the winter adjustments,
    or the next spring when nobody has anything to adjust), the centres as the units now stand,
    their counts by power (counted once for victory and adjustments) and the powers that adjust."""
    centres = update_centres(centres, units, game_map)
    owned = centre_counts(centres)
    acting = powers_to_adjust(units, centres, game_map, owned)
    if acting:
        return Phase(phase.year, Season.WINTER, PhaseType.ADJUSTMENTS), centres, owned, acting
    return Phase(phase.year + 1, Season.SPRING, PhaseType.MOVEMENT), centres, owned, acting


def after_movement(phase: Phase, units: dict[str, PowerUnit], centres: Mapping[str, Power],
                   dislodged: Sequence[DislodgedUnit], game_map: GameMap) -> tuple[Phase, Mapping[str, Power]]:
    """The phase after a movement phase and the centres then, as ``_movement`` and
    ``_season_end`` decide them (for the contract, which prints no more than that)."""
    if any(d.retreats for d in dislodged):
        return phase.following(), centres
    next_phase, centres_then, _, _ = _next_season(phase, units, centres, game_map)
    return next_phase, centres_then


def update_centres(centres: Mapping[str, Power], units: Mapping[str, PowerUnit], game_map: GameMap) -> dict[str, Power]:
    """Every supply centre with a unit on it belongs to that unit's power; others keep their owner.

    When no centre changes hands, a ``centres`` dict comes back itself, not a copy (positions
    never write their dicts; the contract then writes the centres back as it read them:
    docs/performance.md, 2026-12-02, "The rules engine: the contract writes what it reads")."""
    owners: dict[str, Power] = centres if type(centres) is dict else dict(centres)
    supply_centres = game_map.supply_centres
    changed = [(province, pu.power) for province, pu in units.items()
               if province in supply_centres and owners.get(province) != pu.power]
    if not changed:
        return owners
    updated = dict(owners)
    for province, power in changed:
        updated[province] = power
    return updated


def victory(
    centres: Mapping[str, Power],
    threshold: int,
    teams: Sequence[frozenset[Power]] = (),
    owned: Mapping[Power, int] | None = None,
) -> frozenset[Power]:
    """The winner (a power, or every power of a team) holding at least ``threshold`` centres.
    ``owned``: ``centre_counts(centres)`` when the caller has it already."""
    held = centre_counts(centres) if owned is None else owned
    if not teams and (not held or max(held.values()) < threshold):
        return frozenset()  # the usual case, decided without building the sides
    sides: list[frozenset[Power]] = list(teams)
    in_team = set().union(*teams) if teams else set()
    sides += [frozenset({p}) for p in sorted(set(held) - in_team)]
    counts = [(sum(held.get(power, 0) for power in side), side) for side in sides]
    reaching = [(n, side) for n, side in counts if n >= threshold]
    if not reaching:
        return frozenset()
    best = max(n for n, _ in reaching)
    leaders = [side for n, side in reaching if n == best]
    return leaders[0] if len(leaders) == 1 else frozenset()


def _powers_with_units(units: Mapping[str, PowerUnit]) -> frozenset[Power]:
    return frozenset({pu.power for pu in units.values()})

