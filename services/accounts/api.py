"""Sign-in, the account's own games, bot tokens, and identities revealed at the end.

Runs alone with ``entente serve --service accounts`` (``services.cli.serve``
builds the app: ``create_app`` is its factory); ``services.app`` serves it with the rest.
"""
from __future__ import annotations

from typing import Annotated
from urllib.parse import urlencode

from fastapi import APIRouter, Depends, FastAPI, Path, Query, Request, Response
from fastapi.responses import JSONResponse, RedirectResponse, StreamingResponse
from pydantic import BaseModel, Field
from starlette.background import BackgroundTask

from shared import credentials
from shared.auth import Caller, require
from shared.errors import Conflict, DomainError, ErrorCode, Forbidden, Unauthorized
from shared.game.guards import require_seat_in_game
from shared.http.app import build_app
from shared.http.dependencies import BearerToken, CurrentCaller, CurrentGame, StoreDep, request_metadata
from shared.http.models import DateTimeText, RequestBody
from shared.http.observability import live_stream
from shared.http.rate_limits import rate_limited
from shared.settings import Settings

from . import oauth, seats, service

router = APIRouter(tags=["accounts"])


# ----------------------------------------------------------------------------- sign-in

class SignInOptions(BaseModel):
    sign_in: bool = Field(..., description="whether this server offers sign-in (GET /auth/login)")
    provider: str = Field(..., description="the sign-in provider's name, e.g. discord")
    web_push: bool = Field(False, description="whether seats may subscribe browsers to Web Push (GET /push/key)")
    email: bool = Field(False, description="whether seats may have their deadline reminders mailed (PUT …/email)")


@router.get("/auth/options", response_model=SignInOptions)
async def sign_in_options(request: Request) -> SignInOptions:
    """Whether this server offers sign-in, Web Push and e-mail, so that a page offers each only
    where it works."""
    settings = request.app.state.settings
    return SignInOptions(sign_in=bool(settings.oauth_client_id), provider=settings.oauth_provider,
                         web_push=bool(settings.vapid_secret()), email=bool(settings.smtp_secret()))


@router.get("/auth/login", status_code=302, response_class=RedirectResponse)
async def login(request: Request) -> RedirectResponse:
    """Send the browser to the provider (Discord by default) to sign in."""
    settings = request.app.state.settings
    if not settings.oauth_client_id:
        raise oauth.SignInUnavailable("sign-in is not configured on this server (ENTENTE_OAUTH_CLIENT_ID)")
    state, nonce = oauth.new_state(settings)
    response = RedirectResponse(oauth.authorize_url(settings, state, nonce), status_code=302)
    response.set_cookie(oauth.STATE_COOKIE, nonce, max_age=oauth.STATE_SECONDS, httponly=True,
                        samesite="lax", path="/auth", secure=settings.oauth_redirect_uri.startswith("https:"))
    return response


class SignedIn(BaseModel):
    account_id: str
    name: str
    token: str = Field(..., description="the account's session token: keep it, it is shown once")


@router.get("/auth/callback", response_model=SignedIn)
async def callback(request: Request, store: StoreDep,
                   code: Annotated[str | None, Query()] = None,
                   state: Annotated[str | None, Query()] = None,
                   error: Annotated[str | None, Query()] = None) -> Response:
    """Where the provider sends the browser back: exchange the code, find or create the account,
    and answer with a session token. A browser's own navigation (the web client's sign-in) is
    sent back to the lobby page instead, the token in the address's fragment (docs/web.md,
    "Signing in"). A ``state`` or ``code`` of any length is checked here, so an over-long one is
    the documented 400 ``invalid_state`` / ``invalid_code`` (never the framework's 422)."""
    settings = request.app.state.settings
    navigating = is_page_navigation(request)
    try:
        if error:
            raise Unauthorized("the sign-in was declined at the provider",
                               code=ErrorCode.OAUTH_DENIED, where="query.error")
        nonce = oauth.check_state(settings, state, request.cookies.get(oauth.STATE_COOKIE))
        user = await oauth.exchange_code(settings, code or "", oauth.code_verifier(settings, nonce))
        signed_in = await service.sign_in(store, settings.oauth_provider, user.user_id, user.name,
                                          {"actor": "account"})
    except DomainError as refused:
        if not navigating:
            raise
        return RedirectResponse(f"/#{urlencode({'sign_in_error': refused.message})}", status_code=303)
    response = SignedIn(account_id=signed_in.account.account_id, name=signed_in.account.name,
                        token=signed_in.token)
    answer: Response = (RedirectResponse(f"/#{urlencode({'session': signed_in.token})}", status_code=303)
                        if navigating else JSONResponse(response.model_dump()))
    answer.delete_cookie(oauth.STATE_COOKIE, path="/auth")
    return answer


