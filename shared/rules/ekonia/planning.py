"""One state's orders checked and played out on its own units, before anyone else's count.

``plan_orders`` is both the validation (what ``check_orders`` reports) and the first step of
resolution: it runs the orders stage by stage (diplomacy and gifts, spending, disbanding,
loading, moving, unloading and drops, bombardment and hiding, razing), whatever order they
were written in, picks each group's units oldest first, charges the gold in the order written,
and returns every unit's planned place. It sees only the state at the start of the turn.
"""
from __future__ import annotations

import heapq
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from itertools import pairwise
from typing import Any

from . import catalogue as C
from .board import Board, Territory
from .orders import (
    LATE_LOAD,
    STAGE,
    AttackPrivateers,
    Bombard,
    Buy,
    Diplomacy,
    Disband,
    Drop,
    Expect,
    Give,
    HideCities,
    HideUnits,
    Improve,
    Load,
    Morale,
    Move,
    Order,
    Privateer,
    Raze,
    Rebase,
    Spy,
    Unload,
)
from .plan_records import AtPlace, Bombardment, DiplomacyOrder, Gift, Improvement, Mission, Spent
from .position import Ekonia
from .records import PlannedUnit
from .state import at_war, improvement_of, owner_of, trading


def _age(unit: PlannedUnit) -> tuple[int, str, int]:
    """Oldest first: the order in which a group's units are picked (state.unit_order)."""
    return unit.order


class Refused(Exception):
    """An order that cannot be carried out, with the reason the player reads."""


class _Later(Exception):
    """A load that finds no transport at its sea before the moves: tried again after them."""


@dataclass
class Plan:
    power: str
    turn: int
    reasons: dict[int, str] = field(default_factory=dict)  # order index -> why it failed
    notes: dict[int, str] = field(default_factory=dict)  # order index -> what it did
    units: dict[str, PlannedUnit] = field(default_factory=dict)  # own units, as planned
    new_units: list[str] = field(default_factory=list)
    next_unit: int = 1
    disbanded: list[str] = field(default_factory=list)
    refund: int = 0
    spent: list[Spent] = field(default_factory=list)
    improvements: list[Improvement] = field(default_factory=list)
    morale: int = 0
    missions: list[Mission] = field(default_factory=list)
    hide_cities: int | None = None
    hidden_units: list[str] = field(default_factory=list)
    privateers: list[str] = field(default_factory=list)
    gives: list[Gift] = field(default_factory=list)  # to whom
    expects: list[Gift] = field(default_factory=list)  # from whom
    diplomacy: list[DiplomacyOrder] = field(default_factory=list)
    bombardments: list[Bombardment] = field(default_factory=list)
    razes: list[AtPlace] = field(default_factory=list)
    hunts: list[AtPlace] = field(default_factory=list)  # ATTACK PRIVATEERS: the sea
    transport_steps: dict[str, set[str]] = field(default_factory=dict)  # load, move, unload
    own_gold: float = 0
    budget: float = 0

    @property
    def total_spent(self) -> int:
        return sum(spent.gold for spent in self.spent)


def planned_units(state: Ekonia, power: str) -> dict[str, PlannedUnit]:
    """``power``'s units before its orders, as a plan starts from them."""
    return {u.id: PlannedUnit.planned(u) for u in state.units.values() if u.owner == power}


