"""Order intake and phase resolution: where the hosted game meets the rules engine.

- ``submit_orders``: under the games row's share lock (many powers at once), check the game
  is in a phase this power must act in, read each order with the engine's parser, check it
  with the engine's legality rules, and append the accepted ones as one OrdersSubmitted to the
  power's own stream ``orders-{game}-{phase}-{POWER}``; the latest event there is the power's
  current orders. Rejected orders are not stored.
- ``resolve_phase``: under the exclusive lock, read the phase's order streams, adjudicate, and
  append PhaseResolved (and GameFinished on a win) to the game stream with the expected
  version. A resolve that names a phase which has already moved on gets 409
  ``phase_already_resolved``: a phase is resolved exactly once however many requests race.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from services.adjudication.engine import (
    ENGINE_VERSION, ParseError, adjudicate, initial_position, load_map, normalise_order, parse_order,
    position_from_document, position_to_document, possible_orders,
)
from services.adjudication.engine.legality import orders_problems
from services.adjudication.engine.phase import PhaseType
from services.adjudication.engine.possible import adjustment_count
from services.adjudication.engine.orders import Order
from services.adjudication.engine.position import Position, Resolution
from services.lobby.service import fold_records, game_row
from services.lobby.state import GameState
from shared.errors import Conflict, Forbidden, Unprocessable
from shared.events import (
    AdjudicatedOrder, DislodgedRecord, GameFinished, OrdersSubmitted, PhaseResolved, from_recorded,
    game_stream, orders_prefix, orders_stream, to_new_event,
)
from shared.store import EventStore


# ----------------------------------------------------------------------------- the rules, pure

def opening(variant: str) -> tuple[str, dict[str, Any], list[str], list[str]]:
    """(first phase, position document, all powers, powers that must act) of a new game."""
    position = initial_position(variant)
    powers = sorted(load_map(variant).home_centres)
    must_act = sorted({pu.power for pu in position.units.values()})
    return str(position.phase), position_to_document(position), powers, must_act


@dataclass(frozen=True, slots=True)
class OrderCheck:
    text: str
    accepted: bool
    order: str | None = None  # canonical short notation when accepted
    reason: str | None = None
    where: str | None = None  # the word the parser stumbled on
    expected: tuple[str, ...] = ()

    def as_json(self) -> dict[str, Any]:
        if self.accepted:
            return {"text": self.text, "status": "accepted", "order": self.order}
        body: dict[str, Any] = {"text": self.text, "status": "rejected", "reason": self.reason}
        if self.where is not None:
            body["word"] = self.where
        if self.expected:
            body["expected"] = list(self.expected)
        return body


def check_orders(texts: Sequence[str], power: str, position: Position) -> list[OrderCheck]:
    """Each text read and checked: accepted in canonical notation, or rejected with the reason."""
    game_map = load_map(position.variant)
    phase_type = position.phase.type
    readings: list[Order | ParseError] = []
    for text in texts:
        reading = parse_order(text, game_map=game_map, phase_type=phase_type, power=power)
        if not isinstance(reading, ParseError):
            reading = normalise_order(reading, position, game_map)
        readings.append(reading)
    orders = [r for r in readings if not isinstance(r, ParseError)]
    problems = iter(orders_problems(orders, power, position, game_map))
    checks = []
    for text, reading in zip(texts, readings):
        if isinstance(reading, ParseError):
            checks.append(OrderCheck(text, False, reason=reading.message, where=reading.word,
                                     expected=tuple(reading.expected)))
            continue
        problem = next(problems)
        checks.append(OrderCheck(text, problem is None, order=str(reading) if problem is None else None,
                                 reason=problem))
    return checks


def read_stored_orders(texts: Sequence[str], power: str, position: Position) -> list[Order]:
    """Stored canonical orders back into Order values (they were checked when accepted)."""
    game_map = load_map(position.variant)
    orders = []
    for text in texts:
        reading = parse_order(text, game_map=game_map, phase_type=position.phase.type, power=power)
        if not isinstance(reading, ParseError):
            orders.append(normalise_order(reading, position, game_map))
    return orders


def resolution_event(position: Position, resolution: Resolution, edition: str) -> PhaseResolved:
    orders: dict[str, list[AdjudicatedOrder]] = {}
    for result in resolution.results:
        orders.setdefault(result.power, []).append(
            AdjudicatedOrder(order=str(result.order), result=result.result, reason=result.reason))
    dislodged = [DislodgedRecord(power=d.power, unit=str(d.unit), attacker_from=d.attacker_from,
                                 retreats=list(d.retreats)) for d in resolution.dislodged]
    return PhaseResolved(
        phase=str(resolution.phase), position_before=position_to_document(position), orders=orders,
        dislodged=dislodged, position=position_to_document(resolution.position),
        next_phase=str(resolution.next_phase), must_act=sorted(resolution.must_act),
        winners=sorted(resolution.winners), edition=edition, engine_version=ENGINE_VERSION)


def playable_position(state: GameState) -> Position:
    if state.status == "forming":
        raise Conflict(f"game {state.game_id} has not started", code="game_not_started")
    if state.status == "finished" or state.position is None:
        raise Conflict(f"game {state.game_id} is finished", code="game_finished")
    return position_from_document(state.position)


def power_must_act(state: GameState, power: str) -> None:
    if power not in state.must_act:
        raise Conflict(f"{power} has nothing to order in {state.phase}", code="nothing_to_order",
                       where="phase")


# ----------------------------------------------------------------------------- the I/O edges

@dataclass(frozen=True)
class Submission:
    phase: str
    power: str
    checks: list[OrderCheck]


async def submit_orders(store: EventStore, game_id: str, player_id: str, texts: Sequence[str],
                        phase: str | None = None, metadata: dict | None = None) -> Submission:
    async with store.transaction(game_id, lock="share") as tx:
        state = fold_records(await tx.read_stream(game_stream(game_id)))
        position = playable_position(state)
        if phase is not None and phase.strip().upper() != state.phase:
            raise Conflict(f"the game is at {state.phase}, not {phase}", code="wrong_phase", where="body.phase")
        power = state.power_of(player_id)
        if power is None:
            raise Forbidden("this player has no power in this game", code="no_power")
        power_must_act(state, power)
        checks = check_orders(texts, power, position)
        accepted = [c.order for c in checks if c.accepted and c.order]
        if texts and not accepted:
            raise Unprocessable("no order of this submission was accepted; nothing was stored",
                                code="orders_rejected", where="body.orders",
                                details=[c.as_json() for c in checks])
        event = OrdersSubmitted(phase=str(position.phase), power=power, player_id=player_id, orders=accepted)
        await tx.append(orders_stream(game_id, event.phase, power), [to_new_event(event, metadata)],
                        expected_version=None)
    return Submission(event.phase, power, checks)


async def current_orders(store: EventStore, game_id: str, phase: str) -> dict[str, list[str]]:
    """Each power's latest submission for ``phase``."""
    async with store.transaction() as tx:
        streams = await tx.read_streams(orders_prefix(game_id, phase))
    return latest_orders(streams)


