"""The checked appends of order submissions gathered into one commit (docs/store.md, "Appends
gathered into one commit"): ``GroupCommit`` itself, then PostgreSQL's batches: each item
answered as if it had been written alone, and batches from two processes racing resolutions
of the same games without a deadlock."""
from __future__ import annotations

import asyncio
import random
from collections.abc import Sequence
from datetime import UTC, datetime

import pytest

from shared.store import EventStore, GameNotFound, GameRow, NewEvent, open_store
from shared.store.batching import GroupCommit
from shared.store.postgresql import PostgresStore

POWERS = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY")


# ----------------------------------------------------------------------------- GroupCommit


class Recorder:
    """A batch writer that holds its first batch until released, and records every batch."""

    def __init__(self) -> None:
        self.batches: list[list[int]] = []
        self.release = asyncio.Event()

    async def write(self, items: Sequence[int]) -> list[int | BaseException]:
        self.batches.append(list(items))
        if len(self.batches) == 1:
            await self.release.wait()
        if 13 in items:
            raise RuntimeError("the database went away")
        return [ValueError(f"odd {item}") if item % 2 else item * 10 for item in items]


async def test_the_first_item_goes_alone_and_those_arriving_meanwhile_go_together() -> None:
    recorder = Recorder()
    commit: GroupCommit[int, int] = GroupCommit(recorder.write, max_items=3)
    first = asyncio.create_task(commit.submit(0))
    await asyncio.sleep(0)
    rest = [asyncio.create_task(commit.submit(item)) for item in (2, 4, 6, 8)]
    await asyncio.sleep(0)
    recorder.release.set()

    assert await first == 0
    assert [await task for task in rest] == [20, 40, 60, 80]
    assert recorder.batches == [[0], [2, 4, 6], [8]]  # at most max_items a batch
    assert (commit.batches, commit.items) == (3, 5)


async def test_an_items_failure_reaches_its_caller_alone_and_a_batchs_failure_each_of_its_callers() -> None:
    recorder = Recorder()
    recorder.release.set()
    commit: GroupCommit[int, int] = GroupCommit(recorder.write)
    outcomes = await asyncio.gather(*(commit.submit(item) for item in (2, 3, 4)), return_exceptions=True)
    assert outcomes[0] == 20 and outcomes[2] == 40
    assert isinstance(outcomes[1], ValueError) and str(outcomes[1]) == "odd 3"

    failed = await asyncio.gather(*(commit.submit(item) for item in (12, 13)), return_exceptions=True)
    assert [type(outcome) for outcome in failed] == [RuntimeError, RuntimeError]
    assert await commit.submit(14) == 140  # the next batch is written as usual


async def test_callers_waiting_when_the_writer_stops_are_not_left_waiting() -> None:
    """The loop stopping cancels the writer mid-batch: its callers and those queued behind it
    are cancelled, not left waiting for an answer that will not come."""
    recorder = Recorder()  # holds its first batch until released: never, here
    commit: GroupCommit[int, int] = GroupCommit(recorder.write)
    writing = asyncio.create_task(commit.submit(0))
    await asyncio.sleep(0)
    queued = asyncio.create_task(commit.submit(2))
    await asyncio.sleep(0)
    assert commit._writer is not None  # what the loop's shutdown cancels
    commit._writer.cancel()

    done, pending = await asyncio.wait({writing, queued}, timeout=5)
    assert pending == set() and all(task.cancelled() for task in done)
    recorder.release.set()
    assert await commit.submit(4) == 40  # a new writer for what comes next


# ----------------------------------------------------------------------------- PostgreSQL's batches


async def a_game(store: EventStore, game_id: str, events: int) -> None:
    async with store.transaction() as tx:
        await tx.events.append(f"game-{game_id}", [NewEvent("Numbered", {"n": n}) for n in range(events)],
                               expected_version=0)
        await tx.games.put_game(GameRow(game_id, "standard", "G", "active", "S1901M", None, {},
                                  datetime(2026, 1, 1, tzinfo=UTC)))


def orders_stream(game_id: str, power: str) -> str:
    return f"orders-{game_id}-S1901M-{power}"


