"""One turn of Tale of Ekonia, as a readable script over pure steps.

1. read every state's orders; plan them on its own units (planning.py), twice: the first
   pass finds the gold given, the second lets the receivers spend it;
2. diplomacy (wars, peace, trade proposals, spared states) and gold paid;
3. units bought, disbanded, moved, loaded, unloaded, dropped;
4. battles, territory by territory (sides.py, strength.py, combat.py);
5. captures, capitals, forts (captures.py); improvements finished; units hidden;
6. sea lanes, trade, espionage, income (economy.py, espionage.py);
7. states destroyed, winners, and the next turn.
"""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from .battle_reports import BattleReport
from .board import Board
from .captures import apply_captures
from .combat import fight
from .economy import ledger, trade_obstacle, update_sea_lanes
from .espionage import Mission, run_missions, target_power
from .orders import Order
from .parser import ParseError, parse_order
from .planning import Plan, plan_orders
from .policy import planning_view
from .public_map import visible_units
from .records import (
    BattleRoll,
    Event,
    Ledger,
    MissionResult,
    MissionRoll,
    OrderResult,
    PlannedUnit,
    Spending,
    TurnDetails,
    as_state,
)
from .sides import BattleContext, BattleUnit, battles_at, sides_at
from .state import State, alive_powers, clone, pair, phase_name, territories_of


@dataclass
class TurnResult:
    phase: str
    orders: dict[str, list[OrderResult]]
    state: State
    next_phase: str
    winners: list[str]
    details: TurnDetails


def read_orders(board: Board, texts: Sequence[str]) -> list[tuple[str, Order | ParseError]]:
    return [(text, parse_order(text, board)) for text in texts]


OrderOutcomes = dict[str, dict[int, tuple[str, str]]]  # state -> order index -> (result, reason)


@dataclass(frozen=True, slots=True)
class TradeOffers:
    """The TRADE proposals of the turn: whom each state proposed to, and the index of each order."""

    offers: Mapping[str, set[str]]  # state -> the states it proposed trade to
    where: Mapping[tuple[str, str, str], int]  # (kind, state, other) -> the order's index


def resolve_turn(state: Mapping[str, Any], board: Board, orders: Mapping[str, Sequence[str]], *,
                 seed: int, settings: Mapping[str, Any] | None = None) -> TurnResult:
    start = clone(as_state(state))
    work = clone(start)
    turn = start["turn"]
    phase = phase_name(turn)
    powers = alive_powers(start)
    read = {p: read_orders(board, list(orders.get(p, ()))) for p in powers}
    plans, received = _plan_all(start, board, powers, read)

    outcome: OrderOutcomes = {p: _gold_expected(p, plans) for p in powers}
    wars, trade_offers = _diplomacy(work, plans, turn, outcome)
    _pay_and_place(work, plans, received)

    fought, bounty = _battles(work, board, start, plans, wars, turn, seed)
    battles = [report.as_json() for report in fought]  # the turn's details and last_turn keep them as JSON

    _hide(work, plans, turn)
    events = _captures(work, board, plans, turn, outcome)
    events += _finish_improvements(work, plans, outcome)
    lane_changes = update_sea_lanes(work)
    _trade(work, board, trade_offers, plans, outcome)

    spending = {p: _spending(plans[p]) for p in powers}
    for p in powers:
        work["spending"][p][phase] = spending[p]
    mission_results, mission_rolls = _missions(start, work, plans, spending, turn, seed, outcome)
    ledgers = {p: _close_the_books(work, board, start, plans[p], p, turn, received[p], bounty.get(p, 0))
               for p in powers}

    destroyed = _eliminate(work)
    winners = _winners(work, turn, settings or {})
    work["turn"] = turn + 1
    work["winners"] = winners
    work["last_turn"] = {"turn": turn, "battles": battles, "events": events,
                         "sea_lanes": lane_changes,
                         "spent": {p: spending[p]["total"] for p in powers},
                         "destroyed_states": destroyed}
    results = {p: _order_results(read[p], plans[p], outcome[p]) for p in powers}
    details: TurnDetails = {"battles": battles, "events": events, "missions": mission_results,
               "rolls": _battle_rolls(fought) + mission_rolls, "ledgers": ledgers, "sea_lanes": lane_changes,
               "spending": spending, "destroyed_states": destroyed}
    return TurnResult(phase, results, work, phase_name(turn + 1), winners, details)


