"""The outbox: a tracking projection that plans notifications from the log, and the claims and
outcomes of their delivery. Each step is one short transaction of its own; none of them ever
takes a game's lock, so notifications can never hold up a resolution.

- ``project``: reads the log after the projection's tracking position, plans the
  notifications of each event (``planning.py``), and writes them with the new position in one
  transaction (a crash before the commit plans nothing; planned rows have a unique key, so the
  same event never plans twice). Its position is locked in that transaction, so two projectors
  take turns.
- ``claim``: takes due rows (``FOR UPDATE SKIP LOCKED`` on PostgreSQL, so workers never share a
  row), counts the attempt and leases the row until the attempt's outcome is recorded (a worker
  that dies mid-delivery leaves the row to be retried when the lease ends, and dead-lettered
  once that happened at the attempt limit).

The storage of all this is the store's (docs/store.md, "Projections and the outbox").
- ``record``: delivered; or retried after ``backoff * 2**(attempts-1)``; or dead-lettered once
  ``max_attempts`` attempts failed.
"""
from __future__ import annotations

import asyncio
import logging
from dataclasses import asdict
from datetime import datetime, timedelta
from typing import Any

from shared.credentials import fold_account
from shared.events import from_recorded, game_stream
from shared.events_social import (
    ChannelWebhookRemoved,
    ChannelWebhookSet,
    SeatLinked,
    WebhookRemoved,
    WebhookSet,
    account_stream,
    members_stream,
    press_stream,
    webhooks_stream,
)
from shared.game.cached import CachedFold, Entry, caches_of
from shared.game.repository import without_history
from shared.game.state import GameState, fold
from shared.store import (
    ClaimedNotification,
    Dead,
    Delivered,
    EventStore,
    Outcome,
    RecordedEvent,
    Retry,
    Transaction,
)

from . import channels
from .discord import in_thread
from .planning import Context, plan

PROJECTION = "notifications"
# the streams notifications are planned from (the order streams, most of the log, plan none)
PLANNED_FROM = (game_stream(""), press_stream(""), webhooks_stream(""))
log = logging.getLogger("entente.notifications")
Claimed = ClaimedNotification  # a due row leased to this worker for one attempt


def game_of(stream_id: str) -> str | None:
    """The game a stream that can cause notifications belongs to."""
    kind, _, game_id = stream_id.partition("-")
    return game_id if kind in ("game", "press", "webhooks") and game_id else None


# ----------------------------------------------------------------------------- the projection

async def _behind(store: EventStore) -> bool:
    """Whether the log holds events past the projection's position: two plain reads."""
    return await store.events.head() > await store.projections.projection_position(PROJECTION)


def hooks_at(records: list[RecordedEvent], position: int) -> tuple[dict[str, str], str | None]:
    """The players' webhooks (player_id -> URL) and the game's channel webhook as the records
    of its webhooks stream had set them at ``position``."""
    webhooks: dict[str, str] = {}
    channel: str | None = None
    for record in records:
        if record.position <= position:
            hook = from_recorded(record)
            if isinstance(hook, WebhookSet):
                webhooks[hook.player_id] = hook.url
            elif isinstance(hook, WebhookRemoved):
                webhooks.pop(hook.player_id, None)
            elif isinstance(hook, ChannelWebhookSet):
                channel = in_thread(hook.url, hook.thread_id)
            elif isinstance(hook, ChannelWebhookRemoved):
                channel = None
    return webhooks, channel


class _Games:
    """The game and webhook streams of the games a batch touches, read once per batch and
    folded once per batch (each event's context folds on from the previous one's: the batch's
    events come in position order); with ``direct`` (the server has a Discord bot) also who
    took which seat with a Discord account.

    A game's stream is read from where this process's last batch left its state (checked, as
    the repository checks its cache: the record of that version must be at the same position),
    so a batch's cost does not grow with the age of the games it touches. The states reached
    are remembered only once the batch has committed (``remember``): a batch that failed is
    planned again from its first event, which must not find a state folded past it."""

    def __init__(self, tx: Transaction, *, direct: bool = False) -> None:
        self._tx = tx
        self._direct = direct
        # by game: its state folded up to the last event the projection planned from (committed
        # records only, at a position the projection has passed), without its resolved phases:
        # planning never looks back, and a state's history is nearly all its memory
        self._fold = CachedFold(caches_of(tx).notification_games)
        self._streams: dict[str, tuple[list[RecordedEvent], list[RecordedEvent]]] = {}
        self._discord: dict[str, dict[str, str]] = {}  # game_id -> player_id -> Discord user id
        # game_id -> (state, records folded, the position of the last one folded)
        self._folded: dict[str, tuple[GameState | None, int, int]] = {}

    async def _read_game(self, game_id: str) -> list[RecordedEvent]:
        """The game's records after the remembered state's (that state as folded so far), or
        all of them."""
        read = await self._fold.continued(self._tx, game_id, self._fold.get(game_id))
        base = read.base
        self._folded[game_id] = (base.state, 0, base.position) if base is not None else (None, 0, 0)
        return list(read.records)

    def _state_at(self, game_id: str, position: int) -> GameState | None:
        """The game folded from its records at or before ``position`` (never earlier than the
        last one asked for), folding on from there."""
        records = self._streams[game_id][0]
        state, count, _ = self._folded[game_id]
        end = count
        while end < len(records) and records[end].position <= position:
            end += 1
        if end > count:
            state = fold((from_recorded(r) for r in records[count:end]), onto=state)
            self._folded[game_id] = (state, end, records[end - 1].position)
        return state

    def remember(self) -> None:
        """Keep each game's state as far as this (committed) batch folded it."""
        for game_id, (state, _, position) in self._folded.items():
            if state is not None:
                state, weight = without_history(state)
                self._fold.cache.put(game_id, Entry(state, position, weight), weight)

    async def context_at(self, game_id: str, position: int) -> Context | None:
        if game_id not in self._streams:
            self._streams[game_id] = (await self._read_game(game_id),
                                      await self._tx.events.read_stream(webhooks_stream(game_id)))
            self._discord[game_id] = await self._discord_ids(game_id) if self._direct else {}
        state = self._state_at(game_id, position)
        if state is None:
            return None
        webhooks, channel = hooks_at(self._streams[game_id][1], position)
        pushes, emails = channels.browsers_and_mail_at(self._streams[game_id][1], position)
        return Context(state, webhooks, dict(self._discord[game_id]), channel, pushes, emails)

    async def _discord_ids(self, game_id: str) -> dict[str, str]:
        """player_id -> Discord user id of the seats taken by accounts signed in with Discord."""
        found = {}
        for record in await self._tx.events.read_stream(members_stream(game_id)):
            linked = from_recorded(record)
            if not isinstance(linked, SeatLinked):
                continue
            records = await self._tx.events.read_stream(account_stream(linked.account_id))
            account = fold_account(from_recorded(r) for r in records)
            if account is not None and account.provider == "discord":
                found[linked.player_id] = account.provider_user_id
        return found


