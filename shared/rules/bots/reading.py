"""What a bot reads of a phase: the legal orders by unit (or build site) and the phase's kind."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

PhaseKind = Literal["movement", "retreats", "adjustments"]
_KINDS: dict[str, PhaseKind] = {"M": "movement", "R": "retreats", "A": "adjustments"}


@dataclass(frozen=True)
class Options:
    """``by_unit``: each unit's (or, in adjustments, each site's or unit's) legal orders as
    the variant writes them; ``adjustment``: builds allowed (positive) or removals owed."""

    kind: PhaseKind
    by_unit: dict[str, list[str]]
    adjustment: int = 0


def phase_kind(phase: str) -> PhaseKind:
    return _KINDS.get(phase[-1:], "movement")


def read_options(possible: Mapping[str, Sequence[str]], adjustment: int, phase: str = "") -> Options:
    """The possible orders without the ``WAIVE`` entry; the kind is read off the orders
    themselves when no phase is given (builds end in B, removals in D, retreats name R)."""
    by_unit = {key: list(orders) for key, orders in possible.items() if key != "WAIVE" and orders}
    if phase:
        kind = phase_kind(phase)
    elif adjustment:
        kind = "adjustments"
    elif any(" R " in order for orders in by_unit.values() for order in orders):
        kind = "retreats"
    else:
        kind = "movement"
    return Options(kind, by_unit, adjustment)


def holdings(state: Mapping[str, object], key: str) -> dict[str, list[str]]:
    """``state[key]`` of a board document (``units`` or ``centers``): each power's strings, an
    empty table when the key is absent. The bots take any variant's stored document and read
    only these, the phase and (for a cache key) the dislodged units of it."""
    found = state.get(key, {})
    if not isinstance(found, dict):
        raise TypeError(f"a board document's {key} is a table of powers, not {type(found).__name__}")
    return {power: [str(item) for item in items] for power, items in found.items() if isinstance(items, list)}
