"""Reading server-sent events as a client does, for the stream's tests."""
from __future__ import annotations

import json
from typing import Any


def parse_sse(text: str) -> list[dict[str, Any]]:
    """The events of an SSE text: ``{"id", "event", "data"}`` each (``id`` None when the event
    had none); comments and ``retry:`` lines are skipped."""
    events = []
    for block in text.split("\n\n"):
        fields: dict[str, str] = {}
        for line in block.splitlines():
            if line.startswith(":"):
                continue
            name, _, value = line.partition(": ")
            fields[name] = value
        if "event" in fields:
            events.append({"id": fields.get("id"), "event": fields["event"], "data": json.loads(fields["data"])})
    return events


def of_kind(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [event for event in events if event["event"] == kind]
