"""Each player's own webhook for a game, and the host's webhook for a channel of the game
(public events only): set, read, remove.

Runs alone with ``entente serve --service notifications`` (``services.cli.serve``
builds the app: ``create_app`` is its factory); the delivery worker runs with
``python -m services.notifications``.
"""
from __future__ import annotations

import ipaddress
import re
import socket
import string
from urllib.parse import urlsplit

import idna
from fastapi import APIRouter, FastAPI, Request, Response
from pydantic import BaseModel, Field

from shared.errors import Conflict, ErrorCode, NotFound, Unprocessable
from shared.events import from_recorded, to_new_event
from shared.events_social import (
    ChannelWebhookRemoved,
    ChannelWebhookSet,
    WebhookRemoved,
    WebhookSet,
    webhooks_stream,
)
from shared.game.guards import require_seat_in_game
from shared.http.app import build_app
from shared.http.dependencies import CurrentGame, CurrentPlayer, HostOrOperator, StoreDep, request_metadata
from shared.http.models import RequestBody
from shared.settings import Settings
from shared.store import EventStore, utc_now
from shared.text import is_ascii_number

from . import signing
from .addresses import AddressRefused, Resolver, checked_addresses
from .discord import is_discord_webhook
from .payloads_doc import add_webhooks  # noqa: F401  (the webhooks in the OpenAPI document)
from .planning import CHANNEL

router = APIRouter(tags=["notifications"])


def check_webhook_url(url: str, allow_private: bool) -> str:
    """The URL if it has the form of a webhook (docs/social.md, "Notifications"): https (or
    http too when ``allow_private``, for tests and closed networks), RFC 3986's characters only
    (an IDN host in its ``xn--`` form, the rest percent-encoded), no space or control
    character, a well-formed host (an IP literal or letters, digits and hyphens in labels of up
    to 63) and port, no user or password, no fragment. Nothing is trimmed or mended: what is
    stored is what the client sent. Where the host leads is :func:`accept_webhook_url`'s question."""
    problem = url_problem(url, ("http", "https") if allow_private else ("https",))
    if problem:
        raise Unprocessable(problem, code=ErrorCode.INVALID_WEBHOOK, where="body.url")
    return url


_URL_CHARACTERS = frozenset(string.ascii_letters + string.digits + "-._~:/?#[]@!$&'()*+,;=%")
_PERCENT = re.compile(r"%(?![0-9A-Fa-f]{2})")
_LABEL = re.compile(r"^(?!-)[A-Za-z0-9-]{1,63}(?<!-)$")


def url_problem(url: str, schemes: tuple[str, ...]) -> str | None:
    """Why ``url`` is not a webhook URL of one of ``schemes``, or None."""
    spaces = [c for c in url if c in " \t\n\r\x0b\x0c"]
    if spaces:
        return "a webhook URL holds no spaces (nothing is trimmed: send it without them)"
    odd = next((c for c in url if c not in _URL_CHARACTERS), None)
    if odd is not None:
        return (f"the character U+{ord(odd):04X} is not allowed in a URL (RFC 3986): write an international "
                "host in its xn-- form and percent-encode the rest")
    if _PERCENT.search(url):
        return "a percent sign in a URL starts a percent-encoding of two hex digits"
    try:
        parts = urlsplit(url)
    except ValueError as error:
        return f"a webhook URL needs a well-formed host ({error})"
    if parts.scheme.lower() not in schemes:
        return "a webhook URL must start with https://"
    if "#" in url:
        return "a webhook URL has no fragment (#...): it would never be sent"
    if "@" in parts.netloc:
        return "a webhook URL has no user or password"
    return _authority_problem(parts.netloc)


def _authority_problem(netloc: str) -> str | None:
    """The host and port of a URL's authority, checked as they are written."""
    if netloc.startswith("["):
        literal, closed, rest = netloc[1:].partition("]")
        host_problem = _ipv6_literal_problem(literal) if closed else "an IPv6 host is written [address]"
        port_text = rest[1:] if rest.startswith(":") else None
        if host_problem is None and rest and port_text is None:
            host_problem = f"a webhook URL needs a well-formed host, not {netloc!r}"
    else:
        host, colon, port_text_or_empty = netloc.rpartition(":") if ":" in netloc else (netloc, "", "")
        port_text = port_text_or_empty if colon else None
        host_problem = _name_problem(host)
    if host_problem is not None:
        return host_problem
    if port_text is not None and not (is_ascii_number(port_text) and len(port_text) <= 5
                                      and 1 <= int(port_text) <= 65535):
        return f"a webhook URL's port is a number from 1 to 65535, not {port_text!r}"
    return None


