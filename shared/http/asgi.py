"""The ASGI scope, as the middleware of this package (body.py, middleware.py, methods.py,
observability.py) reads it: one request's (or connection's) dict, declared once here."""
from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

Scope = dict[str, Any]
Message = dict[str, Any]
Receive = Callable[[], Awaitable[Message]]
Headers = list[tuple[bytes, bytes]]  # scope["headers"]: names lower-cased, values as sent
