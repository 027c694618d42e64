"""How strong a camp is in a battle (docs/rules/ekonia.md, "Battles"): a unit's strength is
its attack or defence value times (1 + the sum of the modifiers that apply to it); bombarding
triremes add their strength after that, capped at 4. The report of a camp (``camp_report``)
names every unit, modifier and roll; combat.py decides the battle from the reports.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from . import catalogue as C
from .battle_reports import CampOutcome, CampReport, Passenger, UnitStrength
from .position import Holding, SeaLane
from .sides import BattleContext, BattleUnit, Camp, fights_as_privateers
from .state import state_of


def _fort_of(ctx: BattleContext, power: str, near: str) -> bool:
    """Does ``power`` hold a fort next to ``near``?"""
    terrs = ctx.start.territories
    return any(terrs[n].fort and terrs[n].owner == power
               for n in ctx.board.land_neighbours(near) if n in terrs)


def _would_be_destroyed(ctx: BattleContext, power: str, tile: str) -> bool:
    others = [t for t, terr in ctx.start.territories.items() if terr.owner == power and t != tile]
    elsewhere = [u for u in ctx.units.values() if u.owner == power and u.location != tile]
    return not others and not elsewhere


def defends(ctx: BattleContext, power: str, tile: str, units: list[BattleUnit]) -> bool:
    terr = ctx.start.territories.get(tile)
    if terr and terr.owner == power:
        return True
    return any(not u.moved for u in units)


def came_out_of_a_yard(ctx: BattleContext, unit: BattleUnit) -> bool:
    """A trireme at sea the turn it left a ship yard: launched from one, or sailed out of a
    fort's or capital's yard (D31). The map already shows everyone such a ship appearing."""
    if unit.type != "TRIREME":
        return False
    launched = unit.built == ctx.turn and not unit.moved
    return launched or (unit.moved and unit.entered_from in ctx.start.territories)


def held_under_its_flag(lane: SeaLane, power: str, unit: BattleUnit) -> bool:
    """Whether the lane was held at the start of the turn under the flag the unit flies: its
    state's, or no flag for privateers (whoever owns them: the map shows no more, D30)."""
    if unit.privateer:
        return lane.privateer
    return not lane.privateer and lane.controller == power


@dataclass(frozen=True, slots=True)
class SideFacts:
    """One party's facts in a battle, as the modifiers of its units read them (docs/rules/ekonia.md,
    "Battles"): privateers fight without a nation, so with no morale and no last stand (D30)."""

    privateers: bool
    last_stand: bool
    unprepared: bool  # a defender attacked by privateers or by a state not at war with it before
    enemy_fort_near: bool  # a defender next to an attacker's fort
    ambushed_tile: bool  # a defender on enemy ground without fort or city (R60, D40)
    flanking: float  # an attacker's bonus for the directions it comes from
    cavalry_directions: frozenset[str | None]  # where its cavalry came from (infantry blitz)
    fort_penalty: float  # an attacker's malus for the defender's fort, here or next door


def _unit_modifiers(ctx: BattleContext, tile: str, power: str, unit: BattleUnit, defending: bool,
                    side: SideFacts) -> dict[str, float]:
    """The modifiers (fractions) that apply to one unit; ``side`` holds its party's facts in
    this battle."""
    mods = _common_modifiers(ctx, tile, power, unit, side)
    hidden = unit.hidden_until == ctx.turn
    if defending:
        mods.update(_defence_modifiers(ctx, unit, side, hidden))
    else:
        mods.update(_attack_modifiers(unit, side, hidden))
    return mods


def _common_modifiers(ctx: BattleContext, tile: str, power: str, unit: BattleUnit, side: SideFacts) -> dict[str, float]:
    mods: dict[str, float] = {}
    if unit.built == ctx.turn:
        mods["inexperienced"] = C.INEXPERIENCED
    level = 0 if side.privateers else ctx.morale.get(power, 0)
    if level:
        mods[f"morale {level}"] = C.MORALE[level][1]
    lane = ctx.start.sea_lanes.get(tile)
    if unit.type == "TRIREME" and lane and held_under_its_flag(lane, power, unit):
        mods["sea lane trireme"] = C.SEA_LANE_TRIREME
    if side.last_stand:
        mods["last stand"] = C.LAST_STAND
    return mods


