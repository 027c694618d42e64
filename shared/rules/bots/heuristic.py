"""The heuristic house bot, in the spirit of DumbBot: value every province from the supply
centres and the threats around them, spread the values along the map so that a unit is drawn
towards the centres it can reach, then give each unit the best move by value (no two of one
power's units into one province), support the moves that meet resistance, retreat and build
by the same values (docs/bots.md, "The house bots").

Pure and deterministic: the only randomness is ``draw`` (seeded by the caller), used to break
ties and to vary the play a little.
"""
from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache

from shared.rules.diplomacy.geography import GameMap, load_map

from .reading import Options, holdings

SPREAD = 0.5  # a province is worth this much of its best neighbour's value, besides its own
SPREAD_ROUNDS = 4
NEUTRAL_CENTRE = 12.0  # an unowned centre: the easiest gain
ENEMY_CENTRE = 9.0  # another power's centre, plus SIZE_WEIGHT per centre that power holds
SIZE_WEIGHT = 0.5
THREAT = 4.0  # an own centre, per enemy unit next to it (doubled in the autumn, when centres change hands)
HOLD_BONUS = 1.0  # a unit stays put unless moving gains more than this
NOISE = 0.8  # the random part of each choice's score
ALONE_AGAINST_A_UNIT = 0.3  # a move into an enemy unit's province, unsupported, is worth this share


@dataclass(frozen=True)
class Board:
    """What the bot reads of a state document: units by province, centres' owners."""

    power: str
    unit_at: dict[str, str]  # province -> power
    owner: dict[str, str]  # centre -> power
    sizes: dict[str, int]  # power -> centres held
    autumn: bool


@dataclass
class Plan:
    """The orders chosen so far: each unit's, and the provinces own units will stand in."""

    orders: dict[str, str] = field(default_factory=dict)  # unit ("A PAR") -> order
    claimed: set[str] = field(default_factory=set)  # provinces


def province(location: str) -> str:
    return location.split("/")[0]


def place(key: str) -> str:
    """The province a possible-orders key names: a site ("STP/NC") or a unit ("A HOL")."""
    return province(key.split()[-1])


@lru_cache(maxsize=8)
def map_of(variant: str) -> GameMap:
    try:
        return load_map(variant)
    except Exception:  # a variant of the standard board without a map of its own
        return load_map("standard")


@lru_cache(maxsize=8)
def neighbours(variant: str) -> dict[str, frozenset[str]]:
    """Province -> provinces next to it by land or by sea (coasts folded into provinces)."""
    game_map = map_of(variant)
    found: dict[str, set[str]] = {code: set(game_map.army_neighbours(code)) for code in game_map.provinces}
    for code in game_map.provinces:
        for location in (*game_map.fleet_locations(code), code):
            found[code] |= {province(n) for n in game_map.fleet_neighbours(location)}
    return {code: frozenset(near - {code}) for code, near in found.items()}


def read_board(state: Mapping[str, object], power: str) -> Board:
    unit_at = {province(unit.split()[-1]): owner for owner, units in holdings(state, "units").items()
               for unit in units}
    owner = {centre: holder for holder, centres in holdings(state, "centers").items() for centre in centres}
    sizes = {holder: len(centres) for holder, centres in holdings(state, "centers").items()}
    return Board(power, unit_at, owner, sizes, str(state.get("phase", "S"))[:1] == "F")


def province_values(variant: str, board: Board) -> dict[str, float]:
    """Each province's worth to ``board.power``: centres to take, own centres under threat,
    spread along the map so that the way to a centre is worth something too."""
    game_map, near = map_of(variant), neighbours(variant)
    base: dict[str, float] = {}
    for code in game_map.provinces:
        value = 0.0
        if code in game_map.supply_centres:
            holder = board.owner.get(code)
            if holder is None:
                value = NEUTRAL_CENTRE
            elif holder != board.power:
                value = ENEMY_CENTRE + SIZE_WEIGHT * board.sizes.get(holder, 0)
            else:
                threats = sum(1 for n in near[code] if board.unit_at.get(n, board.power) != board.power)
                value = THREAT * threats * (2 if board.autumn else 1)
        base[code] = value
    values = dict(base)
    for _ in range(SPREAD_ROUNDS):
        values = {code: base[code] + SPREAD * max((values[n] for n in near[code]), default=0.0) for code in base}
    return values


