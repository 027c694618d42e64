"""``tx.events.append_on_commit``: a transaction's last events, written with its commit (one
message to PostgreSQL); the same contract as ``append`` otherwise, on both back ends."""
from __future__ import annotations

import asyncio

import pytest

from shared.store import ConcurrencyError, EventStore, NewEvent


def numbered(count: int, kind: str = "Numbered") -> list[NewEvent]:
    return [NewEvent(kind, {"n": n, "text": "it's a \\ test"}) for n in range(1, count + 1)]


async def test_events_appended_on_commit_are_read_back_after_the_end(store: EventStore) -> None:
    async with store.transaction() as tx:
        await tx.events.append("orders-g1-S1901M-FRANCE", numbered(2), None)
    async with store.transaction() as tx:
        await tx.events.append_on_commit("orders-g1-S1901M-FRANCE", numbered(3, "Later"), None)
        await tx.events.append_on_commit("game-g1", numbered(1), 0)
    stream = await store.events.read_stream("orders-g1-S1901M-FRANCE")
    expected = [(1, "Numbered"), (2, "Numbered"), (3, "Later"), (4, "Later"), (5, "Later")]
    assert [(e.version, e.type) for e in stream] == expected
    assert stream[-1].data == {"n": 3, "text": "it's a \\ test"}
    positions = [e.position for e in stream[2:]]
    assert positions == list(range(positions[0], positions[0] + 3))
    everything = await store.events.read_all()
    assert [e.position for e in everything] == sorted(e.position for e in everything)
    assert [e.stream_id for e in everything][-1] == "game-g1"


async def test_a_clash_raises_when_the_transaction_ends_and_writes_nothing_of_it(store: EventStore) -> None:
    async with store.transaction() as tx:
        await tx.events.append("game-g1", numbered(2), 0)
    with pytest.raises(ConcurrencyError) as raised:
        async with store.transaction() as tx:
            await tx.events.append_on_commit("orders-g1-S1901M-ENGLAND", numbered(1), None)
            await tx.events.append_on_commit("game-g1", numbered(1), 1)  # version 2 is there already
    assert (raised.value.expected, raised.value.actual) == (1, 2)
    assert await store.events.read_stream("orders-g1-S1901M-ENGLAND") == []
    assert len(await store.events.read_stream("game-g1")) == 2


async def test_concurrent_appends_on_commit_after_the_end_all_land(store: EventStore) -> None:
    async def submit(number: int) -> None:
        async with store.transaction() as tx:
            await tx.events.append_on_commit("orders-g1-S1901M-FRANCE", [NewEvent("Submitted", {"n": number})], None)

    await asyncio.wait_for(asyncio.gather(*(submit(n) for n in range(8))), 60)
    stream = await store.events.read_stream("orders-g1-S1901M-FRANCE")
    assert [e.version for e in stream] == list(range(1, 9))
    assert sorted(n for e in stream if isinstance(n := e.data["n"], int)) == list(range(8))


async def test_append_may_not_follow_append_on_commit(store: EventStore) -> None:
    with pytest.raises(RuntimeError):
        async with store.transaction() as tx:
            await tx.events.append_on_commit("game-g1", numbered(1), 0)
            await tx.events.append("game-g2", numbered(1), 0)
    assert await store.events.read_all() == []
