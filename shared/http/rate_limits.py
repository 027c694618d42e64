"""Rate limits as a route dependency: ``dependencies=[rate_limited("create")]`` counts one
action of the request's address and bearer token (shared/rates.py; docs/operations.md, "Rate
limits"), before the route reads its body or the store. The address is the client's as the
connection or a trusted proxy says (``client_address``); every limit is counted in the store,
one for every process (shared/http/shared_limits.py), unless ENTENTE_RATE_LIMITS_SHARED=false.
"""
from __future__ import annotations

from ipaddress import IPv4Network, IPv6Network, ip_address
from typing import Any

from fastapi import Depends, Request

from shared.auth import bearer_token_of, hash_token, same_hash
from shared.errors import TooManyRequests, Unauthorized
from shared.rates import ACTIONS, RateLimits, address_key, parse_rate

from .shared_limits import SHARED_ACTIONS, SharedBuckets, count_in_store


def limits_of(app: Any) -> RateLimits | None:
    """The app's limits, made from its settings the first time (None: switched off)."""
    settings = app.state.settings
    if not settings.rate_limits:
        return None
    found: RateLimits | None = getattr(app.state, "rate_limits", None)
    if found is None:
        found = app.state.rate_limits = RateLimits(
            {action: parse_rate(getattr(settings, f"rate_{action}_per_address")) for action in ACTIONS},
            {action: parse_rate(getattr(settings, f"rate_{action}_per_token")) for action in ACTIONS},
            settings.rate_limit_networks())
    return found


def bearer_or_refusal(request: Request) -> tuple[str | None, Unauthorized | None]:
    """The request's bearer token, or the 401 its malformed header gets (both None without
    one): a limit counts the request by its address before the refusal is answered."""
    authorization = request.headers.get("authorization")
    if authorization is None:
        return None, None
    try:
        return bearer_token_of(authorization), None
    except Unauthorized as refusal:
        return None, refusal


RATE_ACTION = "rate_action"  # the attribute naming the action a dependency counts (shared/http/route_bodies.py)
COUNTED = "entente.rate_counted"  # the request scope's set of the actions already counted


def token_hash_of(request: Request) -> str | None:
    token, _ = bearer_or_refusal(request)
    return hash_token(token) if token else None


def client_address(request: Request) -> str | None:
    """The client's address: the connection's own, unless it is one of ENTENTE_TRUSTED_PROXIES;
    then the last address of ``X-Forwarded-For`` that is no trusted proxy (what the proxy saw:
    deploy/nginx.conf sets the header to the address it was connected from, so what a client
    writes there itself is never read). Anything else's header is ignored."""
    peer = request.client.host if request.client else None
    trusted = _trusted(request.app)
    if not trusted or not _within(peer, trusted):
        return peer
    for entry in reversed(request.headers.get("x-forwarded-for", "").split(",")):
        candidate = entry.strip()
        if candidate and not _within(candidate, trusted):
            try:
                return str(ip_address(candidate))
            except ValueError:
                return peer  # not an address: the header is not the proxy's
    return peer


def _trusted(app: Any) -> tuple[IPv4Network | IPv6Network, ...]:
    found: tuple[IPv4Network | IPv6Network, ...] | None = getattr(app.state, "trusted_proxies", None)
    if found is None:
        found = app.state.trusted_proxies = app.state.settings.trusted_proxy_networks()
    return found


def _within(address: str | None, networks: tuple[IPv4Network | IPv6Network, ...]) -> bool:
    if not address:
        return False
    try:
        parsed = ip_address(address)
    except ValueError:
        return False
    return any(parsed in network for network in networks)


def _first_count(request: Request, action: str, token_hash: str | None) -> RateLimits | None:
    """The limits to count ``action`` against, or None: switched off, counted already in this
    request, or the operator's token."""
    limits = limits_of(request.app)
    if limits is None:
        return None
    counted: set[str] = request.scope.setdefault(COUNTED, set())
    if action in counted:  # counted already, before the body was read (route_bodies.py)
        return None
    counted.add(action)
    if token_hash is not None and same_hash(token_hash, request.app.state.operator_hash):
        return None
    return limits


async def count_request(request: Request, action: str, token_hash: str | None) -> None:
    """Count one ``action`` of the request's address and of the token hashed ``token_hash``
    (429 ``rate_limited`` past the limits; the operator's token is never counted): in the
    store, one limit for every process and replica (shared/http/shared_limits.py), unless
    ENTENTE_RATE_LIMITS_SHARED=false (then in this process). The per-address limit of an action
    anyone may take without an account (creating a game, taking a seat) is counted in the log."""
    limits = _first_count(request, action, token_hash)
    if limits is None:
        return
    address = client_address(request)
    settings = request.app.state.settings
    in_log = action in SHARED_ACTIONS
    checks = limits.checks(action, None if in_log else address, token_hash)
    if settings.rate_limits_shared:
        await _shared_buckets(request.app).count(request.app.state.store, action, checks, settings.operator_secret())
    else:
        limits.check(action, None if in_log else address, token_hash)
    rate, key = limits.per_address.get(action), address_key(address)
    if not in_log or rate is None or key is None or limits.exempts(address):
        return
    try:
        await count_in_store(request.app.state.store, action, key, rate, settings.operator_secret())
    except TooManyRequests:  # a refused request counts nowhere
        if settings.rate_limits_shared:
            await _shared_buckets(request.app).give_back(request.app.state.store, checks,
                                                         settings.operator_secret())
        else:
            limits.give_back_token(action, token_hash)
        raise


def _shared_buckets(app: Any) -> SharedBuckets:
    found: SharedBuckets | None = getattr(app.state, "shared_buckets", None)
    if found is None:
        found = app.state.shared_buckets = SharedBuckets()
    return found


def rate_limited(action: str) -> Any:
    """A route dependency counting one ``action`` (429 ``rate_limited`` past the limits)."""
    if action not in ACTIONS:  # pragma: no cover - the routes name their action
        raise ValueError(action)

    async def count(request: Request) -> None:
        await count_request(request, action, token_hash_of(request))

    setattr(count, RATE_ACTION, action)
    return Depends(count)
