"""Discord's rate limits as its documentation describes them (docs/social.md, "Discord"): pure
bookkeeping, no I/O, on an injectable monotonic clock.

- **Buckets.** Every answer names its bucket (``X-RateLimit-Bucket``, a hash that several
  routes may share) and what is left in it (``X-RateLimit-Remaining``,
  ``X-RateLimit-Reset-After``). A limit is a bucket *and* the request's major parameter (the
  channel, guild or webhook id in its path): ``key`` makes that pair, from the route's template
  until its bucket is known. A bucket with nothing left holds every route of it, for that
  major parameter, until it resets.
- **The global limit.** At most ``GLOBAL_PER_SECOND`` requests a second from one bot over all
  routes (50, Discord's documented default): ``wait`` counts the requests of the last second.
  A 429 whose ``X-RateLimit-Global`` header or ``global`` body field is true holds every route
  for its ``retry_after``; any other 429 holds its bucket (``X-RateLimit-Scope: shared``
  included: a shared resource's limit is waited for the same way, it only does not count
  against the bot).
"""
from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Mapping

GLOBAL_PER_SECOND = 50
EVERYTHING = "*"


class RateLimits:
    def __init__(self, clock: Callable[[], float] = time.monotonic, per_second: int = GLOBAL_PER_SECOND) -> None:
        self._clock = clock
        self._per_second = per_second
        self._buckets: dict[str, str] = {}  # route template -> Discord's bucket hash
        self._held: dict[str, float] = {}  # limit key (or EVERYTHING) -> the clock's time it is free again
        self._sent: deque[float] = deque()  # when the requests of the last second were sent

    def bucket_of(self, template: str) -> str | None:
        return self._buckets.get(template)

    def key(self, template: str, major: str) -> str:
        """The limit a request of ``template`` with major parameter ``major`` counts against."""
        return f"{self._buckets.get(template, template)}|{major}"

    def wait(self, template: str, major: str) -> float:
        """Seconds until a request may be sent (0: now): its bucket, a global hold, and the
        requests of the last second."""
        now = self._clock()
        while self._sent and self._sent[0] <= now - 1.0:
            self._sent.popleft()
        window = self._sent[0] + 1.0 - now if len(self._sent) >= self._per_second else 0.0
        held = max(self._held.get(self.key(template, major), 0.0), self._held.get(EVERYTHING, 0.0)) - now
        return max(0.0, window, held)

    def sending(self) -> None:
        self._sent.append(self._clock())

    def answered(self, template: str, major: str, status: int, headers: Mapping[str, str], *,
                 body_retry_after: float | None, body_global: bool) -> None:
        """Note what an answer says about its bucket (headers by lower-case name)."""
        bucket = headers.get("x-ratelimit-bucket")
        if bucket:
            self._buckets[template] = bucket
        key = self.key(template, major)
        now = self._clock()
        if headers.get("x-ratelimit-remaining") == "0":
            reset = _seconds(headers.get("x-ratelimit-reset-after"))
            if reset is not None:
                self._held[key] = max(self._held.get(key, 0.0), now + reset)
        if status == 429:
            asked = body_retry_after if body_retry_after is not None else _seconds(headers.get("retry-after"))
            scope = EVERYTHING if body_global or headers.get("x-ratelimit-global", "").lower() == "true" else key
            self._held[scope] = max(self._held.get(scope, 0.0), now + (asked if asked is not None else 1.0))

    def longest_hold(self) -> float:
        """Seconds until every hold has ended (for a caller handing a request back)."""
        return max(0.0, max(self._held.values(), default=0.0) - self._clock())


def _seconds(text: str | None) -> float | None:
    try:
        return max(0.0, float(text)) if text is not None else None
    except ValueError:
        return None
