"""Signed webhook deliveries (docs/social.md, "Signed deliveries"), as Stripe and GitHub sign
theirs: pure functions, no I/O.

- Each webhook gets a secret when it is set (``new_secret``), shown to its owner once, in the
  answer to the PUT that set it; setting the webhook again makes a new one.
- Every delivery to a webhook that has a secret carries ``Entente-Signature: t=UNIX,v1=HEX``:
  HEX is the HMAC-SHA256, keyed with the secret, of ``t``, a full stop, and the request's body
  exactly as sent (``signed_content``). ``t`` is the moment of the attempt, so a receiver can
  refuse an old replay; every attempt is signed again.
- Every delivery carries ``Entente-Delivery``: an id made from the notification's unique key
  (``delivery_id``), the same at every attempt of one notification, so that a receiver that
  saw it already drops the redelivery.
"""
from __future__ import annotations

import hashlib
import hmac
import secrets
import uuid

SIGNATURE_HEADER = "Entente-Signature"
DELIVERY_HEADER = "Entente-Delivery"
SECRET_PREFIX = "whsec_"
# a fixed namespace for the delivery ids (uuid5 of a notification's unique key)
_DELIVERIES = uuid.UUID("6f1d7a3e-31c0-5e0b-9d41-3b6a1c2e8f10")


def new_secret() -> str:
    """A fresh signing secret: 32 random bytes, URL-safe, with a recognisable prefix."""
    return SECRET_PREFIX + secrets.token_urlsafe(32)


def signed_content(timestamp: int, body: bytes) -> bytes:
    return str(timestamp).encode("ascii") + b"." + body


def signature(secret: str, timestamp: int, body: bytes) -> str:
    """The hex HMAC-SHA256 of ``timestamp.body`` keyed with the secret's UTF-8 bytes."""
    return hmac.new(secret.encode("utf-8"), signed_content(timestamp, body), hashlib.sha256).hexdigest()


def signature_header(secret: str, timestamp: int, body: bytes) -> str:
    return f"t={timestamp},v1={signature(secret, timestamp, body)}"


def delivery_id(dedupe_key: str) -> str:
    """The id every attempt of one notification carries (a UUID made from its unique key)."""
    return str(uuid.uuid5(_DELIVERIES, dedupe_key))
