"""Taking a database to the code's schema with Alembic: what ``entente migrate`` runs
(docs/store.md, "Schema and migrations"; docs/operations.md, "Upgrading").

The revisions are package data (shared/store/migrations), so an installed entente migrates
with no file of its own beside it. Alembic runs on SQLAlchemy's async engine over the store's
own drivers (aiosqlite, asyncpg); it is imported only here, never when a service starts.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, TypeVar

from shared.store.schema import (
    HEAD_REVISION,
    REVISIONS,
    TABLE_NAMES,
    SchemaError,
    SchemaOutOfDate,
    SchemaTooNew,
    schema_state,
)

if TYPE_CHECKING:
    from alembic.config import Config
    from sqlalchemy import Connection

T = TypeVar("T")

SCRIPT_LOCATION = "shared.store:migrations"
_DRIVERS = {"sqlite": "sqlite+aiosqlite", "sqlite+aiosqlite": "sqlite+aiosqlite",
            "postgresql": "postgresql+asyncpg", "postgres": "postgresql+asyncpg",
            "postgresql+asyncpg": "postgresql+asyncpg"}

State = Literal["fresh", "behind", "current", "ahead"]


def sqlalchemy_url(url: str) -> str:
    """The store's URL (``sqlite:///FILE``, ``postgresql://...``) with SQLAlchemy's async driver named."""
    scheme, separator, rest = url.partition(":")
    if not separator or scheme not in _DRIVERS:
        raise ValueError(f"unsupported database URL {url!r}: expected sqlite:///FILE or postgresql://...")
    return f"{_DRIVERS[scheme]}:{rest}"


def alembic_config(url: str | None = None, connection: Connection | None = None) -> Config:
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", SCRIPT_LOCATION)
    config.attributes["connection"] = connection
    config.attributes["url"] = url
    return config


def script_revisions() -> list[str]:
    """The revisions in shared/store/migrations/versions as Alembic reads them, oldest first."""
    from alembic.script import ScriptDirectory

    scripts = ScriptDirectory.from_config(alembic_config())
    return [script.revision for script in reversed(list(scripts.walk_revisions()))]


@dataclass(frozen=True)
class Status:
    revision: str | None  # stamped in the database (None: none stamped)
    has_tables: bool  # whether any of the store's tables exist
    state: State
    head: str = HEAD_REVISION

    def describe(self) -> str:
        if self.state == "fresh":
            return f"the database is empty: `entente migrate` (or any entente service) creates it at {self.head}"
        at = self.revision or f"{REVISIONS[0]} (made before the migrations, not stamped)"
        if self.state == "current":
            return f"the database schema is at {at}, this code's revision"
        if self.state == "behind":
            return f"the database schema is at {at}, older than this code's {self.head}: run `entente migrate`"
        return f"the database schema is at {at}, which this code (at {self.head}) does not know: a newer release"


def _status(connection: Connection) -> Status:
    from alembic.runtime.migration import MigrationContext
    from sqlalchemy import inspect

    has_tables = bool(set(inspect(connection).get_table_names()) & set(TABLE_NAMES))
    revision = MigrationContext.configure(connection).get_current_revision()
    state: State
    try:
        state = schema_state(has_tables, revision)
    except SchemaTooNew:
        state = "ahead"
    except SchemaOutOfDate:
        state = "behind"
    return Status(revision, has_tables, state)


async def _on_connection(url: str, work: Callable[[Connection], T]) -> T:
    from sqlalchemy.ext.asyncio import create_async_engine
    from sqlalchemy.pool import NullPool

    engine = create_async_engine(sqlalchemy_url(url), poolclass=NullPool)
    try:
        async with engine.connect() as connection:
            result = await connection.run_sync(work)
            await connection.commit()
            return result
    finally:
        await engine.dispose()


async def status(url: str) -> Status:
    """Where the database's schema stands against this code's revision."""
    return await _on_connection(url, _status)


async def migrate(url: str, target: str = "head") -> tuple[Status, Status]:
    """Upgrade (or, to an older ``target``, downgrade) the database; its status before and after.
    A database already at ``target`` is left as it is."""
    from alembic import command

    def run(connection: Connection) -> tuple[Status, Status]:
        before = _status(connection)
        wanted = HEAD_REVISION if target == "head" else target
        if wanted not in REVISIONS:
            raise ValueError(f"no revision {target!r}; this code knows {', '.join(REVISIONS)}")
        if before.state == "ahead":
            raise SchemaError(before.describe())
        config = alembic_config(url, connection)
        current = before.revision or (REVISIONS[0] if before.has_tables else None)
        if current is not None and REVISIONS.index(wanted) < REVISIONS.index(current):
            command.downgrade(config, wanted)
        else:
            command.upgrade(config, wanted)
        return before, _status(connection)

    result = await _on_connection(url, run)
    return result


def sql_range(start: str | None, target: str = "head") -> str | None:
    """Alembic's revision range for an offline upgrade from ``start`` (None: an empty
    database) to ``target``: ``"0001:0004"``, ``"0004"`` from empty; None when there is
    nothing to upgrade. ValueError for an unknown revision or a way down (--sql prints upgrades)."""
    wanted = HEAD_REVISION if target == "head" else target
    for revision in (wanted, start):
        if revision is not None and revision not in REVISIONS:
            raise ValueError(f"no revision {revision!r}; this code knows {', '.join(REVISIONS)}")
    if start is None:
        return wanted
    if REVISIONS.index(wanted) < REVISIONS.index(start):
        raise ValueError(f"--sql prints upgrades only: {start} is after {wanted} (run `entente migrate --to {wanted}`)")
    return None if wanted == start else f"{start}:{wanted}"


def start_of(found: Status) -> str | None:
    """The revision an upgrade of this database starts from (None: empty); SchemaError for a
    database of a newer release."""
    if found.state == "ahead":
        raise SchemaError(found.describe())
    return found.revision or (REVISIONS[0] if found.has_tables else None)


def upgrade_sql(url: str, start: str | None, target: str = "head") -> bool:
    """Print the SQL that upgrading a database at ``start`` (None: empty) to ``target`` runs,
    and only that; whether there was any to print."""
    from alembic import command

    revisions = sql_range(start, target)
    if revisions is None:
        return False
    command.upgrade(alembic_config(url), revisions, sql=True)
    return True