def plan_orders(state: Ekonia, board: Board, power: str, orders: Sequence[Order], *,
                received: int = 0, count_expected: bool = False,
                start: Mapping[str, PlannedUnit] | None = None) -> Plan:
    """Play ``orders`` on ``power``'s units; ``received`` is gold given to it this turn.
    ``start``: ``planned_units(state, power)``, when the caller plans many times on one state
    (the records are immutable: every plan starts from the same ones)."""
    pstate = state.powers[power]
    plan = Plan(power, state.turn, next_unit=pstate.next_unit)
    plan.units = dict(start) if start is not None else planned_units(state, power)
    plan.own_gold = pstate.gold
    plan.budget = pstate.gold + received
    if count_expected:  # a promise counts, up to what any gift could be (R13, R4)
        plan.budget += min(C.MAX_GOLD, sum(o.amount for o in orders if isinstance(o, Expect)))
    ctx = _Context(state, board, plan)
    queue = [(STAGE[type(order)], index) for index, order in enumerate(orders)]
    heapq.heapify(queue)
    while queue:
        stage, index = heapq.heappop(queue)
        order = orders[index]
        ctx.late = stage == LATE_LOAD
        try:
            _HANDLERS[type(order)](ctx, index, order)
        except _Later:
            heapq.heappush(queue, (LATE_LOAD, index))
        except Refused as refusal:
            plan.reasons[index] = str(refusal)
    return plan


class _Context:
    def __init__(self, state: Ekonia, board: Board, plan: Plan) -> None:
        self.state, self.board, self.plan = state, board, plan
        self.power = plan.power
        self.declared_war: set[str] = set()
        self.late = False  # loading after the moves (R18)

    # -- small checks -------------------------------------------------------------------
    def territory(self, tid: str) -> Territory:
        return self.board.territory(tid)

    def owns(self, tid: str) -> bool:
        return owner_of(self.state, tid) == self.power

    def is_base(self, tid: str) -> bool:
        """A fort or this state's capital (where land units and airships are made or based)."""
        return self.owns(tid) and (self.state.territories[tid].fort
                                   or self.state.powers[self.power].capital == tid)

    def may_enter(self, tid: str) -> None:
        owner = owner_of(self.state, tid)
        if owner and owner != self.power and not (at_war(self.state, owner, self.power)
                                                  or owner in self.declared_war):
            raise Refused(f"{tid} belongs to {owner}, with whom {self.power} is not at war")

    def pay(self, index: int, gold: int, where: str | None = None) -> None:
        left = self.plan.budget - self.plan.total_spent
        if gold > left:
            raise Refused(f"cannot afford: costs {gold} gold, {max(left, 0):g} left")
        self.plan.spent.append(Spent(index, gold, where))

    def put(self, unit: PlannedUnit) -> None:
        """A unit of the plan replaced by its next record (the orders move it, load it...)."""
        self.plan.units[unit.id] = unit

    def pick(self, count: int, unit_type: str, location: str, *, aboard: bool = False,
             stored: bool | None = None, free: bool = True) -> list[PlannedUnit]:
        found = [u for u in sorted(self.plan.units.values(), key=_age)
                 if u.type == unit_type and u.location == location
                 and u.id not in self.plan.disbanded
                 and (u.aboard is not None) == aboard
                 and (stored is None or u.stored == stored)
                 and (not free or not u.used)]
        if len(found) < count:
            which = "aboard at" if aboard else "at"
            raise Refused(f"only {len(found)} {unit_type} free {which} {location}, {count} ordered")
        return found[:count]

    def stored_count(self, tid: str, unit_type: str) -> int:
        return sum(1 for u in self.plan.units.values() if u.location == tid and u.stored
                   and u.type == unit_type and u.id not in self.plan.disbanded)

    def airships_at(self, tid: str) -> int:
        return sum(1 for u in self.plan.units.values() if u.type == "AIRSHIP"
                   and u.location == tid and u.id not in self.plan.disbanded)


def _diplomacy(ctx: _Context, index: int, order: Diplomacy) -> None:
    other, state = order.other, ctx.state
    if other == ctx.power:
        raise Refused("a state cannot make war, peace or trade with itself")
    if other not in state.powers or not state.powers[other].alive:
        raise Refused(f"{other} is not in the game")
    if order.kind == "WAR":
        if at_war(state, ctx.power, other):
            raise Refused(f"already at war with {other}")
        ctx.declared_war.add(other)
    elif order.kind == "PEACE" and not at_war(state, ctx.power, other):
        raise Refused(f"not at war with {other}")
    elif order.kind == "TRADE" and trading(state, ctx.power, other):
        raise Refused(f"already trading with {other}")
    elif order.kind == "END TRADE" and not trading(state, ctx.power, other):
        raise Refused(f"not trading with {other}")
    ctx.plan.diplomacy.append(DiplomacyOrder(index, order))


