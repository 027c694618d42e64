"""Movement phase: orders in, results, new unit positions and dislodged units out.

``resolve_movement`` is a short script: look up each ordered unit, check each order's
legality against the board (an illegal order is ``void`` and the unit holds, DATC 4.E.1),
match supports and convoys with the orders they serve, decide every move, support and
convoy with the guess-and-check resolver (``resolver.py``), then read off the results,
the new positions, the dislodged units with their retreats, and the standoffs
(``movement_outcome.py``).

Rule choices follow the DATC 3.0 preferences; docs/rules/datc.md lists them.

Speed (docs/rules/datc.md, "Speed"; docs/architecture.md, "Performance"): a phase costs a few
dozen microseconds, so the per-order
work reads flat per-map tables (``movement_tables.py``) and keeps its bookkeeping in one
``Prepared`` entry per unit and in plain lists per order; the public frozen values
(``OrderResult``, ``DislodgedUnit``) are built once, at the end.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

from .convoys import fleets_on_some_route
from .geography import GameMap
from .movement_outcome import MovementOutcome, Outcome, PhaseBoard
from .movement_tables import movement_tables
from .orders import Convoy, Hold, Move, MovementOrder, Order, SupportHold, SupportMove, Unit, UnitType, province_of
from .position import Position, Power
from .resolver import CONVOY, HOLD, MOVE, SUPPORT_HOLD, SUPPORT_MOVE, Prepared, Resolver

_NOTHING: Final[frozenset[str]] = frozenset()
# Empty defaults of the tables' own dict types (compiled, a dict read is a C call; a Mapping's
# is a method call by name). Never written to.
_NO_STEPS: Final[dict[str, tuple[str, str, int]]] = {}
_NO_INTO: Final[dict[str, tuple[str, ...]]] = {}
# The entry for no unit (index -1), never written to: the board's empty slots, and ``ordered`` for
# an order whose unit was not found.
_NO_ENTRY: Final = Prepared(-1, "", "")
_ARMY: Final = UnitType.ARMY
_FLEET: Final = UnitType.FLEET

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


def settle_movement(position: Position, orders: Mapping[Power, Sequence[Order]], game_map: GameMap) -> Outcome:
    """``resolve_movement`` without air supports, the outcome not yet read (``Outcome``)."""
    return _Phase(position, orders, game_map).settle()


class _Phase(PhaseBoard):
    """The state of one adjudication; every helper reads the board, none changes it.

    ``entries`` has a slot per province of the map, numbered in the order of their names
    (``MovementTables.numbers``): a ``Prepared`` for each unit on the board, ``_NO_ENTRY`` where
    no unit stands; ``present`` the units' entries in that order, so that
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
        self.board = units if isinstance(units, dict) else dict(units)
        board = self.board
        self.numbers = numbers = tables.numbers
        self.entries = [_NO_ENTRY] * len(numbers)
        entries = self.entries
        unknown: list[str] = []
        sea, fleet_reach = tables.sea, tables.fleet_reach
        self.sea_neighbours = {}  # fleets at sea: province -> what they border
        for province, here in board.items():
            unit = here.unit
            number = self.occupant_slot(unit) if unit.province == province else numbers.get(province, -1)
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
        self.present = [entry for entry in entries if entry is not _NO_ENTRY]
        self.sea_fleets = frozenset(self.sea_neighbours)
        self.fleet_bits = -1  # the seas with a fleet, as bits (MovementTables.sea_bits): worked out when first asked
        self.powers = []
        self.given = []
        _given_orders(orders, self.powers, self.given)
        self.void = []
        self.ordered = []
        self.convoy_routes: dict[tuple[str, str], frozenset[str]] = {}  # (army, destination) -> fleets
        self.convoys_of: dict[tuple[str, str], list[int]] = {}  # (army, destination) -> convoy entries

    # -- the script -------------------------------------------------------------------

    def run(self) -> MovementOutcome:
        self._read_orders()
        moves = self._match_orders()
        air_given = tuple(self._prepare_air_support(power, order) for power, order in self.air_supports)
        resolver = self._resolve(moves)
        outcome = Outcome(self, resolver, moves).build()
        if not air_given:
            return outcome
        return MovementOutcome(outcome.results, outcome.units, outcome.dislodged, outcome.standoffs, air_given)

    def settle(self) -> Outcome:
        """The phase resolved (no air supports), its outcome left to be read as the caller needs:
        the contract writes its document from it without building the results and positions
        it does not print (document.py)."""
        self._read_orders()
        moves = self._match_orders()
        return Outcome(self, self._resolve(moves), moves)

    def _placed(self, unit: Unit) -> bool:
        """Whether ``unit`` is one of this map's shared units, which carry their place on its
        board (orders.py, Place). A board renumbered for a province the map lacks keeps the
        map's slots for the map's provinces."""
        return unit.place.numbers is self.map.numbers

    def occupant_slot(self, unit: Unit) -> int:
        """The slot of ``unit``'s province (its entry ``_NO_ENTRY`` when nobody stands there);
        -1 for a province the board does not have."""
        return unit.place.slot if self._placed(unit) else self.numbers.get(unit.province, -1)

    def occupant(self, province: str) -> int:
        """The entry index of the unit standing in ``province`` before the moves, or -1."""
        number = self.numbers.get(province, -1)
        return number if number >= 0 and self.entries[number] is not _NO_ENTRY else -1

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
        entries = self.entries
        void, ordered = self.void, self.ordered
        conflicts: list[str] = []
        powers = self.powers
        for index, order in enumerate(self.given):
            power = powers[index]
            entry = _NO_ENTRY
            if not isinstance(order, (Hold, Move, SupportHold, SupportMove, Convoy)):
                reason = "void: not a movement-phase order"
            else:
                province = order.unit.province
                number = self.occupant_slot(order.unit)
                standing = entries[number] if number >= 0 else _NO_ENTRY
                if standing is _NO_ENTRY:
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
        if unit.type is not _FLEET and order.via_convoy:
            step = None
        else:
            step = self._steps_of(unit).get(order.destination)
        if step is not None:  # the common case, a step to a neighbour, read off the table
            entry.order = order  # (each field set alone: compiled, a nested unpacking is generic)
            entry.destination, entry.location, entry.arrival = step[0], step[1], step[2]
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
        supported = order.supported.province
        written: str | None
        if type(order) is SupportMove:
            written = order.destination
            target = order.target  # (its province: tables.province would give the same)
        else:
            target, written = supported, None
        reason = self._illegal_support(unit, entry.province, order.supported, target, written)
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

    def _steps_of(self, unit: Unit) -> dict[str, tuple[str, str, int]]:
        """The moves ``unit`` can make without a convoy (``MovementTables``), read off a shared
        unit of this map itself."""
        if self._placed(unit):
            return unit.place.steps
        steps = self.map.fleet_steps if unit.type is _FLEET else self.map.army_steps
        return steps.get(unit.location, _NO_STEPS)

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
        the chain grows by whole sets of seas at a time (docs/performance.md, 2026-12-02, "The rules
        engine: a numbered board and fewer lookups")."""
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
        self, unit: Unit, origin: str, named: Unit, target: str, destination: str | None
    ) -> str:
        """``named``: the supported unit as the order names it; ``target``: the province support
        goes into; ``destination``: as written (maybe with a coast)."""
        supported = named.province
        if supported == origin:
            return f"void: {unit} cannot support itself"
        if target == origin:
            return f"void: {unit} cannot support a move into its own province"
        slot = self.occupant_slot(named)
        standing = self.entries[slot] if slot >= 0 else _NO_ENTRY
        if standing is _NO_ENTRY:
            return f"void: no unit at {supported} to support"
        mover = standing.unit  # the unit on the board, whatever type and coast the order gave it
        tables = self.map
        if self._placed(unit):
            reach = unit.place.reach
        elif unit.type is _ARMY:
            reach = tables.army.get(unit.province, _NOTHING)
        else:
            reach = tables.fleet_reach.get(unit.location, _NOTHING)
        if target not in reach:
            return f"void: {origin} does not border {target}"
        if destination is None:
            return ""
        if destination in self._steps_of(mover):
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
