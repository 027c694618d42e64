"""Rate limits as a route dependency: ``dependencies=[rate_limited("create")]`` counts one
action of the request's address and bearer token (shared/rates.py; docs/operations.md, "Rate
limits"), before the route reads its body or the store.
"""
from __future__ import annotations

from typing import Any

from fastapi import Depends, Request

from shared.auth import bearer_token_of, hash_token, same_hash
from shared.errors import Unauthorized
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


def count_action(request: Request, action: str, token_hash: str | None) -> None:
    """Count one ``action`` of the request's address and of the token hashed ``token_hash``
    (429 ``rate_limited`` past the limits; the operator's token is never counted)."""
    limits = limits_of(request.app)
    if limits is None:
        return
    counted: set[str] = request.scope.setdefault(COUNTED, set())
    if action in counted:  # counted already, before the body was read (route_bodies.py)
        return
    counted.add(action)
    if token_hash is not None and same_hash(token_hash, request.app.state.operator_hash):
        return
    limits.check(action, request.client.host if request.client else None, token_hash)


def rate_limited(action: str) -> Any:
    """A route dependency counting one ``action`` (429 ``rate_limited`` past the limits)."""
    if action not in ACTIONS:  # pragma: no cover - the routes name their action
        raise ValueError(action)

    async def count(request: Request) -> None:
        count_action(request, action, token_hash_of(request))

    setattr(count, RATE_ACTION, action)
    return Depends(count)
