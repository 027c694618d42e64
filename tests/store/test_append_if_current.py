"""``append_if_current``: an order submission's checked append (docs/store.md, "Appending in
one round trip"), on both back ends: written only while the game's stream is at the version
the caller decided from, refused without the game's row, clashing on an expected version, the
watched streams' events given back, and any text stored byte for byte (bound parameters only)."""
from __future__ import annotations

import asyncio
from datetime import UTC, datetime

import pytest

from shared.store import ConcurrencyError, EventStore, GameNotFound, GameRow, NewEvent

GAME = "g_1"
GAME_STREAM = f"game-{GAME}"
PREFIX = f"orders-{GAME}-S1901M-"
WATCHED = [PREFIX + power for power in ("ENGLAND", "FRANCE", "GERMANY")]

# what a hostile client might send as order text: SQL, quoting and placeholder syntax of
# both back ends, dollar quoting (the function's own body is $entente$-quoted), escapes, and
# characters outside ASCII
HOSTILE = [
    "'); DROP TABLE events; --",
    "A PAR - BUR'; SELECT pg_sleep(10); --",
    "$1 $2 ?1 ? %s :name",
    "$entente$ END; $entente$",
    "E'\\\\' \\' \\\\ \\x00 backslashes",
    '"double" `back` \'single\'',
    "Ĳ ß 東京 🚢 \u2028 \u00a0",
]


async def a_game(store: EventStore, events: int = 2) -> None:
    async with store.transaction() as tx:
        await tx.events.append(GAME_STREAM, [NewEvent("Numbered", {"n": n}) for n in range(events)], expected_version=0)
        await tx.games.put_game(GameRow(GAME, "standard", "G", "active", "S1901M", None, {},
                                  datetime(2026, 1, 1, tzinfo=UTC)))


async def test_the_event_is_appended_after_the_end_while_the_game_is_at_the_version_given(store: EventStore) -> None:
    await a_game(store)
    first = await store.append_if_current(GAME, GAME_STREAM, 2, PREFIX + "FRANCE", NewEvent("Orders", {"n": 1}))
    second = await store.append_if_current(GAME, GAME_STREAM, 2, PREFIX + "FRANCE", NewEvent("Orders", {"n": 2}))

    assert first.appended and second.appended and first.guard_version == 2
    read = await store.events.read_stream(PREFIX + "FRANCE")
    assert [(r.version, r.data) for r in read] == [(1, {"n": 1}), (2, {"n": 2})]
    assert [r.position for r in read] == [first.position, second.position]


async def test_nothing_is_written_once_the_game_has_moved_on(store: EventStore) -> None:
    await a_game(store, events=3)
    outcome = await store.append_if_current(GAME, GAME_STREAM, 2, PREFIX + "FRANCE", NewEvent("Orders", {}))

    assert (outcome.appended, outcome.guard_version, outcome.position) == (False, 3, None)
    assert await store.events.read_stream(PREFIX + "FRANCE") == []


async def test_a_game_without_its_row_is_not_found(store: EventStore) -> None:
    with pytest.raises(GameNotFound):
        await store.append_if_current("g_none", "game-g_none", 0, "orders-g_none-S1901M-FRANCE", NewEvent("Orders", {}))


async def test_an_expected_version_that_moved_on_clashes(store: EventStore) -> None:
    await a_game(store)
    await store.append_if_current(GAME, GAME_STREAM, 2, PREFIX + "FRANCE", NewEvent("Orders", {}), 0)
    with pytest.raises(ConcurrencyError) as clash:
        await store.append_if_current(GAME, GAME_STREAM, 2, PREFIX + "FRANCE", NewEvent("Orders", {}), 0)
    assert (clash.value.expected, clash.value.actual) == (0, 1)
    assert len(await store.events.read_stream(PREFIX + "FRANCE")) == 1


async def test_the_watched_streams_events_after_the_position_given_come_back(store: EventStore) -> None:
    await a_game(store)
    england = await store.append_if_current(GAME, GAME_STREAM, 2, PREFIX + "ENGLAND", NewEvent("Orders", {"e": 1}))
    async with store.transaction() as tx:  # another phase's, another game's, a stream not named: not watched
        await tx.events.append(f"orders-{GAME}-F1901M-FRANCE", [NewEvent("Orders", {})], expected_version=0)
        await tx.events.append("orders-g_10-S1901M-FRANCE", [NewEvent("Orders", {})], expected_version=0)
        await tx.events.append(PREFIX + "ITALY", [NewEvent("Orders", {})], expected_version=0)
    france = await store.append_if_current(GAME, GAME_STREAM, 2, PREFIX + "FRANCE", NewEvent("Orders", {"f": 1}),
                                           watch_streams=WATCHED, watch_after=0)
    later = await store.append_if_current(GAME, GAME_STREAM, 2, PREFIX + "FRANCE", NewEvent("Orders", {"f": 2}),
                                          watch_streams=WATCHED, watch_after=france.position or 0)

    assert [(r.stream_id, r.data) for r in france.watched] == [(PREFIX + "ENGLAND", {"e": 1}),
                                                              (PREFIX + "FRANCE", {"f": 1})]
    assert france.watched[0].position == england.position
    assert [(r.stream_id, r.version, r.data) for r in later.watched] == [(PREFIX + "FRANCE", 2, {"f": 2})]


async def test_a_stream_named_twice_among_the_watched_gives_its_events_once(store: EventStore) -> None:
    await a_game(store)
    england = await store.append_if_current(GAME, GAME_STREAM, 2, PREFIX + "ENGLAND", NewEvent("Orders", {"e": 1}))
    france = await store.append_if_current(GAME, GAME_STREAM, 2, PREFIX + "FRANCE", NewEvent("Orders", {"f": 1}),
                                           watch_streams=[*WATCHED, PREFIX + "ENGLAND"], watch_after=0)

    italy = await store.append_if_current(GAME, GAME_STREAM, 2, PREFIX + "ITALY", NewEvent("Orders", {"i": 1}), 0,
                                          watch_streams=[PREFIX + "ITALY", PREFIX + "ITALY"], watch_after=0)

    assert [r.position for r in france.watched] == [england.position, france.position]  # in a batch
    assert [r.position for r in italy.watched] == [italy.position]  # alone, at an expected version


async def test_racing_appends_to_one_stream_take_turns(store: EventStore) -> None:
    await a_game(store)
    outcomes = await asyncio.gather(*(
        store.append_if_current(GAME, GAME_STREAM, 2, PREFIX + "FRANCE", NewEvent("Orders", {"n": n}))
        for n in range(8)))

    assert all(outcome.appended for outcome in outcomes)
    assert [r.version for r in await store.events.read_stream(PREFIX + "FRANCE")] == list(range(1, 9))


async def test_hostile_text_is_stored_byte_for_byte(store: EventStore) -> None:
    await a_game(store)
    metadata: dict[str, object] = {"request_id": HOSTILE[0], "actor": HOSTILE[3]}
    outcome = await store.append_if_current(GAME, GAME_STREAM, 2, PREFIX + "FRANCE",
                                            NewEvent("OrdersSubmitted", {"orders": HOSTILE}, 1, metadata),
                                            watch_streams=WATCHED)

    (stored,) = await store.events.read_stream(PREFIX + "FRANCE")
    assert stored.data["orders"] == HOSTILE
    assert [text.encode() for text in stored.data["orders"]] == [text.encode() for text in HOSTILE]
    assert stored.metadata == metadata
    assert outcome.watched[0].data["orders"] == HOSTILE
    assert [r.version for r in await store.events.read_stream(GAME_STREAM)] == [1, 2]  # the tables are all there
