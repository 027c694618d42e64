"""The lobby over HTTP: create, list, join, start, and the public summary of a game.

Runs alone with ``entente serve --service lobby`` (``services.cli.serve``
builds the app: ``create_app`` is its factory).
"""
from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from fastapi import APIRouter, Body, FastAPI, Path, Query, Request

from shared.auth import hash_token, require, same_hash
from shared.errors import BadRequest, ErrorCode, Forbidden
from shared.game.draws import own_ballot
from shared.game.log import phase_submissions
from shared.game.state import GameState
from shared.game.waiting import order_status
from shared.http.app import build_app
from shared.http.dependencies import (
    BearerToken,
    CurrentCaller,
    CurrentGame,
    CurrentPlayer,
    HostOrOperator,
    Now,
    ReadStoreDep,
    StoreDep,
    request_metadata,
)
from shared.http.paging import MAX_CURSOR_LENGTH, decode_cursor, encode_cursor
from shared.http.rate_limits import rate_limited
from shared.http.summary import GameSummary
from shared.settings import Settings
from shared.web import router as web_router

from . import service
from .schemas import (
    Concession,
    CreatedGame,
    CreateGame,
    DrawStatus,
    DrawVote,
    ExtendDeadline,
    FinishGame,
    GameList,
    JoinedGame,
    JoinGame,
    PauseGame,
)
from .seats import SeatList, seat_list

router = APIRouter(tags=["lobby"])


@router.post("/games", status_code=201, response_model=CreatedGame, dependencies=[rate_limited("create")])
async def create_game(body: CreateGame, store: StoreDep, request: Request, now: Now) -> CreatedGame:
    """Create a game; the response holds the host token, shown only this once."""
    created = await service.create_game(
        store, name=body.name, variant=body.variant,
        settings=service.settings_for(body.variant, body.settings.model_dump()),
        metadata=request_metadata(request, "host"), now=now)
    return CreatedGame.model_validate({**created.state.summary(), "host_token": created.host_token,
                                       "invite_code": created.invite_code})


@router.get("/games", response_model=GameList)
async def list_games(store: ReadStoreDep, request: Request, token: BearerToken,
                     status: Literal["forming", "active", "finished"] | None = None,
                     variant: Annotated[str | None, Query(max_length=40, description=(
                         "only this variant's games (a name of GET /variants)"))] = None,
                     bots_may_join: Annotated[bool | None, Query(description=(
                         "true: only the games an account's API key (a bot) may join; false: only the others"))
                     ] = None,
                     limit: Annotated[int, Query(ge=1, le=500)] = 100,
                     cursor: Annotated[str | None, Query(max_length=MAX_CURSOR_LENGTH, description=(
                         "next_cursor of the page before: the page after it"))] = None) -> GameList:
    """The games, latest changed first, a page at a time (``next_cursor``: the next page; null: the
    last); private games only in the operator's list. ``bots_may_join=true``: the games a bot
    may take a seat in (docs/bots.md)."""
    if variant is not None:
        service.check_variant_filter(variant)
    after = None
    if cursor is not None:
        fields = decode_cursor(cursor, "games")
        try:
            after = (datetime.fromisoformat(str(fields["u"])), str(fields["g"]))
        except (KeyError, TypeError, ValueError):
            raise BadRequest("this cursor was not given by this list; start again without one",
                             code=ErrorCode.INVALID_CURSOR, where="query.cursor") from None
        if fields.get("s") != status or fields.get("v") != variant or fields.get("b") != bots_may_join:
            raise BadRequest("this cursor belongs to a list with other filters", code=ErrorCode.INVALID_CURSOR,
                             where="query.cursor")
    operator = token is not None and same_hash(hash_token(token), request.app.state.operator_hash)
    games, following = await service.list_games(store, status, limit, after, variant, listed_only=not operator,
                                                bots_may_join=bots_may_join)
    next_cursor = (encode_cursor("games", u=following[0].isoformat(), g=following[1], s=status, v=variant,
                                 b=bots_may_join) if following else None)
    return GameList.model_validate({"games": games, "next_cursor": next_cursor})