def _ipv6_literal_problem(literal: str) -> str | None:
    try:
        if "%" in literal:  # Python takes a zone ("fe80::1%eth0"); a webhook names no interface
            raise ValueError(literal)
        ipaddress.IPv6Address(literal)
    except ValueError:
        return f"a webhook URL needs a well-formed host: [{literal}] is no IPv6 address (zones are not allowed)"
    return None


def _name_problem(host: str) -> str | None:
    """A DNS name (or a numeric IPv4 form, judged by what it resolves to) as URLs write it."""
    name = host[:-1] if host.endswith(".") else host
    labels = name.split(".")
    if not name or len(name) > 253 or not all(_LABEL.match(label) for label in labels):
        return (f"a webhook URL needs a well-formed host: {host!r} is not a name of dot-separated labels "
                "of 1 to 63 letters, digits and inner hyphens")
    for label in labels:
        if label.lower().startswith("xn--"):
            try:
                idna.decode(label)
            except idna.IDNAError:
                return f"a webhook URL needs a well-formed host: {label!r} is no international label"
    return None


async def accept_webhook_url(url: str, allow_private: bool, resolver: Resolver = socket.getaddrinfo) -> str:
    """The URL if notifications may be sent there: of the right form, and its host resolving
    only to public addresses unless ``allow_private`` (delivery checks again at every attempt)."""
    url = check_webhook_url(url, allow_private)
    parts = urlsplit(url)
    try:
        port = parts.port or (443 if parts.scheme.lower() == "https" else 80)
        await checked_addresses(parts.hostname or "", port, allow_private, resolver)
    except (AddressRefused, ValueError) as error:
        raise Unprocessable(f"a webhook URL must point to a public host: {error}",
                            code=ErrorCode.INVALID_WEBHOOK, where="body.url") from error
    return url


class WebhookIn(RequestBody):
    url: str = Field(..., min_length=8, max_length=500, description="for example a Discord webhook URL")


class WebhookOut(BaseModel):
    url: str | None


SNOWFLAKE = r"^[0-9]{17,20}$"


class ChannelWebhookIn(WebhookIn):
    thread_id: str | None = Field(None, pattern=SNOWFLAKE, description=(
        "a thread of the webhook's Discord channel (or a post of its forum channel) for the game's messages: "
        "Discord's id of it, as its client copies it"))


class ChannelWebhookOut(WebhookOut):
    thread_id: str | None = None


class WebhookSetOut(BaseModel):
    url: str
    secret: str = Field(..., description="the secret deliveries to this webhook are signed with, as Standard "
                                         "Webhooks says (whsec_ and base64; the webhook-id, webhook-timestamp and "
                                         "webhook-signature headers, docs/social.md): shown this once only")


async def current_webhook(store: EventStore, game_id: str, player_id: str) -> str | None:
    url = None
    for record in await store.events.read_stream(webhooks_stream(game_id)):
        event = from_recorded(record)
        if isinstance(event, (WebhookSet, WebhookRemoved)) and event.player_id == player_id:
            url = event.url if isinstance(event, WebhookSet) else None
    return url


@router.put("/games/{game_id}/webhook", response_model=WebhookSetOut)
async def set_webhook(game: CurrentGame, caller: CurrentPlayer, body: WebhookIn, store: StoreDep,
                      request: Request) -> WebhookSetOut:
    """Where this seat's own notifications go: phase resolved, deadline approaching, message
    received. The answer holds the new signing secret of its deliveries, shown this once."""
    assert caller.player_id is not None
    if game.status == "finished":
        raise Conflict(f"game {game.game_id} is finished", code=ErrorCode.GAME_FINISHED)
    require_seat_in_game(game, caller.player_id, "set a webhook")
    url = await accept_webhook_url(body.url, request.app.state.settings.webhook_allow_private_hosts)
    secret = signing.new_secret()
    async with store.transaction() as tx:
        await tx.events.append(webhooks_stream(game.game_id),
                               [to_new_event(WebhookSet(player_id=caller.player_id, url=url),
                                      request_metadata(request, "player", caller.player_id))], expected_version=None)
        await tx.outbox.set_webhook_secret(game.game_id, caller.player_id, secret, utc_now())
    return WebhookSetOut(url=url, secret=secret)


