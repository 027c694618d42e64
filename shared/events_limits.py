"""Events of the rate limits kept in the store (docs/operations.md, "Rate limits"): the actions
anyone may take without an account (creating a game, taking a seat) are counted per client
address in the log, so that every process and replica behind a proxy holds one limit.

Each (action, address) has a stream of its own, ``limit-{action}-{digest}``, the digest a keyed
hash of the address (the address itself is never stored); each counted action is one
``ActionCounted`` (with the bucket's state after it) appended at the stream's next version, so
of two processes that race for the last place in the bucket exactly one wins.
"""
from __future__ import annotations

import hashlib
import hmac
from datetime import datetime
from typing import Literal

from shared.events import Event, register_event


def limit_stream(action: str, address_key: str, secret: str) -> str:
    digest = hmac.new(secret.encode(), address_key.encode(), hashlib.sha256).hexdigest()[:32]
    return f"limit-{action}-{digest}"


@register_event
class ActionCounted(Event):
    """One ``action`` taken from the stream's address; ``full_at``: when the address's bucket
    would be full again were nothing more counted (the limit's theoretical arrival time,
    shared/http/shared_limits.py)."""

    type: Literal["ActionCounted"] = "ActionCounted"
    action: str
    full_at: datetime