@router.get("/games/{game_id}", response_model=GameSummary)
async def game_summary(game: CurrentGame, store: StoreDep) -> GameSummary:
    """The public summary: status, phase, powers with codenames, who has submitted orders for
    the phase and who is ready (never the orders); never tokens or identities."""
    active = game.status == "active" and game.phase
    submissions = await phase_submissions(store, game.game_id, str(game.phase)) if active else {}
    return GameSummary.model_validate({**game.summary(), **order_status(game, submissions)})


@router.post("/games/{game_id}/players", status_code=201, response_model=JoinedGame,
             dependencies=[rate_limited("join")])
async def join_game(game: CurrentGame, store: StoreDep, request: Request, now: Now,
                    body: Annotated[JoinGame, Body(default_factory=JoinGame)]) -> JoinedGame:
    """Take a seat: a player id, a secret token and a codename unique in the game; a private game
    takes ``invite_code``. With an account's session token the seat is also linked to the account
    (one seat per account and game); services/accounts' middleware puts the account in
    ``request.state`` and refuses bot tokens."""
    account = getattr(request.state, "account", None)
    if getattr(request.state, "api_key", False) and not game.settings.bots_may_join:
        raise Forbidden("this game does not seat bots (bots_may_join is off): sign in to join as a person",
                        code=ErrorCode.BOTS_NOT_ALLOWED, where="header.authorization")
    joined = await service.join_game(store, game.game_id, metadata=request_metadata(request, "player"), now=now,
                                     account_id=account.account_id if account is not None else None,
                                     invite_code=body.invite_code)
    return JoinedGame(game_id=game.game_id, player_id=joined.player_id, codename=joined.codename,
                      token=joined.token)


@router.delete("/games/{game_id}/players/{seat}", response_model=GameSummary)
async def remove_seat(game: CurrentGame, caller: HostOrOperator, store: StoreDep, request: Request, now: Now,
                      seat: Annotated[str, Path(max_length=64, description=(
                          "the seat's codename as the summary lists it (any case), or its player id"))]) -> GameSummary:
    """Free a seat before the start (host or operator): ``SeatRemoved`` in the log, the seat's
    token plays nothing any more and its place can be taken again (docs/hosting.md, "Removing a seat")."""
    state = await service.remove_seat(store, game.game_id, seat, request_metadata(request, caller.role), now)
    return GameSummary.model_validate(state.summary())


@router.get("/games/{game_id}/seats", response_model=SeatList)
async def list_seats(game: CurrentGame, caller: CurrentCaller, store: StoreDep) -> SeatList:
    """The seats (codename, powers, house bot, DAIDE bot) and the game's DAIDE port; with the host's
    or operator's token every seat's DAIDE records (IAM locks and takeovers), with a seat's its own."""
    return await seat_list(store, game, caller)


@router.post("/games/{game_id}/start", response_model=GameSummary)
async def start_game(game: CurrentGame, caller: HostOrOperator, store: StoreDep, request: Request,
                     now: Now) -> GameSummary:
    """Start a full game (host or operator): seats are drawn at random from a stored seed and
    the first phase's clock starts."""
    state = await service.start_game(store, game.game_id, request_metadata(request, caller.role), now)
    return GameSummary.model_validate(state.summary())


@router.post("/games/{game_id}/finish", response_model=GameSummary)
async def finish_game(game: CurrentGame, caller: CurrentCaller, body: FinishGame, store: StoreDep,
                      request: Request) -> GameSummary:
    """End a game without a winner: a draw or an abandoned game (operator only)."""
    require(caller, "operator")
    state = await service.finish_game(store, game.game_id, body.reason, request_metadata(request, "operator"))
    return GameSummary.model_validate(state.summary())


