"""Each recorder of a store transaction (shared/store/recorders.py; docs/store.md, "Recorders")
and its part of the contract suite: the modules of tests/store that check it, every one on both
back ends (the ``store`` fixture), and every operation the recorder declares checked there.
The few operations no other module checks are checked here, on both back ends too."""
from __future__ import annotations

import inspect
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from shared.store import (
    EventRecorder,
    EventStore,
    GameIndexRecorder,
    GameNotFound,
    GameRow,
    NewNotification,
    OutboxRecorder,
    ProjectionRecorder,
)

HERE = Path(__file__).parent
NOW = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)
PARTS: dict[type, tuple[str, ...]] = {
    EventRecorder: ("test_contract.py", "test_append_on_commit.py", "test_append_if_current.py", "test_tail.py"),
    GameIndexRecorder: ("test_contract.py", "test_recorders.py"),
    ProjectionRecorder: ("test_projections_and_outbox.py",),
    OutboxRecorder: ("test_projections_and_outbox.py", "test_recorders.py"),
}


def operations(recorder: type) -> list[str]:
    """The public operations a recorder declares itself."""
    return sorted(name for name, value in vars(recorder).items()
                  if not name.startswith("_") and inspect.isfunction(value))


@pytest.mark.parametrize("recorder", list(PARTS), ids=lambda recorder: recorder.__name__)
def test_every_operation_of_a_recorder_is_checked_by_its_part_of_the_contract_suite(recorder: type) -> None:
    text = "".join((HERE / module).read_text() for module in PARTS[recorder])
    assert operations(recorder), recorder
    assert [name for name in operations(recorder) if f".{name}(" not in text] == []


@pytest.mark.parametrize("module", sorted({m for modules in PARTS.values() for m in modules}))
def test_every_part_runs_on_both_back_ends(module: str) -> None:
    assert "(store: EventStore)" in (HERE / module).read_text()  # the fixture parametrized sqlite, postgresql


def game(game_id: str, deadline: datetime | None) -> GameRow:
    return GameRow(game_id=game_id, variant="standard", name=game_id, status="active", phase="S1901M",
                   deadline=deadline, summary={}, updated_at=NOW)


async def test_the_oldest_due_deadline_is_the_earliest_at_or_before_now(store: EventStore) -> None:
    async with store.transaction() as tx:
        assert await tx.games.oldest_due_deadline(NOW) is None
        await tx.games.put_game(game("g_late", NOW + timedelta(minutes=1)))
        await tx.games.put_game(game("g_due", NOW - timedelta(minutes=5)))
        await tx.games.put_game(game("g_exact", NOW))
        assert await tx.games.oldest_due_deadline(NOW) == NOW - timedelta(minutes=5)
        await tx.games.lock_game("g_due", "share")  # the row exists: locked (PostgreSQL) or checked (SQLite)
        with pytest.raises(GameNotFound):
            await tx.games.lock_game("g_nosuchgame", "share")


def row(key: str) -> NewNotification:
    return NewNotification(dedupe_key=key, game_id="g1", player_id="p1", kind="phase_resolved", phase="S1901M",
                           url="https://hooks.example/p1", payload={"content": key}, not_before=NOW,
                           source_position=1, created_at=NOW)


async def test_a_released_claim_is_due_again_uncounted_and_claims_carry_the_current_secret(store: EventStore) -> None:
    async with store.transaction() as tx:
        await tx.outbox.plan_notification(row("k1"))
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
