"""A seat's (or an account's) open live streams counted for every process of one database
(docs/operations.md, "Rate limits"; docs/decisions/0024-iam-across-processes.md): the game
streams (services/visibility/limits.py) and ``/me/stream`` (services/accounts/seats.py); and
which connection holds a DAIDE seat (services/daide/watch.py). Each stream of a capped seat
holds a place in the store (``store.leases``, shared/store/leases.py) while it is open. This
process moves its leases on every ``REFRESH_SECONDS`` while it holds any, in one statement; a lease
lasts ``LEASE_SECONDS``, so the places of a process that crashed come free within that.
"""
from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Callable
from typing import Any

from shared.store import EventStore
from shared.store.leases import Lease

log = logging.getLogger("entente.streams")
LEASE_SECONDS = 45.0
REFRESH_SECONDS = 15.0
FORGET_EVERY_SECONDS = 60.0  # how often this process deletes the expired leases of anyone


class SharedStreams:
    """This process's leases: its random id, how many it holds, and the task keeping them."""

    def __init__(self, store: EventStore, clock: Callable[[], float] = time.time) -> None:
        self.store, self.clock = store, clock
        self.process = secrets.token_hex(8)
        self.held = 0
        self._keeper: asyncio.Task[None] | None = None
        self._releasing: set[asyncio.Task[None]] = set()
        self._forgotten_at = clock()

    async def take(self, viewer_key: str, cap: int) -> Lease | None:
        """A place of the viewer's ``cap`` for one more stream (None: every place is held)."""
        now = self.clock()
        lease = await self.store.leases.take(viewer_key, cap, self.process, secrets.token_hex(8),
                                             now + LEASE_SECONDS, now)
        if lease is not None:
            self._held_one_more()
        return lease

    async def hold(self, key: str, lease: str) -> Lease:
        """The one place of ``key`` (a DAIDE seat), taken whoever holds it."""
        held = await self.store.leases.hold(key, self.process, lease, self.clock() + LEASE_SECONDS)
        self._held_one_more()
        return held

    def _held_one_more(self) -> None:
        """Count a lease taken, and keep this process's leases alive while it holds any."""
        self.held += 1
        if self._keeper is None or self._keeper.done():
            self._keeper = asyncio.create_task(self._keep(), name="entente stream leases")

    async def is_held(self, key: str) -> bool:
        """Whether a live lease of any process holds the first place of ``key``."""
        return await self.store.leases.held(key, self.clock())

    def release(self, lease: Lease) -> None:
        """Give the place back (at once, in a task of its own: the stream has ended)."""
        self.held -= 1
        task = asyncio.get_running_loop().create_task(self._release(lease))
        self._releasing.add(task)
        task.add_done_callback(self._releasing.discard)

    async def _release(self, lease: Lease) -> None:
        try:
            await self.store.leases.release(lease)
        except Exception:  # it expires by itself within LEASE_SECONDS
            log.exception("giving back a stream's place failed")

    async def _keep(self) -> None:
        while self.held > 0:
            await asyncio.sleep(REFRESH_SECONDS)
            now = self.clock()
            try:
                await self.store.leases.refresh(self.process, now + LEASE_SECONDS)
                if now - self._forgotten_at >= FORGET_EVERY_SECONDS:
                    self._forgotten_at = now
                    await self.store.leases.forget_expired(now)
            except Exception:  # tried again at the next beat; meanwhile the leases may expire
                log.exception("keeping the open streams' places failed")

    async def close(self) -> None:
        """At the app's end: the keeper stops and the places being given back are."""
        if self._releasing:
            await asyncio.wait(list(self._releasing), timeout=5)
        if self._keeper is not None and not self._keeper.done():
            self._keeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._keeper


async def close_shared_streams(app: Any) -> None:
    """At the app's end, before its store closes (shared/http/app.py's lifespan); again, nothing."""
    found: SharedStreams | None = getattr(app.state, "shared_streams", None)
    if found is not None:
        await found.close()


def shared_streams(app: Any, store: EventStore) -> SharedStreams:
    """The app's leases, made the first time."""
    found: SharedStreams | None = getattr(app.state, "shared_streams", None)
    if found is None or found.store is not store:
        found = app.state.shared_streams = SharedStreams(store)
    return found
