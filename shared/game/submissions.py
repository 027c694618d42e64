"""Each power's latest submission in a phase: the one rule for which orders count.

Orders live in one stream per power and phase (``orders-{game}-{phase}-{POWER}``); the latest
OrdersSubmitted there is the power's current orders, and a ReadySet after it marks them final
(a later submission clears the flag). Resolution, early resolution, views and replay all read
submissions through ``latest_submissions``.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from shared.events import Event, OrdersSubmitted, ReadySet


@dataclass(frozen=True, slots=True)
class PowerSubmission:
    orders: tuple[str, ...] | None = None  # None: nothing submitted in this phase
    ready: bool = False


def latest_submissions(events: Iterable[Event], phase: str | None = None,
                       onto: dict[str, PowerSubmission] | None = None) -> dict[str, PowerSubmission]:
    """Each power's latest orders and ready flag among ``events`` (in log order), counting only
    events of ``phase`` when one is given; after those of ``onto`` (the same of earlier events,
    left as it was) when given."""
    found: dict[str, PowerSubmission] = dict(onto) if onto else {}
    for event in events:
        if isinstance(event, OrdersSubmitted) and (phase is None or event.phase == phase):
            found[event.power] = PowerSubmission(tuple(event.orders), False)
        elif isinstance(event, ReadySet) and (phase is None or event.phase == phase):
            found[event.power] = PowerSubmission(found.get(event.power, PowerSubmission()).orders, event.ready)
    return found


def submitted_orders(submissions: dict[str, PowerSubmission]) -> dict[str, list[str]]:
    """POWER -> orders, for the powers that submitted something."""
    return {power: list(s.orders) for power, s in submissions.items() if s.orders is not None}


def who_has_ordered(must_act: Iterable[str], submissions: dict[str, PowerSubmission]) -> dict[str, list[str]]:
    """``submitted``: the powers that must act whose orders for the phase are stored (an empty
    submission counts: it holds everything); ``ready``: those of them that marked them final.
    Never the orders themselves. Public in every variant (docs/api.md, "Who has ordered"): that
    a power has sent orders says nothing of what they are. A power that is out or sits out has
    nothing to submit and is in neither list."""
    acting = set(must_act)
    submitted = sorted(p for p, s in submissions.items() if p in acting and s.orders is not None)
    return {"submitted": submitted, "ready": [p for p in submitted if submissions[p].ready]}
