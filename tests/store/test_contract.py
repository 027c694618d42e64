"""The store's own part of the contract, run unchanged on SQLite and PostgreSQL (the ``store``
fixture): opening it (again), emptying it, waiting for events. Each recorder's part is in a
module of its own (tests/store/test_recorders.py names them)."""
from __future__ import annotations

import asyncio

import pytest

from shared.store import EventStore, NewEvent, open_store
from tests.store.notifications import planned


def numbered(count: int, kind: str = "Numbered") -> list[NewEvent]:
    return [NewEvent(kind, {"n": n}) for n in range(1, count + 1)]


async def test_opening_the_store_again_keeps_schema_and_data(store_url: str) -> None:
    first = await open_store(store_url)
    try:
        async with first.transaction() as tx:
            await tx.events.append("game-g1", numbered(2), 0)
        second = await open_store(store_url)
        try:
            await second.create_schema()
            assert len(await second.events.read_stream("game-g1")) == 2
        finally:
            await second.close()
    finally:
        await first.close()


async def test_in_memory_sqlite_store_works() -> None:
    store = await open_store("sqlite:///:memory:")
    try:
        async def append(number: int) -> None:
            async with store.transaction() as tx:
                await tx.events.append(f"s-{number}", numbered(2), 0)

        await asyncio.gather(*(append(number) for number in range(5)))
        assert len(await store.events.read_all()) == 10
    finally:
        await store.close()


def test_unsupported_urls_are_refused() -> None:
    with pytest.raises(ValueError, match="unsupported database URL"):
        asyncio.run(open_store("mysql://localhost/db"))


async def test_a_waiting_reader_wakes_when_events_commit(store: EventStore) -> None:
    async with store.transaction() as tx:
        (first,) = await tx.events.append("game-g1", numbered(1), 0)
    loop = asyncio.get_running_loop()

    async def append_later() -> float:
        await asyncio.sleep(0.3)  # a commit that comes while the reader waits: what is under test
        async with store.transaction() as tx:
            await tx.events.append("game-g1", numbered(2, "Later"), 1)
        return loop.time()

    started = loop.time()
    waited, committed_at = await asyncio.gather(
        store.wait_for_events(first.position, timeout=30), append_later())
    woke_after = loop.time() - committed_at
    assert [event.type for event in waited] == ["Later", "Later"]
    assert woke_after < 2.0, "woken by the commit, not by the timeout or the 5 s backstop"
    assert loop.time() - started < 10

    started = loop.time()
    assert await store.wait_for_events(waited[-1].position, timeout=0.3) == []
    assert 0.25 <= loop.time() - started < 5
    assert await store.wait_for_events(0, timeout=0) == [first, *waited]


async def test_truncate_empties_the_outbox_and_the_positions_too(store: EventStore) -> None:
    async with store.transaction() as tx:
        await tx.events.append("game-g1", [NewEvent("A", {})], 0)
        await tx.projections.lock_projection("p")
        await tx.projections.advance_projection("p", 1)
        await tx.outbox.plan_notification(planned("k1"))
    await store.truncate()
    assert await store.events.head() == 0
    assert (await store.projections.projection_position("p"), await store.outbox.notifications()) == (0, [])
