"""Small helpers: one phase of a Dirigible game through its ``entente adjudicate`` document."""
from __future__ import annotations

from typing import Any

from shared.rules.variants import get_variant


def adjudicate(phase: str, units: dict[str, list[str]], orders: dict[str, list[str]] | None = None,
               centers: dict[str, list[str]] | None = None, **extra: Any) -> dict[str, Any]:
    doc = {"variant": "dirigible", "phase": phase, "units": units, "centers": centers or {},
           "orders": orders or {}, **extra}
    return get_variant("dirigible").adjudicate_document(doc)


def results(out: dict[str, Any], power: str) -> list[tuple[str, str]]:
    """(order, result) for each order of ``power``, in the order given."""
    return [(o["order"], o["result"]) for o in out["orders"].get(power, [])]


def reasons(out: dict[str, Any], power: str) -> list[str]:
    return [o["reason"] for o in out["orders"].get(power, [])]


def units_of(out: dict[str, Any], power: str) -> set[str]:
    return set(out["units"].get(power, []))