@router.post("/games/{game_id}/extend", response_model=GameSummary)
async def extend_deadline(game: CurrentGame, caller: HostOrOperator, body: ExtendDeadline, store: StoreDep,
                          request: Request, now: Now) -> GameSummary:
    """Push the current deadline back (host or operator): at most one phase length per phase."""
    state = await service.clock_act(store, game.game_id, "extend", now=now, by=caller.role, minutes=body.minutes,
                                    metadata=request_metadata(request, caller.role))
    return GameSummary.model_validate(state.summary())


@router.post("/games/{game_id}/pause", response_model=GameSummary)
async def pause_game(game: CurrentGame, caller: HostOrOperator, store: StoreDep, request: Request, now: Now,
                     body: Annotated[PauseGame | None, Body()] = None) -> GameSummary:
    """Stop the clock (host or operator): once per phase; it resumes by itself after the pause."""
    state = await service.clock_act(store, game.game_id, "pause", now=now, by=caller.role,
                                    minutes=body.minutes if body else None,
                                    metadata=request_metadata(request, caller.role))
    return GameSummary.model_validate(state.summary())


@router.post("/games/{game_id}/resume", response_model=GameSummary)
async def resume_game(game: CurrentGame, caller: HostOrOperator, store: StoreDep, request: Request,
                      now: Now) -> GameSummary:
    """Start the clock again with the time that was left when it stopped."""
    state = await service.clock_act(store, game.game_id, "resume", now=now, by=caller.role,
                                    metadata=request_metadata(request, caller.role))
    return GameSummary.model_validate(state.summary())


def draw_status(state: GameState, player_id: str | None) -> DrawStatus:
    """The draw's public part (``votes`` only with public votes) and the caller's own vote,
    always present: null when none is cast, an eliminated seat's included (docs/api.md)."""
    return DrawStatus.model_validate({**state.summary()["draw"], **own_ballot(state, player_id)})


@router.post("/games/{game_id}/draw", response_model=DrawStatus, response_model_exclude_unset=True)
async def vote_draw(game: CurrentGame, caller: CurrentPlayer, body: DrawVote, store: StoreDep, request: Request,
                    now: Now) -> DrawStatus:
    """Vote for a draw (``{"vote": true}``; with ``partial_draws``, ``"powers"`` names the
    surviving powers that share it) or withdraw the vote (``false``); the draw passes, and the
    game ends, when every surviving player has voted for the same draw."""
    state = await service.vote_draw(store, game.game_id, str(caller.player_id), body.vote, body.powers,
                                    metadata=request_metadata(request, "player", caller.player_id), now=now)
    return draw_status(state, caller.player_id)


@router.post("/games/{game_id}/concede", response_model=DrawStatus, response_model_exclude_unset=True)
async def concede(game: CurrentGame, caller: CurrentPlayer, body: Concession, store: StoreDep, request: Request,
                  now: Now) -> DrawStatus:
    """Concede the game to a surviving power (``{"to": "FRANCE"}``, games with ``concessions``)
    or withdraw the concession (``{"to": null}``); when every other surviving player concedes
    to that power, the game ends as its victory."""
    state = await service.concede(store, game.game_id, str(caller.player_id), body.to,
                                  metadata=request_metadata(request, "player", caller.player_id), now=now)
    return draw_status(state, caller.player_id)


@router.get("/games/{game_id}/draw", response_model=DrawStatus, response_model_exclude_unset=True)
async def get_draw(game: CurrentGame, caller: CurrentPlayer) -> DrawStatus:
    """Whether the draw passed, and the caller's own vote (everyone's only with public votes)."""
    return draw_status(game, caller.player_id)


def create_app(settings: Settings | None = None) -> FastAPI:
    """The lobby alone: games, seats, the clock's host acts and draws, and the web client's pages
    (docs/web.md), which the multi-service deployment routes here."""
    return build_app("Entente lobby", [router, web_router], settings)
