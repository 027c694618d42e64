"""Delivering the outbox to webhooks, and the worker that runs the projection and delivery.

Time comes from an injectable clock (``now`` arguments, ``clock`` callables), so tests step
through retries without sleeping. A webhook answering 2xx is delivered; anything else (an error
status, a timeout, a refused connection, any exception the attempt raised) is a failed attempt,
retried with exponential backoff (at least the ``Retry-After`` a 429 asks for) until
``webhook_max_attempts``, then dead-lettered; an attempt whose outcome was never recorded (its
worker died) counts too, and the claim after the last one dead-letters the row.
Each attempt resolves the webhook's host again and connects only to an address it checked
(``addresses.py``); a host that resolves to a non-public address is a failed attempt too.

Discord (docs/social.md, "Discord"): rows addressed ``discord-dm:{user id}`` are sent as direct
messages by the server's bot (discord.py), the others posted to their webhook; a payload's
``_map`` is drawn by the ``render`` function the composition root passes in (the recipient's
own view of the game; services never import one another) and attached to direct messages and
to Discord webhooks (multipart) when it fits Discord's upload limit; any other webhook gets the
JSON payload alone, as before. Without ``render`` no picture is attached.

Every webhook delivery carries its delivery id (the same at every attempt, an HMAC keyed by the
operator secret) and, when the webhook has a secret, its signature, as Standard Webhooks says
(``signing.py``; docs/social.md, "Signed deliveries").

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
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

import httpx

from shared import metrics
from shared.settings import Settings
from shared.store import EventStore, utc_now

from . import channels as other_channels
from . import discord, outbox, signing
from .addresses import AddressRefused, Resolver
from .pinned import webhook_client

log = logging.getLogger("entente.notifications")
PARALLEL_DELIVERIES = 10
# draws the picture of a notification: (game_id, power or None for the public, phase or None: now)
MapRenderer = Callable[[str, str | None, str | None], Awaitable[bytes | None]]


@dataclass
class DeliveryReport:
    delivered: int = 0
    retrying: int = 0
    dead: int = 0
    errors: list[str] = field(default_factory=list)


def lease_for(settings: Settings) -> timedelta:
    """How long a claimed row stays with its worker: the attempt's timeout and a margin."""
    return timedelta(seconds=settings.webhook_timeout_seconds * 2 + 30)


async def _picture(payload: dict[str, Any], render: MapRenderer | None) -> bytes | None:
    """The map a payload asks for, when it can be drawn and fits a Discord message."""
    wanted = payload.get("_map")
    if render is None or not isinstance(wanted, dict):
        return None
    try:
        png = await render(str(wanted.get("game_id")), wanted.get("power"), wanted.get("phase"))
    except Exception:  # a picture that cannot be drawn must not stop the notification
        log.exception("no map for the notification of %s", wanted.get("game_id"))
        return None
    return png if png is not None and len(png) <= discord.ATTACHMENT_BYTES else None


def signed_request(client: httpx.AsyncClient, claimed: outbox.Claimed, timeout: float, payload: dict[str, Any],
                   png: bytes | None, *, id_key: bytes, discord_agent: str | None = None) -> httpx.Request:
    """The POST of one attempt, with its delivery id (an HMAC keyed by ``id_key``) and
    timestamp and, when the webhook has a secret, the signature of its body exactly as it will
    be sent (``signing.py``); to a Discord webhook, with ``discord_agent`` as its User-Agent
    (Discord's API asks every caller for one)."""
    request = client.build_request("POST", claimed.url, timeout=timeout, **discord.message_body(payload, png))
    if discord_agent and discord.is_discord_webhook(claimed.url):
        request.headers["User-Agent"] = discord_agent
    body = request.read()
    request.headers.update(signing.signed_headers(id_key, claimed.dedupe_key or f"row:{claimed.id}", claimed.secret,
                                                  int(time.time()), body))
    return request


