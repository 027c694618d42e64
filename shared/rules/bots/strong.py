"""The heuristic house bot on the standard board: DumbBot's province values, no dice, and a
search that adjudicates its candidate orders against what the other powers are likely to do
(docs/bots.md, "The house bots").

1. The values: DumbBot's (dumbbot.py), from this power's side.
2. The other powers' likely orders: for each of them, DumbBot's orders without its dice (its
   best guess) and ``SAMPLES - 1`` more with them, drawn from the position alone, so that the
   seven powers of one phase share them (``predicted``).
3. A first plan: DumbBot's orders without the dice for this power.
4. Then, unit by unit (those in contact with another power first), each of its few sensible
   orders (hold, the best moves, a move with an own unit's support, a support of an own unit's
   plan, a convoy with its fleets) is adjudicated by the engine against every sample of the
   others' orders, and kept where the outcome scores better (half the mean over the samples,
   half the worst): centres held and taken (in the spring, occupied), units dislodged, and the
   places the units end on by value.

Retreats and builds look to the next movement phase by the same values: a retreat to the best
place (in the autumn, an empty centre first, which it takes), builds at the best sites, an army
or a fleet by where the value lies; removals of the least useful units.
"""
from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from shared.rules.diplomacy import Order, ParseError, UnitType, load_map, normalise_order, resolve_movement
from shared.rules.diplomacy.movement_outcome import MovementOutcome
from shared.rules.diplomacy.position import Position
from shared.rules.variants import get_variant
from shared.rules.variants.order_reading import parse_cached

from . import dumbbot
from .dumbbot import place_values, places_of, province_of, read_position, unit_place
from .heuristic import neighbours
from .reading import Options, holdings, read_options

SAMPLES = 2  # the others' likely orders: DumbBot's best guess and one drawn with its dice
PASSES = 2  # rounds over the units
EVALUATIONS = 60  # candidate order sets adjudicated at most, per power and phase,
PER_UNIT = 8  # and at most this many per unit in contact (the phase's whole cost follows the units)
MOVES_TRIED = 4  # a unit's best moves by value that are tried
CENTRE = {"F": 100.0, "S": 45.0}  # a centre gained or lost (in the spring: occupied)
DISLODGED = {"F": 25.0, "S": 35.0}  # an own unit dislodged (more with nowhere to go)
NO_RETREAT = 25.0
ENEMY_DISLODGED = 6.0
POSITION = 10.0  # the value of the best place, for a unit that stands on it
CAUTION = 0.5  # the worst outcome over the guesses of the others' orders counts this much beside the mean


def standard_board(variant: str, state: Mapping[str, object]) -> bool:
    """The search adjudicates with the standard engine: armies and fleets only."""
    return variant == "standard" and all(
        unit.split()[0] in ("A", "F") for units in holdings(state, "units").values() for unit in units)


def strong_orders(variant: str, state: Mapping[str, object], power: str, options: Options,
                  draw: random.Random) -> list[str]:
    if options.kind == "movement":
        return _movement(variant, state, power, options, draw)
    values = place_values(variant, state, read_position(state, power))
    if options.kind == "retreats":
        return _retreats(variant, state, power, options, values)
    return _adjustments(variant, options, values)


# --- the others' likely orders ---------------------------------------------------------------

def state_key(state: Mapping[str, object]) -> str:
    return json.dumps({k: state.get(k) for k in ("variant", "phase", "units", "centers", "dislodged")},
                      sort_keys=True)


@dataclass(frozen=True)
class Likely:
    """A power's place values and ``SAMPLES`` likely order sets (DumbBot's without dice first)."""

    values: list[float]
    samples: tuple[tuple[str, ...], ...]


