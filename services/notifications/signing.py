"""Signed webhook deliveries as the Standard Webhooks specification says (docs/social.md,
"Signed deliveries"): pure functions, no I/O.

- Each webhook gets a secret when it is set (``new_secret``): ``whsec_`` and the standard
  base64 of 32 random bytes, shown to its owner once, in the answer to the PUT that set it;
  setting the webhook again makes a new one. The key is the decoded bytes, as the
  specification and its libraries (``standardwebhooks``, Svix's) read it.
- Every delivery carries ``webhook-id`` (``delivery_id``: the same at every attempt of one
  notification, so a receiver that saw it already drops the redelivery) and
  ``webhook-timestamp`` (the moment of the attempt, so a receiver can refuse an old replay);
  to a webhook with a secret, ``webhook-signature: v1,BASE64``, the HMAC-SHA256 of
  ``{id}.{timestamp}.{body}`` with the body exactly as sent. Every attempt is signed again.
- The id reveals nothing of the log: it is an HMAC of the notification's unique key (which
  holds the log position it was planned from) keyed by a secret of the server's, so two
  receivers comparing ids learn neither positions nor how many events they did not see.
- Secrets issued before standard signing (``whsec_`` and 43 URL-safe characters, keyed as a
  UTF-8 string) keep working as they did: their deliveries are signed with the old
  ``Entente-Signature: t=UNIX,v1=HEX`` and carry the id as ``Entente-Delivery`` too
  (``is_legacy_secret``; docs/social.md, "Secrets from before standard signing").
"""
from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import secrets

ID_HEADER = "webhook-id"
TIMESTAMP_HEADER = "webhook-timestamp"
SIGNATURE_HEADER = "webhook-signature"
LEGACY_SIGNATURE_HEADER = "Entente-Signature"
LEGACY_DELIVERY_HEADER = "Entente-Delivery"
SECRET_PREFIX = "whsec_"
SECRET_BYTES = 32
ID_PREFIX = "msg_"


def new_secret() -> str:
    """A fresh signing secret: ``whsec_`` and the standard base64 of 32 random bytes."""
    return SECRET_PREFIX + base64.b64encode(secrets.token_bytes(SECRET_BYTES)).decode("ascii")


def secret_key(secret: str) -> bytes | None:
    """The key of a standard secret (its base64 decoded), or None for a secret that is not one
    (those issued before standard signing: 43 URL-safe characters, no padding)."""
    try:
        key = base64.b64decode(secret.removeprefix(SECRET_PREFIX), validate=True)
    except (binascii.Error, ValueError):
        return None
    return key if 24 <= len(key) <= 64 else None


def is_legacy_secret(secret: str) -> bool:
    return secret_key(secret) is None


def signature(secret: str, message_id: str, timestamp: int, body: bytes) -> str:
    """The ``webhook-signature`` value: ``v1,`` and the base64 HMAC-SHA256, keyed with the
    secret's decoded bytes, of ``{message_id}.{timestamp}.{body}``."""
    key = secret_key(secret)
    if key is None:
        raise ValueError("not a standard webhook secret")
    content = f"{message_id}.{timestamp}.".encode("ascii") + body
    return "v1," + base64.b64encode(hmac.new(key, content, hashlib.sha256).digest()).decode("ascii")


def legacy_signature_header(secret: str, timestamp: int, body: bytes) -> str:
    """``Entente-Signature`` for a secret from before standard signing: the hex HMAC-SHA256 of
    ``timestamp.body`` keyed with the secret's UTF-8 bytes, as it always was."""
    content = str(timestamp).encode("ascii") + b"." + body
    return f"t={timestamp},v1={hmac.new(secret.encode('utf-8'), content, hashlib.sha256).hexdigest()}"


def delivery_key(server_secret: str) -> bytes:
    """The key of the delivery ids, derived from a secret every replica of the server shares
    (the operator secret), so that every worker gives one notification the same id. Without
    one the key would be public and the ids as telling as the positions: refused."""
    if not server_secret:
        raise ValueError("webhook delivery ids need the operator secret (ENTENTE_OPERATOR_TOKEN)")
    return hashlib.sha256(b"entente webhook delivery id\0" + server_secret.encode("utf-8")).digest()


def delivery_id(key: bytes, dedupe_key: str) -> str:
    """The id every attempt of one notification carries: ``msg_`` and 26 base32 characters of
    an HMAC of its unique key (128 bits), which nobody without the server's key can relate to
    the log."""
    digest = hmac.new(key, dedupe_key.encode("utf-8"), hashlib.sha256).digest()[:16]
    return ID_PREFIX + base64.b32encode(digest).decode("ascii").rstrip("=").lower()


def signed_headers(key: bytes, dedupe_key: str, secret: str | None, timestamp: int, body: bytes) -> dict[str, str]:
    """The headers of one attempt: the id and timestamp always; the standard signature for a
    standard secret; the old headers for a secret issued before standard signing."""
    message_id = delivery_id(key, dedupe_key)
    headers = {ID_HEADER: message_id, TIMESTAMP_HEADER: str(timestamp)}
    if secret and is_legacy_secret(secret):
        headers[LEGACY_DELIVERY_HEADER] = message_id
        headers[LEGACY_SIGNATURE_HEADER] = legacy_signature_header(secret, timestamp, body)
    elif secret:
        headers[SIGNATURE_HEADER] = signature(secret, message_id, timestamp, body)
    return headers
