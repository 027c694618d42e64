"""One turn of Tale of Ekonia, as a readable script over pure steps.

1. read every state's orders; plan them on its own units (planning.py), twice: the first
   pass finds the gold given, the second lets the receivers spend it;
2. diplomacy (wars, peace, trade proposals, spared states) and gold paid;
3. units bought, disbanded, moved, loaded, unloaded, dropped;
4. battles, territory by territory (sides.py, strength.py, combat.py);
5. captures, capitals, forts (captures.py); improvements finished; units hidden;
6. sea lanes, trade, espionage, income (economy.py, espionage.py);
7. states destroyed, winners, and the next turn.

The turn reads the stored document once (``position.Ekonia``) and writes it once; each step
takes the position and returns the next (docs/decisions/0022).
"""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

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
from .position import CityCover, Ekonia, Holding, Pair
from .public_map import shown_units
from .records import (
    BattleRoll,
    EkoniaState,
    Event,
    LastTurn,
    Ledger,
    MissionResult,
    MissionRoll,
    OrderResult,
    PlannedUnit,
    Spending,
    TurnDetails,
)
from .sides import BattleContext, BattleUnit, battles_at, sides_at
from .state import alive_powers, pair, phase_name, territories_of


@dataclass
class TurnResult:
    phase: str
    orders: dict[str, list[OrderResult]]
    state: EkoniaState
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


def resolve_turn(state: EkoniaState, board: Board, orders: Mapping[str, Sequence[str]], *,
                 seed: int, max_turns: int | None = None) -> TurnResult:
    start = Ekonia.from_document(state)
    turn = start.turn
    phase = phase_name(turn)
    powers = alive_powers(start)
    read = {p: read_orders(board, list(orders.get(p, ()))) for p in powers}
    plans, received = _plan_all(state, board, powers, read)

    outcome: OrderOutcomes = {p: _gold_expected(p, plans) for p in powers}
    work, wars, trade_offers = _diplomacy(start, plans, turn, outcome)
    work = _pay_and_place(work, plans, received)

    work, fought, bounty = _battles(work, board, start, plans, wars, turn, seed)
    battles = [report.as_json() for report in fought]  # the turn's details and last_turn keep them as JSON

    work = _hide(work, plans, turn)
    work, events = _captures(work, board, plans, turn, outcome)
    work, built = _finish_improvements(work, plans, outcome)
    events += built
    work, lane_changes = update_sea_lanes(work)
    work = _trade(work, board, trade_offers, outcome)

    spending = {p: _spending(plans[p]) for p in powers}
    work = replace(work, spending={p: {**by_phase, phase: spending[p]} if p in spending else by_phase
                                   for p, by_phase in work.spending.items()})
    work, mission_results, mission_rolls = _missions(start, work, plans, spending, turn, seed, outcome)
    ledgers = {p: _income(work, board, start, plans[p], p, turn, received[p], bounty.get(p, 0)) for p in powers}
    work = _close_the_books(work, ledgers)

    work, destroyed = _eliminate(work)
    winners = _winners(work, turn, max_turns)
    last_turn: LastTurn = {"turn": turn, "battles": battles, "events": events, "sea_lanes": lane_changes,
                           "spent": {p: spending[p]["total"] for p in powers}, "destroyed_states": destroyed}
    work = replace(work, turn=turn + 1, winners=tuple(winners), last_turn=last_turn)
    results = {p: _order_results(read[p], plans[p], outcome[p]) for p in powers}
    details: TurnDetails = {"battles": battles, "events": events, "missions": mission_results,
                            "rolls": [*_battle_rolls(fought), *mission_rolls], "ledgers": ledgers,
                            "sea_lanes": lane_changes, "spending": spending, "destroyed_states": destroyed}
    return TurnResult(phase, results, work.to_document(), phase_name(turn + 1), winners, details)


