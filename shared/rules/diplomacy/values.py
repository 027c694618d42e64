"""What the engine's values share: they copy and pickle alike, compiled or not.

A compiled class (mypyc) is built through its ``__init__``, so Python's default way of copying
and pickling an object (make an empty one, then fill in its state) fails on a compiled value
whose constructor takes arguments ("__init__() missing required argument"), where the
pure-Python class copies by its state. ``Value.__reduce__`` rebuilds a value through its
constructor from the fields the constructor takes, in both builds, so ``copy.copy``,
``copy.deepcopy`` and ``pickle`` give an equal value either way (docs/performance.md,
2026-12-01, "The rules engine: a compiled core"). Every value's constructor takes its fields
in the order they are declared.
"""
from __future__ import annotations

from dataclasses import fields
from typing import Any, cast


class Value:
    """A base of the engine's dataclasses: copied and pickled through the constructor."""

    def __reduce__(self) -> tuple[object, ...]:
        taken = tuple(getattr(self, f.name) for f in fields(cast(Any, self)) if f.init)
        return type(self), taken
