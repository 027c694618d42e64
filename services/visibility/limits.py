"""How many live streams one client may hold open (docs/social.md, "Limits").

Per process: at most ENTENTE_STREAM_MAX_PER_ADDRESS streams from one address (the
connection's own: ``entente serve`` trusts no X-Forwarded-For, so behind a proxy the proxy
limits by address, deploy/nginx.conf). For every process of the database:
ENTENTE_STREAM_MAX_PER_VIEWER for one viewer: a seat, whatever token it uses (its own, an
account's, a bot's), counted in this process and in the store's leases (``take_everywhere``,
shared/http/stream_leases.py). The public is anonymous: it counts by address only; the operator is not limited.
One more gets 429 ``too_many_streams`` with ``Retry-After`` before anything is opened. 0
switches a limit off.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from shared.auth import Caller
from shared.errors import DomainError, ErrorCode
from shared.http.stream_leases import shared_streams
from shared.store import EventStore

RETRY_AFTER_SECONDS = 30  # a stream ends within MAX_STREAM_SECONDS; a closed tab's within seconds


class TooManyStreams(DomainError):
    status_code = 429
    code = ErrorCode.TOO_MANY_STREAMS
    retry_after = RETRY_AFTER_SECONDS


def viewer_key(caller: Caller) -> str | None:
    """Whose streams count together: a seat's (None for the public and the operator)."""
    return f"seat:{caller.player_id}" if caller.role == "player" and caller.player_id else None


def seat_full(cap: int) -> TooManyStreams:
    return TooManyStreams(f"{cap} live streams are open for this seat already: close one (or wait for one to end) "
                          "before opening another", where="header.authorization")


async def take_everywhere(app: Any, store: EventStore, address: str | None, caller: Caller) -> Slot:
    """A slot for one more stream, counted in this process and, for a seat, in the store for
    every process; or TooManyStreams (nothing taken)."""
    limits = limits_of(app)
    slot = limits.take(address, caller)
    viewer = viewer_key(caller)
    if viewer is None or not limits.per_viewer:
        return slot
    shared = shared_streams(app, store)
    try:
        lease = await shared.take(viewer, limits.per_viewer)
    except BaseException:
        slot.release()
        raise
    if lease is None:
        slot.release()
        raise seat_full(limits.per_viewer)
    slot.elsewhere = lambda: shared.release(lease)
    return slot


@dataclass(eq=False)
class Slot:
    """One open stream's place in the counts; ``release`` gives it back (once)."""

    limits: StreamLimits
    keys: tuple[str, ...]
    released: bool = False
    elsewhere: Callable[[], None] | None = None  # gives back its place in the store's leases

    def release(self) -> None:
        if not self.released:
            self.released = True
            self.limits.give_back(self.keys)
            if self.elsewhere is not None:
                self.elsewhere()


def limits_of(app: Any) -> StreamLimits:
    """The app's counts, made with its settings the first time."""
    found: StreamLimits | None = getattr(app.state, "stream_limits", None)
    if found is None:
        settings = app.state.settings
        found = app.state.stream_limits = StreamLimits(settings.stream_max_per_address, settings.stream_max_per_viewer)
    return found


@dataclass
class StreamLimits:
    per_address: int
    per_viewer: int
    open: Counter[str] = field(default_factory=Counter)

    def take(self, address: str | None, caller: Caller) -> Slot:
        """A slot for one more stream of ``caller`` from ``address``, or TooManyStreams."""
        keys: list[str] = []
        if address and self.per_address and not caller.is_operator:
            if self.open[f"address:{address}"] >= self.per_address:
                raise TooManyStreams(f"{self.per_address} live streams are open from this address already: close "
                                     "one (or wait for one to end) before opening another")
            keys.append(f"address:{address}")
        viewer = viewer_key(caller)
        if viewer and self.per_viewer:
            if self.open[viewer] >= self.per_viewer:
                raise seat_full(self.per_viewer)
            keys.append(viewer)
        for key in keys:
            self.open[key] += 1
        return Slot(self, tuple(keys))

    def give_back(self, keys: tuple[str, ...]) -> None:
        for key in keys:
            self.open[key] -= 1
            if self.open[key] <= 0:
                del self.open[key]
