"""The Prometheus metrics of every process (docs/operations.md, "Metrics").

Counters and histograms are counted where things happen (the request middleware, order
intake, resolutions, webhook attempts, the live stream); the gauges that are facts of the
database (the clock's lag, the outbox by status) are read from it when the metrics are
scraped (``refresh_from_store``), so they stay true when the process that should move them
has stopped, which is when they matter.

Under ``entente serve --workers N`` each server process writes its values to files in
``PROMETHEUS_MULTIPROC_DIR`` (set by ``entente serve``) and a scrape of any of them adds
them up (prometheus_client's multiprocess mode); the database gauges keep the most recent
measurement, and the open streams gauge adds up the live processes'.
"""
from __future__ import annotations

import os
import time
import weakref
from collections.abc import Sequence
from datetime import datetime
from ipaddress import IPv4Network, IPv6Network, ip_address
from typing import TYPE_CHECKING

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    disable_created_metrics,
)
from prometheus_client import generate_latest as _generate_latest

from shared.bounded import BoundedCache, caches

if TYPE_CHECKING:
    from shared.store import EventStore

disable_created_metrics()  # no *_created series: they double the output and nothing here reads them
MULTIPROCESS_DIRECTORY = "PROMETHEUS_MULTIPROC_DIR"
CONTENT_TYPE = CONTENT_TYPE_LATEST
TRIGGERS = ("clock", "early", "host", "operator")  # what resolved a phase
OUTBOX_STATUSES = ("pending", "delivered", "dead", "cancelled")

# requests: mostly a few milliseconds; a resolution or a long stream far more
_REQUEST_BUCKETS = (0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 300.0)
_RESOLUTION_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)

REQUESTS = Counter("entente_http_requests", "HTTP requests answered, by method, route template and status",
                   ["method", "route", "status"])
REQUEST_SECONDS = Histogram("entente_http_request_duration_seconds",
                            "Time from a request's arrival to the end of its response, by method and route template",
                            ["method", "route"], buckets=_REQUEST_BUCKETS)
ORDER_SUBMISSIONS = Counter("entente_order_submissions", "Order submissions stored, by variant", ["variant"])
ORDERS = Counter("entente_orders", "Orders in submissions, by variant and whether they were accepted",
                 ["variant", "outcome"])
PHASES_RESOLVED = Counter("entente_phases_resolved", "Phases resolved, by variant and by what resolved them "
                          "(clock: a deadline; early: everyone had ordered; host; operator)", ["variant", "trigger"])
RESOLUTION_SECONDS = Histogram("entente_resolution_duration_seconds",
                               "Time a resolution held its game locked, from the lock to the commit, by variant "
                               "and trigger", ["variant", "trigger"], buckets=_RESOLUTION_BUCKETS)
CLOCK_LAG = Gauge("entente_clock_lag_seconds", "Age of the oldest passed deadline not yet handled by a clock "
                  "worker (0 when none), read from the database at the scrape", multiprocess_mode="mostrecent")
OUTBOX = Gauge("entente_outbox_notifications", "Rows of the notifications outbox by status (pending: its depth; "
               "dead: its dead letters), read from the database at the scrape", ["status"],
               multiprocess_mode="mostrecent")
OUTBOX_ATTEMPTS = Counter("entente_outbox_attempts", "Webhook delivery attempts, by outcome (delivered; retry: "
                          "failed, tried again later; dead: failed for the last time, dead-lettered)", ["outcome"])
CLOCK_SWEEPS = Counter("entente_clock_sweeps", "Sweeps of the clock worker, by outcome (ok, failed)", ["outcome"])
OPEN_STREAMS = Gauge("entente_open_streams", "Live streams (GET /games/{id}/stream) open now",
                     multiprocess_mode="livesum")
STREAM_LOG_READS = Counter("entente_stream_log_reads", "Reads of the log by the live streams' tailers (one per "
                           "process with open streams; one read per wake-up, docs/social.md)")
STREAM_DELIVERIES = Counter("entente_stream_deliveries", "Changes of a watched game delivered to its live streams "
                            "(one pass over the game's watchers each)")
CACHE_ENTRIES = Gauge("entente_cache_entries", "Entries in each per-process cache, by cache (refreshed at most "
                      "every few seconds, as requests come)", ["cache"], multiprocess_mode="livesum")
CACHE_BYTES = Gauge("entente_cache_estimated_bytes", "The estimated memory of each per-process cache, by cache "
                    "(the estimate its bound is on)", ["cache"], multiprocess_mode="livesum")
