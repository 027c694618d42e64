"""Who fights whom in a territory (docs/rules/ekonia.md R49, D9).

Two states present in a territory are *enemies* when they are at war (unless one is there only
as privateers, D30), when privateers of one meet the other and their owner does not spare it,
or when one attacks the other's privateers there (``ATTACK PRIVATEERS AT sea``). A state with
no enemy present is no side and keeps its units. States with the same enemies are allies: one
*camp*. Enemies that are linked (A against B, B against C...) fight one battle; unlinked
groups fight separate battles in the same territory. How strong each camp is: strength.py;
how the battle is decided: combat.py.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from .board import Board
from .position import Ekonia
from .records import PlannedUnit, age_order
from .state import PRIVATEER_PARTY, pair, state_of

Camp = tuple[str, ...]  # the states of one camp, sorted
PRIVATEERS = "PRIVATEERS"


@dataclass(frozen=True, slots=True)
class BattleUnit:
    """A unit where the turn's orders put it, as the battles read it: a planned unit
    (records.PlannedUnit) read once, by ``of``, where a battle's units are gathered
    (``sides_at``); ``hidden_until`` the last turn espionage hides it (R60)."""

    id: str
    type: str
    owner: str
    location: str
    stored: bool
    privateer: bool
    built: int
    aboard: str | None  # the transport or airship it is carried in
    hidden_until: int | None
    moved: bool
    entered_from: str | None  # the territory or sea it came from, or "AIR" (dropped)
    landed: bool  # unloaded or dropped this turn

    @classmethod
    def of(cls, planned: PlannedUnit) -> BattleUnit:
        return cls(planned.id, planned.type, planned.owner, planned.location, planned.stored, planned.privateer,
                   planned.built, planned.aboard, planned.hidden_until, planned.moved, planned.entered_from,
                   planned.landed)

    @property
    def party(self) -> str:
        """Whom it fights for: its state under its flag, or its state's privateers (``party_of``, D30)."""
        return self.owner + (PRIVATEER_PARTY if self.privateer else "")

    @property
    def order(self) -> tuple[int, str, int]:
        """Oldest first (``unit_order``)."""
        return age_order(self.id, self.built)



@dataclass
class BattleContext:
    """What a battle needs to know beyond the units in it."""

    board: Board
    start: Ekonia  # the state at the start of the turn (wars, owners, forts, sea lanes)
    wars: set[tuple[str, str]]  # wars in force once this turn's declarations are made
    turn: int
    seed: int
    morale: Mapping[str, int] = field(default_factory=dict)
    units: Mapping[str, BattleUnit] = field(default_factory=dict)  # every unit's planned place
    bombardments: Iterable[tuple[str, list[str], str, str]] = ()  # power, ship ids, sea, target
    spared: Mapping[str, Iterable[str]] | None = None  # by privateer owner, this turn's orders in
    hunts: Mapping[str, Iterable[str]] = field(default_factory=dict)  # state -> seas it hunts privateers in

    def spares(self, owner: str, other: str) -> bool:
        spared = self.spared if self.spared is not None else {
            p: power.spared for p, power in self.start.powers.items()}
        return other in spared.get(owner, ())

    def hunts_at(self, power: str, tile: str) -> bool:
        return tile in self.hunts.get(power, ())

    def at_war(self, a: str, b: str) -> bool:
        return tuple(sorted((a, b))) in self.wars

    def was_at_war(self, a: str, b: str) -> bool:
        return pair(a, b) in self.start.wars


def has_privateers(units: Iterable[BattleUnit]) -> bool:
    return any(u.privateer for u in units)


def fights_as_privateers(units: Iterable[BattleUnit]) -> bool:
    """A state fights under no flag when every trireme it has in the battle is a privateer (D30)."""
    ships = [u for u in units if u.type == "TRIREME"]
    return bool(ships) and all(u.privateer for u in ships)


def only_privateers(units: Iterable[BattleUnit]) -> bool:
    """Every unit a state has here is a privateer: it is here under no flag at all."""
    return all(u.privateer for u in units)