def _parts(order: str) -> list[str]:
    return order.split()


def destination(order: str) -> str | None:
    """Where a move or a retreat goes ("A PAR - BUR" -> BUR); None for other orders."""
    words = _parts(order)
    if len(words) >= 4 and words[2] in ("-", "R") and words[-1] != "VIA":
        return province(words[3])
    return None


def heuristic_orders(variant: str, state: Mapping[str, object], power: str, options: Options,
                     draw: random.Random) -> list[str]:
    board = read_board(state, power)
    values = province_values(variant, board)
    if options.kind == "movement":
        return _movement(variant, board, values, options, draw)
    if options.kind == "retreats":
        return _retreats(values, options, draw)
    return _adjustments(variant, values, options, draw)


def _movement(variant: str, board: Board, values: dict[str, float], options: Options,
              draw: random.Random) -> list[str]:
    plan = Plan()
    units = {orders[0].split(" ")[0] + " " + orders[0].split(" ")[1]: orders for orders in options.by_unit.values()}
    choices: list[tuple[float, str, str, str]] = []  # (score, unit, order, province it ends in)
    for unit, orders in units.items():
        here = province(unit.split()[1])
        for order in orders:
            words = _parts(order)
            if words[2] == "H":
                choices.append((values[here] + HOLD_BONUS + draw.random() * NOISE, unit, order, here))
            elif (target := destination(order)) is not None:
                worth = values[target]
                if board.unit_at.get(target, board.power) != board.power:
                    worth *= ALONE_AGAINST_A_UNIT  # unsupported, it bounces off the unit there
                choices.append((worth + draw.random() * NOISE, unit, order, target))
    choices.sort(key=lambda choice: choice[0], reverse=True)
    moving_out = _supported_attacks(board, values, units, plan)
    for _, unit, order, target in choices:
        here = province(unit.split()[1])
        if unit in plan.orders or target in plan.claimed:
            continue
        occupied_by_own = board.unit_at.get(target) == board.power and target != here
        if occupied_by_own and target not in moving_out:
            continue  # an own unit that has not decided to leave is standing there
        plan.orders[unit] = order
        plan.claimed.add(target)
        if target != here:
            moving_out.add(here)
    for unit, orders in units.items():  # every unit gets an order: a hold if nothing else fits
        plan.orders.setdefault(unit, next((o for o in orders if o.endswith(" H")), orders[0]))
    _add_supports(variant, board, values, units, plan)
    return [plan.orders[unit] for unit in units]


def _supported_attacks(board: Board, values: dict[str, float], units: dict[str, list[str]], plan: Plan) -> set[str]:
    """Attacks on enemy units in centres (the most valuable first), each only where another
    unit can support it: one against one only bounces. The supporters stay where they are.
    The provinces the attackers leave."""
    left: set[str] = set()
    targets = sorted((t for t, holder in board.unit_at.items() if holder != board.power and t in board.owner
                      and board.owner.get(t) != board.power), key=lambda t: values[t], reverse=True)
    for target in targets:
        movers = sorted((u for u in units if u not in plan.orders and any(destination(o) == target
                         for o in units[u])), key=lambda u: values[province(u.split()[1])])
        for mover in movers:
            move = next(o for o in units[mover] if destination(o) == target)
            helpers = [u for u in units if u != mover and u not in plan.orders
                       and f"{u} S {mover} - {_parts(move)[3]}" in units[u]]
            if not helpers:
                continue
            plan.orders[mover] = move
            plan.claimed.add(target)
            left.add(province(mover.split()[1]))
            helper = helpers[0]
            plan.orders[helper] = f"{helper} S {mover} - {_parts(move)[3]}"
            plan.claimed.add(province(helper.split()[1]))
            break
    return left


