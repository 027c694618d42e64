"""Battles: how a contest between camps is decided (who fights whom: sides.py; how strong
each camp is: strength.py).

Each armed camp rolls a die: the single highest roll adds 1.5, or 2.5 when it is a six and
another camp rolled a one. The strongest camp beats every camp at war with it; the difference
to the strongest of them, rounded (defenders half up, attackers half down), is the strength
that survives. The camps not at war with the winner fight on among themselves.
"""
from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence

from . import catalogue as C
from .battle_reports import BattleReport
from .sides import PRIVATEERS, BattleContext, BattleUnit, Camp, battles_at, camp_label, fights_as_privateers, hostile
from .state import state_of
from .strength import BattleCamp, camp_report, defends, is_armed


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


def _hostile_camps(ctx: BattleContext, tile: str, a: BattleCamp, b: BattleCamp,
                   sides: Mapping[str, list[BattleUnit]]) -> bool:
    return any(hostile(ctx, tile, p, sides[p], q, sides[q]) for p in a.members for q in b.members)


def fight(ctx: BattleContext, tile: str, sides: Mapping[str, list[BattleUnit]],
          rolls: Mapping[str, int] | None = None, camps: Sequence[Camp] | None = None) -> BattleReport:
    """Resolve one battle at ``tile`` between ``camps`` (by default: the only battle there);
    returns the full report (every roll and modifier). ``rolls`` replaces the dice in worked
    examples, keyed by a camp's first state."""
    if camps is None:
        found = battles_at(ctx, tile, sides)
        assert len(found) == 1, f"{len(found)} battles at {tile}"
        camps = found[0]
    sides = {p: sides[p] for camp in camps for p in camp}
    built: list[BattleCamp] = []
    for members in camps:
        defending = any(defends(ctx, p, tile, sides[p]) for p in members)
        built.append(BattleCamp(members, camp_label(members, sides), defending,
                           is_armed(ctx, tile, members, sides, defending)))
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
        camp.found = camp_report(ctx, tile, camp, enemies, sides, dice.get(camp.label), bonus.get(camp.label, 0.0))
    return _outcome(ctx, tile, built, sides)


def _dice_by_camp(armed: list[BattleCamp], drawn: Mapping[str, int]) -> dict[str, int]:
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


def survivor_draw(seed: int, turn: int, tile: str, members: Camp,
                  sides: Mapping[str, list[BattleUnit]]) -> dict[str, float]:
    """A place for each state of a winning camp among equally strong, equally old units (D41):
    drawn from the game's seed, the turn, the territory and what everyone sees of the state (its
    name, or ``PRIVATEERS``), so the same battle always keeps the same units, no state is
    favoured for the whole game by its name, and no hidden owner moves the draw."""
    return {power: random.Random(
        f"{seed}:{turn}:survivors:{tile}:{PRIVATEERS if fights_as_privateers(sides[power]) else power}").random()
        for power in members}


def choose_survivors(fighters: list[BattleUnit], worth: Mapping[str, float], strength: int,
                     draw: Mapping[str, float] | None = None) -> set[str]:
    """The winner's units whose strengths add up to as much of ``strength`` as possible
    (a small knapsack in half points), preferring stronger, then older units, flagged ones before
    privateers (as the map tells them apart, never by the privateers' owner), then the units of
    the party placed first by ``draw`` (``survivor_draw``: allies share a narrow win by lot, not by
    name); units of no strength (transports, airships) always survive a won battle."""
    places = draw or {}

    def place(unit: BattleUnit) -> float:  # the unit's party in the battle: its own, or its state's
        party = unit.party
        return places.get(party if party in places else str(unit.owner), 0.0)

    order = sorted(fighters, key=lambda u: (-worth[u.id], u.built, u.privateer, place(u), u.order))
    best: dict[int, list[str]] = {0: []}
    for unit in order:
        value = round(worth[unit.id] * 2)
        if value == 0:
            continue
        for total in sorted(best, reverse=True):
            reach = total + value
            if reach <= strength * 2 and reach not in best:
                best[reach] = best[total] + [unit.id]
    kept = set(best[max(best)])
    return kept | {u.id for u in fighters if round(worth[u.id] * 2) == 0}


