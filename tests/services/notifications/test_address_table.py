"""The SSRF table: which addresses a webhook may reach. Only global unicast, with the IPv4
address inside every IPv6 form that carries one judged as that IPv4 address; checked when the
webhook is registered and again at every delivery attempt (docs/social.md, "Notifications").
No connection is made: names resolve through a stand-in for getaddrinfo."""
from __future__ import annotations

import socket
from typing import Any

import pytest

from services.notifications.addresses import AddressRefused, is_public
from services.notifications.delivery import attempt
from services.notifications.outbox import Claimed
from services.notifications.pinned import webhook_client
from services.notifications.webhook_urls import accept_webhook_url
from shared.errors import Unprocessable

REFUSED = {
    # IPv4
    "0.0.0.0": "this network", "0.1.2.3": "this network", "10.0.0.1": "private", "100.64.0.1": "shared (CGN)",
    "127.0.0.1": "loopback", "127.255.255.254": "loopback", "169.254.169.254": "link-local (cloud metadata)",
    "172.16.0.1": "private", "172.31.255.255": "private", "192.0.0.8": "IETF protocol assignments",
    "192.0.2.1": "documentation", "192.88.99.1": "6to4 relay anycast", "192.168.1.1": "private",
    "198.18.0.1": "benchmarking", "198.51.100.7": "documentation", "203.0.113.9": "documentation",
    "224.0.0.1": "multicast", "239.255.255.250": "multicast (SSDP)", "240.0.0.1": "reserved",
    "255.255.255.255": "broadcast",
    # IPv6 of its own
    "::": "unspecified", "::1": "loopback", "fe80::1": "link-local", "fec0::1": "site-local (deprecated)",
    "fc00::1": "unique local", "fd12:3456::1": "unique local", "ff02::1": "multicast", "ff0e::1": "global multicast",
    "ff05::2": "site multicast", "100::1": "discard-only", "2001:db8::1": "documentation",
    "3fff::1": "documentation (RFC 9637)", "2001::1": "Teredo", "2001:2::1": "benchmarking",
    "2001:10::1": "ORCHID", "2001:20::1": "ORCHIDv2", "5f00::1": "SRv6 SIDs (not global unicast)",
    "4000::1": "not global unicast (outside 2000::/3)",
    # IPv6 forms that carry an IPv4 address
    "::ffff:127.0.0.1": "IPv4-mapped loopback", "::ffff:10.1.2.3": "IPv4-mapped private",
    "::ffff:169.254.169.254": "IPv4-mapped metadata", "::ffff:0.0.0.0": "IPv4-mapped this network",
    "::127.0.0.1": "IPv4-compatible loopback", "::10.0.0.1": "IPv4-compatible private",
    "::1.1.1.1": "IPv4-compatible (deprecated, never global)",
    "64:ff9b::7f00:1": "NAT64 of 127.0.0.1", "64:ff9b::a9fe:a9fe": "NAT64 of 169.254.169.254",
    "64:ff9b::a00:1": "NAT64 of 10.0.0.1", "64:ff9b::c058:6301": "NAT64 of 192.88.99.1",
    "64:ff9b:1::a00:1": "local-use NAT64", "64:ff9b:1::101:101": "local-use NAT64 (the site decides)",
    "2002:7f00:1::1": "6to4 of 127.0.0.1", "2002:a00:1::1": "6to4 of 10.0.0.1",
    "2002:c0a8:101::1": "6to4 of 192.168.1.1", "2002:a9fe:a9fe::": "6to4 of 169.254.169.254",
    "2002:e000:1::1": "6to4 of multicast",
}
ALLOWED = {
    "1.1.1.1": "public", "8.8.8.8": "public", "162.159.128.233": "Discord", "192.88.100.1": "next to the relay",
    "2606:4700::6810:84e5": "public", "2001:4860:4860::8888": "public", "2a00:1450:4001::1": "public",
    "::ffff:1.1.1.1": "IPv4-mapped public", "64:ff9b::101:101": "NAT64 of 1.1.1.1",
    "2002:808:808::1": "6to4 of 8.8.8.8",
}


def test_the_table_has_each_address_once() -> None:
    assert not set(REFUSED) & set(ALLOWED)


@pytest.mark.parametrize("address", sorted(REFUSED))
def test_refused(address: str) -> None:
    assert not is_public(address), REFUSED[address]


@pytest.mark.parametrize("address", sorted(ALLOWED))
def test_allowed(address: str) -> None:
    assert is_public(address), ALLOWED[address]


def resolving_to(address: str, calls: list[str]) -> Any:
    def getaddrinfo(host: str, port: int, *rest: Any) -> list[tuple[Any, ...]]:
        calls.append(host)
        if host != "hook.example":
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        family = socket.AF_INET6 if ":" in address else socket.AF_INET
        return [(family, socket.SOCK_STREAM, 6, "", (address, port))]

    return getaddrinfo


@pytest.mark.parametrize("address", sorted(REFUSED))
async def test_refused_at_registration_and_at_every_delivery(address: str) -> None:
    calls: list[str] = []
    resolver = resolving_to(address, calls)
    with pytest.raises(Unprocessable, match="public host"):
        await accept_webhook_url("https://hook.example/x", False, resolver)
    literal = f"[{address}]" if ":" in address else address
    with pytest.raises(Unprocessable):
        await accept_webhook_url(f"https://{literal}/x", False)
    async with webhook_client(False, resolver) as client:  # registered while it resolved elsewhere
        for _ in range(2):
            with pytest.raises(AddressRefused):
                await client.post("https://hook.example/x", json={})
        error, _ = await attempt(client, Claimed(1, "https://hook.example/x", {}, 1), 1.0, id_key=b"k" * 32)
    assert error is not None and error.startswith("refused: hook.example") and address in error
    assert calls.count("hook.example") == 4  # registration, then every attempt resolves and checks again


@pytest.mark.parametrize("address", sorted(ALLOWED))
async def test_allowed_at_registration(address: str) -> None:
    assert await accept_webhook_url("https://hook.example/x", False, resolving_to(address, [])) == \
        "https://hook.example/x"
