"""Cursors of the lists that grow (docs/api.md, "Lists that grow"): opaque to clients, made of
what the caller may see of the last item of a page and nothing else (a game's id and when the
list last saw it change; a message's id), so a cursor tells nobody anything new.

A cursor is the URL-safe base64 of a small JSON object; one that does not decode, or that was
made by another list, is 400 ``invalid_cursor``.
"""
from __future__ import annotations

import base64
import binascii
import json
from typing import Any

from shared.errors import BadRequest, ErrorCode

MAX_CURSOR_LENGTH = 200
DEFAULT_LIMIT = 100


def encode_cursor(kind: str, **fields: Any) -> str:
    raw = json.dumps({"k": kind, **fields}, separators=(",", ":"), sort_keys=True).encode("utf-8")
    return base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")


def decode_cursor(text: str, kind: str, where: str = "query.cursor") -> dict[str, object]:
    """The fields of a cursor made by ``encode_cursor(kind, ...)``; 400 invalid_cursor else."""
    try:
        raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
        fields = json.loads(raw.decode("utf-8"))
    except (binascii.Error, ValueError, UnicodeDecodeError):
        fields = None
    if not isinstance(fields, dict) or fields.get("k") != kind:
        raise BadRequest("this cursor was not given by this list; start again without one",
                         code=ErrorCode.INVALID_CURSOR, where=where)
    return fields
