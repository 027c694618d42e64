"""A DAIDE seat's orders and go flag (SUB, GOF, NOT (GOF), NOT (SUB)) and when the seat is done,
as the syntax document has it (docs/bots.md, "When a DAIDE seat is done"): functions of a
client's ``Session`` (session.py), which hands its SUB and GOF messages here. Each turns the
message into a command of the intake, the one way in for every order (shared/game/intake.py),
and its outcome into DAIDE messages: nothing here stores, reads submissions or resolves.

- a SUB, GOF or NOT (GOF) is for the turn it names, or else the turn of the last NOW the
  client had been sent when its bytes were read; another turn than the current one is REJ;
- the go flag is set at the start of every turn: complete orders make the seat done, judged
  in the very append that stores them; NOT (GOF) holds the turn until GOF; GOF is done.
"""
from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Protocol, TypeVar

from shared.errors import DomainError
from shared.events import EventMetadata
from shared.game import intake
from shared.game.commands import CompleteWhen, PatchOrdersCommand, Player, SetReady
from shared.game.state import GameState
from shared.rules.variants import get_variant
from shared.store import ConcurrencyError

from .board import dislodged_of, phase_of, text_of
from .messages import mis_message
from .orders import asks_what_rules_do, last_per_unit, note_for
from .syntax import Item
from .watch import Hub

T = TypeVar("T")
CLASHED = "the game changed while this was decided, again and again; nothing was stored: send it again"


class Refused:
    """What ``outcome_of`` gives for a write the intake refused (it answered the client already)."""


REFUSED = Refused()


async def outcome_of(session: SessionView, items: list[Item], write: Awaitable[T],
                     refused: Callable[[DomainError], None] | None = None) -> T | Refused:
    """What the intake's ``write`` gave; REFUSED when it refused: the message was then answered,
    by ``refused`` for a refusal of the rules where given, else REJ with the reason (the rules',
    or the clash that outlasted the retries: docs/bots.md)."""
    try:
        return await write
    except DomainError as error:
        if refused is not None:
            refused(error)
        else:
            session.reject(items, error.message)
    except ConcurrencyError:
        session.reject(items, CLASHED)
    return REFUSED


async def accepted(session: SessionView, items: list[Item], write: Awaitable[Any]) -> bool:
    """Whether the intake took ``write``; if not, the message was answered REJ with the reason."""
    return not isinstance(await outcome_of(session, items, write), Refused)


class SessionView(Protocol):
    """What these functions read and call of a client's session: session.py's ``Session``,
    which imports this module (so this one names only what it needs, as watch.py does)."""

    hub: Hub
    game_id: str | None
    player_id: str | None
    power: str | None
    client_phase: str | None
    go_flag: tuple[str, bool] | None

    def send(self, items: list[Item]) -> None: ...
    def reject(self, items: list[Item], why: str | None = None) -> None: ...
    def huh(self, items: list[Item], at: int = 0) -> None: ...
    def _metadata(self) -> EventMetadata: ...
    async def _playing(self, items: list[Item]) -> GameState | None: ...


def turn_meant(session: SessionView, items: list[Item], args: list[Item],
               state: GameState) -> tuple[str, list[Item]] | None:
    """The phase a message is for, and its other arguments: the turn it names, or else the
    turn the client had been told when it sent it; REJ (with an ADM) when that turn is not
    the current one (it was processed meanwhile: the message never counts for the next)."""
    named = phase_of(args[0]) if args else None
    meant = named or session.client_phase
    if meant is None or meant != state.phase:
        session.reject(items, f"the turn is {state.phase}, not {meant}: this message was for a turn "
                              "that is not the current one, and nothing was done")
        return None
    return meant, args[1:] if named else args


def go_of(session: SessionView, phase: str) -> bool | None:
    """The go flag the client set for ``phase`` (None: neither GOF nor NOT (GOF))."""
    flag = session.go_flag
    return flag[1] if flag is not None and flag[0] == phase else None


def judge(go: bool | None) -> CompleteWhen:
    """Whether a seat's orders make it done: GOF said, or (the flag not cleared by NOT (GOF))
    nothing missing; judged in the very append that stores them."""
    def complete(state: GameState, power: str, orders: Sequence[str]) -> bool:
        return go is True or go is None and mis_message(state, power, orders) == ["MIS"]

    return complete


def _command(session: SessionView, phase: str, texts: list[str], clear: list[str] | None = None, *,
             complete_when: CompleteWhen | None = None, ready: bool | None = None,
             seen: GameState | None = None) -> PatchOrdersCommand:
    """The intake's command for a change of this seat's orders (shared/game/commands.py)."""
    assert session.game_id is not None and session.player_id is not None
    return PatchOrdersCommand(session.game_id, Player(session.player_id), texts, clear or [], phase, session.power,
                              session._metadata(), session.hub.desk.now(), complete_when=complete_when, ready=ready,
                              seen=seen)


