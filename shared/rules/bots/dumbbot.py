"""A yardstick, not a house bot: DumbBot as its published description tells it, to measure the
house bots against (benchmarks/bots.py, docs/bots.md "How strong, measured").

DumbBot is David Norman's bot of 2002 for the DAIDE project; the description of its algorithm
("DumbBot Algorithm", daide.org.uk, the comments of its source) is public. Written here from
that description, in our own words and code:

1. Each province's worth: our own centre, the size of the largest power with a unit next to it
   (defence); another's centre, the size of its owner (attack); else nothing. A power's size is
   ``n*n + 4n + 16`` for ``n`` centres; the unowned centres count as one more power of their
   number (our reading: the description does not say, and a bot that did not want neutral
   centres would not be DumbBot). Proximity[0] of each place a unit can stand (a province for
   an army, each coast for a fleet) is ``attack * weight + defence * weight``.
2. Proximity[n] = (proximity[n-1] of the place + the sum over its neighbouring provinces of
   their best neighbouring place's proximity[n-1]) / 5, for n up to 9: the spread.
3. A place's value: the proximities by a season's weights, plus 1000 per own unit next to the
   province (strength), less 1000 per unit of the strongest other power next to it (competition).
4. Each unit, in a random order, takes the best of its places (its own means hold), but with a
   chance of the next best, and the one after, the closer their values the likelier (a coin,
   then a roll against ``500 * (best - next) / best`` percent). Into a place an own unit stands
   on: wait for that unit's order; if it holds, support it where the province is contested
   (competition above 1), else choose again. Into a province an own unit already moves to:
   support that move where anyone else may come (competition above 0), else choose again.
5. A unit left holding supports, instead, the best-valued move or contested hold of its
   neighbours that can use it.
6. Retreats by the same pick among the retreat places; builds at the best home sites (by the
   winter values, with the defence weighed in) by the same pick; removals of the lowest-valued
   units.

The published description has no convoys, and this DumbBot convoys nothing: its armies are
never carried.
Deterministic for a given ``draw`` (the caller seeds it).
"""
from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from .heuristic import map_of, neighbours  # the variant's map (or the standard one's), provinces' neighbours
from .reading import Options, holdings

SPRING_WEIGHTS = (100, 1000, 30, 10, 6, 5, 4, 3, 2, 1)  # proximity[0..9], spring moves and retreats
AUTUMN_WEIGHTS = (1000, 100, 30, 10, 6, 5, 4, 3, 2, 1)  # autumn and winter: the centre itself counts most
ATTACK_DEFENCE = {"S": (700, 300), "F": (600, 400), "W": (700, 300)}  # proximity[0]'s weights by season
STRENGTH_WEIGHT = 1000
COMPETITION_WEIGHT = 1000
WINTER_DEFENCE_WEIGHT = 1000
PLAY_ALTERNATIVE = 50  # percent: the coin that lets a unit consider its next best place
ALTERNATIVE_DIFFICULTY = 500


@dataclass(frozen=True)
class Places:
    """The places units stand on: an army's province, each of a fleet's coasts (``F:STP/NC``),
    and which places each one steps to."""

    names: tuple[str, ...]  # "A:PAR", "F:BRE", "F:STP/NC"
    province: tuple[str, ...]
    steps: tuple[tuple[int, ...], ...]
    index: dict[str, int]
    single_steps: tuple[tuple[int, ...], ...]  # the steps into provinces reached by one coast only
    split_steps: tuple[tuple[int, tuple[tuple[int, ...], ...]], ...]  # (place, its steps into one province
    # by two coasts), for the few places that have such steps


def province_of(location: str) -> str:
    return location.split("/")[0]


@lru_cache(maxsize=8)
def places_of(variant: str) -> Places:
    game_map = map_of(variant)
    names: list[str] = []
    for code in sorted(game_map.provinces):
        if game_map.is_land(code):
            names.append(f"A:{code}")
        names.extend(f"F:{location}" for location in game_map.fleet_locations(code))
    index = {name: i for i, name in enumerate(names)}
    steps: list[tuple[int, ...]] = []
    for name in names:
        kind, location = name.split(":")
        near = game_map.army_neighbours(location) if kind == "A" else game_map.fleet_neighbours(location)
        steps.append(tuple(sorted(index[f"{kind}:{n}"] for n in near if f"{kind}:{n}" in index)))
    provinces = tuple(province_of(n.split(":")[1]) for n in names)
    singles: list[tuple[int, ...]] = []
    groups: list[tuple[tuple[int, ...], ...]] = []
    for reached in steps:
        by_province: dict[str, list[int]] = {}
        for step in reached:
            by_province.setdefault(provinces[step], []).append(step)
        singles.append(tuple(g[0] for g in by_province.values() if len(g) == 1))
        groups.append(tuple(tuple(g) for g in by_province.values() if len(g) > 1))
    split = tuple((i, g) for i, g in enumerate(groups) if g)
    return Places(tuple(names), provinces, tuple(steps), index, tuple(singles), split)