def is_page_navigation(request: Request) -> bool:
    """Whether a person's browser opened this address as a page (not a script's fetch nor an
    API client): ``Sec-Fetch-Dest: document``, or, from a browser too old to send it, an Accept
    that asks for HTML first."""
    destination = request.headers.get("sec-fetch-dest")
    if destination is not None:
        return destination == "document"
    return request.headers.get("accept", "").startswith("text/html")


async def current_account(request: Request, token: BearerToken, store: StoreDep) -> credentials.Account:
    """The signed-in account of the request (its session token); 401 otherwise."""
    if token is None:
        raise Unauthorized("this needs an account's session token", code=ErrorCode.TOKEN_REQUIRED,
                           where="header.authorization")
    account = getattr(request.state, "account", None) or await credentials.account_for_token(store, token)
    if account is None:
        raise Unauthorized("not a session token (or API key) of a signed-in account", code=ErrorCode.INVALID_TOKEN,
                           where="header.authorization")
    return account


CurrentAccount = Annotated[credentials.Account, Depends(current_account)]


async def signed_in_account(request: Request, account: CurrentAccount) -> credentials.Account:
    """The account, signed in with a session: an API key cannot manage keys or sign out."""
    if getattr(request.state, "api_key", False):
        raise Forbidden("an API key plays the account's games; manage keys signed in", code=ErrorCode.SESSION_REQUIRED,
                        where="header.authorization")
    return account


SignedInAccount = Annotated[credentials.Account, Depends(signed_in_account)]


@router.post("/auth/logout", status_code=204, response_class=Response)
async def logout(account: SignedInAccount, token: BearerToken, store: StoreDep) -> Response:
    """Close this session: its token stops working everywhere (bot tokens stay)."""
    await service.sign_out(store, account, token or "")
    return Response(status_code=204)


class Me(BaseModel):
    account_id: str
    name: str
    provider: str


@router.get("/me", response_model=Me)
async def me(account: CurrentAccount) -> Me:
    return Me(account_id=account.account_id, name=account.name, provider=account.provider)


class MySeat(BaseModel):
    game_id: str
    name: str
    status: str
    phase: str | None
    player_id: str
    codename: str
    power: str | None = Field(None, description="the seat's power once the game started "
                                                "(its first, for a seat of several)")
    powers: list[str] = Field(default_factory=list, description="every power the seat plays")
    deadline: DateTimeText | None = Field(None, description="when the current phase resolves")
    must_act: list[str] = Field(default_factory=list, description="the seat's powers that must act now")
    waiting_for: list[str] = Field(default_factory=list, description=(
        "the seat's powers the phase still waits for: what the seat owes (docs/social.md, \"API keys\")"))
    submitted: list[str] = Field(default_factory=list, description="the seat's powers that are done ordering")
    writes: dict[str, int] = Field(default_factory=dict, description=(
        "per power of the seat, how many writes of this phase (PUT, PATCH, the ready flag, the house bot's) "
        "the entry reflects: after your own nth accepted write of the phase for a power, an entry with "
        "fewer was computed before it (do not order again on its word; docs/social.md, \"API keys\")"))


class MyGames(BaseModel):
    games: list[MySeat]


@router.get("/me/games", response_model=MyGames)
async def my_games(account: CurrentAccount, store: StoreDep) -> MyGames:
    """The games the account has a seat in; its session token (or API key) plays each of those
    seats. ``GET /me/stream`` follows the same entries live."""
    return MyGames.model_validate({"games": await seats.seats_of(store, account)})


