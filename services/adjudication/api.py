"""Order intake and resolution over HTTP. Runs alone with ``uvicorn services.adjudication.api:app``."""
from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Body, Request
from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from services.factory import build_app
from services.lobby.dependencies import CurrentGame, CurrentPlayer, HostOrOperator, StoreDep, request_metadata
from shared.errors import Forbidden
from shared.settings import Settings

from . import service

router = APIRouter(tags=["adjudication"])

OrderText = Annotated[str, StringConstraints(min_length=1, max_length=200)]


class SubmitOrders(BaseModel):
    model_config = ConfigDict(extra="forbid")
    orders: list[OrderText] = Field(..., max_length=64, description="orders in any notation the engine reads")
    phase: str | None = Field(None, max_length=10, description=(
        "the phase these orders are meant for, e.g. S1901M; when the game is elsewhere the "
        "answer is 409 wrong_phase and nothing is stored"))


class OrderFeedback(BaseModel):
    text: str
    status: Literal["accepted", "rejected"]
    order: str | None = None
    reason: str | None = None
    word: str | None = None
    expected: list[str] | None = None


class SubmissionResult(BaseModel):
    phase: str
    power: str
    accepted: int
    rejected: int
    orders: list[OrderFeedback]


class ResolveRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    phase: str | None = Field(None, max_length=10, description=(
        "the phase the caller means to resolve, e.g. S1901M: with it a phase is resolved exactly "
        "once however many requests race (the others get 409 phase_already_resolved)"))


class ResolvedPhase(BaseModel):
    phase: str
    next_phase: str
    orders: dict[str, list[dict[str, Any]]]
    dislodged: list[dict[str, Any]]
    must_act: list[str]
    winners: list[str]


class PossibleOrders(BaseModel):
    phase: str
    power: str
    must_act: bool
    orders: dict[str, list[str]]
    submitted: list[str]
    lacking: list[str]
    adjustment: int = Field(0, description="adjustment phases: builds allowed (positive) or removals owed (negative)")


@router.put("/games/{game_id}/orders", response_model=SubmissionResult, response_model_exclude_none=True)
async def submit_orders(game: CurrentGame, caller: CurrentPlayer, body: SubmitOrders,
                        store: StoreDep, request: Request) -> dict:
    """Replace the caller's orders for the current phase; each order comes back accepted
    (in canonical notation) or rejected with the reason. Rejected orders are not stored; when
    none is accepted the answer is 422 and nothing is stored."""
    assert caller.player_id is not None
    submission = await service.submit_orders(
        store, game.game_id, caller.player_id, body.orders, body.phase,
        request_metadata(request, "player", caller.player_id))
    checks = [c.as_json() for c in submission.checks]
    accepted = sum(1 for c in submission.checks if c.accepted)
    return {"phase": submission.phase, "power": submission.power, "accepted": accepted,
            "rejected": len(checks) - accepted, "orders": checks}


@router.post("/games/{game_id}/resolve", response_model=ResolvedPhase)
async def resolve(game: CurrentGame, caller: HostOrOperator, store: StoreDep, request: Request,
                  body: Annotated[ResolveRequest | None, Body()] = None) -> dict:
    """Resolve the current phase now (host or operator)."""
    event = await service.resolve_phase(store, game.game_id, body.phase if body else None,
                                        request_metadata(request, caller.role))
    return {"phase": event.phase, "next_phase": event.next_phase,
            "orders": {p: [o.model_dump() for o in orders] for p, orders in event.orders.items()},
            "dislodged": [d.model_dump() for d in event.dislodged],
            "must_act": event.must_act, "winners": event.winners}


@router.get("/games/{game_id}/possible-orders", response_model=PossibleOrders)
async def possible_orders(game: CurrentGame, caller: CurrentPlayer, store: StoreDep) -> dict:
    """The legal orders of each of the caller's units now, and which still lack an order."""
    power = game.power_of(caller.player_id)
    if power is None:
        service.playable_state(game)  # 409 before the start
        raise Forbidden("this player has no power in this game", code="no_power")
    phase = game.phase or ""
    submitted = (await service.current_orders(store, game.game_id, phase)).get(power, [])
    return service.possible_for(game, power, submitted)


def create_app(settings: Settings | None = None):
    return build_app("Entente adjudication", [router], settings)


app = create_app()
