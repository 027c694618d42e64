"""The game index's recorder (``tx.games``, ``store.games``: shared/store/recorders.py), its part
of the store's contract, run unchanged on SQLite and PostgreSQL (the ``store`` fixture)."""
from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest

from shared.store import EventStore, GameNotFound, GameRow

NOW = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)


def game_row(game_id: str, *, status: str = "active", deadline: datetime | None = None, **changes) -> GameRow:
    values: dict[str, Any] = dict(
        game_id=game_id,
        variant="standard",
        name=f"Game {game_id}",
        status=status,
        phase="S1901M",
        deadline=deadline,
        summary={"powers": ["FRANCE"]},
        updated_at=datetime(2026, 1, 1, tzinfo=UTC),
    )
    values.update(changes)
    return GameRow(**values)


async def test_game_rows_put_get_update_and_list(store: EventStore) -> None:
    async with store.transaction() as tx:
        await tx.games.put_game(game_row("g1", status="forming", updated_at=datetime(2026, 1, 1, tzinfo=UTC)))
        await tx.games.put_game(game_row("g2", status="active", updated_at=datetime(2026, 1, 3, tzinfo=UTC)))
        await tx.games.put_game(game_row("g3", status="active", updated_at=datetime(2026, 1, 2, tzinfo=UTC)))
    assert await store.games.get_game("g1") == game_row("g1", status="forming",
                                                         updated_at=datetime(2026, 1, 1, tzinfo=UTC))
    assert await store.games.get_game("missing") is None

    changed = game_row("g1", status="active", phase="F1901M", summary={"centres": {"FRANCE": 5}},
                       updated_at=datetime(2026, 1, 4, tzinfo=UTC))
    async with store.transaction("g1", lock="exclusive") as tx:
        await tx.games.put_game(changed)
        assert await tx.games.get_game("g1") == changed
    assert await store.games.get_game("g1") == changed

    assert [row.game_id for row in await store.games.list_games()] == ["g1", "g2", "g3"]  # latest update first
    assert [row.game_id for row in await store.games.list_games(status="active", limit=2)] == ["g1", "g2"]
    assert await store.games.list_games(status="finished") == []


async def test_due_games_are_those_whose_deadline_has_passed_earliest_first(store: EventStore) -> None:
    now = NOW
    async with store.transaction() as tx:
        await tx.games.put_game(game_row("late", deadline=now - timedelta(hours=1)))
        await tx.games.put_game(game_row("later", deadline=now - timedelta(minutes=1)))
        await tx.games.put_game(game_row("exact", deadline=now))
        await tx.games.put_game(game_row("future", deadline=now + timedelta(seconds=1)))
        await tx.games.put_game(game_row("none", deadline=None))
        # a deadline given in another time zone is the same instant
        five_hours_east = timezone(timedelta(hours=5))
        await tx.games.put_game(game_row("tz", deadline=(now - timedelta(minutes=30)).astimezone(five_hours_east)))
    async with store.transaction() as tx:
        assert [row.game_id for row in await tx.games.due_games(now, limit=10)] == ["late", "tz", "later", "exact"]
        assert [row.game_id for row in await tx.games.due_games(now, limit=2)] == ["late", "tz"]
        claimed = await tx.games.due_games(now, limit=10, claim=True)
    assert [row.game_id for row in claimed] == ["late", "tz", "later", "exact"]
    assert claimed[1].deadline == now - timedelta(minutes=30)


async def test_locking_a_game_without_a_row_raises_game_not_found(store: EventStore) -> None:
    for lock in ("share", "exclusive"):
        with pytest.raises(GameNotFound):
            async with store.transaction("nowhere", lock=lock):
                pass
    with pytest.raises(ValueError):
        async with store.transaction("g1", lock="sideways"):  # type: ignore[arg-type]  # on purpose
            pass


async def test_the_oldest_due_deadline_is_the_earliest_at_or_before_now(store: EventStore) -> None:
    async with store.transaction() as tx:
        assert await tx.games.oldest_due_deadline(NOW) is None
        await tx.games.put_game(game_row("g_late", deadline=NOW + timedelta(minutes=1)))
        await tx.games.put_game(game_row("g_due", deadline=NOW - timedelta(minutes=5)))
        await tx.games.put_game(game_row("g_exact", deadline=NOW))
        assert await tx.games.oldest_due_deadline(NOW) == NOW - timedelta(minutes=5)
        await tx.games.lock_game("g_due", "share")  # the row exists: locked (PostgreSQL) or checked (SQLite)
        with pytest.raises(GameNotFound):
            await tx.games.lock_game("g_nosuchgame", "share")


async def test_a_batch_of_rows_is_put_as_each_alone_would_be(store: EventStore) -> None:
    async with store.transaction() as tx:
        await tx.games.put_game(game_row("g1", status="forming"))
    due = NOW + timedelta(minutes=5)
    rows = [game_row("g1", phase="F1901M", deadline=due, summary={"centres": {"FRANCE": 5}}),
            game_row("g2", deadline=None), game_row("g3", status="finished", updated_at=NOW)]
    async with store.transaction("g1", lock="exclusive") as tx:
        await tx.games.put_games(rows)
    assert [await store.games.get_game(row.game_id) for row in rows] == rows
