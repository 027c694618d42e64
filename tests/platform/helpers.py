"""Helpers for the HTTP tests: an app on a store, a client, and a table of seven players."""
from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

import httpx

from services.app import create_app
from shared.settings import Settings

OPERATOR_TOKEN = "operator-token-for-tests-0123456789"
POWERS = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


OPERATOR = bearer(OPERATOR_TOKEN)


@asynccontextmanager
async def running_client(database_url: str, app_factory=create_app) -> AsyncIterator[httpx.AsyncClient]:
    """A client on the app with its lifespan run (httpx does not run it by itself)."""
    app = app_factory(Settings(database_url=database_url, operator_token=OPERATOR_TOKEN, environment="test"))
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://entente.test") as client:
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