def _add_supports(variant: str, board: Board, values: dict[str, float], units: dict[str, list[str]],
                  plan: Plan) -> None:
    """Holding units support the moves that meet resistance (an enemy in or next to the
    target), the most valuable first; then own centres under threat."""
    near = neighbours(variant)
    holders = [u for u, order in plan.orders.items() if order.endswith(" H")]

    def contested(target: str) -> bool:
        return board.unit_at.get(target, board.power) != board.power or any(
            board.unit_at.get(n, board.power) != board.power for n in near[target])

    moves = sorted(((values[t], unit, order) for unit, order in plan.orders.items()
                    if (t := destination(order)) is not None and contested(t)), reverse=True)
    threatened = _threatened(board, near)
    supported: set[str] = set()
    for _, mover, order in moves:
        wanted = f"S {mover} - {_parts(order)[3]}"
        for holder in holders:
            support = f"{holder} {wanted}"
            if support in units[holder] and province(holder.split()[1]) not in threatened:
                plan.orders[holder] = support
                holders.remove(holder)
                supported.add(mover)
                break
    # an attack on an occupied province without support only bounces: a less valuable move
    # of another unit becomes its support instead
    for value, mover, order in moves:
        target = _parts(order)[3]
        if mover in supported or board.unit_at.get(province(target), board.power) == board.power:
            continue
        for other, other_order in sorted(plan.orders.items(), key=lambda item: values.get(
                destination(item[1]) or "", 0.0)):
            support = f"{other} S {mover} - {target}"
            gone = destination(other_order)
            if other != mover and gone is not None and values[gone] < value and support in units[other]:
                plan.orders[other] = support
                supported.add(mover)
                break
    for holder in list(holders):
        for other in holders:
            here = province(other.split()[1])
            if other != holder and here in threatened and f"{holder} S {other}" in units[holder]:
                plan.orders[holder] = f"{holder} S {other}"
                holders.remove(holder)
                break


def _threatened(board: Board, near: dict[str, frozenset[str]]) -> set[str]:
    """Own centres with an enemy unit next to them."""
    return {code for code, holder in board.owner.items() if holder == board.power
            and any(board.unit_at.get(n, board.power) != board.power for n in near.get(code, ()))}


def _retreats(values: dict[str, float], options: Options, draw: random.Random) -> list[str]:
    taken: set[str] = set()
    chosen: list[str] = []
    for orders in options.by_unit.values():
        ranked = sorted(((values[t] + draw.random() * NOISE, order) for order in orders
                         if (t := destination(order)) is not None and t not in taken), reverse=True)
        if ranked:
            taken.add(str(destination(ranked[0][1])))
            chosen.append(ranked[0][1])
        else:
            chosen.append(next((o for o in orders if o.endswith(" D")), orders[-1]))
    return chosen


def _adjustments(variant: str, values: dict[str, float], options: Options, draw: random.Random) -> list[str]:
    if options.adjustment > 0:
        sites = sorted(options.by_unit, key=lambda site: values[place(site)] + draw.random() * NOISE, reverse=True)
        return [_build_at(variant, values, options.by_unit[site]) for site in sites[:options.adjustment]]
    if options.adjustment < 0:
        weakest = sorted(options.by_unit, key=lambda key: values[place(key)] + draw.random() * NOISE)
        return [options.by_unit[key][0] for key in weakest[:-options.adjustment]]
    return []


def _build_at(variant: str, values: dict[str, float], orders: list[str]) -> str:
    """An army or a fleet, by where the value lies: at sea (a fleet) or on land (an army)."""
    game_map = map_of(variant)
    by_type = {order.split()[0]: order for order in orders}
    if "F" in by_type and "A" in by_type:
        site = by_type["F"].split()[1]
        sea = max((values[province(n)] for n in game_map.fleet_neighbours(site)), default=0.0)
        land = max((values[n] for n in game_map.army_neighbours(site)), default=0.0)
        return by_type["F"] if sea > land else by_type["A"]
    return by_type.get("A") or by_type.get("F") or orders[0]
