"""Resolving a phase: the plan of the events that resolve it (pure), writing it, and the three
ways a phase comes to be resolved: early, once nobody is waited for (``resolve_if_complete``,
after a write of the intake: shared/game/intake.py); at its deadline (``plan_due``, the clock
worker's); and by the host's or the operator's act (``resolve_phase``).

- ``resolve_in``: inside a transaction holding the game's exclusive lock, read the phase's
  order streams, adjudicate (powers that missed the deadline in civil disorder), and append
  PhaseResolved, then GameFinished (victory, abandoned) or the next phase's DeadlineSet, to the
  game stream with the expected version. Phases in which nobody has anything to do are
  resolved in the same transaction. A resolve that names a phase which has already moved on
  gets 409 ``phase_already_resolved``: a phase is resolved exactly once however many race.
- Phases that only house bots play are resolved at once after the one before
  (``resolve_bot_phases``), their orders written as the phase begins (docs/bots.md).
"""
from __future__ import annotations

import logging
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from shared import metrics
from shared.clock import SYSTEM_CLOCK
from shared.errors import Conflict, ErrorCode
from shared.events import (
    Event,
    EventMetadata,
    GameFinished,
    OrdersSubmitted,
    PhaseResolved,
    game_stream,
    orders_stream,
    to_new_event,
)
from shared.store import EventStore, Transaction

from . import deadlines
from .adjudicate import adjudicate_phase
from .guards import require_playing
from .house_bots import house_bot_orders, ordered_by_house_bot
from .log import phase_submissions, phases_submissions
from .repository import game_row, read_game, read_state, read_states
from .state import GameState, apply
from .submissions import PowerSubmission
from .waiting import missing_powers, waiting_for

MAX_CHAINED_PHASES = 8  # phases resolved in one go when nobody has anything to do in them
log = logging.getLogger("entente.adjudication")


def now_or_clock(now: datetime | None) -> datetime:
    """``now``, or the system clock's time when none is given."""
    return now or SYSTEM_CLOCK.now()


def abandoned(state: GameState) -> list[str]:
    """The surviving powers when no human player is at the table any more (else []): every
    surviving power a person's seat plays is gone (its player left it to the house bot, or is in
    civil disorder where no bot takes over), or none survives and only house bots play on
    (docs/hosting.md, "Missing a deadline")."""
    alive = state.surviving_powers() & set(state.played_powers())
    if not alive:
        return []
    by_people = {p for seat in state.seats if not seat.house_bot for p in seat.powers}
    gone = state.house_bot_powers() | (state.disorder if state.settings.bot_after_missed_phases is None else set())
    return [] if (alive & by_people) - gone else sorted(alive)



async def resolve_if_complete(store: EventStore, game_id: str, phase: str, now: datetime, *,
                              state: GameState | None = None,
                              submissions: Mapping[str, PowerSubmission] | None = None) -> bool:
    """Resolve ``phase`` now if nobody is waited for any more (early resolution); whether it
    was. ``state`` and ``submissions``: the game and the phase's submissions as a write just
    committed them (read here when not given). Phases after it that only house bots play are
    resolved at once too (``resolve_bot_phases``)."""
    resolved = await _resolve_once_if_complete(store, game_id, phase, now, state=state, submissions=submissions)
    if resolved:
        await resolve_bot_phases(store, game_id, now)
    return resolved


async def resolve_bot_phases(store: EventStore, game_id: str, now: datetime) -> int:
    """After a resolution: while the game's new phase waits for nobody (every power that must
    act is played by the house bot, whose orders are written as the phase begins), resolve it
    too, a few phases at most (then the clock goes on as usual); how many were."""
    resolved = 0
    while resolved < MAX_CHAINED_PHASES:
        state = await read_game(store, game_id)
        if state is None or state.settings.house_bot is None or state.status != "active" or not state.phase:
            break
        if not await _resolve_once_if_complete(store, game_id, state.phase, now, state=state):
            break
        resolved += 1
    return resolved


