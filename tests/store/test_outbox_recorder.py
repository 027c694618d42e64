"""The notifications outbox's recorder (``tx.outbox``, ``store.outbox``: shared/store/outboxes.py),
its part of the store's contract, run unchanged on SQLite and PostgreSQL (the ``store``
fixture); SKIP LOCKED on PostgreSQL."""
from __future__ import annotations

import asyncio
from datetime import timedelta

from shared.store import Dead, Delivered, EventStore, NewNotification, Retry
from tests.store.notifications import NOW, planned


async def plan(store: EventStore, *notifications: NewNotification) -> None:
    async with store.transaction() as tx:
        for notification in notifications:
            await tx.outbox.plan_notification(notification)


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


async def test_a_released_claim_is_due_again_uncounted_and_claims_carry_the_current_secret(store: EventStore) -> None:
    async with store.transaction() as tx:
        await tx.outbox.plan_notification(planned("k1"))
        await tx.outbox.set_webhook_secret("g1", "p1", "first", NOW)
        await tx.outbox.set_webhook_secret("g1", "p1", "second", NOW)
    async with store.transaction() as tx:
        [claimed] = await tx.outbox.claim_notifications(NOW, timedelta(minutes=5), limit=10)
    assert (claimed.attempts, claimed.secret) == (1, "second")
    async with store.transaction() as tx:
        assert not await tx.outbox.release_notification(claimed.id, 0, NOW)  # not this claim's lease
        assert await tx.outbox.release_notification(claimed.id, 1, NOW)
        await tx.outbox.set_webhook_secret("g1", "p1", None, NOW)
    async with store.transaction() as tx:
        [again] = await tx.outbox.claim_notifications(NOW, timedelta(minutes=5), limit=10)
    assert (again.id, again.attempts, again.secret) == (claimed.id, 1, None)