@lru_cache(maxsize=4)
def predicted(variant: str, key: str) -> dict[str, Likely]:
    """Each power's values and likely orders, from the position alone (``key``: ``state_key``),
    so that every power's search of a phase shares them."""
    state = json.loads(key)
    rules = get_variant(variant)
    found: dict[str, Likely] = {}
    for power in sorted(holdings(state, "units")):
        possible = rules.possible_orders(state, power)
        if not possible:
            continue
        options = read_options(possible, 0, str(state.get("phase", "")))
        position = read_position(state, power)
        values = place_values(variant, state, position)
        samples = [tuple(dumbbot.movement(variant, position, values, options, random.Random(0), dice=False))]
        for i in range(1, SAMPLES):
            draw = random.Random(f"{key}:{power}:{i}")
            samples.append(tuple(dumbbot.movement(variant, position, values, options, draw, dice=True)))
        found[power] = Likely(values, tuple(samples))
    return found


# --- the movement search ---------------------------------------------------------------------

@dataclass
class Search:
    """What one power's search reads: the engine's position, the others' samples, the values."""

    power: str
    variant: str
    season: str
    engine_position: Position
    others: list[dict[str, list[Order]]]  # one per sample
    values: list[float]  # by place (dumbbot.places_of)
    standing: dict[tuple[UnitType, str], float]  # see _standing_values
    to_gain: frozenset[str]  # centres not ours
    to_keep: frozenset[str]  # our centres
    legal: dict[str, list[str]]  # unit -> its legal orders
    read: dict[str, Order | None]
    evaluations: int = 0

    def order(self, text: str) -> Order | None:
        """One of this power's order texts as the engine's order (read once)."""
        if text not in self.read:
            self.read[text] = engine_order(self.variant, self.engine_position, self.power, text)
        return self.read[text]

    def score(self, plan: Mapping[str, str]) -> float:
        """The mean outcome of ``plan`` over the samples of the others' orders."""
        self.evaluations += 1
        mine = [o for o in (self.order(text) for text in plan.values()) if o is not None]
        game_map = load_map(self.variant)
        scores = [self.outcome_score(resolve_movement(self.engine_position, {**others, self.power: mine}, game_map))
                  for others in self.others]
        return (1 - CAUTION) * sum(scores) / len(scores) + CAUTION * min(scores)

    def outcome_score(self, outcome: MovementOutcome) -> float:
        power, standing_values, to_gain, to_keep = self.power, self.standing, self.to_gain, self.to_keep
        centre = CENTRE[self.season]
        score = 0.0
        for province, standing in outcome.units.items():
            if standing.power == power:
                unit = standing.unit
                score += standing_values.get((unit.type, unit.location), 0.0)
                if province in to_gain:
                    score += centre
            elif province in to_keep:
                score -= centre
        for dislodged in outcome.dislodged:
            if dislodged.power == self.power:
                score -= DISLODGED[self.season] + (0.0 if dislodged.retreats else NO_RETREAT)
            else:
                score += ENEMY_DISLODGED
        return score


def _movement(variant: str, state: Mapping[str, object], power: str, options: Options,
              draw: random.Random) -> list[str]:
    if not standard_board(variant, state):
        values = place_values(variant, state, read_position(state, power))
        return dumbbot.movement(variant, read_position(state, power), values, options, random.Random(0), dice=False)
    units = [" ".join(orders[0].split()[:2]) for orders in options.by_unit.values()]
    likely = predicted(variant, state_key(state))
    if power not in likely:  # nothing to order
        return []
    plan = dict(zip(units, likely[power].samples[0], strict=True))
    search = _search_for(variant, state, power, options, likely, units)
    best = search.score(plan)
    contact = _in_contact(variant, state, power, units)
    # in the order of ``units``, not of the set: the draw must not follow the process's string hashes
    order_of_units = sorted((u for u in units if u in contact), key=lambda u: (draw.random(), u))
    budget = min(EVALUATIONS, PER_UNIT * len(contact))
    for _ in range(PASSES):
        improved = False
        for unit in order_of_units:
            for change in _candidates(search, unit, plan):
                if search.evaluations >= budget:
                    return [plan[u] for u in units]
                trial = {**plan, **change}
                if trial == plan:
                    continue
                score = search.score(trial)
                if score > best + 1e-6:
                    plan, best, improved = trial, score, True
        if not improved:
            break
    return [plan[u] for u in units]


