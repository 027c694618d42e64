"""The HTTP helpers of the tests: the app on a store with its lifespan run and a client on it,
bearer headers and the operator's, a table of seven players (``Table``), hosted games with a
hand-moved clock and a clock worker on the same store (``Host``, ``HostedGame``), signing in
through the whole authorization-code flow at the local OAuth2 provider (``AccountTable``),
the live stream's server-sent events read back, and one request made as the HTTP server makes
it, one ASGI call (``asgi_request``: no client library's objects in between)."""
from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx
from pydantic import SecretStr

from services.adjudication.worker import ClockWorker
from services.app import create_app
from shared.clock import ManualClock
from shared.settings import Settings
from shared.store import EventStore
from tests.utils.oauth_provider import CLIENT_ID, CLIENT_SECRET, LocalProvider

OPERATOR_TOKEN = "operator-token-for-tests-0123456789"
POWERS = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")
APP_BASE = "http://entente.test"


async def asgi_request(app: Any, method: str, path: str, body: bytes = b"",
                       headers: dict[str, str] | None = None) -> tuple[int, bytes]:
    """One request as uvicorn hands it to the app (a scope, one body message): the answer's
    status and body."""
    raw = [(b"host", b"127.0.0.1:8000"), (b"content-length", str(len(body)).encode())]
    raw += [(name.lower().encode(), value.encode()) for name, value in (headers or {}).items()]
    scope = {"type": "http", "asgi": {"version": "3.0", "spec_version": "2.3"}, "http_version": "1.1",
             "method": method, "scheme": "http", "path": path, "raw_path": path.encode(), "root_path": "",
             "query_string": b"", "headers": raw, "client": ("127.0.0.1", 40000),
             "server": ("127.0.0.1", 8000), "state": {}}
    messages = [{"type": "http.request", "body": body, "more_body": False}]
    status, chunks = 0, []

    async def receive() -> dict[str, Any]:
        return messages.pop() if messages else {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        nonlocal status
        if message["type"] == "http.response.start":
            status = message["status"]
        elif message["type"] == "http.response.body":
            chunks.append(message.get("body", b""))

    await app(scope, receive, send)
    return status, b"".join(chunks)


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


OPERATOR = bearer(OPERATOR_TOKEN)


def app_client(app: Any) -> httpx.AsyncClient:
    """A client of its own (its own cookie jar: one browser) on the running app."""
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url=APP_BASE)


# The first app's included router (FastAPI's) for each of our routers, by the router's id: what
# every later app of this process is given instead of its own (share_route_state).
_INCLUDED: dict[int, Any] = {}


def share_route_state(app: Any) -> Any:
    """``app`` with the routes of its included routers as an earlier app of this process built
    them. FastAPI (0.165) builds the state of every route of an included router at an app's first
    request that reaches it, about 0.1 CPU second an app, paid again by each of the hundreds of
    apps the tests start (docs/testing.md, "Cutting the suite's CPU"). Our routers are the same
    module-level objects in every app, included with the same context; the one thing an included
    router holds of its app is the source of ``dependency_overrides``, which the project never
    sets. Where FastAPI includes routers otherwise, ``app`` is left as it is."""
    routes = app.router.routes
    for index, route in enumerate(routes):
        context = getattr(route, "include_context", None)
        if type(route).__name__ != "_IncludedRouter" or context is None:
            continue
        kept = _INCLUDED.setdefault(id(route.original_router), route)
        if kept is not route and kept.original_router is route.original_router and \
                replace(kept.include_context, dependency_overrides_provider=None) == \
                replace(context, dependency_overrides_provider=None):
            routes[index] = kept
    changed = getattr(app.router, "_mark_routes_changed", None)
    if changed is not None:
        changed()
    return app


@asynccontextmanager
async def running_app(settings: Settings, app_factory: Callable[[Settings], Any] = create_app
                      ) -> AsyncIterator[tuple[Any, httpx.AsyncClient]]:
    """The app with its lifespan run (httpx does not run it by itself), and a client on it."""
    app = share_route_state(app_factory(settings))
    async with app.router.lifespan_context(app):
        async with app_client(app) as client:
            yield app, client


def settings_for(database_url: str) -> Settings:
    """The settings of a test app on the store at ``database_url``."""
    return Settings(database_url=database_url, operator_token=SecretStr(OPERATOR_TOKEN), environment="test")


@asynccontextmanager
async def running_client(database_url: str, app_factory: Callable[[Settings], Any] = create_app
                         ) -> AsyncIterator[httpx.AsyncClient]:
    """A client on the app on the store at ``database_url``."""
    async with running_app(settings_for(database_url), app_factory) as (_, client):
        yield client