def _plan_all(start: State, board: Board, powers: list[str],
              read: Mapping[str, list[tuple[str, Order | ParseError]]]) -> tuple[dict[str, Plan], dict[str, int]]:
    """Every state's plan on what it may know (V11), twice: the first pass finds the gold given,
    the second lets the receivers spend it. Returns the plans and the gold each receives."""
    valid = {p: [o for _, o in read[p] if not isinstance(o, ParseError)] for p in powers}
    known = {p: planning_view(start, p) for p in powers}
    first = {p: plan_orders(known[p], board, p, valid[p]) for p in powers}
    received: dict[str, int] = defaultdict(int)
    for plan in first.values():
        for _, amount, to in plan.gives:
            received[to] += amount
    return {p: plan_orders(known[p], board, p, valid[p], received=received[p]) for p in powers}, received


def _gold_expected(power: str, plans: Mapping[str, Plan]) -> dict[int, tuple[str, str]]:
    """Each EXPECT of ``power``: whether the gold came from the state it named."""
    found: dict[int, tuple[str, str]] = {}
    for index, amount, source in plans[power].expects:
        came = sum(a for _, a, to in plans[source].gives if to == power) if source in plans else 0
        found[index] = ("ok", f"{came} gold came from {source}") if came >= amount else \
            ("failed", f"{source} gave {came} of the {amount} gold expected")
    return found


def _captures(work: State, board: Board, plans: Mapping[str, Plan], turn: int,
              outcome: OrderOutcomes) -> list[Event]:
    """Captures, capitals and forts (captures.py), and whether each RAZE was done."""
    razes = {p: {at for _, at in plan.razes} for p, plan in plans.items()}
    published = {u["id"] for u in visible_units({**work, "turn": turn + 1}, board)}  # the map after the turn
    events = apply_captures(work, board, turn, razes, published)
    for p, plan in plans.items():
        for index, at in plan.razes:
            done = any(e["event"] == "fort razed" and e["territory"] == at and e["by"] == p
                       for e in events)
            outcome[p][index] = ("ok", "fort razed") if done else \
                ("failed", f"{p} did not hold {at} alone at the end of the turn")
    return events


def _spending(plan: Plan) -> Spending:
    """What a state spent this turn, in all and by place."""
    by_location: dict[str, int] = defaultdict(int)
    for _, gold, where in plan.spent:
        if where:
            by_location[where] += gold
    return {"total": plan.total_spent, "by_location": dict(sorted(by_location.items()))}


def _missions(start: State, work: State, plans: Mapping[str, Plan], spending: Mapping[str, Spending],
              turn: int, seed: int, outcome: OrderOutcomes) -> tuple[list[MissionResult], list[MissionRoll]]:
    """The espionage missions run (espionage.py): their results and rolls."""
    missions = [Mission(p, *m) for p, plan in plans.items() for m in plan.missions]
    start_targets = {(p, i): target_power(start, o) for p, i, o, _ in missions}
    done = run_missions(work, turn, seed, missions, dict(spending), start_targets)
    for mission in done:
        outcome[mission.power][mission.index] = ("ok", "mission succeeded" if mission.success else "mission failed")
    return [m.result_json() for m in done], [m.roll_json() for m in done]


def _close_the_books(work: State, board: Board, start: State, plan: Plan, power: str, turn: int,
                     received: int, bounty: int) -> Ledger:
    """A state's income of the turn (economy.ledger), its gold set to the ledger's end."""
    given = sum(amount for _, amount, _ in plan.gives)
    book = ledger(work, board, power, turn, start_gold=start["powers"][power]["gold"], spent=plan.total_spent,
                  given=given, received=received, refund=plan.refund, bounty=bounty).as_json()
    work["powers"][power]["gold"] = book["end_gold"]
    work["ledger"][power] = book
    return book


