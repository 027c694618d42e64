"""Each power's latest submission in a phase: the one rule for which orders count, and for who
is done.

Orders live in one stream per power and phase (``orders-{game}-{phase}-{POWER}``); the latest
OrdersSubmitted there is the power's current orders, and a ReadySet after it marks them final
(a later submission clears the flag). Resolution, early resolution, views and replay all read
submissions through ``latest_submissions``.

A power is *done* when its latest orders are a whole set with no line refused (a ``PUT``, an
empty one included) or it set its ready flag; orders stored one at a time (``PATCH``), or a set
with a refused line, count at the deadline but leave the power *ordering*: early resolution
waits for it (docs/hosting.md, "Early resolution").
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TypedDict

from shared.events import Event, OrdersSubmitted, ReadySet


@dataclass(frozen=True, slots=True)
class PowerSubmission:
    orders: tuple[str, ...] | None = None  # None: nothing submitted in this phase
    ready: bool = False
    complete: bool = False  # a whole set (PUT) with nothing refused, not one at a time nor a partial set
    writes: int = 0  # the events in the power's order stream for the phase (orders and flags)
    by_house_bot: bool = False  # the orders are the house bot's (docs/bots.md)

    @property
    def done(self) -> bool:
        """The power said it has finished ordering: a whole set sent, or the ready flag."""
        return self.orders is not None and (self.complete or self.ready)


def latest_submissions(events: Iterable[Event], phase: str | None = None,
                       onto: dict[str, PowerSubmission] | None = None) -> dict[str, PowerSubmission]:
    """Each power's latest orders and ready flag among ``events`` (in log order), counting only
    events of ``phase`` when one is given; after those of ``onto`` (the same of earlier events,
    left as it was) when given."""
    found: dict[str, PowerSubmission] = dict(onto) if onto else {}
    for event in events:
        if isinstance(event, OrdersSubmitted) and (phase is None or event.phase == phase):
            writes = found.get(event.power, PowerSubmission()).writes + 1
            found[event.power] = PowerSubmission(tuple(event.orders), False, event.complete, writes,
                                                 event.house_bot)
        elif isinstance(event, ReadySet) and (phase is None or event.phase == phase):
            before = found.get(event.power, PowerSubmission())
            found[event.power] = PowerSubmission(before.orders, event.ready, before.complete, before.writes + 1,
                                                 before.by_house_bot)
    return found


def submitted_orders(submissions: Mapping[str, PowerSubmission]) -> dict[str, list[str]]:
    """POWER -> orders, for the powers that submitted something."""
    return {power: list(s.orders) for power, s in submissions.items() if s.orders is not None}


class OrderStatusJSON(TypedDict):
    """Who has ordered in the current phase (``who_has_ordered``)."""

    submitted: list[str]
    ready: list[str]
    ordering: list[str]
    waiting_for: list[str]


def who_has_ordered(must_act: Iterable[str], submissions: Mapping[str, PowerSubmission],
                    waiting: Iterable[str] = ()) -> OrderStatusJSON:
    """Who has ordered, never the orders themselves. ``submitted``: the powers that must act and
    are done (a whole set sent, an empty one included, or the ready flag); ``ready``: those that
    set the flag; ``ordering``: those with orders stored one at a time but not done;
    ``waiting_for``: ``waiting``, the powers the phase still waits for (``waiting_for``). Public
    in every variant (docs/api.md, "Who has ordered"): that a power has sent orders says nothing
    of what they are. A power that is out or sits out has nothing to submit and is in no list."""
    acting = set(must_act)
    mine = {p: s for p, s in submissions.items() if p in acting}
    return {"submitted": sorted(p for p, s in mine.items() if s.done),
            "ready": sorted(p for p, s in mine.items() if s.done and s.ready),
            "ordering": sorted(p for p, s in mine.items() if s.orders is not None and not s.done),
            "waiting_for": sorted(waiting)}