CACHE_LOOKUPS = Counter("entente_cache_lookups", "Reads of each per-process cache, by cache and outcome (hit: an "
                        "entry was kept; miss: none, the store is read), counted when the gauges are refreshed",
                        ["cache", "outcome"])
CACHE_EVICTIONS = Counter("entente_cache_evictions", "Entries each per-process cache dropped to stay within its "
                          "bounds, counted when the gauges are refreshed", ["cache"])
CACHE_REFRESH_SECONDS = 5.0
_caches_refreshed = [float("-inf")]
# what each cache's own counts were when last added to the counters (a cache counts for its life)
_counted: weakref.WeakKeyDictionary[BoundedCache[object, object], tuple[int, int, int]] = weakref.WeakKeyDictionary()


def may_read(token: str | None, address: str | None, operator_hash: str | None,
             allowed: Sequence[IPv4Network | IPv6Network], metrics_hash: str | None = None) -> bool:
    """Whether a scrape may read the metrics: with the operator's token or the metrics token
    (ENTENTE_METRICS_TOKEN, good for nothing else), or from an address the operator allowed
    (ENTENTE_METRICS_ALLOW; the connection's own address, never a header)."""
    from shared.auth import hash_token, same_hash

    if token:
        presented = hash_token(token)
        if any(known and same_hash(presented, known) for known in (operator_hash, metrics_hash)):
            return True
    if address and allowed:
        try:
            peer = ip_address(address)
        except ValueError:
            return False
        return any(peer in network for network in allowed)
    return False


def record_resolution(variant: str, trigger: str, phases: int, seconds: float) -> None:
    PHASES_RESOLVED.labels(variant, trigger).inc(phases)
    RESOLUTION_SECONDS.labels(variant, trigger).observe(seconds)


async def refresh_from_store(store: EventStore, now: datetime) -> None:
    """Read the database's gauges: the clock's lag and the outbox by status."""
    oldest = await store.games.oldest_due_deadline(now)
    CLOCK_LAG.set(0.0 if oldest is None else max(0.0, (now - oldest).total_seconds()))
    counts = await store.outbox.notification_counts()
    for status in sorted(set(OUTBOX_STATUSES) | set(counts)):
        OUTBOX.labels(status).set(counts.get(status, 0))


def refresh_caches(*, force: bool = False) -> None:
    """Set the cache gauges from this process's caches (at most every few seconds, unless
    ``force``: called after every request, so that a busy worker's figures stay fresh)."""
    now = time.monotonic()
    if not force and now - _caches_refreshed[0] < CACHE_REFRESH_SECONDS:
        return
    _caches_refreshed[0] = now
    entries: dict[str, int] = {}
    weights: dict[str, int] = {}
    for cache in caches():  # a process with several stores has a cache of each name per store
        entries[cache.name] = entries.get(cache.name, 0) + len(cache)
        weights[cache.name] = weights.get(cache.name, 0) + cache.weight
        _count_lookups(cache)
    for name, count in entries.items():
        CACHE_ENTRIES.labels(name).set(count)
        CACHE_BYTES.labels(name).set(weights[name])


def _count_lookups(cache: BoundedCache[object, object]) -> None:
    """Add what ``cache`` counted since it was last counted to the lookup and eviction counters."""
    hits, misses, evictions = _counted.get(cache, (0, 0, 0))
    if cache.hits > hits:
        CACHE_LOOKUPS.labels(cache.name, "hit").inc(cache.hits - hits)
    if cache.misses > misses:
        CACHE_LOOKUPS.labels(cache.name, "miss").inc(cache.misses - misses)
    if cache.evictions > evictions:
        CACHE_EVICTIONS.labels(cache.name).inc(cache.evictions - evictions)
    _counted[cache] = (cache.hits, cache.misses, cache.evictions)


def exposition() -> bytes:
    """This process's metrics in the Prometheus text format (every server process's, added
    up, in multiprocess mode)."""
    if os.environ.get(MULTIPROCESS_DIRECTORY):
        from prometheus_client import multiprocess

        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
        return _generate_latest(registry)
    return _generate_latest(REGISTRY)


def process_stopped() -> None:
    """Tell the multiprocess files that this process's live gauges are gone (at its shutdown)."""
    if os.environ.get(MULTIPROCESS_DIRECTORY):
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(os.getpid())
