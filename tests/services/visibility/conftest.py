"""The combined app on each back end, with the local OAuth2 provider for signed-in accounts."""
from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Any

import httpx
import pytest

from tests.social.helpers import social_app, social_settings
from tests.utils.oauth_provider import LocalProvider, serve_in_thread


@pytest.fixture(scope="session")
def provider() -> LocalProvider:
    return LocalProvider()


@pytest.fixture(scope="session")
def provider_url(provider: LocalProvider) -> Iterator[str]:
    with serve_in_thread(provider.app()) as url:
        yield url


@pytest.fixture
async def hosted(store_url: str, provider_url: str) -> AsyncIterator[tuple[Any, httpx.AsyncClient]]:
    """The combined app on each back end (an empty store), and a client of it."""
    async with social_app(social_settings(store_url, provider_url)) as opened:
        yield opened


@pytest.fixture
async def hosted_sqlite(sqlite_url: str, provider_url: str) -> AsyncIterator[tuple[Any, httpx.AsyncClient]]:
    async with social_app(social_settings(sqlite_url, provider_url)) as opened:
        yield opened
