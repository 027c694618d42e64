"""Where a notification may be sent: a webhook's URL (or a push endpoint) of the right form,
whose host leads to public addresses only (docs/social.md, "Notifications"); delivery checks
the addresses again at every attempt (addresses.py)."""
from __future__ import annotations

import ipaddress
import re
import socket
import string
from urllib.parse import urlsplit

import idna

from shared.errors import ErrorCode, Unprocessable
from shared.text import is_ascii_number

from .addresses import AddressRefused, Resolver, checked_addresses


def check_webhook_url(url: str, allow_private: bool) -> str:
    """The URL if it has the form of a webhook (docs/social.md, "Notifications"): https (or
    http too when ``allow_private``, for tests and closed networks), RFC 3986's characters only
    (an IDN host in its ``xn--`` form, the rest percent-encoded), no space or control
    character, a well-formed host (an IP literal or letters, digits and hyphens in labels of up
    to 63) and port, no user or password, no fragment. Nothing is trimmed or mended: what is
    stored is what the client sent. Where the host leads is :func:`accept_webhook_url`'s question."""
    problem = url_problem(url, ("http", "https") if allow_private else ("https",))
    if problem:
        raise Unprocessable(problem, code=ErrorCode.INVALID_WEBHOOK, where="body.url")
    return url


_URL_CHARACTERS = frozenset(string.ascii_letters + string.digits + "-._~:/?#[]@!$&'()*+,;=%")
_PERCENT = re.compile(r"%(?![0-9A-Fa-f]{2})")
_LABEL = re.compile(r"^(?!-)[A-Za-z0-9-]{1,63}(?<!-)$")


def url_problem(url: str, schemes: tuple[str, ...]) -> str | None:
    """Why ``url`` is not a webhook URL of one of ``schemes``, or None."""
    spaces = [c for c in url if c in " \t\n\r\x0b\x0c"]
    if spaces:
        return "a webhook URL holds no spaces (nothing is trimmed: send it without them)"
    odd = next((c for c in url if c not in _URL_CHARACTERS), None)
    if odd is not None:
        return (f"the character U+{ord(odd):04X} is not allowed in a URL (RFC 3986): write an international "
                "host in its xn-- form and percent-encode the rest")
    if _PERCENT.search(url):
        return "a percent sign in a URL starts a percent-encoding of two hex digits"
    try:
        parts = urlsplit(url)
    except ValueError as error:
        return f"a webhook URL needs a well-formed host ({error})"
    if parts.scheme.lower() not in schemes:
        return "a webhook URL must start with https://"
    if "#" in url:
        return "a webhook URL has no fragment (#...): it would never be sent"
    if "@" in parts.netloc:
        return "a webhook URL has no user or password"
    return _authority_problem(parts.netloc)


def _authority_problem(netloc: str) -> str | None:
    """The host and port of a URL's authority, checked as they are written."""
    if netloc.startswith("["):
        literal, closed, rest = netloc[1:].partition("]")
        host_problem = _ipv6_literal_problem(literal) if closed else "an IPv6 host is written [address]"
        port_text = rest[1:] if rest.startswith(":") else None
        if host_problem is None and rest and port_text is None:
            host_problem = f"a webhook URL needs a well-formed host, not {netloc!r}"
    else:
        host, colon, port_text_or_empty = netloc.rpartition(":") if ":" in netloc else (netloc, "", "")
        port_text = port_text_or_empty if colon else None
        host_problem = _name_problem(host)
    if host_problem is not None:
        return host_problem
    if port_text is not None and not (is_ascii_number(port_text) and len(port_text) <= 5
                                      and 1 <= int(port_text) <= 65535):
        return f"a webhook URL's port is a number from 1 to 65535, not {port_text!r}"
    return None


def _ipv6_literal_problem(literal: str) -> str | None:
    try:
        if "%" in literal:  # Python takes a zone ("fe80::1%eth0"); a webhook names no interface
            raise ValueError(literal)
        ipaddress.IPv6Address(literal)
    except ValueError:
        return f"a webhook URL needs a well-formed host: [{literal}] is no IPv6 address (zones are not allowed)"
    return None


def _name_problem(host: str) -> str | None:
    """A DNS name (or a numeric IPv4 form, judged by what it resolves to) as URLs write it."""
    name = host[:-1] if host.endswith(".") else host
    labels = name.split(".")
    if not name or len(name) > 253 or not all(_LABEL.match(label) for label in labels):
        return (f"a webhook URL needs a well-formed host: {host!r} is not a name of dot-separated labels "
                "of 1 to 63 letters, digits and inner hyphens")
    for label in labels:
        if label.lower().startswith("xn--"):
            try:
                idna.decode(label)
            except idna.IDNAError:
                return f"a webhook URL needs a well-formed host: {label!r} is no international label"
    return None


async def accept_webhook_url(url: str, allow_private: bool, resolver: Resolver = socket.getaddrinfo) -> str:
    """The URL if notifications may be sent there: of the right form, and its host resolving
    only to public addresses unless ``allow_private`` (delivery checks again at every attempt)."""
    url = check_webhook_url(url, allow_private)
    parts = urlsplit(url)
    try:
        port = parts.port or (443 if parts.scheme.lower() == "https" else 80)
        await checked_addresses(parts.hostname or "", port, allow_private, resolver)
    except (AddressRefused, ValueError) as error:
        raise Unprocessable(f"a webhook URL must point to a public host: {error}",
                            code=ErrorCode.INVALID_WEBHOOK, where="body.url") from error
    return url