async def submit(session: SessionView, items: list[Item], args: list[Item]) -> None:
    """SUB [(turn)] (order) ...: THX for each order, MIS of what this turn still misses; one
    command of the intake (the change, the ready flag a GOF asks for, early resolution), answered
    from its outcome without reading the game again."""
    state = await session._playing(items)
    if state is None or session.power is None or session.game_id is None or session.player_id is None:
        return
    found = turn_meant(session, items, args, state)
    if found is None:
        return
    phase, given = found
    if not given or not all(isinstance(order, list) and order for order in given):
        session.huh(items, 1 + len(args) - len(given))
        return
    orders = last_per_unit([order for order in given if isinstance(order, list)])
    texts = [text_of(order) for order in orders]
    go = go_of(session, phase)
    ready_game = state.settings.require_ready
    command = _command(session, phase, texts, complete_when=None if ready_game else judge(go),
                       ready=True if ready_game and go else None, seen=state)
    outcome = await outcome_of(session, items, intake.patch(session.hub.store, command),
                               refused=lambda error: _refused(session, items, orders, error, state))
    if isinstance(outcome, Refused):
        return
    for order, check in zip(orders, outcome.patch.checks, strict=True):
        session.send(["THX", order, ["MBV" if check.accepted else note_for(check.reason)]])
    missing = mis_message(state, session.power, outcome.patch.current)  # this turn's, before it may resolve
    if missing != ["MIS"]:
        session.send(missing)
    if outcome.resolved:
        session.hub.poke(session.game_id)


async def go_flag(session: SessionView, items: list[Item], go: bool) -> None:
    """GOF: the seat is done with the orders it has stored (none stored: its units are left as
    at a deadline); NOT (GOF): the turn is not processed before the deadline or this seat's
    GOF. Refused only before the start and after the end."""
    state = await session._playing(items)
    if state is None or session.game_id is None or session.player_id is None or session.power is None:
        return
    found = turn_meant(session, items, [], state)
    if found is None:
        return
    phase = found[0]
    session.go_flag = (phase, go)
    if session.power not in state.must_act:
        session.send(["YES", items])  # nothing to order: nothing to hold or to finish
        return
    game_id, player_id, power = session.game_id, session.player_id, session.power

    async def finish() -> bool:
        """The go flag stored (and the ready flag, where the game asks for one): resolved or not."""
        outcome = await intake.patch(session.hub.store, _command(session, phase, [], complete_when=judge(go),
                                                                 seen=state))
        if not state.settings.require_ready:
            return outcome.resolved
        readied = await intake.ready(session.hub.store, SetReady(
            game_id, Player(player_id), go, phase, power, session._metadata(), session.hub.desk.now()))
        return outcome.resolved or readied.resolved

    resolved = await outcome_of(session, items, finish())
    if isinstance(resolved, Refused):
        return
    session.send(["YES", items])
    if resolved:
        session.hub.poke(game_id)


async def clear(session: SessionView, items: list[Item], units: list[str], state: GameState) -> None:
    """NOT (SUB [(order) ...]): the orders of those units (every unit's) taken back."""
    command = _command(session, str(state.phase), [], units, seen=state)
    if await accepted(session, items, intake.patch(session.hub.store, command)):
        session.send(["YES", items])


def _refused(session: SessionView, items: list[Item], orders: list[list[Item]], error: DomainError,
             state: GameState) -> None:
    if error.code == "orders_rejected" and isinstance(error.details, list):
        for order, check in zip(orders, error.details, strict=False):
            session.send(["THX", order, [note_for(check.get("reason"))]])
    elif error.code == "nothing_to_order" and session.power is not None:
        for order in orders:
            session.send(["THX", order, ["MBV" if done_anyway(state, session.power, order) else "NRS"]])
    else:
        session.reject(items, error.message)


def done_anyway(state: GameState, power: str, order: list[Item]) -> bool:
    """``asks_what_rules_do`` of the game's current turn."""
    position = state.position or {}
    variant = get_variant(state.variant)
    kind = variant.phase_kind(str(state.phase)) if state.phase and position else ""
    owed = variant.adjustments(position).get(power, 0) if kind == "adjustments" else 0
    stranded = [d["unit"] for d in dislodged_of(position, power) if not d["retreats"]] if position else []
    return asks_what_rules_do(order, power, kind, owed, stranded)
