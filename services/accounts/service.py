"""Accounts, their sessions and seats, and bot tokens: decisions over the event store.

- An account is created at its first sign-in; its id is derived from the provider's user id,
  so two racing first sign-ins of one user clash on ``account-{id}`` version 0 (one wins).

The tokens' forms and what each acts for are described once, in shared/credentials.py (the
read side that resolves them on every request).
"""
from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass

from shared.auth import hash_token
from shared.credentials import Account, ApiKey, BotToken, fold_account, fold_bots
from shared.errors import Conflict, ErrorCode, NotFound
from shared.events import Event, EventMetadata, from_recorded, to_new_event
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
    members_stream,
)
from shared.store import ConcurrencyError, EventStore

MAX_BOT_TOKENS_PER_SEAT = 10


# ----------------------------------------------------------------------------- tokens, pure

def account_id_for(provider: str, provider_user_id: str) -> str:
    digest = hashlib.sha256(f"{provider}:{provider_user_id}".encode()).hexdigest()
    return "a_" + digest[:16]


def new_session_token(account_id: str) -> str:
    return f"s.{account_id}.{secrets.token_urlsafe(32)}"


def new_bot_token(game_id: str) -> str:
    return f"b.{game_id}.{secrets.token_urlsafe(32)}"


# ----------------------------------------------------------------------------- store

@dataclass(frozen=True)
class SignedIn:
    account: Account
    token: str


async def sign_in(store: EventStore, provider: str, provider_user_id: str, name: str,
                  metadata: EventMetadata | None = None) -> SignedIn:
    """Find or create the provider user's account and open a session for it."""
    account_id = account_id_for(provider, provider_user_id)
    token = new_session_token(account_id)
    opened = SessionOpened(token_hash=hash_token(token), name=name)
    stream = account_stream(account_id)
    for attempt in (1, 2):
        try:
            async with store.transaction() as tx:
                version = await tx.events.stream_version(stream)
                new: list[Event] = []
                if version == 0:  # only the creation needs the version check: one account per user
                    new.append(AccountCreated(account_id=account_id, provider=provider,
                                              provider_user_id=provider_user_id, name=name))
                new.append(opened)
                await tx.events.append(stream, [to_new_event(e, metadata) for e in new],
                                       expected_version=0 if version == 0 else None)
                account = fold_account(from_recorded(r) for r in await tx.events.read_stream(stream))
            break
        except ConcurrencyError:
            if attempt == 2:
                raise
            # a first sign-in of the same user raced this one and created the account: open the
            # session on it
    assert account is not None
    return SignedIn(account, token)


async def sign_out(store: EventStore, account: Account, token: str) -> None:
    async with store.transaction() as tx:
        await tx.events.append(account_stream(account.account_id),
                               [to_new_event(SessionClosed(token_hash=hash_token(token)))], expected_version=None)


async def seat_accounts(store: EventStore, game_id: str) -> dict[str, str]:
    """player_id -> account_id for the seats of a game that accounts took."""
    linked = (from_recorded(r) for r in await store.events.read_stream(members_stream(game_id)))
    return {e.player_id: e.account_id for e in linked if isinstance(e, SeatLinked)}


@dataclass(frozen=True)
class IssuedBot:
    bot: BotToken
    token: str


async def issue_bot_token(store: EventStore, game_id: str, player_id: str, label: str,
                          metadata: EventMetadata | None = None) -> IssuedBot:
    token = new_bot_token(game_id)
    issued = BotTokenIssued(token_id="bt_" + secrets.token_hex(6), player_id=player_id,
                            token_hash=hash_token(token), label=label)
    async with store.transaction() as tx:
        stream = bots_stream(game_id)
        records = await tx.events.read_stream(stream)
        live = fold_bots(from_recorded(r) for r in records)
        if sum(1 for b in live.values() if b.player_id == player_id) >= MAX_BOT_TOKENS_PER_SEAT:
            raise Conflict(f"a seat may hold at most {MAX_BOT_TOKENS_PER_SEAT} bot tokens; revoke one first",
                           code=ErrorCode.TOO_MANY_BOT_TOKENS)
        await tx.events.append(stream, [to_new_event(issued, metadata)], expected_version=len(records))
    bot = BotToken(issued.token_id, player_id, issued.token_hash, label)
    return IssuedBot(bot, token)


