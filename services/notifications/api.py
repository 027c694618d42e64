"""Each player's own webhook for a game, and the host's webhook for a channel of the game
(public events only): set, read, remove.

Runs alone with ``entente serve --service notifications`` (``services.cli.serve``
builds the app: ``create_app`` is its factory); the delivery worker runs with
``python -m services.notifications``.
"""
from __future__ import annotations

from urllib.parse import urlsplit

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

from . import signing
from .channels_api import router as channels_router
from .discord import is_discord_webhook
from .payloads_doc import add_webhooks  # noqa: F401  (the webhooks in the OpenAPI document)
from .planning import CHANNEL
from .webhook_urls import accept_webhook_url

router = APIRouter(tags=["notifications"])


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
    return build_app("Entente notifications", [router, channels_router], settings)
