"""Kruijswijk's guess-and-check resolver for a movement phase (DATC 3.0, section 5).

The input is a list of prepared orders (``Prepared``), one per unit on the board, already
checked for legality and matching by ``movement.py``. Three kinds of orders carry a
decision that succeeds or fails: moves (the unit moves), supports (the support is given)
and convoys (the fleet keeps its convoy). ``adjudicate`` states the rules of section 5.B
as conditions on other decisions; ``resolve`` finds a consistent answer, guessing on
cycles and falling back on the backup rule where a cycle has zero or two answers:
circular movement succeeds, convoy paradoxes fail their convoys (the Szykman rule).

All state lives on one ``Resolver`` object per adjudication.
"""
from __future__ import annotations

from typing import Final

from .convoys import route_exists
from .orders import Order, Unit, UnitType

# Module constants are Final throughout the compiled modules: compiled, a Final is a C constant
# or static, any other module global a dict lookup at each use (docs/performance.md, 2026-12-01,
# "The rules engine: a compiled core").
HOLD: Final = "H"
MOVE: Final = "M"
SUPPORT_HOLD: Final = "SH"
SUPPORT_MOVE: Final = "SM"
CONVOY: Final = "C"

_UNRESOLVED: Final = 0
_GUESSING: Final = 1
_RESOLVED: Final = 2
_NO_MOVERS: Final[list[int]] = []  # the movers into a slot nobody moves into: shared, never appended to
_NO_UNIT: Final = Unit(UnitType.ARMY, "")  # the ``unit`` of an entry that stands for no unit on the board


class Prepared:
    """One unit's effective order after validation (void orders become holds).

    A plain class with slots rather than a dataclass: compiled (docs/architecture.md,
    "Performance", "The compiled rules engine"), it is a C struct built without a Python-level ``__init__``."""

    __slots__ = ("index", "power", "province", "kind", "destination", "target", "by_convoy", "convoyers",
                 "supporters", "has_decision", "order", "location", "occupant", "unit", "arrival")

    def __init__(self, index: int, power: str, province: str, target: str = "", unit: Unit = _NO_UNIT) -> None:
        self.index = index
        self.power = power
        self.province = province
        self.unit = unit  # the unit on the board (as the position has it), if the entry is one
        self.kind = HOLD
        self.destination = ""  # the province a move, support or convoy is aimed at (support hold: the target)
        self.target = target  # supports: the supported unit's province; convoys: the army's province
        self.by_convoy = False  # a move that takes the convoy route
        self.convoyers: tuple[int, ...] = ()  # moves: matching convoy orders (entry indices)
        self.supporters: list[int] | tuple[()] = ()  # entries giving this unit matching support
        self.has_decision = False  # moves, matching supports, matching convoys
        # Kept for reading the results back (movement.py), not used by the rules:
        self.order: Order | None = None  # the legal order the unit obeys; None: no order, it holds
        self.location = ""  # moves: the location the unit ends in if it moves (a fleet's coast)
        self.occupant = -1  # moves: the entry of the unit standing at the destination, or -1 (set by Resolver)
        self.arrival = -1  # moves: the slot (number) of the destination province (the step's, else set by Resolver)


