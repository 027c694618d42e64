"""The clock worker: resolves phases whose deadline has passed and resumes pauses that ran out.

Safe to run any number of them against one PostgreSQL: each claims a few due games at a time
with ``SELECT ... FOR UPDATE SKIP LOCKED`` on the games table's indexed ``deadline`` column
(``tx.games.due_games(claim=True)``), and handles them in that same transaction: the row
locks keep every other worker and every submission out until it commits, and each game's new
deadline is written to its row in the transaction that appends its events. A worker killed
in the middle leaves nothing behind (the transaction rolls back) and the games stay due for
the next one. A phase is resolved at most once even without the lock: the append expects the
stream version the worker folded. On SQLite one writer at a time does the same job (run one
worker, or the one ``entente serve`` runs in-process).

A worker process may keep more than one batch in flight (``lanes``, each its own transaction
on a connection of its own, claiming as two workers would): while one lane waits on
PostgreSQL, another runs the rules engine (docs/hosting.md, "The clock worker").

Time comes from an injected ``Clock``, so tests move it by hand and never sleep.

Health and stopping (docs/deploy.md): ``on_beat(ok)``, when given, is called after each batch
written and each sweep (``ok`` false when a sweep failed), so that a process can report how
recently its loop made progress. Once ``stop`` is set the worker finishes the batch in hand
(its transaction commits) and stops, leaving the rest of a backlog to the next sweep of any
worker: a batch is short, a sweep through a large backlog is not.
"""
from __future__ import annotations

import asyncio
import logging
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime

from shared import metrics
from shared.clock import SYSTEM_CLOCK, Clock
from shared.store import EventStore

log = logging.getLogger("entente.worker")


# Games claimed per transaction: ten, measured against fifty in the deadline storm
# (docs/hosting.md, "The clock worker").
CLAIM_BATCH = 10


@dataclass
class _Sweep:
    """What the lanes of one sweep share: how many games were handled, the games whose handling
    failed alone (left for the next sweep), and the batch size (one game a transaction once a
    batch has failed, to find the culprit)."""

    limit: int | None
    size: int
    handled: int = 0
    in_flight: int = 0  # games asked for by the lanes' batches not yet written
    failed: set[str] = field(default_factory=set)

    def wanted(self, stop: asyncio.Event | None) -> int:
        """How many games the next batch may claim: none once ``stop`` is set or the limit is
        taken up by what is handled and in flight."""
        if stop is not None and stop.is_set():
            return 0
        if self.limit is None:
            return self.size
        return max(0, min(self.size, self.limit - self.handled - self.in_flight))