def _give(ctx: _Context, index: int, order: Give) -> None:
    if order.to == ctx.power or order.to not in ctx.state.powers:
        raise Refused(f"cannot give gold to {order.to}")
    given = sum(gift.amount for gift in ctx.plan.gives)
    if given + order.amount > ctx.plan.own_gold:
        raise Refused(f"cannot give {order.amount}: only gold held at the start of the turn "
                      f"may be given ({ctx.plan.own_gold - given:g} left)")
    ctx.pay(index, order.amount)
    ctx.plan.gives.append(Gift(index, order.amount, order.to))


def _expect(ctx: _Context, index: int, order: Expect) -> None:
    if order.source == ctx.power or order.source not in ctx.state.powers:
        raise Refused(f"cannot expect gold from {order.source}")
    ctx.plan.expects.append(Gift(index, order.amount, order.source))


def _buy(ctx: _Context, index: int, order: Buy) -> None:
    stats = C.UNIT_TYPES[order.unit]
    at, terr_state = order.at, ctx.state.territories.get(order.at)
    if terr_state is None or not ctx.owns(at):
        raise Refused(f"{at} is not a territory of {ctx.power}")
    stored = False
    if stats.produced_at == "fort" and not ctx.is_base(at):
        raise Refused(f"{order.unit} is made only at a fort or the capital; {at} is neither")
    if stats.produced_at == "yard":
        if not terr_state.shipyard:
            raise Refused(f"ships are made only at a ship yard; {at} has none")
        if order.launch_to is None:
            if not ctx.is_base(at):
                raise Refused(f"a ship yard outside a fort or capital stores no ships: "
                              f"launch them, as in BUY {order.count} {order.unit} AT {at} -> <sea>")
            cap = C.YARD_STORAGE[order.unit]
            if ctx.stored_count(at, order.unit) + order.count > cap:
                raise Refused(f"{at} stores at most {cap} {order.unit}")
            stored = True
        elif order.launch_to not in ctx.board.sea_neighbours(at):
            raise Refused(f"{order.launch_to} is not a sea next to {at}")
    elif order.launch_to is not None:
        raise Refused("only ships are launched to sea")
    if stats.produced_at == "vent":
        if not (terr_state.gas_vent and ctx.is_base(at)):
            raise Refused(f"airships are made only at a fort or capital with a gas vent; {at} has none")
        _check_airship_room(ctx, at, order.count)
    ctx.pay(index, stats.cost * order.count, at)
    plan, power, where = ctx.plan, ctx.power, order.launch_to or at
    units, number = plan.units, plan.next_unit  # a thousand units may be bought at once: kept local
    for _ in range(order.count):
        while f"{power}-{number}" in units:  # ids are never reused, even in hand-edited states
            number += 1
        uid = f"{power}-{number}"
        number += 1
        units[uid] = PlannedUnit(uid, order.unit, power, where, stored, False, plan.turn, None, None)
        plan.new_units.append(uid)
    plan.next_unit = number


def _check_airship_room(ctx: _Context, base: str, extra: int) -> None:
    if ctx.airships_at(base) + extra > C.AIRSHIPS_PER_BASE:
        raise Refused(f"{base} holds at most {C.AIRSHIPS_PER_BASE} airships")
    vents = sum(1 for tid, t in ctx.state.territories.items()
                if t.owner == ctx.power and t.gas_vent)
    owned = sum(1 for u in ctx.plan.units.values() if u.type == "AIRSHIP" and u.id not in ctx.plan.disbanded)
    if owned + extra > C.AIRSHIPS_PER_VENT * vents:
        raise Refused(f"at most {C.AIRSHIPS_PER_VENT} airships per gas vent ({vents} held)")


