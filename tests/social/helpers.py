"""Helpers for the social tests: the app wired to the local OAuth2 provider, signing in through
the whole authorization-code flow, and a seven-player table of signed-in accounts."""
from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx

from services.app import create_app
from shared.settings import Settings
from tests.platform.helpers import OPERATOR_TOKEN, POWERS, Table, bearer
from tests.utils.oauth_provider import CLIENT_ID, CLIENT_SECRET, LocalProvider

APP_BASE = "http://entente.test"


def social_settings(database_url: str, provider_url: str, **extra: Any) -> Settings:
    return Settings(
        database_url=database_url, operator_token=OPERATOR_TOKEN, environment="test",
        oauth_authorize_url=f"{provider_url}/oauth2/authorize",
        oauth_token_url=f"{provider_url}/api/oauth2/token",
        oauth_user_url=f"{provider_url}/api/users/@me",
        oauth_client_id=CLIENT_ID, oauth_client_secret=CLIENT_SECRET,
        oauth_redirect_uri=f"{APP_BASE}/auth/callback", webhook_allow_private_hosts=True, **extra)


@asynccontextmanager
async def social_app(settings: Settings) -> AsyncIterator[tuple[Any, httpx.AsyncClient]]:
    app = create_app(settings)
    async with app.router.lifespan_context(app):
        async with app_client(app) as client:
            yield app, client


def app_client(app: Any) -> httpx.AsyncClient:
    """A client of its own (its own cookie jar: one browser) on the running app."""
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url=APP_BASE)


async def sign_in(app: Any, provider_url: str, user_id: str) -> dict[str, Any]:
    """The whole flow in a fresh browser: login, the provider's page, the callback."""
    async with app_client(app) as browser, httpx.AsyncClient() as outside:
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
