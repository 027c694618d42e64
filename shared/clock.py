"""Time as a dependency: every decision that depends on "now" asks a ``Clock``.

The services and the clock worker take a clock instead of calling ``datetime.now``, so that
tests move time forward by hand (``ManualClock.advance``) and never sleep.
"""
from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Protocol


class Clock(Protocol):
    def now(self) -> datetime:
        """The current time, timezone-aware UTC."""


class SystemClock:
    """The wall clock."""

    def now(self) -> datetime:
        return datetime.now(UTC)


class ManualClock:
    """A clock that moves only when told to (tests)."""

    def __init__(self, start: datetime | None = None) -> None:
        self._now = start or datetime(2026, 1, 5, 12, 0, tzinfo=UTC)
        if self._now.tzinfo is None:
            raise ValueError("ManualClock needs a timezone-aware start")

    def now(self) -> datetime:
        return self._now

    def advance(self, delta: timedelta | None = None, **units: float) -> datetime:
        """Move forward by ``delta`` or by keyword units (``minutes=5``); returns the new now."""
        step = delta if delta is not None else timedelta(**units)
        if step < timedelta(0):
            raise ValueError("a clock never goes back")
        self._now += step
        return self._now

    def set(self, moment: datetime) -> None:
        if moment < self._now:
            raise ValueError("a clock never goes back")
        self._now = moment


SYSTEM_CLOCK = SystemClock()
