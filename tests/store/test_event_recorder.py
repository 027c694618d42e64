"""The event log's recorder (``tx.events``, ``store.events``: shared/store/recorders.py), its
part of the store's contract, run unchanged on SQLite and PostgreSQL (the ``store`` fixture)."""
from __future__ import annotations

import asyncio
import random
from datetime import UTC, datetime, timedelta, timezone

import pytest

from shared.store import ConcurrencyError, EventStore, NewEvent


def numbered(count: int, kind: str = "Numbered") -> list[NewEvent]:
    return [NewEvent(kind, {"n": n}) for n in range(1, count + 1)]


async def test_appended_events_read_back_in_order_with_versions_one_to_n(store: EventStore) -> None:
    async with store.transaction() as tx:
        appended = await tx.events.append("game-g1", numbered(3), expected_version=0)
    async with store.transaction() as tx:
        appended += await tx.events.append("game-g1", numbered(2, "More"), expected_version=3)

    read = await store.events.read_stream("game-g1")
    assert read == appended
    assert [event.version for event in read] == [1, 2, 3, 4, 5]
    assert [event.type for event in read] == ["Numbered"] * 3 + ["More"] * 2
    assert [event.data["n"] for event in read] == [1, 2, 3, 1, 2]
    assert all(event.stream_id == "game-g1" for event in read)
    assert [event.version for event in await store.events.read_stream("game-g1", after_version=3)] == [4, 5]
    assert await store.events.read_stream("game-unknown") == []


async def test_a_page_of_a_stream_is_its_events_between_two_versions(store: EventStore) -> None:
    async with store.transaction() as tx:
        appended = await tx.events.append("game-g1", numbered(6), expected_version=0)
    assert await store.events.read_stream("game-g1", after_version=1, up_to_version=4) == appended[1:4]
    assert await store.events.read_stream("game-g1", after_version=4, up_to_version=99) == appended[4:]
    assert await store.events.read_stream("game-g1", after_version=3, up_to_version=3) == []
    async with store.reading() as tx:
        assert [r.version for r in await tx.events.read_stream("game-g1", 0, 2)] == [1, 2]


async def test_recorded_event_carries_schema_version_metadata_and_utc_time(store: EventStore) -> None:
    before = datetime.now(UTC)
    async with store.transaction() as tx:
        await tx.events.append("game-g1", [NewEvent("GameCreated", {"a": 1}, 3, {"who": "alice", "request": "r1"})], 0)
    (event,) = await store.events.read_stream("game-g1")
    assert (event.type, event.schema_version, event.metadata) == ("GameCreated", 3, {"who": "alice", "request": "r1"})
    assert event.recorded_at.tzinfo is not None
    assert before - timedelta(seconds=5) <= event.recorded_at <= datetime.now(UTC) + timedelta(seconds=5)


async def test_an_event_copied_from_another_log_keeps_its_recording_time(store: EventStore) -> None:
    original = datetime(2025, 3, 1, 18, 30, 15, 123456, tzinfo=timezone(timedelta(hours=2)))
    async with store.transaction() as tx:
        (appended,) = await tx.events.append("game-g1", [NewEvent("GameCreated", {}, recorded_at=original)], 0)
    (event,) = await store.events.read_stream("game-g1")
    assert event.recorded_at == appended.recorded_at == original
    assert event.recorded_at.utcoffset() == timedelta(0)


async def test_stream_version_is_zero_for_a_new_stream_and_counts_events(store: EventStore) -> None:
    async with store.transaction() as tx:
        assert await tx.events.stream_version("game-g1") == 0
        await tx.events.append("game-g1", numbered(4), 0)
        assert await tx.events.stream_version("game-g1") == 4


async def test_wrong_expected_version_raises_and_writes_nothing_of_the_transaction(store: EventStore) -> None:
    async with store.transaction() as tx:
        await tx.events.append("game-g1", numbered(2), 0)

    with pytest.raises(ConcurrencyError) as raised:
        async with store.transaction() as tx:
            await tx.events.append("game-other", numbered(1), 0)  # a good append earlier in the transaction
            await tx.events.append("game-g1", numbered(3), expected_version=1)
    assert (raised.value.stream_id, raised.value.expected, raised.value.actual) == ("game-g1", 1, 2)

    assert len(await store.events.read_stream("game-g1")) == 2
    assert await store.events.read_stream("game-other") == []
    assert [event.stream_id for event in await store.events.read_all()] == ["game-g1", "game-g1"]


