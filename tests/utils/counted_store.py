"""The store sessions and reads one task makes: the store's own ``_session`` wrapped, counting
only what the task that asked for counting opens (a DAIDE watcher's reads in the background are
not the message's). Not a mock: the real store does every read and write."""
from __future__ import annotations

import contextvars
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

from shared.store import EventStore

READS = ("read_stream", "read_streams", "stream_version", "read_all")


@dataclass
class Counts:
    sessions: int = 0  # store sessions opened (each at least one round trip to the database)
    reads: dict[str, int] = field(default_factory=dict)  # by method: reads made in them

    @property
    def read_count(self) -> int:
        return sum(self.reads.values())


_counting: contextvars.ContextVar[Counts | None] = contextvars.ContextVar("counting", default=None)


def _counted(read: Callable[..., Any], counts: Counts, name: str) -> Callable[..., Any]:
    async def counted(*args: Any, **kwargs: Any) -> Any:
        counts.reads[name] = counts.reads.get(name, 0) + 1
        return await read(*args, **kwargs)

    return counted


def count_sessions(store: EventStore) -> None:
    """From now on, the sessions and reads of a task running ``counted`` are counted."""
    opened = store._session

    @asynccontextmanager
    async def session(kind: Any) -> AsyncIterator[Any]:
        counts = _counting.get()
        if counts is not None:
            counts.sessions += 1
        async with opened(kind) as tx:
            if counts is not None:
                for name in READS:  # the event recorder's reads (docs/store.md, "Recorders")
                    setattr(tx.events, name, _counted(getattr(tx.events, name), counts, name))
            yield tx

    store._session = session  # type: ignore[method-assign]


async def counted(call: Callable[[], Any]) -> Counts:
    """What ``call()`` (awaited) made of the store, counted by ``count_sessions``."""
    counts = Counts()
    token = _counting.set(counts)
    try:
        await call()
    finally:
        _counting.reset(token)
    return counts
