"""`entente serve`'s HTTP protocols: uvicorn's own (h11 or httptools), with header and body
timeouts and connection caps (docs/hosting.md, "Slow clients").

uvicorn alone keeps a connection whose request headers trickle in byte by byte for ever: its
keep-alive timer runs only between requests and every byte received stops it, and no other
timer runs before a request's headers are complete (slowloris: 200 such connections held after
40 s). Here:

- **Header timeout**: a request's headers must be complete ENTENTE_HEADER_TIMEOUT_SECONDS after
  the connection opened, or after the first byte of a later request on a kept-alive
  connection (the idle time between requests is the keep-alive timer's, ``--keep-alive``);
  else the server answers 408 ``request_timeout`` and closes the connection.
- **Body timeout**: once a request's headers are in, its whole body must have arrived within
  ENTENTE_BODY_TIMEOUT_SECONDS (a deadline, not an idle timer: a byte every few seconds does not
  keep it open); else 408 ``request_timeout`` (if no answer has started) and the connection is
  closed. A request without a body is complete with its headers and never timed.
- **Connection cap**: while ENTENTE_MAX_CONNECTIONS connections are open, a new one's request
  is answered 503 ``too_many_connections`` with ``Retry-After`` and the connection closed, without
  running the app; the cap holds the server's file descriptors and memory, and the header
  timeout frees the places that slow clients hold. The cap is per process.
- **Connections per address**: one address holds at most ENTENTE_MAX_CONNECTIONS_PER_ADDRESS of
  them (a request on one more: the same 503), so that one client cannot take every place; the
  addresses of ENTENTE_TRUSTED_PROXIES (a proxy carries everyone's connections) are not capped.

The settings reach the protocols through the environment (``serve`` sets the variables before
uvicorn starts, so that the ``--workers`` processes read the same).
"""
from __future__ import annotations

import asyncio
import json
import os
from functools import lru_cache
from ipaddress import IPv4Network, IPv6Network, ip_address, ip_network
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol

from shared.errors import DomainError, ErrorCode

HEADER_TIMEOUT_VARIABLE = "ENTENTE_HEADER_TIMEOUT_SECONDS"
BODY_TIMEOUT_VARIABLE = "ENTENTE_BODY_TIMEOUT_SECONDS"
MAX_CONNECTIONS_VARIABLE = "ENTENTE_MAX_CONNECTIONS"
PER_ADDRESS_VARIABLE = "ENTENTE_MAX_CONNECTIONS_PER_ADDRESS"
TRUSTED_PROXIES_VARIABLE = "ENTENTE_TRUSTED_PROXIES"
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


def _timed_out_response(what: str) -> bytes:
    body = error_bytes(RequestTimeout(f"the request's {what} did not arrive in time; the connection is closed"))
    return (b"HTTP/1.1 408 Request Timeout\r\ncontent-type: application/json\r\nconnection: close\r\n"
            b"content-length: " + str(len(body)).encode() + b"\r\n\r\n" + body)


TIMED_OUT_RESPONSE = _timed_out_response("headers")
BODY_TIMED_OUT_RESPONSE = _timed_out_response("body")
BUSY = error_bytes(TooManyConnections("the server holds as many connections as it takes; try again shortly"))
BUSY_HERE = error_bytes(TooManyConnections("this address holds as many connections as one address may; "
                                           "try again shortly", where="request"))