def hostile(ctx: BattleContext, tile: str, a: str, a_units: list[BattleUnit], b: str,
            b_units: list[BattleUnit]) -> bool:
    """Enemies here (``a`` and ``b`` are parties: sides_at): never two parties of one state; at
    war, unless one of them is here only as privateers (they fight for no nation, so their
    owner's wars do not tell whose they are: D30); privateers meeting a state their owner does
    not spare; or a state attacking the other's privateers."""
    a_state, b_state = state_of(a), state_of(b)
    if a_state == b_state:
        return False
    if ctx.at_war(a_state, b_state) and not (only_privateers(a_units) or only_privateers(b_units)):
        return True
    for one, mine, other in ((a_state, a_units, b_state), (b_state, b_units, a_state)):
        if has_privateers(mine) and (not ctx.spares(one, other) or ctx.hunts_at(other, tile)):
            return True
    return False


def sides_at(units: Iterable[PlannedUnit]) -> dict[str, list[BattleUnit]]:
    """The parties in a territory (its planned units read as ``BattleUnit``s here), each
    state's units by its name; a state with privateers and
    units under its flag there has its privateers apart (``party_of``), so that they fight as
    any state's privateers would, whether their owner's flag is there or not (D30)."""
    by_state: dict[str, list[BattleUnit]] = {}
    for unit in sorted((BattleUnit.of(u) for u in units), key=lambda u: u.order):
        by_state.setdefault(unit.owner, []).append(unit)
    sides: dict[str, list[BattleUnit]] = {}
    for state, mine in by_state.items():
        mixed = has_privateers(mine) and not only_privateers(mine)
        for unit in mine:
            sides.setdefault(unit.party if mixed else state, []).append(unit)
    return sides


def enemies_at(ctx: BattleContext, tile: str, sides: Mapping[str, list[BattleUnit]]) -> dict[str, frozenset[str]]:
    names = sorted(sides)
    found: dict[str, set[str]] = {p: set() for p in names}
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            if hostile(ctx, tile, a, sides[a], b, sides[b]):
                found[a].add(b)
                found[b].add(a)
    return {p: frozenset(e) for p, e in found.items()}


def battles_at(ctx: BattleContext, tile: str, sides: Mapping[str, list[BattleUnit]]) -> list[list[Camp]]:
    """The battles fought at ``tile``, each a list of camps. States without an enemy here are
    in none; states with the same enemies form one camp; linked enemies one battle."""
    enemies = enemies_at(ctx, tile, sides)
    battles: list[list[Camp]] = []
    seen: set[str] = set()
    for start in sorted(p for p in enemies if enemies[p]):
        if start in seen:
            continue
        group: set[str] = set()
        todo = [start]
        while todo:
            power = todo.pop()
            if power not in group:
                group.add(power)
                todo.extend(enemies[power] - group)
        seen |= group
        camps: dict[frozenset[str], list[str]] = {}
        for power in sorted(group):
            camps.setdefault(enemies[power], []).append(power)
        battles.append(sorted(tuple(members) for members in camps.values()))
    return battles


def is_battle(ctx: BattleContext, sides: Mapping[str, list[BattleUnit]], tile: str = "") -> bool:
    return bool(battles_at(ctx, tile, sides))


def camp_label(camp: Camp, sides: Mapping[str, list[BattleUnit]]) -> str:
    """A camp as every side of its battle may name it: its states, privateers unnamed, and its
    units by type. The dice are keyed by it, so a privateer owner's name never moves a die."""
    # privateers of several states look like those of one: one name (D30)
    names = sorted({PRIVATEERS if fights_as_privateers(sides[p]) else p for p in camp})
    counts: dict[str, int] = {}
    for power in camp:
        for unit in sides[power]:
            counts[unit.type] = counts.get(unit.type, 0) + 1
    return "+".join(names) + "|" + ",".join(f"{t}:{n}" for t, n in sorted(counts.items()))
