"""The per-address limits of the actions anyone may take without an account (creating a game,
taking a seat), held in the store so that every process and every replica counts against one
limit (docs/operations.md, "Rate limits"; the events: shared/events_limits.py).

A limit ``COUNT/PERIOD`` is the same token bucket as the in-process ones (shared/rates.py): a
burst of ``COUNT``, then one every ``PERIOD / COUNT``; one more is 429 ``rate_limited`` with
``Retry-After``, and nothing is counted. The bucket is kept as the time it would be full again
(``full_at``, the generic cell rate algorithm's theoretical arrival time) in the address's
latest event: a check reads the stream's version and its last event, and appends one at the
next version; a process that loses a race reads again and decides again.
"""
from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta

from shared.errors import ErrorCode, TooManyRequests
from shared.events import to_new_event
from shared.events_limits import ActionCounted, limit_stream
from shared.rates import DOING, Rate
from shared.store import ConcurrencyError, EventStore

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
        full_at = datetime.fromisoformat(last[-1].data["full_at"]) if last else None
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
