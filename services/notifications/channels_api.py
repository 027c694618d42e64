"""A seat's Web Push subscriptions and e-mail address for a game (docs/social.md, "Web Push"
and "E-mail"): set, read, remove; and the server's VAPID public key a browser subscribes with.

Like a seat's webhook, they are events of the game's webhooks stream, which only the
notification projection and the seat itself read: no other player, and no view, learns that a
seat has them, let alone where they lead.
"""
from __future__ import annotations

from fastapi import APIRouter, Query, Request, Response
from pydantic import BaseModel, Field

from shared.errors import Conflict, ErrorCode, NotFound, Unprocessable
from shared.events import to_new_event
from shared.events_social import EmailRemoved, EmailSet, PushSubscribed, PushUnsubscribed, webhooks_stream
from shared.game.guards import require_seat_in_game
from shared.http.dependencies import CurrentGame, CurrentPlayer, StoreDep, request_metadata
from shared.http.models import RequestBody
from shared.store import EventStore

from . import channels, mail, webpush
from .webhook_urls import accept_webhook_url

router = APIRouter(tags=["notifications"])
BROWSERS_PER_SEAT = 5  # a phone, a laptop, a tablet...: more is a client subscribing in a loop


class PushKeys(RequestBody):
    p256dh: str = Field(..., max_length=100, description="the browser's P-256 key, base64url (65 bytes)")
    auth: str = Field(..., max_length=32, description="the browser's 16-byte secret, base64url")


class PushSubscriptionIn(RequestBody):
    """A browser's ``PushSubscription.toJSON()``, as the page sends it."""

    endpoint: str = Field(..., min_length=8, max_length=1000, description="the push service's URL for this browser")
    keys: PushKeys
    expirationTime: int | None = Field(None, description="ignored: browsers send it, mostly null")  # noqa: N815


class PushSubscriptionsOut(BaseModel):
    endpoints: list[str] = Field(..., description="this seat's subscribed browsers, by their endpoints")


class PushKeyOut(BaseModel):
    public_key: str = Field(..., description="the server's VAPID public key: the browser's applicationServerKey")


class EmailIn(RequestBody):
    address: str = Field(..., min_length=3, max_length=254, description="where this seat's deadline reminders go")


class EmailOut(BaseModel):
    address: str | None


NO_PUSH = "this server sends no Web Push (ENTENTE_VAPID_PRIVATE_KEY is not set)"
NO_EMAIL = "this server sends no e-mail (ENTENTE_SMTP_URL is not set)"


async def _webhooks(store: EventStore, game_id: str, player_id: str) -> tuple[list[str], str | None]:
    """The seat's subscribed endpoints and e-mail address, as its webhooks stream holds them."""
    records = await store.events.read_stream(webhooks_stream(game_id))
    pushes, emails = channels.browsers_and_mail_at(records, records[-1].position if records else 0)
    return list(pushes.get(player_id, {})), emails.get(player_id)


@router.get("/push/key", response_model=PushKeyOut)
async def push_key(request: Request) -> PushKeyOut:
    """The key a browser subscribes with (``pushManager.subscribe({applicationServerKey})``)."""
    secret = request.app.state.settings.vapid_secret()
    if not secret:
        raise NotFound(NO_PUSH, code=ErrorCode.PUSH_UNAVAILABLE)
    return PushKeyOut(public_key=webpush.VapidKey(secret).public)


@router.put("/games/{game_id}/push", response_model=PushSubscriptionsOut)
async def subscribe_push(game: CurrentGame, caller: CurrentPlayer, body: PushSubscriptionIn, store: StoreDep,
                         request: Request) -> PushSubscriptionsOut:
    """Send this seat's notifications (phase resolved, deadline approaching, message received)
    to this browser too, with the page closed. The same endpoint again changes nothing."""
    assert caller.player_id is not None
    settings = request.app.state.settings
    if not settings.vapid_secret():
        raise NotFound(NO_PUSH, code=ErrorCode.PUSH_UNAVAILABLE)
    if game.status == "finished":
        raise Conflict(f"game {game.game_id} is finished", code=ErrorCode.GAME_FINISHED)
    require_seat_in_game(game, caller.player_id, "subscribe to Web Push")
    subscription = webpush.Subscription(body.endpoint, body.keys.p256dh, body.keys.auth)
    problem = subscription.problem()
    if problem:
        raise Unprocessable(problem, code=ErrorCode.INVALID_PUSH_SUBSCRIPTION, where="body.keys")
    try:
        await accept_webhook_url(body.endpoint, settings.webhook_allow_private_hosts)
    except Unprocessable as error:
        raise Unprocessable(error.message.replace("a webhook URL", "a push endpoint"),
                            code=ErrorCode.INVALID_PUSH_SUBSCRIPTION, where="body.endpoint") from error
    endpoints, _ = await _webhooks(store, game.game_id, caller.player_id)
    if body.endpoint in endpoints:
        return PushSubscriptionsOut(endpoints=endpoints)
    if len(endpoints) >= BROWSERS_PER_SEAT:
        raise Conflict(f"a seat has at most {BROWSERS_PER_SEAT} browsers subscribed: remove one first",
                       code=ErrorCode.TOO_MANY_SUBSCRIPTIONS)
    event = PushSubscribed(player_id=caller.player_id, endpoint=body.endpoint, p256dh=body.keys.p256dh,
                           auth=body.keys.auth)
    async with store.transaction() as tx:
        await tx.events.append(webhooks_stream(game.game_id),
                        [to_new_event(event, request_metadata(request, "player", caller.player_id))],
                        expected_version=None)
    return PushSubscriptionsOut(endpoints=[*endpoints, body.endpoint])


