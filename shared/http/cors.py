"""Cross-origin requests from the browser origins the server trusts (docs/api.md, "CORS").

``ENTENTE_CORS_ORIGINS`` lists them (comma-separated ``scheme://host[:port]``; none by default,
so a server answers no browser on another origin until told to). The app's settings are only
known once its lifespan has run, so this pure ASGI middleware reads them from the app's state
on each request:

- a preflight (``OPTIONS`` with ``Access-Control-Request-Method``) from a listed origin is
  answered here, 204 with the methods and headers the API uses, cached by the browser for
  ``MAX_AGE`` seconds;
- any other request from a listed origin goes on to the app, and its answer (errors too) gets
  ``Access-Control-Allow-Origin`` for that origin and the headers a client may read;
- a request from an origin not listed passes through untouched: without the headers, the
  browser keeps the answer from the page (a preflight then gets the app's own 405).

Bearer tokens travel in the ``Authorization`` header, never in cookies, so credentials are not
allowed (``Access-Control-Allow-Credentials`` is never sent).
"""
from __future__ import annotations

from typing import Any

Scope = dict[str, Any]

ALLOWED_METHODS = "GET, POST, PUT, PATCH, DELETE, OPTIONS"
ALLOWED_HEADERS = "Authorization, Content-Type, Last-Event-ID, X-Request-ID"
EXPOSED_HEADERS = "Retry-After, WWW-Authenticate, X-Request-ID"
MAX_AGE = 600


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key == name:
            return str(value.decode("latin-1"))
    return None


def _allowed(scope: Scope, origin: str) -> bool:
    state = getattr(scope.get("app"), "state", None)
    settings = getattr(state, "settings", None)
    origins: frozenset[str] = getattr(settings, "cors_origin_set", frozenset()) if settings else frozenset()
    return "*" in origins or origin.lower() in origins


class CORSMiddleware:
    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        origin = _header(scope, b"origin") if scope["type"] == "http" else None
        if origin is None or not _allowed(scope, origin):
            await self.app(scope, receive, send)
            return
        common = [(b"access-control-allow-origin", origin.encode("latin-1")), (b"vary", b"Origin")]
        if scope.get("method") == "OPTIONS" and _header(scope, b"access-control-request-method"):
            await send({"type": "http.response.start", "status": 204, "headers": [
                *common, (b"access-control-allow-methods", ALLOWED_METHODS.encode()),
                (b"access-control-allow-headers", ALLOWED_HEADERS.encode()),
                (b"access-control-max-age", str(MAX_AGE).encode())]})
            await send({"type": "http.response.body", "body": b""})
            return

        async def with_cors(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                vary = [v for k, v in headers if k.lower() == b"vary"]
                headers = [(k, v) for k, v in headers if k.lower() not in (b"access-control-allow-origin", b"vary")]
                headers += [(b"access-control-allow-origin", origin.encode("latin-1")),
                            (b"vary", b", ".join([*vary, b"Origin"])),
                            (b"access-control-expose-headers", EXPOSED_HEADERS.encode())]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, with_cors)
