"""Every failed delivery attempt counts, whatever raised, and a notification is dead-lettered at
the attempt limit: never pending for ever above it (docs/social.md, "Notifications")."""
from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from pydantic import SecretStr

from services.notifications import outbox
from services.notifications.delivery import deliver_due, lease_for
from shared.settings import Settings
from shared.store import EventStore, NewNotification

START = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
SETTINGS = Settings(operator_token=SecretStr("operator-token-for-tests-0123456789"), environment="test",
                    webhook_max_attempts=4, webhook_backoff_seconds=10.0)


async def plan(store: EventStore, key: str, url: str) -> None:
    async with store.transaction() as tx:
        assert await tx.outbox.plan_notification(NewNotification(
            dedupe_key=key, game_id="g_failing", player_id="p1", kind="phase_resolved", phase="S1901M", url=url,
            payload={"content": "hi"}, not_before=START, source_position=1, created_at=START))


async def row(store: EventStore, key: str) -> dict:
    return next(r for r in await outbox.notifications(store) if r["dedupe_key"] == key)


# URLs that make the HTTP client raise something other than an HTTP error before any connection
UNSENDABLE = {"bracket": "https://[::1/hook", "punycode": "https://xn--/hook", "nbsp": "https://exa\u00a0mple.com/x"}


@pytest.mark.parametrize("name", sorted(UNSENDABLE))
async def test_an_attempt_that_raises_anything_counts_and_ends_dead_at_the_limit(store: EventStore, name: str) -> None:
    await plan(store, name, UNSENDABLE[name])
    now, seen = START, []
    for attempt in range(1, SETTINGS.webhook_max_attempts + 1):
        report = await deliver_due(store, SETTINGS, now)
        current = await row(store, name)
        seen.append((current["attempts"], current["status"]))
        assert report.errors and report.errors[0] == current["last_error"] and current["last_error"], report
        assert current["attempts"] == attempt
        now = current["next_attempt_at"] if current["status"] == "pending" else now + timedelta(days=1)
    assert seen[-1] == (SETTINGS.webhook_max_attempts, "dead")
    assert all(status == "pending" for _, status in seen[:-1])
    for _ in range(3):  # never again
        assert (await deliver_due(store, SETTINGS, now + timedelta(days=365))).errors == []
    assert (await row(store, name))["attempts"] == SETTINGS.webhook_max_attempts


async def test_an_attempt_whose_outcome_was_never_recorded_is_given_up_at_the_limit(store: EventStore) -> None:
    """A worker that dies mid-attempt leaves its row leased; when the lease ends the row is
    tried again, and once the limit is reached it is dead-lettered instead of claimed again."""
    await plan(store, "orphan", "https://hooks.example/x")
    lease = lease_for(SETTINGS)
    now = START
    for attempt in range(1, SETTINGS.webhook_max_attempts + 1):
        [claimed] = await outbox.claim(store, now, lease, max_attempts=SETTINGS.webhook_max_attempts)
        assert claimed.attempts == attempt  # ... and the worker dies: no outcome is recorded
        assert await outbox.claim(store, now, lease, max_attempts=SETTINGS.webhook_max_attempts) == []  # leased
        now += lease
    assert await outbox.claim(store, now, lease, max_attempts=SETTINGS.webhook_max_attempts) == []
    orphan = await row(store, "orphan")
    assert (orphan["status"], orphan["attempts"]) == ("dead", SETTINGS.webhook_max_attempts)
    assert "no outcome" in orphan["last_error"]
    assert await store.outbox.notification_counts() == {"dead": 1}
