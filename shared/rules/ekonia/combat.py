"""Battles: territory by territory, every side against every other, one winner.

A unit's strength is its attack or defence value times (1 + the sum of the modifiers that
apply to it); modifiers add up, they do not multiply. Bombarding triremes add their strength
after that, capped at 4. Each side rolls a die: the single highest roll adds 1.5, or 2.5 when
it is a six and another side rolled a one. The highest total wins; the difference to the
runner-up, rounded (defenders half up, attackers half down), is the strength that survives.
"""
from __future__ import annotations

import math
import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from . import catalogue as C
from .board import Board
from .state import State, unit_order

Unit = dict[str, Any]


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

    def spares(self, owner: str, other: str) -> bool:
        spared = self.spared if self.spared is not None else {
            p: power["spared"] for p, power in self.start["powers"].items()}
        return other in spared.get(owner, ())

    def at_war(self, a: str, b: str) -> bool:
        return tuple(sorted((a, b))) in self.wars

    def was_at_war(self, a: str, b: str) -> bool:
        return sorted([a, b]) in self.start["wars"]


def hostile(ctx: BattleContext, a: str, a_units: list[Unit], b: str, b_units: list[Unit]) -> bool:
    """At war, or privateers meeting ships of a state their owner does not spare."""
    if ctx.at_war(a, b):
        return True
    if any(u["privateer"] for u in a_units) and not ctx.spares(a, b):
        return True
    return any(u["privateer"] for u in b_units) and not ctx.spares(b, a)


def sides_at(units: Iterable[Unit]) -> dict[str, list[Unit]]:
    sides: dict[str, list[Unit]] = {}
    for unit in sorted(units, key=unit_order):
        sides.setdefault(unit["owner"], []).append(unit)
    return sides


def is_battle(ctx: BattleContext, sides: Mapping[str, list[Unit]]) -> bool:
    names = sorted(sides)
    return any(hostile(ctx, a, sides[a], b, sides[b])
               for i, a in enumerate(names) for b in names[i + 1:])


def roll_dice(seed: int, turn: int, tile: str, powers: list[str]) -> dict[str, int]:
    """One die per side from a generator for this battle only, so the order of battles and
    of the states' orders never changes a roll."""
    rng = random.Random(f"{seed}:{turn}:battle:{tile}")
    return {power: rng.randint(1, 6) for power in sorted(powers)}


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


def _unit_modifiers(ctx: BattleContext, tile: str, power: str, unit: Unit, defending: bool,
                    side: dict[str, Any]) -> dict[str, float]:
    """The modifiers (fractions) that apply to one unit; ``side`` holds the side-wide facts."""
    mods: dict[str, float] = {}
    new = unit["built"] == ctx.turn
    if new:
        mods["inexperienced"] = C.INEXPERIENCED
    level = ctx.morale.get(power, 0)
    if level:
        mods[f"morale {level}"] = C.MORALE[level][1]
    lanes = ctx.start["sea_lanes"]
    if unit["type"] == "TRIREME" and tile in lanes and lanes[tile]["controller"] == power:
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
        if unit["type"] == "TRIREME" and side["guards_yard"]:
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


def fight(ctx: BattleContext, tile: str, sides: Mapping[str, list[Unit]],
          rolls: Mapping[str, int] | None = None) -> dict[str, Any]:
    """Resolve the battle at ``tile``; returns the full report (every roll and modifier).
    ``rolls`` replaces the dice (worked examples in the tests)."""
    board, start = ctx.board, ctx.start
    is_land = tile in start["territories"]
    terr_state = start["territories"].get(tile)
    roles = {p: _defends(ctx, p, tile, units) for p, units in sides.items()}
    attackers = [p for p in sides if not roles[p]]
    defenders = [p for p in sides if roles[p]]
    armed = [p for p in sides if _can_fight(ctx, tile, p, sides[p], roles[p])]
    if len(armed) < 2:
        return _overrun(tile, sides, armed)
    rolls = dict(rolls) if rolls else roll_dice(ctx.seed, ctx.turn, tile, armed)
    bonus = dice_bonus(rolls)
    reports: dict[str, dict[str, Any]] = {}
    for power, units in sorted((p, sides[p]) for p in armed):
        defending = roles[power]
        fighters = [u for u in units if u["aboard"] is None]
        directions = sorted({u["entered_from"] for u in fighters if u["moved"] and u["entered_from"]})
        bombard = [(ships, sea) for p, ships, sea, target in ctx.bombardments
                   if p == power and target == tile]
        if not defending and bombard and fighters:
            directions = sorted(set(directions) | {sea for _, sea in bombard})
        enemy_owner = terr_state["owner"] if terr_state else None
        side = {
            "last_stand": _would_be_destroyed(ctx, power, tile),
            "unprepared": defending and any(not ctx.was_at_war(power, a) for a in attackers
                                            if hostile(ctx, power, units, a, sides[a])),
            "enemy_fort_near": defending and is_land and any(_fort_of(ctx, a, tile) for a in attackers),
            "ambushed_tile": is_land and bool(attackers) and not terr_state["fort"]
            and not terr_state["city"],  # capitals are cities too
            "guards_yard": not is_land and any(
                start["territories"][n]["shipyard"] and start["territories"][n]["owner"] == power
                for n in board.land_neighbours(tile)),
            "flanking": C.FLANKING * max(0, len(directions) - 1),
            "cavalry_directions": {u["entered_from"] for u in fighters
                                   if u["type"] == "CAVALRY" and u["moved"]},
            "fort_penalty": 0.0,
        }
        if not defending and is_land and enemy_owner and enemy_owner != power:
            manned = terr_state["fort"] and enemy_owner in defenders
            if manned:
                side["fort_penalty"] = C.FORT_TILE
            elif _fort_of(ctx, enemy_owner, tile):
                side["fort_penalty"] = C.FORT_NEIGHBOUR
        breakdown, strength, base = [], 0.0, 0.0
        for unit in fighters:
            stats = C.UNIT_TYPES[unit["type"]]
            value = stats.defence if defending else stats.attack
            mods = _unit_modifiers(ctx, tile, power, unit, defending, side) if value else {}
            worth = value * max(0.0, 1 + sum(mods.values()))
            base += value
            strength += worth
            breakdown.append({"unit": unit["id"], "type": unit["type"], "base": value,
                              "modifiers": mods, "strength": round(worth, 4)})
        bombard_strength = 0.0
        if not defending and fighters:
            ships = sum(len(s) for s, _ in bombard)
            bombard_strength = min(C.BOMBARD_CAP, float(ships))
        total = strength + bombard_strength + bonus[power]
        reports[power] = {
            "power": power, "role": "defender" if defending else "attacker",
            "privateers": all(u["privateer"] for u in units if u["type"] == "TRIREME")
            and any(u["type"] == "TRIREME" for u in units),
            "units": breakdown, "passengers": [u["id"] for u in units if u["aboard"]],
            "base_strength": base, "strength": round(strength, 4),
            "directions": directions, "bombardment": bombard_strength,
            "roll": rolls[power], "dice_bonus": bonus[power], "total": round(total, 4),
        }
    report = _outcome(tile, {p: sides[p] for p in armed}, reports)
    for power in sorted(set(sides) - set(armed)):
        report["destroyed"][power] = [u["id"] for u in sides[power]]
        report["overrun"] = sorted(set(sides) - set(armed))
    return report


