"""The client that delivers webhooks, connecting only to the addresses it checked
(services/notifications/addresses.py says why): httpcore's network backend resolves and checks
each host itself at every new connection, then connects to the very address it checked.

Apart from addresses.py so that the API, which checks a URL as it is registered, does not load
httpx and httpcore: about 60 ms of CPU at every server's start (docs/testing.md, "A server's
start").
"""
from __future__ import annotations

import socket
import ssl
from typing import Any

import anyio
import httpcore
import httpx

from .addresses import AddressRefused, Resolver, checked_addresses


class PinnedBackend(httpcore.AsyncNetworkBackend):
    """httpcore's network backend that resolves and checks each host itself, then connects to
    an address it checked (never letting the connection resolve the name again)."""

    def __init__(self, allow_private: bool, resolver: Resolver = socket.getaddrinfo) -> None:
        self.allow_private = allow_private
        self.resolver = resolver
        self._inner = httpcore.AnyIOBackend()

    async def connect_tcp(self, host: str, port: int, timeout: float | None = None,
                          local_address: str | None = None, socket_options: Any = None) -> httpcore.AsyncNetworkStream:
        try:
            with anyio.fail_after(timeout):
                addresses = await checked_addresses(host, port, self.allow_private, self.resolver)
        except TimeoutError as error:
            raise httpcore.ConnectTimeout(f"resolving {host} took too long") from error
        failure: Exception | None = None
        for address in addresses:
            try:
                return await self._inner.connect_tcp(address, port, timeout, local_address, socket_options)
            except httpcore.ConnectError as error:  # try the next address, as a resolver-driven connect would
                failure = error
        assert failure is not None
        raise failure

    async def connect_unix_socket(self, path: str, timeout: float | None = None,
                                  socket_options: Any = None) -> httpcore.AsyncNetworkStream:
        raise AddressRefused("webhooks are not sent over unix sockets")

    async def sleep(self, seconds: float) -> None:
        await self._inner.sleep(seconds)


class PinnedTransport(httpx.AsyncHTTPTransport):
    """httpx's transport over a :class:`PinnedBackend`; no proxy, and no kept-alive connection,
    so every delivery attempt resolves and checks its host again."""

    def __init__(self, allow_private: bool, resolver: Resolver = socket.getaddrinfo,
                 ssl_context: ssl.SSLContext | None = None) -> None:
        super().__init__(trust_env=False)
        # httpx takes no network backend, so its pool is rebuilt here with ours
        self._pool = httpcore.AsyncConnectionPool(
            ssl_context=ssl_context or httpx.create_ssl_context(),
            max_keepalive_connections=0, network_backend=PinnedBackend(allow_private, resolver))


def webhook_client(allow_private: bool, resolver: Resolver = socket.getaddrinfo,
                   ssl_context: ssl.SSLContext | None = None) -> httpx.AsyncClient:
    """The client that delivers webhooks: checked and pinned addresses, no redirects, no proxy
    from the environment (it would connect for us to an address we never checked)."""
    return httpx.AsyncClient(transport=PinnedTransport(allow_private, resolver, ssl_context),
                             follow_redirects=False, trust_env=False)
