"""Movement phase: orders in, results, new unit positions and dislodged units out.

``resolve_movement`` is a short script: look up each ordered unit, check each order's
legality against the board (an illegal order is ``void`` and the unit holds, DATC 4.E.1),
match supports and convoys with the orders they serve, decide every move, support and
convoy with the guess-and-check resolver (``resolver.py``), then read off the results,
the new positions, the dislodged units with their retreats, and the standoffs.

Rule choices follow the DATC 3.0 preferences; docs/rules/datc.md lists them.

Speed (docs/rules/datc.md, "Speed"): a phase costs a few dozen microseconds, so the per-order
work reads flat per-map tables (``movement_tables.py``) and keeps its bookkeeping in one
``Prepared`` entry per unit and in plain lists per order; the public frozen values
(``OrderResult``, ``DislodgedUnit``) are built once, at the end.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from .convoys import fleets_on_some_route
from .geography import GameMap
from .movement_tables import movement_tables
from .orders import Convoy, Hold, Move, MovementOrder, Order, SupportHold, SupportMove, Unit, UnitType, province_of
from .position import DislodgedUnit, OrderResult, Position, Power, PowerUnit, ResultKind
from .resolver import CONVOY, HOLD, MOVE, SUPPORT_HOLD, SUPPORT_MOVE, Prepared, Resolver

_NOTHING: Final[frozenset[str]] = frozenset()
# Empty defaults of the tables' own dict types (compiled, a dict read is a C call; a Mapping's
# is a method call by name). Never written to.
_NO_STEPS: Final[dict[str, tuple[str, str]]] = {}
_NO_INTO: Final[dict[str, tuple[str, ...]]] = {}
_NOT_FOUND: Final = Prepared(-1, "", "")  # ``ordered`` for an order whose unit was not found
_ARMY: Final = UnitType.ARMY
_FLEET: Final = UnitType.FLEET

@dataclass(init=False)
class MovementOutcome:
    """An immutable value written like the orders (orders.py says why)."""

    results: Final[tuple[OrderResult, ...]]  # one per input order, in input order
    units: Final[dict[str, PowerUnit]]  # province -> unit after the moves (dislodged ones removed)
    dislodged: Final[tuple[DislodgedUnit, ...]]  # with attacker_from and legal retreats, sorted
    standoffs: Final[frozenset[str]]  # provinces left empty by a standoff (no retreat there)
    air_supports_given: Final[tuple[bool, ...]]  # one per ``air_supports`` entry: matched a ground order

    def __init__(self, results: tuple[OrderResult, ...], units: dict[str, PowerUnit],
                 dislodged: tuple[DislodgedUnit, ...], standoffs: frozenset[str],
                 air_supports_given: tuple[bool, ...] = ()) -> None:
        self.results = results
        self.units = units
        self.dislodged = dislodged
        self.standoffs = standoffs
        self.air_supports_given = air_supports_given


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


class _Phase:
    """The state of one adjudication; every helper reads the board, none changes it.

    ``entries`` has a slot per province of the map, numbered in the order of their names
    (``MovementTables.numbers``): a ``Prepared`` for each unit on the board, ``empty`` (index -1,
    never written to) where no unit stands; ``present`` the units' entries in that order, so that
    nothing depends on the order the orders came in. (A numbered board needs neither a sort nor a
    province -> entry dict built per phase.) ``given`` holds the orders as given (``powers``
    beside it: two lists, not a tuple per order), with ``void``
    (why an order has no effect, or "") and ``ordered`` (the ordered unit's entry, once found)
    beside them.
    """

    def __init__(
        self,
        position: Position,
        orders: Mapping[Power, Sequence[Order]],
        game_map: GameMap,
        air_supports: Sequence[tuple[Power, SupportHold | SupportMove]] = (),
    ):
        self.air_supports = air_supports
        self.map = tables = movement_tables(game_map)
        # keyed by province; read, never written: the position's own dict, else a dict of it (see _NO_STEPS)
        units = position.units
        self.board: dict[str, PowerUnit] = units if isinstance(units, dict) else dict(units)
        board = self.board
        self.numbers = numbers = tables.numbers
        self.empty = empty = Prepared(-1, "", "")
        self.entries: list[Prepared] = [empty] * len(numbers)
        entries = self.entries
        unknown: list[str] = []
        sea, fleet_reach = tables.sea, tables.fleet_reach
        self.sea_neighbours: dict[str, frozenset[str]] = {}  # fleets at sea: province -> what they border
        for province, here in board.items():
            unit = here.unit
            number = numbers.get(province, -1)
            if number < 0:
                unknown.append(province)
            else:
                entries[number] = Prepared(number, here.power, province, "", unit)
            if unit.type is _FLEET and province in sea:
                self.sea_neighbours[province] = fleet_reach[unit.location]
        if unknown:  # a unit in a province the map does not have (only built by hand): numbered after the map's
            self.numbers = numbers = dict(numbers)
            for province in sorted(unknown):
                numbers[province] = len(entries)
                entries.append(Prepared(len(entries), board[province].power, province, "", board[province].unit))
        self.present = [entry for entry in entries if entry is not empty]
        self.sea_fleets = frozenset(self.sea_neighbours)
        self.fleet_bits = -1  # the seas with a fleet, as bits (MovementTables.sea_bits): worked out when first asked
        self.powers: list[Power] = []
        self.given: list[Order] = []
        _given_orders(orders, self.powers, self.given)
        self.void: list[str] = []
        self.ordered: list[Prepared] = []
        self.convoy_routes: dict[tuple[str, str], frozenset[str]] = {}  # (army, destination) -> fleets
        self.convoys_of: dict[tuple[str, str], list[int]] = {}  # (army, destination) -> convoy entries

    # -- the script -------------------------------------------------------------------

    def run(self) -> MovementOutcome:
        self._read_orders()
        moves = self._match_orders()
        air_given = tuple(self._prepare_air_support(power, order) for power, order in self.air_supports)
        resolver = self._resolve(moves)
        outcome = _Outcome(self, resolver, moves).build()
        if not air_given:
            return outcome
        return MovementOutcome(outcome.results, outcome.units, outcome.dislodged, outcome.standoffs, air_given)

    def occupant(self, province: str) -> int:
        """The entry index of the unit standing in ``province`` before the moves, or -1."""
        number = self.numbers.get(province, -1)
        return number if number >= 0 and self.entries[number] is not self.empty else -1

    def _resolve(self, moves: list[Prepared]) -> Resolver:
        """A resolver with every decision made."""
        resolver = Resolver(self.entries, self.numbers, self.sea_neighbours, moves)
        for entry in self.present:
            if entry.has_decision:
                resolver.resolve(entry.index)
        return resolver

    def _read_orders(self) -> None:
        """Check every order; give each unit the legal order it obeys. Two different legal
        orders for one unit leave it holding (DATC 4.D.3); the same order twice counts once."""
        entries, numbers = self.entries, self.numbers
        void, ordered = self.void, self.ordered
        conflicts: list[str] = []
        powers = self.powers
        for index, order in enumerate(self.given):
            power = powers[index]
            entry = _NOT_FOUND
            if not isinstance(order, (Hold, Move, SupportHold, SupportMove, Convoy)):
                reason = "void: not a movement-phase order"
            else:
                province = order.unit.province
                number = numbers.get(province, -1)
                standing = entries[number] if number >= 0 else self.empty
                if standing is self.empty:
                    reason = f"void: no unit at {province}"
                elif standing.power != power:
                    reason = f"void: {standing.unit} is not your unit"
                else:
                    entry = standing
                    if entry.order is None:  # self._check, dispatched by exact type
                        if type(order) is Move:
                            reason = self._check_move(entry, entry.unit, order)
                        elif type(order) is SupportMove or type(order) is SupportHold:
                            reason = self._check_support(entry, entry.unit, order)
                        elif type(order) is Hold:
                            entry.order, reason = order, ""
                        else:
                            reason = self._check(entry, entry.unit, order)
                    else:  # another order for the same unit: checked aside, it only matters if it differs
                        reason = self._check(Prepared(-1, power, province), entry.unit, order)
                        if not reason and entry.order != order and province not in conflicts:
                            conflicts.append(province)
            void.append(reason)
            ordered.append(entry)
        for province in conflicts:
            self._leave_holding(province)

    def _leave_holding(self, province: str) -> None:
        entry = self.entries[self.numbers[province]]
        entry.order, entry.destination, entry.target, entry.location = None, "", "", ""
        entry.kind, entry.has_decision, entry.by_convoy = HOLD, False, False
        reason = f"void: conflicting orders for {self.board[province].unit}"
        for index, ordered in enumerate(self.ordered):
            if ordered is entry and not self.void[index]:
                self.void[index] = reason

    # -- legality (DATC 4.E.1: an illegal order is ignored, the unit holds) -------------

    def _check(self, entry: Prepared, unit: Unit, order: MovementOrder) -> str:
        """Why ``order`` for the unit of ``entry`` (the board's ``unit``: DATC 4.B.5, 4.C.2, a
        wrong coast or unit type in the order is ignored) is void, or "" and the order is
        written into the entry with the provinces it names."""
        if isinstance(order, Move):
            return self._check_move(entry, unit, order)
        if isinstance(order, Hold):
            entry.order = order
            return ""
        if isinstance(order, Convoy):
            return self._check_convoy(entry, unit, order)
        return self._check_support(entry, unit, order)

    def _check_move(self, entry: Prepared, unit: Unit, order: Move) -> str:
        if unit.type is _FLEET:
            step = self.map.fleet_steps.get(unit.location, _NO_STEPS).get(order.destination)
        else:
            step = (None if order.via_convoy
                    else self.map.army_steps.get(unit.location, _NO_STEPS).get(order.destination))
        if step is not None:  # the common case, a step to a neighbour, read off the table
            entry.order = order  # (each field set alone: compiled, a nested unpacking is generic)
            entry.destination, entry.location = step[0], step[1]
            entry.kind, entry.has_decision = MOVE, True
            return ""
        origin = entry.province
        destination = order.destination
        target = self.map.province(destination)
        if target == origin:
            return f"void: {unit} cannot move to its own province"
        if target not in self.map.provinces:
            return f"void: no province {target}"
        if unit.type is _FLEET:
            location = self._fleet_destination(unit, destination, target)
            if location.startswith("void"):
                return location
        else:
            location = target  # DATC 4.B.6: a coast on an army move is ignored
            adjacent = target in self.map.army.get(origin, _NOTHING)
            if not adjacent or order.via_convoy:
                if not self._convoy_possible(origin, target):
                    if adjacent:
                        return f"void: no fleet could convoy {unit} to {target}"
                    return f"void: {origin} does not border {target} and no convoy is possible"
                entry.by_convoy = True  # so far: a fleet of its own may still offer one (_choose_route)
        entry.order, entry.destination, entry.location = order, target, location
        entry.kind, entry.has_decision = MOVE, True
        return ""

    def _check_support(self, entry: Prepared, unit: Unit, order: SupportHold | SupportMove) -> str:
        tables = self.map
        supported = order.supported.province
        written: str | None
        if type(order) is SupportMove:
            written = order.destination
            target = tables.province(written)
        else:
            target, written = supported, None
        reason = self._illegal_support(unit, entry.province, supported, target, written)
        if not reason:
            entry.order, entry.destination, entry.target = order, target, supported
            entry.kind = SUPPORT_HOLD if written is None else SUPPORT_MOVE
        return reason

    def _check_convoy(self, entry: Prepared, unit: Unit, order: Convoy) -> str:
        army = order.army.province
        destination = self.map.province(order.destination)
        reason = self._illegal_convoy(unit, entry.province, army, destination)
        if not reason:
            entry.order, entry.destination, entry.target, entry.kind = order, destination, army, CONVOY
        return reason

    def _fleet_destination(self, unit: Unit, destination: str, target: str) -> str:
        """The exact location a fleet moves to, or a void reason (DATC 4.B.1 to 4.B.3)."""
        reachable = self.map.fleet_into.get(unit.location, _NO_INTO).get(target, ())
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

    def _convoy_possible(self, origin: str, destination: str, without: str = "") -> bool:
        """Whether the fleets at sea (but the one in ``without``) could form a chain from
        ``origin`` to ``destination``. Only whether one exists, unlike the resolver's search
        (``route_exists``), which asks each fleet in turn: so the fleets are bits of one int and
        the chain grows by whole sets of seas at a time (docs/architecture.md, "Performance")."""
        tables = self.map
        if origin not in tables.coastal or destination not in tables.coastal:
            return False
        if self.fleet_bits < 0:
            self.fleet_bits = sum(tables.sea_bits[sea] for sea in self.sea_neighbours)
        fleets = self.fleet_bits & ~tables.sea_bits.get(without, 0)
        reached = tables.seas_beside.get(origin, 0) & fleets  # the fleets beside the army
        last = tables.seas_beside.get(destination, 0)  # a fleet here could land it
        links = tables.sea_links
        while reached:
            if reached & last:
                return True
            grown = reached
            for sea in range(len(links)):
                if reached >> sea & 1:
                    grown |= links[sea] & fleets
            if grown == reached:
                return False
            reached = grown
        return False

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
        tables = self.map
        if unit.type is _ARMY:
            reach = tables.army.get(unit.province, _NOTHING)
        else:
            reach = tables.fleet_reach.get(unit.location, _NOTHING)
        if target not in reach:
            return f"void: {origin} does not border {target}"
        if destination is None:
            return ""
        mover = other.unit
        steps = tables.fleet_steps if mover.type is _FLEET else tables.army_steps
        if destination in steps.get(mover.location, _NO_STEPS):
            return ""  # the common case: a step the mover could take without a convoy
        if target == supported:
            return f"void: {mover} cannot move to its own province"
        if mover.type is _FLEET:
            if destination != target and target in tables.split:
                possible = destination in tables.fleet.get(mover.location, _NOTHING)
            else:
                possible = target in tables.fleet_into.get(mover.location, _NO_INTO)
        else:
            possible = (target in tables.army.get(supported, _NOTHING)
                        or self._convoy_possible(supported, target, origin))
        return "" if possible else f"void: {mover} cannot reach {destination}"

    def _illegal_convoy(self, unit: Unit, origin: str, army_province: str, destination: str) -> str:
        if unit.type is not _FLEET or origin not in self.map.sea:
            return f"void: {unit} is not at sea and cannot convoy"
        army = self.board.get(army_province)
        if army is None or army.unit.type is not _ARMY:
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

    # -- matching ---------------------------------------------------------------------

    def _match_orders(self) -> list[Prepared]:
        """Tie supports and convoys to the orders they serve; returns the moves.

        Convoys first (an army's move looks for its convoys), supports last (a support
        looks at the move it serves); each in province order."""
        moves: list[Prepared] = []
        supports: list[Prepared] = []
        convoys_of = self.convoys_of
        for entry in self.present:
            kind = entry.kind
            if kind == MOVE:
                moves.append(entry)
            elif kind == CONVOY:
                convoys_of.setdefault((entry.target, entry.destination), []).append(entry.index)
            elif kind != HOLD:
                supports.append(entry)
        if convoys_of:
            for entry in moves:
                if self.board[entry.province].unit.type is not _FLEET:
                    self._choose_route(entry)
        for entry in supports:
            self._prepare_support(entry)
        return moves

    def _choose_route(self, entry: Prepared) -> None:
        """An army's move when convoys are ordered: by land or by sea (``by_convoy`` so far:
        the move needs a convoy or asks for one)."""
        convoyers = tuple(self.convoys_of.get((entry.province, entry.destination), ()))
        # DATC 4.A.3 (2000/2023 rules, no fallback): the convoy route is taken when it is
        # needed, asked for ("via convoy"), or offered by a fleet of the army's own power.
        entry.by_convoy = entry.by_convoy or any(self.entries[c].power == entry.power for c in convoyers)
        if entry.by_convoy:
            entry.convoyers = convoyers
            for c in convoyers:
                self.entries[c].has_decision = True

    def _prepare_support(self, entry: Prepared) -> None:
        order = entry.order
        supported = self.entries[self.numbers[entry.target]]
        if entry.kind == SUPPORT_HOLD:
            matches = supported.kind != MOVE
        else:
            matches = supported.kind == MOVE and supported.destination == entry.destination
            # a coast in the support (the kind says the order is a SupportMove)
            if matches and type(order) is SupportMove and order.destination != entry.destination:
                moved_to = supported.location
                matches = self.map.province(moved_to) not in self.map.split or moved_to == order.destination
        if matches:
            self._add_support(supported, entry)

    @staticmethod
    def _add_support(supported: Prepared, entry: Prepared) -> None:
        entry.has_decision = True
        if supported.supporters:
            supported.supporters.append(entry.index)
        else:
            supported.supporters = [entry.index]

    def _prepare_air_support(self, power: Power, order: SupportHold | SupportMove) -> bool:
        """A support from the air as an extra entry no ground move can reach (so never cut
        here); whether it matched the supported unit's order."""
        province = order.unit.province
        target = order.supported.province
        supported_index = self.occupant(target)
        if supported_index < 0:
            return False
        supported = self.entries[supported_index]
        entry = Prepared(len(self.entries), power, "^" + province, target=target)
        if type(order) is SupportMove:
            entry.kind, entry.destination = SUPPORT_MOVE, province_of(order.destination)
            matches = supported.kind == MOVE and supported.destination == entry.destination
        else:
            entry.kind, entry.destination = SUPPORT_HOLD, target
            matches = supported.kind != MOVE
        self.entries.append(entry)
        self.present.append(entry)
        if matches:
            self._add_support(supported, entry)
        return matches