def _refusing(body: bytes) -> Any:
    async def refuse(scope: Any, receive: Any, send: Any) -> None:
        """The app of a connection over a cap: 503 with the error body, and the connection closed."""
        await send({"type": "http.response.start", "status": 503,
                    "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                                (b"retry-after", str(RETRY_AFTER_SECONDS).encode()), (b"connection", b"close")]})
        await send({"type": "http.response.body", "body": body})

    return refuse


too_many_connections = _refusing(BUSY)
too_many_from_address = _refusing(BUSY_HERE)
_OPEN_BY_ADDRESS: dict[str, int] = {}  # this process's connections, by peer address


@lru_cache(maxsize=4)
def _trusted(text: str) -> tuple[IPv4Network | IPv6Network, ...]:
    networks = []
    for entry in filter(None, (part.strip() for part in text.split(","))):
        try:
            networks.append(ip_network(entry, strict=False))
        except ValueError:  # serve checked the settings: only a hand-set variable gets here
            continue
    return tuple(networks)


def _capped(address: str) -> bool:
    """Whether ``address``'s connections are capped (not one of the trusted proxies)."""
    try:
        parsed = ip_address(address)
    except ValueError:
        return True
    return not any(parsed in network for network in _trusted(os.environ.get(TRUSTED_PROXIES_VARIABLE, "")))


class HeaderDeadline:
    """Mixed into a uvicorn HTTP protocol (before it in the bases)."""

    transport: asyncio.Transport
    loop: asyncio.AbstractEventLoop
    connections: set[Any]
    cycle: Any
    app: Any
    _header_timer: asyncio.TimerHandle | None = None
    _body_timer: asyncio.TimerHandle | None = None
    _address: str | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)  # type: ignore[misc]
        if len(self.connections) > _number(MAX_CONNECTIONS_VARIABLE, 1000):
            self.app = too_many_connections  # this connection's request only (one protocol a connection)
        peer = transport.get_extra_info("peername")
        address = peer[0] if isinstance(peer, tuple) and peer else None
        if isinstance(address, str) and _capped(address):
            self._address = address
            held = _OPEN_BY_ADDRESS[address] = _OPEN_BY_ADDRESS.get(address, 0) + 1
            if held > _number(PER_ADDRESS_VARIABLE, 64):
                self.app = too_many_from_address
        self._start_header_timer()

    def data_received(self, data: bytes) -> None:
        before = self.cycle
        super().data_received(data)  # type: ignore[misc]
        if self.cycle is not before or self._in_request():
            self._stop_header_timer()  # a request's headers are in: its body is timed apart
            if self.cycle is not before:
                self._start_body_timer()
            if not self._body_pending():
                self._stop_body_timer()
        elif self._header_timer is None and not self.transport.is_closing():
            self._start_header_timer()  # the first bytes of a request on a kept-alive connection

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_header_timer()
        self._stop_body_timer()
        if self._address is not None:
            left = _OPEN_BY_ADDRESS.get(self._address, 1) - 1
            if left > 0:
                _OPEN_BY_ADDRESS[self._address] = left
            else:
                _OPEN_BY_ADDRESS.pop(self._address, None)
            self._address = None
        super().connection_lost(exc)  # type: ignore[misc]

    def _in_request(self) -> bool:
        return self.cycle is not None and not self.cycle.response_complete

    def _body_pending(self) -> bool:
        return self.cycle is not None and bool(getattr(self.cycle, "more_body", False))

    def _start_header_timer(self) -> None:
        self._stop_header_timer()
        self._header_timer = self.loop.call_later(_number(HEADER_TIMEOUT_VARIABLE, 10.0), self._headers_too_slow)

    def _stop_header_timer(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _start_body_timer(self) -> None:
        self._stop_body_timer()
        if self._body_pending():
            self._body_timer = self.loop.call_later(_number(BODY_TIMEOUT_VARIABLE, 30.0), self._body_too_slow)

    def _stop_body_timer(self) -> None:
        if self._body_timer is not None:
            self._body_timer.cancel()
            self._body_timer = None

    def _headers_too_slow(self) -> None:
        self._header_timer = None
        if self.transport.is_closing() or self._in_request():
            return
        self.transport.write(TIMED_OUT_RESPONSE)
        self.transport.close()

    def _body_too_slow(self) -> None:
        self._body_timer = None
        if self.transport.is_closing() or not self._body_pending():
            return
        if not getattr(self.cycle, "response_started", True):
            self.transport.write(BODY_TIMED_OUT_RESPONSE)
        self.transport.close()


class H11WithDeadline(HeaderDeadline, H11Protocol):
    """uvicorn's h11 protocol with the header and body timeouts and the connection caps."""


try:
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
except ImportError:  # pragma: no cover - httptools is optional (uvicorn[standard])
    HttpToolsProtocol = None  # type: ignore[assignment,misc]
else:
    class HttpToolsWithDeadline(HeaderDeadline, HttpToolsProtocol):
        """uvicorn's httptools protocol with the header and body timeouts and the connection caps."""


def protocol_for(choice: str) -> str:
    """The import string of the protocol for ``--http`` (auto: httptools when installed)."""
    if choice == "h11" or (choice == "auto" and HttpToolsProtocol is None):
        return "services.cli.slow_clients:H11WithDeadline"
    return "services.cli.slow_clients:HttpToolsWithDeadline"
