"""Following the log with ``EventStore.tail``, on SQLite (polling) and PostgreSQL (LISTEN):
nothing missed, a full batch followed at once, and on PostgreSQL one read per wake-up."""
from __future__ import annotations

import asyncio

import pytest

from shared.store import EventStore, NewEvent


def event(number: int) -> NewEvent:
    return NewEvent(type="Numbered", data={"n": number})


async def append(store: EventStore, stream_id: str, number: int) -> None:
    async with store.transaction() as tx:
        await tx.events.append(stream_id, [event(number)], None)


async def test_a_tail_returns_every_commit_once_in_order(store: EventStore) -> None:
    loop = asyncio.get_running_loop()

    async def commit_slowly() -> None:
        for number in range(6):
            await asyncio.sleep(0.05)  # commits spread in time: the behaviour under test
            await append(store, f"game-g{number % 2}", number)

    async with store.tail(await store.events.head()) as tail:
        assert await tail.next(timeout=0) == []
        writer = asyncio.create_task(commit_slowly())
        seen: list[object] = []
        started = loop.time()
        while len(seen) < 6 and loop.time() - started < 20:
            seen += [record.data["n"] for record in await tail.next(timeout=1.0)]
        await writer
        assert seen == [0, 1, 2, 3, 4, 5]
        assert await tail.next(timeout=0.2) == []


async def test_a_commit_made_while_the_reader_is_busy_elsewhere_is_not_lost(store: EventStore) -> None:
    """The tail's waiter stays registered between calls: a commit between two ``next()`` calls
    wakes the second at once, not at the backstop five seconds later."""
    loop = asyncio.get_running_loop()
    async with store.tail(await store.events.head()) as tail:
        await tail.next(timeout=0)
        await append(store, "game-g1", 1)  # nobody is waiting on the tail now
        started = loop.time()
        (record,) = await tail.next(timeout=30)
        assert record.data == {"n": 1}
        assert loop.time() - started < 2.0


async def test_a_full_batch_is_followed_by_the_rest_at_once(store: EventStore) -> None:
    async with store.transaction() as tx:
        await tx.events.append("game-g1", [event(number) for number in range(5)], 0)
    loop = asyncio.get_running_loop()
    async with store.tail(0) as tail:
        started = loop.time()
        batches = [await tail.next(timeout=30, settle=10.0, limit=2) for _ in range(3)]
        assert [[record.data["n"] for record in batch] for batch in batches] == [[0, 1], [2, 3], [4]]
        assert loop.time() - started < 2.0, "no wait (and no settling) while the log is ahead"


async def test_commits_within_the_settling_time_come_in_one_batch(store: EventStore) -> None:
    async with store.tail(await store.events.head()) as tail:
        await tail.next(timeout=0)
        reads = tail.reads

        async def burst() -> None:
            await asyncio.sleep(0.2)  # the burst comes while the tail waits (the reads counted below)
            for number in range(4):
                await append(store, "orders-g1-S1901M-FRANCE", number)

        writer = asyncio.create_task(burst())
        batch = await tail.next(timeout=30, settle=1.0)
        await writer
        assert [record.data["n"] for record in batch] == [0, 1, 2, 3]
        if store.dialect == "postgresql":  # woken by the first commit's notification, then one read
            assert tail.reads - reads == 1
        else:  # polled: the read that found the first commit, and one after the settling time
            assert 2 <= tail.reads - reads <= 2 + 0.2 / 0.1 + 2


async def test_a_quiet_log_times_out_empty(store: EventStore) -> None:
    loop = asyncio.get_running_loop()
    async with store.tail(await store.events.head()) as tail:
        started = loop.time()
        assert await tail.next(timeout=0.3) == []
        assert 0.25 <= loop.time() - started < 2.0


async def test_after_a_failed_read_the_next_call_reads_at_once(postgres_store: EventStore) -> None:
    """A read that fails has already taken its wake-up: the next call must not wait for another
    notification (or the five-second backstop) to read what committed."""
    store = postgres_store
    loop = asyncio.get_running_loop()
    async with store.tail(await store.events.head()) as tail:
        await tail.next(timeout=0)
        failures = [ConnectionResetError("the database went away for a moment")]
        read_all = store.events.read_all

        async def read_failing_once(after_position: int, limit: int) -> list:
            if failures:
                raise failures.pop()
            return await read_all(after_position, limit)

        tail._read_all = read_failing_once  # the store's read, but the first one after this fails
        await append(store, "game-g1", 1)
        with pytest.raises(ConnectionResetError):
            await tail.next(timeout=30)
        started = loop.time()
        (record,) = await tail.next(timeout=30)
        assert record.data == {"n": 1}
        assert loop.time() - started < 2.0
