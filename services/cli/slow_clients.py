"""`entente serve`'s HTTP protocols: uvicorn's own (h11 or httptools), with a header timeout
and a connection cap (docs/hosting.md, "Slow clients").

uvicorn alone keeps a connection whose request headers trickle in byte by byte for ever: its
keep-alive timer runs only between requests and every byte received stops it, and no other
timer runs before a request's headers are complete (slowloris: 200 such connections held after
40 s). Here:

- **Header timeout**: a request's headers must be complete ENTENTE_HEADER_TIMEOUT_SECONDS after
  the connection opened, or after the first byte of a later request on a kept-alive
  connection (the idle time between requests is the keep-alive timer's, ``--keep-alive``);
  else the server answers 408 ``request_timeout`` and closes the connection.
- **Connection cap**: while ENTENTE_MAX_CONNECTIONS connections are open, a new one's request
  is answered 503 ``too_many_connections`` with ``Retry-After`` and the connection closed, without
  running the app; the cap holds the server's file descriptors and memory, and the header
  timeout frees the places that slow clients hold. The cap is per process.

The settings reach the protocols through the environment (``serve`` sets both variables before
uvicorn starts, so that the ``--workers`` processes read the same).
"""
from __future__ import annotations

import asyncio
import json
import os
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol

from shared.errors import DomainError, ErrorCode

HEADER_TIMEOUT_VARIABLE = "ENTENTE_HEADER_TIMEOUT_SECONDS"
MAX_CONNECTIONS_VARIABLE = "ENTENTE_MAX_CONNECTIONS"
RETRY_AFTER_SECONDS = 1


def _number(variable: str, default: float) -> float:
    try:
        return float(os.environ.get(variable, default))
    except ValueError:  # serve checked the settings: only a hand-set variable gets here
        return default


class RequestTimeout(DomainError):
    status_code = 408
    code = ErrorCode.REQUEST_TIMEOUT


class TooManyConnections(DomainError):
    status_code = 503
    code = ErrorCode.TOO_MANY_CONNECTIONS
    retry_after = RETRY_AFTER_SECONDS


def error_bytes(error: DomainError) -> bytes:
    """The error body of the API (shared/errors.py), for an answer written below the app."""
    return json.dumps(error.body()).encode()


TIMED_OUT = error_bytes(RequestTimeout("the request's headers did not arrive in time; the connection is closed"))
TIMED_OUT_RESPONSE = (b"HTTP/1.1 408 Request Timeout\r\ncontent-type: application/json\r\nconnection: close\r\n"
                      b"content-length: " + str(len(TIMED_OUT)).encode() + b"\r\n\r\n" + TIMED_OUT)
BUSY = error_bytes(TooManyConnections("the server holds as many connections as it takes; try again shortly"))


async def too_many_connections(scope: Any, receive: Any, send: Any) -> None:
    """The app of a connection over the cap: 503 with the error body, and the connection closed."""
    await send({"type": "http.response.start", "status": 503,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(BUSY)).encode()),
                            (b"retry-after", str(RETRY_AFTER_SECONDS).encode()), (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": BUSY})


class HeaderDeadline:
    """Mixed into a uvicorn HTTP protocol (before it in the bases)."""

    transport: asyncio.Transport
    loop: asyncio.AbstractEventLoop
    connections: set[Any]
    cycle: Any
    app: Any
    _header_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)  # type: ignore[misc]
        if len(self.connections) > _number(MAX_CONNECTIONS_VARIABLE, 1000):
            self.app = too_many_connections  # this connection's request only (one protocol a connection)
        self._start_header_timer()

    def data_received(self, data: bytes) -> None:
        before = self.cycle
        super().data_received(data)  # type: ignore[misc]
        if self.cycle is not before or self._in_request():
            self._stop_header_timer()  # a request's headers are in: its body and answer are not timed here
        elif self._header_timer is None and not self.transport.is_closing():
            self._start_header_timer()  # the first bytes of a request on a kept-alive connection

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_header_timer()
        super().connection_lost(exc)  # type: ignore[misc]

    def _in_request(self) -> bool:
        return self.cycle is not None and not self.cycle.response_complete

    def _start_header_timer(self) -> None:
        self._stop_header_timer()
        self._header_timer = self.loop.call_later(_number(HEADER_TIMEOUT_VARIABLE, 10.0), self._headers_too_slow)

    def _stop_header_timer(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _headers_too_slow(self) -> None:
        self._header_timer = None
        if self.transport.is_closing() or self._in_request():
            return
        self.transport.write(TIMED_OUT_RESPONSE)
        self.transport.close()


class H11WithDeadline(HeaderDeadline, H11Protocol):
    """uvicorn's h11 protocol with the header timeout and the connection cap."""


try:
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
except ImportError:  # pragma: no cover - httptools is optional (uvicorn[standard])
    HttpToolsProtocol = None  # type: ignore[assignment,misc]
else:
    class HttpToolsWithDeadline(HeaderDeadline, HttpToolsProtocol):
        """uvicorn's httptools protocol with the header timeout and the connection cap."""


def protocol_for(choice: str) -> str:
    """The import string of the protocol for ``--http`` (auto: httptools when installed)."""
    if choice == "h11" or (choice == "auto" and HttpToolsProtocol is None):
        return "services.cli.slow_clients:H11WithDeadline"
    return "services.cli.slow_clients:HttpToolsWithDeadline"