async def test_a_swallowed_conflict_still_rolls_the_transaction_back(store: EventStore) -> None:
    with pytest.raises(ConcurrencyError):
        async with store.transaction() as tx:
            await tx.events.append("game-a", numbered(1), 0)
            try:
                await tx.events.append("game-a", numbered(1), 0)
            except ConcurrencyError:
                pass  # the caller ignores it: the store must not commit half a transaction
    assert await store.events.read_stream("game-a") == []


async def test_expected_version_none_appends_after_the_end(store: EventStore) -> None:
    async with store.transaction() as tx:
        await tx.events.append("orders-g1-S1901M-FRANCE", numbered(2), None)
    async with store.transaction() as tx:
        appended = await tx.events.append("orders-g1-S1901M-FRANCE", numbered(1, "Later"), None)
    assert [event.version for event in appended] == [3]
    read = await store.events.read_stream("orders-g1-S1901M-FRANCE")
    assert [event.type for event in read] == ["Numbered"] * 2 + ["Later"]


async def test_a_multi_event_append_is_atomic_and_takes_consecutive_positions(store: EventStore) -> None:
    async with store.transaction() as tx:
        appended = await tx.events.append("game-g1", numbered(5), 0)
    positions = [event.position for event in appended]
    assert positions == list(range(positions[0], positions[0] + 5))

    with pytest.raises(RuntimeError):
        async with store.transaction() as tx:
            await tx.events.append("game-g2", numbered(5), 0)
            raise RuntimeError("the service failed after appending")
    assert await store.events.read_stream("game-g2") == []


async def test_read_all_in_position_order_after_a_position_and_with_a_limit(store: EventStore) -> None:
    for round_ in range(3):
        for stream in ("game-a", "game-b"):
            async with store.transaction() as tx:
                await tx.events.append(stream, [NewEvent("E", {"round": round_, "stream": stream})], None)

    everything = await store.events.read_all()
    assert [(event.stream_id, event.data["round"]) for event in everything] == [
        ("game-a", 0), ("game-b", 0), ("game-a", 1), ("game-b", 1), ("game-a", 2), ("game-b", 2),
    ]
    positions = [event.position for event in everything]
    assert positions == sorted(positions) and len(set(positions)) == 6

    assert await store.events.read_all(after_position=positions[3]) == everything[4:]
    assert await store.events.read_all(after_position=positions[0], limit=2) == everything[1:3]
    assert await store.events.read_all(after_position=positions[-1]) == []


async def test_read_streams_collects_every_stream_with_the_prefix_and_no_other(store: EventStore) -> None:
    async with store.transaction() as tx:
        await tx.events.append("orders-g_1-S1901M-FRANCE", numbered(2), 0)
        await tx.events.append("orders-g_1-S1901M-ENGLAND", numbered(1), 0)
        await tx.events.append("orders-g_1-F1901M-FRANCE", numbered(1), 0)  # another phase
        await tx.events.append("orders-gx1-S1901M-FRANCE", numbered(1), 0)  # "_" is no wildcard
        await tx.events.append("ORDERS-G_1-S1901M-RUSSIA", numbered(1), 0)  # case matters
        await tx.events.append("game-g_1", numbered(1), 0)
    async with store.transaction() as tx:
        streams = await tx.events.read_streams("orders-g_1-S1901M-")
    assert sorted(streams) == ["orders-g_1-S1901M-ENGLAND", "orders-g_1-S1901M-FRANCE"]
    assert [event.version for event in streams["orders-g_1-S1901M-FRANCE"]] == [1, 2]
    async with store.transaction() as tx:
        assert await tx.events.read_streams("orders-g%") == {}


