from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from shared.clock import ManualClock

from .helpers import Host, hosting


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
async def host(sqlite_url: str, clock: ManualClock) -> AsyncIterator[Host]:
    async with hosting(sqlite_url, clock) as opened:
        yield opened

