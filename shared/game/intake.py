"""The one way in for every order (docs/architecture.md, "One way in for every order"): order
intake, ready flags, early resolution and draw votes as one service with commands in and
outcomes out (shared/game/commands.py), used alike by HTTP (``PUT`` and ``PATCH`` of orders,
the ready flag, the draw vote, a message), DAIDE (``SUB``, ``GOF``, ``NOT (GOF)``, ``NOT (SUB)``,
``DRW``, ``SND``: services/daide/ordering.py, session.py), the house bots' phases and the command
line. ``handle`` takes any command.

One concurrency strategy for all of them, the checked append: decide from the game as the
caller read it (and each power's submission as this process last folded it), then append with
the store's ``append_if_current``, which writes only if the game's stream is still at the
version decided from (and, for a change of one power's orders, the power's order stream still
at the version its submission was folded at); when either has moved on, read it again and
decide again, a few times at most (then 409 concurrent_update). The same append hands back the
phase's submissions up to it, so early resolution (shared/game/resolution.py) is judged without
another read. A draw vote, which may end the game, appends to the game stream itself at the
version decided from; a message appends to the game's press stream, guarded by the game's.

- ``submit`` (a ``PUT``): each order read with the engine's parser and checked with its
  legality rules; the accepted ones stored as one OrdersSubmitted in the power's own stream
  ``orders-{game}-{phase}-{POWER}`` (the latest event there is the power's current orders);
  rejected orders are not stored. Then the phase resolved at once if nobody is waited for.
- ``patch``: a change of some of the power's orders (``patched_orders``); a DAIDE seat's
  orders and go flag are changes judged whole or not by the command (docs/bots.md).
- ``ready``: ReadySet in the same stream (a later submission clears it).
"""
from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any

from shared import metrics
from shared.errors import Conflict, DomainError, ErrorCode, Unprocessable
from shared.events import Event, EventMetadata, OrdersSubmitted, ReadySet, game_stream, orders_stream, to_new_event
from shared.events_social import MessageSent, press_stream
from shared.rules.variants import OrderCheck, Variant, get_variant
from shared.store import ConcurrencyError, EventStore, GameNotFound, NewEvent

from . import draws
from .commands import (
    Concede,
    Patch,
    PatchOrdersCommand,
    PatchOutcome,
    Player,
    PressOutcome,
    ResolveOutcome,
    ResolvePhase,
    SendPress,
    SetReady,
    Submission,
    SubmitOrdersCommand,
    SubmitOutcome,
    VoteDraw,
    VoteOutcome,
)
from .guards import choose_power, require_must_act, require_open_phase, require_playing, require_room_to_write
from .log import PhaseSubmissions, phase_submissions
from .press import check_message, message_json, readable
from .repository import append_events, read_game, read_state
from .resolution import log, now_or_clock, resolve_if_complete, resolve_phase
from .state import GameState
from .submissions import PowerSubmission

SUBMIT_ATTEMPTS = 3  # a write decided again after the game moved on under it
PATCH_ATTEMPTS = 3  # a change of one power's orders read again after another change won the race


def variant_of(state: GameState) -> Variant:
    return get_variant(state.variant)


def check_orders(state: GameState, power: str, texts: Sequence[str]) -> list[OrderCheck]:
    return variant_of(state).check_orders(require_playing(state), power, texts)


async def submit_orders(store: EventStore, game_id: str, player_id: str, texts: Sequence[str],
                        phase: str | None = None, metadata: EventMetadata | None = None, *,
                        power: str | None = None, now: datetime | None = None) -> Submission:
    """Check and store one power's orders (``store_orders`` of a player known by id), without
    early resolution: for scripts and tests that resolve by hand."""
    command = SubmitOrdersCommand(game_id, Player(player_id), texts, phase, power, metadata, now)
    return await store_orders(store, command)


async def store_orders(store: EventStore, command: SubmitOrdersCommand) -> Submission:
    """Check and store one power's orders, deciding from ``command.seen`` (read here when not
    given), with one checked append (``_append_checked``); the player identified again in a
    state read again after a clash (``Player.id_in``)."""
    moment = now_or_clock(command.now)

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
                        metadata: EventMetadata | None, power: str | None,
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




def _patched(state: GameState, acting: str, own: PowerSubmission, command: PatchOrdersCommand,
             player_id: str) -> tuple[Patch, OrdersSubmitted | None]:
    """A change decided, pure: what it stores and the event that stores it (None: nothing
    changes, and the ready flag then stays)."""
    before = own.orders
    checks, current, dropped = patched_orders(state, acting, before or (), command.orders, command.clear)
    if command.orders and not any(c.accepted for c in checks):
        raise Unprocessable("no order of this change was accepted; nothing was stored",
                            code=ErrorCode.ORDERS_REJECTED, where="body.orders",
                            details=[c.as_json() for c in checks])
    judge = command.complete_when
    complete = judge is not None and judge(state, acting, current)
    # a judged change also writes when only the power's being done changes (its ready flag is
    # cleared by any write); nothing stored and not done: nothing to write
    judged = judge is not None and (complete != own.complete or own.ready and not complete) \
        and (before is not None or complete)
    changed = before is None and bool(command.orders) or before is not None and tuple(current) != tuple(before) \
        or judged
    phase = str(state.phase)
    event = OrdersSubmitted(phase=phase, power=acting, player_id=player_id, orders=current, complete=complete) \
        if changed else None
    return Patch(phase, acting, checks, current, dropped, changed), event