def _plan_all(document: EkoniaState, board: Board, powers: list[str],
              read: Mapping[str, list[tuple[str, Order | ParseError]]]) -> tuple[dict[str, Plan], dict[str, int]]:
    """Every state's plan on what it may know (V11), twice: the first pass finds the gold given,
    the second lets the receivers spend it. Returns the plans and the gold each receives."""
    valid = {p: [o for _, o in read[p] if not isinstance(o, ParseError)] for p in powers}
    known = {p: Ekonia.from_document(planning_view(document, p)) for p in powers}
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


def _captures(work: Ekonia, board: Board, plans: Mapping[str, Plan], turn: int,
              outcome: OrderOutcomes) -> tuple[Ekonia, list[Event]]:
    """Captures, capitals and forts (captures.py), and whether each RAZE was done."""
    razes = {p: {at for _, at in plan.razes} for p, plan in plans.items()}
    published = {u.id for u in shown_units(replace(work, turn=turn + 1), board)}  # the map after the turn
    work, events = apply_captures(work, board, turn, razes, published)
    for p, plan in plans.items():
        for index, at in plan.razes:
            done = any(e["event"] == "fort razed" and e.get("territory") == at and e.get("by") == p
                       for e in events)
            outcome[p][index] = ("ok", "fort razed") if done else \
                ("failed", f"{p} did not hold {at} alone at the end of the turn")
    return work, events


def _spending(plan: Plan) -> Spending:
    """What a state spent this turn, in all and by place."""
    by_location: dict[str, int] = defaultdict(int)
    for _, gold, where in plan.spent:
        if where:
            by_location[where] += gold
    return {"total": plan.total_spent, "by_location": dict(sorted(by_location.items()))}


def _missions(start: Ekonia, work: Ekonia, plans: Mapping[str, Plan], spending: Mapping[str, Spending],
              turn: int, seed: int, outcome: OrderOutcomes
              ) -> tuple[Ekonia, list[MissionResult], list[MissionRoll]]:
    """The espionage missions run (espionage.py): the state with what they found, their results and rolls."""
    missions = [Mission(p, *m) for p, plan in plans.items() for m in plan.missions]
    start_targets = {(p, i): target_power(start, o) for p, i, o, _ in missions}
    work, done = run_missions(work, turn, seed, missions, dict(spending), start_targets)
    for mission in done:
        outcome[mission.power][mission.index] = ("ok", "mission succeeded" if mission.success else "mission failed")
    return work, [m.result_json() for m in done], [m.roll_json() for m in done]


def _income(work: Ekonia, board: Board, start: Ekonia, plan: Plan, power: str, turn: int,
            received: int, bounty: int) -> Ledger:
    """A state's income of the turn (economy.ledger)."""
    given = sum(amount for _, amount, _ in plan.gives)
    return ledger(work, board, power, turn, start_gold=start.powers[power].gold, spent=plan.total_spent,
                  given=given, received=received, refund=plan.refund, bounty=bounty).as_json()


def _close_the_books(work: Ekonia, ledgers: Mapping[str, Ledger]) -> Ekonia:
    """Each state's gold set to its ledger's end, and the ledgers kept."""
    powers = {p: replace(r, gold=ledgers[p]["end_gold"]) if p in ledgers else r for p, r in work.powers.items()}
    return replace(work, powers=powers, ledger={**work.ledger, **ledgers})


def _battle_rolls(battles: list[BattleReport]) -> list[BattleRoll]:
    return [{"kind": "battle", "territory": b.territory, "battle": i, "powers": list(s.powers), "roll": s.roll}
            for i, b in enumerate(battles) for s in b.sides if s.roll is not None]