def _improve(ctx: _Context, index: int, order: Improve) -> None:
    at = order.at
    terr_state = ctx.state.territories.get(at)
    if terr_state is None or not ctx.owns(at):
        raise Refused(f"{at} is not a territory of {ctx.power}")
    if any(done.kind == order.kind and done.at == at for done in ctx.plan.improvements):
        raise Refused(f"{order.kind} at {at} is already ordered")
    if order.kind == "FORT":
        if terr_state.fort:
            raise Refused(f"{at} already has a fort")
        # sorted: the refusal names the same neighbour in every process (replays compare it)
        near = [n for n in sorted(ctx.board.land_neighbours(at))
                if (ctx.owns(n) and ctx.state.territories[n].fort)
                or any(done.kind == "FORT" and done.at == n for done in ctx.plan.improvements)]
        if near:
            raise Refused(f"a state may not hold forts in adjacent tiles ({near[0]})")
        cost = C.FORT_COST
    elif order.kind == "SHIPYARD":
        if terr_state.shipyard:
            raise Refused(f"{at} already has a ship yard")
        if not ctx.territory(at).coastal:
            raise Refused(f"{at} is not on the coast")
        cost = C.SHIPYARD_COST
    else:
        if terr_state.gas_vent:
            raise Refused(f"{at} already has a gas vent")
        if not ctx.is_base(at):
            raise Refused("gas vents are built only in a fort or the capital")
        cost = C.GAS_VENT_COST
    ctx.pay(index, cost, at)
    ctx.plan.improvements.append(Improvement(index, order.kind, at))


def _morale(ctx: _Context, index: int, order: Morale) -> None:
    if ctx.plan.morale:
        raise Refused("morale is already bought this turn")
    count = sum(1 for uid in ctx.plan.units if uid not in ctx.plan.disbanded)  # bought ones too (R63)
    per_unit, _ = C.MORALE[order.level]
    ctx.pay(index, per_unit * count)
    ctx.plan.morale = order.level
    ctx.plan.notes[index] = f"{per_unit} gold x {count} units"


def _spy(ctx: _Context, index: int, order: Spy) -> None:
    if any(mission.order == order for mission in ctx.plan.missions):
        raise Refused("the same mission is already ordered")
    if order.mission.startswith("INVESTIGATE"):
        sea = order.target is not None and order.target in ctx.board.territories \
            and ctx.board.territory(order.target).is_sea
        if order.target is None or not (sea or order.target in ctx.state.territories):
            raise Refused("only territories and seas can be investigated")
        kind = "sea" if sea else improvement_of(ctx.state, ctx.board, order.target)
        cost = C.INVESTIGATE[kind]
        if order.mission == "INVESTIGATE FLEET":
            if kind not in ("fort", "capital"):
                raise Refused("only a fort's or a capital's fleet can be investigated")
            cost += C.INVESTIGATE_FLEET_EXTRA
    else:
        if order.target is not None and (order.target == ctx.power
                                         or order.target not in ctx.state.powers):
            raise Refused(f"cannot spy on {order.target}")
        cost = C.MISSION_COST[order.mission]
    ctx.pay(index, cost)
    ctx.plan.missions.append(Mission(index, order, cost))


def _hide_cities(ctx: _Context, index: int, order: HideCities) -> None:
    if ctx.plan.hide_cities:
        raise Refused("cities are already hidden this turn")
    ctx.pay(index, C.HIDE_CITIES[order.level])
    ctx.plan.hide_cities = order.level


