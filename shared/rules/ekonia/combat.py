"""Battles: who fights whom in a territory, and how a contest between camps is decided.

Who fights (docs/rules/ekonia.md R49, D9): two states present in a territory are *enemies*
when they are at war (unless one is there only as privateers, D30), when privateers of one
meet the other and their owner does not spare it,
or when one attacks the other's privateers there (``ATTACK PRIVATEERS AT sea``). A state with
no enemy present is no side and keeps its units. States with the same enemies are allies: one
*camp*. Enemies that are linked (A against B, B against C...) fight one battle; unlinked
groups fight separate battles in the same territory.

How a battle is decided: a unit's strength is its attack or defence value times (1 + the sum
of the modifiers that apply to it); bombarding triremes add their strength after that, capped
at 4. Each armed camp rolls a die: the single highest roll adds 1.5, or 2.5 when it is a six
and another camp rolled a one. The strongest camp beats every camp at war with it; the
difference to the strongest of them, rounded (defenders half up, attackers half down), is the
strength that survives. The camps not at war with the winner fight on among themselves.
"""
from __future__ import annotations

import math
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from . import catalogue as C
from .board import Board
from .records import PlannedUnit, SeaLaneRecord, TerritoryRecord
from .state import State, party_of, state_of, unit_order

Unit = PlannedUnit
Camp = tuple[str, ...]  # the states of one camp, sorted
PRIVATEERS = "PRIVATEERS"


@dataclass
class BattleContext:
    """What a battle needs to know beyond the units in it."""

    board: Board
    start: State  # the state at the start of the turn (wars, owners, forts, sea lanes)
    wars: set[tuple[str, str]]  # wars in force once this turn's declarations are made
    turn: int
    seed: int
    morale: Mapping[str, int] = field(default_factory=dict)
    units: Mapping[str, Unit] = field(default_factory=dict)  # every unit's planned place
    bombardments: Iterable[tuple[str, list[str], str, str]] = ()  # power, ship ids, sea, target
    spared: Mapping[str, Iterable[str]] | None = None  # by privateer owner, this turn's orders in
    hunts: Mapping[str, Iterable[str]] = field(default_factory=dict)  # state -> seas it hunts privateers in

    def spares(self, owner: str, other: str) -> bool:
        spared = self.spared if self.spared is not None else {
            p: power["spared"] for p, power in self.start["powers"].items()}
        return other in spared.get(owner, ())

    def hunts_at(self, power: str, tile: str) -> bool:
        return tile in self.hunts.get(power, ())

    def at_war(self, a: str, b: str) -> bool:
        return tuple(sorted((a, b))) in self.wars

    def was_at_war(self, a: str, b: str) -> bool:
        return sorted([a, b]) in self.start["wars"]


def has_privateers(units: Iterable[Unit]) -> bool:
    return any(u["privateer"] for u in units)


def fights_as_privateers(units: Iterable[Unit]) -> bool:
    """A state fights under no flag when every trireme it has in the battle is a privateer (D30)."""
    ships = [u for u in units if u["type"] == "TRIREME"]
    return bool(ships) and all(u["privateer"] for u in ships)


def only_privateers(units: Iterable[Unit]) -> bool:
    """Every unit a state has here is a privateer: it is here under no flag at all."""
    return all(u["privateer"] for u in units)


def hostile(ctx: BattleContext, tile: str, a: str, a_units: list[Unit], b: str, b_units: list[Unit]) -> bool:
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


def sides_at(units: Iterable[Unit]) -> dict[str, list[Unit]]:
    """The parties in a territory, each state's units by its name; a state with privateers and
    units under its flag there has its privateers apart (``party_of``), so that they fight as
    any state's privateers would, whether their owner's flag is there or not (D30)."""
    by_state: dict[str, list[Unit]] = {}
    for unit in sorted(units, key=unit_order):
        by_state.setdefault(unit["owner"], []).append(unit)
    sides: dict[str, list[Unit]] = {}
    for state, mine in by_state.items():
        mixed = has_privateers(mine) and not only_privateers(mine)
        for unit in mine:
            sides.setdefault(party_of(unit) if mixed else state, []).append(unit)
    return sides