@dataclass
class Table:
    """A started game and the tokens of its seven players, by the power each was drawn."""

    client: httpx.AsyncClient
    game_id: str
    host_token: str
    tokens: dict[str, str] = field(default_factory=dict)  # POWER -> player token
    codenames: dict[str, str] = field(default_factory=dict)

    @property
    def host(self) -> dict[str, str]:
        return bearer(self.host_token)

    def player(self, power: str) -> dict[str, str]:
        return bearer(self.tokens[power])

    async def order(self, power: str, orders: list[str]) -> httpx.Response:
        return await self.client.put(f"/games/{self.game_id}/orders", json={"orders": orders},
                                     headers=self.player(power))

    async def order_ok(self, power: str, orders: list[str]) -> dict[str, Any]:
        response = await self.order(power, orders)
        assert response.status_code == 200, response.text
        body = response.json()
        assert body["rejected"] == 0, body
        return body

    async def resolve(self, phase: str) -> dict[str, Any]:
        response = await self.client.post(f"/games/{self.game_id}/resolve", json={"phase": phase},
                                          headers=OPERATOR)
        assert response.status_code == 200, response.text
        return response.json()

    async def view(self, power: str | None = None) -> dict[str, Any]:
        headers = self.player(power) if power else {}
        response = await self.client.get(f"/games/{self.game_id}/view", headers=headers)
        assert response.status_code == 200, response.text
        return response.json()

    async def events(self) -> list[dict[str, Any]]:
        response = await self.client.get(f"/games/{self.game_id}/events", headers=OPERATOR)
        assert response.status_code == 200, response.text
        return [json.loads(line) for line in response.text.splitlines() if line.strip()]


async def create_game(client: httpx.AsyncClient, name: str = "Test game", **extra: Any) -> dict[str, Any]:
    response = await client.post("/games", json={"name": name, "variant": "standard", **extra})
    assert response.status_code == 201, response.text
    return response.json()


# Nobody marks ready in these tests, so a phase never resolves early: only when the operator
# resolves it (or its deadline passes).
MANUAL = {"require_ready": True}


async def seated_table(client: httpx.AsyncClient, settings: dict[str, Any] | None = None
                       ) -> tuple[Table, list[dict[str, Any]]]:
    """A created game with seven players joined, not started."""
    created = await create_game(client, settings=MANUAL if settings is None else settings)
    table = Table(client, created["id"], created["host_token"])
    joined = []
    for _ in range(7):
        response = await client.post(f"/games/{table.game_id}/players")
        assert response.status_code == 201, response.text
        joined.append(response.json())
    return table, joined


async def started_table(client: httpx.AsyncClient, settings: dict[str, Any] | None = None) -> Table:
    table, joined = await seated_table(client, settings)
    response = await client.post(f"/games/{table.game_id}/start", headers=table.host)
    assert response.status_code == 200, response.text
    for seat in joined:
        view = (await client.get(f"/games/{table.game_id}/view", headers=bearer(seat["token"]))).json()
        power = view["viewer"]["power"]
        table.tokens[power] = seat["token"]
        table.codenames[power] = seat["codename"]
    assert sorted(table.tokens) == list(POWERS)
    return table


# ------------------------------------------------------------------ hosted games, a hand-moved clock

@dataclass
class Host:
    """A running app, its store, its manual clock and a clock worker."""

    client: httpx.AsyncClient
    store: EventStore
    clock: ManualClock
    worker: ClockWorker

    async def tick(self, **units: float) -> int:
        """Move the clock forward, then let the worker handle what is due; games handled."""
        self.clock.advance(timedelta(**units))
        return await self.worker.run_once()

    async def create(self, players: int = 7, **settings: Any) -> HostedGame:
        body = {"name": "Hosted", "variant": "standard", "settings": {"player_count": players, **settings}}
        response = await self.client.post("/games", json=body)
        assert response.status_code == 201, response.text
        created = response.json()
        return HostedGame(self, created["id"], created["host_token"])

    async def started(self, players: int = 7, **settings: Any) -> HostedGame:
        game = await self.create(players, **settings)
        for _ in range(players):
            await game.join()
        await game.start()
        return game


@asynccontextmanager
async def hosting(database_url: str, clock: ManualClock | None = None) -> AsyncIterator[Host]:
    clock = clock or ManualClock()
    async with running_app(settings_for(database_url)) as (app, client):
        app.state.clock = clock
        yield Host(client, app.state.store, clock, ClockWorker(app.state.store, clock))


@dataclass
class Player:
    player_id: str
    token: str
    codename: str
    powers: list[str] = field(default_factory=list)

    @property
    def auth(self) -> dict[str, str]:
        return bearer(self.token)


