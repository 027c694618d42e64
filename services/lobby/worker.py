"""The clock worker: resolves phases whose deadline has passed and resumes pauses that ran out.

Safe to run any number of them against one PostgreSQL: each claims one due game at a time
with ``SELECT ... FOR UPDATE SKIP LOCKED`` on the games table's indexed ``deadline`` column
(``EventStore.due_games(claim=True)``), and handles it in that same transaction: the row lock
keeps every other worker and every submission out until it commits, and the new deadline is
written to the row in the transaction that appends the events. A worker killed in the middle
leaves nothing behind (the transaction rolls back) and the game stays due for the next one. A
phase is resolved at most once even without the lock: the append expects the stream version
the worker folded. On SQLite one writer at a time does the same job (run one worker).

Time comes from an injected ``Clock``, so tests move it by hand and never sleep.
"""
from __future__ import annotations

import asyncio
import logging
from collections import Counter
from datetime import datetime

from shared.clock import SYSTEM_CLOCK, Clock
from shared.store import EventStore

log = logging.getLogger("entente.worker")


class ClockWorker:
    def __init__(self, store: EventStore, clock: Clock = SYSTEM_CLOCK, *, poll_seconds: float = 1.0) -> None:
        self.store = store
        self.clock = clock
        self.poll_seconds = poll_seconds
        self.done: Counter[str] = Counter()  # action -> count, for logs and benchmarks

    async def handle_one(self, now: datetime, skip: frozenset[str] = frozenset(),
                         claimed: list[str] | None = None) -> tuple[str, str | None] | None:
        """Claim one game due at ``now`` and handle it in one transaction: (game id, action),
        or None when no game (other than ``skip``) is due and unclaimed. The claimed game's id
        is added to ``claimed`` before it is handled (to name it if handling fails)."""
        from services.adjudication.service import handle_due

        async with self.store.transaction() as tx:
            rows = await tx.due_games(now, limit=len(skip) + 1, claim=True)
            row = next((r for r in rows if r.game_id not in skip), None)
            if row is None:
                return None
            if claimed is not None:
                claimed.append(row.game_id)
            await tx.lock_game(row.game_id, "exclusive")  # held already on PostgreSQL; SQLite: exists
            return row.game_id, await handle_due(tx, row.game_id, now)

    async def run_once(self, limit: int | None = None) -> int:
        """Handle every game due now (at most ``limit``); how many were handled. A game whose
        handling fails is logged and left for the next round, never retried in a tight loop."""
        handled = 0
        failed: set[str] = set()
        while limit is None or handled < limit:
            now = self.clock.now()
            claimed: list[str] = []
            try:
                outcome = await self.handle_one(now, frozenset(failed), claimed)
            except Exception:  # noqa: BLE001 - one bad game must not stop the clock
                log.exception("clock worker: handling game %s failed", claimed[-1] if claimed else None)
                if not claimed:
                    raise  # not even a claim: the store is in trouble; run() retries later
                failed.add(claimed[-1])
                continue
            if outcome is None:
                break
            handled += 1
            self.done[outcome[1] or "row_corrected"] += 1
        return handled

    async def run(self, stop: asyncio.Event) -> None:
        """Sweep every ``poll_seconds`` until ``stop`` is set."""
        while not stop.is_set():
            try:
                await self.run_once()
            except Exception:  # noqa: BLE001 - the database may be away for a while: try again
                log.exception("clock worker: sweep failed")
            try:
                await asyncio.wait_for(stop.wait(), self.poll_seconds)
            except asyncio.TimeoutError:
                pass
