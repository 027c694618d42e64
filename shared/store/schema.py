"""The DDL of the store's tables, written by SQLAlchemy from their definitions (shared/store/tables.py,
the schema's single source) for one back end; each back end runs it on its own driver."""
from __future__ import annotations

from functools import cache

from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.schema import CreateIndex, CreateTable
from sqlmodel import SQLModel

import shared.store.outbox_tables  # noqa: F401  (registers the outbox's tables)
import shared.store.tables  # noqa: F401  (registers the events and games tables)

# every table of the store, in the order they are created
STORE_TABLES = [SQLModel.metadata.tables[name]
                for name in ("events", "games", "notification_outbox", "projection_positions")]

TABLE_NAMES = tuple(table.name for table in STORE_TABLES)
_DIALECTS = {"postgresql": postgresql.dialect, "sqlite": sqlite.dialect}


@cache
def create_statements(dialect: str) -> tuple[str, ...]:
    """CREATE TABLE and CREATE INDEX statements, each IF NOT EXISTS (so running them again is harmless)."""
    compiler = _DIALECTS[dialect]()
    statements = []
    for table in STORE_TABLES:
        statements.append(str(CreateTable(table, if_not_exists=True).compile(dialect=compiler)).strip())
        for index in sorted(table.indexes, key=lambda index: index.name or ""):
            statements.append(str(CreateIndex(index, if_not_exists=True).compile(dialect=compiler)).strip())
    return tuple(statements)
