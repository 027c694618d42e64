"""Order intake and phase resolution: where the hosted game meets the rules engine.

- ``submit_orders``: under the games row's share lock (many powers at once), check the game
  is in a phase this power must act in and that its deadline has not passed (by the injected
  clock, against the deadline folded from the log: 409 ``deadline_passed``), read each order
  with the engine's parser, check it with the engine's legality rules, and append the accepted
  ones as one OrdersSubmitted to the power's own stream ``orders-{game}-{phase}-{POWER}``; the
  latest event there is the power's current orders. Rejected orders are not stored.
  ``set_ready`` appends ReadySet to the same stream (a later submission clears it).
- After a submission or a ready flag, the API calls ``resolve_if_complete``, which resolves the phase at once when
  every power that must act has submitted (and is ready, where the game asks for it).
- ``resolve_in``: inside a transaction holding the game's exclusive lock, read the phase's
  order streams, adjudicate (powers that missed the deadline in civil disorder), and append
  PhaseResolved, then GameFinished (victory, abandoned) or the next phase's DeadlineSet, to the
  game stream with the expected version. Phases in which nobody has anything to do are
  resolved in the same transaction. A resolve that names a phase which has already moved on
  gets 409 ``phase_already_resolved``: a phase is resolved exactly once however many race.
"""
from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from shared import metrics
from shared.clock import SYSTEM_CLOCK
from shared.errors import Conflict, DomainError, ErrorCode, Unprocessable
from shared.events import (
    Event,
    GameFinished,
    OrdersSubmitted,
    PhaseResolved,
    ReadySet,
    game_stream,
    orders_stream,
    to_new_event,
)
from shared.game import deadlines
from shared.game.adjudicate import adjudicate_phase
from shared.game.guards import (
    choose_power,
    require_must_act,
    require_open_phase,
    require_playing,
    require_room_to_write,
)
from shared.game.house_bots import house_bot_orders, ordered_by_house_bot
from shared.game.log import PhaseSubmissions, phase_submissions
from shared.game.repository import game_row, read_game, read_state
from shared.game.state import GameState, apply
from shared.game.submissions import PowerSubmission, submitted_orders
from shared.game.waiting import missing_powers, waiting_for
from shared.rules.variants import Opening, OrderCheck, Variant, get_variant
from shared.store import ConcurrencyError, EventStore, GameNotFound, NewEvent, Transaction

from .commands import (
    Patch,
    PatchOrdersCommand,
    PatchOutcome,
    Player,
    ResolveOutcome,
    ResolvePhase,
    SetReady,
    Submission,
    SubmitOrdersCommand,
    SubmitOutcome,
)

MAX_CHAINED_PHASES = 8  # phases resolved in one go when nobody has anything to do in them
log = logging.getLogger("entente.adjudication")
SUBMIT_ATTEMPTS = 3  # a PUT decided again after the game moved on under it
PATCH_ATTEMPTS = 3  # a change of one power's orders read again after another change won the race


# ----------------------------------------------------------------------------- the rules, pure

def variant_of(state: GameState) -> Variant:
    return get_variant(state.variant)


def opening(variant: str, settings: Mapping[str, Any], seed: int) -> Opening:
    """The first phase, state document, seats and who must act of a new game."""
    return get_variant(variant).opening(settings, seed)


def check_orders(state: GameState, power: str, texts: Sequence[str]) -> list[OrderCheck]:
    return variant_of(state).check_orders(require_playing(state), power, texts)


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


# ----------------------------------------------------------------------------- the I/O edges

CompleteWhen = Callable[[GameState, str, Sequence[str]], bool]  # a patch's judge of a whole set


def _now(now: datetime | None) -> datetime:
    return now or SYSTEM_CLOCK.now()


async def _acting_power(tx: Transaction, game_id: str, player_id: str, power: str | None, phase: str | None,
                        now: datetime) -> tuple[GameState, str]:
    """Under the share lock: the game's state and the power the player acts for, after checking
    that it may act now (the phase is open, named rightly, before its deadline; the power must act)."""
    state = await read_state(tx, game_id)
    require_open_phase(state, now, phase)
    acting = choose_power(state, player_id, power)
    require_must_act(state, acting)
    return state, acting