def latest_orders(streams: dict[str, list]) -> dict[str, list[str]]:
    orders: dict[str, list[str]] = {}
    for records in streams.values():
        if records:
            event = from_recorded(records[-1])
            if isinstance(event, OrdersSubmitted):
                orders[event.power] = list(event.orders)
    return orders


async def resolve_phase(store: EventStore, game_id: str, phase: str | None,
                        metadata: dict | None = None) -> PhaseResolved:
    async with store.transaction(game_id, lock="exclusive") as tx:
        state = fold_records(await tx.read_stream(game_stream(game_id)))
        if phase is not None and state.phase != phase and any(r.phase == phase for r in state.resolved):
            raise Conflict(f"phase {phase} has already been resolved; the game is at {state.phase}",
                           code="phase_already_resolved", where="body.phase")
        position = playable_position(state)
        if phase is not None and state.phase != phase:
            raise Conflict(f"the game is at {state.phase}, not {phase}", code="wrong_phase", where="body.phase")
        submitted = latest_orders(await tx.read_streams(orders_prefix(game_id, str(position.phase))))
        orders = {power: read_stored_orders(texts, power, position) for power, texts in sorted(submitted.items())}
        edition = state.settings.edition
        event = resolution_event(position, adjudicate(position, orders, edition=edition), edition)
        events = [event]
        if event.winners:
            events.append(GameFinished(reason="victory", winners=event.winners, phase=event.next_phase))
        await tx.append(game_stream(game_id), [to_new_event(e, metadata) for e in events],
                        expected_version=state.version)
        new_state = fold_records(await tx.read_stream(game_stream(game_id)))
        await tx.put_game(game_row(new_state))
    return event


def possible_for(state: GameState, power: str, submitted: list[str]) -> dict[str, Any]:
    """The legal orders of each of the power's units now, which units still lack an order, and
    in adjustment phases the builds allowed (positive) or removals owed (negative)."""
    position = playable_position(state)
    game_map = load_map(position.variant)
    options = possible_orders(position, power, game_map)
    ordered = set()
    for order in read_stored_orders(submitted, power, position):
        unit = getattr(order, "unit", None)
        if unit is not None:
            ordered.add(unit.location)
    adjusting = position.phase.type is PhaseType.ADJUSTMENTS
    lacking = [] if adjusting else sorted(loc for loc in options if loc not in ordered)
    return {
        "phase": str(position.phase),
        "power": power,
        "must_act": power in state.must_act,
        "orders": {loc: [str(o) for o in found] for loc, found in sorted(options.items())},
        "submitted": list(submitted),
        "lacking": lacking,
        "adjustment": adjustment_count(position, power) if adjusting else 0,
    }
