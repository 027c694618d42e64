"""The store's projection API (the log's head, tracking positions) and the notifications
outbox's operations, on both back ends (the ``store`` fixture); SKIP LOCKED on PostgreSQL."""
from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import pytest

from shared.store import Dead, Delivered, EventStore, NewEvent, NewNotification, Retry

NOW = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)


def planned(key: str, *, game_id: str = "g1", player_id: str = "p1", kind: str = "phase_resolved",
            phase: str | None = "S1901M", due: datetime = NOW, source: int = 1) -> NewNotification:
    return NewNotification(dedupe_key=key, game_id=game_id, player_id=player_id, kind=kind, phase=phase,
                           url=f"https://hooks.example/{player_id}", payload={"content": f"about {key} 🙂"},
                           not_before=due, source_position=source, created_at=NOW - timedelta(minutes=1))


async def plan(store: EventStore, *notifications: NewNotification) -> None:
    async with store.transaction() as tx:
        for notification in notifications:
            await tx.outbox.plan_notification(notification)


async def test_the_head_is_the_last_position_of_the_log(store: EventStore) -> None:
    assert await store.events.head() == 0
    async with store.transaction() as tx:
        await tx.events.append("game-g1", [NewEvent("A", {}), NewEvent("B", {})], 0)
        appended = await tx.events.append("game-g2", [NewEvent("C", {})], 0)
        assert await tx.events.head() == appended[-1].position  # its own events, not yet committed
    assert await store.events.head() == appended[-1].position == (await store.events.read_all())[-1].position


async def test_a_projection_position_commits_with_the_projection_output_or_not_at_all(store: EventStore) -> None:
    assert await store.projections.projection_position("notifications") == 0
    async with store.transaction() as tx:
        assert await tx.projections.lock_projection("notifications") == 0
        await tx.outbox.plan_notification(planned("k1", source=7))
        await tx.projections.advance_projection("notifications", 7)
    assert await store.projections.projection_position("notifications") == 7
    assert [row.dedupe_key for row in await store.outbox.notifications()] == ["k1"]

    with pytest.raises(RuntimeError, match="crashed"):
        async with store.transaction() as tx:
            assert await tx.projections.lock_projection("notifications") == 7
            await tx.outbox.plan_notification(planned("k2", source=9))
            await tx.projections.advance_projection("notifications", 9)
            raise RuntimeError("the projection crashed before its commit")
    assert await store.projections.projection_position("notifications") == 7
    assert [row.dedupe_key for row in await store.outbox.notifications()] == ["k1"]
    assert await store.projections.projection_position("another") == 0  # positions are per projection


async def test_a_projection_position_is_advanced_only_under_its_lock_and_never_backwards(store: EventStore) -> None:
    with pytest.raises(RuntimeError, match="lock_projection"):
        async with store.transaction() as tx:
            await tx.projections.advance_projection("p", 5)
    async with store.transaction() as tx:
        await tx.projections.lock_projection("p")
        await tx.projections.advance_projection("p", 5)
    with pytest.raises(ValueError, match="moving back"):
        async with store.transaction() as tx:
            await tx.projections.lock_projection("p")
            await tx.projections.advance_projection("p", 4)
    assert await store.projections.projection_position("p") == 5


async def test_concurrent_runs_of_a_projection_take_turns(store: EventStore) -> None:
    seen: list[int] = []

    async def run() -> None:
        async with store.transaction() as tx:
            position = await tx.projections.lock_projection("p")
            seen.append(position)
            await asyncio.sleep(0.05)  # the lock held while the other runs try it: the race under test
            await tx.projections.advance_projection("p", position + 1)

    await asyncio.wait_for(asyncio.gather(*(run() for _ in range(4))), 60)
    assert sorted(seen) == [0, 1, 2, 3], "each run starts where the previous one committed"
    assert await store.projections.projection_position("p") == 4


async def test_a_planned_notification_is_stored_once_per_dedupe_key(store: EventStore) -> None:
    async with store.transaction() as tx:
        assert await tx.outbox.plan_notification(planned("k1")) is True
        assert await tx.outbox.plan_notification(planned("k1", player_id="someone else")) is False
    async with store.transaction() as tx:
        assert await tx.outbox.plan_notification(planned("k1")) is False
    (row,) = await store.outbox.notifications()
    assert (row.dedupe_key, row.game_id, row.player_id, row.kind, row.phase) == (
        "k1", "g1", "p1", "phase_resolved", "S1901M")
    assert (row.url, row.payload) == ("https://hooks.example/p1", {"content": "about k1 🙂"})
    assert (row.status, row.attempts, row.last_error, row.delivered_at) == ("pending", 0, None, None)
    assert (row.next_attempt_at, row.created_at, row.source_position) == (NOW, NOW - timedelta(minutes=1), 1)
    assert row.next_attempt_at.utcoffset() == timedelta(0)


async def test_cancelling_touches_only_the_games_pending_rows_that_match(store: EventStore) -> None:
    await plan(store,
               planned("a", kind="deadline_approaching", phase="S1901M"),
               planned("b", kind="deadline_approaching", phase="F1901M"),
               planned("c", kind="phase_resolved", phase="S1901M", player_id="p2"),
               planned("d", kind="deadline_approaching", phase="S1901M", game_id="g2"),
               planned("e", kind="deadline_approaching", phase="S1901M", player_id="p2"))
    async with store.transaction() as tx:
        assert await tx.outbox.cancel_notifications("g1", kind="deadline_approaching", phase="S1901M") == 2  # a, e
    async with store.transaction() as tx:
        # not pending now
        assert await tx.outbox.cancel_notifications("g1", kind="deadline_approaching", phase="S1901M") == 0
        assert await tx.outbox.cancel_notifications("g1", player_id="p2") == 1  # c (e is cancelled already)
    statuses = {row.dedupe_key: row.status for row in await store.outbox.notifications()}
    assert statuses == {"a": "cancelled", "b": "pending", "c": "cancelled", "d": "pending", "e": "cancelled"}
    assert [row.dedupe_key for row in await store.outbox.notifications("g2")] == ["d"]
    assert await store.outbox.notification_counts() == {"cancelled": 3, "pending": 2}


