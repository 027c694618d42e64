"""Alembic's environment for the store (docs/store.md, "Schema and migrations").

``entente migrate`` (shared/store/migrate.py) hands this a connection in
``config.attributes["connection"]``; run from the ``alembic`` command line instead (to write a
new revision), it opens ``ENTENTE_DATABASE_URL`` (or the ``sqlalchemy.url`` option) itself.
The metadata compared against is the store's own table definitions, the schema's single source.
On SQLite, changes to a table are written in batch mode (SQLite alters little in place: the
table is copied); on PostgreSQL the whole upgrade runs in one transaction, under the lock that
the store takes to create a fresh schema, so that two migrations (or a migration and a
starting service) take turns.
"""
from __future__ import annotations

import asyncio
import os

from alembic import context
from sqlalchemy import Connection, text
from sqlalchemy.ext.asyncio import create_async_engine
from sqlalchemy.pool import NullPool

from shared.store.migrate import sqlalchemy_url
from shared.store.schema import SCHEMA_LOCK_KEY, TABLE_NAMES
from shared.store.schema_tables import METADATA

config = context.config
target_metadata = METADATA  # the store's tables, registered by importing shared.store.schema_tables


def include_object(item: object, name: str | None, kind: str, reflected: bool, compare_to: object) -> bool:
    """Only the store's tables (and what is on them): anything else in the database is not ours."""
    if kind == "table":
        return name in TABLE_NAMES
    return True


def run_on(connection: Connection) -> None:
    context.configure(connection=connection, target_metadata=target_metadata, include_object=include_object,
                      render_as_batch=connection.dialect.name == "sqlite", compare_type=True)
    with context.begin_transaction():
        if connection.dialect.name == "postgresql":
            connection.execute(text(f"SELECT pg_advisory_xact_lock({SCHEMA_LOCK_KEY})"))
        context.run_migrations()


async def run_on_url(url: str) -> None:
    engine = create_async_engine(sqlalchemy_url(url), poolclass=NullPool)
    try:
        async with engine.connect() as connection:
            await connection.run_sync(run_on)
            await connection.commit()
    finally:
        await engine.dispose()


def run_offline(url: str) -> None:
    """``alembic upgrade --sql``: the SQL an upgrade would run, for an operator to read."""
    context.configure(url=sqlalchemy_url(url), target_metadata=target_metadata, include_object=include_object,
                      literal_binds=True, render_as_batch=url.startswith("sqlite"))
    with context.begin_transaction():
        context.run_migrations()


def database_url() -> str:
    return (config.attributes.get("url") or os.environ.get("ENTENTE_DATABASE_URL")
            or config.get_main_option("sqlalchemy.url") or "sqlite:///./entente.db")


if context.is_offline_mode():
    run_offline(database_url())
elif (given := config.attributes.get("connection")) is not None:
    run_on(given)
else:
    asyncio.run(run_on_url(database_url()))