async def attempt(client: httpx.AsyncClient, claimed: outbox.Claimed, timeout: float, *, id_key: bytes,
                  bot: discord.DiscordBot | None = None,
                  render: MapRenderer | None = None,
                  discord_agent: str | None = None,
                  channels: other_channels.Channels | None = None) -> tuple[str | None, float | None]:
    """One delivery of the payload: (None, None) when delivered, else (why, seconds to wait).
    Whatever raises on the way (a URL nothing can send to, ...) is a failed attempt too."""
    try:
        if other_channels.handles(claimed.url):
            payload = {k: v for k, v in claimed.payload.items() if k != "_map"}
            return await other_channels.deliver(client, channels or other_channels.Channels(), claimed.url,
                                                payload, timeout), None
        direct = claimed.url.startswith(discord.DM_PREFIX)
        wants_picture = direct or discord.is_discord_webhook(claimed.url)
        png = await _picture(claimed.payload, render) if wants_picture else None
        payload = {k: v for k, v in claimed.payload.items() if k != "_map"}
        if direct:
            if bot is None:
                return "no Discord bot configured (ENTENTE_DISCORD_BOT_TOKEN)", None
            return await bot.send_dm(claimed.url.removeprefix(discord.DM_PREFIX), payload, png)
        request = signed_request(client, claimed, timeout, payload, png, id_key=id_key, discord_agent=discord_agent)
        response = await client.send(request)
    except httpx.HTTPError as error:
        return f"{type(error).__name__}", None
    except AddressRefused as error:
        return f"refused: {error}", None
    except Exception as error:  # whatever raised (a URL the client cannot send to, ...), a failed attempt
        log.warning("notification %s: the attempt raised %r", claimed.id, error)
        return f"{type(error).__name__}: {error}"[:200], None
    if 200 <= response.status_code < 300:
        return None, None
    return f"HTTP {response.status_code}", discord.retry_after(response) if response.status_code == 429 else None


async def deliver_due(store: EventStore, settings: Settings, now: datetime,
                      client: httpx.AsyncClient | None = None, limit: int = 50,
                      resolver: Resolver = socket.getaddrinfo,
                      on_beat: Callable[[bool], None] | None = None,
                      stop: asyncio.Event | None = None, *,
                      bot: discord.DiscordBot | None = None, render: MapRenderer | None = None) -> DeliveryReport:
    """Attempt every notification due at ``now`` (up to ``limit``) and record the outcomes.
    A ``client`` passed in must come from :func:`pinned.webhook_client` (it does the
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
    agent = discord.user_agent(settings.discord_bot_url)
    id_key = signing.delivery_key(settings.operator_secret())
    channels = other_channels.Channels.of(settings)

    async def one(item: outbox.Claimed) -> None:
        async with gate:
            if stop is not None and stop.is_set():
                unattempted.append(item)
                return
            error, retry_after = await attempt(client, item, settings.webhook_timeout_seconds, id_key=id_key, bot=bot,
                                               render=render, discord_agent=agent, channels=channels)
        hopeless = error is not None and error.startswith(other_channels.GONE)
        retry_at = None if error is None or hopeless else outbox.next_attempt(
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


def discord_bot(settings: Settings) -> discord.DiscordBot | None:
    """The server's Discord bot, when it has a token (ENTENTE_DISCORD_BOT_TOKEN)."""
    token = settings.discord_bot_secret()
    return discord.DiscordBot(settings.discord_api_url, token, timeout=settings.webhook_timeout_seconds,
                              bot_url=settings.discord_bot_url) if token else None


async def step(store: EventStore, settings: Settings, now: datetime,
               client: httpx.AsyncClient | None = None, resolver: Resolver = socket.getaddrinfo,
               on_beat: Callable[[bool], None] | None = None, stop: asyncio.Event | None = None, *,
               bot: discord.DiscordBot | None = None, render: MapRenderer | None = None) -> DeliveryReport:
    """Catch the projection up with the log, then deliver what is due; one log line for a
    step that did something (the idle ones at debug level). A ``bot`` made here (from the
    settings) is closed again; a worker passes its own."""
    began = time.perf_counter()
    read = await outbox.project_all(store, timedelta(minutes=settings.deadline_warning_minutes),
                                    direct=bool(settings.discord_bot_secret()), stop=stop)
    own_bot = bot is None
    bot = bot or discord_bot(settings)
    try:
        report = await deliver_due(store, settings, now, client, resolver=resolver, on_beat=on_beat, stop=stop,
                                   bot=bot, render=render)
    finally:
        if own_bot and bot is not None:
            await bot.aclose()
    busy = read or report.delivered or report.retrying or report.dead
    log.log(logging.INFO if busy else logging.DEBUG, "notification step", extra={
        "events_read": read, "delivered": report.delivered, "retrying": report.retrying, "dead": report.dead,
        "duration_ms": round((time.perf_counter() - began) * 1000, 2)})
    return report


async def run_worker(store: EventStore, settings: Settings, stop: asyncio.Event, *,
                     clock: Callable[[], datetime] = utc_now, interval: float = 1.0,
                     resolver: Resolver = socket.getaddrinfo,
                     on_beat: Callable[[bool], None] | None = None,
                     render: MapRenderer | None = None) -> None:
    """Project and deliver until ``stop`` is set (any number of workers may run at once)."""
    bot = discord_bot(settings)
    async with webhook_client(settings.webhook_allow_private_hosts, resolver) as client:
        while not stop.is_set():
            try:
                await step(store, settings, clock(), client, on_beat=on_beat, stop=stop, bot=bot, render=render)
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
    if bot is not None:
        await bot.aclose()
