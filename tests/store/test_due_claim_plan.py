"""The clock workers' claim of the next due games reads them off the games table's index in the
order it asks for (deadline, then game id), never sorting the due games first: at a deadline
storm thousands of games share one deadline, and a sort of all of them at every claim of ten
made the storm's work grow with the square of its games (docs/hosting.md, "The clock worker";
migration 0009). Checked by the databases' own query plans, on a table of many games with one
deadline, as a storm has them."""
from __future__ import annotations

import sqlite3
from datetime import datetime
from pathlib import Path

import asyncpg
import pytest

from shared.store import open_store
from shared.store.sqlite import bound
from shared.store.statements import SHARED, sqlite_text
from tests.conftest import _asyncpg_dsn, run_coroutine_in_thread

GAMES = 2000
DEADLINE = "2030-01-01T12:00:00+00:00"


def test_sqlite_claims_the_due_games_off_the_index(sqlite_url: str, tmp_path: Path) -> None:
    run_coroutine_in_thread(lambda: _created(sqlite_url))
    with sqlite3.connect(tmp_path / "store.db") as connection:
        connection.executemany(
            "INSERT INTO games (game_id, variant, name, status, phase, deadline, summary, updated_at) "
            "VALUES (?, 'standard', 'g', 'active', 'S1901M', ?, '{}', ?)",
            [(f"g_{number:05}", DEADLINE, DEADLINE) for number in range(GAMES)])
        connection.execute("ANALYZE")
        claim = sqlite_text(SHARED.due_games[False])
        plan = connection.execute("EXPLAIN QUERY PLAN " + claim, bound(claim, (DEADLINE, 10))).fetchall()
    details = " | ".join(row[-1] for row in plan)
    assert "ix_games_deadline_game" in details, details
    assert "TEMP B-TREE" not in details, details  # SQLite's sort


@pytest.mark.postgres
def test_postgresql_claims_the_due_games_off_the_index_without_a_sort(postgres_url: str) -> None:
    async def plan() -> str:
        await _created(postgres_url)
        connection = await asyncpg.connect(_asyncpg_dsn(postgres_url))
        try:
            await connection.execute(
                "INSERT INTO games (game_id, variant, name, status, phase, deadline, summary, updated_at) "
                f"SELECT 'g_' || lpad(n::text, 5, '0'), 'standard', 'g', 'active', 'S1901M', '{DEADLINE}', "
                f"'{{}}'::jsonb, '{DEADLINE}' FROM generate_series(1, {GAMES}) AS n")
            await connection.execute("ANALYZE games")
            rows = await connection.fetch("EXPLAIN " + SHARED.due_games[True], datetime.fromisoformat(DEADLINE), 10)
            return "\n".join(row[0] for row in rows)
        finally:
            await connection.close()

    found = run_coroutine_in_thread(plan)
    assert "ix_games_deadline_game" in found, found
    assert "Sort" not in found, found


async def _created(url: str) -> None:
    store = await open_store(url)
    await store.close()
