"""Gold at the end of a turn, by the seed's formula:

    next gold = turn start gold - (units bought + improvements + other spending + gold given)
                + (BTI - upkeep) + trade income + sea lane income + gold received
                + privateer bounties + refunds for units disbanded this turn

BTI is 25 for the capital, 15 for a city, 10 for any other land territory owned at the end of
the turn. Upkeep is paid for every unit held at the end of the turn except those made in it.
Each sea lane held adds 15% of BTI; each active trade partner adds 25% of the partner's BTI.
Percentages are rounded down to whole gold.
"""
from __future__ import annotations

from typing import Any

from . import catalogue as C
from .board import Board
from .state import State, bti, territories_of


def upkeep(state: State, power: str, turn: int) -> int:
    return sum(C.UNIT_TYPES[u["type"]].upkeep for u in state["units"].values()
               if u["owner"] == power and u["built"] != turn)


def sea_lanes_of(state: State, power: str, *, for_trade: bool = False) -> list[str]:
    return sorted(tid for tid, lane in state["sea_lanes"].items()
                  if lane["controller"] == power and not (for_trade and lane["privateer"]))


def borders(state: State, board: Board, a: str, b: str) -> bool:
    mine = territories_of(state, a)
    theirs = set(territories_of(state, b))
    return any(n in theirs for t in mine for n in board.neighbours(t))


def may_trade(state: State, board: Board, a: str, b: str) -> bool:
    """Neighbours may trade, and so may two states that both hold (flagged) sea lanes."""
    if not (state["powers"][a]["alive"] and state["powers"][b]["alive"]):
        return False
    if sorted([a, b]) in state["wars"]:
        return False
    both_lanes = bool(sea_lanes_of(state, a, for_trade=True)) and bool(sea_lanes_of(state, b, for_trade=True))
    return both_lanes or borders(state, board, a, b)


def update_sea_lanes(state: State) -> list[dict[str, Any]]:
    """A lane is held by the only state with triremes on it (privateers hold it in secret)."""
    changes = []
    for tid, lane in sorted(state["sea_lanes"].items()):
        ships = [u for u in state["units"].values()
                 if u["location"] == tid and u["type"] == "TRIREME" and not u["stored"]]
        owners = {u["owner"] for u in ships}
        controller = owners.pop() if len(owners) == 1 else None
        privateer = bool(controller) and all(u["privateer"] for u in ships)
        if (controller, privateer) != (lane["controller"], lane["privateer"]):
            changes.append({"sea_lane": tid, "from": lane["controller"], "to": controller,
                            "privateer": privateer})
        lane["controller"], lane["privateer"] = controller, privateer
    return changes


def ledger(state: State, board: Board, power: str, turn: int, *, start_gold: float, spent: int,
           given: int, received: int, refund: int, bounty: int) -> dict[str, Any]:
    """Every term of the income formula for one state, and the gold it starts the next turn with."""
    base = bti(state, board, power)
    lanes = sea_lanes_of(state, power)
    lane_income = base * C.SEA_LANE_BONUS_PERCENT * len(lanes) // 100
    trade = {}
    for a, b in state["trade"]:
        if power in (a, b):
            partner = b if a == power else a
            if may_trade(state, board, power, partner):
                trade[partner] = bti(state, board, partner) * C.TRADE_PERCENT // 100
    costs = spent - given
    pay = upkeep(state, power, turn)
    end = (start_gold - (costs + given) + (base - pay) + sum(trade.values()) + lane_income
           + received + bounty + refund)
    return {"turn": turn, "start_gold": start_gold, "costs": costs, "given": given,
            "bti": base, "upkeep": pay, "trade": trade, "sea_lanes": lanes,
            "sea_lane_income": lane_income, "received": received, "bounty": bounty,
            "refund": refund, "end_gold": end}
