"""Order intake and resolution over HTTP. Runs alone with ``entente serve --service adjudication``."""
from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Annotated, Literal, NotRequired, TypedDict

from fastapi import APIRouter, Body, FastAPI, Query, Request, Response
from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from shared.auth import Caller, require
from shared.errors import ErrorCode, Forbidden, Unprocessable
from shared.game import commands, intake
from shared.game.commands import Player, ResolvePhase, SetReady
from shared.game.guards import choose_power, require_playing
from shared.game.state import GameState
from shared.http.app import build_app
from shared.http.dependencies import (
    BEARER_REQUIRED,
    CurrentCaller,
    CurrentGame,
    CurrentPlayer,
    Now,
    OrderWriting,
    StoreDep,
    request_metadata,
)
from shared.http.models import MenuGroup, RequestBody, StructuredOrder, absent_if_none, written_once
from shared.http.rate_limits import rate_limited
from shared.rules.variants import OrderCheck
from shared.rules.variants.documents import OrderCheckAnswer
from shared.rules.variants.documents import StructuredOrder as StructuredOrderJSON
from shared.settings import Settings
from shared.store import EventStore

from . import service
from .possible import PossibleOrdersJSON, possible_for

router = APIRouter(tags=["adjudication"])

OrderText = Annotated[str, StringConstraints(min_length=1, max_length=200)]


class SubmitOrders(RequestBody):
    model_config = ConfigDict(json_schema_extra={"examples": [
        {"orders": ["A PAR - BUR", "F BRE - MAO", "A MAR S A PAR - BUR"], "phase": "S1901M"}]})
    orders: list[OrderText] = Field(..., max_length=64, description="orders in any notation the engine reads")
    phase: str | None = Field(None, max_length=10, description=(
        "the phase these orders are meant for, e.g. S1901M; when the game is elsewhere the "
        "answer is 409 wrong_phase and nothing is stored"))
    power: str | None = Field(None, max_length=20, description=(
        "which power of the caller's seat these orders are for; needed only when the seat plays "
        "several powers that must act now"))


class PatchOrders(RequestBody):
    model_config = ConfigDict(json_schema_extra={"examples": [
        {"orders": ["A PAR - BUR"], "phase": "S1901M"}, {"clear": ["F BRE"]}]})
    orders: list[OrderText] = Field([], max_length=64, description=(
        "orders that replace the power's orders for the same units (build sites, matters); the others stay"))
    clear: list[OrderText] = Field([], max_length=64, description=(
        "units (A LVP), build sites or orders whose orders are removed"))
    phase: str | None = Field(None, max_length=10, description="as for PUT: 409 wrong_phase when the game is elsewhere")
    power: str | None = Field(None, max_length=20, description="as for PUT: needed only for a seat of several")


class ReadyRequest(RequestBody):
    power: str | None = Field(None, max_length=20, description="as for orders: needed only for a seat of several")
    phase: str | None = Field(None, max_length=10, description="the phase meant; 409 wrong_phase when elsewhere")


class ReadyResult(BaseModel):
    phase: str
    power: str
    ready: bool
    resolved: bool = Field(..., description="the phase resolved at once: nobody was waited for any more")


class OrderFeedback(BaseModel):
    text: str
    status: Literal["accepted", "rejected"]
    order: str | None = absent_if_none("accepted: the order in canonical notation")
    structured: StructuredOrder | None = absent_if_none("accepted: the order as a structured value")
    reason: str | None = absent_if_none("rejected: why")
    word: str | None = absent_if_none("rejected: the word the parser stumbled on")
    expected: list[str] | None = absent_if_none("rejected: what the parser expected there")


class OrdersAnswer(BaseModel):
    phase: str
    power: str
    accepted: int
    rejected: int
    orders: list[OrderFeedback]
    resolved: bool = Field(False, description="the phase resolved at once: these were the last orders waited for")


class SubmissionResult(OrdersAnswer):
    done: bool = Field(..., description=(
        "the power is done with this set; false when a line was refused: the accepted orders are "
        "stored but the power stays ordering until it fixes the line or says it is done (POST /ready)"))


class PatchResult(OrdersAnswer):
    current: list[str] = Field(..., description="the power's orders for the phase after the change")
    dropped: list[str] = Field([], description=(
        "orders that were stored but no longer fit beside the new ones (removed with this change)"))
    stored: bool = Field(..., description="false when nothing changed (nothing was written; the ready flag stays)")


class ResolveRequest(RequestBody):
    phase: str | None = Field(None, max_length=10, description=(
        "the phase the caller means to resolve, e.g. S1901M: with it a phase is resolved exactly "
        "once however many requests race (the others get 409 phase_already_resolved)"))


class ResolvedPhase(BaseModel):
    phase: str
    next_phase: str
    orders: dict[str, list[dict[str, object]]]
    dislodged: list[dict[str, object]]
    must_act: list[str]
    winners: list[str]