async def patch(store: EventStore, command: PatchOrdersCommand) -> PatchOutcome:
    """Set the orders of the units (sites, matters) that ``command.orders`` name and remove
    those of ``command.clear``, keeping the power's other orders (``patched_orders``), with one
    checked append: at the game's version decided from, and at the version of the power's order
    stream its submission was folded at (so two racing changes of one power's orders never lose
    one another: the later one is applied again on top of the earlier). Nothing is written when
    nothing changes. Then, for a stored change, the ready flag of ``command.ready`` and early
    resolution (a PATCH leaves the power ordering: it never resolves a phase; a DAIDE seat's
    judged change may)."""
    moment = now_or_clock(command.now)
    found, own = command.seen, None  # own: the power's submission as read for this change (None: as folded)
    clashes = 0
    while clashes <= PATCH_ATTEMPTS:
        if found is None:
            found = await read_game(store, command.game_id)
            if found is None:
                raise GameNotFound(command.game_id)
        require_open_phase(found, moment, command.phase)
        player_id = command.player.id_in(found, command.seen)
        acting = choose_power(found, player_id, command.power)
        require_must_act(found, acting)
        phase = str(found.phase)
        folded = PhaseSubmissions(store, command.game_id, phase)
        mine = own if own is not None else folded.known(acting)
        require_room_to_write(found, acting, mine, moment)
        decided, event = _patched(found, acting, mine, command, player_id)
        if event is None:
            if own is None:  # judged from this process's fold, perhaps behind: judged again from a read
                own = (await phase_submissions(store, command.game_id, phase)).get(acting, PowerSubmission())
                continue
            return PatchOutcome(decided, False, found, None)
        try:
            stored = await store.append_if_current(
                command.game_id, game_stream(command.game_id), found.version,
                orders_stream(command.game_id, phase, acting), to_new_event(event, command.metadata),
                expected_version=mine.writes, watch_streams=folded.streams(found.must_act),
                watch_after=folded.after)
        except ConcurrencyError:  # the power's orders changed since they were folded: read them, apply again
            own = (await phase_submissions(store, command.game_id, phase)).get(acting, PowerSubmission())
            clashes += 1
            continue
        if not stored.appended:  # the game moved on: read it again and decide again
            found, own = None, None
            clashes += 1
            continue
        submissions: Mapping[str, PowerSubmission] = folded.advanced(stored.watched)
        if command.ready is not None and found.settings.require_ready:
            submissions = await _ready_after(store, command, found, player_id, acting, moment, submissions)
        resolved = await resolve_early(store, command.game_id, phase, moment, state=found, submissions=submissions)
        return PatchOutcome(decided, resolved, found, submissions)
    raise ConcurrencyError(game_stream(command.game_id), found.version if found is not None else 0, None)


async def _ready_after(store: EventStore, command: PatchOrdersCommand, state: GameState, player_id: str,
                       acting: str, now: datetime, submissions: Mapping[str, PowerSubmission]
                       ) -> Mapping[str, PowerSubmission]:
    """The ready flag a change asks for, after it (a new submission clears the flag; the
    DAIDE seat's GOF still stands): the phase's submissions after it, or as they were when the
    flag is refused (the change stands)."""
    try:
        readied = await set_ready(store, command.game_id, player_id, bool(command.ready), power=acting,
                                  phase=str(state.phase), metadata=command.metadata, now=now, state=state)
    except DomainError:
        return submissions
    return readied.submissions if readied.submissions is not None else submissions


async def set_ready(store: EventStore, game_id: str, player_id: str, ready: bool, *,
                    power: str | None = None, phase: str | None = None, metadata: EventMetadata | None = None,
                    now: datetime | None = None, state: GameState | None = None) -> Submission:
    """Mark the power's submission final (or not), with one checked append like a PUT; the
    phase, the power, the state decided from and the phase's submissions after it."""
    moment = now_or_clock(now)

    async def decide(found: GameState) -> tuple[Submission, NewEvent]:
        require_open_phase(found, moment, phase)
        acting = choose_power(found, player_id, power)
        require_must_act(found, acting)
        current = str(found.phase)
        own = PhaseSubmissions(store, game_id, current).known(acting)
        if own.orders is None:  # perhaps only not folded here yet: read
            own = (await phase_submissions(store, game_id, current)).get(acting, PowerSubmission())
        require_room_to_write(found, acting, own, moment)
        if ready and own.orders is None:
            raise Conflict(f"{acting} has submitted no orders for {current} (submit an empty list to hold)",
                           code=ErrorCode.NOTHING_SUBMITTED)
        event = ReadySet(phase=current, power=acting, ready=ready)
        return Submission(current, acting, [], found), to_new_event(event, metadata)

    readied, submissions = await _append_checked(store, game_id, state, decide)
    return replace(readied, submissions=submissions)