def _battle_rolls(battles: list[BattleReport]) -> list[BattleRoll]:
    return [{"kind": "battle", "territory": b.territory, "battle": i, "powers": list(s.powers), "roll": s.roll}
            for i, b in enumerate(battles) for s in b.sides if s.roll is not None]


def _diplomacy(work: State, plans: Mapping[str, Plan], turn: int,
               outcome: OrderOutcomes) -> tuple[set[tuple[str, str]], TradeOffers]:
    wars = {(a, b) for a, b in work["wars"]}
    offers: dict[str, dict[str, set[str]]] = {"PEACE": defaultdict(set), "TRADE": defaultdict(set)}
    where: dict[tuple[str, str, str], int] = {}
    for p, plan in sorted(plans.items()):
        for index, order in plan.diplomacy:
            if order.kind == "WAR":
                wars.add(_war(p, order.other))
                work["war_since"][":".join(pair(p, order.other))] = turn
                outcome[p][index] = ("ok", f"at war with {order.other}")
            elif order.kind in offers:
                offers[order.kind][p].add(order.other)
                where[(order.kind, p, order.other)] = index
            elif order.kind == "END TRADE":
                if pair(p, order.other) in work["trade"]:
                    work["trade"].remove(pair(p, order.other))
                outcome[p][index] = ("ok", f"trade with {order.other} ended")
            elif order.kind == "SPARE":
                spared = set(work["powers"][p]["spared"]) | {order.other}
                work["powers"][p]["spared"] = sorted(spared)
            elif order.kind == "HUNT":
                work["powers"][p]["spared"] = sorted(set(work["powers"][p]["spared"]) - {order.other})
    for p, others in offers["PEACE"].items():
        for other in others:
            index = where[("PEACE", p, other)]
            if p in offers["PEACE"].get(other, set()):
                wars.discard(_war(p, other))
                outcome[p][index] = ("ok", f"peace with {other}")
            else:
                outcome[p][index] = ("failed", f"{other} did not offer peace this turn")
    for a, b in list(wars):
        if sorted([a, b]) in work["trade"]:
            work["trade"].remove(sorted([a, b]))
    work["wars"] = sorted(list(w) for w in wars)
    return wars, TradeOffers(offers["TRADE"], where)


def _war(a: str, b: str) -> tuple[str, str]:
    first, second = pair(a, b)
    return first, second


def _pay_and_place(work: State, plans: Mapping[str, Plan], received: Mapping[str, int]) -> None:
    for p, plan in plans.items():
        work["powers"][p]["gold"] = work["powers"][p]["gold"] - plan.total_spent + received.get(p, 0)
        work["powers"][p]["next_unit"] = plan.next_unit
        for uid in plan.disbanded:
            work["units"].pop(uid, None)
        for uid, unit in plan.units.items():
            if uid not in plan.disbanded:
                work["units"][uid] = unit.to_document()  # without the fields of the plan


def _battles(work: State, board: Board, start: State, plans: Mapping[str, Plan],
             wars: set[tuple[str, str]], turn: int, seed: int) -> tuple[list[BattleReport], dict[str, int]]:
    planned = {uid: u for plan in plans.values() for uid, u in plan.units.items()
               if uid not in plan.disbanded}
    ctx = BattleContext(board, start, wars, turn, seed,
                        morale={p: plan.morale for p, plan in plans.items()},
                        units={uid: BattleUnit.of(u) for uid, u in planned.items()},
                        bombardments=[(p, ids, sea, target) for p, plan in plans.items()
                                      for _, ids, sea, target in plan.bombardments],
                        spared={p: work["powers"][p]["spared"] for p in plans},
                        hunts={p: {sea for _, sea in plan.hunts} for p, plan in plans.items()})
    by_place: dict[str, list[PlannedUnit]] = defaultdict(list)
    for unit in planned.values():
        if not unit.stored:
            by_place[unit.location].append(unit)
    battles: list[BattleReport] = []
    bounty: defaultdict[str, int] = defaultdict(int)
    for place in sorted(by_place):
        sides = sides_at(by_place[place])
        if len(sides) < 2:
            continue
        for camps in battles_at(ctx, place, sides):
            report = fight(ctx, place, sides, camps=camps)
            for ids in report.destroyed.values():
                for uid in ids:
                    work["units"].pop(uid, None)
            for p, gold in report.bounty.items():
                bounty[p] += gold
            battles.append(report)
    return battles, dict(bounty)