class PowerOptions(BaseModel):
    phase: str
    power: str
    must_act: bool
    orders: dict[str, list[str]] = Field(..., description="the legal orders as text, under the variant's own keys")
    menu: list[MenuGroup] = Field(..., description="the same orders structured, in one shape for every variant")
    submitted: list[str]
    submitted_by_house_bot: bool = Field(False, description=(
        "the stored orders are the house bot's, given for the power while its player was away "
        "(docs/bots.md); they count unless the player sends their own"))
    submitted_structured: list[StructuredOrder]
    lacking: list[str]
    adjustment: int = Field(0, description="adjustment phases: builds allowed (positive) or removals owed (negative)")


class PossibleOrders(PowerOptions):
    """One power's options (``?power=``, or the seat's power that must act, the first of
    several); without ``?power=`` also every acting power of the seat's, by power."""

    powers: dict[str, PowerOptions] | None = Field(None, description=(
        "without ?power=: each power of the seat that must act now, its options by power (a seat of "
        "several powers reads them all in one request); null with ?power="))


@router.put("/games/{game_id}/orders", response_model=SubmissionResult, openapi_extra=BEARER_REQUIRED,
            name="submit_orders")  # the operation id clients know (intake.submit_orders is the plain function)
async def replace_orders(writer: OrderWriting, body: SubmitOrders, request: Request) -> Response:
    """Replace the caller's orders for the current phase; each order comes back accepted
    (in canonical notation) or rejected with the reason. Rejected orders are not stored, and a
    set with a refused line does not finish the power (``done`` false: it stays ordering until
    it fixes the line or sets the ready flag); when none is accepted the answer is 422 and
    nothing is stored. After the deadline: 409
    ``deadline_passed``, nothing stored. An empty list holds every unit."""
    assert writer.caller.player_id is not None
    # Unread (``writer.read`` false), ``writer.game`` may be a little behind the log: the append
    # checks the game's version, and a refusal or a clash is decided again from a fresh read,
    # the caller identified again by its token (docs/architecture.md, "A PUT, step by step")
    player = Player(writer.caller.player_id, writer.token, request.app.state.operator_hash)
    outcome = await intake.submit(writer.store, commands.SubmitOrdersCommand(
        writer.game.game_id, player, body.orders, body.phase, body.power,
        request_metadata(request, "player", writer.caller.player_id), writer.now, seen=writer.game,
        fresh=writer.read))
    submission = outcome.submission
    return written_once(SubmissionResult.model_validate({
        "phase": submission.phase, "power": submission.power, "resolved": outcome.resolved,
        "done": intake.whole_set_accepted(submission.checks),
        **_feedback(submission.state, submission.phase, submission.power, submission.checks)}))


class CheckedOrderJSON(OrderCheckAnswer):
    structured: NotRequired[StructuredOrderJSON]  # an accepted order's


class FeedbackJSON(TypedDict):
    """A submission's checks as its answer carries them (``_feedback``)."""

    accepted: int
    rejected: int
    orders: list[OrderCheckAnswer | CheckedOrderJSON]  # a rejected text's check, an accepted order's too


def _feedback(game: GameState, phase: str, power: str, checks: list[OrderCheck]) -> FeedbackJSON:
    """Each text's check, the accepted ones also as structured orders, and the counts."""
    variant = intake.variant_of(game)

    def checked(check: OrderCheck) -> OrderCheckAnswer | CheckedOrderJSON:
        if check.accepted and check.order:
            accepted: CheckedOrderJSON = {**check.as_json(),
                                          "structured": variant.describe_order(check.order, phase, power)}
            return accepted
        return check.as_json()

    orders = [checked(c) for c in checks]
    accepted = sum(1 for c in checks if c.accepted)
    return {"accepted": accepted, "rejected": len(checks) - accepted, "orders": orders}


@router.patch("/games/{game_id}/orders", response_model=PatchResult, dependencies=[rate_limited("orders")],
              name="patch_orders")  # the operation id clients know, as for PUT
async def amend_orders(game: CurrentGame, caller: CurrentPlayer, body: PatchOrders,
                       store: StoreDep, request: Request, now: Now) -> PatchResult:
    """Set the orders of the units these orders name, keeping the power's other orders, and
    remove the orders of the units in ``clear`` (for bots that relay one command at a time, and
    clicks on a board). The same checks and refusals as PUT; the power is left *ordering*, not
    done: it clears the ready flag, and early resolution waits until the power sets the flag
    (``POST /ready``) or sends its whole set (``PUT``)."""
    assert caller.player_id is not None
    if not body.orders and not body.clear:
        raise Unprocessable("a change needs orders or clear (PUT replaces the whole set)",
                            code=ErrorCode.INVALID_REQUEST, where="body")
    outcome = await intake.patch(store, commands.PatchOrdersCommand(
        game.game_id, Player(caller.player_id), body.orders, body.clear, body.phase or game.phase, body.power,
        request_metadata(request, "player", caller.player_id), now))
    patch = outcome.patch
    return PatchResult.model_validate({
        "phase": patch.phase, "power": patch.power, "resolved": outcome.resolved, "current": patch.current,
        "dropped": patch.dropped, "stored": patch.stored, **_feedback(game, patch.phase, patch.power, patch.checks)})