async def _resolve_once_if_complete(store: EventStore, game_id: str, phase: str, now: datetime, *,
                                    state: GameState | None = None,
                                    submissions: Mapping[str, PowerSubmission] | None = None) -> bool:
    # a cheap look first, outside any transaction: most submissions are not the last
    state = state or await read_game(store, game_id)
    if state is None or state.phase != phase or state.deadline_passed(now):
        return False
    if waiting_for(state, submissions if submissions is not None else await phase_submissions(store, game_id, phase)):
        return False
    locked = time.perf_counter()
    async with store.transaction(game_id, lock="exclusive") as tx:
        state = await read_state(tx, game_id)
        if state.status != "active" or state.phase != phase or state.deadline_passed(now):
            return False  # resolved meanwhile, or due: the clock worker's
        if waiting_for(state, await phase_submissions(tx, game_id, phase)):
            return False
        resolved = await resolve_in(tx, state, now, metadata={"actor": "clock", "reason": "early"})
    record_resolution(game_id, state.variant, "early", resolved, time.perf_counter() - locked)
    return True


def record_resolution(game_id: str, variant: str, trigger: str, resolved: Sequence[PhaseResolved],
                      seconds: float) -> None:
    """Count a committed resolution (docs/operations.md, "Metrics") and log it: the phase
    names are public, the orders are not logged."""
    metrics.record_resolution(variant, trigger, len(resolved), seconds)
    log.info("phase resolved", extra={"game_id": game_id, "variant": variant, "trigger": trigger,
                                      "phases": [event.phase for event in resolved],
                                      "duration_ms": round(seconds * 1000, 2)})


@dataclass
class Plan:
    """Events to append to one game's stream after ``expected_version``, and the state after
    them; ``bot_orders``: the house bot's orders for the phase that begins (docs/bots.md)."""

    game_id: str
    expected_version: int
    events: list[Event]
    state: GameState
    metadata: EventMetadata | None = None
    bot_orders: list[OrdersSubmitted] = field(default_factory=list)

    @property
    def resolved(self) -> list[PhaseResolved]:
        return [e for e in self.events if isinstance(e, PhaseResolved)]


def resolution_plan(state: GameState, submissions: Mapping[str, PowerSubmission], now: datetime, *,
                    deadline: bool = False, metadata: EventMetadata | None = None) -> Plan:
    """The events that resolve the current phase of ``state`` (pure; ``state`` is folded on).

    ``deadline``: the phase's deadline passed, so powers that submitted nothing are in civil
    disorder. Phases that follow in which nobody has anything to do are resolved at once too.
    """
    start_version = state.version
    submitted = {p: list(s.orders) for p, s in submissions.items() if s.orders is not None}
    disorder = frozenset(missing_powers(state, submissions)) if deadline else frozenset()
    by_bot = ordered_by_house_bot(submissions)
    pending: list[Event] = []
    for _ in range(MAX_CHAINED_PHASES):
        event = adjudicate_phase(state, require_playing(state), submitted, disorder, by_bot)
        pending.append(event)
        state = apply(state, event)
        if event.winners:
            pending.append(GameFinished(reason="victory", winners=event.winners, phase=event.next_phase))
            break
        if given_up := abandoned(state):
            pending.append(GameFinished(reason="abandoned", phase=event.next_phase, in_disorder=given_up))
            break
        if waiting_for(state, {}):
            break
        submitted, disorder, by_bot = {}, frozenset(), []  # nobody has anything to do: on at once
    if not isinstance(pending[-1], GameFinished):
        pending.append(deadlines.deadline_for(state, str(state.phase), now))
    for planned in pending:
        if not isinstance(planned, PhaseResolved):  # those are folded in already
            state = apply(state, planned)
    return Plan(state.game_id, start_version, pending, state, metadata, house_bot_orders(state))


async def write_plan(tx: Transaction, plan: Plan, now: datetime) -> None:
    """Write the games row and append the plan's events with the expected version, with the
    commit (the store's global position lock is then held for no round trip)."""
    await tx.games.put_game(game_row(plan.state, now))
    await _append_plan(tx, plan)


async def _append_plan(tx: Transaction, plan: Plan) -> None:
    if plan.events:
        await tx.events.append_on_commit(game_stream(plan.game_id),
                                         [to_new_event(e, plan.metadata) for e in plan.events],
                                         expected_version=plan.expected_version)
    for orders in plan.bot_orders:  # after the phase they belong to has begun
        await tx.events.append_on_commit(orders_stream(plan.game_id, orders.phase, orders.power),
                                  [to_new_event(orders, {"actor": "house_bot"})], expected_version=None)


