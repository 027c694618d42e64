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
from typing import Any, Mapping, Sequence

from services.adjudication.engine import ENGINE_VERSION
from services.adjudication.variants import Opening, OrderCheck, PhaseOutcome, Variant, get_variant
from services.lobby.service import fold_records, game_row
from services.lobby.state import GameState
from shared.errors import Conflict, Forbidden, Unprocessable
from shared.events import (
    AdjudicatedOrder, DislodgedRecord, GameFinished, OrdersSubmitted, PhaseResolved, from_recorded,
    game_stream, orders_prefix, orders_stream, to_new_event,
)
from shared.store import EventStore


# ----------------------------------------------------------------------------- the rules, pure

def variant_of(state: GameState) -> Variant:
    return get_variant(state.variant)


def opening(variant: str, settings: Mapping[str, Any], seed: int) -> Opening:
    """The first phase, state document, seats and who must act of a new game."""
    return get_variant(variant).opening(settings, seed)


def check_orders(state: GameState, power: str, texts: Sequence[str]) -> list[OrderCheck]:
    return variant_of(state).check_orders(playable_state(state), power, texts)


def adjudicate_phase(state: GameState, position_before: dict[str, Any], submitted: Mapping[str, Sequence[str]],
                     civil_disorder: frozenset[str] = frozenset()) -> PhaseResolved:
    """Resolve one phase from stored canonical orders: the same call for a live resolution
    and for ``entente replay``, so that a replay checks exactly what was stored."""
    seed = state.seed if state.seed is not None else 0
    outcome = variant_of(state).resolve(position_before, submitted, settings=state.settings.model_dump(),
                                        seed=seed, civil_disorder=civil_disorder)
    return resolution_event(position_before, outcome, state.settings.edition, civil_disorder)


def resolution_event(position_before: dict[str, Any], outcome: PhaseOutcome, edition: str,
                     civil_disorder: frozenset[str] = frozenset()) -> PhaseResolved:
    orders = {power: [AdjudicatedOrder(**result) for result in results] for power, results in outcome.orders.items()}
    details = dict(outcome.details)
    dislodged = [DislodgedRecord(**d) for d in details.pop("dislodged", [])]
    return PhaseResolved(
        phase=outcome.phase, position_before=position_before, orders=orders, dislodged=dislodged,
        position=outcome.state, next_phase=outcome.next_phase, must_act=list(outcome.must_act),
        winners=list(outcome.winners), edition=edition, engine_version=ENGINE_VERSION,
        civil_disorder=sorted(civil_disorder), details=details)


def playable_state(state: GameState) -> dict[str, Any]:
    """The current state document of a game that is being played (409 otherwise)."""
    if state.status == "forming":
        raise Conflict(f"game {state.game_id} has not started", code="game_not_started")
    if state.status == "finished" or state.position is None:
        raise Conflict(f"game {state.game_id} is finished", code="game_finished")
    return state.position


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
        playable_state(state)
        if phase is not None and phase.strip().upper() != state.phase:
            raise Conflict(f"the game is at {state.phase}, not {phase}", code="wrong_phase", where="body.phase")
        power = state.power_of(player_id)
        if power is None:
            raise Forbidden("this player has no power in this game", code="no_power")
        power_must_act(state, power)
        checks = check_orders(state, power, texts)
        accepted = [c.order for c in checks if c.accepted and c.order]
        if texts and not accepted:
            raise Unprocessable("no order of this submission was accepted; nothing was stored",
                                code="orders_rejected", where="body.orders",
                                details=[c.as_json() for c in checks])
        event = OrdersSubmitted(phase=str(state.phase), power=power, player_id=player_id, orders=accepted)
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
        position_before = playable_state(state)
        if phase is not None and state.phase != phase:
            raise Conflict(f"the game is at {state.phase}, not {phase}", code="wrong_phase", where="body.phase")
        submitted = latest_orders(await tx.read_streams(orders_prefix(game_id, str(state.phase))))
        event = adjudicate_phase(state, position_before, submitted)
        events: list = [event]
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
    current = playable_state(state)
    variant = variant_of(state)
    options = variant.possible_orders(current, power)
    chosen = set(submitted)
    adjustment = variant.view(current, power).get("adjustments", {}).get(power, 0)
    return {
        "phase": str(state.phase),
        "power": power,
        "must_act": power in state.must_act,
        "orders": options,
        "submitted": list(submitted),
        "lacking": [] if adjustment else sorted(key for key, found in options.items() if not chosen & set(found)),
        "adjustment": adjustment,
    }
