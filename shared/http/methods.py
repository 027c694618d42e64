"""The methods a path answers to: HEAD wherever GET is, and a 405 that names them all.

FastAPI's routes answer a method they lack with the ``Allow`` of the one route that matched the
path first (``/games`` serves GET and POST yet answered ``Allow: POST``), and serve no HEAD. A
generated client, a cache or a link checker asks both (RFC 9110: a server that answers GET
answers HEAD; a 405 lists every method the resource takes): docs/api.md, "Methods".
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from starlette.routing import BaseRoute, Match

from .asgi import HttpMiddleware, Scope


def _flat(routes: Iterable[BaseRoute]) -> Iterator[BaseRoute]:
    for route in routes:
        included = getattr(route, "original_router", None)  # a router included as a whole
        if included is not None:
            yield from _flat(included.routes)
        else:
            yield route


def allowed_methods(routes: Iterable[BaseRoute], scope: Scope) -> list[str]:
    """Every method some route serves at the scope's path (HEAD beside GET), sorted."""
    found: set[str] = set()
    probe = {**scope, "method": "GET"}
    for route in _flat(routes):
        methods = getattr(route, "methods", None)
        if not methods:
            continue
        match, _ = route.matches(probe)
        if match != Match.NONE:
            found |= set(methods)
    if "GET" in found:
        found.add("HEAD")
    return sorted(found)


class HeadAsGet(HttpMiddleware):
    """A pure ASGI layer: a HEAD request is served as the GET it mirrors, its headers kept and
    its body left out (Content-Length stays the GET's, as RFC 9110 allows)."""

    async def handle(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["method"] != "HEAD":
            await self.app(scope, receive, send)
            return

        answered = False

        async def without_body(message: dict[str, Any]) -> None:
            nonlocal answered
            if message["type"] == "http.response.body":
                if answered:
                    raise _Answered  # a streamed body (the live stream): stop making it
                answered = True
                message = {"type": "http.response.body", "body": b"", "more_body": False}
            await send(message)

        try:
            await self.app({**scope, "method": "GET"}, receive, without_body)
        except _Answered:
            pass


class _Answered(Exception):
    """A HEAD request's answer is complete: what the GET would still send is not wanted."""