def _hide_units(ctx: _Context, index: int, order: HideUnits) -> None:
    if order.at not in ctx.state.territories or \
            improvement_of(ctx.state, ctx.board, order.at) != "tile":
        raise Refused("units are hidden only in tiles without a fort, city or capital")
    units = [u for u in sorted(ctx.plan.units.values(), key=_age)
             if u.type == "INFANTRY" and u.location == order.at and u.aboard is None
             and u.id not in ctx.plan.disbanded and u.id not in ctx.plan.hidden_units]
    if len(units) < order.count:
        raise Refused(f"only {len(units)} infantry will stand at {order.at}, {order.count} ordered")
    ctx.pay(index, C.HIDE_UNIT_COST * order.count, order.at)
    ctx.plan.hidden_units.extend(u.id for u in units[:order.count])


def _privateer(ctx: _Context, index: int, order: Privateer) -> None:
    ships = [u for u in sorted(ctx.plan.units.values(), key=_age)
             if u.type == "TRIREME" and u.location == order.at and not u.privateer
             and u.id not in ctx.plan.disbanded]
    if len(ships) < order.count:
        raise Refused(f"only {len(ships)} triremes flying a flag at {order.at}, {order.count} ordered")
    ctx.pay(index, C.PRIVATEER_COST * order.count, order.at)
    for unit in ships[:order.count]:
        ctx.put(replace(unit, privateer=True))
        ctx.plan.privateers.append(unit.id)


def _disband(ctx: _Context, index: int, order: Disband) -> None:
    units = ctx.pick(order.count, order.unit, order.at, stored=None)
    loaded = {u.aboard for u in ctx.plan.units.values() if u.aboard}
    if any(unit.id in loaded for unit in units):
        raise Refused(f"a transport at {order.at} still carries troops")
    for unit in units:
        ctx.plan.disbanded.append(unit.id)
        ctx.plan.refund += C.UNIT_TYPES[unit.type].refund


def _transports(ctx: _Context, sea: str) -> list[PlannedUnit]:
    return [u for u in sorted(ctx.plan.units.values(), key=_age)
            if u.type == "TRANSPORT" and u.location == sea and not u.stored and u.id not in ctx.plan.disbanded]


def _cargo(ctx: _Context, transport: str) -> float:
    return sum(C.CARGO_WEIGHT[u.type] for u in ctx.plan.units.values() if u.aboard == transport)


def _load(ctx: _Context, index: int, order: Load) -> None:
    if order.sea not in ctx.board.sea_neighbours(order.origin):
        raise Refused(f"{order.sea} is not a sea next to {order.origin}")
    units = ctx.pick(order.count, order.unit, order.origin, stored=False)
    transports = [t for t in _transports(ctx, order.sea) if t.built != ctx.plan.turn
                  and len(ctx.plan.transport_steps.get(t.id, set()) | {"load"}) < 3]
    if not transports:
        if not ctx.late:
            raise _Later()
        raise Refused(f"no transport of {ctx.power} at {order.sea} able to carry this turn "
                      "(a transport loads, moves and unloads only two of these a turn)")
    room = {t.id: C.TRANSPORT_CAPACITY - _cargo(ctx, t.id) for t in transports}
    placing: list[tuple[PlannedUnit, str]] = []
    for unit in units:
        weight = C.CARGO_WEIGHT[unit.type]
        spot = next((tid for tid in room if room[tid] >= weight), None)
        if spot is None:
            if not ctx.late:
                raise _Later()
            raise Refused(f"the transports at {order.sea} have no room left")
        room[spot] -= weight
        placing.append((unit, spot))
    for unit, transport in placing:
        ctx.put(replace(unit, location=order.sea, aboard=transport, used=True, moved=True))
        ctx.put(replace(ctx.plan.units[transport], carrying=True))
        ctx.plan.transport_steps.setdefault(transport, set()).add("load")


