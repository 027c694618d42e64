"""The one kind of per-process cache (shared/bounded.py): least recently used first out, bounded
both in entries and in estimated bytes, its weight always the sum of what it holds."""
from __future__ import annotations

import pytest

from shared.bounded import BoundedCache, caches


def test_the_least_recently_used_entry_goes_first_when_over_the_entries() -> None:
    cache: BoundedCache[str, int] = BoundedCache("test-entries", max_entries=3, max_bytes=10**9)
    for key in "abc":
        cache.put(key, ord(key), 1)
    assert cache.get("a") == ord("a")  # a is now the most recently used
    cache.put("d", 4, 1)
    assert "b" not in cache and [k for k in "acd" if k in cache] == ["a", "c", "d"]
    assert len(cache) == 3 and cache.weight == 3 and cache.evictions == 1


def test_the_bound_in_bytes_drops_as_many_as_it_takes() -> None:
    cache: BoundedCache[int, str] = BoundedCache("test-bytes", max_entries=100, max_bytes=1_000)
    for key in range(4):
        cache.put(key, "x", 300)
    assert cache.weight == 900 and len(cache) == 3 and 0 not in cache  # the fourth pushed the first out
    cache.put(9, "heavy", 700)
    assert list(k for k in range(10) if k in cache) == [3, 9] and cache.weight == 1_000
    cache.put(10, "heavier than the bound", 5_000)  # kept alone: its reader's next read hits
    assert len(cache) == 1 and cache.get(10) == "heavier than the bound" and cache.weight == 5_000


def test_replacing_and_popping_keep_the_weight_true() -> None:
    cache: BoundedCache[str, str] = BoundedCache("test-weight", max_entries=10, max_bytes=10_000)
    cache.put("a", "one", 100)
    cache.put("a", "two", 250)
    assert cache.peek("a") == "two" and cache.weight == 250 and cache.weight_of("a") == 250
    assert cache.pop("a") == "two" and cache.pop("a") is None and cache.weight == 0
    cache.put("b", "b", 100)
    cache.resize(50)
    cache.put("c", "c", 40)  # over the new bound: the older goes
    assert "b" not in cache and cache.weight == 40
    cache.clear()
    assert len(cache) == 0 and cache.weight == 0


def test_peek_counts_no_hit_and_leaves_the_order() -> None:
    cache: BoundedCache[str, int] = BoundedCache("test-peek", max_entries=2, max_bytes=100)
    cache.put("a", 1, 1)
    cache.put("b", 2, 1)
    assert cache.peek("a") == 1 and cache.hits == 0
    cache.put("c", 3, 1)  # a was not refreshed by the peek: it goes
    assert "a" not in cache and cache.get("zzz") is None and cache.misses == 1


def test_the_live_caches_are_listed_by_name() -> None:
    kept: BoundedCache[str, int] = BoundedCache("test-listed", max_entries=1, max_bytes=1)
    assert kept in list(caches())


def test_a_cache_holds_something() -> None:
    with pytest.raises(ValueError):
        BoundedCache("test-empty", max_entries=0, max_bytes=10)


def test_the_metrics_add_up_the_caches_of_one_name() -> None:
    """A process with several stores has a cache of each name per store: the gauge is their sum."""
    from prometheus_client import REGISTRY

    from shared import metrics

    first: BoundedCache[str, int] = BoundedCache("test-summed", max_entries=10, max_bytes=10_000)
    second: BoundedCache[str, int] = BoundedCache("test-summed", max_entries=10, max_bytes=10_000)
    first.put("a", 1, 100)
    second.put("b", 2, 250)
    second.put("c", 3, 50)
    metrics.refresh_caches(force=True)
    assert REGISTRY.get_sample_value("entente_cache_entries", {"cache": "test-summed"}) == 3
    assert REGISTRY.get_sample_value("entente_cache_estimated_bytes", {"cache": "test-summed"}) == 400


def test_the_metrics_count_hits_misses_and_evictions_once_each() -> None:
    """The counters grow by what each cache counted since the last refresh: a refresh with
    nothing new adds nothing, and two caches of one name add up."""
    from prometheus_client import REGISTRY

    from shared import metrics

    def counted() -> tuple[float, float, float]:
        def sample(name: str, **labels: str) -> float:
            return REGISTRY.get_sample_value(name, {"cache": "test-counted", **labels}) or 0.0
        return (sample("entente_cache_lookups_total", outcome="hit"),
                sample("entente_cache_lookups_total", outcome="miss"),
                sample("entente_cache_evictions_total"))

    first: BoundedCache[str, int] = BoundedCache("test-counted", max_entries=2, max_bytes=10_000)
    second: BoundedCache[str, int] = BoundedCache("test-counted", max_entries=10, max_bytes=10_000)
    metrics.refresh_caches(force=True)
    before = counted()
    for key in "abc":  # the third drops "a"
        first.put(key, 1, 10)
    assert first.get("a") is None and first.get("c") == 1 and first.get("b") == 1
    second.put("x", 1, 10)
    assert second.get("x") == 1 and second.get("y") is None
    metrics.refresh_caches(force=True)
    after = counted()
    assert [round(a - b) for a, b in zip(after, before, strict=True)] == [3, 2, 1]
    metrics.refresh_caches(force=True)
    assert counted() == after
