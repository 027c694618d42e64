"""The places of the seats' open live streams in the store (shared/store/leases.py), on both back
ends: a seat's cap of places, each held until its lease expires; of racing takes from several
processes (here: stores) for the last places exactly the cap wins; a place given back is free at
once; a process's leases move on together while it lives, and the places of one that stopped
(a crash: nobody gives them back) come free when its leases expire."""
from __future__ import annotations

import asyncio

from shared.store import EventStore, open_store

NOW = 1_800_000_000.0


async def test_a_cap_of_places_given_back_and_kept_alive(store: EventStore) -> None:
    taken = [await store.leases.take("seat:p_1", 3, "a", f"l{n}", NOW + 45, NOW) for n in range(4)]
    assert [lease.slot if lease else None for lease in taken] == [0, 1, 2, None]
    assert await store.leases.take("seat:p_2", 3, "a", "other", NOW + 45, NOW) is not None  # another seat
    assert taken[1] is not None
    await store.leases.release(taken[1])
    again = await store.leases.take("seat:p_1", 3, "b", "l9", NOW + 45, NOW)
    assert again is not None and again.slot == 1
    # process "a" lives on: its leases move on, and hold past their first expiry
    await store.leases.refresh("a", NOW + 90)
    assert await store.leases.take("seat:p_1", 3, "c", "early", NOW + 95, NOW + 44) is None
    # process "b" stopped at NOW (never refreshed): its place comes free once its lease expires
    late = await store.leases.take("seat:p_1", 3, "c", "late", NOW + 95, NOW + 46)
    assert late is not None and late.slot == 1
    # giving back a lease another took over meanwhile frees nothing of the other's
    await store.leases.release(again)
    assert await store.leases.take("seat:p_1", 3, "c", "later", NOW + 95, NOW + 47) is None
    await store.leases.forget_expired(NOW + 91)  # a's two expired, unrefreshed since: deleted
    found = await store.leases.take("seat:p_1", 3, "d", "x", NOW + 140, NOW + 92)
    assert found is not None and found.slot == 0


async def test_racing_stores_share_the_last_places(store: EventStore, store_url: str) -> None:
    others = [await open_store(store_url) for _ in range(2)]
    try:
        stores = [store, *others]
        taken = await asyncio.gather(*(stores[n % 3].leases.take("seat:p_1", 4, f"p{n % 3}", f"l{n}", NOW + 45, NOW)
                                       for n in range(12)))
    finally:
        for other in others:
            await other.close()
    won = [lease for lease in taken if lease is not None]
    assert sorted(lease.slot for lease in won) == [0, 1, 2, 3]
