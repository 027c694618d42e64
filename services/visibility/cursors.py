"""The live stream's event ids: cursors that count only what the viewer sees (docs/social.md,
"Cursors that count only what the viewer sees").

An id is ``{messages}.{view}``: how many messages this viewer may read the client has been
sent (the ``position`` of the last one, as ``GET /games/{id}/messages`` numbers them for the
same viewer), and a keyed digest of the last view it was sent. That is all a client needs to
resume exactly, and nothing in it depends on an event the viewer may not see: another power's
orders, a private message between others or a secret draw vote changes neither the count nor
the view, so it changes no id (the log's positions, which count every event, would).

The digest is an HMAC keyed by the server's operator secret (which every replica shares), so
that someone who reads an id in a log cannot test guesses of a player's view against it.
"""
from __future__ import annotations

import hashlib
import hmac
import re
from dataclasses import dataclass

from shared.errors import BadRequest, ErrorCode

DIGEST_LENGTH = 16  # hex digits of the view's digest in an id
MAX_CURSOR_LENGTH = 40
# ASCII digits only: ``str.isdigit`` also accepts "²", which ``int`` refuses
_CURSOR = re.compile(r"([0-9]{1,15})\.([0-9a-f]{" + str(DIGEST_LENGTH) + "})")
NO_VIEW = "0" * DIGEST_LENGTH  # a digest no view has: "send me the view"


@dataclass(frozen=True, slots=True)
class Cursor:
    messages: int  # messages the client has (their positions 1..messages)
    view: str  # digest of the last view it has

    def __str__(self) -> str:
        return f"{self.messages}.{self.view}"


def parse_cursor(text: str, where: str) -> Cursor:
    """The cursor a client sent back, or a 400 that says what an id looks like. ``0`` stands
    for "nothing yet": every message the viewer may read, then the view."""
    if text.strip() == "0":
        return Cursor(0, NO_VIEW)
    found = _CURSOR.fullmatch(text.strip())
    if found is None:
        raise BadRequest("Last-Event-ID must be an id this stream sent (like 12.3f9c0d5e7a1b2c4d)",
                         code=ErrorCode.INVALID_LAST_EVENT_ID, where=where)
    return Cursor(int(found.group(1)), found.group(2))


def cursor_key(operator_hash: str) -> bytes:
    """The key of the views' digests, derived from the operator secret's hash."""
    return hashlib.sha256(b"entente stream cursor\0" + operator_hash.encode("ascii", "replace")).digest()


def view_digest(key: bytes, view_json: bytes) -> str:
    """The digest of a view as sent (its JSON)."""
    digest = hmac.new(key, view_json, hashlib.sha256).hexdigest()[:DIGEST_LENGTH]
    return digest if digest != NO_VIEW else "1" + digest[1:]