async def resolve_in(tx: Transaction, state: GameState, now: datetime, *, deadline: bool = False,
                     metadata: EventMetadata | None = None) -> list[PhaseResolved]:
    """Resolve the current phase of ``state`` in ``tx`` (which holds the game's exclusive lock)."""
    submissions = await phase_submissions(tx, state.game_id, str(state.phase))
    plan = resolution_plan(state, submissions, now, deadline=deadline, metadata=metadata)
    await write_plan(tx, plan, now)
    return plan.resolved


async def resolve_phase(store: EventStore, game_id: str, phase: str | None,
                        metadata: EventMetadata | None = None, now: datetime | None = None) -> PhaseResolved:
    """Resolve the current phase now (the operator's act): submitted orders count, nobody is
    put in civil disorder."""
    now = now_or_clock(now)
    trigger = "host" if (metadata or {}).get("actor") == "host" else "operator"
    # a phase once resolved stays so: asked of the game as this process reads it (the cache and the
    # events since), without the writer's lock and without reading the log (docs/api.md, "resolve")
    known = await read_game(store, game_id)
    if known is not None and phase is not None:
        _refuse_if_resolved(known, phase)
    locked = time.perf_counter()
    async with store.transaction(game_id, lock="exclusive") as tx:
        state = await read_state(tx, game_id)
        if phase is not None:
            _refuse_if_resolved(state, phase)
        require_playing(state)
        if phase is not None and state.phase != phase:
            raise Conflict(f"the game is at {state.phase}, not {phase}", code=ErrorCode.WRONG_PHASE, where="body.phase")
        resolved = await resolve_in(tx, state, now, metadata=metadata)
    record_resolution(game_id, state.variant, trigger, resolved, time.perf_counter() - locked)
    await resolve_bot_phases(store, game_id, now)
    return resolved[0]


def _refuse_if_resolved(state: GameState, phase: str) -> None:
    """409 ``phase_already_resolved`` for a phase the game resolved already: from the state's
    index of its resolved phases (every one, those its cached state leaves out too)."""
    if state.phase != phase and any(name == phase for name, _ in state.resolved_index):
        raise Conflict(f"phase {phase} has already been resolved; the game is at {state.phase}",
                       code=ErrorCode.PHASE_ALREADY_RESOLVED, where="body.phase")


async def plan_due_batch(tx: Transaction, game_ids: Sequence[str], now: datetime) -> list[tuple[str | None, Plan]]:
    """``plan_due`` of each claimed game (distinct, each locked by ``tx``), in the order given,
    with two reads for the whole batch: the games' streams, then the due phases' order streams
    (docs/hosting.md, "The clock worker")."""
    states = await read_states(tx, game_ids)
    actions = {game_id: deadlines.due_action(state, now) for game_id, state in states.items()}
    due = [game_id for game_id in game_ids if actions[game_id] == "resolve"]
    read = await phases_submissions(tx, [(game_id, str(states[game_id].phase)) for game_id in due])
    submissions = dict(zip(due, read, strict=True))
    return [(actions[game_id], _planned(states[game_id], actions[game_id], submissions.get(game_id), now))
            for game_id in game_ids]


def _planned(state: GameState, action: str | None, submissions: Mapping[str, PowerSubmission] | None,
             now: datetime) -> Plan:
    if action == "resolve" and submissions is not None:
        return resolution_plan(state, submissions, now, deadline=True,
                               metadata={"actor": "clock", "reason": "deadline"})
    if action == "resume":
        version, resumed = state.version, deadlines.resume(state, now, "clock")
        return Plan(state.game_id, version, [resumed], apply(state, resumed), {"actor": "clock"})
    return Plan(state.game_id, state.version, [], state)


async def write_plans(tx: Transaction, plans: Sequence[Plan], now: datetime) -> None:
    """``write_plan`` of each plan (distinct games), the games rows in one statement, then each
    game's events in the order given, as ``write_plan`` one after another would append them."""
    await tx.games.put_games([game_row(plan.state, now) for plan in plans])
    for plan in plans:
        await _append_plan(tx, plan)


async def plan_due(tx: Transaction, game_id: str, now: datetime) -> tuple[str | None, Plan]:
    """What the clock worker does with one claimed game, read and decided but not yet written:
    resolve a phase whose deadline passed, resume a pause that ran out, or (nothing due: the
    row was stale) just write the games row again."""
    state = await read_state(tx, game_id)
    action = deadlines.due_action(state, now)
    submissions = await phase_submissions(tx, game_id, str(state.phase)) if action == "resolve" else None
    return action, _planned(state, action, submissions, now)
