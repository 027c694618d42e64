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

from collections.abc import Mapping
from dataclasses import dataclass, replace

from . import catalogue as C
from .board import Board
from .position import Ekonia, SeaLane
from .records import LaneChange, Ledger, Unit
from .state import bti, pair, territories_of


def upkeep(state: Ekonia, power: str, turn: int) -> int:
    return sum(C.UNIT_TYPES[u.type].upkeep for u in state.units.values() if u.owner == power and u.built != turn)


def sea_lanes_of(state: Ekonia, power: str, *, for_trade: bool = False) -> list[str]:
    return sorted(tid for tid, lane in state.sea_lanes.items()
                  if lane.controller == power and not (for_trade and lane.privateer))


def borders(state: Ekonia, board: Board, a: str, b: str) -> bool:
    mine = territories_of(state, a)
    theirs = set(territories_of(state, b))
    return any(n in theirs for t in mine for n in board.neighbours(t))


def trade_obstacle(state: Ekonia, board: Board, a: str, b: str) -> str | None:
    """Why ``a`` and ``b`` may not trade (None: they may). Neighbours may trade, and so may two
    states that both hold (flagged) sea lanes, unless at war. Every fact read here is public."""
    for power in (a, b):
        if not state.powers[power].alive:
            return f"{power} is no longer in the game"
    if pair(a, b) in state.wars:
        return f"{a} and {b} are at war"
    both_lanes = bool(sea_lanes_of(state, a, for_trade=True)) and bool(sea_lanes_of(state, b, for_trade=True))
    if both_lanes or borders(state, board, a, b):
        return None
    return f"{a} and {b} neither border each other nor both hold a sea lane under their flag"


def may_trade(state: Ekonia, board: Board, a: str, b: str) -> bool:
    return trade_obstacle(state, board, a, b) is None


def lane_holder(ships: list[Unit]) -> tuple[str | None, bool]:
    """Who holds a lane with these triremes on it, as ``(controller, privateer)``: the only
    flag the map shows there (docs/rules/ekonia.md, "Who holds a lane"). Privateers fly no
    flag: they hold a lane alone, for their owner when they are all one state's and for nobody
    when several states own them; a state's flagged triremes beside privateers (its own
    included) contest it, as two flags do."""
    flags = {None if u.privateer else u.owner for u in ships}
    if len(flags) != 1:
        return None, False
    (flagged,) = flags
    if flagged is not None:
        return flagged, False
    owners = {u.owner for u in ships}
    return (owners.pop() if len(owners) == 1 else None), True


def update_sea_lanes(state: Ekonia) -> tuple[Ekonia, list[LaneChange]]:
    """Each lane's holder at the end of the turn (``lane_holder``): the state with them, and the changes."""
    changes: list[LaneChange] = []
    lanes = dict(state.sea_lanes)
    for tid, lane in sorted(state.sea_lanes.items()):
        ships = [u for u in state.units.values() if u.location == tid and u.type == "TRIREME" and not u.stored]
        held = SeaLane(*lane_holder(ships))
        if held != lane:
            changes.append({"sea_lane": tid, "from": lane.controller, "to": held.controller,
                            "privateer": held.privateer})
        lanes[tid] = held
    return replace(state, sea_lanes=lanes), changes


@dataclass(frozen=True, slots=True)
class IncomeLedger:
    """Every term of a state's income in one turn (docs/rules/ekonia.md, "Income"), and the
    gold it starts the next turn with. ``as_json`` is the record the state and the turn's
    details keep (records.Ledger), keys in this order."""

    turn: int
    start_gold: float
    costs: int
    given: int
    bti: int
    upkeep: int
    trade: Mapping[str, int]  # partner -> the income its trade brings
    sea_lanes: tuple[str, ...]
    sea_lane_income: int
    received: int
    bounty: int
    refund: int

    @property
    def end_gold(self) -> float:
        return (self.start_gold - (self.costs + self.given) + (self.bti - self.upkeep) + sum(self.trade.values())
                + self.sea_lane_income + self.received + self.bounty + self.refund)

    def as_json(self) -> Ledger:
        return {"turn": self.turn, "start_gold": self.start_gold, "costs": self.costs, "given": self.given,
                "bti": self.bti, "upkeep": self.upkeep, "trade": dict(self.trade), "sea_lanes": list(self.sea_lanes),
                "sea_lane_income": self.sea_lane_income, "received": self.received, "bounty": self.bounty,
                "refund": self.refund, "end_gold": self.end_gold}


def ledger(state: Ekonia, board: Board, power: str, turn: int, *, start_gold: float, spent: int,
           given: int, received: int, refund: int, bounty: int) -> IncomeLedger:
    """Every term of the income formula for one state, and the gold it starts the next turn with."""
    base = bti(state, board, power)
    lanes = sea_lanes_of(state, power)
    return IncomeLedger(turn=turn, start_gold=start_gold, costs=spent - given, given=given, bti=base,
                        upkeep=upkeep(state, power, turn), trade=_trade_income(state, board, power),
                        sea_lanes=tuple(lanes), sea_lane_income=base * C.SEA_LANE_BONUS_PERCENT * len(lanes) // 100,
                        received=received, bounty=bounty, refund=refund)


def _trade_income(state: Ekonia, board: Board, power: str) -> dict[str, int]:
    """Partner -> a share of its base tile income, for each partner it may trade with."""
    trade = {}
    for a, b in state.trade:
        if power in (a, b):
            partner = b if a == power else a
            if may_trade(state, board, power, partner):
                trade[partner] = bti(state, board, partner) * C.TRADE_PERCENT // 100
    return trade
