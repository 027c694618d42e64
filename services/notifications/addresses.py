"""Where a webhook may be sent: only to global (public) addresses, checked on the addresses the
host name resolves to, not on the URL's text, and checked again at every connection.

A URL's text says little: ``https://127.1/``, ``https://2130706433/`` or ``https://postgres/``
all reach internal machines, and a public name may resolve to a private address now or later
(DNS rebinding). So the host is resolved (``getaddrinfo``, injectable) and refused unless every
address is global; and delivery connects through :class:`PinnedBackend`, which resolves and
checks the host itself at each new connection and then connects to the very address it
checked, while the URL (and so the ``Host`` header and the TLS server name) stays the name
(services/notifications/pinned.py: the HTTP client, loaded by delivery, not by the API that
checks a URL as it is registered).
"""
from __future__ import annotations

import ipaddress
import socket
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import anyio

Resolver = Callable[..., Sequence[tuple[Any, ...]]]  # socket.getaddrinfo's signature and answer


class AddressRefused(Exception):
    """A webhook's host resolves to no address, or to one that is not public."""


def _networks(table: dict[str, str]) -> list[tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, str]]:
    return [(ipaddress.ip_network(network), why) for network, why in table.items()]


# IPv4 that is not global unicast (IANA's special-purpose registry, and multicast), written out
# here rather than left to the Python version's ``is_global``, which is checked as well
_NOT_GLOBAL_V4 = _networks({
    "0.0.0.0/8": "this network", "10.0.0.0/8": "private", "100.64.0.0/10": "shared address space",
    "127.0.0.0/8": "loopback", "169.254.0.0/16": "link-local", "172.16.0.0/12": "private",
    "192.0.0.0/24": "IETF protocol assignments", "192.0.2.0/24": "documentation",
    "192.88.99.0/24": "6to4 relay anycast", "192.168.0.0/16": "private", "198.18.0.0/15": "benchmarking",
    "198.51.100.0/24": "documentation", "203.0.113.0/24": "documentation", "224.0.0.0/4": "multicast",
    "240.0.0.0/4": "reserved",
})
_GLOBAL_UNICAST_V6 = ipaddress.IPv6Network("2000::/3")
_NOT_GLOBAL_V6 = _networks({
    "2001::/23": "IETF protocol assignments (Teredo, benchmarking, ORCHID)", "2001:db8::/32": "documentation",
    "3fff::/20": "documentation",
})
_MAPPED = ipaddress.IPv6Network("::ffff:0:0/96")
_NAT64 = ipaddress.IPv6Network("64:ff9b::/96")  # the well-known prefix: the IPv4 address is the last 32 bits
_SIX_TO_FOUR = ipaddress.IPv6Network("2002::/16")


def why_not_public(address: str) -> str | None:
    """Why a webhook may not be sent to ``address``, or None when it may: only global unicast.
    An IPv6 form that carries an IPv4 address (IPv4-mapped ``::ffff:a.b.c.d``, NAT64
    ``64:ff9b::/96``, 6to4 ``2002::/16``) is judged by that IPv4 address too; the deprecated
    IPv4-compatible ``::a.b.c.d``, the local-use NAT64 prefix ``64:ff9b:1::/48`` (the site
    decides where it leads), site-local ``fec0::/10`` and multicast are never global unicast."""
    ip = ipaddress.ip_address(address.split("%", 1)[0])  # drop an IPv6 zone ("fe80::1%eth0")
    if isinstance(ip, ipaddress.IPv4Address):
        return _ipv4_problem(ip)
    if ip in _MAPPED or ip in _NAT64:
        carried = ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
        problem = _ipv4_problem(carried)
        return None if problem is None else f"{'IPv4-mapped' if ip in _MAPPED else 'NAT64 of'} {carried}: {problem}"
    if ip not in _GLOBAL_UNICAST_V6:
        return "not global unicast (outside 2000::/3)"
    for network, why in _NOT_GLOBAL_V6:
        if ip in network:
            return why
    if not ip.is_global:
        return "not global"
    if ip.sixtofour is not None:
        problem = _ipv4_problem(ip.sixtofour)
        return None if problem is None else f"6to4 of {ip.sixtofour}: {problem}"
    return None


def _ipv4_problem(ip: ipaddress.IPv4Address) -> str | None:
    for network, why in _NOT_GLOBAL_V4:
        if ip in network:
            return why
    return None if ip.is_global else "not global"


def is_public(address: str) -> bool:
    """Whether a webhook may be sent to ``address`` (:func:`why_not_public`)."""
    return why_not_public(address) is None


async def resolve(host: str, port: int, resolver: Resolver = socket.getaddrinfo) -> list[str]:
    """The addresses ``host`` resolves to, in the resolver's order, without repeats."""
    try:
        answers = await anyio.to_thread.run_sync(resolver, host, port, 0, socket.SOCK_STREAM)
    except (OSError, UnicodeError) as error:
        raise AddressRefused(f"{host} cannot be resolved") from error
    addresses = list(dict.fromkeys(str(answer[4][0]) for answer in answers))
    if not addresses:
        raise AddressRefused(f"{host} cannot be resolved")
    return addresses


def refuse_private(host: str, addresses: Iterable[str]) -> None:
    """Raise unless every address is public (one private address is enough to refuse)."""
    private = [f"{address}: {why}" for address in addresses if (why := why_not_public(address)) is not None]
    if private:
        raise AddressRefused(f"{host} resolves to a non-public address ({'; '.join(private)})")


async def checked_addresses(host: str, port: int, allow_private: bool,
                            resolver: Resolver = socket.getaddrinfo) -> list[str]:
    """The addresses to connect to for ``host``: all public, unless ``allow_private``."""
    addresses = await resolve(host, port, resolver)
    if not allow_private:
        refuse_private(host, addresses)
    return addresses