async def submit_orders(store: EventStore, game_id: str, player_id: str, texts: Sequence[str],
                        phase: str | None = None, metadata: dict[str, Any] | None = None, *,
                        power: str | None = None, now: datetime | None = None) -> Submission:
    """Check and store one power's orders (``store_orders`` of a player known by id), without
    early resolution: for scripts and tests that resolve by hand."""
    command = SubmitOrdersCommand(game_id, Player(player_id), texts, phase, power, metadata, now)
    return await store_orders(store, command)


async def store_orders(store: EventStore, command: SubmitOrdersCommand) -> Submission:
    """Check and store one power's orders, deciding from ``command.seen`` (read here when not
    given), with one checked append (``_append_checked``); the player identified again in a
    state read again after a clash (``Player.id_in``)."""
    moment = _now(command.now)

    def known(phase_now: str, acting: str) -> PowerSubmission:
        return PhaseSubmissions(store, command.game_id, phase_now).known(acting)

    async def decide(found: GameState) -> tuple[Submission, NewEvent]:
        return _checked_submission(found, command.player.id_in(found, command.seen), command.orders,
                                   phase=command.phase, now=moment, metadata=command.metadata, power=command.power,
                                   known=known)

    submission, submissions = await _append_checked(store, command.game_id, command.seen, decide,
                                                    maybe_behind=not command.fresh)
    _count_submission(submission.state, submission.checks)
    return replace(submission, submissions=submissions)


async def _append_checked(store: EventStore, game_id: str, state: GameState | None,
                          decide: Callable[[GameState], Awaitable[tuple[Submission, NewEvent]]],
                          *, maybe_behind: bool = False) -> tuple[Submission, Mapping[str, PowerSubmission]]:
    """Decide from the game's state what to append to a power's order stream, and append it
    with the store's ``append_if_current``: under the game's share lock, only if the game's
    stream is still at the version decided from. When it has moved on (another worker's join,
    a resolution), the game is read again and the decision made again, a few times at most
    (then 409 concurrent_update). With ``maybe_behind`` (``state`` is this process's last
    reading, not read for this request) a refusal is only given once decided from a fresh read.
    The decision, and the phase's submissions with it (docs/architecture.md, "Performance")."""
    found = state
    version = state.version if state is not None else 0
    clashes = 0
    while clashes < SUBMIT_ATTEMPTS:
        if found is None:
            found, maybe_behind = await read_game(store, game_id), False
            if found is None:
                raise GameNotFound(game_id)
        try:
            decided, event = await decide(found)
        except DomainError:
            if not maybe_behind:
                raise
            found, maybe_behind = None, False  # perhaps refused for being behind: read it, decide again
            continue
        folded = PhaseSubmissions(store, game_id, decided.phase)
        stored = await store.append_if_current(game_id, game_stream(game_id), found.version,
                                               orders_stream(game_id, decided.phase, decided.power), event,
                                               watch_streams=folded.streams(found.must_act), watch_after=folded.after)
        if stored.appended:
            return decided, folded.advanced(stored.watched)
        version, found = found.version, None  # the game moved on: read it again and decide again
        clashes += 1
    raise ConcurrencyError(game_stream(game_id), version, None)


def _checked_submission(state: GameState, player_id: str, texts: Sequence[str], *, phase: str | None, now: datetime,
                        metadata: dict[str, Any] | None, power: str | None,
                        known: Callable[[str, str], PowerSubmission]) -> tuple[Submission, NewEvent]:
    """The checks of a PUT and the event that stores its accepted orders (422 when none is);
    ``known``: a power's submission in a phase as this process last folded it (the bound on
    writes is checked against it without a read)."""
    require_open_phase(state, now, phase)
    acting = choose_power(state, player_id, power)
    require_must_act(state, acting)
    require_room_to_write(state, acting, known(str(state.phase), acting), now)
    checks = check_orders(state, acting, texts)
    accepted = [c.order for c in checks if c.accepted and c.order]
    if texts and not accepted:
        raise Unprocessable("no order of this submission was accepted; nothing was stored",
                            code=ErrorCode.ORDERS_REJECTED, where="body.orders",
                            details=[c.as_json() for c in checks])
    # a set with a refused line is stored as far as it goes but does not finish the power: it
    # stays ordering until it fixes the line or says Done (docs/api.md, "A refused line")
    event = OrdersSubmitted(phase=str(state.phase), power=acting, player_id=player_id, orders=accepted,
                            complete=whole_set_accepted(checks))
    return Submission(event.phase, acting, checks, state), to_new_event(event, metadata)


