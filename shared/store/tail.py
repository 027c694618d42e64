"""Following the log: ``EventStore.tail(after)`` gives a ``LogTail`` whose ``next()`` returns
the events committed after what it last returned (docs/store.md, "Following the log").

A tail keeps one waiter registered with the store's ``CommitListener`` for as long as it lives,
so a commit is noticed even while the tail is busy elsewhere, and a wake-up costs one read of
the log, not three (a read to find the wake-up real, another after the settling delay, and one
more before waiting again, as a fresh wait per call would). On PostgreSQL it waits for a
notification (and reads every ``BACKSTOP_SECONDS`` regardless, in case one was lost); where
there is no listener (SQLite, or the LISTEN connection down) it polls every ``POLL_SECONDS``.
"""
from __future__ import annotations

import asyncio
import math
from collections.abc import Awaitable, Callable

from shared.store.notify import BACKSTOP_SECONDS, POLL_SECONDS, CommitListener
from shared.store.records import RecordedEvent

ReadAll = Callable[[int, int], Awaitable[list[RecordedEvent]]]


class LogTail:
    """The log after ``position``, one batch per ``next()``. Close it (or use ``async with``)
    to unregister its waiter."""

    def __init__(self, read_all: ReadAll, listener: CommitListener | None, after_position: int) -> None:
        self.position = after_position  # the last position returned
        self.reads = 0  # reads of the log so far, for the curious (tests, the stream hub's stats)
        self._read_all = read_all
        self._listener = listener
        self._waiter: asyncio.Event | None = None
        self._behind = True  # read at once: nothing read yet, the last batch was full, or listening resumed
        self._read_at = -math.inf
        self._listened = False  # notifications reached the waiter at the last look

    async def __aenter__(self) -> LogTail:
        return self

    async def __aexit__(self, *_: object) -> None:
        self.close()

    def close(self) -> None:
        if self._listener is not None and self._waiter is not None:
            self._listener.unregister(self._waiter)
        self._waiter = None

    async def next(self, timeout: float, settle: float = 0.0, limit: int = 1000) -> list[RecordedEvent]:
        """Up to ``limit`` events after the last ones returned; when there are none yet, wait up
        to ``timeout`` seconds for some to commit (an empty list when none did). Once woken by a
        commit, wait ``settle`` seconds more so that commits moments apart come in one batch."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + max(timeout, 0.0)
        while True:
            listening = await self._listening()
            woken = False
            if not self._behind:
                remaining = deadline - loop.time()
                if remaining <= 0:
                    return []
                if not await self._wait(listening, remaining):
                    continue
                woken = True
                if listening and settle > 0:
                    await asyncio.sleep(settle)
            records = await self._read(limit)
            if records and woken and not listening and settle > 0 and len(records) < limit:
                # polling: the wake-up is this read; what commits within ``settle`` joins it
                await asyncio.sleep(settle)
                records += await self._read(limit - len(records))
            self._behind = len(records) >= limit
            if records or loop.time() >= deadline:
                return records

    async def _listening(self) -> bool:
        """Whether notifications wake this tail (registering its waiter on first use)."""
        listener = self._listener
        if listener is None or not await listener.ensure_listening():
            self._listened = False
            return False
        if self._waiter is None:
            self._waiter = listener.register()
        if not self._listened:
            self._behind = True  # what committed before the waiter heard it is read at once
            self._listened = True
        return True

    async def _wait(self, listening: bool, remaining: float) -> bool:
        """Wait for a reason to read (a notification, the backstop, the next poll); False when
        ``remaining`` ran out first."""
        if not listening or self._waiter is None:
            await asyncio.sleep(min(POLL_SECONDS, remaining))
            return True
        if self._waiter.is_set():
            return True
        backstop_in = self._read_at + BACKSTOP_SECONDS - asyncio.get_running_loop().time()
        try:
            await asyncio.wait_for(self._waiter.wait(), min(remaining, max(backstop_in, 0.0)))
        except TimeoutError:
            return backstop_in <= remaining  # the backstop is due: read even without a notification
        return True

    async def _read(self, limit: int) -> list[RecordedEvent]:
        if self._waiter is not None:
            self._waiter.clear()  # before reading: a commit from now on wakes the next wait
        self._read_at = asyncio.get_running_loop().time()
        self.reads += 1
        try:
            records = await self._read_all(self.position, limit)
        except BaseException:
            self._behind = True  # its wake-up is spent: the next call reads at once
            raise
        if records:
            self.position = records[-1].position
        return records