# ----------------------------------------------------------------------------- the commands
# One call a write: a command in, an outcome out (shared/game/commands.py).

async def submit(store: EventStore, command: SubmitOrdersCommand) -> SubmitOutcome:
    """A PUT: the orders checked and stored (``store_orders``), then the phase resolved at once
    if nobody is waited for any more (``resolve_early``)."""
    command = await _phase_fixed(store, command)
    submission = await store_orders(store, command)
    resolved = await resolve_early(store, command.game_id, submission.phase, now_or_clock(command.now),
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


async def ready(store: EventStore, command: SetReady) -> SubmitOutcome:
    """The ready flag set or taken back (``set_ready``), then the phase resolved at once if
    nobody is waited for any more."""
    readied = await set_ready(store, command.game_id, command.player.player_id, command.ready, power=command.power,
                              phase=command.phase, metadata=command.metadata, now=command.now, state=command.seen)
    resolved = await resolve_early(store, command.game_id, readied.phase, now_or_clock(command.now),
                                   state=readied.state, submissions=readied.submissions)
    return SubmitOutcome(readied, resolved)


async def vote(store: EventStore, command: VoteDraw | Concede) -> VoteOutcome:
    """A seat's draw vote or concession (shared/game/draws.py): DrawVoted or ConcessionVoted,
    and GameFinished when the draw passes or the others concede, appended to the game stream
    at the version decided from (a clash: read, decide
    again). Seven seats voting at once clash six times among them, so the last attempt decides
    under the game's exclusive lock, from the game read in it: a vote is never refused for
    another's having come first."""
    for attempt in range(1, SUBMIT_ATTEMPTS + 1):
        last = attempt == SUBMIT_ATTEMPTS
        state = None if last else await read_game(store, command.game_id)
        if not last and state is None:
            raise GameNotFound(command.game_id)
        try:
            async with store.transaction(command.game_id, lock="exclusive" if last else "share") as tx:
                state = state or await read_state(tx, command.game_id)
                events = ballot(state, command)
                return VoteOutcome(await append_events(tx, state, events, command.metadata, command.now))
        except ConcurrencyError:
            if last:
                raise
    raise AssertionError("unreachable")


def ballot(state: GameState, command: VoteDraw | Concede) -> list[Event]:
    """The events of a draw vote or a concession, decided from ``state``."""
    player_id = command.player.id_in(state, None)
    if isinstance(command, Concede):
        return draws.concede(state, player_id, command.to)
    return draws.vote(state, player_id, command.in_favour, command.powers)


async def send_press(store: EventStore, command: SendPress) -> PressOutcome:
    """A press message (``check_message``, shared/game/press.py) appended to the game's press
    stream with one checked append, the press stream read back in the same round trip for the
    message's place among what its sender reads; a message decided from a game that moved on
    (it finished meanwhile) is decided again."""
    moment = now_or_clock(command.now)
    found: GameState | None = None
    for _ in range(SUBMIT_ATTEMPTS):
        found = await read_game(store, command.game_id)
        if found is None:
            raise GameNotFound(command.game_id)
        player_id = command.player.id_in(found, None)
        draft = check_message(found, player_id, command.sender, command.to, command.text)
        message = MessageSent(message_id="m_" + secrets.token_hex(8), phase=found.phase or "", sender=draft.sender,
                              codename=draft.codename, recipients=draft.recipients, text=draft.text, sent_at=moment)
        stream = press_stream(command.game_id)
        stored = await store.append_if_current(command.game_id, game_stream(command.game_id), found.version, stream,
                                               to_new_event(message, command.metadata), watch_streams=[stream])
        if stored.appended:
            records = [r for r in stored.watched if r.stream_id == stream]
            place = len(readable(records, found.powers_of(player_id)))
            return PressOutcome(message_json(message, records[-1], place), found)
    raise ConcurrencyError(game_stream(command.game_id), found.version if found is not None else 0, None)


async def resolve(store: EventStore, command: ResolvePhase) -> ResolveOutcome:
    """The host's or the operator's resolution (``resolve_phase``)."""
    return ResolveOutcome(await resolve_phase(store, command.game_id, command.phase, command.metadata, command.now))


Command = SubmitOrdersCommand | PatchOrdersCommand | SetReady | VoteDraw | Concede | SendPress | ResolvePhase
Outcome = SubmitOutcome | PatchOutcome | VoteOutcome | PressOutcome | ResolveOutcome
_HANDLERS: dict[type, Callable[[EventStore, Any], Awaitable[Any]]] = {
    SubmitOrdersCommand: submit, PatchOrdersCommand: patch, SetReady: ready, VoteDraw: vote, Concede: vote,
    SendPress: send_press, ResolvePhase: resolve}


async def handle(store: EventStore, command: Command) -> Outcome:
    """Any command of the intake, its outcome."""
    outcome: Outcome = await _HANDLERS[type(command)](store, command)
    return outcome


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