def _diplomacy(start: Ekonia, plans: Mapping[str, Plan], turn: int,
               outcome: OrderOutcomes) -> tuple[Ekonia, set[Pair], TradeOffers]:
    """Wars declared and peace made, trade ended, states spared or hunted: the state with
    them, the wars in force this turn and the trade proposals (tried after the battles)."""
    wars, war_since, trade, powers = set(start.wars), dict(start.war_since), list(start.trade), dict(start.powers)
    offers: dict[str, dict[str, set[str]]] = {"PEACE": defaultdict(set), "TRADE": defaultdict(set)}
    where: dict[tuple[str, str, str], int] = {}
    for p, plan in sorted(plans.items()):
        for index, order in plan.diplomacy:
            both = pair(p, order.other)
            if order.kind == "WAR":
                wars.add(both)
                war_since[":".join(both)] = turn
                outcome[p][index] = ("ok", f"at war with {order.other}")
            elif order.kind in offers:
                offers[order.kind][p].add(order.other)
                where[(order.kind, p, order.other)] = index
            elif order.kind == "END TRADE":
                if both in trade:
                    trade.remove(both)
                outcome[p][index] = ("ok", f"trade with {order.other} ended")
            elif order.kind in ("SPARE", "HUNT"):
                spared = set(powers[p].spared)
                spared = spared | {order.other} if order.kind == "SPARE" else spared - {order.other}
                powers[p] = replace(powers[p], spared=tuple(sorted(spared)))
    for p, others in offers["PEACE"].items():
        for other in others:
            index = where[("PEACE", p, other)]
            if p in offers["PEACE"].get(other, set()):
                wars.discard(pair(p, other))
                outcome[p][index] = ("ok", f"peace with {other}")
            else:
                outcome[p][index] = ("failed", f"{other} did not offer peace this turn")
    trade = [t for t in trade if t not in wars]
    work = replace(start, wars=tuple(sorted(wars)), war_since=war_since, trade=tuple(trade), powers=powers)
    return work, wars, TradeOffers(offers["TRADE"], where)


def _pay_and_place(work: Ekonia, plans: Mapping[str, Plan], received: Mapping[str, int]) -> Ekonia:
    """Gold spent and received, and every state's units where its plan put them."""
    powers, units = dict(work.powers), dict(work.units)
    for p, plan in plans.items():
        power = powers[p]
        powers[p] = replace(power, gold=power.gold - plan.total_spent + received.get(p, 0), next_unit=plan.next_unit)
        for uid in plan.disbanded:
            units.pop(uid, None)
        for uid, unit in plan.units.items():
            if uid not in plan.disbanded:
                units[uid] = unit.unit()  # without the fields of the plan
    return replace(work, powers=powers, units=units)


def _battles(work: Ekonia, board: Board, start: Ekonia, plans: Mapping[str, Plan], wars: set[Pair], turn: int,
             seed: int) -> tuple[Ekonia, list[BattleReport], dict[str, int]]:
    planned = {uid: u for plan in plans.values() for uid, u in plan.units.items()
               if uid not in plan.disbanded}
    ctx = BattleContext(board, start, wars, turn, seed,
                        morale={p: plan.morale for p, plan in plans.items()},
                        units={uid: BattleUnit.of(u) for uid, u in planned.items()},
                        bombardments=[(p, ids, sea, target) for p, plan in plans.items()
                                      for _, ids, sea, target in plan.bombardments],
                        spared={p: work.powers[p].spared for p in plans},
                        hunts={p: {sea for _, sea in plan.hunts} for p, plan in plans.items()})
    by_place: dict[str, list[PlannedUnit]] = defaultdict(list)
    for unit in planned.values():
        if not unit.stored:
            by_place[unit.location].append(unit)
    battles: list[BattleReport] = []
    bounty: defaultdict[str, int] = defaultdict(int)
    units = dict(work.units)
    for place in sorted(by_place):
        sides = sides_at(by_place[place])
        if len(sides) < 2:
            continue
        for camps in battles_at(ctx, place, sides):
            report = fight(ctx, place, sides, camps=camps)
            for ids in report.destroyed.values():
                for uid in ids:
                    units.pop(uid, None)
            for p, gold in report.bounty.items():
                bounty[p] += gold
            battles.append(report)
    return replace(work, units=units), battles, dict(bounty)


