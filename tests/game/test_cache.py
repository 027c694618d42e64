"""The per-process cache of folded game states (shared/game/repository.py) gives what a full fold
of the stream gives, hands out frozen states, and never keeps what a transaction has not committed."""
from __future__ import annotations

from dataclasses import FrozenInstanceError, fields, replace

import pytest

from services.lobby.service import create_game, join_game, start_game
from shared.bounded import BoundedCache
from shared.events import GameSettings, PlayerJoined, game_stream, to_new_event
from shared.game.cached import Caches, caches_of
from shared.game.repository import bound_state_cache, fold_records, read_game
from shared.game.state import GameState
from shared.store import EventStore


def test_the_state_cache_setting_bounds_the_recent_histories_as_much(store: EventStore) -> None:
    bound_state_cache(store, 3 * 2**20)  # what the app does with ENTENTE_STATE_CACHE_MIB=3
    caches = caches_of(store)
    assert caches.states.max_bytes == caches.histories.max_bytes == caches.past_phases.max_bytes == 3 * 2**20


async def test_truncate_empties_every_cache_of_the_store(store: EventStore) -> None:
    caches = caches_of(store)
    kept: list[BoundedCache[object, object]] = [getattr(caches, f.name) for f in fields(Caches)]
    assert {cache.name for cache in kept} >= {"game_states", "history_entries", "history_entry_texts"}
    for number, cache in enumerate(kept):
        cache.put(number, {}, 1)
    await store.truncate()
    assert [len(cache) for cache in kept] == [0] * len(kept)
    assert caches_of(store) is caches


async def full_fold(store: EventStore, game_id: str) -> GameState:
    return fold_records(await store.events.read_stream(game_stream(game_id)))


async def test_reads_through_the_cache_equal_a_full_fold_as_the_stream_grows(store: EventStore) -> None:
    game_id = (await create_game(store, name="cached", variant="standard", settings=GameSettings())).state.game_id
    for _ in range(7):
        await join_game(store, game_id)
        cached = await read_game(store, game_id)
        assert cached is not None and cached.summary() == (await full_fold(store, game_id)).summary()
    await start_game(store, game_id)
    cached, folded = await read_game(store, game_id), await full_fold(store, game_id)
    assert cached is not None
    assert (cached.version, cached.phase, cached.position, cached.player_hashes()) == \
        (folded.version, folded.phase, folded.position, folded.player_hashes())
    assert await read_game(store, "g_nosuchgame") is None


async def test_a_state_handed_out_is_frozen_and_a_changed_one_is_a_new_state(store: EventStore) -> None:
    game_id = (await create_game(store, name="copies", variant="standard", settings=GameSettings())).state.game_id
    await join_game(store, game_id)
    first = await read_game(store, game_id)
    assert first is not None
    with pytest.raises(FrozenInstanceError):
        first.version += 10  # type: ignore[misc]
    with pytest.raises(FrozenInstanceError):
        first.seats[0].powers = ["FRANCE"]  # type: ignore[misc]
    changed = replace(first, version=first.version + 10)
    again = await read_game(store, game_id)
    assert again is not None and len(again.seats) == 1 and again.seats[0].powers == [] and again.version == 2
    assert changed.version == 12 and again is first


async def test_what_a_rolled_back_transaction_read_of_its_own_writes_is_never_kept(store: EventStore) -> None:
    game_id = (await create_game(store, name="rollback", variant="standard", settings=GameSettings())).state.game_id
    created = await read_game(store, game_id)
    assert created is not None and created.version == 1
    joined = PlayerJoined(player_id="p_ghost", codename="Ghost", token_hash="0" * 64)
    with pytest.raises(RuntimeError):
        async with store.transaction(game_id, lock="exclusive") as tx:
            await tx.events.append(game_stream(game_id), [to_new_event(joined)], expected_version=1)
            inside = await read_game(tx, game_id)
            assert inside is not None and [s.player_id for s in inside.seats] == ["p_ghost"]
            raise RuntimeError("the request failed after appending")
    await join_game(store, game_id)  # a real version 2, at another position
    after = await read_game(store, game_id)
    assert after is not None and after.version == 2 and [s.player_id for s in after.seats] != ["p_ghost"]
    assert after.summary() == (await full_fold(store, game_id)).summary()
