"""Properties of the engine over positions met in random legal games.

A pool of positions (every phase type) comes from seeded random play once per session;
hypothesis then picks positions, order seeds and shuffles. Example counts stay moderate so the
file runs in seconds.
"""
from __future__ import annotations

import random
from functools import lru_cache

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shared.rules.diplomacy.adjudicate import adjudicate
from shared.rules.diplomacy.geography import load_map
from shared.rules.diplomacy.legality import order_problem
from shared.rules.diplomacy.normalise import normalise_order
from shared.rules.diplomacy.orders import (
    Convoy,
    Hold,
    Move,
    Order,
    SupportHold,
    SupportMove,
    Unit,
    UnitType,
    province_of,
)
from shared.rules.diplomacy.parser import parse_order
from shared.rules.diplomacy.phase import PhaseType
from shared.rules.diplomacy.position import Position
from shared.rules.diplomacy.possible import possible_orders_all
from tests.utils.random_play import random_orders, random_play

STANDARD = load_map("standard")
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@lru_cache(maxsize=1)
def position_pool() -> tuple[Position, ...]:
    """Positions of four random games, 35 phases each: openings, crowded boards, retreats."""
    return tuple(position for seed in range(4) for position, _, _ in random_play(seed, 35))


def pool_positions(phase_type: PhaseType | None = None) -> st.SearchStrategy[Position]:
    pool = [p for p in position_pool() if phase_type is None or p.phase.type is phase_type]
    assert len(pool) > 5, f"random play met too few {phase_type} positions"
    return st.sampled_from(pool)


def results_by_order(resolution):
    return sorted((r.power, str(r.order), r.result, r.reason) for r in resolution.results)


def board(position: Position):
    return (
        str(position.phase),
        sorted((p, pu.power, str(pu.unit)) for p, pu in position.units.items()),
        sorted(position.centres.items()),
        sorted((d.power, str(d.unit), d.attacker_from, d.retreats) for d in position.dislodged),
    )


@SETTINGS
@given(position=pool_positions(), seed=st.integers(0, 2**32 - 1))
def test_random_legal_orders_never_raise_and_get_one_result_each(position, seed):
    orders = random_orders(position, STANDARD, random.Random(seed))
    resolution = adjudicate(position, orders)
    assert len(resolution.results) >= sum(len(o) for o in orders.values())
    assert resolution.next_phase == resolution.position.phase


@SETTINGS
@given(position=pool_positions(), seed=st.integers(0, 2**32 - 1), shuffle_seed=st.integers(0, 2**32 - 1))
def test_the_result_does_not_depend_on_the_order_of_the_input(position, seed, shuffle_seed):
    orders = random_orders(position, STANDARD, random.Random(seed))
    shuffler = random.Random(shuffle_seed)
    powers = list(orders)
    shuffler.shuffle(powers)
    shuffled = {power: shuffler.sample(orders[power], len(orders[power])) for power in powers}
    first, second = adjudicate(position, orders), adjudicate(position, shuffled)
    assert results_by_order(first) == results_by_order(second)
    assert board(first.position) == board(second.position)
    assert sorted(map(str, first.dislodged)) == sorted(map(str, second.dislodged))


@SETTINGS
@given(position=pool_positions(PhaseType.MOVEMENT), seed=st.integers(0, 2**32 - 1))
def test_every_unit_ends_a_movement_phase_exactly_once(position, seed):
    orders = random_orders(position, STANDARD, random.Random(seed))
    resolution = adjudicate(position, orders)
    moved = {
        r.order.unit.province: r.order.destination
        for r in resolution.results
        if isinstance(r.order, Move) and r.result == "succeeds"
    }
    dislodged = {(d.power, d.unit) for d in resolution.dislodged}
    after = {(pu.power, pu.unit) for pu in resolution.position.units.values()}
    for province, pu in position.units.items():
        unit = pu.unit
        if province in moved:
            expected = (pu.power, Unit(unit.type, moved[province]))
            assert expected in after, f"{unit} moved to {moved[province]} but is not there"
        else:
            assert ((pu.power, unit) in after) != ((pu.power, unit) in dislodged), f"{unit} lost or doubled"
    assert len(after) + len(dislodged) == len(position.units)


@SETTINGS
@given(position=pool_positions())
def test_every_possible_order_is_legal(position):
    for power, menu in possible_orders_all(position, STANDARD).items():
        for orders in menu.values():
            for order in orders:
                assert order_problem(order, power, position, STANDARD) is None, f"{power}: {order}"


@SETTINGS
@given(position=pool_positions())
def test_every_possible_order_reads_back_from_its_text(position):
    """Clients get the menu as text and send it back: the text must mean the same order."""
    for power, menu in possible_orders_all(position, STANDARD).items():
        for orders in menu.values():
            for order in orders:
                read = parse_order(str(order), game_map=STANDARD, phase_type=position.phase.type, power=power)
                assert normalise_order(read, position, STANDARD) == order, f"{order} read as {read}"


