"""The end of a movement phase: results with their reasons, the new positions, the dislodged
units with their retreats and the standoffs, read off a finished resolver (movement.py runs the
phase; this module only reads what it decided)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from .movement_tables import MovementTables
from .orders import Order, SupportMove, Unit, UnitType, province_of
from .position import DislodgedUnit, OrderResult, Power, PowerUnit, ResultKind
from .resolver import CONVOY, HOLD, MOVE, Prepared, Resolver
from .values import Value

_ARMY: Final = UnitType.ARMY


@dataclass(init=False)
class MovementOutcome(Value):
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



class PhaseBoard:
    """What a movement phase holds that its outcome reads: the phase (movement.py's ``_Phase``)
    extends this class and fills it, so that this module needs nothing of movement.py (which
    imports it). The fields are described there."""

    map: MovementTables
    board: dict[str, PowerUnit]
    numbers: dict[str, int]
    entries: list[Prepared]
    sea_neighbours: dict[str, frozenset[str]]
    powers: list[Power]
    given: list[Order]
    void: list[str]
    ordered: list[Prepared]


class Outcome:
    """Reads results, positions, dislodgements and standoffs off a finished resolver."""

    def __init__(self, phase: PhaseBoard, resolver: Resolver, moves: list[Prepared]):
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
        units, dislodged, standoffs = self.board_after()
        return MovementOutcome(self._results(), units, dislodged, frozenset(standoffs))

    def board_after(self) -> tuple[dict[str, PowerUnit], tuple[DislodgedUnit, ...], set[str]]:
        """The units after the moves (province -> unit, dislodged ones removed), the dislodged
        units with their retreats (by province, then power) and the standoffs."""
        phase = self.phase
        entries = self.entries
        movers = self.movers
        units = dict(phase.board)  # the units that stay, in board order; the movers follow
        for entry in movers:  # (a unit that moved was not dislodged: each province goes once)
            del units[entry.province]
        for victim in self.dislodged_by:
            del units[entries[victim].province]
        tables = phase.map
        for entry in movers:  # an entry's power and unit are those of the board
            unit_type = entry.unit.type
            moved = tables.shared_power_unit(entry.power, unit_type, entry.location)
            units[entry.destination] = moved or PowerUnit(entry.power, Unit(unit_type, entry.location))
        standoffs = self._standoffs(units)
        dislodged = tuple(
            sorted(
                (self._dislodged(victim, mover, units, standoffs) for victim, mover in self.dislodged_by.items()),
                key=lambda d: (d.unit.province, d.power),
            )
        ) if self.dislodged_by else ()
        return units, dislodged, standoffs

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
        here = self.entries[victim]  # its power and unit are the board's
        attacker = self.entries[mover]
        # DATC 4.A.5 (2023 rules): the attacker's origin is closed only when it came over land.
        came_from = attacker.province if not attacker.by_convoy else ""
        if here.unit.type is _ARMY:
            options = [p for p in phase.map.army_neighbours(here.unit.province)
                       if p not in units and p not in standoffs and p != came_from]
        else:
            options = [loc for loc in phase.map.fleet_neighbours(here.unit.location)
                       if (p := province_of(loc)) not in units and p not in standoffs and p != came_from]
        return DislodgedUnit(here.power, here.unit, attacker.province, tuple(sorted(options)))

    # -- results and reasons ------------------------------------------------------------

    def _results(self) -> tuple[OrderResult, ...]:
        """One result per given order, in input order. The same legal order given twice
        shares the result of the entry it became."""
        phase = self.phase
        given, powers = phase.given, phase.powers
        results = []
        for index in range(len(given)):  # (by index: compiled, ``zip`` iterates generically)
            result, reason = self.answer(index)
            results.append(OrderResult(powers[index], given[index], result, reason))
        return tuple(results)

    def answer(self, index: int) -> tuple[ResultKind, str]:
        """The result and its reason for given order ``index``. The common answers are read
        here at once, the others worked out by the ``_..._result`` helpers."""
        reason = self.phase.void[index]
        if reason:
            return "void", reason
        entry = self.phase.ordered[index]  # a legal order: ``entry`` is its unit's
        kind = entry.kind
        if kind == MOVE:
            if self.resolution[entry.index]:
                return "succeeds", self.phase.map.moved_to[entry.arrival]  # "moved to {destination}"
            return self._move_failure(entry)
        if kind == HOLD:
            if entry.index in self.dislodged_by:
                return "fails", f"dislodged by {self._unit_text(self.dislodged_by[entry.index])}"
            return "succeeds", "held"
        if kind == CONVOY:
            return self._convoy_result(entry)
        if entry.has_decision and self.resolution[entry.index]:
            return "succeeds", "support given"
        return self._support_result(entry)

    def _unit_text(self, index: int) -> str:
        return self.entries[index].unit.text

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
                reason = self.phase.map.bounced_at[entry.arrival]  # "bounced at {destination}"
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
