"""The notifications outbox's recorder (docs/store.md, "Projections and the outbox"): rows
planned, claimed with a lease, and their outcomes; written once on a ``Runner``
(shared/store/recorders.py) but for the claim, which each back end takes its own way.
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from datetime import datetime, timedelta
from typing import Any

from shared.store.outbox import ClaimedNotification, Dead, Delivered, NewNotification, Notification, Outcome, Retry
from shared.store.recorders import Runner, dumps, loads


class OutboxReader:
    """The outbox's reads: its rows and how many have each status."""

    def __init__(self, db: Runner) -> None:
        self._db = db

    async def notifications(self, game_id: str | None = None) -> list[Notification]:
        """The outbox rows (of one game), oldest first."""
        db = self._db
        rows = await (db.rows(db.sql.list_notifications) if game_id is None
                      else db.rows(db.sql.list_game_notifications, game_id))
        moment = db.moment
        return [Notification(id=row[0], dedupe_key=row[1], game_id=row[2], player_id=row[3], kind=row[4],
                             phase=row[5], url=row[6], payload=loads(row[7]), status=row[8], attempts=row[9],
                             next_attempt_at=moment(row[10]), last_error=row[11], source_position=row[12],
                             created_at=moment(row[13]), delivered_at=None if row[14] is None else moment(row[14]))
                for row in rows]

    async def notification_counts(self) -> dict[str, int]:
        """How many rows have each status."""
        return {row[0]: int(row[1]) for row in await self._db.rows(self._db.sql.count_notifications)}


class OutboxRecorder(OutboxReader, ABC):
    """The notifications outbox: its reads, and its writes."""

    async def plan_notification(self, planned: NewNotification) -> bool:
        """Add a pending row; False (and nothing written) if its dedupe key is planned already."""
        db = self._db
        return bool(await db.rows(
            db.sql.plan_notification, planned.dedupe_key, planned.game_id, planned.player_id, planned.kind,
            planned.phase, planned.url, dumps(planned.payload), db.time(planned.not_before), planned.source_position,
            db.time(planned.created_at)))

    async def cancel_notifications(self, game_id: str, *, kind: str | None = None, phase: str | None = None,
                                   player_id: str | None = None) -> int:
        """Cancel the game's pending rows that match every criterion given; how many."""
        return len(await self._db.rows(self._db.sql.cancel_notifications, game_id, kind, phase, player_id))

    @abstractmethod
    async def claim_notifications(self, now: datetime, lease: timedelta, limit: int,
                                  max_attempts: int | None = None) -> list[ClaimedNotification]:
        """Up to ``limit`` pending rows due at ``now``, earliest first, each with its attempt
        counted and leased (not due again) until ``now + lease``. On PostgreSQL the rows are
        taken FOR UPDATE SKIP LOCKED, so concurrent workers each get different rows.

        With ``max_attempts``, a due row that already has that many attempts counted (the last
        one's outcome was never recorded: its worker stopped, its lease ran out) is not claimed
        again but dead-lettered (``last_error`` NO_OUTCOME_RECORDED)."""

    async def record_outcome(self, notification_id: int, attempts: int, outcome: Outcome) -> bool:
        """Store an attempt's outcome, only if the row is still pending with ``attempts``
        attempts (the attempt's own lease); whether it was."""
        match outcome:
            case Delivered(at=at):
                values: tuple[Any, ...] = (self._db.time(at),)
            case Retry(error=error, at=at):
                values = (self._db.time(at), error)
            case Dead(error=error):
                values = (error,)
        return bool(await self._db.rows(self._db.sql.record_outcome[type(outcome)], notification_id, attempts,
                                        *values))

    async def release_notification(self, notification_id: int, attempts: int, now: datetime) -> bool:
        """Give back a claimed row not attempted after all (a worker stopping): due at ``now``
        again, its attempt uncounted, only if it is still pending with ``attempts`` (the
        claim's own lease); whether it was."""
        return bool(await self._db.rows(self._db.sql.release_notification, notification_id, attempts,
                                        self._db.time(now)))

    async def set_webhook_secret(self, game_id: str, recipient: str, secret: str | None, at: datetime) -> None:
        """The secret a recipient's webhook in a game is signed with from now on (None: no
        webhook, no secret). Claims hand each row its recipient's current secret."""
        if secret is None:
            await self._db.rows(self._db.sql.remove_webhook_secret, game_id, recipient)
        else:
            await self._db.rows(self._db.sql.set_webhook_secret, game_id, recipient, secret, self._db.time(at))