@router.get("/me/stream", response_class=StreamingResponse, dependencies=[rate_limited("stream")],
            responses={200: {"content": {"text/event-stream": {}}}})
async def my_stream(account: CurrentAccount, token: BearerToken, store: StoreDep, request: Request,
                    timeout: Annotated[float, Query(gt=0, le=seats.MAX_STREAM_SECONDS)] = seats.MAX_STREAM_SECONDS,
                    ) -> StreamingResponse:
    """Server-sent events for every seat of the account at once: one ``seat`` event per seat
    (the entry ``GET /me/games`` lists) at the start, then a seat's entry again whenever it
    changes (docs/social.md, "API keys"); ``closed`` when the credential is revoked. For a bot
    with an API key playing many games; the stream ends after ``timeout`` seconds. At most
    ENTENTE_STREAM_MAX_PER_VIEWER open at once per account, on every process (429 too_many_streams);
    opened at most as often as a game's stream (the ``stream`` rate limits, 429 rate_limited)."""
    assert token is not None  # CurrentAccount needs one

    async def recheck() -> credentials.Account | None:
        return await credentials.account_for_token(store, token)

    done = await seats.take_stream(request.app, store, account.account_id)  # else 429 too_many_streams

    async def after() -> None:  # in case the body never ran
        done()

    return StreamingResponse(live_stream(seats.seat_stream(store, account, recheck, timeout, done)),
                             media_type="text/event-stream",
                             headers={"cache-control": "no-cache", "x-accel-buffering": "no"},
                             background=BackgroundTask(after))


# ----------------------------------------------------------------------------- API keys


class NewCredential(RequestBody):
    """The body that asks for an API key or a bot token."""

    label: str = Field("", max_length=60, description="a note for yourself, e.g. the bot's name")


class ApiKeyOut(BaseModel):
    key_id: str
    label: str


class IssuedApiKey(ApiKeyOut):
    key: str = Field(..., description="the key: shown once; it plays every seat of the account until revoked")


class ApiKeyList(BaseModel):
    api_keys: list[ApiKeyOut]


@router.post("/me/api-keys", status_code=201, response_model=IssuedApiKey)
async def create_api_key(account: SignedInAccount, store: StoreDep, body: NewCredential | None = None) -> IssuedApiKey:
    """An API key for a bot that plays the account's seats in every game: it lists them with
    what each owes (``GET /me/games``), orders, reads views and streams, and joins games that
    allow bots; it cannot manage keys, bot tokens or sessions."""
    issued, key = await service.issue_api_key(store, account.account_id, body.label if body else "",
                                              {"actor": "account"})
    return IssuedApiKey(key_id=issued.key_id, label=issued.label, key=key)


@router.get("/me/api-keys", response_model=ApiKeyList)
async def list_api_keys(account: SignedInAccount) -> ApiKeyList:
    return ApiKeyList(api_keys=[ApiKeyOut(key_id=k.key_id, label=k.label) for k in account.keys.values()])


@router.delete("/me/api-keys/{key_id}", status_code=204, response_class=Response)
async def revoke_api_key(account: SignedInAccount, store: StoreDep,
                         key_id: Annotated[str, Path(max_length=40)]) -> Response:
    """Revoke one of the account's API keys: it stops working at once."""
    await service.revoke_api_key(store, account.account_id, key_id, {"actor": "account"})
    return Response(status_code=204)


# ----------------------------------------------------------------------------- bot tokens

def seat_owner(caller: CurrentCaller, request: Request) -> Caller:
    """The seat's own player (its seat token or its signed-in account), not a bot acting for it.
    Not the host: a bot token plays one seat and reads what that seat may see, which is the
    seat's player's to give away, never the host's (docs/bots.md, "Connecting a bot")."""
    if caller.role in ("host", "operator"):
        raise Forbidden(f"a bot token acts for one seat and is minted by that seat's player (its seat token or the "
                        f"signed-in account that took it), not with a {caller.role} token: to seat a bot, take a "
                        "seat (POST /games/{id}/players) and mint the token with that seat's token",
                        code=ErrorCode.WRONG_ROLE, where="header.authorization")
    require(caller, "player")
    if caller.via == "bot" or getattr(request.state, "api_key", False):
        raise Forbidden("a bot token or API key cannot manage bot tokens", code=ErrorCode.WRONG_ROLE,
                        where="header.authorization")
    return caller


