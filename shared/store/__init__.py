"""The event store: append-only streams of records plus the games read model.

    store = await open_store("sqlite:///entente.db")      # or "postgresql://user@host/db"
    async with store.transaction(game_id, lock="exclusive") as tx:
        version = await tx.stream_version(f"game-{game_id}")
        await tx.append(f"game-{game_id}", [NewEvent("PhaseResolved", {...})], expected_version=version)
        await tx.put_game(row)
"""
from __future__ import annotations

from sqlalchemy import event
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine
from sqlalchemy.pool import StaticPool

from shared.store.records import (
    ConcurrencyError,
    GameNotFound,
    GameRow,
    NewEvent,
    RecordedEvent,
    StoreError,
    StreamNotFound,
)
from shared.store.sql import EventStore, LockMode, Transaction, utc_now

__all__ = [
    "ConcurrencyError",
    "EventStore",
    "GameNotFound",
    "GameRow",
    "LockMode",
    "NewEvent",
    "RecordedEvent",
    "StoreError",
    "StreamNotFound",
    "Transaction",
    "driver_url",
    "is_memory_database",
    "open_store",
    "utc_now",
]

SQLITE_BUSY_TIMEOUT_MS = 30_000


def driver_url(url: str) -> str:
    """Translate a plain database URL into the async driver's: sqlite+aiosqlite, postgresql+asyncpg."""
    if url.startswith(("sqlite+aiosqlite:", "postgresql+asyncpg:")):
        return url
    if url.startswith("sqlite:"):
        return "sqlite+aiosqlite:" + url[len("sqlite:"):]
    for plain in ("postgresql:", "postgres:"):
        if url.startswith(plain):
            return "postgresql+asyncpg:" + url[len(plain):]
    raise ValueError(f"unsupported database URL {url!r}: expected sqlite:///FILE or postgresql://...")


def is_memory_database(url: str) -> bool:
    """Whether ``url`` names an in-memory SQLite database (which lives in one process only)."""
    full_url = driver_url(url)
    return full_url.startswith("sqlite") and _is_memory_sqlite(full_url)


def _is_memory_sqlite(url: str) -> bool:
    database = make_url(url).database
    return not database or database == ":memory:" or "mode=memory" in url


def _sqlite_engine(url: str) -> tuple[AsyncEngine, bool]:
    in_memory = _is_memory_sqlite(url)
    options: dict = {"connect_args": {"timeout": SQLITE_BUSY_TIMEOUT_MS / 1000}}
    if in_memory:
        options["poolclass"] = StaticPool
    engine = create_async_engine(url, **options)

    @event.listens_for(engine.sync_engine, "connect")
    def _configure(dbapi_connection, _record) -> None:  # type: ignore[no-untyped-def]
        # the store begins its own transactions (see "begin" below), not the driver
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute(f"PRAGMA busy_timeout = {SQLITE_BUSY_TIMEOUT_MS}")
        if not in_memory:
            cursor.execute("PRAGMA journal_mode = WAL")
            cursor.execute("PRAGMA synchronous = NORMAL")
        cursor.close()

    @event.listens_for(engine.sync_engine, "begin")
    def _begin(connection) -> None:  # type: ignore[no-untyped-def]
        connection.exec_driver_sql(connection.get_execution_options().get("sqlite_begin", "BEGIN"))

    return engine, in_memory


async def open_store(url: str, *, pool_size: int = 10, max_overflow: int = 20) -> EventStore:
    """Open the store at ``url`` and create its schema if missing (idempotent)."""
    full_url = driver_url(url)
    if full_url.startswith("sqlite"):
        engine, in_memory = _sqlite_engine(full_url)
        store = EventStore(engine, "sqlite", single_connection=in_memory)
    else:
        engine = create_async_engine(full_url, pool_size=pool_size, max_overflow=max_overflow, pool_pre_ping=False)
        store = EventStore(engine, "postgresql")
    try:
        await store.create_schema()
    except BaseException:
        await store.close()
        raise
    return store
