"""The JSON of a game's view that the game core keeps (docs/api.md, "Views and the log"): a
resolved phase as a view's history shows it, which the caches hold (cached.py) and the
visibility service writes (services/visibility/view.py)."""
from __future__ import annotations

from typing import Any, NotRequired, TypedDict

from shared.rules.variants.documents import DislodgedUnit, OrderResult, PositionView, StructuredOrder


class StructuredResult(OrderResult):
    """An order of a resolved phase and its result, the order also structured."""

    structured: StructuredOrder


class HistoryEntry(TypedDict):
    """One resolved phase as a viewer may see it: the variant's ``history_view`` of it, each
    order also structured, and ``position``: the board it was played from, as the variant's
    ``view`` showed it to the same viewer then."""

    phase: str
    orders: dict[str, list[StructuredResult]]
    dislodged: list[DislodgedUnit]
    next_phase: str
    details: NotRequired[dict[str, Any]]  # the variant's own facts (HistoryView's)
    position: PositionView
