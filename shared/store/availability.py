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

import asyncio
import sqlite3
from typing import TYPE_CHECKING, Any

from asyncpg import exceptions as pg

if TYPE_CHECKING:
    from shared.store.base import EventStore

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


class StoreProbe:
    """Readiness: whether the store answers a read within ``seconds``, answered in that time
    whatever the store does. A read that does not answer is cancelled but not waited for (its
    clean-up may itself wait on a silent connection). While ``MAX_LINGERING`` such reads are
    still unfinished the next probes answer "not ready" at once, without another read; a read
    unfinished ``ABANDON_SECONDS`` after it started no longer counts (a connection lost that
    way is the pool's to replace), so readiness comes back once the database does."""

    MAX_LINGERING = 3
    ABANDON_SECONDS = 30.0

    def __init__(self, seconds: float = READY_SECONDS) -> None:
        self.seconds = seconds
        self._lingering: list[tuple[float, asyncio.Future[Any]]] = []

    async def ready(self, store: EventStore) -> bool:
        now = asyncio.get_running_loop().time()
        self._lingering = [(started, read) for started, read in self._lingering
                           if not read.done() and now - started < self.ABANDON_SECONDS]
        if len(self._lingering) >= self.MAX_LINGERING:
            return False
        read = asyncio.ensure_future(store.events.head())
        read.add_done_callback(_retrieve)
        done, _ = await asyncio.wait({read}, timeout=self.seconds)
        if not done:
            read.cancel()
            self._lingering.append((now, read))
            return False
        return not read.cancelled() and read.exception() is None


def _retrieve(future: asyncio.Future[Any]) -> None:
    """Take a finished read's outcome, so that a failure nobody waited for is not reported as
    "never retrieved"."""
    if not future.cancelled():
        future.exception()