@dataclass
class HostedGame:
    host: Host
    game_id: str
    host_token: str
    players: list[Player] = field(default_factory=list)

    @property
    def client(self) -> httpx.AsyncClient:
        return self.host.client

    @property
    def url(self) -> str:
        return f"/games/{self.game_id}"

    @property
    def host_auth(self) -> dict[str, str]:
        return bearer(self.host_token)

    async def join(self) -> Player:
        response = await self.client.post(f"{self.url}/players")
        assert response.status_code == 201, response.text
        body = response.json()
        player = Player(body["player_id"], body["token"], body["codename"])
        self.players.append(player)
        return player

    async def start(self) -> dict[str, Any]:
        response = await self.client.post(f"{self.url}/start", headers=self.host_auth)
        assert response.status_code == 200, response.text
        for player in self.players:
            view = (await self.client.get(f"{self.url}/view", headers=player.auth)).json()
            player.powers = view["viewer"]["powers"]
        return response.json()

    def player(self, power: str) -> Player:
        return next(p for p in self.players if power in p.powers)

    async def order(self, power: str, orders: list[str], **extra: Any) -> httpx.Response:
        return await self.client.put(f"{self.url}/orders", json={"orders": orders, "power": power, **extra},
                                     headers=self.player(power).auth)

    async def order_ok(self, power: str, orders: list[str]) -> dict[str, Any]:
        response = await self.order(power, orders)
        assert response.status_code == 200, response.text
        assert response.json()["rejected"] == 0, response.text
        return response.json()

    async def ready(self, power: str, ready: bool = True) -> httpx.Response:
        """Mark the power ready (POST) or take the flag back (DELETE)."""
        return await self.client.request("POST" if ready else "DELETE", f"{self.url}/ready",
                                         json={"power": power}, headers=self.player(power).auth)

    async def vote(self, power: str, vote: bool = True) -> httpx.Response:
        return await self.client.post(f"{self.url}/draw", json={"vote": vote}, headers=self.player(power).auth)

    async def summary(self) -> dict[str, Any]:
        response = await self.client.get(self.url)
        assert response.status_code == 200, response.text
        return response.json()

    async def view(self, power: str | None = None) -> dict[str, Any]:
        headers = self.player(power).auth if power else {}
        response = await self.client.get(f"{self.url}/view", headers=headers)
        assert response.status_code == 200, response.text
        return response.json()

    async def events(self) -> list[dict[str, Any]]:
        response = await self.client.get(f"{self.url}/events", headers=OPERATOR)
        assert response.status_code == 200, response.text
        return [json.loads(line) for line in response.text.splitlines() if line.strip()]

    async def game_events(self) -> list[dict[str, Any]]:
        return [e for e in await self.events() if e["stream_id"] == f"game-{self.game_id}"]

    async def resolutions(self) -> list[dict[str, Any]]:
        return [e["data"] for e in await self.game_events() if e["type"] == "PhaseResolved"]

    async def deadline(self) -> datetime | None:
        text = (await self.summary())["clock"]["deadline"]
        return datetime.fromisoformat(text) if text else None

    async def until_deadline(self) -> timedelta:
        deadline = await self.deadline()
        assert deadline is not None
        return deadline - self.host.clock.now()


async def start_at(host: Host, position: dict[str, Any], must_act: list[str], *,
                   first_seat_by: dict[str, str] | None = None, **settings: Any) -> HostedGame:
    """A seven-player game started at ``position`` (powers given in join order, A to T), as
    if it had been played there: GameStarted and the phase's DeadlineSet, written through the store.
    ``first_seat_by``: the headers of the caller who takes Austria's seat (a signed-in account)."""
    from shared.events import GameStarted
    from shared.game.deadlines import deadline_for
    from shared.game.repository import append_events, read_state

    game = await host.create(7, **settings)
    if first_seat_by is not None:
        response = await game.client.post(f"{game.url}/players", headers=first_seat_by)
        assert response.status_code == 201, response.text
        body = response.json()
        game.players.append(Player(body["player_id"], body["token"], body["codename"]))
    while len(game.players) < len(POWERS):
        await game.join()
    async with host.store.transaction(game.game_id, lock="exclusive") as tx:
        state = await read_state(tx, game.game_id)
        powers = {p.player_id: [power] for p, power in zip(game.players, POWERS, strict=True)}
        started = GameStarted(seed=1, powers=powers,
                              phase=position["phase"], position=position, must_act=must_act)
        await append_events(tx, state, [started, deadline_for(state, position["phase"], host.clock.now())],
                            None, host.clock.now())
    for player, power in zip(game.players, POWERS, strict=True):
        player.powers = [power]
    return game


# ------------------------------------------------------------------ accounts signed in at the OAuth2 provider

