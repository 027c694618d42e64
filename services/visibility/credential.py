"""The credential a live stream was opened with, and who it makes the caller now.

A stream runs for minutes; the token that opened it may be revoked meanwhile (a bot token
deleted, an account's session logged out). So a stream keeps the *credential* (its kind and
the sha256 hash of its token, never the token) and the stream hub re-resolves it every few
seconds against the game and the bot and account streams; when it no longer gives the caller
the stream was opened as, the stream is closed (docs/social.md, "The live stream").

A stream ticket (tickets.py) stores the same credential, so a stream opened with a ticket acts
as, and is re-checked as, the credential that asked for the ticket.

``caller_of`` resolves a credential the way ``shared.auth.identify`` and the token middleware
(shared/http/middleware.py) resolve the token itself, from its hash.
"""
from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from cachetools import TTLCache

from shared import credentials
from shared.auth import PUBLIC, Caller, hash_token, same_hash
from shared.game.state import GameState
from shared.store import EventStore

Kind = Literal["public", "operator", "host", "seat", "bot", "account"]
KINDS: tuple[Kind, ...] = ("public", "operator", "host", "seat", "bot", "account")


@dataclass(frozen=True, slots=True)
class Credential:
    kind: Kind
    token_hash: str = ""  # sha256 of the token ("" for the public caller)
    account_id: str = ""  # the account of a session token

    def as_json(self) -> dict[str, str]:
        return {"kind": self.kind, "token_hash": self.token_hash, "account_id": self.account_id}

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> Credential:
        kind = data.get("kind")
        if kind not in KINDS:
            raise ValueError(f"not a credential kind: {kind!r}")
        return cls(kind, str(data.get("token_hash", "")), str(data.get("account_id", "")))


PUBLIC_CREDENTIAL = Credential("public")


def credential_of(caller: Caller, token: str | None) -> Credential:
    """The credential behind a caller that ``identify`` found for ``token``."""
    if token is None:
        return PUBLIC_CREDENTIAL
    token_hash = hash_token(token)
    if caller.via == "bot":
        return Credential("bot", token_hash)
    account_id = credentials.session_account_id(token)
    if caller.via == "account" or (caller.role == "public" and account_id is not None):
        # a session token: the account's seat here, or the public caller when it has none
        return Credential("account", token_hash, account_id or "")
    if caller.role in ("operator", "host"):
        return Credential(caller.role, token_hash)
    if caller.role == "player":
        return Credential("seat", token_hash)
    return PUBLIC_CREDENTIAL


@dataclass(frozen=True, slots=True)
class Lookups:
    """Where the delegated credentials are read: a game's live bot tokens, an account."""

    bots: Callable[[str], Awaitable[dict[str, credentials.BotToken]]]
    account: Callable[[str], Awaitable[credentials.Account | None]]


async def caller_of(credential: Credential, game: GameState, operator_hash: str,
                    lookups: Lookups) -> Caller | None:
    """Who the credential makes its holder in ``game`` now; None when it is no longer valid
    (a revoked bot token, a closed session, a token the game does not know)."""
    presented = credential.token_hash
    match credential.kind:
        case "public":
            return PUBLIC
        case "operator":
            return Caller("operator") if operator_hash and same_hash(presented, operator_hash) else None
        case "host":
            return Caller("host") if same_hash(presented, game.host_token_hash) else None
        case "seat":
            return next((Caller("player", player_id) for player_id, known in game.player_hashes().items()
                         if same_hash(presented, known)), None)
        case "bot":
            bot = next((b for b in (await lookups.bots(game.game_id)).values()
                        if same_hash(presented, b.token_hash)), None)
            if bot is None or bot.player_id not in game.player_hashes():
                return None
            return Caller("player", bot.player_id, via="bot")
        case "account":
            account = await lookups.account(credential.account_id)
            if account is None or not account.has_session(presented):
                return None
            player_id = account.seats.get(game.game_id)
            if player_id is not None and player_id in game.player_hashes():
                return Caller("player", player_id, via="account")
            return PUBLIC
    return None


def direct_lookups(store: Any) -> Lookups:
    """Lookups that read the store each time."""
    async def account(account_id: str) -> credentials.Account | None:
        return await credentials.load_account(store, account_id) if account_id else None

    return Lookups(lambda game_id: credentials.load_bots(store, game_id), account)


CREDENTIAL_CACHE_SECONDS = 30.0  # a bot or account read is reused this long unless its stream changes
CREDENTIAL_CACHE_ENTRIES = 65536  # of each kind; the least recently used go first beyond it


class CredentialCache:
    """Bot tokens and accounts as last read, until their stream changes (the tailer says so)
    or ``CREDENTIAL_CACHE_SECONDS`` pass: two ``cachetools.TTLCache`` (an account read as
    missing is remembered too)."""

    def __init__(self, store: EventStore) -> None:
        self.store = store
        self._bots: TTLCache[str, dict[str, credentials.BotToken]] = TTLCache(
            CREDENTIAL_CACHE_ENTRIES, CREDENTIAL_CACHE_SECONDS)
        self._accounts: TTLCache[str, credentials.Account | None] = TTLCache(
            CREDENTIAL_CACHE_ENTRIES, CREDENTIAL_CACHE_SECONDS)
        self._generation = 0  # bumped by every change to a bot or account stream

    def changed(self, kind: str, ident: str) -> None:
        self._generation += 1
        (self._bots if kind == "bots" else self._accounts).pop(ident, None)

    def prune(self) -> None:
        self._bots.expire()
        self._accounts.expire()

    async def bots(self, game_id: str) -> dict[str, credentials.BotToken]:
        hit = self._bots.get(game_id)
        if hit is not None:
            return hit
        generation = self._generation
        bots = await credentials.load_bots(self.store, game_id)
        if generation == self._generation:  # no change came in during the read
            self._bots[game_id] = bots
        return bots

    async def account(self, account_id: str) -> credentials.Account | None:
        if not account_id:
            return None
        if account_id in self._accounts:
            return self._accounts[account_id]
        generation = self._generation
        account = await credentials.load_account(self.store, account_id)
        if generation == self._generation:
            self._accounts[account_id] = account
        return account

    def lookups(self) -> Lookups:
        return Lookups(self.bots, self.account)
