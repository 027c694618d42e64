"""Whether a failure means the database cannot be reached now, rather than a bug: what turns a
request's failure into 503 ``unavailable`` with ``Retry-After`` instead of 500, and a readiness
probe red (docs/deploy.md, "Health checks"; docs/api.md, "Errors").

Unreachable: the connection cannot be made or was lost (refused, reset, timed out: ``OSError``,
``TimeoutError``), PostgreSQL's connection errors (class 08), its operator's interventions
(class 57: shutting down, starting up, the connection terminated, as when the database is
dropped under it ``WITH (FORCE)``), its database missing (3D000), out of connections (class
53); SQLite's file that cannot be opened, read or locked in time. Anything else is not
classified so (a bug stays a 500 and is logged).
"""
from __future__ import annotations

import sqlite3

from asyncpg import exceptions as pg

READY_SECONDS = 2.0  # how long the readiness probe waits for the store

_POSTGRES_UNREACHABLE = (pg.PostgresConnectionError, pg.OperatorInterventionError, pg.InvalidCatalogNameError,
                         pg.InsufficientResourcesError)
_SQLITE_UNREACHABLE = ("unable to open database", "disk i/o error", "database is locked", "readonly database",
                       "database disk image is malformed")

# the classes whose every instance means it (SQLite's OperationalError only by its message)
UNREACHABLE_CLASSES: tuple[type[BaseException], ...] = (OSError, TimeoutError, *_POSTGRES_UNREACHABLE)


def unreachable(error: BaseException) -> bool:
    """Whether ``error`` (or the error it was raised ``from``) says the database cannot be reached."""
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if isinstance(current, UNREACHABLE_CLASSES):
            return True
        if isinstance(current, sqlite3.OperationalError) and str(current).lower().startswith(_SQLITE_UNREACHABLE):
            return True
        current = current.__cause__
    return False