def _defence_modifiers(ctx: BattleContext, unit: BattleUnit, side: SideFacts, hidden: bool) -> dict[str, float]:
    mods: dict[str, float] = {}
    if not unit.moved and unit.built != ctx.turn:
        mods["entrenched"] = C.ENTRENCHED
    if side.unprepared:
        mods["unprepared"] = C.UNPREPARED
    if side.enemy_fort_near:
        mods["enemy fort near"] = C.FORT_NEIGHBOUR
    if hidden and not unit.moved and side.ambushed_tile:
        mods["ambush"] = C.AMBUSH
    if came_out_of_a_yard(ctx, unit):
        mods["inspecting trade"] = C.INSPECTING_TRADE
    return mods


def _attack_modifiers(unit: BattleUnit, side: SideFacts, hidden: bool) -> dict[str, float]:
    mods: dict[str, float] = {}
    if side.flanking:
        mods["flanking"] = side.flanking
    if unit.type == "INFANTRY" and unit.entered_from in side.cavalry_directions:
        mods["blitz"] = C.BLITZ
    if unit.landed:
        mods["amphibious"] = C.AMPHIBIOUS
    if hidden and unit.moved:
        mods["surprise"] = C.SURPRISE
    if side.fort_penalty:
        mods["fort"] = side.fort_penalty
    return mods


@dataclass
class BattleCamp:
    """A camp while its battle is worked out (combat.fight): its dice label may gain a twin's
    number, and its report an outcome; the report is frozen, each change a new one."""

    members: Camp
    label: str
    defending: bool
    armed: bool
    found: CampReport | None = None  # once its strength is worked out (camp_report)

    @property
    def report(self) -> CampReport:
        assert self.found is not None, "the camp's strength is not worked out yet"
        return self.found

    def settle(self, outcome: CampOutcome, survivors: int | None = None) -> None:
        self.found = replace(self.report, outcome=outcome, survivors=survivors)

    @property
    def total(self) -> float:
        return float(self.report.total)


def is_armed(ctx: BattleContext, tile: str, camp: Camp, sides: Mapping[str, list[BattleUnit]], defending: bool) -> bool:
    """A camp whose units have no strength (transports, airships) does not fight: any armed
    enemy overruns it without dice and without losses (D25)."""
    role = "defence" if defending else "attack"
    if any(getattr(C.UNIT_TYPES[u.type], role) > 0 for p in camp for u in sides[p] if u.aboard is None):
        return True
    return not defending and any(p in camp and target == tile for p, _, _, target in ctx.bombardments)


@dataclass(frozen=True, slots=True)
class _Sight:
    """A camp's battle as its strength reads it: the ground, its enemies, its units that fight."""

    ground: Holding | None  # the land fought over at the start of the turn; None at sea
    attackers: tuple[str, ...]  # the parties of the attacking enemy camps
    enemies: frozenset[str]  # every party of an enemy camp
    privateers: Mapping[str, bool]  # party -> fights as privateers (the camp's and its enemies')
    fighters: Mapping[str, list[BattleUnit]]  # the camp's parties' units not aboard a transport
    directions: tuple[str, ...]  # where its units come from (and its bombarding ships' seas)
    bombard: tuple[tuple[list[str], str], ...]  # ship ids and their sea, bombarding this tile

    @property
    def has_fighters(self) -> bool:
        return any(self.fighters.values())


def _sight(ctx: BattleContext, tile: str, camp: BattleCamp, enemies: list[BattleCamp],
           sides: Mapping[str, list[BattleUnit]]) -> _Sight:
    enemy_members = frozenset(p for e in enemies for p in e.members)
    fighters = {p: [u for u in sides[p] if u.aboard is None] for p in camp.members}
    bombard = tuple((ships, sea) for p, ships, sea, target in ctx.bombardments
                    if p in camp.members and target == tile)
    directions = {u.entered_from for p in camp.members for u in fighters[p] if u.moved and u.entered_from}
    if not camp.defending and bombard and any(fighters.values()):
        directions |= {sea for _, sea in bombard}
    return _Sight(ground=ctx.start.territories.get(tile),
                  attackers=tuple(p for e in enemies if not e.defending for p in e.members),
                  enemies=enemy_members,
                  privateers={p: fights_as_privateers(sides[p]) for p in (*camp.members, *enemy_members)},
                  fighters=fighters, directions=tuple(sorted(d for d in directions if d)), bombard=bombard)


