"""The event store: append-only streams of records plus the games read model, the only way
into the database (docs/store.md).

    store = await open_store("sqlite:///entente.db")      # or "postgresql://user@host/db"
    async with store.transaction(game_id, lock="exclusive") as tx:
        version = await tx.events.stream_version(f"game-{game_id}")
        await tx.events.append(f"game-{game_id}", [NewEvent("PhaseResolved", {...})], expected_version=version)
        await tx.games.put_game(row)
    history = await store.events.read_stream(f"game-{game_id}")   # a read on its own

A transaction hands out four recorders (shared/store/recorders.py, shared/store/outboxes.py):
``tx.events``, ``tx.games``, ``tx.projections``, ``tx.outbox``; the store hands out their reads.
One pair of classes per back end implements ``EventStore`` and ``Transaction``
(shared/store/base.py): ``SQLiteStore`` on aiosqlite (shared/store/sqlite.py) and
``PostgresStore`` on asyncpg (shared/store/postgresql.py).
"""
from __future__ import annotations

from shared.store.base import EventStore, Transaction
from shared.store.outbox import (
    ClaimedNotification,
    Dead,
    Delivered,
    NewNotification,
    Notification,
    Outcome,
    Retry,
)
from shared.store.outboxes import OutboxReader, OutboxRecorder
from shared.store.recorders import (
    EventReader,
    EventRecorder,
    GameIndexReader,
    GameIndexRecorder,
    LockMode,
    ProjectionReader,
    ProjectionRecorder,
    utc_now,
)
from shared.store.records import (
    ConcurrencyError,
    GameNotFound,
    GameRow,
    NewEvent,
    RecordedEvent,
    StoreError,
    StreamNotFound,
    UnstorableText,
)
from shared.store.schema import HEAD_REVISION, TABLE_NAMES, SchemaError, SchemaOutOfDate, SchemaTooNew

__all__ = [
    "ClaimedNotification",
    "ConcurrencyError",
    "Dead",
    "Delivered",
    "EventReader",
    "EventRecorder",
    "EventStore",
    "GameIndexReader",
    "GameIndexRecorder",
    "GameNotFound",
    "GameRow",
    "HEAD_REVISION",
    "LockMode",
    "NewEvent",
    "NewNotification",
    "Notification",
    "Outcome",
    "OutboxReader",
    "OutboxRecorder",
    "ProjectionReader",
    "ProjectionRecorder",
    "RecordedEvent",
    "Retry",
    "SchemaError",
    "SchemaOutOfDate",
    "SchemaTooNew",
    "StoreError",
    "StreamNotFound",
    "TABLE_NAMES",
    "Transaction",
    "UnstorableText",
    "is_memory_database",
    "open_store",
    "utc_now",
]

_SQLITE_SCHEMES = ("sqlite:", "sqlite+aiosqlite:")
_POSTGRESQL_SCHEMES = ("postgresql:", "postgres:", "postgresql+asyncpg:")


def _postgresql_dsn(url: str) -> str | None:
    """The libpq-style URL asyncpg takes, or None when ``url`` is not PostgreSQL's."""
    for scheme in _POSTGRESQL_SCHEMES:
        if url.startswith(scheme):
            return "postgresql:" + url[len(scheme):]
    return None


def is_memory_database(url: str) -> bool:
    """Whether ``url`` names an in-memory SQLite database (which lives in one process only)."""
    from shared.store.sqlite import sqlite_target

    return url.startswith(_SQLITE_SCHEMES) and sqlite_target(url)[2]


async def open_store(url: str, *, pool_size: int = 10, max_overflow: int = 20) -> EventStore:
    """Open the store at ``url`` (``sqlite:///FILE``, ``sqlite:///:memory:`` or
    ``postgresql://...``): a fresh database gets the schema created, one whose schema is not
    this code's revision raises SchemaOutOfDate (``entente migrate`` upgrades it) or
    SchemaTooNew (shared/store/schema.py). On PostgreSQL the pool holds up to
    ``pool_size + max_overflow`` connections."""
    store: EventStore
    if url.startswith(_SQLITE_SCHEMES):
        from shared.store.sqlite import SQLiteStore

        store = SQLiteStore(url)
    elif (dsn := _postgresql_dsn(url)) is not None:
        from shared.store.postgresql import PostgresStore

        store = await PostgresStore.open(dsn, pool_size=pool_size, max_overflow=max_overflow)
    else:
        raise ValueError(f"unsupported database URL {url!r}: expected sqlite:///FILE or postgresql://...")
    try:
        await store.create_schema()
    except BaseException:
        await store.close()
        raise
    return store