SeatOwner = Annotated[Caller, Depends(seat_owner)]


class BotTokenOut(BaseModel):
    token_id: str
    label: str


class IssuedBotToken(BotTokenOut):
    token: str = Field(..., description="the bot's token: shown once, it acts for this seat in this game only")


class BotTokenList(BaseModel):
    bot_tokens: list[BotTokenOut]


@router.post("/games/{game_id}/bot-tokens", status_code=201, response_model=IssuedBotToken)
async def create_bot_token(game: CurrentGame, caller: SeatOwner, store: StoreDep, request: Request,
                           body: NewCredential | None = None) -> IssuedBotToken:
    """A long-lived token for a bot playing the caller's seat in this game, and nowhere else."""
    if game.status == "finished":
        raise Conflict(f"game {game.game_id} is finished", code=ErrorCode.GAME_FINISHED)
    require_seat_in_game(game, caller.player_id, "hand its play to a bot")
    assert caller.player_id is not None
    issued = await service.issue_bot_token(store, game.game_id, caller.player_id, body.label if body else "",
                                           request_metadata(request, "player", caller.player_id))
    return IssuedBotToken(token_id=issued.bot.token_id, label=issued.bot.label, token=issued.token)


@router.get("/games/{game_id}/bot-tokens", response_model=BotTokenList)
async def list_bot_tokens(game: CurrentGame, caller: SeatOwner, store: StoreDep) -> BotTokenList:
    bots = await credentials.load_bots(store, game.game_id)
    return BotTokenList(bot_tokens=[BotTokenOut(token_id=b.token_id, label=b.label)
                                    for b in bots.values() if b.player_id == caller.player_id])


@router.delete("/games/{game_id}/bot-tokens/{token_id}", status_code=204, response_class=Response)
async def revoke_bot_token(game: CurrentGame, caller: SeatOwner, store: StoreDep, request: Request,
                           token_id: str) -> Response:
    """Revoke one of the seat's bot tokens: it stops working at once."""
    assert caller.player_id is not None
    await service.revoke_bot_token(store, game.game_id, caller.player_id, token_id[:40],
                                   request_metadata(request, "player", caller.player_id))
    return Response(status_code=204)


# ----------------------------------------------------------------------------- identities

class SeatIdentity(BaseModel):
    powers: list[str]
    codename: str
    name: str | None = Field(None, description="the account's name; None for a seat taken without signing in")


class Identities(BaseModel):
    identities: list[SeatIdentity]


@router.get("/games/{game_id}/identities", response_model=Identities)
async def identities(game: CurrentGame, caller: CurrentCaller, store: StoreDep) -> Identities:
    """Who played which power: for everyone once the game has ended, if the host chose to
    reveal identities; for the operator at any time. Otherwise 403 ``identities_hidden``."""
    revealed = game.status == "finished" and game.settings.reveal_identities
    if not (revealed or caller.is_operator):
        raise Forbidden("identities are not revealed in this game (or not yet)", code=ErrorCode.IDENTITIES_HIDDEN)
    accounts = await service.seat_accounts(store, game.game_id)
    rows: list[SeatIdentity] = []
    for seat in sorted(game.seats, key=lambda s: (game.powers_of(s.player_id), s.codename)):
        account_id = accounts.get(seat.player_id)
        account = await credentials.load_account(store, account_id) if account_id is not None else None
        rows.append(SeatIdentity(powers=game.powers_of(seat.player_id), codename=seat.codename,
                                 name=account.name if account else None))
    return Identities(identities=rows)


def create_app(settings: Settings | None = None) -> FastAPI:
    return build_app("Entente accounts", [router], settings)