async def revoke_bot_token(store: EventStore, game_id: str, player_id: str, token_id: str,
                           metadata: EventMetadata | None = None) -> None:
    """Revoke one of the seat's bot tokens; another seat's token is as unknown as a missing one."""
    async with store.transaction() as tx:
        stream = bots_stream(game_id)
        records = await tx.events.read_stream(stream)
        bot = fold_bots(from_recorded(r) for r in records).get(token_id)
        if bot is None or bot.player_id != player_id:
            raise NotFound(f"no live bot token {token_id!r} for this seat", code=ErrorCode.BOT_TOKEN_NOT_FOUND,
                           where="path.token_id")
        await tx.events.append(stream, [to_new_event(BotTokenRevoked(token_id=token_id), metadata)],
                               expected_version=len(records))


# ----------------------------------------------------------------------------- API keys

MAX_API_KEYS = 10  # live keys per account
OPERATOR_PROVIDER = "operator"  # accounts an operator made with `entente api-key create` (no sign-in)


async def ensure_operator_account(store: EventStore, name: str, metadata: EventMetadata | None = None) -> Account:
    """The account an operator names (``entente api-key create --account NAME``), made at its
    first use: a server without sign-in can still give a bot an account to play its seats with.
    Its id is derived from the name as a provider's user's is from theirs."""
    account_id = account_id_for(OPERATOR_PROVIDER, name)
    stream = account_stream(account_id)
    for attempt in (1, 2):
        try:
            async with store.transaction() as tx:
                if await tx.events.stream_version(stream) == 0:
                    created = AccountCreated(account_id=account_id, provider=OPERATOR_PROVIDER,
                                             provider_user_id=name, name=name)
                    await tx.events.append(stream, [to_new_event(created, metadata)], expected_version=0)
                account = fold_account(from_recorded(r) for r in await tx.events.read_stream(stream))
            break
        except ConcurrencyError:
            if attempt == 2:
                raise
    assert account is not None
    return account


def new_api_key(account_id: str) -> str:
    return f"k.{account_id}.{secrets.token_urlsafe(32)}"


async def issue_api_key(store: EventStore, account_id: str, label: str,
                        metadata: EventMetadata | None = None) -> tuple[ApiKey, str]:
    """A new API key of the account (its hash stored, the key itself returned once)."""
    key = new_api_key(account_id)
    issued = ApiKeyIssued(key_id="ak_" + secrets.token_hex(6), token_hash=hash_token(key), label=label)
    async with store.transaction() as tx:
        stream = account_stream(account_id)
        records = await tx.events.read_stream(stream)
        account = fold_account(from_recorded(r) for r in records)
        if account is not None and len(account.keys) >= MAX_API_KEYS:
            raise Conflict(f"an account may hold at most {MAX_API_KEYS} API keys; revoke one first",
                           code=ErrorCode.TOO_MANY_API_KEYS)
        await tx.events.append(stream, [to_new_event(issued, metadata)], expected_version=len(records))
    return ApiKey(issued.key_id, issued.token_hash, label), key


async def revoke_api_key(store: EventStore, account_id: str, key_id: str,
                         metadata: EventMetadata | None = None) -> None:
    """Revoke one of the account's API keys: it stops working at once."""
    async with store.transaction() as tx:
        stream = account_stream(account_id)
        records = await tx.events.read_stream(stream)
        account = fold_account(from_recorded(r) for r in records)
        if account is None or key_id not in account.keys:
            raise NotFound(f"no live API key {key_id!r} of this account", code=ErrorCode.API_KEY_NOT_FOUND,
                           where="path.key_id")
        await tx.events.append(stream, [to_new_event(ApiKeyRevoked(key_id=key_id), metadata)],
                               expected_version=len(records))