def power_size(centres: int) -> int:
    return centres * centres + 4 * centres + 16


@dataclass(frozen=True)
class Position:
    """What DumbBot reads of the state document."""

    power: str
    unit_power: dict[str, str]  # province -> power of the unit there
    unit_place: dict[str, str]  # unit ("A PAR") -> place ("A:PAR")
    owner: dict[str, str]  # centre -> power
    season: str  # S, F or W


def unit_place(unit: str) -> str:
    kind, location = unit.split()[:2]
    return f"{'A' if kind == 'A' else 'F'}:{location}"


def read_position(state: Mapping[str, object], power: str) -> Position:
    units = holdings(state, "units")
    unit_power = {province_of(u.split()[-1]): owner for owner, us in units.items() for u in us}
    unit_places = {u: unit_place(u) for u in units.get(power, [])}
    owner = {c: holder for holder, cs in holdings(state, "centers").items() for c in cs}
    phase = str(state.get("phase", "S"))
    season = "W" if phase.endswith("A") else phase[:1]
    return Position(power, unit_power, unit_places, owner, season if season in ("S", "F") else "W")


def place_values(variant: str, state: Mapping[str, object], position: Position) -> list[float]:
    """Every place's value to ``position.power`` (steps 1 to 3 of the module's description)."""
    game_map, places = map_of(variant), places_of(variant)
    sizes: dict[str, int] = {}
    for centre in game_map.supply_centres:
        holder = position.owner.get(centre, "")
        sizes[holder] = sizes.get(holder, 0) + 1
    units = holdings(state, "units")
    adjacent_count: dict[str, dict[str, int]] = {}  # province -> power -> units that can step in
    for holder, held in units.items():
        for unit in held:
            place = places.index.get(unit_place(unit))
            if place is None:
                continue
            for step in places.steps[place]:
                counts = adjacent_count.setdefault(places.province[step], {})
                counts[holder] = counts.get(holder, 0) + 1
    attack_weight, defence_weight = ATTACK_DEFENCE[position.season]
    worth: dict[str, float] = {}
    defence: dict[str, float] = {}
    for code in game_map.provinces:
        worth[code] = defence[code] = 0.0
        if code not in game_map.supply_centres:
            continue
        holder = position.owner.get(code, "")
        if holder == position.power:
            near = [p for p, n in adjacent_count.get(code, {}).items() if n and p != position.power]
            defence[code] = max((power_size(sizes.get(p, 0)) for p in near), default=0)
            worth[code] = defence[code] * defence_weight
        else:
            worth[code] = power_size(sizes.get(holder, 0)) * attack_weight
    weights = SPRING_WEIGHTS if position.season == "S" else AUTUMN_WEIGHTS
    proximity = [worth[p] for p in places.province]
    total = [weights[0] * value for value in proximity]
    for weight in weights[1:]:
        proximity = _spread(proximity, places)
        total = [t + weight * p for t, p in zip(total, proximity, strict=True)]
    values: list[float] = []
    for i, code in enumerate(places.province):
        counts = adjacent_count.get(code, {})
        if position.season == "W":
            values.append(total[i] + WINTER_DEFENCE_WEIGHT * defence[code])
            continue
        strength = counts.get(position.power, 0)
        competition = max((n for p, n in counts.items() if p != position.power), default=0)
        values.append(total[i] + STRENGTH_WEIGHT * strength - COMPETITION_WEIGHT * competition)
    return values


def _spread(proximity: list[float], places: Places) -> list[float]:
    """One round of step 2: a province reached by two coasts counts once, by its better one."""
    spread = [p + sum([proximity[s] for s in singles]) for p, singles in zip(proximity, places.single_steps,
                                                                              strict=True)]
    for i, groups in places.split_steps:
        spread[i] += sum(max(proximity[s] for s in group) for group in groups)
    return [value / 5 for value in spread]