def enemies_at(ctx: BattleContext, tile: str, sides: Mapping[str, list[Unit]]) -> dict[str, frozenset[str]]:
    names = sorted(sides)
    found: dict[str, set[str]] = {p: set() for p in names}
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            if hostile(ctx, tile, a, sides[a], b, sides[b]):
                found[a].add(b)
                found[b].add(a)
    return {p: frozenset(e) for p, e in found.items()}


def battles_at(ctx: BattleContext, tile: str, sides: Mapping[str, list[Unit]]) -> list[list[Camp]]:
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


def is_battle(ctx: BattleContext, sides: Mapping[str, list[Unit]], tile: str = "") -> bool:
    return bool(battles_at(ctx, tile, sides))


def camp_label(camp: Camp, sides: Mapping[str, list[Unit]]) -> str:
    """A camp as every side of its battle may name it: its states, privateers unnamed, and its
    units by type. The dice are keyed by it, so a privateer owner's name never moves a die."""
    # privateers of several states look like those of one: one name (D30)
    names = sorted({PRIVATEERS if fights_as_privateers(sides[p]) else p for p in camp})
    counts: dict[str, int] = {}
    for power in camp:
        for unit in sides[power]:
            counts[unit["type"]] = counts.get(unit["type"], 0) + 1
    return "+".join(names) + "|" + ",".join(f"{t}:{n}" for t, n in sorted(counts.items()))


def roll_dice(seed: int, turn: int, tile: str, labels: Sequence[str]) -> dict[str, int]:
    """One die per camp, from a generator of its own keyed by the game's seed, the turn, the
    territory and what the camp looks like, so neither the order of battles, nor of the
    states' orders, nor the names hidden behind privateers change a roll. Camps that look
    alike are told apart by their place among their twins."""
    rolls: dict[str, int] = {}
    count: dict[str, int] = {}
    for label in labels:
        twin = count.get(label, 0)
        count[label] = twin + 1
        key = f"{seed}:{turn}:battle:{tile}:{label}" + (f"#{twin}" if twin else "")
        rolls[label if not twin else f"{label}#{twin}"] = random.Random(key).randint(1, 6)
    return rolls


def dice_bonus(rolls: Mapping[str, int]) -> dict[str, float]:
    best = max(rolls.values())
    leaders = [p for p, r in rolls.items() if r == best]
    bonus = {p: 0.0 for p in rolls}
    if len(leaders) == 1:
        six_one = best == 6 and min(rolls.values()) == 1
        bonus[leaders[0]] = C.DICE_SIX_ONE if six_one else C.DICE_WIN
    return bonus


def round_survivors(difference: float, defending: bool) -> int:
    """Defenders round halves up (1.5 -> 2), attackers round them down (1.5 -> 1)."""
    if defending:
        return math.floor(difference + 0.5 + 1e-9)
    return math.ceil(difference - 0.5 - 1e-9)


def _fort_of(ctx: BattleContext, power: str, near: str) -> bool:
    """Does ``power`` hold a fort next to ``near``?"""
    terrs = ctx.start["territories"]
    return any(terrs[n]["fort"] and terrs[n]["owner"] == power
               for n in ctx.board.land_neighbours(near) if n in terrs)


def _would_be_destroyed(ctx: BattleContext, power: str, tile: str) -> bool:
    others = [t for t, terr in ctx.start["territories"].items()
              if terr["owner"] == power and t != tile]
    elsewhere = [u for u in ctx.units.values() if u["owner"] == power and u["location"] != tile]
    return not others and not elsewhere


def _defends(ctx: BattleContext, power: str, tile: str, units: list[Unit]) -> bool:
    terr = ctx.start["territories"].get(tile)
    if terr and terr["owner"] == power:
        return True
    return any(not u["moved"] for u in units)


def came_out_of_a_yard(ctx: BattleContext, unit: Unit) -> bool:
    """A trireme at sea the turn it left a ship yard: launched from one, or sailed out of a
    fort's or capital's yard (D31). The map already shows everyone such a ship appearing."""
    if unit["type"] != "TRIREME":
        return False
    launched = unit["built"] == ctx.turn and not unit["moved"]
    return launched or (unit["moved"] and unit["entered_from"] in ctx.start["territories"])


