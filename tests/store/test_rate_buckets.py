"""The rate limits' buckets in the store (shared/store/buckets.py), on both back ends: a burst,
then one every interval; a refusal takes nothing from any bucket of the request; of racing
takes for the last places exactly as many as the bucket holds win, whichever process (here:
store) each comes from; a full bucket may be forgotten."""
from __future__ import annotations

import asyncio

from shared.store import EventStore, open_store
from shared.store.buckets import Refused, Take

NOW = 1_800_000_000.0
FOUR_A_MINUTE = Take("address", 15.0, 45.0)  # 4 a minute: a burst of 4, then one every 15 s
TWO_A_MINUTE = Take("token", 30.0, 30.0)


async def test_a_burst_then_one_every_interval(store: EventStore) -> None:
    assert [await store.buckets.take_all(NOW, [FOUR_A_MINUTE]) for _ in range(5)] == [None] * 4 + [Refused(0, 15.0)]
    assert await store.buckets.take_all(NOW + 10, [FOUR_A_MINUTE]) == Refused(0, 5.0)
    assert await store.buckets.take_all(NOW + 15, [FOUR_A_MINUTE]) is None
    assert await store.buckets.take_all(NOW + 15, [FOUR_A_MINUTE]) == Refused(0, 15.0)


async def test_a_refused_request_takes_from_no_bucket(store: EventStore) -> None:
    both = [FOUR_A_MINUTE, TWO_A_MINUTE]
    assert [await store.buckets.take_all(NOW, both) for _ in range(3)] == [None, None, Refused(1, 30.0)]
    # the refused third took nothing from the address: it has two places left
    assert [await store.buckets.take_all(NOW, [FOUR_A_MINUTE]) for _ in range(3)] == [None, None, Refused(0, 15.0)]
    # and the address refusing first takes nothing from the token (refilled by one in 30 s)
    assert await store.buckets.take_all(NOW + 30, both) is None
    assert await store.buckets.take_all(NOW + 30, [TWO_A_MINUTE]) == Refused(0, 30.0)


async def test_racing_stores_share_the_last_places(store: EventStore, store_url: str) -> None:
    others = [await open_store(store_url) for _ in range(2)]
    try:
        stores = [store, *others]
        outcomes = await asyncio.gather(*(stores[n % 3].buckets.take_all(NOW, [FOUR_A_MINUTE, Take("t", 1.0, 99.0)])
                                          for n in range(12)))
    finally:
        for other in others:
            await other.close()
    assert outcomes.count(None) == 4
    assert all(outcome == Refused(0, 15.0) for outcome in outcomes if outcome is not None)
    # the refused ones gave back what they took of the second bucket: 96 places left of 100
    left = [await store.buckets.take_all(NOW, [Take("t", 1.0, 99.0)]) for _ in range(97)]
    assert left[-2:] == [None, Refused(0, 1.0)]


async def test_a_full_bucket_is_forgotten_as_if_never_used(store: EventStore) -> None:
    for _ in range(4):
        assert await store.buckets.take_all(NOW, [FOUR_A_MINUTE]) is None
    await store.buckets.forget_full(NOW + 59)  # not full yet: kept
    assert await store.buckets.take_all(NOW + 14, [FOUR_A_MINUTE]) == Refused(0, 1.0)
    await store.buckets.forget_full(NOW + 61)
    assert [await store.buckets.take_all(NOW, [FOUR_A_MINUTE]) for _ in range(5)][-2:] == [None, Refused(0, 15.0)]


async def test_requests_at_once_each_meet_their_own_buckets(store: EventStore) -> None:
    # thirty requests at once, each its own token (one place) and all one address (ten places):
    # gathered into a few statements (docs/store.md, "Rate buckets gathered"), and exactly ten get in
    shared = Take("address", 6.0, 54.0)
    outcomes = await asyncio.gather(*(store.buckets.take_all(NOW, [shared, Take(f"token{n}", 60.0, 0.0)])
                                      for n in range(30)))
    assert outcomes.count(None) == 10
    assert all(outcome == Refused(0, 6.0) for outcome in outcomes if outcome is not None)
    # a refused request took nothing of its token's one place; an admitted one took it
    admitted = [n for n, outcome in enumerate(outcomes) if outcome is None]
    assert all([await store.buckets.take_all(NOW, [Take(f"token{n}", 60.0, 0.0)]) is None
                for n in range(30) if n not in admitted])
    assert all([await store.buckets.take_all(NOW, [Take(f"token{n}", 60.0, 0.0)]) == Refused(0, 60.0)
                for n in admitted])


async def test_batches_of_many_keys_from_two_processes_never_deadlock(store: EventStore, store_url: str) -> None:
    # two processes (here: stores) each gathering requests for the same forty buckets, one in
    # the keys' order, the other in the reverse: each statement locks the rows it shares with
    # the other's in one order, so neither waits on the other in a circle (PostgreSQL would
    # break such a circle by failing one statement)
    other = await open_store(store_url)
    keys = [f"k{n:02}" for n in range(40)]
    try:
        for _ in range(15):
            outcomes = await asyncio.gather(
                *(store.buckets.take_all(NOW, [Take(key, 0.001, 1e6)]) for key in keys),
                *(other.buckets.take_all(NOW, [Take(key, 0.001, 1e6)]) for key in reversed(keys)))
            assert outcomes == [None] * 80
    finally:
        await other.close()
