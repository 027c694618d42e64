"""One kind of per-process cache: a least-recently-used map bounded both in entries and in
estimated bytes (docs/architecture.md, "Performance", "Caches, each bounded").

Every cache a long-running process keeps of what it folded or rendered is one of these, so that
what each holds can be seen (``caches()``, the ``entente_cache_*`` metrics) and none can grow
past its bound however long the games it serves run. An entry's weight is the caller's estimate
of the memory it holds (usually its JSON size times a measured ratio): the bound is on that
estimate, the metrics show it, and the soak benchmark checks that the process's memory levels off.
Views and pictures are drawn in worker threads (docs/performance.md), so each cache takes a lock
around what it changes.
"""
from __future__ import annotations

import threading
import weakref
from collections import OrderedDict
from collections.abc import Hashable, Iterator
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")

_LIVE: weakref.WeakSet[BoundedCache[object, object]] = weakref.WeakSet()


class BoundedCache(Generic[K, V]):
    """Entries by key, least recently used first; ``put`` drops the oldest while the cache
    holds more than ``max_entries`` entries or more than ``max_bytes`` estimated bytes (one
    entry heavier than the whole bound is kept alone, so that its caller's next read hits)."""

    def __init__(self, name: str, max_entries: int, max_bytes: int) -> None:
        if max_entries < 1 or max_bytes < 1:
            raise ValueError("a cache holds at least one entry and one byte")
        self.name, self.max_entries, self.max_bytes = name, max_entries, max_bytes
        self._entries: OrderedDict[K, tuple[V, int]] = OrderedDict()
        self.weight = 0
        self.hits = self.misses = self.evictions = 0
        self._lock = threading.RLock()
        _LIVE.add(self)  # type: ignore[arg-type]

    def __len__(self) -> int:
        return len(self._entries)

    def __contains__(self, key: object) -> bool:
        return key in self._entries

    def peek(self, key: K) -> V | None:
        """The value kept for ``key``, without counting a hit or refreshing its age."""
        found = self._entries.get(key)
        return found[0] if found is not None else None

    def get(self, key: K) -> V | None:
        """The value kept for ``key`` (now the most recently used), or None."""
        with self._lock:
            found = self._entries.get(key)
            if found is None:
                self.misses += 1
                return None
            self.hits += 1
            self._entries.move_to_end(key)
            return found[0]

    def put(self, key: K, value: V, weight: int) -> None:
        """Keep ``value`` for ``key`` (replacing what was kept), then drop the least recently
        used entries while over either bound."""
        with self._lock:
            self.pop(key)
            self._entries[key] = (value, max(0, weight))
            self.weight += max(0, weight)
            while len(self._entries) > 1 and (len(self._entries) > self.max_entries or self.weight > self.max_bytes):
                _, (_, dropped) = self._entries.popitem(last=False)
                self.weight -= dropped
                self.evictions += 1

    def touch(self, key: K) -> None:
        """Make ``key`` the most recently used entry (if kept)."""
        with self._lock:
            if key in self._entries:
                self._entries.move_to_end(key)

    def pop(self, key: K) -> V | None:
        with self._lock:
            found = self._entries.pop(key, None)
            if found is None:
                return None
            self.weight -= found[1]
            return found[0]

    def weight_of(self, key: K) -> int:
        found = self._entries.get(key)
        return found[1] if found is not None else 0

    def resize(self, max_bytes: int) -> None:
        """A new bound in bytes (the oldest entries dropped at the next ``put`` if over it)."""
        if max_bytes < 1:
            raise ValueError("a cache holds at least one byte")
        self.max_bytes = max_bytes

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self.weight = 0


def caches() -> Iterator[BoundedCache[object, object]]:
    """The caches alive in this process (for the metrics), by name."""
    return iter(sorted(_LIVE, key=lambda cache: cache.name))