async def project(store: EventStore, warning: timedelta, batch: int = 500, *, direct: bool = False) -> int:
    """Plan the notifications of the next ``batch`` events of the log; how many it went past
    (only the game, press and webhook streams' events are read: the order streams, most of
    the log, plan nothing). ``direct``: also the direct messages of seats taken with a
    Discord account."""
    if not await _behind(store):
        return 0  # nothing new: no write transaction (on SQLite, no writer's lock every second)
    async with store.transaction() as tx:
        after = await tx.projections.lock_projection(PROJECTION)
        read = await tx.events.read_all_of(PLANNED_FROM, after, batch)
        if not read.passed:
            return 0
        games = _Games(tx, direct=direct)
        for record in read.events:
            game_id = game_of(record.stream_id)
            if game_id is None or record.stream_id not in (game_stream(game_id), press_stream(game_id),
                                                         webhooks_stream(game_id)):
                continue
            try:
                context = await games.context_at(game_id, record.position)
                if context is None:
                    continue
                planned, cancelled = plan(record, from_recorded(record), context, warning)
            except Exception:  # one unreadable event must not stop every notification after it
                log.exception("no notifications for the event at position %s", record.position)
                continue
            for cancel in cancelled:
                await tx.outbox.cancel_notifications(cancel.game_id, kind=cancel.kind, phase=cancel.phase,
                                                     player_id=cancel.player_id)
            for notification in planned:
                await tx.outbox.plan_notification(notification)
        await tx.projections.advance_projection(PROJECTION, read.last_position)
    games.remember()
    return read.passed


async def project_all(store: EventStore, warning: timedelta, batch: int = 500, *, direct: bool = False,
                      stop: asyncio.Event | None = None) -> int:
    """Run the projection until it has caught up with the log (or ``stop`` is set: a worker
    told to stop leaves the rest to the next one, the projection's position says where)."""
    total = 0
    while not (stop is not None and stop.is_set()) and (read := await project(store, warning, batch, direct=direct)):
        total += read
    return total


# ----------------------------------------------------------------------------- delivery bookkeeping

async def claim(store: EventStore, now: datetime, lease: timedelta, limit: int = 50,
                max_attempts: int | None = None) -> list[Claimed]:
    """Due notifications, each leased to this worker for one attempt; with ``max_attempts``,
    those that reached it without their last outcome recorded are dead-lettered instead."""
    async with store.transaction() as tx:
        return await tx.outbox.claim_notifications(now, lease, limit, max_attempts)


def next_attempt(attempts: int, max_attempts: int, backoff_seconds: float, now: datetime,
                 retry_after: float | None = None) -> datetime | None:
    """When to try again after ``attempts`` failed attempts; None: give up (dead letter)."""
    if attempts >= max_attempts:
        return None
    delay = backoff_seconds * 2 ** (attempts - 1)
    return now + timedelta(seconds=max(delay, retry_after or 0.0))


async def record(store: EventStore, claimed: Claimed, now: datetime, error: str | None,
                 retry_at: datetime | None) -> str:
    """Store an attempt's outcome (only if the row is still this attempt's); the new status."""
    outcome: Outcome
    if error is None:
        status, outcome = "delivered", Delivered(now)
    elif retry_at is None:
        status, outcome = "dead", Dead(error[:500])
    else:
        status, outcome = "pending", Retry(error[:500], retry_at)
    async with store.transaction() as tx:
        await tx.outbox.record_outcome(claimed.id, claimed.attempts, outcome)
    return status


async def release(store: EventStore, claimed: list[Claimed], now: datetime) -> int:
    """Give back claimed rows that were not attempted (the worker is stopping); how many."""
    async with store.transaction() as tx:
        return sum([await tx.outbox.release_notification(item.id, item.attempts, now) for item in claimed])


async def notifications(store: EventStore, game_id: str | None = None) -> list[dict[str, Any]]:
    """The outbox rows (of one game), oldest first: for operators and tests."""
    return [asdict(row) for row in await store.outbox.notifications(game_id)]


async def counts(store: EventStore) -> dict[str, int]:
    return await store.outbox.notification_counts()