def _can_fight(ctx: BattleContext, tile: str, power: str, units: list[Unit], defending: bool) -> bool:
    """A side whose units have no strength (transports, airships) does not fight: any armed
    enemy overruns it without dice and without losses."""
    role = "defence" if defending else "attack"
    if any(getattr(C.UNIT_TYPES[u["type"]], role) > 0 for u in units if u["aboard"] is None):
        return True
    return not defending and any(p == power and target == tile for p, _, _, target in ctx.bombardments)


def _overrun(tile: str, sides: Mapping[str, list[Unit]], armed: list[str]) -> dict[str, Any]:
    winner = armed[0] if armed else None
    destroyed = {p: [u["id"] for u in units] for p, units in sorted(sides.items())
                 if winner is not None and p != winner}
    bounty = {}
    if winner and any(u["privateer"] for u in sides[winner]):
        sunk = [u for p in destroyed for u in sides[p] if C.UNIT_TYPES[u["type"]].naval]
        if sunk:
            bounty[winner] = len(sunk) * C.PRIVATEER_BOUNTY
    return {"territory": tile, "sides": [], "winner": winner, "survivor_strength": None,
            "destroyed": destroyed, "bounty": bounty, "overrun": sorted(destroyed)}


def choose_survivors(fighters: list[Unit], worth: Mapping[str, float], strength: int) -> set[str]:
    """The winner's units whose strengths add up to as much of ``strength`` as possible
    (a small knapsack in half points), preferring stronger, then older units; units of no
    strength (transports, airships) always survive a won battle."""
    order = sorted(fighters, key=lambda u: (-worth[u["id"]], unit_order(u)))
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


def _outcome(tile: str, sides: Mapping[str, list[Unit]], reports: dict[str, dict[str, Any]]) -> dict[str, Any]:
    ranking = sorted(reports, key=lambda p: (-reports[p]["total"], p))
    top, second = ranking[0], ranking[1]
    destroyed = {p: [u["id"] for u in sides[p]] for p in sides}
    winner, survivors = None, 0
    if reports[top]["total"] > reports[second]["total"]:
        winner = top
        difference = reports[top]["total"] - reports[second]["total"]
        survivors = round_survivors(difference, reports[top]["role"] == "defender")
        worth = {b["unit"]: b["base"] for b in reports[top]["units"]}
        fighters = [u for u in sides[top] if u["aboard"] is None]
        kept = choose_survivors(fighters, worth, survivors)
        kept |= {u["id"] for u in sides[top] if u["aboard"] in kept}
        destroyed[top] = [u["id"] for u in sides[top] if u["id"] not in kept]
    bounty = {}
    if winner and reports[winner]["privateers"]:
        ships = sum(1 for p in sides if p != winner for u in sides[p]
                    if u["id"] in destroyed[p] and C.UNIT_TYPES[u["type"]].naval)
        if ships:
            bounty[winner] = ships * C.PRIVATEER_BOUNTY
    return {"territory": tile, "sides": [reports[p] for p in sorted(reports)],
            "winner": winner, "survivor_strength": survivors,
            "destroyed": {p: ids for p, ids in sorted(destroyed.items()) if ids},
            "bounty": bounty}