def held_under_its_flag(lane: SeaLaneRecord, power: str, unit: Unit) -> bool:
    """Whether the lane was held at the start of the turn under the flag the unit flies: its
    state's, or no flag for privateers (whoever owns them: the map shows no more, D30)."""
    if unit["privateer"]:
        return bool(lane["privateer"])
    return not lane["privateer"] and lane["controller"] == power


def _unit_modifiers(ctx: BattleContext, tile: str, power: str, unit: Unit, defending: bool,
                    side: dict[str, Any]) -> dict[str, float]:
    """The modifiers (fractions) that apply to one unit; ``side`` holds its state's facts in
    this battle. Privateers fight without a nation: no morale, no last stand (D30)."""
    mods: dict[str, float] = {}
    new = unit["built"] == ctx.turn
    if new:
        mods["inexperienced"] = C.INEXPERIENCED
    level = 0 if side["privateers"] else ctx.morale.get(power, 0)
    if level:
        mods[f"morale {level}"] = C.MORALE[level][1]
    lane = ctx.start["sea_lanes"].get(tile)
    if unit["type"] == "TRIREME" and lane and held_under_its_flag(lane, power, unit):
        mods["sea lane trireme"] = C.SEA_LANE_TRIREME
    if side["last_stand"]:
        mods["last stand"] = C.LAST_STAND
    hidden = unit.get("hidden_until") == ctx.turn
    if defending:
        if not unit["moved"] and not new:
            mods["entrenched"] = C.ENTRENCHED
        if side["unprepared"]:
            mods["unprepared"] = C.UNPREPARED
        if side["enemy_fort_near"]:
            mods["enemy fort near"] = C.FORT_NEIGHBOUR
        if hidden and not unit["moved"] and side["ambushed_tile"]:
            mods["ambush"] = C.AMBUSH
        if came_out_of_a_yard(ctx, unit):
            mods["inspecting trade"] = C.INSPECTING_TRADE
        return mods
    if side["flanking"]:
        mods["flanking"] = side["flanking"]
    if unit["type"] == "INFANTRY" and unit["entered_from"] in side["cavalry_directions"]:
        mods["blitz"] = C.BLITZ
    if unit["landed"]:
        mods["amphibious"] = C.AMPHIBIOUS
    if hidden and unit["moved"]:
        mods["surprise"] = C.SURPRISE
    if side["fort_penalty"]:
        mods["fort"] = side["fort_penalty"]
    return mods


@dataclass
class _Camp:
    members: Camp
    label: str
    defending: bool
    armed: bool
    report: dict[str, Any] = field(default_factory=dict)

    @property
    def total(self) -> float:
        return float(self.report["total"])


def _armed(ctx: BattleContext, tile: str, camp: Camp, sides: Mapping[str, list[Unit]], defending: bool) -> bool:
    """A camp whose units have no strength (transports, airships) does not fight: any armed
    enemy overruns it without dice and without losses (D25)."""
    role = "defence" if defending else "attack"
    if any(getattr(C.UNIT_TYPES[u["type"]], role) > 0 for p in camp for u in sides[p] if u["aboard"] is None):
        return True
    return not defending and any(p in camp and target == tile for p, _, _, target in ctx.bombardments)