def _move(ctx: _Context, index: int, order: Move) -> None:
    stats = C.UNIT_TYPES[order.unit]
    if order.unit == "AIRSHIP":
        raise Refused("airships move with REBASE or carry troops with DROP")
    origin = order.origin
    if stats.naval:
        from_store = origin in ctx.state.territories
        units = ctx.pick(order.count, order.unit, origin, stored=from_store)
        path = _naval_path(ctx, order)
    else:
        units = ctx.pick(order.count, order.unit, origin, stored=False)
        path = _land_path(ctx, order, stats.movement)
    target = path[-1]
    ctx.may_enter(target)
    stores = stats.naval and target in ctx.state.territories
    for unit in units:
        if unit.type == "TRANSPORT":
            ctx.plan.transport_steps.setdefault(unit.id, set()).add("move")
        ctx.put(replace(unit, location=target, moved=True, used=True, entered_from=path[-2], stored=stores))
        for cargo in [u for u in ctx.plan.units.values() if u.aboard == unit.id]:
            ctx.put(replace(cargo, location=target))
    ctx.plan.notes[index] = "via " + " -> ".join(path) if len(path) > 2 else ""


def _land_path(ctx: _Context, order: Move, movement: int) -> list[str]:
    board, path = ctx.board, list(order.path)
    for tid in path:
        if board.territory(tid).is_sea:
            raise Refused(f"{tid} is a sea: troops cross it only in a transport")
    if len(path) == 2 and path[1] not in board.land_neighbours(path[0]) and movement >= 2:
        middles = sorted(board.land_neighbours(path[0]) & board.land_neighbours(path[1]))
        passable = [m for m in middles if owner_of(ctx.state, m) in (None, ctx.power)]
        if not passable:
            reason = "through own or neutral land" if middles else "within reach"
            raise Refused(f"{path[1]} is not {reason} of {path[0]} in {movement} steps")
        path = [path[0], passable[0], path[1]]
    if len(path) - 1 > movement:
        raise Refused(f"{order.unit} moves at most {movement} step(s)")
    for a, b in pairwise(path):
        if b not in board.land_neighbours(a):
            raise Refused(f"{b} is not next to {a} by land")
    for middle in path[1:-1]:
        if owner_of(ctx.state, middle) not in (None, ctx.power):
            raise Refused(f"troops pass only through own or neutral land, not {middle}")
    return path


def _naval_path(ctx: _Context, order: Move) -> list[str]:
    board, path = ctx.board, list(order.path)
    if len(path) != 2:
        raise Refused("ships move one step a turn")
    origin, target = path
    if target not in board.neighbours(origin):
        raise Refused(f"{target} is not next to {origin}")
    if not board.territory(target).is_sea:
        if board.territory(origin).is_sea is False:
            raise Refused("ships go from port to sea, or from sea to port")
        terr = ctx.state.territories[target]
        if not (ctx.is_base(target) and terr.shipyard):
            raise Refused("ships are stored only in an own fort or capital with a ship yard")
        if ctx.stored_count(target, order.unit) + order.count > C.YARD_STORAGE[order.unit]:
            raise Refused(f"{target} stores at most {C.YARD_STORAGE[order.unit]} {order.unit}")
    return path


def _rebase(ctx: _Context, index: int, order: Rebase) -> None:
    airships = ctx.pick(order.count, "AIRSHIP", order.base)
    if not ctx.is_base(order.target):
        raise Refused(f"airships are based only at an own fort or the capital, not {order.target}")
    if ctx.airships_at(order.target) + order.count > C.AIRSHIPS_PER_BASE:
        raise Refused(f"{order.target} holds at most {C.AIRSHIPS_PER_BASE} airships")
    for airship in airships:
        ctx.put(replace(airship, location=order.target, used=True, moved=True))


def _carrier(unit: PlannedUnit) -> str:
    """The transport a unit picked ``aboard`` is in."""
    transport = unit.aboard
    if transport is None:  # pragma: no cover - pick(aboard=True) picks only units aboard
        raise Refused(f"{unit.id} is not aboard a transport")
    return transport


