"""Random legal play, seeded: positions and orders for property tests and benchmarks.

``random_play(seed)`` starts from the initial position and plays phase after phase through
``adjudicate``, every order picked at random among the possible orders; ``make_position``
builds a position from short unit texts for hand-written tests.
"""
from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Mapping, Sequence

from shared.rules.diplomacy.geography import GameMap, load_map
from shared.rules.diplomacy.orders import (
    Convoy,
    Hold,
    Move,
    Order,
    SupportHold,
    SupportMove,
    Unit,
    UnitType,
    Waive,
    province_of,
)
from shared.rules.diplomacy.parser import ParseError
from shared.rules.diplomacy.phase import Phase, PhaseType
from shared.rules.diplomacy.position import DislodgedUnit, Position, Power, PowerUnit, Resolution
from shared.rules.diplomacy.possible import adjustment_count, possible_orders_all

Orders = dict[Power, list[Order]]

# How often a unit picks each kind of order in a movement phase (when it has one of that kind):
# enough moves that the board changes, enough supports and convoys that they matter.
MOVEMENT_WEIGHTS = {Hold: 1, Move: 5, SupportHold: 1, SupportMove: 3, Convoy: 2}


def readable(reading: Order | ParseError) -> Order:
    """An order the test wrote, read: a text that does not read is the test's own mistake."""
    assert not isinstance(reading, ParseError), reading
    return reading


def parse_unit(text: str) -> Unit:
    """``"F STP/NC"`` -> Unit(FLEET, "STP/NC")."""
    kind, location = text.split()
    return Unit(UnitType(kind), location)


def make_position(
    phase: str = "S1901M",
    units: Mapping[Power, Iterable[str]] | None = None,
    centres: Mapping[Power, Iterable[str]] | None = None,
    dislodged: Sequence[DislodgedUnit] = (),
    variant: str = "standard",
) -> Position:
    """A position from short texts: ``units={"FRANCE": ["A PAR", "F BRE"]}``."""
    board = {}
    for power, texts in (units or {}).items():
        for text in texts:
            unit = parse_unit(text)
            board[unit.province] = PowerUnit(power, unit)
    owned = {centre: power for power, names in (centres or {}).items() for centre in names}
    return Position(Phase.parse(phase), board, owned, tuple(dislodged), variant)


def random_orders(position: Position, game_map: GameMap, rng: random.Random) -> Orders:
    """One random legal order set for every power that has something to order."""
    menus = possible_orders_all(position, game_map)
    kind = position.phase.type
    if kind is PhaseType.MOVEMENT:
        return _random_movement_orders(menus, rng)
    orders: Orders = {}
    for power in sorted(menus):
        menu = menus[power]
        if not menu:
            continue
        if kind is PhaseType.RETREATS:
            orders[power] = [rng.choice(options) for _, options in sorted(menu.items())]
        else:
            orders[power] = _pick_adjustments(menu, adjustment_count(position, power), rng)
    return orders


def _random_movement_orders(menus: Mapping[Power, Mapping[str, list[Order]]], rng: random.Random) -> Orders:
    """Each unit picks a kind of order, moves first; supports and convoys then mostly back a
    move that was picked (as players do), so that attacks, dislodgements and convoys happen."""
    plans: list[tuple[Power, type, dict[type, list[Order]]]] = []
    for power in sorted(menus):
        for _, options in sorted(menus[power].items()):
            by_kind: dict[type, list[Order]] = {}
            for order in options:
                by_kind.setdefault(type(order), []).append(order)
            kinds = sorted(by_kind, key=lambda k: k.__name__)
            kind = rng.choices(kinds, weights=[MOVEMENT_WEIGHTS[k] for k in kinds])[0]
            plans.append((power, kind, by_kind))
    picked: list[Order | None] = [
        rng.choice(by_kind[kind]) if kind in (Hold, Move) else None for _, kind, by_kind in plans
    ]
    moves = {(o.unit, province_of(o.destination)) for o in picked if isinstance(o, Move)}
    movers = {unit for unit, _ in moves}
    for index, (_, kind, by_kind) in enumerate(plans):
        if picked[index] is not None:
            continue
        options = by_kind[kind]
        # the options of one kind: supports of a move, convoys, or supports of a unit holding
        backing: list[Order]
        if kind is SupportMove:
            backing = [o for o in options if isinstance(o, SupportMove) and (o.supported, o.destination) in moves]
        elif kind is Convoy:
            backing = [o for o in options if isinstance(o, Convoy) and (o.army, o.destination) in moves]
        else:
            backing = [o for o in options if isinstance(o, SupportHold) and o.supported not in movers]
        picked[index] = rng.choice(backing if backing and rng.random() < 0.8 else options)
    orders: Orders = {}
    for (power, _, _), chosen in zip(plans, picked, strict=True):
        assert chosen is not None  # every power's plan has its order by now
        orders.setdefault(power, []).append(chosen)
    return orders


def _pick_adjustments(menu: Mapping[str, list[Order]], count: int, rng: random.Random) -> list[Order]:
    if count < 0:
        locations = sorted(menu)
        return [menu[location][0] for location in rng.sample(locations, -count)]
    sites = sorted(site for site in menu if site != "WAIVE")
    picked = rng.sample(sites, min(count, len(sites)))
    chosen: list[Order] = [rng.choice(menu[site]) for site in picked]
    if chosen and rng.random() < 0.1:  # now and then a power waives a build
        chosen[-1] = Waive()
    return chosen


def random_play(
    seed: int, phases: int = 40, variant: str = "standard"
) -> Iterator[tuple[Position, Orders, Resolution]]:
    """Play up to ``phases`` random phases of one game (fewer if someone wins)."""
    from shared.rules.diplomacy.adjudicate import adjudicate, initial_position

    rng = random.Random(seed)
    game_map = load_map(variant)
    position = initial_position(variant)
    for _ in range(phases):
        orders = random_orders(position, game_map, rng)
        resolution = adjudicate(position, orders)
        yield position, orders, resolution
        if resolution.winners:
            return
        position = resolution.position


def random_positions(seed: int, count: int, phase_type: PhaseType | None = None) -> list[Position]:
    """``count`` positions met in random games (of the given phase type, if one is given)."""
    found: list[Position] = []
    game = 0
    while len(found) < count:
        for position, _, _ in random_play(seed * 1000 + game):
            if phase_type is None or position.phase.type is phase_type:
                found.append(position)
                if len(found) == count:
                    break
        game += 1
    return found