async def test_read_streams_after_a_position_gives_each_streams_later_events_only(store: EventStore) -> None:
    phase = "orders-g_1-S1901M-"
    async with store.transaction() as tx:
        await tx.events.append(phase + "FRANCE", numbered(2), 0)
        await tx.events.append(phase + "ENGLAND", numbered(1), 0)
    after = await store.events.head()
    async with store.transaction() as tx:  # interleaved, streams sorting around each other and beyond ASCII
        await tx.events.append(phase + "FRANCE", numbered(1), None)
        await tx.events.append(phase + "ÉIRE", numbered(2), 0)
        await tx.events.append("orders-g_1-S1901M", numbered(1), 0)  # the prefix less its last character
        await tx.events.append(phase + "AUSTRIA", numbered(1), 0)
        await tx.events.append(phase + "FRANCE", numbered(1), None)
        await tx.events.append("orders-g_1-S1901N-FRANCE", numbered(1), 0)  # sorts just after the prefix
    async with store.transaction() as tx:
        streams = await tx.events.read_streams(phase, after)
    assert {stream: [event.version for event in events] for stream, events in streams.items()} == {
        phase + "AUSTRIA": [1], phase + "FRANCE": [3, 4], phase + "ÉIRE": [1, 2]}  # ENGLAND: nothing new
    assert all(event.position > after for events in streams.values() for event in events)
    assert await store.events.read_streams(phase, await store.events.head()) == {}


async def test_read_all_of_gives_the_streams_asked_for_and_goes_past_the_others(store: EventStore) -> None:
    async with store.transaction() as tx:
        for stream in ("game-g_1", "orders-g_1-S1901M-FRANCE", "press-g_1", "orders-g_1-S1901M-ITALY",
                       "gamex-g_1", "game_g_1", "GAME-g_1", "webhooks-g_1", "game-g_2"):
            await tx.events.append(stream, numbered(1), None)
    everything = await store.events.read_all()
    prefixes = ("game-", "press-", "webhooks-")
    async with store.reading() as tx:
        first = await tx.events.read_all_of(prefixes, 0, 4)  # the first four: two of them asked for
        rest = await tx.events.read_all_of(prefixes, first.last_position, 100)
        after_the_end = await tx.events.read_all_of(prefixes, rest.last_position, 100)
    assert [r.stream_id for r in first.events] == ["game-g_1", "press-g_1"]
    assert (first.last_position, first.passed) == (everything[3].position, 4)
    # "game_" is no wildcard, case matters, and a longer word is another prefix
    assert [r.stream_id for r in rest.events] == ["webhooks-g_1", "game-g_2"]
    assert (rest.last_position, rest.passed) == (everything[-1].position, 5)
    assert [r.data for r in rest.events] == [everything[7].data, everything[8].data]
    assert (after_the_end.events, after_the_end.last_position, after_the_end.passed) == ([], rest.last_position, 0)


async def test_exactly_one_of_concurrent_appenders_expecting_the_same_version_wins(store: EventStore) -> None:
    async with store.transaction() as tx:
        await tx.events.append("game-g1", numbered(2), 0)

    async def contender(name: str) -> str:
        try:
            async with store.transaction() as tx:
                await tx.events.append("game-g1", [NewEvent("Resolved", {"by": name})], expected_version=2)
            return name
        except ConcurrencyError as error:
            assert error.actual == 3
            return "lost"

    outcomes = await asyncio.wait_for(asyncio.gather(*(contender(f"c{i}") for i in range(6))), 60)
    winners = [outcome for outcome in outcomes if outcome != "lost"]
    assert len(winners) == 1
    stream = await store.events.read_stream("game-g1")
    assert [event.version for event in stream] == [1, 2, 3]
    assert stream[-1].data == {"by": winners[0]}


async def test_a_tailing_reader_sees_every_event_once_in_increasing_positions(store: EventStore) -> None:
    writers, appends_per_writer = 16, 20
    rng = random.Random(7)
    delays = [[rng.random() * 0.008 for _ in range(appends_per_writer)] for _ in range(writers)]
    written: set[tuple[str, int]] = set()

    async def writer(number: int) -> None:
        for index in range(appends_per_writer):
            async with store.transaction() as tx:
                batch = [NewEvent("Tick", {"writer": number, "i": index, "k": k}) for k in range(1 + index % 3)]
                recorded = await tx.events.append(f"stream-{number}", batch, None)
                await asyncio.sleep(delays[number][index])  # commit late, after others took positions
            written.update((event.stream_id, event.version) for event in recorded)

    seen: list[tuple[int, str, int]] = []
    writing = asyncio.gather(*(writer(number) for number in range(writers)))

    async def tail() -> None:
        last = 0
        while True:
            finished = writing.done()
            batch = await store.events.read_all(after_position=last, limit=7)
            seen.extend((event.position, event.stream_id, event.version) for event in batch)
            if batch:
                last = batch[-1].position
            elif finished:
                return
            else:
                await asyncio.sleep(0.001)  # this polling reader is the one under test

    await asyncio.wait_for(asyncio.gather(writing, tail()), 120)
    positions = [position for position, _, _ in seen]
    assert positions == sorted(set(positions)), "positions must increase, each event seen once"
    assert {(stream, version) for _, stream, version in seen} == written
    assert len(seen) == len(written) == writers * sum(1 + index % 3 for index in range(appends_per_writer))