@pytest.mark.postgres
async def test_appends_arriving_together_are_one_commit_and_each_is_answered_as_if_alone(
        postgres_store: EventStore) -> None:
    assert isinstance(postgres_store, PostgresStore)
    await a_game(postgres_store, "g_1", 2)
    await a_game(postgres_store, "g_2", 3)
    watched = [orders_stream("g_1", power) for power in POWERS]
    calls = [("g_1", 2, POWERS[n % 4], n) for n in range(16)]  # current: written
    calls += [("g_2", 2, "FRANCE", n) for n in range(16, 20)]  # decided from version 2, the game is at 3
    calls += [("g_none", 0, "FRANCE", n) for n in range(20, 24)]  # no such game
    random.Random(7).shuffle(calls)

    outcomes = await asyncio.gather(*(
        postgres_store.append_if_current(game_id, f"game-{game_id}", guard, orders_stream(game_id, power),
                                         NewEvent("Orders", {"n": n}), watch_streams=watched, watch_after=0)
        for game_id, guard, power, n in calls), return_exceptions=True)

    commit = postgres_store.group_commit
    assert commit.items == len(calls) and commit.batches < len(calls)
    by_n = {n: outcome for (_, _, _, n), outcome in zip(calls, outcomes, strict=True)}
    for n in range(20, 24):
        assert isinstance(by_n[n], GameNotFound)
    for n in range(16, 20):
        moved_on = by_n[n]
        assert not isinstance(moved_on, BaseException)
        assert (moved_on.appended, moved_on.guard_version) == (False, 3)
    assert await postgres_store.events.read_stream(orders_stream("g_2", "FRANCE")) == []
    stored = {r.data["n"]: r for power in POWERS
              for r in await postgres_store.events.read_stream(orders_stream("g_1", power))}
    assert set(stored) == set(range(16))
    for n in range(16):
        outcome = by_n[n]
        assert not isinstance(outcome, BaseException)
        assert outcome.appended and outcome.position == stored[n].position
        # its watched events: every one of the named streams up to its own, in position order
        expected = sorted(r.position for r in stored.values() if r.position <= stored[n].position)
        assert [r.position for r in outcome.watched] == expected
        assert outcome.watched[-1].data == {"n": n}
    for power in POWERS:
        versions = [r.version for r in await postgres_store.events.read_stream(orders_stream("g_1", power))]
        assert versions == list(range(1, len(versions) + 1))


@pytest.mark.postgres
async def test_batches_of_two_processes_and_resolutions_of_the_same_games_never_wait_in_a_circle(
        postgres_url: str) -> None:
    """Two stores (two processes' pools) append to six games' order streams in different
    orders while resolutions take the same games' rows exclusively and append to their game
    streams: every call ends (no deadlock, which PostgreSQL would end with an error), each
    submission is written or told its game moved on, and every stream's versions run on."""
    first, second = await open_store(postgres_url), await open_store(postgres_url)
    try:
        games = [f"g_{n}" for n in range(6)]
        for game_id in games:
            await a_game(first, game_id, 1)
        versions = dict.fromkeys(games, 1)

        async def submit(store: EventStore, seed: int) -> list[bool]:
            chooser = random.Random(seed)
            written = []
            for _ in range(12):
                order = chooser.sample(games, len(games))
                outcomes = await asyncio.gather(*(
                    store.append_if_current(game_id, f"game-{game_id}", versions[game_id],
                                            orders_stream(game_id, chooser.choice(POWERS)), NewEvent("Orders", {}))
                    for game_id in order))
                written += [outcome.appended for outcome in outcomes]
            return written

        async def resolve(game_id: str) -> None:
            for _ in range(3):
                async with first.transaction(game_id, lock="exclusive") as tx:
                    await tx.events.append(f"game-{game_id}", [NewEvent("PhaseResolved", {})], versions[game_id])
                versions[game_id] += 1
                await asyncio.sleep(0.005)

        resolutions = asyncio.gather(*(resolve(game_id) for game_id in games))  # running from here on
        submitted = await asyncio.wait_for(asyncio.gather(
            submit(first, 1), submit(second, 2), submit(first, 3), submit(second, 4)), timeout=60)
        await asyncio.wait_for(resolutions, timeout=60)
        assert any(any(written) for written in submitted)
        for game_id in games:
            assert [r.version for r in await first.events.read_stream(f"game-{game_id}")] == [1, 2, 3, 4]
            for power in POWERS:
                stream = [r.version for r in await first.events.read_stream(orders_stream(game_id, power))]
                assert stream == list(range(1, len(stream) + 1))
    finally:
        await first.close()
        await second.close()
