"""What the variants played on the Diplomacy board (standard, dirigible) share: turning engine
values into the JSON of views and outcomes, and the behaviour both give the platform."""
from __future__ import annotations

from functools import lru_cache
from typing import Any, Iterable, Mapping

from services.adjudication.engine import ParseError, load_map, parse_order
from services.adjudication.engine.orders import Order
from services.adjudication.engine.phase import PhaseType
from services.adjudication.engine.position import DislodgedUnit, OrderResult, PowerUnit

from .base import OrderCheck, every_order_and_dislodgement


@lru_cache(maxsize=65536)
def parse_cached(text: str, variant: str, phase_type: PhaseType, power: str) -> Order | ParseError:
    """``parse_order`` remembered: the parser is a pure function of these four, and its results
    are frozen values, so a replay or a busy server reads each stored order text only once."""
    return parse_order(text, game_map=load_map(variant), phase_type=phase_type, power=power)


def unreadable(text: str, error: ParseError) -> OrderCheck:
    """The check of a text the parser could not read: the parser's message, word and hopes."""
    return OrderCheck(text, False, reason=error.message, where=error.word, expected=tuple(error.expected))


def units_by_power(units: Iterable[PowerUnit]) -> dict[str, list[str]]:
    by_power: dict[str, list[str]] = {}
    for pu in sorted(units, key=lambda pu: (pu.power, pu.unit.location, pu.unit.type.value)):
        by_power.setdefault(pu.power, []).append(str(pu.unit))
    return by_power


def centres_by_power(centres: Mapping[str, str]) -> dict[str, list[str]]:
    by_power: dict[str, list[str]] = {}
    for province, owner in sorted(centres.items()):
        by_power.setdefault(owner, []).append(province)
    return by_power


def dislodged_json(dislodged: Iterable[DislodgedUnit]) -> list[dict[str, Any]]:
    return [{"power": d.power, "unit": str(d.unit), "attacker_from": d.attacker_from,
             "retreats": list(d.retreats)} for d in dislodged]


def results_json(results: Iterable[OrderResult]) -> dict[str, list[dict[str, str]]]:
    """POWER -> [{"order", "result", "reason"}], in the order the results come."""
    orders: dict[str, list[dict[str, str]]] = {}
    for result in results:
        orders.setdefault(result.power, []).append(
            {"order": str(result.order), "result": result.result, "reason": result.reason})
    return orders


class BoardVariant:
    """Behaviour common to the variants on the Diplomacy board: nothing is hidden once a phase
    is resolved, and the game ends by victory or draw, never by the calendar."""

    def phase_of(self, state: Mapping[str, Any]) -> str:
        return str(state["phase"])

    def history_view(self, resolved: Mapping[str, Any], viewer: str | None) -> dict[str, Any]:
        return every_order_and_dislodgement(resolved)  # orders are public once resolved

    def check_settings(self, settings: Mapping[str, Any]) -> None:
        if settings.get("max_turns") is not None:
            raise ValueError("max_turns is for variants that end by the calendar; this one ends by victory or draw")