def _search_for(variant: str, state: Mapping[str, object], power: str, options: Options,
                likely: Mapping[str, Likely], units: list[str]) -> Search:
    rules = get_variant(variant)
    engine_position = rules.position(state)  # type: ignore[attr-defined]
    values = likely[power].values
    season = str(state.get("phase", "S"))[:1]
    owner = {c: p for p, cs in holdings(state, "centers").items() for c in cs}
    centres = load_map(variant).supply_centres
    search = Search(power, variant, season if season in CENTRE else "S", engine_position, [], values,
                    _standing_values(variant, values), frozenset(c for c in centres if owner.get(c) != power),
                    frozenset(c for c in centres if owner.get(c) == power),
                    dict(zip(units, options.by_unit.values(), strict=True)), {})
    for i in range(SAMPLES):
        others: dict[str, list[Order]] = {}
        for other, other_likely in likely.items():
            if other == power:
                continue
            read = [engine_order(variant, engine_position, other, text) for text in other_likely.samples[i]]
            others[other] = [o for o in read if o is not None]
        search.others.append(others)
    return search


def _standing_values(variant: str, values: list[float]) -> dict[tuple[UnitType, str], float]:
    """(unit type, location) -> what a unit standing there is worth to the score: its place's
    value, as a share of the best place's, times POSITION."""
    places = places_of(variant)
    best = max(values, default=0.0)
    kinds = {"A": UnitType.ARMY, "F": UnitType.FLEET}
    return {(kinds[name[0]], name[2:]): POSITION * max(0.0, value) / best if best > 0 else 0.0
            for name, value in zip(places.names, values, strict=True)}


def engine_order(variant: str, engine_position: Position, power: str, text: str) -> Order | None:
    """An order text as the engine reads it (None for one it cannot: never from possible orders)."""
    reading = parse_cached(text, variant, engine_position.phase.type, power)
    if isinstance(reading, ParseError):
        return None
    return normalise_order(reading, engine_position, load_map(variant))


def _in_contact(variant: str, state: Mapping[str, object], power: str, units: Sequence[str]) -> set[str]:
    """The units with another power's unit within two steps."""
    near = neighbours(variant)
    foreign = {province_of(u.split()[-1]) for p, us in holdings(state, "units").items() if p != power for u in us}
    found: set[str] = set()
    for unit in units:
        here = province_of(unit.split()[1])
        ring = set(near.get(here, ())) | {here}
        ring |= {n for r in list(ring) for n in near.get(r, ())}
        if ring & foreign:
            found.add(unit)
    return found


def _candidates(search: Search, unit: str, plan: Mapping[str, str]) -> list[dict[str, str]]:
    """The order sets tried for ``unit``: hold, its best moves (each also with an own unit's
    support), supports of own units' plans, convoyed moves with their fleets."""
    places = places_of(search.variant)
    legal = search.legal[unit]
    hold = f"{unit} H"
    found: list[dict[str, str]] = [{unit: hold}] if hold in set(legal) else []

    def worth(order: str) -> float:
        place = places.index.get(unit_place(f"{unit.split()[0]} {order.split()[3]}"))
        return search.values[place] if place is not None else 0.0

    moves = sorted((o for o in legal if o.split()[2] == "-" and not o.endswith("VIA") and _adjacent(search, o)),
                   key=worth, reverse=True)[:MOVES_TRIED]
    for move in moves:
        found += _move_and_its_supports(search, unit, move)
    found += [{unit: support} for support in _supports_of_the_plan(unit, plan, set(legal))]
    if unit.startswith("A "):
        convoys = sorted((o for o in legal if o.split()[2] == "-" and not _adjacent(search, o)), key=worth,
                         reverse=True)[:2]
        found += [sets for move in convoys if (sets := _convoyed(search, unit, move))]
    return found


