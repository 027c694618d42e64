"""Events of the social side: accounts, sessions and seats, bot tokens, press, webhooks.

None of them lives in a game's own stream (``game-{id}``), so none contends with the game's
version: accounts in ``account-{account_id}`` (and the seats they took in
``members-{game_id}``), bot tokens in ``bots-{game_id}``, messages in ``press-{game_id}`` (how
far each seat read them in ``reads-{game_id}``), webhooks (each seat's and the host's channel
webhook) in ``webhooks-{game_id}``. Tokens appear only as sha256 hashes.
"""
from __future__ import annotations

from datetime import datetime
from typing import Literal

from shared.events import Event, register_event


def account_stream(account_id: str) -> str:
    return f"account-{account_id}"


def members_stream(game_id: str) -> str:
    """The seats of a game that accounts took (SeatLinked), for revealing identities at the end."""
    return f"members-{game_id}"


def bots_stream(game_id: str) -> str:
    return f"bots-{game_id}"


def press_stream(game_id: str) -> str:
    return f"press-{game_id}"


def webhooks_stream(game_id: str) -> str:
    return f"webhooks-{game_id}"


def reads_stream(game_id: str) -> str:
    """Where each seat marks how far it read each of its conversations (ConversationRead):
    read by nobody but the seat itself, and by no projection, stream or notification."""
    return f"reads-{game_id}"


@register_event
class AccountCreated(Event):
    """The first sign-in of a provider's user; ``account_id`` is derived from the provider's id."""

    type: Literal["AccountCreated"] = "AccountCreated"
    account_id: str
    provider: str
    provider_user_id: str
    name: str


@register_event
class SessionOpened(Event):
    """A sign-in: a session token (its hash) that acts for the account; ``name`` as the provider
    gives it now."""

    type: Literal["SessionOpened"] = "SessionOpened"
    token_hash: str
    name: str


@register_event
class SessionClosed(Event):
    type: Literal["SessionClosed"] = "SessionClosed"
    token_hash: str


@register_event
class SeatLinked(Event):
    """The account took a seat: its session tokens act as that seat's player in that game.
    Written to the account's stream and to the game's ``members-{game_id}`` stream."""

    type: Literal["SeatLinked"] = "SeatLinked"
    game_id: str
    player_id: str
    account_id: str


@register_event
class ApiKeyIssued(Event):
    """An account's API key (its hash): a bot's identity across every game of the account,
    until revoked; written to the account's stream (docs/social.md, "API keys")."""

    type: Literal["ApiKeyIssued"] = "ApiKeyIssued"
    key_id: str
    token_hash: str
    label: str = ""


@register_event
class ApiKeyRevoked(Event):
    type: Literal["ApiKeyRevoked"] = "ApiKeyRevoked"
    key_id: str


@register_event
class BotTokenIssued(Event):
    type: Literal["BotTokenIssued"] = "BotTokenIssued"
    token_id: str
    player_id: str
    token_hash: str
    label: str = ""


@register_event
class BotTokenRevoked(Event):
    type: Literal["BotTokenRevoked"] = "BotTokenRevoked"
    token_id: str


@register_event
class MessageSent(Event):
    """A press message, signed by power and codename; ``recipients`` None: public (everyone)."""

    type: Literal["MessageSent"] = "MessageSent"
    message_id: str
    phase: str
    sender: str
    codename: str
    recipients: list[str] | None
    text: str
    # the app's clock when it was sent (docs/social.md); None in messages stored before it was
    # kept, which read their time of recording instead
    sent_at: datetime | None = None


@register_event
class ConversationRead(Event):
    """A seat read one of its conversations up to ``message_id`` (docs/social.md,
    "Conversations"); ``conversation`` is the conversation's id as that seat names it."""

    type: Literal["ConversationRead"] = "ConversationRead"
    player_id: str
    conversation: str
    message_id: str


@register_event
class WebhookSet(Event):
    type: Literal["WebhookSet"] = "WebhookSet"
    player_id: str
    url: str


@register_event
class WebhookRemoved(Event):
    type: Literal["WebhookRemoved"] = "WebhookRemoved"
    player_id: str


@register_event
class PushSubscribed(Event):
    """A browser's Web Push subscription for a seat's notifications (docs/social.md, "Web
    Push"): the push service's endpoint and the browser's keys (RFC 8291), as the browser's
    ``PushSubscription.toJSON()`` gives them. A seat may have one per device."""

    type: Literal["PushSubscribed"] = "PushSubscribed"
    player_id: str
    endpoint: str
    p256dh: str
    auth: str


@register_event
class PushUnsubscribed(Event):
    """A seat's subscription withdrawn (one event for each of its endpoints)."""

    type: Literal["PushUnsubscribed"] = "PushUnsubscribed"
    player_id: str
    endpoint: str


@register_event
class EmailSet(Event):
    """Where a seat's deadline reminders go by e-mail (docs/social.md, "E-mail"), once the code
    mailed there comes back (``EmailConfirmed``). ``code`` is that code: kept in the webhooks
    stream, which only the notification projection and the seat's own requests read; an
    address set before codes existed has none, and is confirmed by setting it again."""

    type: Literal["EmailSet"] = "EmailSet"
    player_id: str
    address: str
    code: str = ""


@register_event
class EmailConfirmed(Event):
    """The code mailed to the seat's address came back: its reminders go there from now on."""

    type: Literal["EmailConfirmed"] = "EmailConfirmed"
    player_id: str
    address: str


@register_event
class EmailRemoved(Event):
    type: Literal["EmailRemoved"] = "EmailRemoved"
    player_id: str


@register_event
class ChannelWebhookSet(Event):
    """The host's webhook for a channel of the game (Discord's, say): public events only."""

    type: Literal["ChannelWebhookSet"] = "ChannelWebhookSet"
    url: str
    thread_id: str | None = None  # a thread of the webhook's Discord channel the messages go to


@register_event
class ChannelWebhookRemoved(Event):
    type: Literal["ChannelWebhookRemoved"] = "ChannelWebhookRemoved"
