"""Movement phase: orders in, results, new unit positions and dislodged units out.

``resolve_movement`` is a short script: look up each ordered unit, check each order's
legality against the board (an illegal order is ``void`` and the unit holds, DATC 4.E.1),
match supports and convoys with the orders they serve, decide every move, support and
convoy with the guess-and-check resolver (``resolver.py``), then read off the results,
the new positions, the dislodged units with their retreats, and the standoffs.

Rule choices follow the DATC 3.0 preferences; docs/rules/datc.md lists them.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Sequence

from .convoys import fleets_on_some_route, route_exists
from .geography import GameMap
from .movement_tables import movement_tables
from .orders import Convoy, Hold, Move, Order, SupportHold, SupportMove, Unit, UnitType, province_of
from .position import DislodgedUnit, OrderResult, Position, Power, PowerUnit
from .resolver import CONVOY, HOLD, MOVE, SUPPORT_HOLD, SUPPORT_MOVE, Prepared, Resolver


_MOVEMENT_ORDERS = frozenset({Hold, Move, SupportHold, SupportMove, Convoy})
_NOTHING: frozenset[str] = frozenset()


@dataclass(frozen=True)
class MovementOutcome:
    results: tuple[OrderResult, ...]  # one per input order, in input order
    units: dict[str, PowerUnit]  # province -> unit after the moves (dislodged ones removed)
    dislodged: tuple[DislodgedUnit, ...]  # with attacker_from and legal retreats, sorted
    standoffs: frozenset[str]  # provinces left empty by a standoff (no retreat there)
    air_supports_given: tuple[bool, ...] = ()  # one per ``air_supports`` entry: matched a ground order


def resolve_movement(
    position: Position,
    orders: Mapping[Power, Sequence[Order]],
    game_map: GameMap,
    *,
    air_supports: Sequence[tuple[Power, SupportHold | SupportMove]] = (),
) -> MovementOutcome:
    """Adjudicate one movement phase. Pure: the position and the orders are not changed.

    ``air_supports`` (the Dirigible variant): supports given from above to the ground unit in,
    or moving into, the supporter's own province, already known to be uncut (only dirigibles
    cut them). Each adds strength like a ground support the ground units cannot touch.
    """
    return _Phase(position, orders, game_map, air_supports).run()


@dataclass(slots=True)
class _Submitted:
    power: Power
    order: Order
    unit_province: str | None = None  # the ordered unit's province, once found
    destination: str = ""  # the province a move, support or convoy is aimed at
    target: str = ""  # supports: the supported unit's province; convoys: the army's province
    void: str = ""  # the reason, for an order without effect
    entry: Prepared | None = None  # the prepared order this one became, if legal
    destination_location: str = ""  # moves: where the unit ends if it moves


class _Phase:
    """The state of one adjudication; every helper reads the board, none changes it."""

    def __init__(
        self,
        position: Position,
        orders: Mapping[Power, Sequence[Order]],
        game_map: GameMap,
        air_supports: Sequence[tuple[Power, SupportHold | SupportMove]] = (),
    ):
        self.air_supports = air_supports
        self.map = movement_tables(game_map)
        self.board: Mapping[str, PowerUnit] = position.units  # keyed by province
        self.provinces = sorted(self.board)
        self.submitted = [_Submitted(power, order) for power, seq in orders.items() for order in seq]
        self.entries: list[Prepared] = []
        self.at: dict[str, int] = {}
        for index, province in enumerate(self.provinces):
            self.entries.append(Prepared(index, self.board[province].power, province))
            self.at[province] = index
        self.sea_fleets = frozenset(
            p for p, pu in self.board.items() if pu.unit.type is UnitType.FLEET and p in self.map.sea
        )
        self.sea_neighbours = {p: self.map.fleet_reach[self.board[p].unit.location] for p in self.sea_fleets}
        self.effective: dict[str, _Submitted] = {}  # province -> the order the unit obeys
        self.convoy_routes: dict[tuple[str, str], frozenset[str]] = {}  # (army, destination) -> fleets
        self.convoys_of: dict[tuple[str, str], list[int]] = {}  # (army, destination) -> convoy entries

    # -- the script -------------------------------------------------------------------

    def run(self) -> MovementOutcome:
        for sub in self.submitted:
            sub.void = self._illegal(sub)
        self._pick_one_order_per_unit()
        # Sorted by province, so that nothing depends on the order the orders came in.
        by_kind: dict[type, list[_Submitted]] = {Move: [], Convoy: [], SupportHold: [], SupportMove: []}
        for province in self.provinces:
            sub = self.effective.get(province)
            if sub is not None and type(sub.order) in by_kind:
                by_kind[type(sub.order)].append(sub)
        for sub in by_kind[Convoy]:
            self._prepare_convoy(sub)
        moves = [self._prepare_move(sub) for sub in by_kind[Move]]
        for sub in sorted(by_kind[SupportHold] + by_kind[SupportMove], key=lambda s: s.unit_province):
            self._prepare_support(sub)
        air_given = tuple(self._prepare_air_support(power, order) for power, order in self.air_supports)
        resolver = Resolver(self.entries, self.at, self.sea_neighbours, moves)
        for entry in self.entries:
            if entry.has_decision:
                resolver.resolve(entry.index)
        outcome = _Outcome(self, resolver, moves).build()
        if not air_given:
            return outcome
        return MovementOutcome(outcome.results, outcome.units, outcome.dislodged, outcome.standoffs, air_given)

    # -- legality (DATC 4.E.1: an illegal order is ignored, the unit holds) -------------

    def _illegal(self, sub: _Submitted) -> str:
        order = sub.order
        kind = type(order)
        if kind not in _MOVEMENT_ORDERS:
            return "void: not a movement-phase order"
        province = province_of(order.unit.location)
        here = self.board.get(province)
        if here is None:
            return f"void: no unit at {province}"
        if here.power != sub.power:
            return f"void: {here.unit} is not your unit"
        sub.unit_province = province
        unit = here.unit  # DATC 4.B.5, 4.C.2: a wrong coast or unit type is ignored
        if kind is Move:
            return self._illegal_move(sub, unit, province, order)
        if kind is SupportHold:
            sub.target = sub.destination = province_of(order.supported.location)
            return self._illegal_support(unit, province, sub.target, sub.target, None)
        if kind is SupportMove:
            sub.target = province_of(order.supported.location)
            sub.destination = province_of(order.destination)
            return self._illegal_support(unit, province, sub.target, sub.destination, order.destination)
        if kind is Convoy:
            sub.target = province_of(order.army.location)
            sub.destination = province_of(order.destination)
            return self._illegal_convoy(unit, province, sub.target, sub.destination)
        return ""

    def _illegal_move(self, sub: _Submitted, unit: Unit, origin: str, order: Move) -> str:
        target = province_of(order.destination)
        sub.destination = target
        if target == origin:
            return f"void: {unit} cannot move to its own province"
        if target not in self.map.provinces:
            return f"void: no province {target}"
        if unit.type is UnitType.FLEET:
            location = self._fleet_destination(unit, order.destination)
            if location.startswith("void"):
                return location
            sub.destination_location = location
            return ""
        sub.destination_location = target  # DATC 4.B.6: a coast on an army move is ignored
        adjacent = target in self.map.army.get(origin, _NOTHING)
        if adjacent and not order.via_convoy:
            return ""
        if not self._convoy_possible(origin, target, self.sea_fleets):
            if adjacent:
                return f"void: no fleet could convoy {unit} to {target}"
            return f"void: {origin} does not border {target} and no convoy is possible"
        return ""

    def _fleet_destination(self, unit: Unit, destination: str) -> str:
        """The exact location a fleet moves to, or a void reason (DATC 4.B.1 to 4.B.3)."""
        target = province_of(destination)
        reachable = self.map.fleet_destinations_in(unit.location, target)
        if not reachable:
            return f"void: {unit} cannot reach {target}"
        if target in self.map.split:
            if destination != target:
                if destination in reachable:
                    return destination
                return f"void: {unit} cannot reach {destination}"
            if len(reachable) > 1:
                return f"void: {unit} - {target} needs a coast"
        return reachable[0]  # one possible coast: poorly written but clear (DATC 4.B.2)

    def _convoy_possible(self, origin: str, destination: str, fleets: frozenset[str]) -> bool:
        if origin not in self.map.coastal or destination not in self.map.coastal:
            return False
        return route_exists(origin, destination, fleets, self.sea_neighbours)

    def _illegal_support(
        self, unit: Unit, origin: str, supported: str, target: str, destination: str | None
    ) -> str:
        """``target``: the province support goes into; ``destination``: as written (maybe with a coast)."""
        if supported == origin:
            return f"void: {unit} cannot support itself"
        if target == origin:
            return f"void: {unit} cannot support a move into its own province"
        other = self.board.get(supported)
        if other is None:
            return f"void: no unit at {supported} to support"
        if not self.map.can_reach_province(unit, target):
            return f"void: {origin} does not border {target}"
        if destination is None:
            return ""
        mover = other.unit
        if target == supported:
            return f"void: {mover} cannot move to its own province"
        if mover.type is UnitType.FLEET:
            if destination != target and target in self.map.split:
                possible = destination in self.map.fleet_neighbours(mover.location)
            else:
                possible = bool(self.map.fleet_destinations_in(mover.location, target))
        else:
            possible = target in self.map.army.get(supported, _NOTHING) or self._convoy_possible(
                supported, target, self.sea_fleets - {origin}
            )
        return "" if possible else f"void: {mover} cannot reach {destination}"

    def _illegal_convoy(self, unit: Unit, origin: str, army_province: str, destination: str) -> str:
        if unit.type is not UnitType.FLEET or origin not in self.map.sea:
            return f"void: {unit} is not at sea and cannot convoy"
        army = self.board.get(army_province)
        if army is None or army.unit.type is not UnitType.ARMY:
            return f"void: no army at {army_province} to convoy"
        if destination == army_province or not (
            army_province in self.map.coastal and destination in self.map.coastal
        ):
            return f"void: no convoy can take {army.unit} to {destination}"
        key = (army_province, destination)
        route = self.convoy_routes.get(key)
        if route is None:
            route = fleets_on_some_route(army_province, destination, self.sea_fleets, self.sea_neighbours)
            self.convoy_routes[key] = route
        if origin not in route:
            return f"void: {unit} is on no convoy route from {army_province} to {destination}"
        return ""

    def _pick_one_order_per_unit(self) -> None:
        """Legal orders per unit: one counts; two different ones leave it holding (DATC 4.D.3)."""
        effective = self.effective
        conflicts = set()
        for sub in self.submitted:
            if sub.void:
                continue
            first = effective.get(sub.unit_province)
            if first is None:
                effective[sub.unit_province] = sub
            elif first.order != sub.order:
                conflicts.add(sub.unit_province)
        for sub in self.submitted:
            if not sub.void and sub.unit_province in conflicts:
                sub.void = f"void: conflicting orders for {self.board[sub.unit_province].unit}"
        for province in conflicts:
            del effective[province]

    # -- matching ---------------------------------------------------------------------

    def _prepare_convoy(self, sub: _Submitted) -> None:
        entry = self.entries[self.at[sub.unit_province]]
        entry.kind = CONVOY
        entry.target = sub.target
        entry.destination = sub.destination
        sub.entry = entry
        self.convoys_of.setdefault((entry.target, entry.destination), []).append(entry.index)

    def _prepare_move(self, sub: _Submitted) -> Prepared:
        order = sub.order
        assert isinstance(order, Move)
        entry = self.entries[self.at[sub.unit_province]]
        entry.kind = MOVE
        entry.destination = sub.destination
        entry.has_decision = True
        sub.entry = entry
        if self.board[entry.province].unit.type is UnitType.FLEET:
            return entry
        convoyers = tuple(self.convoys_of.get((entry.province, entry.destination), ()))
        adjacent = entry.destination in self.map.army.get(entry.province, _NOTHING)
        own_fleet_convoys = any(self.entries[c].power == entry.power for c in convoyers)
        # DATC 4.A.3 (2000/2023 rules, no fallback): the convoy route is taken when it is
        # needed, asked for ("via convoy"), or offered by a fleet of the army's own power.
        entry.by_convoy = not adjacent or order.via_convoy or own_fleet_convoys
        if entry.by_convoy:
            entry.convoyers = convoyers
            for c in convoyers:
                self.entries[c].has_decision = True
        return entry

    def _prepare_support(self, sub: _Submitted) -> None:
        entry = self.entries[self.at[sub.unit_province]]
        sub.entry = entry
        order = sub.order
        entry.target = sub.target
        entry.destination = sub.destination
        supported = self.entries[self.at[entry.target]]
        if type(order) is SupportHold:
            entry.kind = SUPPORT_HOLD
            matches = supported.kind != MOVE
        else:
            entry.kind = SUPPORT_MOVE
            matches = supported.kind == MOVE and supported.destination == entry.destination
            if matches and order.destination != entry.destination:  # a coast in the support
                moved_to = self.effective[entry.target].destination_location
                matches = province_of(moved_to) not in self.map.split or moved_to == order.destination
        if matches:
            entry.has_decision = True
            if supported.supporters:
                supported.supporters.append(entry.index)
            else:
                supported.supporters = [entry.index]


    def _prepare_air_support(self, power: Power, order: SupportHold | SupportMove) -> bool:
        """A support from the air as an extra entry no ground move can reach (so never cut
        here); whether it matched the supported unit's order."""
        province = province_of(order.unit.location)
        target = province_of(order.supported.location)
        supported_index = self.at.get(target)
        if supported_index is None:
            return False
        supported = self.entries[supported_index]
        entry = Prepared(len(self.entries), power, "^" + province, target=target)
        if type(order) is SupportHold:
            entry.kind, entry.destination = SUPPORT_HOLD, target
            matches = supported.kind != MOVE
        else:
            entry.kind, entry.destination = SUPPORT_MOVE, province_of(order.destination)
            matches = supported.kind == MOVE and supported.destination == entry.destination
        self.entries.append(entry)
        if matches:
            entry.has_decision = True
            if supported.supporters:
                supported.supporters.append(entry.index)
            else:
                supported.supporters = [entry.index]
        return matches


