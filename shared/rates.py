"""How often one client may create games, join, write orders, send press and open streams
(docs/operations.md, "Rate limits").

Each action has two token buckets: one per address (the client's, as the connection or a proxy
of ENTENTE_TRUSTED_PROXIES says: shared/http/rate_limits.py; IPv6 counted by its /64: one host
holds a whole /64) and one per bearer token (whatever it resolves to: a seat's, an account's, a
bot's). They are kept in the store, one bucket for every process (shared/http/shared_limits.py,
shared/store/buckets.py), or with ENTENTE_RATE_LIMITS_SHARED=false in each process (``Buckets``
here); ``RateLimits.checks`` says which buckets a request is counted in, for either. A bucket holds ``count``
requests and refills evenly over ``seconds``: a burst of ``count``, then one every
``seconds / count``. One more is 429 ``rate_limited`` with ``Retry-After`` (the seconds until the
bucket holds one again), checked before the request is read further, so nothing is done or
stored; refused requests take nothing from the bucket. The operator's token is never limited.

The in-process buckets are least-recently-used, MAX_KEYS per process: past that the oldest is forgotten,
which can only let its client start again with a full bucket (the one touched longest ago has
refilled most). This is the per-action bound beside the per-seat bound on order writes per phase
(shared/game/guards.py) and the caps on open streams (services/visibility/limits.py).
"""
from __future__ import annotations

import math
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from ipaddress import IPv4Network, IPv6Address, IPv6Network, ip_address, ip_network

from shared.errors import ErrorCode, TooManyRequests

ACTIONS = ("create", "join", "orders", "press", "stream")
# what each action is called in a refusal's message
DOING = {"create": "games created", "join": "seats taken", "orders": "order writes", "press": "messages sent",
         "stream": "live streams opened"}
PERIODS = {"second": 1, "minute": 60, "hour": 3600, "day": 86400}
MAX_KEYS = 100_000


@dataclass(frozen=True, slots=True)
class Rate:
    count: int
    seconds: int

    def __str__(self) -> str:
        name = next(n for n, s in PERIODS.items() if s == self.seconds)
        return f"{self.count} per {name}"


def parse_rate(text: str) -> Rate | None:
    """``COUNT/PERIOD`` (``20/hour``; period second, minute, hour or day) or ``0``/``off``
    (None: no limit); ValueError for anything else."""
    cleaned = text.strip().lower()
    if cleaned in ("0", "off", "none", ""):
        return None
    count, slash, period = cleaned.partition("/")
    count, period = count.strip(), period.strip()
    if not slash or not (count.isascii() and count.isdigit()) or period not in PERIODS \
            or not 1 <= int(count) <= 1_000_000:
        raise ValueError(f"{text!r} is not a rate: COUNT/PERIOD with COUNT from 1 to 1000000 and PERIOD one of "
                         f"{', '.join(PERIODS)} (like 20/hour), or 0 for no limit")
    return Rate(int(count), PERIODS[period])


def address_key(address: str | None) -> str | None:
    """Whose address a request counts under: the address, or its /64 for IPv6."""
    if not address:
        return None
    try:
        parsed = ip_address(address)
    except ValueError:
        return address  # a test client's name: counted as it is
    if isinstance(parsed, IPv6Address):
        if parsed.ipv4_mapped is not None:
            return str(parsed.ipv4_mapped)
        return str(ip_network(f"{parsed}/64", strict=False))
    return str(parsed)


class Buckets:
    """Token buckets by key, least recently used first, at most ``max_keys``."""

    def __init__(self, max_keys: int = MAX_KEYS) -> None:
        self.max_keys = max_keys
        self._levels: OrderedDict[str, tuple[float, float]] = OrderedDict()  # key -> (tokens, when)

    def wait(self, key: str, rate: Rate, now: float) -> float:
        """0 after taking one request from ``key``'s bucket; else the seconds until it holds
        one again (nothing taken)."""
        tokens, then = self._levels.pop(key, (float(rate.count), now))
        tokens = min(float(rate.count), tokens + (now - then) * rate.count / rate.seconds)
        if tokens >= 1.0:
            tokens -= 1.0
            waited = 0.0
        else:
            waited = (1.0 - tokens) * rate.seconds / rate.count
        self._levels[key] = (tokens, now)
        while len(self._levels) > self.max_keys:
            self._levels.popitem(last=False)
        return waited

    def give_back(self, key: str, rate: Rate) -> None:
        """Undo one ``wait`` that took a request from ``key``'s bucket."""
        if key in self._levels:
            tokens, then = self._levels[key]
            self._levels[key] = (min(float(rate.count), tokens + 1.0), then)

    def __len__(self) -> int:
        return len(self._levels)


@dataclass(frozen=True, slots=True)
class Check:
    """One bucket a request is counted in: its key, its rate, and what a refusal says."""

    key: str
    rate: Rate
    whose: str  # "from this address", "with this token"
    where: str | None  # the refusal's ``where``

    def refusal(self, action: str, waited: float) -> TooManyRequests:
        """The 429 of this bucket, ``waited`` seconds before it holds one again."""
        seconds = max(1, math.ceil(waited))
        return TooManyRequests(f"too many {DOING[action]} {self.whose}: at most {self.rate}; try again in "
                               f"{seconds} seconds", code=ErrorCode.RATE_LIMITED, where=self.where,
                               retry_after=seconds)


@dataclass
class RateLimits:
    """The limits of one process, read from its settings."""

    per_address: dict[str, Rate | None]
    per_token: dict[str, Rate | None]
    exempt: tuple[IPv4Network | IPv6Network, ...] = ()
    clock: Callable[[], float] = time.monotonic

    def __post_init__(self) -> None:
        self.buckets = Buckets()

    def checks(self, action: str, address: str | None, token_hash: str | None) -> list[Check]:
        """The buckets one ``action`` from ``address`` with the token hashed ``token_hash`` is
        counted in, in the order they are taken (pure: nothing counted)."""
        found: list[Check] = []
        by_address = self.per_address.get(action)
        key = address_key(address)
        if by_address is not None and key is not None and not self._exempt(address):
            found.append(Check(f"{action}:a:{key}", by_address, "from this address", None))
        by_token = self.per_token.get(action)
        if by_token is not None and token_hash:
            found.append(Check(f"{action}:t:{token_hash}", by_token, "with this token", "header.authorization"))
        return found

    def check(self, action: str, address: str | None, token_hash: str | None) -> None:
        """Count one ``action`` from ``address`` with the token hashed ``token_hash`` in this
        process, or raise 429 ``rate_limited`` (and count nothing)."""
        now = self.clock()
        taken: list[Check] = []
        for check in self.checks(action, address, token_hash):
            waited = self.buckets.wait(check.key, check.rate, now)
            if waited > 0:
                for given in taken:  # a refused request counts nowhere
                    self.buckets.give_back(given.key, given.rate)
                raise check.refusal(action, waited)
            taken.append(check)

    def give_back_token(self, action: str, token_hash: str | None) -> None:
        """Undo the token's part of a ``check`` that a later limit refused."""
        rate = self.per_token.get(action)
        if rate is not None and token_hash:
            self.buckets.give_back(f"{action}:t:{token_hash}", rate)

    def exempts(self, address: str | None) -> bool:
        """Whether ``address`` is one of ENTENTE_RATE_LIMIT_EXEMPT."""
        return self._exempt(address)

    def _exempt(self, address: str | None) -> bool:
        if not self.exempt or not address:
            return False
        try:
            parsed = ip_address(address)
        except ValueError:
            return False
        return any(parsed in network for network in self.exempt)