def _unload(ctx: _Context, index: int, order: Unload) -> None:
    if order.target not in ctx.board.land_neighbours(order.sea):
        raise Refused(f"{order.target} is not a coast of {order.sea}")
    units = ctx.pick(order.count, order.unit, order.sea, aboard=True, free=False)
    carriers = [_carrier(unit) for unit in units]
    for transport in carriers:
        if ctx.plan.units[transport].built == ctx.plan.turn:
            raise Refused("transports may not carry troops on the turn they are made")
        if ctx.plan.transport_steps.get(transport, set()) >= {"load", "move"}:
            raise Refused("a transport loads, moves and unloads only two of these a turn: "
                          f"the one at {order.sea} has loaded and moved")
    ctx.may_enter(order.target)
    for unit, transport in zip(units, carriers, strict=True):
        ctx.plan.transport_steps.setdefault(transport, set()).add("unload")
        ctx.put(replace(ctx.plan.units[transport], carrying=True))
        ctx.put(replace(unit, location=order.target, aboard=None, moved=True, used=True,
                        entered_from=order.sea, landed=True))


def _drop(ctx: _Context, index: int, order: Drop) -> None:
    airships = [a for a in ctx.pick(math.ceil(order.count / C.AIRSHIP_CARRY), "AIRSHIP", order.base)]
    if any(a.built == ctx.plan.turn for a in airships):
        raise Refused("airships may not carry troops on the turn they are made")
    if ctx.board.territory(order.target).is_sea:
        raise Refused("troops are dropped on land")
    reach = ctx.board.distance(order.base, order.target, sea_cost=2)
    if reach > C.AIRSHIP_RANGE:
        raise Refused(f"{order.target} is {reach} tiles from {order.base}; airships reach {C.AIRSHIP_RANGE}")
    units = ctx.pick(order.count, "INFANTRY", order.base, stored=False)
    ctx.may_enter(order.target)
    for airship in airships:
        ctx.put(replace(airship, used=True, carrying=True))
    for unit in units:
        ctx.put(replace(unit, location=order.target, moved=True, used=True, entered_from="AIR", landed=True))


def _bombard(ctx: _Context, index: int, order: Bombard) -> None:
    if order.target not in ctx.board.land_neighbours(order.origin) or \
            not ctx.board.territory(order.origin).is_sea:
        raise Refused(f"triremes bombard a coast next to their sea; {order.target} is not one "
                      f"of {order.origin}")
    ships = ctx.pick(order.count, "TRIREME", order.origin, stored=False)
    ctx.may_enter(order.target)
    for ship in ships:
        ctx.put(replace(ship, used=True))
    ctx.plan.bombardments.append(Bombardment(index, [s.id for s in ships], order.origin, order.target))


def _attack_privateers(ctx: _Context, index: int, order: AttackPrivateers) -> None:
    if not ctx.board.territory(order.at).is_sea:
        raise Refused("privateers sail the seas: name a sea")
    if any(hunt.at == order.at for hunt in ctx.plan.hunts):
        raise Refused(f"privateers at {order.at} are already attacked this turn")
    ctx.plan.hunts.append(AtPlace(index, order.at))


def _raze(ctx: _Context, index: int, order: Raze) -> None:
    if order.at not in ctx.state.territories or not ctx.state.territories[order.at].fort:
        raise Refused(f"there is no fort at {order.at}")
    if ctx.owns(order.at):
        raise Refused("a state may not raze a fort it controls")
    ctx.plan.razes.append(AtPlace(index, order.at))


_Handler = Callable[[_Context, int, Any], None]  # each takes its own kind of order
_HANDLERS: dict[type[Order], _Handler] = {
    Diplomacy: _diplomacy, Give: _give, Expect: _expect, Buy: _buy, Improve: _improve, Morale: _morale, Spy: _spy,
    HideCities: _hide_cities, HideUnits: _hide_units, Privateer: _privateer, Disband: _disband, Load: _load,
    Move: _move, Rebase: _rebase, Unload: _unload, Drop: _drop, Bombard: _bombard, Raze: _raze,
    AttackPrivateers: _attack_privateers,
}
