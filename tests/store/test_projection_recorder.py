"""The projections' recorder (``tx.projections``, ``store.projections``:
shared/store/recorders.py), its part of the store's contract, run unchanged on SQLite and
PostgreSQL (the ``store`` fixture)."""
from __future__ import annotations

import asyncio

import pytest

from shared.store import EventStore
from tests.store.notifications import planned


async def test_a_projection_position_commits_with_the_projection_output_or_not_at_all(store: EventStore) -> None:
    assert await store.projections.projection_position("notifications") == 0
    async with store.transaction() as tx:
        assert await tx.projections.lock_projection("notifications") == 0
        await tx.outbox.plan_notification(planned("k1", source=7))
        await tx.projections.advance_projection("notifications", 7)
    assert await store.projections.projection_position("notifications") == 7
    assert [row.dedupe_key for row in await store.outbox.notifications()] == ["k1"]

    with pytest.raises(RuntimeError, match="crashed"):
        async with store.transaction() as tx:
            assert await tx.projections.lock_projection("notifications") == 7
            await tx.outbox.plan_notification(planned("k2", source=9))
            await tx.projections.advance_projection("notifications", 9)
            raise RuntimeError("the projection crashed before its commit")
    assert await store.projections.projection_position("notifications") == 7
    assert [row.dedupe_key for row in await store.outbox.notifications()] == ["k1"]
    assert await store.projections.projection_position("another") == 0  # positions are per projection


async def test_a_projection_position_is_advanced_only_under_its_lock_and_never_backwards(store: EventStore) -> None:
    with pytest.raises(RuntimeError, match="lock_projection"):
        async with store.transaction() as tx:
            await tx.projections.advance_projection("p", 5)
    async with store.transaction() as tx:
        await tx.projections.lock_projection("p")
        await tx.projections.advance_projection("p", 5)
    with pytest.raises(ValueError, match="moving back"):
        async with store.transaction() as tx:
            await tx.projections.lock_projection("p")
            await tx.projections.advance_projection("p", 4)
    assert await store.projections.projection_position("p") == 5


async def test_concurrent_runs_of_a_projection_take_turns(store: EventStore) -> None:
    seen: list[int] = []

    async def run() -> None:
        async with store.transaction() as tx:
            position = await tx.projections.lock_projection("p")
            seen.append(position)
            await asyncio.sleep(0.05)  # the lock held while the other runs try it: the race under test
            await tx.projections.advance_projection("p", position + 1)

    await asyncio.wait_for(asyncio.gather(*(run() for _ in range(4))), 60)
    assert sorted(seen) == [0, 1, 2, 3], "each run starts where the previous one committed"
    assert await store.projections.projection_position("p") == 4