def _finish_improvements(work: State, plans: Mapping[str, Plan],
                         outcome: OrderOutcomes) -> list[Event]:
    flag: dict[str, Literal["fort", "shipyard", "gas_vent"]] = {"FORT": "fort", "SHIPYARD": "shipyard",
                                                                "GASVENT": "gas_vent"}
    events: list[Event] = []
    for p, plan in sorted(plans.items()):
        for index, kind, at in plan.improvements:
            if work["territories"][at]["owner"] == p:
                work["territories"][at][flag[kind]] = True
                events.append({"event": "built", "what": kind, "territory": at, "by": p})
            else:
                outcome[p][index] = ("failed", f"{at} was lost before the work was done")
    return events


def _hide(work: State, plans: Mapping[str, Plan], turn: int) -> None:
    for unit in work["units"].values():
        if unit["hidden_until"] is not None and unit["hidden_until"] <= turn:
            unit["hidden_until"] = None
    for p, plan in plans.items():
        for uid in plan.hidden_units:
            if uid in work["units"]:
                work["units"][uid]["hidden_until"] = turn + 1
        level = plan.hide_cities
        work["powers"][p]["hide_cities"] = {"turn": turn + 1, "bonus": level} if level else None


def _trade(work: State, board: Board, trade: TradeOffers, plans: Mapping[str, Plan], outcome: OrderOutcomes) -> None:
    offers, where = trade.offers, trade.where
    for p, others in sorted(offers.items()):
        for other in sorted(others):
            index = where[("TRADE", p, other)]
            obstacle = trade_obstacle(work, board, p, other)  # public facts: said first (V7)
            if obstacle is not None:
                outcome[p][index] = ("failed", obstacle)
            elif pair(p, other) in work["trade"]:
                outcome[p][index] = ("ok", f"trading with {other}")
            elif p not in offers.get(other, set()):
                outcome[p][index] = ("failed", f"{other} did not propose trade this turn")
            else:
                if pair(p, other) not in work["trade"]:
                    work["trade"].append(pair(p, other))
                    work["trade"].sort()
                outcome[p][index] = ("ok", f"trading with {other}")


def _eliminate(work: State) -> list[str]:
    gone = []
    for p in alive_powers(work):
        if not territories_of(work, p) and not any(u["owner"] == p for u in work["units"].values()):
            work["powers"][p]["alive"] = False
            work["powers"][p]["capital"] = None
            work["wars"] = [w for w in work["wars"] if p not in w]
            work["trade"] = [t for t in work["trade"] if p not in t]
            gone.append(p)
    return gone


def _winners(work: State, turn: int, settings: Mapping[str, Any]) -> list[str]:
    """The last state standing; a state holding over half the land; or, when the game's
    ``max_turns`` is reached, the states holding the most territories."""
    alive = alive_powers(work)
    if len(alive) <= 1:
        return alive
    land = len(work["territories"])
    held = {p: len(territories_of(work, p)) for p in alive}
    leaders = [p for p in alive if held[p] * 2 > land]
    if leaders:
        return leaders
    max_turns = settings.get("max_turns")
    if max_turns and turn >= int(max_turns):
        best = max(held.values())
        return sorted(p for p in alive if held[p] == best)
    return []


def _order_results(read: list[tuple[str, Order | ParseError]], plan: Plan,
                   outcome: Mapping[int, tuple[str, str]]) -> list[OrderResult]:
    results: list[OrderResult] = []
    index = 0
    for text, order in read:
        if isinstance(order, ParseError):
            results.append({"order": text, "result": "invalid", "reason": order.reason})
            continue
        if index in plan.reasons:
            result, reason = "failed", plan.reasons[index]
        else:
            result, reason = outcome.get(index, ("ok", plan.notes.get(index, "")))
        results.append({"order": order.text(), "result": result, "reason": reason})
        index += 1
    return results
