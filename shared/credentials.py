"""Who a delegated token acts for: an account's session token, a bot token (the read side of
services/accounts, which issues them). Folds of the account and bot streams, and the reads that
resolve a presented token; the HTTP middleware (shared/http/middleware.py) uses these on every
request that carries such a token.

- A session token ``s.{account_id}.{secret}`` acts for the account; the account's stream keeps
  only its hash. Every seat the account took (``SeatLinked``) can be played with it.
- An API key ``k.{account_id}.{secret}`` acts for the account as a session does, for a bot
  playing the account's seats in every game, until revoked; the account's stream keeps its hash.
- A bot token ``b.{game_id}.{secret}`` acts for one seat of one game, until revoked; the game's
  ``bots-{game_id}`` stream keeps the hashes. The game id in the token tells where to look and
  lets a request for another game be refused before anything is read.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from shared.auth import hash_token, same_hash
from shared.events import Event, from_recorded
from shared.events_social import (
    AccountCreated,
    ApiKeyIssued,
    ApiKeyRevoked,
    BotTokenIssued,
    BotTokenRevoked,
    SeatLinked,
    SessionClosed,
    SessionOpened,
    account_stream,
    bots_stream,
)
from shared.store import EventStore


def session_account_id(token: str, kinds: tuple[str, ...] = ("s",)) -> str | None:
    """The account a session token (or, with ``kinds``, an API key ``k``) claims to belong to
    (checked against its hash later)."""
    kind, _, rest = token.partition(".")
    account_id, _, secret = rest.partition(".")
    return account_id if kind in kinds and account_id.startswith("a_") and secret else None


def is_api_key(token: str) -> bool:
    return token.startswith("k.")


@dataclass(frozen=True, slots=True)
class ApiKey:
    key_id: str
    token_hash: str
    label: str


def bot_game_id(token: str) -> str | None:
    """The game a bot token claims to be scoped to (checked against its hash later)."""
    kind, _, rest = token.partition(".")
    game_id, _, secret = rest.partition(".")
    return game_id if kind == "b" and game_id.startswith("g_") and secret else None


@dataclass(slots=True)
class Account:
    account_id: str
    provider: str
    provider_user_id: str
    name: str
    sessions: set[str] = field(default_factory=set)  # hashes of open session tokens
    seats: dict[str, str] = field(default_factory=dict)  # game_id -> player_id
    keys: dict[str, ApiKey] = field(default_factory=dict)  # key_id -> a live API key
    version: int = 0

    def has_session(self, token_hash: str) -> bool:
        return any(same_hash(token_hash, known) for known in self.sessions)

    def has_key(self, token_hash: str) -> bool:
        return any(same_hash(token_hash, key.token_hash) for key in self.keys.values())


def fold_account(events: Iterable[Event]) -> Account | None:
    account: Account | None = None
    count = 0
    for event in events:
        count += 1
        if isinstance(event, AccountCreated):
            account = Account(event.account_id, event.provider, event.provider_user_id, event.name)
        elif account is None:
            raise ValueError("an account stream must start with AccountCreated")
        elif isinstance(event, SessionOpened):
            account.sessions.add(event.token_hash)
            account.name = event.name
        elif isinstance(event, SessionClosed):
            account.sessions.discard(event.token_hash)
        elif isinstance(event, SeatLinked):
            account.seats.setdefault(event.game_id, event.player_id)
        elif isinstance(event, ApiKeyIssued):
            account.keys[event.key_id] = ApiKey(event.key_id, event.token_hash, event.label)
        elif isinstance(event, ApiKeyRevoked):
            account.keys.pop(event.key_id, None)
    if account is not None:
        account.version = count
    return account


@dataclass(frozen=True, slots=True)
class BotToken:
    token_id: str
    player_id: str
    token_hash: str
    label: str


def fold_bots(events: Iterable[Event]) -> dict[str, BotToken]:
    """The live (not revoked) bot tokens of a game, by token id."""
    live: dict[str, BotToken] = {}
    for event in events:
        if isinstance(event, BotTokenIssued):
            live[event.token_id] = BotToken(event.token_id, event.player_id, event.token_hash, event.label)
        elif isinstance(event, BotTokenRevoked):
            live.pop(event.token_id, None)
    return live


def bot_for_token(bots: dict[str, BotToken], token: str) -> BotToken | None:
    presented = hash_token(token)
    return next((b for b in bots.values() if same_hash(presented, b.token_hash)), None)


async def load_account(store: EventStore, account_id: str) -> Account | None:
    records = await store.events.read_stream(account_stream(account_id)) if len(account_id) <= 40 else []
    return fold_account(from_recorded(r) for r in records)


async def account_for_session(store: EventStore, token: str) -> Account | None:
    """The account whose open session ``token`` is, or None."""
    account_id = session_account_id(token)
    if account_id is None:
        return None
    account = await load_account(store, account_id)
    return account if account is not None and account.has_session(hash_token(token)) else None


async def account_for_token(store: EventStore, token: str) -> Account | None:
    """The account an open session or a live API key ``token`` acts for, or None."""
    if not is_api_key(token):
        return await account_for_session(store, token)
    account_id = session_account_id(token, ("k",))
    if account_id is None:
        return None
    account = await load_account(store, account_id)
    return account if account is not None and account.has_key(hash_token(token)) else None


async def load_bots(store: EventStore, game_id: str) -> dict[str, BotToken]:
    return fold_bots(from_recorded(r) for r in await store.events.read_stream(bots_stream(game_id)))
