"""Rate limits as a route dependency: ``dependencies=[rate_limited("create")]`` counts one
action of the request's address and bearer token (shared/rates.py; docs/operations.md, "Rate
limits"), before the route reads its body or the store.
"""
from __future__ import annotations

from typing import Any

from fastapi import Depends, Request

from shared.auth import hash_token, same_hash
from shared.rates import ACTIONS, RateLimits, parse_rate


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


def _token_hash(request: Request) -> str | None:
    """The hash of the request's bearer token, as sent (None without one); a malformed header
    is left to the route, which answers 401."""
    scheme, _, token = request.headers.get("authorization", "").strip().partition(" ")
    token = token.strip()
    return hash_token(token) if scheme.lower() == "bearer" and token else None


def rate_limited(action: str) -> Any:
    """A route dependency counting one ``action`` (429 ``rate_limited`` past the limits)."""
    if action not in ACTIONS:  # pragma: no cover - the routes name their action
        raise ValueError(action)

    async def count(request: Request) -> None:
        limits = limits_of(request.app)
        if limits is None:
            return
        token_hash = _token_hash(request)
        if token_hash is not None and same_hash(token_hash, request.app.state.operator_hash):
            return
        limits.check(action, request.client.host if request.client else None, token_hash)

    return Depends(count)
