"""The channels beside webhooks and Discord: Web Push to a seat's browsers, e-mail for its
deadline reminders (docs/social.md, "Web Push" and "E-mail"). ``Channels`` holds what the
server's settings give them; ``deliver`` sends one outbox row whose address is ``webpush:…``
or ``mailto:…`` and says how it went, as a webhook attempt does."""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from shared.events import from_recorded
from shared.events_social import EmailConfirmed, EmailRemoved, EmailSet, PushSubscribed, PushUnsubscribed
from shared.settings import Settings
from shared.store import RecordedEvent

from . import mail, webpush

if TYPE_CHECKING:  # loaded by a delivery, not by a server's start (docs/testing.md, "A server's start")
    import httpx

GONE = "the push subscription is gone"  # a dead letter at once: retrying cannot help


@dataclass(frozen=True, slots=True)
class Channels:
    vapid: webpush.VapidKey | None = None
    subject: str = "mailto:operator@localhost"
    smtp: mail.SmtpServer | None = None
    sender: str = "entente@localhost"
    site: str = ""

    @classmethod
    def of(cls, settings: Settings) -> Channels:
        key, smtp = settings.vapid_secret(), settings.smtp_secret()
        return cls(webpush.VapidKey(key) if key else None, settings.vapid_subject,
                   mail.SmtpServer.parse(smtp) if smtp else None, settings.mail_from, settings.public_url)


@dataclass(frozen=True, slots=True)
class Mailbox:
    """A seat's e-mail address, the code mailed to confirm it, and whether it came back."""

    address: str
    code: str
    confirmed: bool = False


def browsers_and_mailboxes_at(records: list[RecordedEvent],
                              position: int) -> tuple[dict[str, dict[str, str]], dict[str, Mailbox]]:
    """The seats' Web Push subscriptions (player_id -> endpoint -> outbox address) and e-mail
    addresses, confirmed or not (player_id -> Mailbox), as the webhooks stream had set them at
    ``position``."""
    pushes: dict[str, dict[str, str]] = {}
    mailboxes: dict[str, Mailbox] = {}
    for record in records:
        if record.position > position:
            break
        event = from_recorded(record)
        if isinstance(event, PushSubscribed):
            subscription = webpush.Subscription(event.endpoint, event.p256dh, event.auth)
            pushes.setdefault(event.player_id, {})[event.endpoint] = subscription.address()
        elif isinstance(event, PushUnsubscribed):
            pushes.get(event.player_id, {}).pop(event.endpoint, None)
        elif isinstance(event, EmailSet):
            mailboxes[event.player_id] = Mailbox(event.address, event.code)
        elif isinstance(event, EmailConfirmed):
            box = mailboxes.get(event.player_id)
            if box is not None and box.address == event.address:
                mailboxes[event.player_id] = Mailbox(box.address, box.code, confirmed=True)
        elif isinstance(event, EmailRemoved):
            mailboxes.pop(event.player_id, None)
    return {player: found for player, found in pushes.items() if found}, mailboxes


def browsers_and_mail_at(records: list[RecordedEvent],
                         position: int) -> tuple[dict[str, dict[str, str]], dict[str, str]]:
    """The seats' Web Push subscriptions and their confirmed e-mail addresses (player_id ->
    address) at ``position``: an address no confirmation came back from gets no reminder."""
    pushes, mailboxes = browsers_and_mailboxes_at(records, position)
    return pushes, {player: box.address for player, box in mailboxes.items() if box.confirmed}


def handles(address: str) -> bool:
    return address.startswith((webpush.PREFIX, mail.PREFIX))


async def deliver(client: httpx.AsyncClient, channels: Channels, address: str, payload: dict[str, Any],
                  timeout: float) -> str | None:
    """One attempt: None when delivered, else why not (starting with ``GONE`` when no later
    attempt can work)."""
    if address.startswith(mail.PREFIX):
        if channels.smtp is None:
            return "no SMTP server configured (ENTENTE_SMTP_URL)"
        return await mail.send(channels.smtp, payload, channels.sender, address, channels.site, timeout)
    if channels.vapid is None:
        return "no Web Push key configured (ENTENTE_VAPID_PRIVATE_KEY)"
    subscription = webpush.Subscription.from_address(address)
    urgent = payload.get("entente", {}).get("kind") == "deadline_approaching"
    # the client checks the endpoint's address as it checks a webhook's (addresses.py)
    response = await client.post(subscription.endpoint, timeout=timeout,
                                 content=webpush.encrypted(webpush.message_of(payload), subscription),
                                 headers=webpush.push_headers(channels.vapid, subscription, channels.subject,
                                                              urgent=urgent, now=time.time()))
    if 200 <= response.status_code < 300:
        return None
    if webpush.gone(response.status_code):
        return f"{GONE} (HTTP {response.status_code})"
    return f"HTTP {response.status_code}"