@router.get("/games/{game_id}/webhook", response_model=WebhookOut)
async def get_webhook(game: CurrentGame, caller: CurrentPlayer, store: StoreDep) -> WebhookOut:
    assert caller.player_id is not None
    return WebhookOut(url=await current_webhook(store, game.game_id, caller.player_id))


@router.delete("/games/{game_id}/webhook", status_code=204, response_class=Response)
async def remove_webhook(game: CurrentGame, caller: CurrentPlayer, store: StoreDep, request: Request) -> Response:
    """Stop this seat's notifications (those not yet sent are dropped)."""
    assert caller.player_id is not None
    if await current_webhook(store, game.game_id, caller.player_id) is None:
        raise NotFound("this seat has no webhook", code=ErrorCode.WEBHOOK_NOT_FOUND)
    async with store.transaction() as tx:
        await tx.events.append(webhooks_stream(game.game_id),
                               [to_new_event(WebhookRemoved(player_id=caller.player_id),
                                      request_metadata(request, "player", caller.player_id))], expected_version=None)
        await tx.outbox.set_webhook_secret(game.game_id, caller.player_id, None, utc_now())
    return Response(status_code=204)


async def current_channel_webhook(store: EventStore, game_id: str) -> ChannelWebhookSet | None:
    found = None
    for record in await store.events.read_stream(webhooks_stream(game_id)):
        event = from_recorded(record)
        if isinstance(event, (ChannelWebhookSet, ChannelWebhookRemoved)):
            found = event if isinstance(event, ChannelWebhookSet) else None
    return found


@router.put("/games/{game_id}/channel-webhook", response_model=WebhookSetOut)
async def set_channel_webhook(game: CurrentGame, caller: HostOrOperator, body: ChannelWebhookIn, store: StoreDep,
                              request: Request) -> WebhookSetOut:
    """Where the game's public events go (a Discord channel's webhook, say): phases resolved with
    the public results, deadlines approaching, the end; the public map attached. Host or operator.
    With ``thread_id`` (a Discord webhook only) the messages go to that thread of its channel.
    The answer holds the new signing secret of its deliveries, shown this once."""
    if game.status == "finished":
        raise Conflict(f"game {game.game_id} is finished", code=ErrorCode.GAME_FINISHED)
    url = await accept_webhook_url(body.url, request.app.state.settings.webhook_allow_private_hosts)
    if body.thread_id is not None and (not is_discord_webhook(url) or urlsplit(url).query):
        raise Unprocessable("a thread_id goes with a Discord webhook URL (…/api/webhooks/ID/TOKEN) that has no "
                            "query of its own", code=ErrorCode.INVALID_WEBHOOK, where="body.thread_id")
    secret = signing.new_secret()
    async with store.transaction() as tx:
        await tx.events.append(webhooks_stream(game.game_id),
                               [to_new_event(ChannelWebhookSet(url=url, thread_id=body.thread_id),
                                      request_metadata(request, caller.role))], expected_version=None)
        await tx.outbox.set_webhook_secret(game.game_id, CHANNEL, secret, utc_now())
    return WebhookSetOut(url=url, secret=secret)


@router.get("/games/{game_id}/channel-webhook", response_model=ChannelWebhookOut)
async def get_channel_webhook(game: CurrentGame, caller: HostOrOperator, store: StoreDep) -> ChannelWebhookOut:
    found = await current_channel_webhook(store, game.game_id)
    return ChannelWebhookOut(url=found.url if found else None, thread_id=found.thread_id if found else None)


@router.delete("/games/{game_id}/channel-webhook", status_code=204, response_class=Response)
async def remove_channel_webhook(game: CurrentGame, caller: HostOrOperator, store: StoreDep,
                                 request: Request) -> Response:
    """Stop the channel's notifications (those not yet sent are dropped)."""
    if await current_channel_webhook(store, game.game_id) is None:
        raise NotFound("this game has no channel webhook", code=ErrorCode.WEBHOOK_NOT_FOUND)
    async with store.transaction() as tx:
        await tx.events.append(webhooks_stream(game.game_id),
                               [to_new_event(ChannelWebhookRemoved(), request_metadata(request, caller.role))],
                               expected_version=None)
        await tx.outbox.set_webhook_secret(game.game_id, CHANNEL, None, utc_now())
    return Response(status_code=204)


def create_app(settings: Settings | None = None) -> FastAPI:
    return build_app("Entente notifications", [router], settings)
