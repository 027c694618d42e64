"""The ASGI scope, as the middleware of this package (body.py, cors.py, middleware.py, methods.py,
observability.py) reads it: one request's (or connection's) dict, declared once here; and the
opening those layers share (``HttpMiddleware``)."""
from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

Scope = dict[str, Any]
Message = dict[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
Headers = list[tuple[bytes, bytes]]  # scope["headers"]: names lower-cased, values as sent


class HttpMiddleware:
    """A pure ASGI layer around ``app``: anything but an HTTP request (the lifespan's messages, a
    websocket) goes straight through, and each HTTP request to ``handle``, which the layer
    writes. Starlette builds a layer as ``Layer(app)`` (``app.add_middleware``)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        await self.handle(scope, receive, send)

    async def handle(self, scope: Scope, receive: Any, send: Any) -> None:
        """One HTTP request: answer it, or hand it on to ``self.app``."""
        raise NotImplementedError