class Resolver:
    """Decides every order of one movement phase; create one per adjudication."""

    def __init__(
        self,
        entries: list[Prepared],
        numbers: dict[str, int],
        sea_neighbours: dict[str, frozenset[str]],
        moves: list[Prepared],
    ) -> None:
        # a slot per province (numbers: province -> slot), empty ones with index -1; movement.py says why
        self.entries = entries
        self.sea_neighbours = sea_neighbours
        count = len(entries)
        self.state = [_UNRESOLVED] * count
        self.resolution = [False] * count
        self.dependencies: list[int] = []
        # the moves into each slot (province), and the slots moved into, in the order first met
        self.movers_at: list[list[int]] = [_NO_MOVERS] * count
        self.arrivals: list[int] = []
        self.opponents: dict[int, int] = {}  # move -> the move coming the other way (head to head)
        movers_at, opponents = self.movers_at, self.opponents
        for entry in moves:
            arrival = entry.arrival
            if arrival < 0:  # (a step off the tables knows its slot already: movement.py)
                arrival = entry.arrival = numbers[entry.destination]  # a legal move goes to a province of the map
            movers = movers_at[arrival]
            if movers is _NO_MOVERS:
                movers_at[arrival] = [entry.index]
                self.arrivals.append(arrival)
            else:
                movers.append(entry.index)
            # A head-to-head battle: the unit at the destination moves here, neither by convoy.
            other = entry.occupant = arrival if entries[arrival].index >= 0 else -1  # every strength asks
            if other >= 0 and not entry.by_convoy:
                opposite = entries[other]
                if opposite.kind == MOVE and opposite.destination == entry.province and not opposite.by_convoy:
                    opponents[entry.index] = other

    # -- the generic part: guess, check, backup rule --------------------------------

    def resolve(self, index: int) -> bool:
        states, resolution = self.state, self.resolution
        state = states[index]
        if state == _RESOLVED:
            return resolution[index]
        dependencies = self.dependencies
        if state == _GUESSING:
            if index not in dependencies:
                dependencies.append(index)
            return resolution[index]
        old_count = len(dependencies)
        resolution[index] = False
        states[index] = _GUESSING
        first = self.adjudicate(index)
        if len(dependencies) == old_count:
            if states[index] != _RESOLVED:  # the backup rule may have settled it
                resolution[index] = first
                states[index] = _RESOLVED
            return first
        if dependencies[old_count] != index:
            # Depends on a guess made further up: report upwards, keep guessing.
            dependencies.append(index)
            self.resolution[index] = first
            return first
        # The cycle starts here: try the other guess.
        self._forget(old_count)
        self.resolution[index] = True
        self.state[index] = _GUESSING
        second = self.adjudicate(index)
        if first == second:
            self._forget(old_count)
            self.resolution[index] = first
            self.state[index] = _RESOLVED
            return first
        self._backup_rule(old_count)
        return self.resolve(index)

    def _forget(self, old_count: int) -> None:
        for index in self.dependencies[old_count:]:
            self.state[index] = _UNRESOLVED
        del self.dependencies[old_count:]

    def _backup_rule(self, old_count: int) -> None:
        """Zero or two consistent answers: a convoy paradox or circular movement."""
        cycle = self.dependencies[old_count:]
        del self.dependencies[old_count:]
        convoys = [i for i in cycle if self.entries[i].kind == CONVOY]
        for index in cycle:
            kind = self.entries[index].kind
            if convoys and kind == CONVOY:
                self.resolution[index], self.state[index] = False, _RESOLVED  # Szykman
            elif not convoys and kind == MOVE:
                self.resolution[index], self.state[index] = True, _RESOLVED  # circular movement
            else:
                self.state[index] = _UNRESOLVED

    # -- the rules (DATC 5.B) ---------------------------------------------------------

    def adjudicate(self, index: int) -> bool:
        """The rule that decides the order of entry ``index``, by its kind (DATC 5.B). (Plain
        calls rather than a kind -> method table: compiled, they are direct C calls.)"""
        kind = self.entries[index].kind
        if kind == MOVE:
            return self.adjudicate_move(index)
        if kind == CONVOY:
            return self._adjudicate_convoy(index)
        return self._adjudicate_support(index)

    def path(self, index: int) -> bool:
        """A move's PATH: always for land moves, else an unbroken chain of kept convoys."""
        entry = self.entries[index]
        return not entry.by_convoy or self._convoy_path(entry)

    def _convoy_path(self, entry: Prepared) -> bool:
        if not entry.convoyers:
            return False
        by_province = {self.entries[c].province: c for c in entry.convoyers}
        return route_exists(
            entry.province,
            entry.destination,
            by_province,
            self.sea_neighbours,
            lambda province: self.resolve(by_province[province]),
        )

    def opponent(self, index: int) -> int | None:
        """The unit moving the opposite way over the same border (a head-to-head battle)."""
        return self.opponents.get(index)

    def _support_count(self, entry: Prepared, excluded_power: str | None = None) -> int:
        """How many of the entry's matching supports are given (those of ``excluded_power`` not
        counted); asks about each support in turn, the resolved ones without a call."""
        count = 0
        state, resolution = self.state, self.resolution
        for supporter in entry.supporters:
            if excluded_power is not None and self.entries[supporter].power == excluded_power:
                continue
            if resolution[supporter] if state[supporter] == _RESOLVED else self.resolve(supporter):
                count += 1
        return count

    def attack_strength(self, index: int) -> int:
        entry = self.entries[index]
        if entry.by_convoy and not self._convoy_path(entry):
            return 0
        occupant = entry.occupant
        if occupant < 0:
            return 1 + self._support_count(entry) if entry.supporters else 1
        resident = self.entries[occupant]
        if (
            resident.kind == MOVE
            and self.opponents.get(index) is None
            and self.resolve(occupant)
        ):
            return 1 + self._support_count(entry) if entry.supporters else 1
        if resident.power == entry.power:
            return 0
        return 1 + self._support_count(entry, excluded_power=resident.power) if entry.supporters else 1

    def hold_strength(self, occupant: int) -> int:
        """The hold strength of the province whose unit is entry ``occupant`` (-1: none)."""
        if occupant < 0:
            return 0
        resident = self.entries[occupant]
        if resident.kind == MOVE:
            return 0 if self.resolve(occupant) else 1
        return 1 + self._support_count(resident) if resident.supporters else 1

    def prevent_strength(self, index: int) -> int:
        entry = self.entries[index]
        if entry.by_convoy and not self._convoy_path(entry):
            return 0
        opponent = self.opponents.get(index)
        if opponent is not None and self.resolve(opponent):
            return 0
        return 1 + self._support_count(entry) if entry.supporters else 1

    def adjudicate_move(self, index: int) -> bool:
        entry = self.entries[index]
        attack = self.attack_strength(index)
        if attack == 0:
            return False
        opponent = self.opponents.get(index)
        if opponent is not None:
            if attack <= 1 + self._support_count(self.entries[opponent]):
                return False
        elif attack <= self.hold_strength(entry.occupant):
            return False
        rivals = self.movers_at[entry.arrival]
        if len(rivals) > 1:
            for rival in rivals:
                if rival != index and attack <= self.prevent_strength(rival):
                    return False
        return True

    def _adjudicate_support(self, index: int) -> bool:
        entry = self.entries[index]
        attackers = self.movers_at[index]  # (the entry's index is its province's slot)
        if not attackers:
            return True
        for attacker in attackers:
            other = self.entries[attacker]
            if other.power != entry.power and other.province != entry.destination:
                if not other.by_convoy or self._convoy_path(other):
                    return False  # cut
        for attacker in attackers:
            if self.resolve(attacker):
                return False  # dislodged
        return True

    def _adjudicate_convoy(self, index: int) -> bool:
        """The fleet keeps its convoy unless dislodged.

        Attacks are judged with ``adjudicate_move`` rather than ``resolve`` (DATC 5.D): the
        convoy then never depends on a move's own guess, so a convoy paradox forms one
        clean cycle through the convoy and the support it disturbs.
        """
        entry = self.entries[index]
        for attacker in self.movers_at[entry.index]:
            if self.adjudicate_move(attacker):
                return False
        return True