def _outcome(ctx: BattleContext, tile: str, camps: list[BattleCamp],
             sides: Mapping[str, list[BattleUnit]]) -> BattleReport:
    """The strongest armed camp beats every camp at war with it (an unarmed one is overrun
    without losses); a tie with its strongest enemy destroys them all; the camps not at war
    with it fight on among themselves."""
    lost_by: dict[int, list[BattleUnit]] = {}  # camp index -> its units destroyed
    fought: dict[int, set[int]] = {i: set() for i in range(len(camps))}
    open_ = sorted(range(len(camps)), key=lambda i: (not camps[i].armed, -camps[i].total, camps[i].label))
    first: tuple[int, int | None, bool] | None = None  # the first clash: the strongest, its best enemy, a tie
    while open_ and camps[open_[0]].armed:  # until nobody is left who can fight
        top = open_.pop(0)
        enemies = [i for i in open_ if _hostile_camps(ctx, tile, camps[top], camps[i], sides)]
        for i in enemies:
            open_.remove(i)
            fought[top].add(i)
            fought[i].add(top)
        if enemies:
            clash = _clash(ctx, tile, camps, top, enemies, sides, lost_by)
            first = first or (top, *clash)
    winner, survivor_strength = _first_winner(camps, first)
    overrun = tuple(sorted(p for c in camps if c.report.outcome == "overrun" for p in c.members))
    return BattleReport(tile, tuple(c.report for c in camps), winner, survivor_strength,
                        _destroyed(lost_by, sides), _bounty(camps, lost_by, fought, sides), overrun)


def _units_of(camp: BattleCamp, sides: Mapping[str, list[BattleUnit]]) -> list[BattleUnit]:
    return [u for p in camp.members for u in sides[p]]


def _clash(ctx: BattleContext, tile: str, camps: list[BattleCamp], top: int, enemies: list[int],
           sides: Mapping[str, list[BattleUnit]], lost_by: dict[int, list[BattleUnit]]) -> tuple[int | None, bool]:
    """Camp ``top`` against ``enemies``: their outcomes written in their reports and their
    losses in ``lost_by``; returns its strongest armed enemy (None: only unarmed ones) and
    whether that one tied with it."""
    armed_enemies = [i for i in enemies if camps[i].armed]
    best = armed_enemies[0] if armed_enemies else None
    tie = best is not None and camps[top].total == camps[best].total
    for i in enemies:
        camps[i].settle("drawn" if tie else ("lost" if camps[i].armed else "overrun"))
        lost_by[i] = _units_of(camps[i], sides)
    lost_by[top] = _strongest_losses(ctx, tile, camps[top], None if best is None else camps[best], tie, sides)
    return best, tie


def _strongest_losses(ctx: BattleContext, tile: str, top: BattleCamp, best: BattleCamp | None, tie: bool,
                      sides: Mapping[str, list[BattleUnit]]) -> list[BattleUnit]:
    """What the strongest camp of a clash loses: all in a tie, nothing overrunning the unarmed,
    and when it wins, what the strength that survives cannot keep (``choose_survivors``)."""
    if tie:
        top.settle("drawn")
        return _units_of(top, sides)
    if best is None:
        top.settle("overran")
        return []
    survivors = round_survivors(top.total - best.total, top.report.defending)
    top.settle("won", survivors)
    worth = {b.unit: b.base for b in top.report.units}
    fighters = [u for u in _units_of(top, sides) if u.aboard is None]
    kept = choose_survivors(fighters, worth, survivors, survivor_draw(ctx.seed, ctx.turn, tile, top.members, sides))
    kept |= {u.id for u in _units_of(top, sides) if u.aboard in kept}
    return [u for u in _units_of(top, sides) if u.id not in kept]


def _first_winner(camps: list[BattleCamp],
                  first: tuple[int, int | None, bool] | None) -> tuple[tuple[str, ...] | None, int | None]:
    """The battle's winner (the camp that won or overran in the first clash) and the strength
    that survived its win (None when it overran or tied)."""
    if first is None:
        return None, None
    top, best, tie = first
    winner = None if tie else camps[top].members
    return winner, camps[top].report.survivors if best is not None and not tie else None


def _destroyed(lost_by: Mapping[int, list[BattleUnit]],
               sides: Mapping[str, list[BattleUnit]]) -> dict[str, tuple[str, ...]]:
    """The ids of the units destroyed, by party."""
    party = {u.id: p for p, units in sides.items() for u in units}
    destroyed: dict[str, list[str]] = {}
    for units in lost_by.values():
        for unit in units:
            destroyed.setdefault(party[unit.id], []).append(unit.id)
    return {p: tuple(ids) for p, ids in sorted(destroyed.items()) if ids}


def _bounty(camps: list[BattleCamp], lost_by: Mapping[int, list[BattleUnit]], fought: Mapping[int, set[int]],
            sides: Mapping[str, list[BattleUnit]]) -> dict[str, int]:
    """20 gold for every ship destroyed by privateers, won or lost (R43): the ships lost by the
    camps a privateer camp fought, to its privateer state with the most triremes there."""
    bounty: dict[str, int] = {}
    for i, camp in enumerate(camps):
        owners = camp.report.privateers
        if not owners:
            continue
        sunk = sum(1 for j in fought[i] for u in lost_by.get(j, []) if C.UNIT_TYPES[u.type].naval)
        if sunk:
            paid = state_of(max(owners, key=lambda p: (sum(1 for u in sides[p] if u.privateer),
                                                       [-ord(ch) for ch in p])))
            bounty[paid] = bounty.get(paid, 0) + sunk * C.PRIVATEER_BOUNTY
    return bounty