def _move_and_its_supports(search: Search, unit: str, move: str) -> list[dict[str, str]]:
    """The move alone, then with each other own unit's support of it (to the coast or the province)."""
    found = [{unit: move}]
    target = move.split()[3]
    for other, orders in search.legal.items():
        if other == unit:
            continue
        for written in (target, province_of(target)):
            support = f"{other} S {unit} - {written}"
            if support in orders:
                found.append({unit: move, other: support})
                break
    return found


def _supports_of_the_plan(unit: str, plan: Mapping[str, str], legal: set[str]) -> list[str]:
    """``unit``'s legal supports of the other own units' planned orders."""
    supports = []
    for other, order in plan.items():
        if other == unit:
            continue
        words = order.split()
        support = f"{unit} S {other} - {words[3]}" if words[2] == "-" and not order.endswith("VIA") \
            else f"{unit} S {other}"
        if words[2] == "-" and support not in legal:
            support = f"{unit} S {other} - {province_of(words[3])}"
        if support in legal:
            supports.append(support)
    return supports


def _convoyed(search: Search, unit: str, move: str) -> dict[str, str]:
    """An army's convoyed move with every fleet that may carry it; empty when none may."""
    carried = move.removesuffix(" VIA")
    fleets = {f: f"{f} C {carried}" for f, orders in search.legal.items()
              if f.startswith("F ") and f"{f} C {carried}" in orders}
    return {unit: move, **fleets} if fleets else {}


def _adjacent(search: Search, move: str) -> bool:
    """A move the unit makes by its own steps (not one that needs a convoy)."""
    if move.endswith("VIA"):
        return False
    words = move.split()
    places = places_of(search.variant)
    here = places.index.get(unit_place(f"{words[0]} {words[1]}"))
    there = places.index.get(unit_place(f"{words[0]} {words[3]}"))
    return here is not None and there is not None and there in places.steps[here]


# --- retreats and adjustments ----------------------------------------------------------------

def _retreats(variant: str, state: Mapping[str, object], power: str, options: Options,
              values: list[float]) -> list[str]:
    """The best place by value; in the autumn an empty centre not ours first (a retreat there
    takes it: centres change hands after the autumn's retreats)."""
    places = places_of(variant)
    owner = {c: p for p, cs in holdings(state, "centers").items() for c in cs}
    centres = load_map(variant).supply_centres
    autumn = str(state.get("phase", ""))[:1] == "F"
    taken: set[str] = set()
    chosen: list[str] = []
    for orders in options.by_unit.values():
        def worth(order: str) -> float:
            words = order.split()
            place = places.index.get(unit_place(f"{words[0]} {words[-1]}"))
            value = values[place] if place is not None else 0.0
            gain = autumn and province_of(words[-1]) in centres and owner.get(province_of(words[-1])) != power
            return value + (10 * abs(max(values, default=1.0)) if gain else 0.0)

        ranked = sorted((o for o in orders if " R " in o and province_of(o.split()[-1]) not in taken),
                        key=worth, reverse=True)
        if ranked:
            taken.add(province_of(ranked[0].split()[-1]))
            chosen.append(ranked[0])
        else:
            chosen.append(next((o for o in orders if o.endswith(" D")), orders[-1]))
    return chosen


def _adjustments(variant: str, options: Options, values: list[float]) -> list[str]:
    """Builds at the best sites by the winter values (an army or a fleet, by which of the two
    places is worth more); removals of the units on the least valued places."""
    places = places_of(variant)

    def worth(order: str) -> float:
        place = places.index.get(unit_place(order))
        return values[place] if place is not None else float("-inf")

    if options.adjustment > 0:
        builds = sorted((o for orders in options.by_unit.values() for o in orders if o.endswith(" B")),
                        key=worth, reverse=True)
        chosen: list[str] = []
        for build in builds:
            if len(chosen) < options.adjustment and all(
                    province_of(build.split()[1]) != province_of(c.split()[1]) for c in chosen):
                chosen.append(build)
        return chosen
    if options.adjustment < 0:
        return sorted((orders[0] for orders in options.by_unit.values()), key=worth)[:-options.adjustment]
    return []