class ClockWorker:
    """Sweeps the deadline index; ``batch`` games are claimed, decided, then written per
    transaction (the writes last, so that the store's short append lock is not held while
    the rules engine runs)."""

    def __init__(self, store: EventStore, clock: Clock = SYSTEM_CLOCK, *, poll_seconds: float = 1.0,
                 batch: int = CLAIM_BATCH, lanes: int = 1, on_beat: Callable[[bool], None] | None = None) -> None:
        self.store = store
        self.clock = clock
        self.poll_seconds = poll_seconds
        self.batch = max(1, batch)
        # SQLite has one writer: its lanes would only queue behind each other
        self.lanes = max(1, lanes) if store.dialect == "postgresql" else 1
        self.on_beat = on_beat
        self.done: Counter[str] = Counter()  # action -> count, for logs and benchmarks

    async def handle_batch(self, now: datetime, size: int = 1, skip: frozenset[str] = frozenset(),
                           claimed: list[str] | None = None) -> list[tuple[str, str | None]]:
        """Claim up to ``size`` games due at ``now`` (other than ``skip``) and handle them in one
        transaction: [(game id, action)], empty when none is due and unclaimed. Claimed ids are
        added to ``claimed`` as they are claimed (to name them if handling fails)."""
        from shared.game.resolution import plan_due_batch, record_resolution, resolve_bot_phases, write_plans

        claimed = [] if claimed is None else claimed
        began = time.perf_counter()  # the claim locks the batch's games until the commit
        async with self.store.transaction() as tx:
            rows = [r for r in await tx.games.due_games(now, limit=len(skip) + size, claim=True)
                    if r.game_id not in skip][:size]
            for row in rows:
                claimed.append(row.game_id)
                if tx.dialect != "postgresql":  # PostgreSQL: the claim holds the row lock already
                    await tx.games.lock_game(row.game_id, "exclusive")
            # the batch's streams in two statements, its rows in one (docs/hosting.md, "The clock worker")
            plans = await plan_due_batch(tx, [row.game_id for row in rows], now) if rows else []
            await write_plans(tx, [plan for _, plan in plans], now)
        held = time.perf_counter() - began
        for action, plan in plans:
            if plan.resolved:
                record_resolution(plan.game_id, plan.state.variant, "clock", plan.resolved, held)
                if plan.state.settings.house_bot is not None:  # phases only house bots play: at once
                    await resolve_bot_phases(self.store, plan.game_id, now)
            elif action is not None:
                log.info("clock worker: %s", action, extra={"game_id": plan.game_id})
        return [(plan.game_id, action) for action, plan in plans]

    def _beat(self, ok: bool) -> None:
        if self.on_beat is not None:
            self.on_beat(ok)

    async def run_once(self, limit: int | None = None, stop: asyncio.Event | None = None) -> int:
        """Handle every game due now (at most ``limit``, and no new batch once ``stop`` is set);
        how many were handled. When a batch fails the worker goes on one game at a time, so a
        game whose handling fails is logged and left for the next round, never retried in a
        tight loop. With ``lanes`` over one, that many batches are in flight at once."""
        sweep = _Sweep(limit, self.batch)
        if self.lanes == 1:
            await self._lane(sweep, stop)
            return sweep.handled
        try:
            async with asyncio.TaskGroup() as lanes:
                for _ in range(self.lanes):
                    lanes.create_task(self._lane(sweep, stop))
        except ExceptionGroup as failed:  # a lane could not even claim: as one lane would raise
            raise failed.exceptions[0] from None
        return sweep.handled

    async def _lane(self, sweep: _Sweep, stop: asyncio.Event | None) -> None:
        """Batches one after another until none is due (or the sweep's limit or ``stop``)."""
        while (wanted := sweep.wanted(stop)) > 0:
            claimed: list[str] = []
            sweep.in_flight += wanted
            try:
                outcomes = await self.handle_batch(self.clock.now(), wanted, frozenset(sweep.failed), claimed)
            except Exception:  # one bad game must not stop the clock
                log.exception("clock worker: handling games %s failed", claimed)
                if not claimed:
                    raise  # not even a claim: the store is in trouble; run() retries later
                if len(claimed) == 1:
                    sweep.failed.add(claimed[0])
                sweep.size = 1  # find the culprit: one game a transaction for the rest of this sweep
                continue
            finally:
                sweep.in_flight -= wanted
            if not outcomes:
                return
            self._beat(True)
            sweep.handled += len(outcomes)
            self.done.update(action or "row_corrected" for _, action in outcomes)

    async def run(self, stop: asyncio.Event) -> None:
        """Sweep every ``poll_seconds`` until ``stop`` is set (the batch in hand is finished)."""
        while not stop.is_set():
            began = time.perf_counter()
            try:
                handled = await self.run_once(stop=stop)
            except Exception:  # the database may be away for a while: try again
                log.exception("clock worker: sweep failed")
                metrics.CLOCK_SWEEPS.labels("failed").inc()
                self._beat(False)
            else:
                metrics.CLOCK_SWEEPS.labels("ok").inc()
                # one line per sweep that did something; the idle ones only at debug level
                log.log(logging.INFO if handled else logging.DEBUG, "clock sweep", extra={
                    "handled": handled, "duration_ms": round((time.perf_counter() - began) * 1000, 2)})
                self._beat(True)
            try:
                await asyncio.wait_for(stop.wait(), self.poll_seconds)
            except TimeoutError:
                pass