def _camp_report(ctx: BattleContext, tile: str, camp: _Camp, enemies: list[_Camp],
                 sides: Mapping[str, list[Unit]], roll: int | None, bonus: float) -> dict[str, Any]:
    start = ctx.start
    terr_state = start["territories"].get(tile)
    is_land = terr_state is not None
    defending = camp.defending
    attackers = [p for e in enemies if not e.defending for p in e.members]
    enemy_members = {p for e in enemies for p in e.members}
    privateers = {p: fights_as_privateers(sides[p]) for p in (*camp.members, *enemy_members)}
    fighters = {p: [u for u in sides[p] if u["aboard"] is None] for p in camp.members}
    directions = sorted({u["entered_from"] for p in camp.members for u in fighters[p]
                         if u["moved"] and u["entered_from"]})
    bombard = [(ships, sea) for p, ships, sea, target in ctx.bombardments
               if p in camp.members and target == tile]
    has_fighters = any(fighters.values())
    if not defending and bombard and has_fighters:
        directions = sorted(set(directions) | {sea for _, sea in bombard})
    cavalry_directions = {u["entered_from"] for p in camp.members for u in fighters[p]
                          if u["type"] == "CAVALRY" and u["moved"]}
    owner = terr_state["owner"] if terr_state else None
    breakdown, strength, base = [], 0.0, 0.0
    for power in camp.members:
        side = {
            "privateers": privateers[power],
            "last_stand": not privateers[power] and _would_be_destroyed(ctx, power, tile),
            # privateers' attacks are always unexpected: nobody may know whose they are (D6)
            "unprepared": defending and any(privateers[a] or not ctx.was_at_war(state_of(power), state_of(a))
                                            for a in attackers),
            "enemy_fort_near": defending and is_land and any(_fort_of(ctx, state_of(a), tile) for a in attackers),
            "ambushed_tile": defending and terr_state is not None and _ambush_ground(
                ctx, terr_state, tuple(sorted({state_of(m) for m in camp.members})),
                [state_of(a) for a in attackers]),
            "flanking": C.FLANKING * max(0, len(directions) - 1),
            "cavalry_directions": cavalry_directions,
            "fort_penalty": 0.0,
        }
        if not defending and terr_state is not None and owner and owner not in camp.members \
                and (owner in enemy_members or ctx.at_war(owner, power)):
            owner_defends = any(owner in e.members and e.defending for e in enemies)
            if terr_state["fort"] and owner_defends:
                side["fort_penalty"] = C.FORT_TILE
            elif _fort_of(ctx, owner, tile):
                side["fort_penalty"] = C.FORT_NEIGHBOUR
        for unit in fighters[power]:
            stats = C.UNIT_TYPES[unit["type"]]
            value = stats.defence if defending else stats.attack
            mods = _unit_modifiers(ctx, tile, power, unit, defending, side) if value else {}
            worth = value * max(0.0, 1 + sum(mods.values()))
            base += value
            strength += worth
            breakdown.append({"unit": unit["id"], "owner": power, "type": unit["type"], "base": value,
                              "modifiers": mods, "strength": round(worth, 4)})
    bombard_strength = 0.0
    if not defending and has_fighters:
        bombard_strength = min(C.BOMBARD_CAP, float(sum(len(s) for s, _ in bombard)))
    total = strength + bombard_strength + bonus
    return {
        "powers": list(camp.members), "role": "defender" if defending else "attacker",
        "privateers": sorted(p for p in camp.members if privateers[p]), "armed": camp.armed,
        "units": breakdown,
        "passengers": [{"unit": u["id"], "owner": p, "type": u["type"]}
                       for p in camp.members for u in sides[p] if u["aboard"]],
        "base_strength": base, "strength": round(strength, 4),
        "directions": directions, "bombardment": bombard_strength,
        "roll": roll, "dice_bonus": bonus, "total": round(total, 4),
        "outcome": "untouched", "survivors": None,
    }


def _ambush_ground(ctx: BattleContext, terr_state: TerritoryRecord, defenders: Camp,
                   attackers: Sequence[str]) -> bool:
    """Seed 000: Ambush when "a player moves an army onto an enemy, non-improved tile" (R60, D40):
    land without fort or city (capitals are cities too) owned, at the start of the turn, by an
    enemy of the attackers: a state of the camp they attack, or one at war with one of them.
    Neutral land, the attackers' own land and a bystander's are no enemy tile."""
    if not attackers or terr_state["fort"] or terr_state["city"]:
        return False
    owner = terr_state["owner"]
    if owner is None or owner in attackers:
        return False
    return owner in defenders or any(ctx.at_war(owner, attacker) for attacker in attackers)


def _hostile_camps(ctx: BattleContext, tile: str, a: _Camp, b: _Camp, sides: Mapping[str, list[Unit]]) -> bool:
    return any(hostile(ctx, tile, p, sides[p], q, sides[q]) for p in a.members for q in b.members)


