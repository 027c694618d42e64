"""Hosted games over HTTP with a hand-moved clock and a clock worker on the same store."""
from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

import httpx

from services.adjudication.worker import ClockWorker
from services.app import create_app
from shared.clock import ManualClock
from shared.settings import Settings
from shared.store import EventStore
from tests.platform.helpers import OPERATOR, OPERATOR_TOKEN, bearer


@dataclass
class Host:
    """A running app, its store, its manual clock and a clock worker."""

    client: httpx.AsyncClient
    store: EventStore
    clock: ManualClock
    worker: ClockWorker

    async def tick(self, **units: float) -> int:
        """Move the clock forward, then let the worker handle what is due; games handled."""
        self.clock.advance(**units)
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
    app = create_app(Settings(database_url=database_url, operator_token=OPERATOR_TOKEN, environment="test"))
    clock = clock or ManualClock()
    async with app.router.lifespan_context(app):
        app.state.clock = clock
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://entente.test") as client:
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


SEVEN = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")


async def start_at(host: Host, position: dict[str, Any], must_act: list[str], **settings: Any) -> HostedGame:
    """A seven-player game started at ``position`` (powers given in join order, A to T), as
    if it had been played there: GameStarted and the phase's DeadlineSet, written through the store."""
    from shared.events import GameStarted
    from shared.game.deadlines import deadline_for
    from shared.game.repository import append_events, read_state

    game = await host.create(7, **settings)
    for _ in SEVEN:
        await game.join()
    async with host.store.transaction(game.game_id, lock="exclusive") as tx:
        state = await read_state(tx, game.game_id)
        powers = {p.player_id: [power] for p, power in zip(game.players, SEVEN, strict=True)}
        started = GameStarted(seed=1, powers=powers,
                              phase=position["phase"], position=position, must_act=must_act)
        await append_events(tx, state, [started, deadline_for(state, position["phase"], host.clock.now())],
                            None, host.clock.now())
    for player, power in zip(game.players, SEVEN, strict=True):
        player.powers = [power]
    return game
