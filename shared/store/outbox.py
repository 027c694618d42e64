"""The store's records of the notifications outbox (the tables are in shared/store/outbox_tables.py).

The notifications projection (services/notifications/outbox.py) plans rows with
``tx.outbox.plan_notification`` in the transaction that advances its tracking position;
delivery workers claim due rows with ``tx.outbox.claim_notifications`` (which dead-letters,
instead of claiming, a row that reached the attempt limit without its last outcome recorded)
and store each attempt's outcome with ``tx.outbox.record_outcome``. The semantics are in docs/store.md
("Projections and the outbox"); the recorder is shared/store/outboxes.py's ``OutboxRecorder``.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime


@dataclass(frozen=True, slots=True)
class NewNotification:
    """A notification owed to one player's webhook, planned from the event at ``source_position``.

    ``dedupe_key`` is unique in the outbox: planning the same key again adds nothing.
    """

    dedupe_key: str
    game_id: str
    player_id: str
    kind: str
    phase: str | None
    url: str
    payload: dict[str, object]
    not_before: datetime  # the first attempt is due then
    source_position: int
    created_at: datetime


@dataclass(frozen=True, slots=True)
class Notification:
    """One row of the outbox as stored (``status``: pending, delivered, dead or cancelled)."""

    id: int
    dedupe_key: str
    game_id: str
    player_id: str
    kind: str
    phase: str | None
    url: str
    payload: dict[str, object]
    status: str
    attempts: int
    next_attempt_at: datetime
    last_error: str | None
    source_position: int
    created_at: datetime
    delivered_at: datetime | None


@dataclass(frozen=True, slots=True)
class ClaimedNotification:
    """A due row leased to one worker for one attempt."""

    id: int
    url: str
    payload: dict[str, object]
    attempts: int  # counting the attempt about to be made
    dedupe_key: str = ""  # the row's unique key: the delivery id is made from it (the same at every attempt)
    secret: str | None = None  # the recipient's webhook signing secret (webhook_secrets), if it has one


@dataclass(frozen=True, slots=True)
class Delivered:
    at: datetime


@dataclass(frozen=True, slots=True)
class Retry:
    error: str
    at: datetime  # the next attempt is due then


@dataclass(frozen=True, slots=True)
class Dead:
    error: str


Outcome = Delivered | Retry | Dead

# the last error of a row given up at the attempt limit by a claim (docs/store.md)
NO_OUTCOME_RECORDED = "no outcome was recorded for the last attempt (its worker stopped); the attempt limit is reached"

# the columns of a Notification, in its field order
NOTIFICATION_COLUMNS = ("id, dedupe_key, game_id, player_id, kind, phase, url, payload, status, attempts, "
                        "next_attempt_at, last_error, source_position, created_at, delivered_at")
