"""Each request counted, timed and logged once, under a request id (docs/operations.md).

A pure ASGI middleware, the outermost of the app's own (``build_app`` installs it):

- the request id is the caller's ``X-Request-ID`` when it is a short printable token (nginx
  sends its own), else a new one; it is returned in the response's ``X-Request-ID``, put in
  the request's state (the events a request writes carry it, shared/http/dependencies.py)
  and in ``shared.logs.REQUEST_ID`` for every line logged while the request is served;
- ``entente_http_requests_total`` and ``entente_http_request_duration_seconds`` count it by
  method, route template (``/games/{game_id}/orders``, never the path itself, so that the
  series stay few; ``unmatched`` when no route matched) and status;
- one log line: method, route template, game id, status, duration. Never the query string
  (the sign-in callback carries a one-time code there), never a header.

``/metrics`` itself is served by ``metrics_endpoint``: the operator token or an allowed
address (shared/metrics.py ``may_read``), the database's gauges read, the text format out.

A live stream's body goes through ``live_stream``: counted in ``entente_open_streams`` while it
is sent. Once the server is told to stop (SIGTERM), ``DRAINING`` runs the callbacks registered
with ``on_stop`` on the event loop at once: the streams' hub closes every stream with the
``closed`` event ``shutting_down`` (services/visibility/hub.py), so that a graceful shutdown
waits for no stream and the client reconnects with its ``Last-Event-ID`` to a server still
running (docs/deploy.md, "Stopping").
"""
from __future__ import annotations

import asyncio
import logging
import re
import signal
import threading
import time
import uuid
from collections.abc import AsyncIterator, Callable
from types import FrameType
from typing import Any, TypeVar

from starlette.requests import Request
from starlette.responses import Response

from shared import metrics
from shared.auth import bearer_token_of
from shared.clock import SYSTEM_CLOCK
from shared.errors import ErrorCode, Forbidden, Unauthorized
from shared.logs import REQUEST_ID

from .asgi import Headers, HttpMiddleware, Scope

log = logging.getLogger("entente.http")

REQUEST_ID_HEADER = b"x-request-id"
_GOOD_REQUEST_ID = re.compile(r"^[A-Za-z0-9._:-]{1,100}$")
QUIET_ROUTES = frozenset({"/healthz", "/livez", "/metrics"})  # probes and scrapes: logged at debug level only


def request_id_of(scope: Scope) -> str:
    headers: Headers = scope.get("headers", [])
    for name, value in headers:
        if name == REQUEST_ID_HEADER:
            given = value.decode("latin-1").strip()
            if _GOOD_REQUEST_ID.match(given):
                return given
            break
    return uuid.uuid4().hex


# the framework's own pages: served by routes that do not put themselves in the scope
DOCUMENT_PATHS = frozenset({"/openapi.json", "/docs", "/docs/oauth2-redirect", "/redoc"})


def route_of(scope: Scope) -> str:
    route = scope.get("route")
    path = getattr(route, "path", None)
    if isinstance(path, str):
        return path
    return scope["path"] if scope.get("path") in DOCUMENT_PATHS else "unmatched"


class RequestObservability(HttpMiddleware):
    async def handle(self, scope: Scope, receive: Any, send: Any) -> None:
        request_id = request_id_of(scope)
        scope.setdefault("state", {})["request_id"] = request_id
        token = REQUEST_ID.set(request_id)
        started = time.perf_counter()
        status = 500  # unless a response starts

        async def send_with_id(message: dict[str, Any]) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                message["headers"] = [*message.get("headers", []), (REQUEST_ID_HEADER, request_id.encode())]
            await send(message)

        try:
            await self.app(scope, receive, send_with_id)
        finally:
            seconds = time.perf_counter() - started
            route, method = route_of(scope), scope.get("method", "")
            metrics.REQUESTS.labels(method, route, str(status)).inc()
            metrics.REQUEST_SECONDS.labels(method, route).observe(seconds)
            metrics.refresh_caches()
            game_id = scope.get("path_params", {}).get("game_id")
            level = (logging.DEBUG if route in QUIET_ROUTES and status < 400  # 503: load shed, not a failure
                     else logging.WARNING if status == 503 else logging.ERROR if status >= 500 else logging.INFO)
            log.log(level, "request", extra={
                "method": method, "route": route, "status": status, "duration_ms": round(seconds * 1000, 2),
                **({"game_id": game_id} if isinstance(game_id, str) and len(game_id) <= 64 else {})})
            REQUEST_ID.reset(token)


class Draining:
    """Whether this server has been told to stop: set by SIGTERM or SIGINT once ``watch`` has
    put its handler in front of the server's own (which still runs)."""

    def __init__(self) -> None:
        self.stopping = False
        self._callbacks: list[Callable[[], None]] = []
        self._loop: asyncio.AbstractEventLoop | None = None

    def on_stop(self, callback: Callable[[], None]) -> None:
        """Run ``callback`` on the server's event loop as soon as it is told to stop."""
        self._callbacks.append(callback)

    def _stopped(self) -> None:
        for callback in self._callbacks:
            try:
                callback()
            except Exception:  # one callback's failure must not keep the others from running
                log.exception("a stop callback failed")

    def watch(self) -> None:
        if threading.current_thread() is not threading.main_thread():
            return  # signals reach the main thread only (a test's server in a thread: never set)
        self._loop = asyncio.get_running_loop()
        for signum in (signal.SIGTERM, signal.SIGINT):
            previous = signal.getsignal(signum)
            if getattr(previous, "drains", False):
                continue  # in front already (another app of this process)

            def stop(received: int, frame: FrameType | None, previous: Any = previous) -> None:
                if not self.stopping and self._loop is not None and not self._loop.is_closed():
                    self._loop.call_soon_threadsafe(self._stopped)  # safe in a signal handler
                self.stopping = True
                if callable(previous):
                    previous(received, frame)

            stop.drains = True  # type: ignore[attr-defined]
            signal.signal(signum, stop)


DRAINING = Draining()


Chunk = TypeVar("Chunk", str, bytes)


async def live_stream(chunks: AsyncIterator[Chunk]) -> AsyncIterator[Chunk]:
    """``chunks``, counted in ``entente_open_streams`` while they are sent (their source ends
    them when the server stops: ``DRAINING.on_stop``)."""
    metrics.OPEN_STREAMS.inc()
    try:
        async for chunk in chunks:
            yield chunk
    finally:
        metrics.OPEN_STREAMS.dec()


def _bearer(request: Request) -> str | None:
    """The bearer token, None without one or with a malformed header (then refused as no token)."""
    authorization = request.headers.get("authorization")
    if authorization is None:
        return None
    try:
        return bearer_token_of(authorization)
    except Unauthorized:
        return None


async def metrics_endpoint(request: Request) -> Response:
    """The Prometheus text format, to the operator token or an allowed address."""
    state = request.app.state
    client = request.client.host if request.client else None
    if not metrics.may_read(_bearer(request), client, getattr(state, "operator_hash", None),
                            getattr(state, "metrics_networks", ()), getattr(state, "metrics_hash", None)):
        raise Forbidden("the metrics are for the metrics token (ENTENTE_METRICS_TOKEN), the operator token, or "
                        "the addresses in ENTENTE_METRICS_ALLOW",
                        code=ErrorCode.METRICS_NOT_ALLOWED, where="header.authorization")
    clock = getattr(state, "clock", None) or SYSTEM_CLOCK
    await metrics.refresh_from_store(state.store, clock.now())
    metrics.refresh_caches(force=True)
    return Response(metrics.exposition(), media_type=metrics.CONTENT_TYPE)