async def _ready(game: GameState, caller: Caller, body: ReadyRequest | None, store: EventStore, request: Request,
                 now: datetime, *, ready: bool) -> ReadyResult:
    outcome = await intake.ready(store, SetReady(
        game.game_id, Player(str(caller.player_id)), ready, (body.phase if body else None) or game.phase,
        body.power if body else None, request_metadata(request, "player", caller.player_id), now, seen=game))
    readied = outcome.submission
    return ReadyResult(phase=readied.phase, power=readied.power, ready=ready, resolved=outcome.resolved)


@router.post("/games/{game_id}/ready", response_model=ReadyResult, dependencies=[rate_limited("orders")])
async def mark_ready(game: CurrentGame, caller: CurrentPlayer, store: StoreDep, request: Request, now: Now,
                     body: Annotated[ReadyRequest | None, Body()] = None) -> ReadyResult:
    """Mark the submitted orders final. In games with ``require_ready`` a phase resolves early
    only once every power that must act has submitted and is ready; a new submission clears it."""
    return await _ready(game, caller, body, store, request, now, ready=True)


@router.delete("/games/{game_id}/ready", response_model=ReadyResult, dependencies=[rate_limited("orders")])
async def unmark_ready(game: CurrentGame, caller: CurrentPlayer, store: StoreDep, request: Request, now: Now,
                       body: Annotated[ReadyRequest | None, Body()] = None) -> ReadyResult:
    """Take the ready flag back (the orders stay submitted)."""
    return await _ready(game, caller, body, store, request, now, ready=False)


@router.post("/games/{game_id}/resolve", response_model=ResolvedPhase)
async def resolve(game: CurrentGame, caller: CurrentCaller, store: StoreDep, request: Request, now: Now,
                  body: Annotated[ResolveRequest | None, Body()] = None) -> ResolvedPhase:
    """Resolve the current phase now: the operator, or the host unless the game was created
    with ``host_may_resolve: false`` (a host who also plays could cut the others' time)."""
    if caller.role == "host" and not game.settings.host_may_resolve:
        raise Forbidden("this game's host may not resolve phases (host_may_resolve is off); "
                        "it resolves by its clock", code=ErrorCode.HOST_MAY_NOT_RESOLVE, where="header.authorization")
    require(caller, "host", "operator")
    # without a body: the phase the caller saw, so that a retried request cannot resolve the next one
    event = (await intake.resolve(store, ResolvePhase(
        game.game_id, (body.phase if body else None) or game.phase, request_metadata(request, caller.role), now))).event
    seen: Mapping[str, object] = event.model_dump(mode="json")
    if caller.role != "operator":  # the host sees what the public sees (Ekonia: no orders)
        seen = intake.variant_of(game).history_view(seen, None)
    return ResolvedPhase.model_validate({"phase": event.phase, "next_phase": event.next_phase, "orders": seen["orders"],
                                         "dislodged": seen["dislodged"], "must_act": event.must_act,
                                         "winners": event.winners})


@router.get("/games/{game_id}/possible-orders", response_model=PossibleOrders)
async def possible_orders(game: CurrentGame, caller: CurrentPlayer, store: StoreDep,
                          power: Annotated[str | None, Query(max_length=20)] = None) -> PossibleOrders:
    """The legal orders of each of the caller's units now, and which still lack an order
    (``?power=`` picks a power of a seat that plays several; without it, ``powers`` has every
    acting power's)."""
    if not game.powers_of(caller.player_id):
        require_playing(game)  # 409 before the start
    phase = game.phase or ""
    current = await service.current_submissions(store, game.game_id, phase)

    def options(chosen: str) -> PossibleOrdersJSON:
        found = current.get(chosen)
        orders = list(found.orders) if found is not None and found.orders is not None else []
        return possible_for(game, chosen, orders, by_house_bot=found is not None and found.by_house_bot)

    if power is not None:
        return PossibleOrders.model_validate(options(choose_power(game, str(caller.player_id), power)))
    seat = game.powers_of(caller.player_id)
    acting = [p for p in seat if p in game.must_act] or seat[:1]
    every = {p: options(p) for p in acting}
    return PossibleOrders.model_validate({**every[acting[0]], "powers": every})


def create_app(settings: Settings | None = None) -> FastAPI:
    return build_app("Entente adjudication", [router], settings)
