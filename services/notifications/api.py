"""Each player's own webhook for a game, and the host's webhook for a channel of the game
(public events only): set, read, remove.

Runs alone with ``uvicorn services.notifications.api:app``; the delivery worker runs with
``python -m services.notifications``.
"""
from __future__ import annotations

import socket
from urllib.parse import urlsplit

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, ConfigDict, Field

from shared.errors import Conflict, NotFound, Unprocessable
from shared.events import from_recorded, to_new_event
from shared.events_social import (
    ChannelWebhookRemoved,
    ChannelWebhookSet,
    WebhookRemoved,
    WebhookSet,
    webhooks_stream,
)
from shared.http.app import build_app
from shared.http.dependencies import CurrentGame, CurrentPlayer, HostOrOperator, StoreDep, request_metadata
from shared.settings import Settings

from .addresses import AddressRefused, Resolver, checked_addresses

router = APIRouter(tags=["notifications"])


def check_webhook_url(url: str, allow_private: bool) -> str:
    """The URL if it has the form of a webhook: https (or http too when ``allow_private``, for
    tests and closed networks), a host, no user or password. Where the host leads is
    :func:`accept_webhook_url`'s question."""
    parts = urlsplit(url.strip())
    problem = None
    if parts.scheme not in (("http", "https") if allow_private else ("https",)):
        problem = "a webhook URL must start with https://"
    elif not parts.hostname or parts.username or parts.password:
        problem = "a webhook URL needs a host and no user or password"
    if problem:
        raise Unprocessable(problem, code="invalid_webhook", where="body.url")
    return url.strip()


async def accept_webhook_url(url: str, allow_private: bool, resolver: Resolver = socket.getaddrinfo) -> str:
    """The URL if notifications may be sent there: of the right form, and its host resolving
    only to public addresses unless ``allow_private`` (delivery checks again at every attempt)."""
    url = check_webhook_url(url, allow_private)
    parts = urlsplit(url)
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
        await checked_addresses(parts.hostname or "", port, allow_private, resolver)
    except (AddressRefused, ValueError) as error:
        raise Unprocessable(f"a webhook URL must point to a public host: {error}",
                            code="invalid_webhook", where="body.url") from error
    return url


class WebhookIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    url: str = Field(..., min_length=8, max_length=500, description="for example a Discord webhook URL")


class WebhookOut(BaseModel):
    url: str | None


async def current_webhook(store, game_id: str, player_id: str) -> str | None:
    url = None
    for record in await store.read_stream(webhooks_stream(game_id)):
        event = from_recorded(record)
        if isinstance(event, (WebhookSet, WebhookRemoved)) and event.player_id == player_id:
            url = event.url if isinstance(event, WebhookSet) else None
    return url


@router.put("/games/{game_id}/webhook", response_model=WebhookOut)
async def set_webhook(game: CurrentGame, caller: CurrentPlayer, body: WebhookIn, store: StoreDep,
                      request: Request) -> dict:
    """Where this seat's own notifications go: phase resolved, deadline approaching, message received."""
    assert caller.player_id is not None
    if game.status == "finished":
        raise Conflict(f"game {game.game_id} is finished", code="game_finished")
    url = await accept_webhook_url(body.url, request.app.state.settings.webhook_allow_private_hosts)
    async with store.transaction() as tx:
        await tx.append(webhooks_stream(game.game_id),
                        [to_new_event(WebhookSet(player_id=caller.player_id, url=url),
                                      request_metadata(request, "player", caller.player_id))], expected_version=None)
    return {"url": url}


@router.get("/games/{game_id}/webhook", response_model=WebhookOut)
async def get_webhook(game: CurrentGame, caller: CurrentPlayer, store: StoreDep) -> dict:
    assert caller.player_id is not None
    return {"url": await current_webhook(store, game.game_id, caller.player_id)}


@router.delete("/games/{game_id}/webhook", status_code=204, response_class=Response)
async def remove_webhook(game: CurrentGame, caller: CurrentPlayer, store: StoreDep, request: Request) -> Response:
    """Stop this seat's notifications (those not yet sent are dropped)."""
    assert caller.player_id is not None
    if await current_webhook(store, game.game_id, caller.player_id) is None:
        raise NotFound("this seat has no webhook", code="webhook_not_found")
    async with store.transaction() as tx:
        await tx.append(webhooks_stream(game.game_id),
                        [to_new_event(WebhookRemoved(player_id=caller.player_id),
                                      request_metadata(request, "player", caller.player_id))], expected_version=None)
    return Response(status_code=204)


async def current_channel_webhook(store, game_id: str) -> str | None:
    url = None
    for record in await store.read_stream(webhooks_stream(game_id)):
        event = from_recorded(record)
        if isinstance(event, (ChannelWebhookSet, ChannelWebhookRemoved)):
            url = event.url if isinstance(event, ChannelWebhookSet) else None
    return url


@router.put("/games/{game_id}/channel-webhook", response_model=WebhookOut)
async def set_channel_webhook(game: CurrentGame, caller: HostOrOperator, body: WebhookIn, store: StoreDep,
                              request: Request) -> dict:
    """Where the game's public events go (a Discord channel's webhook, say): phases resolved with
    the public results, deadlines approaching, the end; the public map attached. Host or operator."""
    if game.status == "finished":
        raise Conflict(f"game {game.game_id} is finished", code="game_finished")
    url = await accept_webhook_url(body.url, request.app.state.settings.webhook_allow_private_hosts)
    async with store.transaction() as tx:
        await tx.append(webhooks_stream(game.game_id),
                        [to_new_event(ChannelWebhookSet(url=url), request_metadata(request, caller.role))],
                        expected_version=None)
    return {"url": url}


@router.get("/games/{game_id}/channel-webhook", response_model=WebhookOut)
async def get_channel_webhook(game: CurrentGame, caller: HostOrOperator, store: StoreDep) -> dict:
    return {"url": await current_channel_webhook(store, game.game_id)}


@router.delete("/games/{game_id}/channel-webhook", status_code=204, response_class=Response)
async def remove_channel_webhook(game: CurrentGame, caller: HostOrOperator, store: StoreDep,
                                 request: Request) -> Response:
    """Stop the channel's notifications (those not yet sent are dropped)."""
    if await current_channel_webhook(store, game.game_id) is None:
        raise NotFound("this game has no channel webhook", code="webhook_not_found")
    async with store.transaction() as tx:
        await tx.append(webhooks_stream(game.game_id),
                        [to_new_event(ChannelWebhookRemoved(), request_metadata(request, caller.role))],
                        expected_version=None)
    return Response(status_code=204)


def create_app(settings: Settings | None = None):
    return build_app("Entente notifications", [router], settings)


app = create_app()