def _improved(terr: Holding, kind: str) -> Holding:
    """A territory with its fort, ship yard or gas vent (``kind`` as orders write it) finished."""
    if kind == "FORT":
        return replace(terr, fort=True)
    if kind == "SHIPYARD":
        return replace(terr, shipyard=True)
    return replace(terr, gas_vent=True)


def _finish_improvements(work: Ekonia, plans: Mapping[str, Plan],
                         outcome: OrderOutcomes) -> tuple[Ekonia, list[Event]]:
    territories = dict(work.territories)
    events: list[Event] = []
    for p, plan in sorted(plans.items()):
        for index, kind, at in plan.improvements:
            if territories[at].owner == p:
                territories[at] = _improved(territories[at], kind)
                events.append({"event": "built", "what": kind, "territory": at, "by": p})
            else:
                outcome[p][index] = ("failed", f"{at} was lost before the work was done")
    return replace(work, territories=territories), events


def _hide(work: Ekonia, plans: Mapping[str, Plan], turn: int) -> Ekonia:
    """Espionage's hiding: what hid until this turn shows again, what was hidden now hides next turn."""
    units = {uid: replace(u, hidden_until=None) if u.hidden_until is not None and u.hidden_until <= turn else u
             for uid, u in work.units.items()}
    powers = dict(work.powers)
    for p, plan in plans.items():
        for uid in plan.hidden_units:
            if uid in units:
                units[uid] = replace(units[uid], hidden_until=turn + 1)
        level = plan.hide_cities
        powers[p] = replace(powers[p], hide_cities=CityCover(turn + 1, level) if level else None)
    return replace(work, units=units, powers=powers)


def _trade(work: Ekonia, board: Board, trade: TradeOffers, outcome: OrderOutcomes) -> Ekonia:
    offers, where = trade.offers, trade.where
    agreed = list(work.trade)
    for p, others in sorted(offers.items()):
        for other in sorted(others):
            index = where[("TRADE", p, other)]
            obstacle = trade_obstacle(work, board, p, other)  # public facts: said first (V7)
            if obstacle is not None:
                outcome[p][index] = ("failed", obstacle)
            elif pair(p, other) in agreed:
                outcome[p][index] = ("ok", f"trading with {other}")
            elif p not in offers.get(other, set()):
                outcome[p][index] = ("failed", f"{other} did not propose trade this turn")
            else:
                agreed = sorted([*agreed, pair(p, other)])
                outcome[p][index] = ("ok", f"trading with {other}")
    return replace(work, trade=tuple(agreed))


def _eliminate(work: Ekonia) -> tuple[Ekonia, list[str]]:
    """States left without land or units: out of the game, their wars and trade ended."""
    gone = [p for p in alive_powers(work)
            if not territories_of(work, p) and not any(u.owner == p for u in work.units.values())]
    if not gone:
        return work, gone
    powers = {p: replace(r, alive=False, capital=None) if p in gone else r for p, r in work.powers.items()}
    return replace(work, powers=powers, wars=tuple(w for w in work.wars if not set(w) & set(gone)),
                   trade=tuple(t for t in work.trade if not set(t) & set(gone))), gone


def _winners(work: Ekonia, turn: int, max_turns: int | None) -> list[str]:
    """The last state standing; a state holding over half the land; or, when the game's
    ``max_turns`` is reached, the states holding the most territories."""
    alive = alive_powers(work)
    if len(alive) <= 1:
        return alive
    land = len(work.territories)
    held = {p: len(territories_of(work, p)) for p in alive}
    leaders = [p for p in alive if held[p] * 2 > land]
    if leaders:
        return leaders
    if max_turns and turn >= max_turns:
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
