"""The rate limits held in the store, so that every process and every replica counts against one
limit (docs/operations.md, "Rate limits"; docs/decisions/0021-limits-across-processes.md).

Every bucket but two is a row of the store's ``rate_buckets`` (``SharedBuckets.count``,
shared/store/buckets.py: a conditional upsert a bucket, a request's buckets in one statement on
PostgreSQL). The per-address limits of the actions anyone may take without an account
(creating a game, taking a seat) are older and kept in the log instead (``count_in_store``; the
events: shared/events_limits.py), where an operator reads them beside the games they made.

A limit ``COUNT/PERIOD`` is the same token bucket as the in-process ones (shared/rates.py): a
burst of ``COUNT``, then one every ``PERIOD / COUNT``; one more is 429 ``rate_limited`` with
``Retry-After``, and nothing is counted. The bucket is kept as the time it would be full again
(``full_at``, the generic cell rate algorithm's theoretical arrival time) in the address's
latest event: a check reads the stream's version and its last event, and appends one at the
next version; a process that loses a race reads again and decides again.
"""
from __future__ import annotations

import hashlib
import hmac
import math
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta

from shared.errors import ErrorCode, TooManyRequests
from shared.events import to_new_event
from shared.events_limits import ActionCounted, limit_stream
from shared.rates import DOING, Check, Rate
from shared.store import ConcurrencyError, EventStore
from shared.store.buckets import Take

SHARED_ACTIONS = frozenset({"create", "join"})
ATTEMPTS = 5  # reads and appends before a client that keeps losing races is told to retry


def bucket_after(full_at: datetime | None, rate: Rate, now: datetime) -> tuple[float, datetime]:
    """(0, the bucket's new ``full_at``) when one more may be counted now; else (the seconds
    until it may, ``full_at`` as it was). Pure: the generic cell rate algorithm."""
    interval = timedelta(seconds=rate.seconds / rate.count)
    start = max(full_at, now) if full_at is not None else now
    over = (start - now) - (rate.count - 1) * interval
    if over > timedelta(0):
        return over.total_seconds(), start
    return 0.0, start + interval


def refusal(action: str, rate: Rate, waited: float) -> TooManyRequests:
    seconds = max(1, math.ceil(waited))
    return TooManyRequests(f"too many {DOING[action]} from this address: at most {rate}; try again in "
                           f"{seconds} seconds", code=ErrorCode.RATE_LIMITED, retry_after=seconds)


async def count_in_store(store: EventStore, action: str, address_key: str, rate: Rate, secret: str) -> None:
    """Count one ``action`` from ``address_key`` in the store, or raise 429 (nothing counted)."""
    stream = limit_stream(action, address_key, secret)
    for _ in range(ATTEMPTS):
        version = await store.events.stream_version(stream)
        last = await store.events.read_stream(stream, after_version=version - 1) if version else []
        full_at = datetime.fromisoformat(str(last[-1].data["full_at"])) if last else None
        waited, full_at = bucket_after(full_at, rate, datetime.now(UTC))
        if waited > 0:
            raise refusal(action, rate, waited)
        try:
            async with store.transaction() as tx:
                await tx.events.append(stream, [to_new_event(ActionCounted(action=action, full_at=full_at))],
                                       expected_version=version)
            return
        except ConcurrencyError:
            continue  # another process counted one meanwhile: decide again
    raise refusal(action, rate, 1.0)


FORGET_EVERY_SECONDS = 60.0  # how often a process deletes the buckets that are full again


def take_of(check: Check, secret: str) -> Take:
    """The store's take of ``check``'s bucket, its key a keyed hash of the bucket's (no address
    or token hash is stored)."""
    interval = check.rate.seconds / check.rate.count
    return Take(hmac.new(secret.encode(), check.key.encode(), hashlib.sha256).hexdigest()[:32], interval,
                (check.rate.count - 1) * interval)


class SharedBuckets:
    """One process's use of the store's buckets: its clock (the wall clock, which every
    process of every machine shares) and when it last deleted the full ones."""

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self.clock = clock
        self.forgotten_at = clock()

    async def count(self, store: EventStore, action: str, checks: Sequence[Check], secret: str) -> None:
        """Take one from each bucket of ``checks`` in the store, or raise the 429 of the first
        that is empty (nothing taken: a refused request counts nowhere)."""
        if not checks:
            return
        now = self.clock()
        refused = await store.buckets.take_all(now, [take_of(check, secret) for check in checks])
        if refused is not None:
            raise checks[refused.index].refusal(action, refused.waited)
        if now - self.forgotten_at > FORGET_EVERY_SECONDS:
            self.forgotten_at = now
            await store.buckets.forget_full(now)

    @staticmethod
    async def give_back(store: EventStore, checks: Sequence[Check], secret: str) -> None:
        """Undo one ``count`` of these buckets."""
        for check in checks:
            take = take_of(check, secret)
            await store.buckets.give_back(take.key, take.interval)
