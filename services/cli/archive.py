"""What ``entente export`` writes and ``entente import`` reads: every stream a game needs to go
on, and its secrets only when the operator asks (docs/store.md, "Operators' commands").

A game's streams: ``game-{id}`` and its order streams ``orders-{id}-{phase}-{POWER}``, its
press ``press-{id}`` and its seats' read marks ``reads-{id}``, the seats accounts took
``members-{id}``, its bot tokens ``bots-{id}`` and webhooks ``webhooks-{id}``, and of each
linked account's stream ``account-{a}`` the account's creation and its links to this game's
seats (not its sessions, nor its other games).

Secrets: every ``*token_hash`` field (host, seats, bot tokens) and the webhook URLs (a Discord
webhook URL is itself the credential to post there). Without ``--with-secrets`` the hashes are
written empty (a hash that no token matches) and the webhooks stream is left out.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from shared.events_social import (
    account_stream,
    bots_stream,
    members_stream,
    press_stream,
    reads_stream,
    webhooks_stream,
)
from shared.game.log import is_order_stream_of, read_log
from shared.store import ConcurrencyError, EventStore, NewEvent, RecordedEvent

REDACTED = ""  # a token hash that no token has
ACCOUNT_EVENTS = ("AccountCreated", "SeatLinked")


class ArchiveError(Exception):
    """A log that cannot be written or read back; the message names the problem."""


def game_stream_id(game_id: str) -> str:
    return f"game-{game_id}"


def game_scoped_streams(game_id: str) -> dict[str, str]:
    """The game's streams other than its own and its orders, by kind."""
    return {"press": press_stream(game_id), "reads": reads_stream(game_id), "members": members_stream(game_id),
            "bots": bots_stream(game_id), "webhooks": webhooks_stream(game_id)}


# ----------------------------------------------------------------------------- export


async def read_game_records(store: EventStore, game_id: str, *, with_secrets: bool) -> list[RecordedEvent]:
    """Every record of the game's streams, in global position order, secrets left out unless
    ``with_secrets``."""
    log = await read_log(store, game_id, all_orders=True)
    if not log.game:
        raise ArchiveError(f"no game {game_id!r} in this store")
    records = list(log.records())
    for kind, stream_id in game_scoped_streams(game_id).items():
        if kind != "webhooks" or with_secrets:
            records.extend(await store.events.read_stream(stream_id))
    linked = sorted({str(r.data["account_id"]) for r in records
                     if r.stream_id == members_stream(game_id) and r.type == "SeatLinked"})
    for account_id in linked:
        records.extend(r for r in await store.events.read_stream(account_stream(account_id))
                       if r.type == "AccountCreated" or (r.type == "SeatLinked" and r.data.get("game_id") == game_id))
    records.sort(key=lambda record: record.position)
    return records if with_secrets else [_without_secrets(record) for record in records]


def _without_secrets(record: RecordedEvent) -> RecordedEvent:
    if not any(key.endswith("token_hash") for key in record.data):
        return record
    data = {key: REDACTED if key.endswith("token_hash") else value for key, value in record.data.items()}
    return replace(record, data=data)


# ----------------------------------------------------------------------------- checking a log


def game_of_records(records: Sequence[RecordedEvent]) -> str:
    """The one game a log belongs to, once every record is checked to be one of its streams:
    the game's own (first), its orders, press, members, bot tokens and webhooks with versions
    1..n in order, and accounts' creations and links to this game's seats."""
    games = sorted({r.stream_id[len("game-"):] for r in records if r.stream_id.startswith("game-")})
    if len(games) != 1:
        raise ArchiveError(f"a log must hold exactly one game stream, found {len(games)}")
    game_id = games[0]
    own = [r for r in records if not r.stream_id.startswith("account-")]
    if not own or own[0].stream_id != game_stream_id(game_id):
        raise ArchiveError("the log must start with the game stream")
    scoped = set(game_scoped_streams(game_id).values())
    versions: dict[str, int] = {}
    for record in records:
        if record.stream_id.startswith("account-"):
            _check_account_record(record, game_id)
            continue
        if record.stream_id != game_stream_id(game_id) and record.stream_id not in scoped \
                and not is_order_stream_of(record.stream_id, game_id):
            raise ArchiveError(f"stream {record.stream_id!r} does not belong to game {game_id!r}")
        expected = versions.get(record.stream_id, 0) + 1
        if record.version != expected:
            raise ArchiveError(f"stream {record.stream_id!r}: version {record.version} where {expected} was expected")
        versions[record.stream_id] = expected
    return game_id


def _check_account_record(record: RecordedEvent, game_id: str) -> None:
    account_id = record.stream_id[len("account-"):]
    if record.type not in ACCOUNT_EVENTS or record.data.get("account_id") != account_id:
        raise ArchiveError(f"stream {record.stream_id!r}: only the account's creation and its links to "
                           f"this game's seats belong in a game's log, not {record.type}")
    if record.type == "SeatLinked" and record.data.get("game_id") != game_id:
        raise ArchiveError(f"stream {record.stream_id!r}: a link to another game does not belong to game {game_id!r}")


# ----------------------------------------------------------------------------- import


def _event(record: RecordedEvent) -> NewEvent:
    return NewEvent(record.type, record.data, record.schema_version, record.metadata, record.recorded_at)


async def import_records(store: EventStore, game_id: str, records: Sequence[RecordedEvent], row: Any) -> None:
    """In one transaction: the game's streams at their own versions (refused if the store has
    any of them), the webhooks last (so the notifier plans nothing for the game's past), each
    account's links appended to the account there (created if it is new there, the same
    provider's user if not), and the games row."""
    webhooks = webhooks_stream(game_id)
    ordered = [r for r in records if r.stream_id != webhooks] + [r for r in records if r.stream_id == webhooks]
    accounts: dict[str, list[RecordedEvent]] = {}
    try:
        async with store.transaction() as tx:
            if await tx.games.get_game(game_id) is not None or await tx.events.stream_version(game_stream_id(game_id)):
                raise ArchiveError(f"game {game_id} already exists in this store; nothing imported")
            for record in ordered:
                if record.stream_id.startswith("account-"):
                    accounts.setdefault(record.stream_id, []).append(record)
                    continue
                await tx.events.append(record.stream_id, [_event(record)], expected_version=record.version - 1)
            for stream_id, linked in accounts.items():
                await _link_account(tx, stream_id, linked)
            await tx.games.put_game(row)
    except ConcurrencyError as error:
        raise ArchiveError(f"stream {error.stream_id} already has events in this store; nothing imported") from None


async def _link_account(tx: Any, stream_id: str, records: list[RecordedEvent]) -> None:
    existing = await tx.events.read_stream(stream_id)
    created = next((r for r in records if r.type == "AccountCreated"), None)
    if existing:
        here = existing[0].data
        if created is not None and (here.get("provider"), here.get("provider_user_id")) != (
                created.data.get("provider"), created.data.get("provider_user_id")):
            raise ArchiveError(f"{stream_id} is another user's account in this store; nothing imported")
        new = [r for r in records if r.type == "SeatLinked"]
    else:
        if created is None:
            raise ArchiveError(f"{stream_id} is not in this store and the log does not create it")
        new = [created, *(r for r in records if r.type == "SeatLinked")]
    await tx.events.append(stream_id, [_event(r) for r in new], expected_version=len(existing))