def _given_orders(orders: Mapping[Power, Sequence[Order]], powers: list[Power], given: list[Order]) -> None:
    """Every order given, in the order given, into ``given``, and its power into ``powers``."""
    listed: dict[Power, Sequence[Order]] = orders if type(orders) is dict else dict(orders)
    for power, seq in listed.items():  # (as the rules and the document reader build them: a dict of lists;
        if type(seq) is list:  # compiled, a dict's items and a list's items are read in C)
            in_list: list[Order] = seq
            for order in in_list:
                powers.append(power)
                given.append(order)
        else:
            for order in seq:
                powers.append(power)
                given.append(order)


class _Outcome:
    """Reads results, positions, dislodgements and standoffs off a finished resolver."""

    def __init__(self, phase: _Phase, resolver: Resolver, moves: list[Prepared]):
        self.phase = phase
        self.resolver = resolver
        self.entries = phase.entries
        self.resolution = resolution = resolver.resolution  # every decision is resolved by now
        self.movers = [entry for entry in moves if resolution[entry.index]]  # the moves that succeed
        self.dislodged_by: dict[int, int] = {}
        for mover in self.movers:
            occupant = mover.occupant
            if occupant >= 0 and not self._moved(occupant):
                self.dislodged_by[occupant] = mover.index

    def _moved(self, index: int) -> bool:
        """Whether the unit of entry ``index`` leaves its province by a successful move."""
        return self.entries[index].kind == MOVE and self.resolution[index]

    def build(self) -> MovementOutcome:
        phase = self.phase
        entries = self.entries
        movers = self.movers
        leaving = {entry.province for entry in movers}
        leaving.update(entries[i].province for i in self.dislodged_by)
        units = dict(phase.board)  # the units that stay, in board order; the movers follow
        for province in leaving:
            del units[province]
        tables = phase.map
        for entry in movers:
            here = phase.board[entry.province]
            moved = tables.shared_power_unit(here.power, here.unit.type, entry.location)
            units[entry.destination] = moved or PowerUnit(here.power, Unit(here.unit.type, entry.location))
        standoffs = self._standoffs(units)
        dislodged = tuple(
            sorted(
                (self._dislodged(victim, mover, units, standoffs) for victim, mover in self.dislodged_by.items()),
                key=lambda d: (d.unit.province, d.power),
            )
        ) if self.dislodged_by else ()
        return MovementOutcome(self._results(), units, dislodged, frozenset(standoffs))

    def _standoffs(self, units: dict[str, PowerUnit]) -> set[str]:
        """Empty provinces that a move with some prevent strength tried to enter (DATC 6.H.6, 6.H.9)."""
        result = set()
        resolver = self.resolver
        for arrival in resolver.arrivals:
            movers = resolver.movers_at[arrival]
            province = self.entries[movers[0]].destination
            if province not in units:
                for mover in movers:
                    if resolver.prevent_strength(mover) > 0:
                        result.add(province)
                        break
        return result

    def _dislodged(self, victim: int, mover: int, units: dict[str, PowerUnit], standoffs: set[str]) -> DislodgedUnit:
        phase = self.phase
        here = phase.board[self.entries[victim].province]
        attacker = self.entries[mover]
        # DATC 4.A.5 (2023 rules): the attacker's origin is closed only when it came over land.
        closed = set(units) | standoffs | ({attacker.province} if not attacker.by_convoy else set())
        if here.unit.type is _ARMY:
            options = [p for p in phase.map.army_neighbours(here.unit.province) if p not in closed]
        else:
            options = [loc for loc in phase.map.fleet_neighbours(here.unit.location) if province_of(loc) not in closed]
        return DislodgedUnit(here.power, here.unit, attacker.province, tuple(sorted(options)))

    # -- results and reasons ------------------------------------------------------------

    def _results(self) -> tuple[OrderResult, ...]:
        """One result per given order, in input order. The same legal order given twice
        shares the result of the entry it became. The common answers are read here at once,
        the others worked out by the ``_..._result`` helpers."""
        phase = self.phase
        resolution, dislodged_by = self.resolution, self.dislodged_by
        results = []
        result: ResultKind
        given, powers, void, ordered = phase.given, phase.powers, phase.void, phase.ordered
        for index in range(len(given)):  # (by index: compiled, ``zip`` iterates generically)
            power, order = powers[index], given[index]
            reason, entry = void[index], ordered[index]
            if reason:
                result = "void"
            else:  # a legal order: ``entry`` is its unit's
                kind = entry.kind
                if kind == MOVE:
                    if resolution[entry.index]:
                        result, reason = "succeeds", f"moved to {entry.destination}"
                    else:
                        result, reason = self._move_failure(entry)
                elif kind == HOLD:
                    if entry.index in dislodged_by:
                        result, reason = "fails", f"dislodged by {self._unit_text(dislodged_by[entry.index])}"
                    else:
                        result, reason = "succeeds", "held"
                elif kind == CONVOY:
                    result, reason = self._convoy_result(entry)
                elif entry.has_decision and resolution[entry.index]:
                    result, reason = "succeeds", "support given"
                else:
                    result, reason = self._support_result(entry)
            results.append(OrderResult(power, order, result, reason))
        return tuple(results)

    def _unit_text(self, index: int) -> str:
        return self.phase.board[self.entries[index].province].unit.text

    def _with_dislodgement(self, entry: Prepared, reason: str) -> str:
        if entry.index in self.dislodged_by:
            return f"{reason}; dislodged by {self._unit_text(self.dislodged_by[entry.index])}"
        return reason

    def _move_failure(self, entry: Prepared) -> tuple[ResultKind, str]:
        if entry.by_convoy and not self.resolver.path(entry.index):
            reason = "convoy disrupted" if entry.convoyers else "no convoy ordered"
        else:
            occupant = entry.occupant
            own_unit_stays = (
                occupant >= 0
                and self.entries[occupant].power == entry.power
                and not self._moved(occupant)
            )
            if own_unit_stays:  # then its attack strength is 0 (DATC 5.B, attack strength)
                reason = f"cannot dislodge own unit at {entry.destination}"
            else:
                reason = f"bounced at {entry.destination}"
        return "fails", self._with_dislodgement(entry, reason)

    def _support_result(self, entry: Prepared) -> tuple[ResultKind, str]:
        if not entry.has_decision:  # it matched no order (_prepare_support)
            unit = self._unit_text(self.phase.numbers[entry.target])
            if isinstance(entry.order, SupportMove):
                return "fails", f"{unit} did not move to {entry.order.destination}"
            return "fails", f"{unit} did not hold"
        if self.resolver.resolve(entry.index):
            return "succeeds", "support given"
        if entry.index in self.dislodged_by:
            return "fails", f"dislodged by {self._unit_text(self.dislodged_by[entry.index])}"
        for attacker in self.resolver.movers_at[entry.index]:
            other = self.entries[attacker]
            if other.power != entry.power and other.province != entry.destination and self.resolver.path(attacker):
                return "fails", f"support cut by {self._unit_text(attacker)}"
        return "fails", "support cut"

    def _convoy_result(self, entry: Prepared) -> tuple[ResultKind, str]:
        army = self.phase.numbers[entry.target]
        army_entry = self.entries[army]
        if not entry.has_decision:
            if army_entry.kind == MOVE and army_entry.destination == entry.destination:
                return "fails", f"{self._unit_text(army)} took the land route"
            return "fails", f"{self._unit_text(army)} did not move to {entry.destination}"
        if entry.index in self.dislodged_by:
            return "fails", f"dislodged by {self._unit_text(self.dislodged_by[entry.index])}"
        if not self.resolver.resolve(entry.index):
            return "fails", "convoy paradox: the fleet holds"
        if not self._on_carrying_route(army_entry, entry):
            return "fails", "convoy disrupted"
        return "succeeds", "convoyed"

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
