"""Reading server-sent events as a client does, for the stream's tests (the parser is the one
of tests/utils/http.py)."""
from __future__ import annotations

from typing import Any

from tests.utils.http import parse_sse

__all__ = ["of_kind", "parse_sse"]


def of_kind(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [event for event in events if event["event"] == kind]