class _Outcome:
    """Reads results, positions, dislodgements and standoffs off a finished resolver."""

    def __init__(self, phase: _Phase, resolver: Resolver, moves: list[Prepared]):
        self.phase = phase
        self.resolver = resolver
        self.entries = phase.entries
        resolution = resolver.resolution  # every decision is resolved by now
        self.moved = {e.index: resolution[e.index] for e in moves}
        self.dislodged_by: dict[int, int] = {}
        for mover, success in self.moved.items():
            if not success:
                continue
            occupant = phase.at.get(self.entries[mover].destination)
            if occupant is not None and not self.moved.get(occupant, False):
                self.dislodged_by[occupant] = mover

    def build(self) -> MovementOutcome:
        phase = self.phase
        entries = self.entries
        leaving = {entries[i].province for i, moved in self.moved.items() if moved}
        leaving.update(entries[i].province for i in self.dislodged_by)
        units = {p: pu for p, pu in phase.board.items() if p not in leaving}
        power_unit = phase.map.power_unit
        for index, moved in self.moved.items():
            if moved:
                here = phase.board[entries[index].province]
                sub = phase.effective[entries[index].province]
                units[sub.destination] = power_unit(here.power, here.unit.type, sub.destination_location)
        standoffs = self._standoffs(units)
        dislodged = tuple(
            sorted(
                (self._dislodged(victim, mover, units, standoffs) for victim, mover in self.dislodged_by.items()),
                key=lambda d: (d.unit.province, d.power),
            )
        )
        results = tuple(self._result(sub) for sub in phase.submitted)
        return MovementOutcome(results, units, dislodged, frozenset(standoffs))

    def _standoffs(self, units: dict[str, PowerUnit]) -> set[str]:
        """Empty provinces that a move with some prevent strength tried to enter (DATC 6.H.6, 6.H.9)."""
        result = set()
        prevent_strength = self.resolver.prevent_strength
        for province, movers in self.resolver.movers_to.items():
            if province not in units:
                for mover in movers:
                    if prevent_strength(mover) > 0:
                        result.add(province)
                        break
        return result

    def _dislodged(self, victim: int, mover: int, units: dict, standoffs: set[str]) -> DislodgedUnit:
        phase = self.phase
        here = phase.board[self.entries[victim].province]
        attacker = self.entries[mover]
        # DATC 4.A.5 (2023 rules): the attacker's origin is closed only when it came over land.
        closed = set(units) | standoffs | ({attacker.province} if not attacker.by_convoy else set())
        if here.unit.type is UnitType.ARMY:
            options = [p for p in phase.map.army_neighbours(here.unit.province) if p not in closed]
        else:
            options = [loc for loc in phase.map.fleet_neighbours(here.unit.location) if province_of(loc) not in closed]
        return DislodgedUnit(here.power, here.unit, attacker.province, tuple(sorted(options)))

    # -- results and reasons ------------------------------------------------------------

    def _unit_text(self, index: int) -> str:
        return str(self.phase.board[self.entries[index].province].unit)

    def _result(self, sub: _Submitted) -> OrderResult:
        if sub.void:
            return OrderResult(sub.power, sub.order, "void", sub.void)
        obeyed = self.phase.effective[sub.unit_province]
        if obeyed is not sub:  # the same order given twice: both copies share one result
            first = self._result(obeyed)
            return OrderResult(sub.power, sub.order, first.result, first.reason)
        entry = sub.entry
        if entry is None:  # hold
            entry = self.entries[self.phase.at[sub.unit_province]]
            if entry.index in self.dislodged_by:
                return self._fails(sub, f"dislodged by {self._unit_text(self.dislodged_by[entry.index])}")
            return OrderResult(sub.power, sub.order, "succeeds", "held")
        if entry.kind == MOVE:
            return self._move_result(sub, entry)
        if entry.kind == CONVOY:
            return self._convoy_result(sub, entry)
        return self._support_result(sub, entry)

    def _fails(self, sub: _Submitted, reason: str) -> OrderResult:
        return OrderResult(sub.power, sub.order, "fails", reason)

    def _with_dislodgement(self, entry: Prepared, reason: str) -> str:
        if entry.index in self.dislodged_by:
            return f"{reason}; dislodged by {self._unit_text(self.dislodged_by[entry.index])}"
        return reason

    def _move_result(self, sub: _Submitted, entry: Prepared) -> OrderResult:
        if self.moved[entry.index]:
            return OrderResult(sub.power, sub.order, "succeeds", f"moved to {entry.destination}")
        if entry.by_convoy and not self.resolver.path(entry.index):
            reason = "convoy disrupted" if entry.convoyers else "no convoy ordered"
        else:
            occupant = self.phase.at.get(entry.destination)
            own_unit_stays = (
                occupant is not None
                and self.entries[occupant].power == entry.power
                and not self.moved.get(occupant, False)
            )
            if own_unit_stays and self.resolver.attack_strength(entry.index) == 0:
                reason = f"cannot dislodge own unit at {entry.destination}"
            else:
                reason = f"bounced at {entry.destination}"
        return self._fails(sub, self._with_dislodgement(entry, reason))

    def _support_result(self, sub: _Submitted, entry: Prepared) -> OrderResult:
        supported = self.entries[self.phase.at[entry.target]]
        if entry.index not in supported.supporters:
            unit = self._unit_text(supported.index)
            if entry.kind == SUPPORT_HOLD:
                return self._fails(sub, f"{unit} did not hold")
            return self._fails(sub, f"{unit} did not move to {sub.order.destination}")
        if self.resolver.resolve(entry.index):
            return OrderResult(sub.power, sub.order, "succeeds", "support given")
        if entry.index in self.dislodged_by:
            return self._fails(sub, f"dislodged by {self._unit_text(self.dislodged_by[entry.index])}")
        for attacker in self.resolver.movers_to.get(entry.province, ()):
            other = self.entries[attacker]
            if other.power != entry.power and other.province != entry.destination and self.resolver.path(attacker):
                return self._fails(sub, f"support cut by {self._unit_text(attacker)}")
        return self._fails(sub, "support cut")

    def _convoy_result(self, sub: _Submitted, entry: Prepared) -> OrderResult:
        army = self.phase.at[entry.target]
        army_entry = self.entries[army]
        if not entry.has_decision:
            if army_entry.kind == MOVE and army_entry.destination == entry.destination:
                return self._fails(sub, f"{self._unit_text(army)} took the land route")
            return self._fails(sub, f"{self._unit_text(army)} did not move to {entry.destination}")
        if entry.index in self.dislodged_by:
            return self._fails(sub, f"dislodged by {self._unit_text(self.dislodged_by[entry.index])}")
        if not self.resolver.resolve(entry.index):
            return self._fails(sub, "convoy paradox: the fleet holds")
        if not self._on_carrying_route(army_entry, entry):
            return self._fails(sub, "convoy disrupted")
        return OrderResult(sub.power, sub.order, "succeeds", "convoyed")

    def _on_carrying_route(self, army: Prepared, fleet: Prepared) -> bool:
        """Whether kept convoys join the army's coast to this fleet and this fleet to the destination."""
        kept = {self.entries[c].province for c in army.convoyers if self.resolver.resolve(c)}
        neighbours = self.phase.sea_neighbours
        if fleet.province not in kept:
            return False

        def reachable_from(start: str) -> set[str]:
            found = {f for f in kept if start in neighbours[f]}
            frontier = list(found)
            while frontier:
                current = frontier.pop()
                for f in kept:
                    if f not in found and f in neighbours[current]:
                        found.add(f)
                        frontier.append(f)
            return found

        return fleet.province in reachable_from(army.province) and fleet.province in reachable_from(
            army.destination
        )
