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
from shared.events_social import (
    EmailConfirmed,
    EmailRemoved,
    EmailSet,
    PushSubscribed,
    PushUnsubscribed,
    webhooks_stream,
)
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
    confirmed: bool = Field(..., description=(
        "whether the code mailed to the address came back (POST …/email/confirm): reminders go only to a "
        "confirmed one"))


class EmailCodeIn(RequestBody):
    code: str = Field(..., min_length=1, max_length=40, description="the code of the confirmation mail")


NO_PUSH = "this server sends no Web Push (ENTENTE_VAPID_PRIVATE_KEY is not set)"
NO_EMAIL = "this server sends no e-mail (ENTENTE_SMTP_URL is not set)"


async def _webhooks(store: EventStore, game_id: str, player_id: str) -> tuple[list[str], channels.Mailbox | None]:
    """The seat's subscribed endpoints and e-mail address, as its webhooks stream holds them."""
    records = await store.events.read_stream(webhooks_stream(game_id))
    pushes, mailboxes = channels.browsers_and_mailboxes_at(records, records[-1].position if records else 0)
    return list(pushes.get(player_id, {})), mailboxes.get(player_id)


def _email_out(box: channels.Mailbox | None) -> EmailOut:
    return EmailOut(address=box.address if box else None, confirmed=bool(box and box.confirmed))


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
    """Where this seat's deadline reminders go by e-mail (nothing else is mailed), once confirmed:
    the address gets a mail with a code and a link first. The same address again, not yet
    confirmed, mails a new code (the old one no longer works); confirmed, it changes nothing."""
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
    if current is not None and current.address == body.address and current.confirmed:
        return _email_out(current)
    event = EmailSet(player_id=caller.player_id, address=body.address, code=mail.new_code())
    async with store.transaction() as tx:
        await tx.events.append(webhooks_stream(game.game_id),
                        [to_new_event(event, request_metadata(request, "player", caller.player_id))],
                        expected_version=None)
    return EmailOut(address=body.address, confirmed=False)


@router.post("/games/{game_id}/email/confirm", response_model=EmailOut)
async def confirm_email(game: CurrentGame, caller: CurrentPlayer, body: EmailCodeIn, store: StoreDep,
                        request: Request) -> EmailOut:
    """The code of the confirmation mail, as the mail's link or the player gives it: from then on
    the seat's deadline reminders go to that address. Again once confirmed: the same answer."""
    assert caller.player_id is not None
    if not request.app.state.settings.smtp_secret():
        raise NotFound(NO_EMAIL, code=ErrorCode.EMAIL_UNAVAILABLE)
    _, current = await _webhooks(store, game.game_id, caller.player_id)
    if current is None:
        raise NotFound("this seat has no e-mail address", code=ErrorCode.EMAIL_NOT_FOUND)
    if not mail.same_code(body.code, current.code):
        raise Unprocessable("not the code of the last confirmation mail sent to this seat's address: set the "
                            "address again for a new one", code=ErrorCode.WRONG_EMAIL_CODE, where="body.code")
    if not current.confirmed:
        async with store.transaction() as tx:
            await tx.events.append(webhooks_stream(game.game_id),
                            [to_new_event(EmailConfirmed(player_id=caller.player_id, address=current.address),
                                          request_metadata(request, "player", caller.player_id))],
                            expected_version=None)
    return EmailOut(address=current.address, confirmed=True)


@router.get("/games/{game_id}/email", response_model=EmailOut)
async def get_email(game: CurrentGame, caller: CurrentPlayer, store: StoreDep, request: Request) -> EmailOut:
    """The seat's address and whether it is confirmed (404 ``email_unavailable`` on a server
    that sends no e-mail, so that a page knows not to offer it)."""
    assert caller.player_id is not None
    if not request.app.state.settings.smtp_secret():
        raise NotFound(NO_EMAIL, code=ErrorCode.EMAIL_UNAVAILABLE)
    _, current = await _webhooks(store, game.game_id, caller.player_id)
    return _email_out(current)


@router.delete("/games/{game_id}/email", status_code=204, response_class=Response)
async def remove_email(game: CurrentGame, caller: CurrentPlayer, store: StoreDep, request: Request) -> Response:
    assert caller.player_id is not None
    _, current = await _webhooks(store, game.game_id, caller.player_id)
    if current is None:
        raise NotFound("this seat has no e-mail address", code=ErrorCode.EMAIL_NOT_FOUND)
    async with store.transaction() as tx:
        await tx.events.append(webhooks_stream(game.game_id),
                        [to_new_event(EmailRemoved(player_id=caller.player_id),
                                      request_metadata(request, "player", caller.player_id))],
                        expected_version=None)
    return Response(status_code=204)
