"""What a power may order now (``GET /games/{id}/possible-orders``): the legal orders of each
unit, the menu, which units still lack an order, and the builds or removals of an adjustment
phase. Pure: a state in, a document out."""
from __future__ import annotations

from typing import TypedDict

from shared.game.guards import require_playing
from shared.game.intake import variant_of
from shared.game.state import GameState
from shared.rules.variants.documents import MenuGroup, StructuredOrder


class PossibleOrdersJSON(TypedDict):
    """What one power may order now (``possible_for``), as ``PossibleOrders`` (api.py) writes it."""

    phase: str
    power: str
    must_act: bool
    orders: dict[str, list[str]]  # the variant's own keys (a unit's place, a build site) -> texts
    menu: list[MenuGroup]
    submitted: list[str]
    submitted_by_house_bot: bool
    submitted_structured: list[StructuredOrder]
    lacking: list[str]
    adjustment: int


def possible_for(state: GameState, power: str, submitted: list[str],
                 by_house_bot: bool = False) -> PossibleOrdersJSON:
    """The legal orders of each of the power's units now, which units still lack an order, and
    in adjustment phases the builds allowed (positive) or removals owed (negative);
    ``by_house_bot``: the stored orders are the house bot's, given while the player was away."""
    current = require_playing(state)
    variant = variant_of(state)
    options = variant.possible_orders(current, power)
    chosen = set(submitted)
    # a stored order may be in a form the options do not list (A APU - TUN VIA for A APU - TUN):
    # its unit still has an order (the variant's ``order_subject`` says whose it is)
    subjects = {variant.order_subject(text, str(state.phase), power) for text in submitted} - {None}

    def _ordered(found: list[str], stored: set[str | None]) -> bool:
        return bool(found) and variant.order_subject(found[0], str(state.phase), power) in stored

    adjustment = variant.adjustments(current).get(power, 0)
    return {
        "phase": str(state.phase),
        "power": power,
        "must_act": power in state.must_act,
        "orders": options,
        "menu": variant.order_menu(current, power),
        "submitted": list(submitted),
        "submitted_by_house_bot": by_house_bot,
        "submitted_structured": [variant.describe_order(text, str(state.phase), power) for text in submitted],
        "lacking": [] if adjustment else sorted(key for key, found in options.items()
                                                if not chosen & set(found) and not _ordered(found, subjects)),
        "adjustment": adjustment,
    }
