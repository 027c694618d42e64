"""Reading server-sent events as a client does, for the stream's tests (the parser is the one
of tests/utils/http.py), and the app served by a real uvicorn."""
from __future__ import annotations

from contextlib import AbstractContextManager
from typing import Any

from services.app import create_app
from tests.utils.http import parse_sse, social_settings, whole_views
from tests.utils.oauth_provider import serve_in_thread

__all__ = ["of_kind", "parse_sse", "read_events", "served", "whole_views"]


def of_kind(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [event for event in events if event["event"] == kind]


def served(database_url: str, provider_url: str) -> AbstractContextManager[str]:
    """The combined app under uvicorn (its lifespan on) on a free port, in a thread."""
    return serve_in_thread(create_app(social_settings(database_url, provider_url)), lifespan="on")


async def read_events(lines: Any, wanted: int) -> list[dict[str, Any]]:
    """Read SSE lines as an EventSource does until ``wanted`` events have come."""
    block: list[str] = []
    events: list[dict[str, Any]] = []
    async for line in lines:
        if line:
            block.append(line)
            continue
        events += parse_sse("\n".join(block) + "\n\n")
        block = []
        if len(events) >= wanted:
            break
    return events