def weighted_pick(ranked: list[Any], value: Any, draw: random.Random, dice: bool = True) -> int:
    """The index DumbBot's pick lands on in ``ranked`` (best first): from the best, each next
    one is taken after a coin (PLAY_ALTERNATIVE) and a roll that the closer it is, the likelier
    it passes. Without ``dice``, the best."""
    chosen = 0
    if not dice:
        return chosen
    for nxt in range(1, len(ranked)):
        best, other = value(ranked[chosen]), value(ranked[nxt])
        chance_to_stop = 0.0 if best == 0 else ALTERNATIVE_DIFFICULTY * (best - other) / abs(best)
        if draw.randrange(100) < PLAY_ALTERNATIVE and draw.randrange(100) >= chance_to_stop:
            chosen = nxt
        else:
            break
    return chosen


def dumbbot_orders(variant: str, state: Mapping[str, object], power: str, options: Options,
                   draw: random.Random) -> list[str]:
    """DumbBot's orders for ``power`` in the state's phase, chosen among ``options``."""
    position = read_position(state, power)
    values = place_values(variant, state, position)
    if options.kind == "movement":
        return movement(variant, position, values, options, draw)
    if options.kind == "retreats":
        return _retreats(variant, values, options, draw)
    return _adjustments(variant, values, options, draw)


def movement(variant: str, position: Position, values: list[float], options: Options,
             draw: random.Random, dice: bool = True) -> list[str]:
    """Steps 4 and 5: each unit's order, in the order of ``options``. Without ``dice`` (the
    heuristic bot's first plan and its guess of the others'), every pick is the best place."""
    places = places_of(variant)
    legal = {order for orders in options.by_unit.values() for order in orders}
    units = [" ".join(orders[0].split()[:2]) for orders in options.by_unit.values()]
    unit_at = {places.province[places.index[unit_place(u)]]: u for u in units if unit_place(u) in places.index}
    ordering = _Ordering(places, values, legal, unit_at, _competition(variant, position.unit_power, position.power),
                         draw, dice, queue=list(units))
    if dice:
        draw.shuffle(ordering.queue)
    while ordering.queue:
        ordering.order_next()
    orders = ordering.orders
    for unit in units:
        orders.setdefault(unit, f"{unit} H")
    _wasted_holds(places, values, ordering.competition, unit_at, orders, legal, units)
    return [orders[u] for u in units]


@dataclass
class _Ordering:
    """Step 4 under way: the units still to order (a unit may wait once for the unit in the
    place it picked), the orders given and the provinces own units move to."""

    places: Places
    values: list[float]
    legal: set[str]
    unit_at: dict[str, str]  # province -> own unit there
    competition: dict[str, int]
    draw: random.Random
    dice: bool
    queue: list[str]
    orders: dict[str, str] = field(default_factory=dict)
    moving_to: dict[str, str] = field(default_factory=dict)  # province -> own unit moving there
    waited: set[str] = field(default_factory=set)

    def order_next(self) -> None:
        """The next unit of the queue: picks among its place and its steps, best valued first,
        until one gives an order (or puts it back in the queue to wait)."""
        unit = self.queue.pop(0)
        here = self.places.index.get(unit_place(unit))
        if here is None:
            self.orders[unit] = f"{unit} H"
            return
        candidates = sorted([here, *self.places.steps[here]], key=lambda p: self.values[p], reverse=True)
        candidates = [p for p in candidates if p == here or _move(unit, self.places.names[p]) in self.legal]
        while True:
            target = candidates[weighted_pick(candidates, lambda p: self.values[p], self.draw, self.dice)]
            if self._settled(unit, here, target):
                return
            candidates.remove(target)

    def _settled(self, unit: str, here: int, target: int) -> bool:
        """Order ``unit`` toward ``target`` if it can: hold, wait for the occupant, support it,
        support an own move there, or move; False when the pick is given up for the next."""
        province = self.places.province[target]
        if target == here:
            self.orders[unit] = f"{unit} H"
            return True
        occupant = self.unit_at.get(province)
        if occupant is not None and occupant != unit and province not in self.moving_to.values():
            if occupant not in self.orders and unit not in self.waited:
                self.waited.add(unit)
                self.queue.insert(self.queue.index(occupant) + 1 if occupant in self.queue else 0, unit)
                return True
            if occupant in self.orders and " - " not in self.orders[occupant]:
                return self._give(unit, f"{unit} S {occupant}", self.competition.get(province, 0) > 1)
        if province in self.moving_to:
            mover = self.moving_to[province]
            support = _support_move(mover, self.orders[mover], self.legal, unit)
            return self._give(unit, support, self.competition.get(province, 0) > 0)
        self.orders[unit] = _move(unit, self.places.names[target])
        self.moving_to[province] = unit
        return True

    def _give(self, unit: str, support: str | None, contested: bool) -> bool:
        if contested and support is not None and support in self.legal:
            self.orders[unit] = support
            return True
        return False


