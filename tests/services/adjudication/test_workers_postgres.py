"""Clock workers on PostgreSQL: two at once, and one worker's lanes, resolve each phase exactly
once, a burst of orders at the deadline is counted or refused, and a worker killed with SIGKILL
mid-sweep leaves a consistent log that a restarted worker carries on from."""
from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from benchmarks.clock import put_due_games, resolutions_per_game
from services.adjudication.worker import ClockWorker
from shared.clock import ManualClock
from shared.events import game_stream
from shared.game.repository import fold_records
from shared.store import EventStore, open_store
from tests.utils.http import POWERS as SEVEN
from tests.utils.http import hosting
from tests.utils.wait import until

pytestmark = pytest.mark.postgres
ROOT = Path(__file__).resolve().parents[3]


async def test_two_workers_resolve_every_phase_once(postgres_store: EventStore, postgres_url: str) -> None:
    clock = ManualClock(datetime.now(UTC))
    game_ids = await put_due_games(postgres_store, 60, clock.now(), batch=30)
    second_store = await open_store(postgres_url)  # as if in another process: its own connections
    try:
        first, second = ClockWorker(postgres_store, clock, batch=4), ClockWorker(second_store, clock, batch=4)
        counts = await asyncio.gather(first.run_once(), second.run_once())
    finally:
        await second_store.close()
    assert sum(counts) == 60 and all(counts)  # both took part; nothing handled twice
    assert await resolutions_per_game(postgres_store) == {game_stream(g): 1 for g in game_ids}
    for game_id in game_ids[:5]:
        state = fold_records(await postgres_store.events.read_stream(game_stream(game_id)))
        assert state.phase == "F1901M" and state.deadline == clock.now() + timedelta(minutes=60)
        row = await postgres_store.games.get_game(game_id)
        assert row is not None and row.deadline == state.deadline
    assert await first.run_once() == 0


async def test_lanes_of_two_workers_resolve_every_phase_once(postgres_store: EventStore, postgres_url: str) -> None:
    clock = ManualClock(datetime.now(UTC))
    game_ids = await put_due_games(postgres_store, 60, clock.now(), batch=30)
    second_store = await open_store(postgres_url)
    try:
        first = ClockWorker(postgres_store, clock, batch=3, lanes=3)
        second = ClockWorker(second_store, clock, batch=3, lanes=2)
        counts = await asyncio.gather(first.run_once(), second.run_once())
    finally:
        await second_store.close()
    assert sum(counts) == 60 and all(counts)
    assert await resolutions_per_game(postgres_store) == {game_stream(g): 1 for g in game_ids}
    assert first.done["resolve"] + second.done["resolve"] == 60
    assert await first.run_once() == 0


async def test_lanes_keep_to_the_sweeps_limit(postgres_store: EventStore) -> None:
    clock = ManualClock(datetime.now(UTC))
    game_ids = await put_due_games(postgres_store, 20, clock.now(), batch=20)
    worker = ClockWorker(postgres_store, clock, batch=4, lanes=3)
    assert await worker.run_once(limit=7) == 7
    assert len(await resolutions_per_game(postgres_store)) == 7
    assert await worker.run_once() == 13
    assert await resolutions_per_game(postgres_store) == {game_stream(g): 1 for g in game_ids}


async def test_lanes_that_cannot_claim_raise_as_one_lane_would(postgres_url: str) -> None:
    closed = await open_store(postgres_url)
    await closed.close()  # the store is in trouble: no lane can even claim
    with pytest.raises(Exception) as one_lane:
        await ClockWorker(closed, lanes=1).run_once()
    with pytest.raises(Exception) as three_lanes:
        await ClockWorker(closed, lanes=3).run_once()
    assert type(three_lanes.value) is type(one_lane.value)  # not an ExceptionGroup: run() logs it the same way


async def test_a_burst_of_orders_at_the_deadline_with_two_workers(postgres_url: str) -> None:
    clock = ManualClock()
    async with hosting(postgres_url, clock) as host:
        game = await host.started(7, movement_minutes=60, require_ready=True)
        await game.order_ok("FRANCE", ["A PAR - BUR"])
        clock.advance(minutes=59, seconds=59)
        second_store = await open_store(postgres_url)
        try:
            workers = [ClockWorker(host.store, clock), ClockWorker(second_store, clock)]

            async def deadline_passes() -> None:
                for _ in range(3):
                    await asyncio.sleep(0)  # yields, so the requests are in flight as the deadline passes
                clock.advance(seconds=1)
                await asyncio.gather(*(w.run_once() for w in workers))

            replies = await asyncio.gather(
                *(game.order(power, ["A MUN - RUH"] if power == "GERMANY" else [], phase="S1901M")
                  for power in SEVEN if power != "FRANCE"), deadline_passes())
            # a sweep that met the game's row share-locked by a submission skipped it (SKIP
            # LOCKED), as a worker should; the next sweeps take it
            for _ in range(5):
                if await game.resolutions():
                    break
                await asyncio.gather(*(w.run_once() for w in workers))
        finally:
            await second_store.close()
        resolutions = await game.resolutions()
        assert [r["phase"] for r in resolutions] == ["S1901M"]
        counted = set(resolutions[0]["orders"]) | {"FRANCE"}
        for power, reply in zip([p for p in SEVEN if p != "FRANCE"], replies[:-1], strict=True):
            assert reply is not None  # an order's answer (the last of the gathered is the deadline's)
            if reply.status_code == 200:  # accepted before the deadline: counted, not in disorder
                assert power not in resolutions[0]["civil_disorder"], power
            else:
                assert reply.status_code == 409, reply.text
                assert reply.json()["error"]["code"] in ("deadline_passed", "wrong_phase")
                assert power in resolutions[0]["civil_disorder"], power
                assert power not in counted
        assert "FRANCE" not in resolutions[0]["civil_disorder"]



async def test_a_worker_killed_mid_sweep_leaves_a_consistent_log(postgres_store: EventStore, postgres_url: str) -> None:
    game_ids = await put_due_games(postgres_store, 600, datetime.now(UTC), batch=200)
    start = await postgres_store.events.head()
    worker = subprocess.Popen([sys.executable, "-m", "services.cli", "worker", "--database", postgres_url,
                               "--poll", "0.05"], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        # the log's head moves with the sweep's first commit: a cheap read, so that the kill
        # lands early in the sweep however busy the machine (reading the whole log to see it
        # took long enough, on a busy machine, for the worker to finish all 600)
        async def sweeping() -> bool:
            return await postgres_store.events.head() != start

        await until(sweeping, timeout=30, what="the worker's sweep to commit its first resolution")
        await asyncio.sleep(0.05)  # a little way into the sweep: where the kill lands is what is under test
    finally:
        os.kill(worker.pid, signal.SIGKILL)
        worker.wait()
    done_before = await resolutions_per_game(postgres_store)
    assert 0 < len(done_before) < len(game_ids), "the kill should land mid-sweep"
    assert set(done_before.values()) == {1}
    for game_id in game_ids:  # every game is either untouched or wholly resolved, row and log agreeing
        records = await postgres_store.events.read_stream(game_stream(game_id))
        kinds = [r.type for r in records]
        assert kinds[-1] == "DeadlineSet" and kinds.count("PhaseResolved") in (0, 1)
        state = fold_records(records)
        row = await postgres_store.games.get_game(game_id)
        assert row is not None and row.phase == state.phase and row.deadline == state.deadline
    restarted = ClockWorker(postgres_store)
    assert await restarted.run_once() == len(game_ids) - len(done_before)
    assert await resolutions_per_game(postgres_store) == {game_stream(g): 1 for g in game_ids}