@router.get("/games/{game_id}/push", response_model=PushSubscriptionsOut)
async def get_push(game: CurrentGame, caller: CurrentPlayer, store: StoreDep) -> PushSubscriptionsOut:
    assert caller.player_id is not None
    endpoints, _ = await _webhooks(store, game.game_id, caller.player_id)
    return PushSubscriptionsOut(endpoints=endpoints)


@router.delete("/games/{game_id}/push", status_code=204, response_class=Response)
async def unsubscribe_push(game: CurrentGame, caller: CurrentPlayer, store: StoreDep, request: Request,
                           endpoint: str | None = Query(None, max_length=1000, description=(
                               "the browser to forget; without it, every browser of the seat"))) -> Response:
    """Stop pushes to one of the seat's browsers, or to all of them (those not yet sent are dropped)."""
    assert caller.player_id is not None
    endpoints, _ = await _webhooks(store, game.game_id, caller.player_id)
    gone = endpoints if endpoint is None else [e for e in endpoints if e == endpoint]
    if not gone:
        raise NotFound("this seat has no such push subscription", code=ErrorCode.PUSH_NOT_FOUND)
    metadata = request_metadata(request, "player", caller.player_id)
    async with store.transaction() as tx:
        await tx.events.append(webhooks_stream(game.game_id),
                        [to_new_event(PushUnsubscribed(player_id=caller.player_id, endpoint=e), metadata)
                         for e in gone], expected_version=None)
    return Response(status_code=204)


@router.put("/games/{game_id}/email", response_model=EmailOut)
async def set_email(game: CurrentGame, caller: CurrentPlayer, body: EmailIn, store: StoreDep,
                    request: Request) -> EmailOut:
    """Where this seat's deadline reminders go by e-mail (nothing else is mailed)."""
    assert caller.player_id is not None
    if not request.app.state.settings.smtp_secret():
        raise NotFound(NO_EMAIL, code=ErrorCode.EMAIL_UNAVAILABLE)
    if game.status == "finished":
        raise Conflict(f"game {game.game_id} is finished", code=ErrorCode.GAME_FINISHED)
    require_seat_in_game(game, caller.player_id, "set an e-mail address")
    problem = mail.address_problem(body.address)
    if problem:
        raise Unprocessable(problem, code=ErrorCode.INVALID_EMAIL, where="body.address")
    _, current = await _webhooks(store, game.game_id, caller.player_id)
    if current != body.address:
        async with store.transaction() as tx:
            await tx.events.append(webhooks_stream(game.game_id),
                            [to_new_event(EmailSet(player_id=caller.player_id, address=body.address),
                                          request_metadata(request, "player", caller.player_id))],
                            expected_version=None)
    return EmailOut(address=body.address)


@router.get("/games/{game_id}/email", response_model=EmailOut)
async def get_email(game: CurrentGame, caller: CurrentPlayer, store: StoreDep, request: Request) -> EmailOut:
    """The seat's address (404 ``email_unavailable`` on a server that sends no e-mail, so that a
    page knows not to offer it)."""
    assert caller.player_id is not None
    if not request.app.state.settings.smtp_secret():
        raise NotFound(NO_EMAIL, code=ErrorCode.EMAIL_UNAVAILABLE)
    _, address = await _webhooks(store, game.game_id, caller.player_id)
    return EmailOut(address=address)


@router.delete("/games/{game_id}/email", status_code=204, response_class=Response)
async def remove_email(game: CurrentGame, caller: CurrentPlayer, store: StoreDep, request: Request) -> Response:
    assert caller.player_id is not None
    _, address = await _webhooks(store, game.game_id, caller.player_id)
    if address is None:
        raise NotFound("this seat has no e-mail address", code=ErrorCode.EMAIL_NOT_FOUND)
    async with store.transaction() as tx:
        await tx.events.append(webhooks_stream(game.game_id),
                        [to_new_event(EmailRemoved(player_id=caller.player_id),
                                      request_metadata(request, "player", caller.player_id))],
                        expected_version=None)
    return Response(status_code=204)
