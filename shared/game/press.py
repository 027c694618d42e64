"""Who reads which press message, and where it stands among what they read: pure. A message is
public (``to: "all"``) or private to its sender and recipients; the operator reads everything.
The press service and the live stream both show messages through ``readable``.

A message's ``position`` is its place among the messages *that viewer* may read (1, 2, 3, ...),
never its place in the log: the log's positions count every event of every stream, so they
would tell a reader how many private messages, orders and votes came in between
(docs/social.md, "Cursors that count only what the viewer sees").
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from shared.events import from_recorded
from shared.events_social import MessageSent
from shared.store import RecordedEvent


def visible_to(message: MessageSent, powers: Iterable[str] | None) -> bool:
    """Whether a viewer playing ``powers`` may read it (None: the operator, who reads all)."""
    if powers is None or message.recipients is None:
        return True
    return bool(set(powers) & ({message.sender} | set(message.recipients)))


def message_json(message: MessageSent, record: RecordedEvent, position: int) -> dict[str, Any]:
    """The message as a viewer sees it, ``position`` being its place among what they read."""
    return {"id": message.message_id, "position": position, "phase": message.phase,
            "from": {"power": message.sender, "codename": message.codename},
            "to": "all" if message.recipients is None else list(message.recipients),
            "text": message.text, "sent_at": (message.sent_at or record.recorded_at).isoformat()}


def messages_of(records: Iterable[RecordedEvent]) -> list[tuple[MessageSent, RecordedEvent]]:
    """The messages of a press stream's records, in stream order."""
    out = []
    for record in records:
        message = from_recorded(record)
        if isinstance(message, MessageSent):
            out.append((message, record))
    return out


def readable(records: Iterable[RecordedEvent], powers: Iterable[str] | None,
             after: int = 0) -> list[dict[str, Any]]:
    """The messages a viewer playing ``powers`` may read, numbered 1, 2, ... among those, of
    which the ones numbered above ``after``. ``records`` is the whole press stream from its
    first version (the numbering counts from there). ``powers`` None: everything (operator);
    an empty list: public messages only."""
    powers = None if powers is None else list(powers)
    out = []
    place = 0
    for message, record in messages_of(records):
        if visible_to(message, powers):
            place += 1
            if place > after:
                out.append(message_json(message, record, place))
    return out
