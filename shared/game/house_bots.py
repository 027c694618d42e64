"""House bots at the table: which orders the house bot writes for the powers it plays, and
the settings that allow it (docs/bots.md). Pure: the bots are functions of the position and
the game's seed (shared/rules/bots), so a replay reads the same orders from the log.
"""
from __future__ import annotations

from collections.abc import Mapping

from shared.errors import ErrorCode, Unprocessable
from shared.events import GameSettings, OrdersSubmitted
from shared.rules.bots import orders_for
from shared.rules.variants import get_variant

from .state import GameState
from .submissions import PowerSubmission

BOT_VARIANTS = ("standard", "dirigible")  # the variants whose orders the house bots can give


def check_bot_settings(variant: str, settings: GameSettings) -> None:
    """422 ``unsupported_setting`` for house-bot settings a game cannot have."""
    wants_bots = settings.bots_fill_empty_seats or settings.bot_after_missed_phases is not None
    if wants_bots and settings.house_bot is None:
        raise Unprocessable("bots_fill_empty_seats and bot_after_missed_phases need house_bot "
                            "(\"holding\" or \"heuristic\")", code=ErrorCode.UNSUPPORTED_SETTING,
                            where="body.settings.house_bot")
    if settings.daide_open and variant != "standard":
        raise Unprocessable(f"DAIDE bots play standard games, not {variant}", code=ErrorCode.UNSUPPORTED_SETTING,
                            where="body.settings.daide_open")
    if settings.daide_open and settings.private:
        raise Unprocessable("a private game cannot be open to DAIDE bots: its port would seat anyone who finds it",
                            code=ErrorCode.UNSUPPORTED_SETTING, where="body.settings.daide_open")
    if settings.daide_open and settings.player_count != 7:
        raise Unprocessable("a game open to DAIDE bots seats seven players, one power each (a DAIDE seat plays "
                            "one power)", code=ErrorCode.UNSUPPORTED_SETTING, where="body.settings.daide_open")
    if settings.house_bot is not None and variant not in BOT_VARIANTS:
        raise Unprocessable(f"the house bots play {' and '.join(BOT_VARIANTS)} games, not {variant}",
                            code=ErrorCode.UNSUPPORTED_SETTING, where="body.settings.house_bot")


def house_bot_orders(state: GameState) -> list[OrdersSubmitted]:
    """The house bot's orders for each power it plays that must act in the current phase,
    checked by the variant's own rules (an order the rules refuse is left out)."""
    if state.status != "active" or state.position is None or state.settings.house_bot is None:
        return []
    bots = state.house_bot_powers()
    rules, phase, seed = get_variant(state.variant), str(state.phase), state.seed or 0
    written = []
    for power in sorted(p for p in state.must_act if p in bots):
        texts = orders_for(state.variant, state.position, power, strength=state.settings.house_bot, seed=seed)
        checked = [c.order for c in rules.check_orders(state.position, power, texts) if c.accepted and c.order]
        written.append(OrdersSubmitted(phase=phase, power=power, player_id=None, orders=checked, house_bot=True))
    return written


def ordered_by_house_bot(submissions: Mapping[str, PowerSubmission]) -> list[str]:
    """The powers whose orders in the phase are the house bot's (their player gave none since)."""
    return sorted(p for p, s in submissions.items() if s.by_house_bot)
