"""Delivering the outbox to webhooks, and the worker that runs the projection and delivery.

Time comes from an injectable clock (``now`` arguments, ``clock`` callables), so tests step
through retries without sleeping. A webhook answering 2xx is delivered; anything else (an error
status, a timeout, a refused connection, any exception the attempt raised) is a failed attempt,
retried with exponential backoff (at least the ``Retry-After`` a 429 asks for) until
``webhook_max_attempts``, then dead-lettered; an attempt whose outcome was never recorded (its
worker died) counts too, and the claim after the last one dead-letters the row.
Each attempt resolves the webhook's host again and connects only to an address it checked
(``addresses.py``); a host that resolves to a non-public address is a failed attempt too.

Health and stopping (docs/deploy.md): ``on_beat(ok)``, when given, is called after each attempt
recorded and each step (``ok`` false when a step failed), so that a process can report that its
loop is making progress even while slow webhooks hold a step up. Once ``stop`` is set the worker
starts no new attempt: those in flight finish and are recorded, the rows it claimed but did not
attempt are released (due again at once, their attempt uncounted) for the next worker, and it
returns.
"""
from __future__ import annotations

import asyncio
import logging
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta

import httpx

from shared import metrics
from shared.settings import Settings
from shared.store import EventStore, utc_now

from . import outbox
from .addresses import AddressRefused, Resolver, webhook_client

log = logging.getLogger("entente.notifications")
PARALLEL_DELIVERIES = 10


@dataclass
class DeliveryReport:
    delivered: int = 0
    retrying: int = 0
    dead: int = 0
    errors: list[str] = field(default_factory=list)


def lease_for(settings: Settings) -> timedelta:
    """How long a claimed row stays with its worker: the attempt's timeout and a margin."""
    return timedelta(seconds=settings.webhook_timeout_seconds * 2 + 30)


async def attempt(client: httpx.AsyncClient, claimed: outbox.Claimed,
                  timeout: float) -> tuple[str | None, float | None]:
    """One POST of the payload: (None, None) when delivered, else (why, Retry-After seconds)."""
    try:
        response = await client.post(claimed.url, json=claimed.payload, timeout=timeout)
    except httpx.HTTPError as error:
        return f"{type(error).__name__}", None
    except AddressRefused as error:
        return f"refused: {error}", None
    except Exception as error:  # whatever raised (a URL the client cannot send to, ...), a failed attempt
        log.warning("notification %s: the attempt raised %r", claimed.id, error)
        return f"{type(error).__name__}: {error}"[:200], None
    if 200 <= response.status_code < 300:
        return None, None
    retry_after = None
    if response.status_code == 429:
        try:
            retry_after = float(response.headers.get("retry-after", ""))
        except ValueError:
            retry_after = None
    return f"HTTP {response.status_code}", retry_after


async def deliver_due(store: EventStore, settings: Settings, now: datetime,
                      client: httpx.AsyncClient | None = None, limit: int = 50,
                      resolver: Resolver = socket.getaddrinfo,
                      on_beat: Callable[[bool], None] | None = None,
                      stop: asyncio.Event | None = None) -> DeliveryReport:
    """Attempt every notification due at ``now`` (up to ``limit``) and record the outcomes.
    A ``client`` passed in must come from :func:`addresses.webhook_client` (it does the
    address checks); without one, such a client is made with ``resolver``. Once ``stop`` is
    set, no new attempt starts and the rows not attempted are released."""
    report = DeliveryReport()
    unattempted: list[outbox.Claimed] = []
    claimed = await outbox.claim(store, now, lease_for(settings), limit, settings.webhook_max_attempts)
    if not claimed:
        return report
    own_client = client is None
    client = client or webhook_client(settings.webhook_allow_private_hosts, resolver)
    gate = asyncio.Semaphore(PARALLEL_DELIVERIES)

    async def one(item: outbox.Claimed) -> None:
        async with gate:
            if stop is not None and stop.is_set():
                unattempted.append(item)
                return
            error, retry_after = await attempt(client, item, settings.webhook_timeout_seconds)
        retry_at = None if error is None else outbox.next_attempt(
            item.attempts, settings.webhook_max_attempts, settings.webhook_backoff_seconds, now, retry_after)
        status = await outbox.record(store, item, now, error, retry_at)
        metrics.OUTBOX_ATTEMPTS.labels(status if status in ("delivered", "dead") else "retry").inc()
        if on_beat is not None:
            on_beat(True)
        if status == "delivered":
            report.delivered += 1
        elif status == "dead":
            report.dead += 1
            log.warning("notification %s dead-lettered after %s attempts: %s", item.id, item.attempts, error)
        else:
            report.retrying += 1
        if error:
            report.errors.append(error)

    async def in_order(items: list[outbox.Claimed]) -> None:
        for item in items:
            await one(item)

    by_url: dict[str, list[outbox.Claimed]] = {}
    for item in claimed:  # one webhook's notifications go one after another, in order
        by_url.setdefault(item.url, []).append(item)
    try:
        await asyncio.gather(*(in_order(items) for items in by_url.values()))
    finally:
        if own_client:
            await client.aclose()
        if unattempted:
            released = await outbox.release(store, unattempted, now)
            log.info("notifications released on stopping", extra={"released": released})
    return report


async def step(store: EventStore, settings: Settings, now: datetime,
               client: httpx.AsyncClient | None = None, resolver: Resolver = socket.getaddrinfo,
               on_beat: Callable[[bool], None] | None = None, stop: asyncio.Event | None = None) -> DeliveryReport:
    """Catch the projection up with the log, then deliver what is due; one log line for a
    step that did something (the idle ones at debug level)."""
    began = time.perf_counter()
    read = await outbox.project_all(store, timedelta(minutes=settings.deadline_warning_minutes))
    report = await deliver_due(store, settings, now, client, resolver=resolver, on_beat=on_beat, stop=stop)
    busy = read or report.delivered or report.retrying or report.dead
    log.log(logging.INFO if busy else logging.DEBUG, "notification step", extra={
        "events_read": read, "delivered": report.delivered, "retrying": report.retrying, "dead": report.dead,
        "duration_ms": round((time.perf_counter() - began) * 1000, 2)})
    return report


async def run_worker(store: EventStore, settings: Settings, stop: asyncio.Event,
                     clock: Callable[[], datetime] = utc_now, interval: float = 1.0,
                     resolver: Resolver = socket.getaddrinfo,
                     on_beat: Callable[[bool], None] | None = None) -> None:
    """Project and deliver until ``stop`` is set (any number of workers may run at once)."""
    async with webhook_client(settings.webhook_allow_private_hosts, resolver) as client:
        while not stop.is_set():
            try:
                await step(store, settings, clock(), client, on_beat=on_beat, stop=stop)
            except Exception:  # a broken webhook or a lost connection must not end the worker
                log.exception("notification step failed; trying again")
                if on_beat is not None:
                    on_beat(False)
            else:
                if on_beat is not None:
                    on_beat(True)
            try:
                await asyncio.wait_for(stop.wait(), interval)
            except TimeoutError:
                pass