def whole_set_accepted(checks: Sequence[OrderCheck]) -> bool:
    """Whether a PUT finishes the power's orders: only when no line of it was refused."""
    return all(c.accepted for c in checks)


def _count_submission(state: GameState, checks: list[OrderCheck]) -> None:
    accepted = sum(1 for c in checks if c.accepted and c.order)
    metrics.ORDER_SUBMISSIONS.labels(state.variant).inc()
    metrics.ORDERS.labels(state.variant, "accepted").inc(accepted)
    metrics.ORDERS.labels(state.variant, "rejected").inc(len(checks) - accepted)


def patched_orders(state: GameState, power: str, current: Sequence[str], texts: Sequence[str],
                   clear: Sequence[str]) -> tuple[list[OrderCheck], list[str], list[str]]:
    """A PATCH, pure: the checks of ``texts``, the power's orders after it, and the stored
    orders it had to drop. Each accepted order replaces the stored orders about the same
    subject (its unit, build site or matter: the variant's ``order_subject``), each ``clear``
    entry removes them, every other stored order stays; the whole set is then checked
    together, as a PUT of it would be (two orders for one unit, too many builds, gold)."""
    variant, phase = variant_of(state), str(state.phase)

    def subject(text: str) -> str | None:
        return variant.order_subject(text, phase, power)

    cleared: set[str] = set()
    for index, entry in enumerate(clear):
        named = subject(entry)
        if named is None:
            raise Unprocessable(f"{entry!r} names no unit, site or order of this game", code=ErrorCode.UNKNOWN_UNIT,
                                where=f"body.clear[{index}]")
        cleared.add(named)
    alone = check_orders(state, power, texts)
    new = [c.order for c in alone if c.accepted and c.order]
    replaced = cleared | {s for s in map(subject, new) if s is not None}
    kept = [text for text in current if subject(text) not in replaced]
    together = iter(check_orders(state, power, [*kept, *new]))
    kept_checks = [next(together) for _ in kept]
    # each text sent: its own rejection, or how it fares beside the orders kept (under its own text)
    checks = [replace(next(together), text=c.text) if c.accepted else c for c in alone]
    stored = [c.order for c in [*kept_checks, *checks] if c.accepted and c.order]
    dropped = [c.text for c in kept_checks if not c.accepted]
    return checks, stored, dropped


async def patch_orders(store: EventStore, game_id: str, player_id: str, texts: Sequence[str],
                       clear: Sequence[str], phase: str | None = None, metadata: dict[str, Any] | None = None, *,
                       power: str | None = None, now: datetime | None = None,
                       complete_when: CompleteWhen | None = None) -> Patch:
    """Set the orders of the units (sites, matters) that ``texts`` name and remove those of
    ``clear``, keeping the power's other orders (``patched_orders``). Under the share lock like
    a PUT; the power's order stream is appended at the version read, so two racing changes of
    one power's orders never lose one another: the later one is read and applied again on top
    of the earlier (a few times at most, then 409 concurrent_update). Nothing is written when
    nothing changes (the ready flag then stays). ``complete_when(state, power, orders)``: whether
    the orders after the change are a whole set (the power done, docs/hosting.md "Early
    resolution"), decided in the same transaction and written in the same event (the DAIDE
    server's go flag, docs/bots.md); a PATCH's are never."""
    for attempt in range(1, PATCH_ATTEMPTS + 1):
        try:
            return await _patch_once(store, game_id, player_id, texts, clear=clear, phase=phase, metadata=metadata,
                                     power=power, now=_now(now), complete_when=complete_when)
        except ConcurrencyError:
            if attempt == PATCH_ATTEMPTS:
                raise
    raise AssertionError("unreachable")


