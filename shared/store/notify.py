"""Waking readers when events commit: PostgreSQL LISTEN/NOTIFY, polling elsewhere.

Every appending transaction on PostgreSQL sends ``NOTIFY entente_events`` (delivered when it
commits). A store's ``CommitListener`` holds one extra connection that LISTENs and wakes every
waiting reader, which then reads the log itself: a notification carries no data, so a lost or
merged one costs nothing but a little latency (readers also re-read every ``BACKSTOP_SECONDS``).
"""
from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

log = logging.getLogger("entente.store")

CHANNEL = "entente_events"
BACKSTOP_SECONDS = 5.0  # PostgreSQL: re-read at least this often, in case the listener is down
POLL_SECONDS = 0.1  # SQLite: how often a waiting reader looks again
RETRY_SECONDS = 30.0  # after a failed LISTEN connection, readers use the backstop this long


class CommitListener:
    """One LISTEN connection per store, opened on first use; wakes the registered waiters."""

    def __init__(self, dsn: str) -> None:
        self._dsn = dsn
        self._connection: Any = None
        self._starting = asyncio.Lock()
        self._waiters: set[asyncio.Event] = set()
        self._retry_at = 0.0  # monotonic time before which no new LISTEN connection is tried

    def register(self) -> asyncio.Event:
        waiter = asyncio.Event()
        self._waiters.add(waiter)
        return waiter

    def unregister(self, waiter: asyncio.Event) -> None:
        self._waiters.discard(waiter)

    async def ensure_listening(self) -> bool:
        """Whether notifications arrive (False: the caller falls back to the backstop)."""
        if self._connection is not None and not self._connection.is_closed():
            return True
        if time.monotonic() < self._retry_at:
            return False  # it failed a moment ago: no reader waits on another connect meanwhile
        async with self._starting:
            if self._connection is not None and not self._connection.is_closed():
                return True
            if time.monotonic() < self._retry_at:
                return False
            import asyncpg

            try:
                connection = await asyncpg.connect(self._dsn, timeout=10)
                await connection.add_listener(CHANNEL, self._notified)
            except (TimeoutError, OSError, asyncpg.PostgresError) as error:
                self._retry_at = time.monotonic() + RETRY_SECONDS
                log.warning("cannot LISTEN for new events (%s); readers poll every %.0f s, trying again in %.0f s",
                            error, BACKSTOP_SECONDS, RETRY_SECONDS)
                return False
            self._connection = connection
            return True

    def _notified(self, *_: Any) -> None:
        for waiter in self._waiters:
            waiter.set()

    async def close(self) -> None:
        if self._connection is not None and not self._connection.is_closed():
            await self._connection.close()
        self._connection = None