def social_settings(database_url: str, provider_url: str, **extra: Any) -> Settings:
    return Settings(
        database_url=database_url, operator_token=SecretStr(OPERATOR_TOKEN), environment="test",
        oauth_authorize_url=f"{provider_url}/oauth2/authorize",
        oauth_token_url=f"{provider_url}/api/oauth2/token",
        oauth_user_url=f"{provider_url}/api/users/@me",
        oauth_client_id=CLIENT_ID, oauth_client_secret=SecretStr(CLIENT_SECRET),
        oauth_redirect_uri=f"{APP_BASE}/auth/callback", webhook_allow_private_hosts=True, **extra)


async def sign_in(app: Any, provider_url: str, user_id: str) -> dict[str, Any]:
    """The whole flow in a fresh browser: login, the provider's page, the callback."""
    async with app_client(app) as browser:
        return await sign_in_with(browser, provider_url, user_id)


async def sign_in_with(browser: httpx.AsyncClient, provider_url: str, user_id: str) -> dict[str, Any]:
    """The whole flow in ``browser`` (a fresh client of the app, keeping its cookies)."""
    async with httpx.AsyncClient() as outside:
        login = await browser.get("/auth/login")
        assert login.status_code == 302, login.text
        authorize = login.headers["location"]
        assert authorize.startswith(f"{provider_url}/oauth2/authorize?")
        back = await outside.get(f"{authorize}&user={user_id}")  # the user approves on the provider's page
        assert back.status_code in (302, 307), back.text
        callback = urlsplit(back.headers["location"])
        assert f"{callback.scheme}://{callback.netloc}" == APP_BASE
        answer = await browser.get(f"{callback.path}?{callback.query}")
        assert answer.status_code == 200, answer.text
        return answer.json()


def query_of(url: str) -> dict[str, str]:
    return {k: v[0] for k, v in parse_qs(urlsplit(url).query).items()}


@dataclass
class AccountTable(Table):
    """A started seven-player game whose seats were taken by signed-in accounts."""

    accounts: dict[str, dict[str, Any]] = field(default_factory=dict)  # POWER -> sign-in answer
    player_ids: dict[str, str] = field(default_factory=dict)
    join_order: list[str] = field(default_factory=list)  # powers in the order their players joined


async def account_table(client: httpx.AsyncClient, app: Any, provider: LocalProvider, provider_url: str,
                        settings: dict[str, Any] | None = None, prefix: str = "u") -> AccountTable:
    created = await client.post("/games", json={"name": "Social game", "settings": settings or {}})
    assert created.status_code == 201, created.text
    game = created.json()
    table = AccountTable(client, game["id"], game["host_token"])
    seats = []
    for index in range(7):
        user_id = f"{prefix}{index}-{game['id']}"
        provider.add_user(user_id, f"player{index}name{prefix}", f"Real Name {prefix}{index}")
        account = await sign_in(app, provider_url, user_id)
        joined = await client.post(f"/games/{table.game_id}/players", headers=bearer(account["token"]))
        assert joined.status_code == 201, joined.text
        seats.append((account, joined.json()))
    started = await client.post(f"/games/{table.game_id}/start", headers=table.host)
    assert started.status_code == 200, started.text
    for account, seat in seats:
        view = (await client.get(f"/games/{table.game_id}/view", headers=bearer(account["token"]))).json()
        power = view["viewer"]["power"]
        table.tokens[power] = account["token"]  # the account's session token plays the seat
        table.codenames[power] = seat["codename"]
        table.accounts[power] = {**account, "seat_token": seat["token"]}
        table.player_ids[power] = seat["player_id"]
        table.join_order.append(power)
    assert sorted(table.tokens) == list(POWERS)
    return table


# ------------------------------------------------------------------ the live stream

def parse_sse(text: str) -> list[dict[str, Any]]:
    """The events of an SSE text: ``{"id", "event", "data"}`` each (``id`` None when the event
    had none); comments and ``retry:`` lines are skipped."""
    events = []
    for block in text.split("\n\n"):
        fields: dict[str, str] = {}
        for line in block.splitlines():
            if line.startswith(":"):
                continue
            name, _, value = line.partition(": ")
            fields[name] = value
        if "event" in fields:
            events.append({"id": fields.get("id"), "event": fields["event"], "data": json.loads(fields["data"])})
    return events


def whole_views(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The events of one connection with each ``view`` made whole as a client makes it
    (docs/social.md, "Frames that send only what is new"): ``history_added`` is the whole page
    when ``history_reset`` is true, else appended to the previous view's page; the page starts
    at ``history_before`` when earlier phases exist."""
    page: list[dict[str, Any]] = []
    made = []
    for event in events:
        data = event["data"]
        if event["event"] == "view":
            data = {key: value for key, value in data.items() if key not in ("history_added", "history_reset")}
            joined = ([] if event["data"]["history_reset"] else page) + event["data"]["history_added"]
            phases = [entry["phase"] for entry in joined]
            before = data["history_before"]
            data["history"] = joined[phases.index(before):] if before is not None else joined
            page = data["history"]
        made.append({**event, "data": data})
    return made