def _competition(variant: str, unit_power: dict[str, str], power: str) -> dict[str, int]:
    """Province -> the most units one other power has next to it (by army and fleet steps)."""
    near = neighbours(variant)
    counts: dict[str, dict[str, int]] = {}
    for province, holder in unit_power.items():
        if holder == power:
            continue
        for n in near.get(province, ()):
            by_power = counts.setdefault(n, {})
            by_power[holder] = by_power.get(holder, 0) + 1
    return {p: max(c.values()) for p, c in counts.items()}


def _move(unit: str, place: str) -> str:
    return f"{unit} - {place.split(':')[1]}"


def _support_move(mover: str, move: str, legal: set[str], supporter: str) -> str | None:
    target = move.split()[3]
    for written in (target, province_of(target)):
        support = f"{supporter} S {mover} - {written}"
        if support in legal:
            return support
    return None


def _wasted_holds(places: Places, values: list[float], competition: dict[str, int], unit_at: dict[str, str],
                  orders: dict[str, str], legal: set[str], units: list[str]) -> None:
    """Step 5: a holding unit supports the best-valued neighbouring move or contested hold."""
    for unit in units:
        if not orders[unit].endswith(" H"):
            continue
        here = places.index.get(unit_place(unit))
        if here is None:
            continue
        best: tuple[float, str] | None = None
        for step in places.steps[here]:
            province = places.province[step]
            for other in units:
                order = orders[other]
                support = None
                if " - " in order and province_of(order.split()[3]) == province and competition.get(province, 0) > 0:
                    support = _support_move(other, order, legal, unit)
                elif unit_at.get(province) == other and other != unit and " - " not in order \
                        and competition.get(province, 0) > 1 and f"{unit} S {other}" in legal:
                    support = f"{unit} S {other}"
                if support and (best is None or values[step] > best[0]):
                    best = (values[step], support)
        if best is not None and best[0] > 0:
            orders[unit] = best[1]


def _retreats(variant: str, values: list[float], options: Options, draw: random.Random) -> list[str]:
    places = places_of(variant)
    taken: set[str] = set()
    chosen: list[str] = []

    def worth(order: str) -> float:
        place = places.index.get(_place(order.split()[0], order.split()[-1]))
        return values[place] if place is not None else 0.0

    for orders in options.by_unit.values():
        ranked = sorted((o for o in orders if " R " in o), key=worth, reverse=True)
        while ranked:
            pick = ranked[weighted_pick(ranked, worth, draw)]
            if province_of(pick.split()[-1]) in taken:
                ranked.remove(pick)
                continue
            taken.add(province_of(pick.split()[-1]))
            chosen.append(pick)
            break
        else:
            chosen.append(next((o for o in orders if o.endswith(" D")), orders[-1]))
    return chosen


def _place(kind: str, location: str) -> str:
    return f"{'A' if kind == 'A' else 'F'}:{location}"


def _adjustments(variant: str, values: list[float], options: Options, draw: random.Random) -> list[str]:
    places = places_of(variant)

    def worth(order: str) -> float:
        words = order.split()
        return values[places.index.get(_place(words[0], words[1]), 0)]

    if options.adjustment > 0:
        builds = sorted((o for orders in options.by_unit.values() for o in orders if o.endswith(" B")),
                        key=worth, reverse=True)
        chosen: list[str] = []
        while builds and len(chosen) < options.adjustment:
            pick = builds[weighted_pick(builds, worth, draw)]
            chosen.append(pick)
            builds = [b for b in builds if province_of(b.split()[1]) != province_of(pick.split()[1])]
        return chosen
    if options.adjustment < 0:
        removals = sorted((orders[0] for orders in options.by_unit.values()), key=worth)
        return removals[:-options.adjustment]
    return []