def _side_facts(ctx: BattleContext, tile: str, camp: BattleCamp, enemies: list[BattleCamp], sight: _Sight,
                power: str) -> SideFacts:
    defending, attackers, ground = camp.defending, sight.attackers, sight.ground
    privateers = sight.privateers[power]
    return SideFacts(
        privateers=privateers,
        last_stand=not privateers and _would_be_destroyed(ctx, power, tile),
        # privateers' attacks are always unexpected: nobody may know whose they are (D6)
        unprepared=defending and any(sight.privateers[a] or not ctx.was_at_war(state_of(power), state_of(a))
                                     for a in attackers),
        enemy_fort_near=defending and ground is not None and any(
            _fort_of(ctx, state_of(a), tile) for a in attackers),
        ambushed_tile=defending and ground is not None and _ambush_ground(
            ctx, ground, tuple(sorted({state_of(m) for m in camp.members})), [state_of(a) for a in attackers]),
        flanking=C.FLANKING * max(0, len(sight.directions) - 1),
        cavalry_directions=frozenset(u.entered_from for p in camp.members for u in sight.fighters[p]
                                     if u.type == "CAVALRY" and u.moved),
        fort_penalty=0.0 if defending else _fort_penalty(ctx, tile, camp, enemies, sight, power))


def _fort_penalty(ctx: BattleContext, tile: str, camp: BattleCamp, enemies: list[BattleCamp], sight: _Sight,
                  power: str) -> float:
    """An attacker against the owner of the land (its enemy here, or at war with it): the fort
    on the tile when the owner defends it, or else a fort of the owner's next door."""
    owner = sight.ground.owner if sight.ground is not None else None
    if sight.ground is None or not owner or owner in camp.members:
        return 0.0
    if owner not in sight.enemies and not ctx.at_war(owner, power):
        return 0.0
    if sight.ground.fort and any(owner in e.members and e.defending for e in enemies):
        return C.FORT_TILE
    return C.FORT_NEIGHBOUR if _fort_of(ctx, owner, tile) else 0.0


def camp_report(ctx: BattleContext, tile: str, camp: BattleCamp, enemies: list[BattleCamp],
                sides: Mapping[str, list[BattleUnit]], roll: int | None, bonus: float) -> CampReport:
    defending = camp.defending
    sight = _sight(ctx, tile, camp, enemies, sides)
    breakdown: list[UnitStrength] = []
    strength, base = 0.0, 0.0
    for power in camp.members:
        side = _side_facts(ctx, tile, camp, enemies, sight, power)
        for unit in sight.fighters[power]:
            stats = C.UNIT_TYPES[unit.type]
            value = stats.defence if defending else stats.attack
            mods = _unit_modifiers(ctx, tile, power, unit, defending, side) if value else {}
            worth = value * max(0.0, 1 + sum(mods.values()))
            base += value
            strength += worth
            breakdown.append(UnitStrength(unit.id, power, unit.type, value, mods, round(worth, 4)))
    bombard_strength = 0.0
    if not defending and sight.has_fighters:
        bombard_strength = min(C.BOMBARD_CAP, float(sum(len(s) for s, _ in sight.bombard)))
    total = strength + bombard_strength + bonus
    return CampReport(
        powers=camp.members, role="defender" if defending else "attacker",
        privateers=tuple(sorted(p for p in camp.members if sight.privateers[p])), armed=camp.armed,
        units=tuple(breakdown),
        passengers=tuple(Passenger(u.id, p, u.type) for p in camp.members for u in sides[p] if u.aboard),
        base_strength=base, strength=round(strength, 4), directions=sight.directions,
        bombardment=bombard_strength, roll=roll, dice_bonus=bonus, total=round(total, 4))


def _ambush_ground(ctx: BattleContext, terr_state: Holding, defenders: Camp,
                   attackers: Sequence[str]) -> bool:
    """Seed 000: Ambush when "a player moves an army onto an enemy, non-improved tile" (R60, D40):
    land without fort or city (capitals are cities too) owned, at the start of the turn, by an
    enemy of the attackers: a state of the camp they attack, or one at war with one of them.
    Neutral land, the attackers' own land and a bystander's are no enemy tile."""
    if not attackers or terr_state.fort or terr_state.city:
        return False
    owner = terr_state.owner
    if owner is None or owner in attackers:
        return False
    return owner in defenders or any(ctx.at_war(owner, attacker) for attacker in attackers)
