"""E-mail: a seat's deadline reminders to the address it gave, once the code of a first mail
there came back (docs/social.md, "E-mail").

Sent through the SMTP server of ``ENTENTE_SMTP_URL``: ``smtp://host:port`` (plain, as a local
relay takes it), ``smtp+starttls://user:password@host:587`` (STARTTLS, then login) or
``smtps://user:password@host:465`` (TLS from the start). The standard library's ``smtplib`` does
the talking, in a thread so that the worker's loop goes on. An outbox row's address for a mail is
``mailto:`` and the address.
"""
from __future__ import annotations

import asyncio
import hmac
import re
import secrets
import smtplib
import ssl
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from typing import Any
from urllib.parse import unquote, urlsplit

from .webpush import plain_text

PREFIX = "mailto:"
SCHEMES = ("smtp", "smtp+starttls", "smtps")
DEFAULT_PORTS = {"smtp": 25, "smtp+starttls": 587, "smtps": 465}
LONGEST_ADDRESS = 254  # RFC 5321's limit on a path, as mail servers apply it
# one local part, one domain with a dot: what a reminder may go to (no display names, no lists,
# no quoted local parts, no line breaks that would add headers)
_ADDRESS = re.compile(r"[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
                      r"(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+")


def address_problem(address: str) -> str | None:
    """What keeps ``address`` from being a reminder's recipient, or None."""
    if len(address) > LONGEST_ADDRESS:
        return f"an e-mail address has at most {LONGEST_ADDRESS} characters"
    if not _ADDRESS.fullmatch(address):
        return "not an e-mail address of the form name@example.org"
    return None


@dataclass(frozen=True, slots=True)
class SmtpServer:
    scheme: str
    host: str
    port: int
    user: str | None
    password: str | None

    @classmethod
    def parse(cls, url: str) -> SmtpServer:
        parts = urlsplit(url)
        if parts.scheme not in SCHEMES or not parts.hostname:
            raise ValueError(f"ENTENTE_SMTP_URL must be {', '.join(s + '://host[:port]' for s in SCHEMES)}")
        return cls(parts.scheme, parts.hostname, parts.port or DEFAULT_PORTS[parts.scheme],
                   unquote(parts.username) if parts.username else None,
                   unquote(parts.password) if parts.password else None)

    def send(self, message: EmailMessage, timeout: float) -> None:
        """One message, blocking (call it in a thread)."""
        context = ssl.create_default_context()
        smtp: smtplib.SMTP = (smtplib.SMTP_SSL(self.host, self.port, timeout=timeout, context=context)
                              if self.scheme == "smtps" else smtplib.SMTP(self.host, self.port, timeout=timeout))
        with smtp:
            if self.scheme == "smtp+starttls":
                smtp.starttls(context=context)
            if self.user:
                smtp.login(self.user, self.password or "")
            smtp.send_message(message)


CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: a code one may type from the mail
CODE_LENGTH = 12  # 60 bits: not guessed through the API
CONFIRMATION = "email_confirmation"  # the outbox kind of a confirmation mail


def new_code() -> str:
    """A fresh confirmation code (docs/social.md, "E-mail")."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def same_code(given: str, expected: str) -> bool:
    """Whether ``given`` is the code ``expected``, as typed (case, spaces and dashes aside); an
    address set before codes existed (``expected`` empty) has none to match."""
    typed = re.sub(r"[\s-]", "", given).upper()
    return bool(expected) and hmac.compare_digest(typed.encode(), expected.encode())


def confirmation(payload: dict[str, Any], sender: str, to: str, site: str) -> EmailMessage:
    """The first mail to an address set for a seat: its code, and the game's page with the code,
    which confirms it when opened in a browser that holds the seat (docs/web.md)."""
    facts = payload.get("entente", {})
    code, game = str(facts.get("code", "")), str(facts.get("game_id", ""))
    message = _message(sender, to, "Confirm this address for your deadline reminders")
    message.set_content(
        f"This address was set for a seat of the game {facts.get('game_name', game)} to get its deadline reminders.\n"
        f"They come here once the address is confirmed: open\n\n{site.rstrip('/')}/play/{game}#email-code={code}\n\n"
        f"on the device you play on, or give the code {code} on the game's page.\n"
        "If you did not ask for this, ignore this mail: nothing more is sent here unless it is confirmed.\n")
    return message


def _message(sender: str, to: str, subject: str) -> EmailMessage:
    message = EmailMessage()
    message["From"] = sender
    message["To"] = to
    message["Subject"] = subject
    message["Date"] = formatdate(usegmt=True)
    message["Message-ID"] = make_msgid(domain=sender.rpartition("@")[2] or None)
    message["Auto-Submitted"] = "auto-generated"  # RFC 3834: no auto-reply loops
    return message


def reminder(payload: dict[str, Any], sender: str, to: str, site: str) -> EmailMessage:
    """The e-mail of a deadline reminder: its text as plain text, and the game's page at the
    site's public address ``site`` (ENTENTE_PUBLIC_URL; its path alone without one)."""
    facts = payload.get("entente", {})
    text = plain_text(str(payload.get("content", "")))
    message = _message(sender, to, f"Orders due: {facts.get('phase') or 'the next phase'}")
    message.set_content(f"{text}\n\nThe game: {site.rstrip('/')}/play/{facts.get('game_id', '')}\n"
                        "You get this because this address was set for your seat; remove it on the game's page.\n")
    return message


async def send(server: SmtpServer, payload: dict[str, Any], sender: str, address: str, site: str,
               timeout: float) -> str | None:
    """Sends the reminder, or the confirmation mail, to ``address`` (an outbox row's ``mailto:``
    address): None when the server took it, else why not."""
    kind = payload.get("entente", {}).get("kind")
    message = (confirmation if kind == CONFIRMATION else reminder)(payload, sender, address.removeprefix(PREFIX), site)
    try:
        await asyncio.to_thread(server.send, message, timeout)
    except (smtplib.SMTPException, OSError) as error:
        return f"SMTP: {type(error).__name__}: {error}"[:200]
    return None
