"""The SQLite store's connections never outlive it: ``close`` closes those still lent out, and a
store nobody closed does not keep its process alive at exit (docs/store.md, "Connections on
SQLite")."""
from __future__ import annotations

import asyncio
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from shared.store import open_store
from tests.utils.wait import until

REPOSITORY = Path(__file__).resolve().parents[2]

# writes one event, opens a second connection mid-transaction, and ends without closing the store
FORGETFUL = """
import asyncio, sys
from shared.store import NewEvent, open_store

async def main():
    store = await open_store(sys.argv[1])
    async with store.transaction() as tx:
        await tx.events.append("game-forgotten", [NewEvent("Noted", {"text": "kept"})], expected_version=0)
    async with store.reading() as tx:
        await tx.events.read_stream("game-forgotten")
    print("written", flush=True)

asyncio.run(main())
"""


def connection_threads() -> set[threading.Thread]:
    return {thread for thread in threading.enumerate()
            if "connection_worker" in thread.name and thread.is_alive()}


def test_a_process_that_never_closes_its_store_still_exits(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'forgotten.db'}"
    done = subprocess.run([sys.executable, "-c", FORGETFUL, url], cwd=REPOSITORY, capture_output=True, text=True,
                          timeout=30)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "written"

    async def read_back() -> list[str]:
        store = await open_store(url)
        try:
            return [str(record.data["text"]) for record in await store.events.read_stream("game-forgotten")]
        finally:
            await store.close()

    assert asyncio.run(read_back()) == ["kept"]


async def test_close_closes_a_connection_still_lent_to_a_transaction(tmp_path: Path) -> None:
    before = connection_threads()
    store = await open_store(f"sqlite:///{tmp_path / 'lent.db'}")
    holding, go_on = asyncio.Event(), asyncio.Event()

    async def hold_a_transaction() -> None:
        async with store.reading() as tx:
            await tx.events.read_stream("game-x")
            holding.set()
            await go_on.wait()
            await tx.events.read_stream("game-x")  # its connection was closed under it

    holder = asyncio.create_task(hold_a_transaction())
    await holding.wait()
    assert connection_threads() - before, "the store should have a connection open"
    await store.close()
    go_on.set()
    with pytest.raises(ValueError):
        await holder
    # aiosqlite's threads end just after their close
    await until(lambda: not connection_threads() - before, timeout=5, what="the connection threads to end")
    with pytest.raises(RuntimeError, match="closed"):
        async with store.reading() as tx:
            await tx.events.read_stream("game-x")




async def test_closing_while_the_holder_gives_its_connection_back_ends(tmp_path: Path) -> None:
    """The store closes a lent connection at the moment its holder gives it back: the connection
    is closed once and both finish (aiosqlite closing one connection twice at once waits for
    ever). The pool is driven directly, to make the two meet every time."""
    before = connection_threads()
    store = await open_store(f"sqlite:///{tmp_path / 'race.db'}")
    pool = store._connections  # type: ignore[attr-defined]
    connection = await pool.acquire()
    await asyncio.wait_for(asyncio.gather(store.close(), pool.release(connection, reusable=False)), 20)
    await until(lambda: not connection_threads() - before, timeout=5, what="the connection threads to end")