@pytest.mark.parametrize(
    "payload",
    [
        {"name": "Österreich-Ungarn — Ὀδυσσεύς 日本 🙂", "emoji key 🗺": "∀x∈ℕ"},
        {"nested": {"a": [1, 2.5, True, False, None, {"b": [[], {}]}]}, "neg": -7, "big": 2**53},
        {"orders": [f"A PAR - BUR {n}" for n in range(20_000)], "blob": "x" * 1_000_000},
    ],
    ids=["unicode", "nested", "large"],
)
async def test_data_round_trips(store: EventStore, payload: dict) -> None:
    async with store.transaction() as tx:
        await tx.events.append("game-g1", [NewEvent("Payload", payload, metadata={"note": payload.get("name", "")})], 0)
    (event,) = await store.events.read_stream("game-g1")
    assert event.data == payload
    (event,) = await store.events.read_all()
    assert event.data == payload


async def test_the_head_is_the_last_position_of_the_log(store: EventStore) -> None:
    assert await store.events.head() == 0
    async with store.transaction() as tx:
        await tx.events.append("game-g1", [NewEvent("A", {}), NewEvent("B", {})], 0)
        appended = await tx.events.append("game-g2", [NewEvent("C", {})], 0)
        assert await tx.events.head() == appended[-1].position  # its own events, not yet committed
    assert await store.events.head() == appended[-1].position == (await store.events.read_all())[-1].position


async def test_several_streams_read_at_once_as_each_alone(store: EventStore) -> None:
    async with store.transaction() as tx:
        await tx.events.append("game-g1", numbered(4), expected_version=0)
        await tx.events.append("game-g2", numbered(2), expected_version=0)
        await tx.events.append("orders-g1-S1901M-FRANCE", numbered(2), expected_version=0)
        await tx.events.append("orders-g1-S1901M-ITALY", numbered(1), expected_version=0)
        await tx.events.append("orders-g1-F1901M-ITALY", numbered(1), expected_version=0)
        await tx.events.append("orders-g2-S1901M-ITALY", numbered(3), expected_version=0)
    italy = await store.events.read_stream("orders-g1-S1901M-ITALY")
    async with store.transaction() as tx:
        each = await tx.events.read_each({"game-g1": 2, "game-g2": 0, "game-none": 0, "game-g": 0})
        assert each == {"game-g1": await store.events.read_stream("game-g1", 2),
                        "game-g2": await store.events.read_stream("game-g2")}
        prefixes = await tx.events.read_prefixes({"orders-g1-S1901M-": italy[0].position - 1, "orders-g2-": 0,
                                                  "orders-g3-": 0})
        assert prefixes == {"orders-g1-S1901M-": {"orders-g1-S1901M-ITALY": italy},
                            "orders-g2-": await store.events.read_streams("orders-g2-"), "orders-g3-": {}}
        # the versions read serve the appends that follow; a stream moved on meanwhile is still a clash
        await tx.events.append_on_commit("game-g1", numbered(1), expected_version=4)
    assert [e.version for e in await store.events.read_stream("game-g1")] == [1, 2, 3, 4, 5]


async def test_a_stream_moved_on_after_this_transaction_read_it_is_a_clash(postgres_store: EventStore) -> None:
    """On PostgreSQL only: SQLite has one writer at a time, so no other transaction appends
    between this one's read and its append."""
    store = postgres_store
    async with store.transaction() as tx:
        await tx.events.append("game-g1", numbered(2), expected_version=0)
    with pytest.raises(ConcurrencyError):
        async with store.transaction() as tx:
            assert len((await tx.events.read_each({"game-g1": 0}))["game-g1"]) == 2
            async with store.transaction() as other:
                await other.events.append("game-g1", numbered(1), expected_version=2)
            await tx.events.append_on_commit("game-g1", numbered(1), expected_version=2)
    assert [e.version for e in await store.events.read_stream("game-g1")] == [1, 2, 3]