def fight(ctx: BattleContext, tile: str, sides: Mapping[str, list[Unit]],
          rolls: Mapping[str, int] | None = None, camps: Sequence[Camp] | None = None) -> dict[str, Any]:
    """Resolve one battle at ``tile`` between ``camps`` (by default: the only battle there);
    returns the full report (every roll and modifier). ``rolls`` replaces the dice in worked
    examples, keyed by a camp's first state."""
    if camps is None:
        found = battles_at(ctx, tile, sides)
        assert len(found) == 1, f"{len(found)} battles at {tile}"
        camps = found[0]
    sides = {p: sides[p] for camp in camps for p in camp}
    built: list[_Camp] = []
    for members in camps:
        defending = any(_defends(ctx, p, tile, sides[p]) for p in members)
        built.append(_Camp(members, camp_label(members, sides), defending,
                           _armed(ctx, tile, members, sides, defending)))
    armed = [c for c in built if c.armed]
    dice: dict[str, int] = {}
    if len(armed) >= 2:
        if rolls:
            dice = {c.label: rolls[c.members[0] if c.members[0] in rolls else state_of(c.members[0])]
                    for c in armed}
        else:
            drawn = roll_dice(ctx.seed, ctx.turn, tile, [c.label for c in armed])
            dice = _dice_by_camp(armed, drawn)
    bonus = dice_bonus(dice) if dice else {}
    for camp in built:
        enemies = [e for e in built if e is not camp and _hostile_camps(ctx, tile, camp, e, sides)]
        camp.report = _camp_report(ctx, tile, camp, enemies, sides, dice.get(camp.label),
                                   bonus.get(camp.label, 0.0))
    return _outcome(ctx, tile, built, sides)


def _dice_by_camp(armed: list[_Camp], drawn: Mapping[str, int]) -> dict[str, int]:
    """The drawn dice by camp; camps that look alike get their twins' dice in the order of
    their states (the only place where names order anything, and then nobody can tell them apart)."""
    dice: dict[str, int] = {}
    seen: dict[str, int] = {}
    for camp in sorted(armed, key=lambda c: (c.label, c.members)):
        twin = seen.get(camp.label, 0)
        seen[camp.label] = twin + 1
        if twin:
            camp.label = f"{camp.label}#{twin}"
        dice[camp.label] = drawn[camp.label]
    return dice


def survivor_draw(seed: int, turn: int, tile: str, members: Camp, sides: Mapping[str, list[Unit]]) -> dict[str, float]:
    """A place for each state of a winning camp among equally strong, equally old units (D41):
    drawn from the game's seed, the turn, the territory and what everyone sees of the state (its
    name, or ``PRIVATEERS``), so the same battle always keeps the same units, no state is
    favoured for the whole game by its name, and no hidden owner moves the draw."""
    return {power: random.Random(
        f"{seed}:{turn}:survivors:{tile}:{PRIVATEERS if fights_as_privateers(sides[power]) else power}").random()
        for power in members}


def choose_survivors(fighters: list[Unit], worth: Mapping[str, float], strength: int,
                     draw: Mapping[str, float] | None = None) -> set[str]:
    """The winner's units whose strengths add up to as much of ``strength`` as possible
    (a small knapsack in half points), preferring stronger, then older units, flagged ones before
    privateers (as the map tells them apart, never by the privateers' owner), then the units of
    the party placed first by ``draw`` (``survivor_draw``: allies share a narrow win by lot, not by
    name); units of no strength (transports, airships) always survive a won battle."""
    places = draw or {}

    def place(unit: Unit) -> float:  # the unit's party in the battle: its own, or its state's
        party = party_of(unit)
        return places.get(party if party in places else str(unit["owner"]), 0.0)

    order = sorted(fighters, key=lambda u: (-worth[u["id"]], u["built"], u["privateer"], place(u), unit_order(u)))
    best: dict[int, list[str]] = {0: []}
    for unit in order:
        value = round(worth[unit["id"]] * 2)
        if value == 0:
            continue
        for total in sorted(best, reverse=True):
            reach = total + value
            if reach <= strength * 2 and reach not in best:
                best[reach] = best[total] + [unit["id"]]
    kept = set(best[max(best)])
    return kept | {u["id"] for u in fighters if round(worth[u["id"]] * 2) == 0}


