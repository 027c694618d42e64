"""Reading server-sent events as a client does, for the stream's tests (the parser is the one
of tests/utils/http.py), and the app served by a real uvicorn."""
from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import uvicorn

from services.app import create_app
from tests.utils.http import parse_sse, social_settings, whole_views

__all__ = ["of_kind", "parse_sse", "read_events", "served", "whole_views"]


def of_kind(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [event for event in events if event["event"] == kind]


@contextmanager
def served(database_url: str, provider_url: str) -> Iterator[str]:
    """The combined app under uvicorn (its lifespan on) on a free port, in a thread."""
    config = uvicorn.Config(create_app(social_settings(database_url, provider_url)), host="127.0.0.1", port=0,
                            log_level="warning", lifespan="on")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=lambda: asyncio.run(server.serve()), daemon=True)
    thread.start()
    try:
        while not server.started:
            if not thread.is_alive():
                raise RuntimeError("uvicorn did not start")
            threading.Event().wait(0.01)
        port = server.servers[0].sockets[0].getsockname()[1]
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


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
