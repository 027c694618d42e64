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
- a request from an origin not listed, or with no ``Origin``, goes on to the app without
  them: the browser keeps the answer from the page (a preflight then gets the app's own 405).

Once any origin is listed, every answer depends on the request's ``Origin``, so every answer
says so (``Vary: Origin``), those without the headers too: a shared cache then never hands an
answer made for one origin (or for none) to a request from another. With none listed, answers
are the same whatever the ``Origin``, and say nothing.

Bearer tokens travel in the ``Authorization`` header, never in cookies, so credentials are not
allowed (``Access-Control-Allow-Credentials`` is never sent).
"""
from __future__ import annotations

from typing import Any

from .asgi import HttpMiddleware, Scope

ALLOWED_METHODS = "GET, POST, PUT, PATCH, DELETE, OPTIONS"
ALLOWED_HEADERS = "Authorization, Content-Type, Last-Event-ID, X-Request-ID"
EXPOSED_HEADERS = "Retry-After, WWW-Authenticate, X-Request-ID"
MAX_AGE = 600


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key == name:
            return str(value.decode("latin-1"))
    return None


def _origins(scope: Scope) -> frozenset[str]:
    state = getattr(scope.get("app"), "state", None)
    settings = getattr(state, "settings", None)
    origins: frozenset[str] = getattr(settings, "cors_origin_set", frozenset()) if settings else frozenset()
    return origins


def _allowed(origins: frozenset[str], origin: str) -> bool:
    return "*" in origins or origin.lower() in origins


def _varying(headers: list[tuple[bytes, bytes]]) -> list[tuple[bytes, bytes]]:
    """``headers`` with ``Origin`` among the ``Vary`` names (once, the others kept)."""
    names = [v for k, v in headers if k.lower() == b"vary"]
    if any(n.strip().lower() in (b"origin", b"*") for v in names for n in v.split(b",")):
        return headers
    kept = [(k, v) for k, v in headers if k.lower() != b"vary"]
    return [*kept, (b"vary", b", ".join([*names, b"Origin"]))]


class CORSMiddleware(HttpMiddleware):
    async def handle(self, scope: Scope, receive: Any, send: Any) -> None:
        origins = _origins(scope)
        origin = _header(scope, b"origin")
        if origin is None or not _allowed(origins, origin):
            await self.app(scope, receive, send if not origins else _saying_vary(send))
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
                headers = [(k, v) for k, v in message.get("headers", [])
                           if k.lower() != b"access-control-allow-origin"]
                headers = _varying([*headers, (b"access-control-allow-origin", origin.encode("latin-1")),
                                    (b"access-control-expose-headers", EXPOSED_HEADERS.encode())])
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, with_cors)


def _saying_vary(send: Any) -> Any:
    """``send`` with ``Vary: Origin`` added to the answer's start."""
    async def varying(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            message = {**message, "headers": _varying(list(message.get("headers", [])))}
        await send(message)
    return varying