async def test_claims_take_due_rows_earliest_first_count_the_attempt_and_lease_them(store: EventStore) -> None:
    await plan(store,
               planned("late", due=NOW - timedelta(seconds=1)),
               planned("early", due=NOW - timedelta(hours=1)),
               planned("exact", due=NOW),
               planned("future", due=NOW + timedelta(seconds=1)))
    lease = timedelta(minutes=2)
    async with store.transaction() as tx:
        claimed = await tx.outbox.claim_notifications(NOW, lease, limit=2)
    by_id = {row.id: row.dedupe_key for row in await store.outbox.notifications()}
    assert [by_id[c.id] for c in claimed] == ["early", "late"]
    assert [c.attempts for c in claimed] == [1, 1]
    assert claimed[0].payload == {"content": "about early 🙂"} and claimed[0].url == "https://hooks.example/p1"
    async with store.transaction() as tx:
        assert [by_id[c.id] for c in await tx.outbox.claim_notifications(NOW, lease, limit=10)] == ["exact"]
        assert await tx.outbox.claim_notifications(NOW, lease, limit=10) == []  # the others are leased
    async with store.transaction() as tx:  # a worker that died: its rows are due again when the lease ends
        again = await tx.outbox.claim_notifications(NOW + lease, lease, limit=10)
    # the order they fell due in: "future" at NOW + 1 s, the leased ones when their lease ended
    assert [(by_id[c.id], c.attempts) for c in again] == [("future", 1), ("late", 2), ("early", 2), ("exact", 2)]


async def test_outcomes_are_recorded_only_for_the_attempt_that_holds_the_row(store: EventStore) -> None:
    await plan(store, planned("ok"), planned("retry"), planned("dead"), planned("stale"))
    async with store.transaction() as tx:
        claimed = {c.id: c for c in await tx.outbox.claim_notifications(NOW, timedelta(minutes=1), limit=10)}
    ids = {row.dedupe_key: row.id for row in await store.outbox.notifications()}
    retry_at = NOW + timedelta(seconds=30)
    async with store.transaction() as tx:
        assert await tx.outbox.record_outcome(ids["ok"], 1, Delivered(NOW + timedelta(seconds=2)))
        assert await tx.outbox.record_outcome(ids["retry"], 1, Retry("HTTP 500", retry_at))
        assert await tx.outbox.record_outcome(ids["dead"], 1, Dead("HTTP 410"))
        assert not await tx.outbox.record_outcome(ids["stale"], 0, Delivered(NOW))  # not this attempt's any more
        assert not await tx.outbox.record_outcome(ids["ok"], 1, Dead("late"))  # not pending any more
    rows = {row.dedupe_key: row for row in await store.outbox.notifications()}
    assert (rows["ok"].status, rows["ok"].delivered_at, rows["ok"].last_error) == (
        "delivered", NOW + timedelta(seconds=2), None)
    assert (rows["retry"].status, rows["retry"].next_attempt_at, rows["retry"].last_error) == (
        "pending", retry_at, "HTTP 500")
    assert (rows["dead"].status, rows["dead"].last_error) == ("dead", "HTTP 410")
    assert (rows["stale"].status, rows["stale"].attempts) == ("pending", claimed[ids["stale"]].attempts)
    assert await store.outbox.notification_counts() == {"delivered": 1, "pending": 2, "dead": 1}


async def test_truncate_empties_the_outbox_and_the_positions_too(store: EventStore) -> None:
    async with store.transaction() as tx:
        await tx.events.append("game-g1", [NewEvent("A", {})], 0)
        await tx.projections.lock_projection("p")
        await tx.projections.advance_projection("p", 1)
        await tx.outbox.plan_notification(planned("k1"))
    await store.truncate()
    assert await store.events.head() == 0
    assert (await store.projections.projection_position("p"), await store.outbox.notifications()) == (0, [])


async def test_concurrent_claims_skip_rows_another_worker_holds(postgres_store: EventStore) -> None:
    store = postgres_store
    await plan(store, *(planned(f"k{n}", due=NOW - timedelta(minutes=10 - n)) for n in range(5)))
    first_holds = asyncio.Event()
    release = asyncio.Event()
    first: list[int] = []

    async def first_worker() -> None:
        async with store.transaction() as tx:
            first.extend(c.id for c in await tx.outbox.claim_notifications(NOW, timedelta(minutes=1), limit=2))
            first_holds.set()
            await release.wait()  # its rows stay locked until it commits

    holding = asyncio.create_task(first_worker())
    await asyncio.wait_for(first_holds.wait(), 10)
    async with store.transaction() as tx:  # neither waits for the first worker nor takes its rows
        second = await asyncio.wait_for(tx.outbox.claim_notifications(NOW, timedelta(minutes=1), limit=10), 5)
    release.set()
    await asyncio.wait_for(holding, 10)
    keys = {row.id: row.dedupe_key for row in await store.outbox.notifications()}
    assert [keys[i] for i in first] == ["k0", "k1"]
    assert [keys[c.id] for c in second] == ["k2", "k3", "k4"]
