"""An order text read once: what the board variants (board.py) and their order documents and
menus (board_orders.py) both read orders with, in a module of its own so that neither imports
the other for it."""
from __future__ import annotations

from functools import lru_cache

from shared.rules.diplomacy import ParseError, load_map, parse_order
from shared.rules.diplomacy.orders import Order
from shared.rules.diplomacy.phase import PhaseType


@lru_cache(maxsize=65536)
def parse_cached(text: str, variant: str, phase_type: PhaseType, power: str) -> Order | ParseError:
    """``parse_order`` remembered: the parser is a pure function of these four, and its results
    are frozen values, so a replay or a busy server reads each stored order text only once."""
    return parse_order(text, game_map=load_map(variant), phase_type=phase_type, power=power)