async def _patch_once(store: EventStore, game_id: str, player_id: str, texts: Sequence[str], *, clear: Sequence[str],
                      phase: str | None, metadata: dict[str, Any] | None, power: str | None, now: datetime,
                      complete_when: CompleteWhen | None = None) -> Patch:
    async with store.transaction(game_id, lock="share") as tx:
        state, acting = await _acting_power(tx, game_id, player_id, power, phase, now)
        stream = orders_stream(game_id, str(state.phase), acting)
        # the stream's version first, then the phase's submissions (folded per process, read
        # after the last position folded: constant whatever the power's resubmissions): they
        # hold at least every event up to that version, and one past it makes the append below
        # clash and the change be applied again on top of it
        version = await tx.events.stream_version(stream)
        submissions = await phase_submissions(tx, game_id, str(state.phase))
        require_room_to_write(state, acting, submissions.get(acting, PowerSubmission()), now)
        own = submissions.get(acting, PowerSubmission())
        before = own.orders
        checks, current, dropped = patched_orders(state, acting, before or (), texts, clear)
        if texts and not any(c.accepted for c in checks):
            raise Unprocessable("no order of this change was accepted; nothing was stored",
                                code=ErrorCode.ORDERS_REJECTED, where="body.orders",
                                details=[c.as_json() for c in checks])
        complete = complete_when is not None and complete_when(state, acting, current)
        # a judged patch also writes when only the power's being done changes (its ready flag
        # is cleared by any write); nothing stored and not done: nothing to write
        judged = complete_when is not None and (complete != own.complete or own.ready and not complete) \
            and (before is not None or complete)
        changed = before is None and bool(texts) or before is not None and tuple(current) != tuple(before) or judged
        if changed:
            event = OrdersSubmitted(phase=str(state.phase), power=acting, player_id=player_id, orders=current,
                                   complete=complete)
            await tx.events.append_on_commit(stream, [to_new_event(event, metadata)], expected_version=version)
    return Patch(str(state.phase), acting, checks, current, dropped, changed)


async def set_ready(store: EventStore, game_id: str, player_id: str, ready: bool, *,
                    power: str | None = None, phase: str | None = None, metadata: dict[str, Any] | None = None,
                    now: datetime | None = None, state: GameState | None = None) -> Submission:
    """Mark the power's submission final (or not), with one checked append like a PUT; the
    phase, the power, the state decided from and the phase's submissions after it."""
    moment = _now(now)

    async def decide(found: GameState) -> tuple[Submission, NewEvent]:
        require_open_phase(found, moment, phase)
        acting = choose_power(found, player_id, power)
        require_must_act(found, acting)
        current = str(found.phase)
        own = (await phase_submissions(store, game_id, current)).get(acting, PowerSubmission())
        require_room_to_write(found, acting, own, moment)
        if ready and own.orders is None:
            raise Conflict(f"{acting} has submitted no orders for {current} (submit an empty list to hold)",
                           code=ErrorCode.NOTHING_SUBMITTED)
        event = ReadySet(phase=current, power=acting, ready=ready)
        return Submission(current, acting, [], found), to_new_event(event, metadata)

    readied, submissions = await _append_checked(store, game_id, state, decide)
    return replace(readied, submissions=submissions)


async def current_orders(store: EventStore, game_id: str, phase: str) -> dict[str, list[str]]:
    """Each power's latest submission for ``phase``."""
    return submitted_orders(await phase_submissions(store, game_id, phase))


async def current_submissions(store: EventStore, game_id: str, phase: str) -> Mapping[str, PowerSubmission]:
    """Each power's latest submission for ``phase``, with who gave it (the house bot or not)."""
    return await phase_submissions(store, game_id, phase)


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
    metadata: dict[str, Any] | None = None
    bot_orders: list[OrdersSubmitted] = field(default_factory=list)

    @property
    def resolved(self) -> list[PhaseResolved]:
        return [e for e in self.events if isinstance(e, PhaseResolved)]


def resolution_plan(state: GameState, submissions: Mapping[str, PowerSubmission], now: datetime, *,
                    deadline: bool = False, metadata: dict[str, Any] | None = None) -> Plan:
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
    if plan.events:
        await tx.events.append_on_commit(game_stream(plan.game_id),
                                         [to_new_event(e, plan.metadata) for e in plan.events],
                                         expected_version=plan.expected_version)
    for orders in plan.bot_orders:  # after the phase they belong to has begun
        await tx.events.append_on_commit(orders_stream(plan.game_id, orders.phase, orders.power),
                                         [to_new_event(orders, {"actor": "house_bot"})], expected_version=None)


async def resolve_in(tx: Transaction, state: GameState, now: datetime, *, deadline: bool = False,
                     metadata: dict[str, Any] | None = None) -> list[PhaseResolved]:
    """Resolve the current phase of ``state`` in ``tx`` (which holds the game's exclusive lock)."""
    submissions = await phase_submissions(tx, state.game_id, str(state.phase))
    plan = resolution_plan(state, submissions, now, deadline=deadline, metadata=metadata)
    await write_plan(tx, plan, now)
    return plan.resolved


