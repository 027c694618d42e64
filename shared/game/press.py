"""Who reads which press message: pure. A message is public (``to: "all"``) or private to its
sender and recipients; the operator reads everything. The press service and the live stream
both show messages through ``readable``.
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


def message_json(message: MessageSent, record: RecordedEvent) -> dict[str, Any]:
    return {"id": message.message_id, "position": record.position, "phase": message.phase,
            "from": {"power": message.sender, "codename": message.codename},
            "to": "all" if message.recipients is None else list(message.recipients),
            "text": message.text, "sent_at": record.recorded_at.isoformat()}


def readable(records: Iterable[RecordedEvent], powers: Iterable[str] | None) -> list[dict[str, Any]]:
    """The messages among ``records`` a viewer playing ``powers`` may read, in log order.
    ``powers`` None: everything (operator); an empty list: public messages only."""
    powers = None if powers is None else list(powers)
    out = []
    for record in records:
        message = from_recorded(record)
        if isinstance(message, MessageSent) and visible_to(message, powers):
            out.append(message_json(message, record))
    return out
