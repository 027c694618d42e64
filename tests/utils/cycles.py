"""Counting what only the cycle collector could free (docs/rules/datc.md, "No cycles left for
the collector")."""
from __future__ import annotations

import gc
from collections.abc import Callable, Iterator
from contextlib import contextmanager


@contextmanager
def cycle_collector_off() -> Iterator[Callable[[], int]]:
    """The collector stopped (what was garbage before collected first); yields a function that
    collects what was made since it last ran (the youngest generation, where the collector off
    leaves every new object) and says how many objects only the collector could free."""
    was_enabled = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        yield lambda: gc.collect(0)
    finally:
        if was_enabled:
            gc.enable()
