from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Any

import httpx
import pytest

from tests.utils.oauth_provider import LocalProvider, serve_in_thread

from .helpers import social_app, social_settings
from .receiver import Receiver


@pytest.fixture(scope="session")
def provider() -> LocalProvider:
    return LocalProvider()


@pytest.fixture(scope="session")
def provider_url(provider: LocalProvider) -> Iterator[str]:
    with serve_in_thread(provider.app()) as url:
        yield url


@pytest.fixture
async def social(sqlite_url: str, provider_url: str) -> AsyncIterator[tuple[Any, httpx.AsyncClient]]:
    """The combined app on a fresh SQLite store, signing in at the local provider."""
    async with social_app(social_settings(sqlite_url, provider_url)) as opened:
        yield opened


@pytest.fixture(scope="session")
def receiver() -> Receiver:
    return Receiver()


@pytest.fixture(scope="session")
def receiver_url(receiver: Receiver) -> Iterator[str]:
    with serve_in_thread(receiver.app()) as url:
        yield url


@pytest.fixture
async def social_any(store_url: str, provider_url: str) -> AsyncIterator[tuple[Any, httpx.AsyncClient]]:
    """The combined app on each back end (``store_url`` gives an empty store, outbox included)."""
    async with social_app(social_settings(store_url, provider_url)) as (app, client):
        yield app, client