async def resolve_phase(store: EventStore, game_id: str, phase: str | None,
                        metadata: dict[str, Any] | None = None, now: datetime | None = None) -> PhaseResolved:
    """Resolve the current phase now (the operator's act): submitted orders count, nobody is
    put in civil disorder."""
    now = _now(now)
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


async def plan_due(tx: Transaction, game_id: str, now: datetime) -> tuple[str | None, Plan]:
    """What the clock worker does with one claimed game, read and decided but not yet written:
    resolve a phase whose deadline passed, resume a pause that ran out, or (nothing due: the
    row was stale) just write the games row again."""
    state = await read_state(tx, game_id)
    action = deadlines.due_action(state, now)
    if action == "resolve":
        submissions = await phase_submissions(tx, game_id, str(state.phase))
        return action, resolution_plan(state, submissions, now, deadline=True,
                                       metadata={"actor": "clock", "reason": "deadline"})
    if action == "resume":
        version, resumed = state.version, deadlines.resume(state, now, "clock")
        return action, Plan(game_id, version, [resumed], apply(state, resumed), {"actor": "clock"})
    return None, Plan(game_id, state.version, [], state)


# ----------------------------------------------------------------------------- the commands
# One call a write: a command in, an outcome out (services/adjudication/commands.py).

async def submit(store: EventStore, command: SubmitOrdersCommand) -> SubmitOutcome:
    """A PUT: the orders checked and stored (``store_orders``), then the phase resolved at once
    if nobody is waited for any more (``resolve_early``)."""
    command = await _phase_fixed(store, command)
    submission = await store_orders(store, command)
    resolved = await resolve_early(store, command.game_id, submission.phase, _now(command.now),
                                   state=submission.state, submissions=submission.submissions)
    return SubmitOutcome(submission, resolved)


async def _phase_fixed(store: EventStore, command: SubmitOrdersCommand) -> SubmitOrdersCommand:
    """The command with the phase it means: the one named, or the current one as the game is
    read now (a resolution in between then makes it a 409 wrong_phase, never orders silently
    stored for the next phase), the caller identified in that reading."""
    if command.phase is not None:
        return command
    seen = command.seen
    if seen is None or not command.fresh:
        seen = await read_game(store, command.game_id)
        if seen is None:
            raise GameNotFound(command.game_id)
    player = replace(command.player, player_id=command.player.id_in(seen, command.seen))
    return replace(command, player=player, phase=seen.phase, seen=seen, fresh=True)


async def patch(store: EventStore, command: PatchOrdersCommand) -> PatchOutcome:
    """A PATCH (``patch_orders``): it leaves the power ordering, so it never resolves a phase
    early (docs/hosting.md, "Early resolution")."""
    return PatchOutcome(await patch_orders(store, command.game_id, command.player.player_id, command.orders,
                                           command.clear, command.phase, command.metadata, power=command.power,
                                           now=command.now))


async def ready(store: EventStore, command: SetReady) -> SubmitOutcome:
    """The ready flag set or taken back (``set_ready``), then the phase resolved at once if
    nobody is waited for any more."""
    readied = await set_ready(store, command.game_id, command.player.player_id, command.ready, power=command.power,
                              phase=command.phase, metadata=command.metadata, now=command.now, state=command.seen)
    resolved = await resolve_early(store, command.game_id, readied.phase, _now(command.now),
                                   state=readied.state, submissions=readied.submissions)
    return SubmitOutcome(readied, resolved)


async def resolve(store: EventStore, command: ResolvePhase) -> ResolveOutcome:
    """The host's or the operator's resolution (``resolve_phase``)."""
    return ResolveOutcome(await resolve_phase(store, command.game_id, command.phase, command.metadata, command.now))


async def resolve_early(store: EventStore, game_id: str, phase: str, now: datetime, *,
                        state: GameState | None = None,
                        submissions: Mapping[str, PowerSubmission] | None = None) -> bool:
    """Early resolution after a stored submission or ready flag (``resolve_if_complete``). The
    caller's own write has committed already, so a failure here must not turn into an error
    for it: the clock worker resolves the phase at its deadline anyway."""
    try:
        return await resolve_if_complete(store, game_id, phase, now, state=state, submissions=submissions)
    except Exception:  # logged, never the caller's problem
        log.exception("early resolution of %s %s failed; the clock will resolve it", game_id, phase)
        return False
