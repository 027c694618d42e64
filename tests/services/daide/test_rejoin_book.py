"""The rejoin rules (services/daide/rejoin.py) on the store's kept seats, both back ends, by the
clock they are given: IAM keyed by the game, five wrong passcodes a seat then a lock of a
quarter of an hour, the right passcode from another address counted as wrong, an hour after the
HLO and no longer; and the passcode kept only as a salted hash."""
from __future__ import annotations

from services.daide.grants import Grant
from services.daide.rejoin import LOCK_SECONDS, MAX_WRONG_PASSCODES, REJOIN_SECONDS, Held, attempt, remember
from shared.store import EventStore


async def keep(store: EventStore, game_id: str, passcode: int = 1234, address: str = "10.0.0.1",
               port: int | None = None, now: float = 0) -> None:
    await remember(store, Held(game_id, f"p_{game_id}", "FRANCE", Grant(f"p_{game_id}", "h"), port), passcode,
                   address, now)


async def test_iam_is_keyed_by_the_game_and_locks_after_five_wrong_passcodes(store: EventStore) -> None:
    await keep(store, "g_one", port=42001)
    await keep(store, "g_two", passcode=777, port=42002)
    # the other game's passcode on this game's port opens nothing
    assert (await attempt(store, game_id="g_one", port=42001, power="FRANCE", passcode=777, address="10.0.0.1",
                          now=1)).held is None
    for n in range(2, MAX_WRONG_PASSCODES):
        assert (await attempt(store, game_id="g_one", port=42001, power="FRANCE", passcode=n, address="10.0.0.1",
                              now=n)).held is None
    right_elsewhere = await attempt(store, game_id="g_one", port=42001, power="FRANCE", passcode=1234,
                                    address="10.9.9.9", now=10)
    assert right_elsewhere.held is None and right_elsewhere.locked and right_elsewhere.wrong == MAX_WRONG_PASSCODES
    locked = await attempt(store, game_id="g_one", port=42001, power="FRANCE", passcode=1234, address="10.0.0.1",
                           now=11)
    assert locked.held is None and not locked.locked and "refuses IAM" in locked.why
    # the other game's seat is untouched by the lock
    assert (await attempt(store, game_id="g_two", port=42002, power="FRANCE", passcode=777, address="10.0.0.1",
                          now=12)).held is not None
    # a new HLO of the seat keeps its lock
    await keep(store, "g_one", port=42001, now=13)
    assert (await attempt(store, game_id="g_one", port=42001, power="FRANCE", passcode=1234, address="10.0.0.1",
                          now=14)).held is None
    later = await attempt(store, game_id="g_one", port=42001, power="FRANCE", passcode=1234, address="10.0.0.1",
                          now=10 + LOCK_SECONDS + 1)
    assert later.held is not None and later.held.game_id == "g_one"


async def test_the_one_port_needs_a_single_seat_for_the_address_and_the_hour_ends(store: EventStore) -> None:
    await keep(store, "g_one")
    assert (await attempt(store, game_id=None, port=None, power="FRANCE", passcode=1234, address="10.0.0.1",
                          now=1)).held is not None
    await keep(store, "g_two", passcode=55, now=2)
    both = await attempt(store, game_id=None, port=None, power="FRANCE", passcode=1234, address="10.0.0.1", now=3)
    assert both.held is None and "several games" in both.why
    # a game port's seat is not the one port's to give back
    await store.rejoins.forget("g_one")
    await store.rejoins.forget("g_two")
    await keep(store, "g_three", port=42003)
    assert (await attempt(store, game_id=None, port=None, power="FRANCE", passcode=1234, address="10.0.0.1",
                          now=1)).held is None
    assert (await attempt(store, game_id="g_three", port=42003, power="FRANCE", passcode=1234, address="10.0.0.1",
                          now=REJOIN_SECONDS + 1)).held is None


async def test_the_store_keeps_no_passcode_nor_address_in_clear(store: EventStore) -> None:
    await keep(store, "g_one", passcode=4321, address="10.0.0.7")
    await keep(store, "g_two", passcode=4321, address="10.0.0.7", port=42002)
    one, two = await store.rejoins.of_game("g_one", "FRANCE"), await store.rejoins.of_game("g_two", "FRANCE")
    assert one is not None and two is not None
    for row in (one, two):  # a salt and a SHA-256, hexadecimal: no passcode, no address
        salt, _, digest = row.passcode_hash.partition("$")
        assert len(salt) == 32 and len(digest) == 64 and int(salt + digest, 16) >= 0
        assert "10.0.0.7" not in row.address_key and len(row.address_key) == 64
    assert one.passcode_hash != two.passcode_hash  # salted: one passcode, two hashes