def candidate_orders(position: Position, rng: random.Random, count: int):
    """Orders a careless player might write for units on the board: right and wrong ones."""
    units = list(position.units.values())
    locations = sorted(STANDARD.locations)
    for _ in range(count):
        pu = rng.choice(units)
        unit = pu.unit
        near = sorted(
            STANDARD.army_neighbours(unit.province) if unit.type is UnitType.ARMY
            else STANDARD.fleet_neighbours(unit.location)
        )
        place = rng.choice(near + [rng.choice(locations)])
        neighbours = [position.units[p].unit for p in {province_of(n) for n in near} if p in position.units]
        other = rng.choice(neighbours) if neighbours and rng.random() < 0.5 else rng.choice(units).unit
        kind = rng.randrange(6)
        if kind == 0:
            yield pu.power, Hold(unit)
        elif kind == 1:
            yield pu.power, Move(unit, place if unit.type is UnitType.FLEET else province_of(place))
        elif kind == 2:
            yield pu.power, SupportHold(unit, other)
        elif kind in (3, 4):
            yield pu.power, SupportMove(unit, other, province_of(place))
        else:
            yield pu.power, Convoy(unit, other, province_of(rng.choice(locations)))


def steps_into(unit: Unit, province: str) -> bool:
    """Whether the unit could step into ``province`` (by some coast), no convoy."""
    if unit.type is UnitType.ARMY:
        return province_of(province) in STANDARD.army_neighbours(unit.location)
    return province_of(province) in {province_of(n) for n in STANDARD.fleet_neighbours(unit.location)}


def is_land_move_or_support(order) -> bool:
    """Orders that legality judges by the board alone (no convoy: that needs the fleets' orders)."""
    if isinstance(order, Move):
        return not order.via_convoy and steps_into(order.unit, order.destination)
    if isinstance(order, SupportMove):
        return steps_into(order.supported, order.destination)
    return isinstance(order, (Hold, SupportHold))


@SETTINGS
@given(position=pool_positions(PhaseType.MOVEMENT), seed=st.integers(0, 2**32 - 1))
def test_legal_orders_without_convoys_are_exactly_the_possible_ones(position, seed):
    menus = possible_orders_all(position, STANDARD)
    offered = {(power, order) for power, menu in menus.items() for orders in menu.values() for order in orders}
    for power, order in candidate_orders(position, random.Random(seed), 200):
        legal = order_problem(order, power, position, STANDARD) is None
        if legal and isinstance(order, Move) and order.destination in STANDARD.provinces:
            # "F GAS - SPA" is accepted when one coast is in reach; the menu names the coast
            coasts = STANDARD.fleet_destinations_in(order.unit.location, order.destination)
            if order.unit.type is UnitType.FLEET and coasts:
                order = Move(order.unit, coasts[0])
        if (power, order) in offered:
            assert legal, f"{order} is offered but refused"
        elif is_land_move_or_support(order):
            assert not legal, f"{order} is accepted but not offered to {power}"


@SETTINGS
@given(position=pool_positions(PhaseType.RETREATS))
def test_retreat_menus_match_legality(position):
    from shared.rules.diplomacy.orders import Disband, Retreat

    menus = possible_orders_all(position, STANDARD)
    for power in menus:
        offered = {order for orders in menus[power].values() for order in orders}
        for dislodged in position.dislodged:
            unit = dislodged.unit
            near = (STANDARD.army_neighbours(unit.province) if unit.type is UnitType.ARMY
                    else STANDARD.fleet_neighbours(unit.location))
            retreats: list[Order] = [Disband(unit), *(Retreat(unit, place) for place in sorted(near))]
            for order in retreats:
                legal = order_problem(order, power, position, STANDARD) is None
                assert legal == (order in offered), f"{power}: {order} legal={legal}"


@SETTINGS
@given(position=pool_positions(PhaseType.ADJUSTMENTS))
def test_adjustment_menus_match_legality(position):
    from shared.rules.diplomacy.orders import Build, Remove, Waive

    menus = possible_orders_all(position, STANDARD)
    for power, menu in menus.items():
        offered = {order for orders in menu.values() for order in orders}
        candidates: set[Order] = {Waive(), *(Remove(pu.unit) for pu in position.units.values())}
        for home in STANDARD.home_centres[power]:
            candidates.add(Build(Unit(UnitType.ARMY, home)))
            candidates.update(Build(Unit(UnitType.FLEET, loc)) for loc in STANDARD.fleet_locations(home))
        for order in candidates:
            legal = order_problem(order, power, position, STANDARD) is None
            assert legal == (order in offered), f"{power}: {order} legal={legal}"
