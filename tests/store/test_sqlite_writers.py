"""One process's writers on a SQLite file take turns first come, first served (docs/store.md,
"SQLite"): none waits in SQLite's busy handler, which sleeps longer and longer between tries
while later writers slip in ahead."""
from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from pathlib import Path

from shared.store import GameRow, NewEvent, open_store


async def test_concurrent_write_transactions_commit_in_the_order_they_began(tmp_path: Path) -> None:
    store = await open_store(f"sqlite:///{tmp_path / 'writers.db'}")
    try:
        async def writer(number: int) -> None:
            async with store.transaction() as tx:
                await asyncio.sleep(0.002)  # a transaction held while the other writers queue: under test
                await tx.events.append("log-writers", [NewEvent("Wrote", {"n": number})], expected_version=None)

        tasks = []
        for number in range(24):
            tasks.append(asyncio.create_task(writer(number)))
            await asyncio.sleep(0)  # each begins after the one before
        await asyncio.gather(*tasks)
        assert [record.data["n"] for record in await store.events.read_stream("log-writers")] == list(range(24))
    finally:
        await store.close()


async def test_checked_appends_and_transactions_take_turns_together(tmp_path: Path) -> None:
    store = await open_store(f"sqlite:///{tmp_path / 'writers.db'}")
    try:
        async with store.transaction() as tx:
            await tx.games.put_game(GameRow("g_1", "standard", "G", "active", "S1901M", None, {}, datetime.now(UTC)))

        async def transaction(number: int) -> None:
            async with store.transaction() as tx:
                await asyncio.sleep(0.002)  # held while the others queue, as above
                await tx.events.append("log-mixed", [NewEvent("Wrote", {"n": number})], expected_version=None)

        async def checked(number: int) -> None:
            await store.append_if_current("g_1", "game-g_1", 0, "log-mixed", NewEvent("Wrote", {"n": number}))

        tasks = []
        for number in range(24):
            tasks.append(asyncio.create_task((transaction if number % 2 else checked)(number)))
            await asyncio.sleep(0)  # each begins after the one before
        await asyncio.gather(*tasks)
        assert [record.data["n"] for record in await store.events.read_stream("log-mixed")] == list(range(24))
    finally:
        await store.close()
