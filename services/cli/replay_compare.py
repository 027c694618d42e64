"""How ``entente replay`` compares a stored resolution with the engine's again (ops.py): field by
field, and where they differ, the first place in words (``orders.FRANCE[0 'A PAR - BUR'].result:
stored ..., engine ...``)."""
from __future__ import annotations

import json
from typing import Any

COMPARED_FIELDS = ("phase", "orders", "dislodged", "position", "next_phase", "must_act", "winners", "details")


def compare_resolutions(stored: dict[str, object], recomputed: dict[str, object]) -> str | None:
    for name in COMPARED_FIELDS:
        if stored.get(name) != recomputed.get(name):
            return first_difference(stored.get(name), recomputed.get(name), name)
    return None


def first_difference(stored: Any, engine: Any, path: str) -> str:
    """Where two JSON values first differ: ``path: stored X, engine Y``."""
    if isinstance(stored, dict) and isinstance(engine, dict):
        for key in sorted(set(stored) | set(engine)):
            if stored.get(key) != engine.get(key):
                return first_difference(stored.get(key), engine.get(key), f"{path}.{key}")
    if isinstance(stored, list) and isinstance(engine, list):
        for index, (left, right) in enumerate(zip(stored, engine, strict=False)):
            if left != right:
                label = f" {left['order']!r}" if isinstance(left, dict) and "order" in left else ""
                return first_difference(left, right, f"{path}[{index}{label}]")
        if len(stored) != len(engine):
            return f"{path}: stored {len(stored)} items, engine {len(engine)}"
    return f"{path}: stored {json.dumps(stored, ensure_ascii=False)}, engine {json.dumps(engine, ensure_ascii=False)}"