def _outcome(ctx: BattleContext, tile: str, camps: list[_Camp], sides: Mapping[str, list[Unit]]) -> dict[str, Any]:
    """The strongest armed camp beats every camp at war with it (an unarmed one is overrun
    without losses); a tie with its strongest enemy destroys them all; the camps not at war
    with it fight on among themselves."""
    destroyed: dict[str, list[str]] = {}
    lost_by: dict[int, list[Unit]] = {}  # camp index -> its units destroyed
    fought: dict[int, set[int]] = {i: set() for i in range(len(camps))}
    open_ = sorted(range(len(camps)), key=lambda i: (not camps[i].armed, -camps[i].total, camps[i].label))
    winner: list[str] | None = None
    survivor_strength: int | None = None
    first = True
    while open_:
        top = open_[0]
        if not camps[top].armed:
            break  # nobody left who can fight
        enemies = [i for i in open_[1:] if _hostile_camps(ctx, tile, camps[top], camps[i], sides)]
        open_.remove(top)
        if not enemies:
            continue
        for i in enemies:
            open_.remove(i)
            fought[top].add(i)
            fought[i].add(top)
        armed_enemies = [i for i in enemies if camps[i].armed]
        best = armed_enemies[0] if armed_enemies else None
        tie = best is not None and camps[top].total == camps[best].total
        for i in enemies:
            camps[i].report["outcome"] = "drawn" if tie else ("lost" if camps[i].armed else "overrun")
            lost_by[i] = [u for p in camps[i].members for u in sides[p]]
        report = camps[top].report
        if tie:
            report["outcome"] = "drawn"
            lost_by[top] = [u for p in camps[top].members for u in sides[p]]
        elif best is None:
            report["outcome"] = "overran"
            lost_by[top] = []
        else:
            report["outcome"] = "won"
            survivors = round_survivors(camps[top].total - camps[best].total, report["role"] == "defender")
            report["survivors"] = survivors
            worth = {b["unit"]: b["base"] for b in report["units"]}
            fighters = [u for p in camps[top].members for u in sides[p] if u["aboard"] is None]
            draw = survivor_draw(ctx.seed, ctx.turn, tile, camps[top].members, sides)
            kept = choose_survivors(fighters, worth, survivors, draw)
            kept |= {u["id"] for p in camps[top].members for u in sides[p] if u["aboard"] in kept}
            lost_by[top] = [u for p in camps[top].members for u in sides[p] if u["id"] not in kept]
        if first:
            winner = None if tie else list(camps[top].members)
            survivor_strength = report["survivors"] if best is not None and not tie else None
            first = False
    party = {u["id"]: p for p, units in sides.items() for u in units}
    for units in lost_by.values():
        for unit in units:
            destroyed.setdefault(party[unit["id"]], []).append(unit["id"])
    bounty = _bounty(camps, lost_by, fought, sides)
    overrun = sorted(p for c in camps if c.report["outcome"] == "overrun" for p in c.members)
    return {"territory": tile, "sides": [c.report for c in camps], "winner": winner,
            "survivor_strength": survivor_strength,
            "destroyed": {p: ids for p, ids in sorted(destroyed.items()) if ids},
            "bounty": bounty, "overrun": overrun}


def _bounty(camps: list[_Camp], lost_by: Mapping[int, list[Unit]], fought: Mapping[int, set[int]],
            sides: Mapping[str, list[Unit]]) -> dict[str, int]:
    """20 gold for every ship destroyed by privateers, won or lost (R43): the ships lost by the
    camps a privateer camp fought, to its privateer state with the most triremes there."""
    bounty: dict[str, int] = {}
    for i, camp in enumerate(camps):
        owners = camp.report["privateers"]
        if not owners:
            continue
        sunk = sum(1 for j in fought[i] for u in lost_by.get(j, []) if C.UNIT_TYPES[u["type"]].naval)
        if sunk:
            paid = state_of(max(owners, key=lambda p: (sum(1 for u in sides[p] if u["privateer"]),
                                                       [-ord(ch) for ch in p])))
            bounty[paid] = bounty.get(paid, 0) + sunk * C.PRIVATEER_BOUNTY
    return bounty
