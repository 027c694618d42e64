"""Web Push: a seat's notifications to the browsers it subscribed, with the page closed
(docs/social.md, "Web Push").

A push is a POST to the push service's endpoint the browser was given (Mozilla's, Google's...),
its body encrypted for that browser alone (RFC 8291, the ``aes128gcm`` content coding of RFC
8188, done by the ``http_ece`` package) and the request signed with the server's VAPID key (RFC
8292: a short ES256 JWT naming the endpoint's origin, and the public key the browser subscribed
with). The push service learns nothing of the content; the browser's service worker
(shared/web/static/sw.js) decrypts it and shows it.

An outbox row's address for a push is ``webpush:`` and the subscription as compact JSON, so that
the delivery needs nothing but the row.
"""
from __future__ import annotations

import base64
import json
import os
import re
import time
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

# cryptography and http_ece are imported where a key is read or a push made, not by a server's
# start: about 20 ms of CPU there (docs/testing.md, "A server's start")

PREFIX = "webpush:"
TTL_SECONDS = 24 * 3600  # how long a push service keeps a push for a browser that is offline
JWT_LIFETIME = 12 * 3600  # RFC 8292 allows at most 24 hours
BODY_TEXT = 1000  # characters of a notification's text in a push (its payload stays under 4 kB)
_MARKUP = re.compile(r"\*\*|<t:(\d+)(?::[a-zA-Z])?>")


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def unb64url(text: str) -> bytes:
    """Decodes base64url with or without its padding (browsers give it without); ValueError
    on anything else."""
    if not re.fullmatch(r"[A-Za-z0-9_-]*={0,2}", text):
        raise ValueError("not base64url")
    return base64.urlsafe_b64decode(text.rstrip("=") + "=" * (-len(text.rstrip("=")) % 4))


@dataclass(frozen=True, slots=True)
class Subscription:
    """What a browser's ``PushSubscription.toJSON()`` holds: the endpoint, the browser's P-256
    public key (65 bytes, uncompressed) and its 16-byte authentication secret."""

    endpoint: str
    p256dh: str
    auth: str

    def problem(self) -> str | None:
        """What is wrong with the keys, or None."""
        from cryptography.hazmat.primitives.asymmetric import ec

        try:
            key, secret = unb64url(self.p256dh), unb64url(self.auth)
        except ValueError:
            return "keys.p256dh and keys.auth must be base64url"
        if len(key) != 65 or key[0] != 4:
            return "keys.p256dh must be an uncompressed P-256 point (65 bytes)"
        try:
            ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), key)
        except ValueError:
            return "keys.p256dh is not a point of P-256"
        if len(secret) != 16:
            return "keys.auth must be 16 bytes"
        return None

    def address(self) -> str:
        return PREFIX + json.dumps({"endpoint": self.endpoint, "p256dh": self.p256dh, "auth": self.auth},
                                   separators=(",", ":"), sort_keys=True)

    @classmethod
    def from_address(cls, address: str) -> Subscription:
        fields = json.loads(address.removeprefix(PREFIX))
        return cls(str(fields["endpoint"]), str(fields["p256dh"]), str(fields["auth"]))


class VapidKey:
    """The server's VAPID key pair: the private key from its setting (the 32-byte P-256 scalar,
    base64url, as web-push tools print it), the public one as browsers take it
    (``applicationServerKey``: the uncompressed point, base64url)."""

    def __init__(self, private: str) -> None:
        from cryptography.hazmat.primitives import serialization
        from cryptography.hazmat.primitives.asymmetric import ec

        try:
            scalar = int.from_bytes(unb64url(private), "big")
            self._key = ec.derive_private_key(scalar, ec.SECP256R1())
        except ValueError as error:
            raise ValueError("ENTENTE_VAPID_PRIVATE_KEY must be a base64url P-256 private key "
                             "(`entente push-key` makes one)") from error
        self.public = b64url(self._key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint))

    @staticmethod
    def generate() -> str:
        """A new private key in the setting's form."""
        from cryptography.hazmat.primitives.asymmetric import ec

        key = ec.generate_private_key(ec.SECP256R1())
        return b64url(key.private_numbers().private_value.to_bytes(32, "big"))

    def authorization(self, endpoint: str, subject: str, now: float) -> str:
        """The ``Authorization`` header of a push to ``endpoint`` (RFC 8292, section 3)."""
        from cryptography.hazmat.primitives import hashes
        from cryptography.hazmat.primitives.asymmetric import ec
        from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature

        parts = urlsplit(endpoint)
        claims = {"aud": f"{parts.scheme}://{parts.netloc}", "exp": int(now) + JWT_LIFETIME, "sub": subject}
        signing_input = (b64url(json.dumps({"typ": "JWT", "alg": "ES256"}, separators=(",", ":")).encode()) + "."
                         + b64url(json.dumps(claims, separators=(",", ":")).encode()))
        r, s = decode_dss_signature(self._key.sign(signing_input.encode(), ec.ECDSA(hashes.SHA256())))
        token = signing_input + "." + b64url(r.to_bytes(32, "big") + s.to_bytes(32, "big"))
        return f"vapid t={token}, k={self.public}"


def encrypted(message: bytes, subscription: Subscription) -> bytes:
    """``message`` encrypted for the subscribed browser alone (RFC 8291), with a fresh
    ephemeral key and salt each time."""
    import http_ece
    from cryptography.hazmat.primitives.asymmetric import ec

    return bytes(http_ece.encrypt(message, salt=os.urandom(16), private_key=ec.generate_private_key(ec.SECP256R1()),
                                  dh=unb64url(subscription.p256dh), auth_secret=unb64url(subscription.auth),
                                  version="aes128gcm"))


def plain_text(content: str) -> str:
    """A Discord-formatted line as a notification shows it: no bold marks, and a Discord
    timestamp (``<t:UNIX:R>``) as the time in UTC."""
    def replaced(match: re.Match[str]) -> str:
        if match.group(1) is None:
            return ""
        return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(int(match.group(1))))
    return _MARKUP.sub(replaced, content)


def message_of(payload: dict[str, Any]) -> bytes:
    """What the service worker shows: a title, a body and the page to open on a click (a path
    of the site that served the worker)."""
    facts = payload.get("entente", {})
    text = plain_text(str(payload.get("content", "")))
    game_id = str(facts.get("game_id", ""))
    body = {"title": "Entente", "body": text if len(text) <= BODY_TEXT else text[:BODY_TEXT] + "...",
            "kind": facts.get("kind"), "game_id": game_id, "phase": facts.get("phase"),
            "url": f"/play/{game_id}" if game_id else "/"}
    return json.dumps(body, separators=(",", ":")).encode()


def push_headers(key: VapidKey, subscription: Subscription, subject: str, *, urgent: bool,
                 now: float) -> dict[str, str]:
    return {"Authorization": key.authorization(subscription.endpoint, subject, now), "TTL": str(TTL_SECONDS),
            "Content-Encoding": "aes128gcm", "Content-Type": "application/octet-stream",
            "Urgency": "high" if urgent else "normal"}


def gone(status: int) -> bool:
    """A push service's answer that the subscription no longer exists (the browser dropped it):
    404 or 410 (RFC 8030, section 7.3): retrying cannot help."""
    return status in (404, 410)
