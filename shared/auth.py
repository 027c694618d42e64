"""Bearer tokens: a host token per game, a player token per seat, one operator token.

Tokens are random strings handed out once; the log keeps only their sha256 hashes. A request
proves who it is with ``Authorization: Bearer <token>``; the token is hashed and compared
with ``hmac.compare_digest`` against the hashes the game knows. No token: the public caller.
A token that matches nothing: 401. A known token used where its role is not enough: 403.
"""
from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Mapping
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Literal

from shared.errors import ErrorCode, Forbidden, Unauthorized

Role = Literal["public", "host", "player", "operator"]
MAX_TOKEN_LENGTH = 256


def bearer_token_of(authorization: str) -> str:
    """The token of an ``Authorization`` header's value, ``Bearer <token>`` (the scheme in any
    case, spaces around it ignored): the one reading of that header, for the request
    dependencies, the token middleware and the workers' metrics listener. 401 when the value
    has not that shape (``unauthorized``) or the token is longer than ``MAX_TOKEN_LENGTH``
    (``invalid_token``: no token of ours is)."""
    scheme, _, token = authorization.strip().partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token:
        raise Unauthorized("the Authorization header must be 'Bearer <token>'", where="header.authorization")
    if len(token) > MAX_TOKEN_LENGTH:
        raise Unauthorized("token not recognised", code=ErrorCode.INVALID_TOKEN, where="header.authorization")
    return token


def new_token() -> str:
    return secrets.token_urlsafe(32)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def same_hash(a: str, b: str) -> bool:
    return hmac.compare_digest(a.encode("ascii", "replace"), b.encode("ascii", "replace"))


@dataclass(frozen=True, slots=True)
class Caller:
    role: Role
    player_id: str | None = None
    via: Literal["account", "bot"] | None = None  # a player acting through an account or bot token

    @property
    def is_operator(self) -> bool:
        return self.role == "operator"


PUBLIC = Caller("public")


@dataclass(frozen=True, slots=True)
class Delegation:
    """A token that acts for seats without being a seat's own token: an account's session token
    (every seat the account took) or a bot token (one seat of one game). The HTTP middleware
    (shared/http/middleware.py) resolves it from the store before the endpoint runs and sets it
    with ``delegate``."""

    token_hash: str
    kind: Literal["account", "bot"]
    player_ids: frozenset[str]


_delegation: ContextVar[Delegation | None] = ContextVar("entente_delegation", default=None)


def delegate(delegation: Delegation | None) -> None:
    """Make ``delegation`` known to ``identify`` for the rest of this request's context."""
    _delegation.set(delegation)


def identify(token: str | None, *, operator_hash: str, host_hash: str | None = None,
             player_hashes: Mapping[str, str] | None = None) -> Caller:
    """Who holds ``token``: the operator, the game's host, one of its players, or nobody (401)."""
    if token is None:
        return PUBLIC
    presented = hash_token(token)
    if operator_hash and same_hash(presented, operator_hash):
        return Caller("operator")
    if host_hash and same_hash(presented, host_hash):
        return Caller("host")
    for player_id, player_hash in (player_hashes or {}).items():
        if same_hash(presented, player_hash):
            return Caller("player", player_id)
    delegated = _delegated_caller(presented, player_hashes or {})
    if delegated is not None:
        return delegated
    raise Unauthorized("token not recognised for this game", code=ErrorCode.INVALID_TOKEN,
                       where="header.authorization")


def _delegated_caller(presented: str, player_hashes: Mapping[str, str]) -> Caller | None:
    """The seat an account or bot token acts for in this game; None if it is no such token.
    An account without a seat here is the public caller; a bot token of another seat is 403."""
    delegation = _delegation.get()
    if delegation is None or not same_hash(presented, delegation.token_hash):
        return None
    for player_id in player_hashes:
        if player_id in delegation.player_ids:
            return Caller("player", player_id, via=delegation.kind)
    if delegation.kind == "bot":
        raise Forbidden("this bot token is scoped to one seat of another game", code=ErrorCode.OUT_OF_SCOPE,
                        where="header.authorization")
    return PUBLIC


def require(caller: Caller, *roles: Role) -> Caller:
    """``caller`` if its role is one of ``roles``; 401 for the public caller, 403 otherwise."""
    if caller.role in roles:
        return caller
    wanted = " or ".join(roles)
    if caller.role == "public":
        raise Unauthorized(f"this needs a {wanted} token", code=ErrorCode.TOKEN_REQUIRED,
                           where="header.authorization")
    raise Forbidden(f"this needs a {wanted} token, not a {caller.role} token", code=ErrorCode.WRONG_ROLE,
                    where="header.authorization")
