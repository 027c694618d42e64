from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest

from .helpers import Table, running_client, started_table


@pytest.fixture
async def client(store_url: str) -> AsyncIterator[httpx.AsyncClient]:
    async with running_client(store_url) as opened:
        yield opened


@pytest.fixture
async def sqlite_client(sqlite_url: str) -> AsyncIterator[httpx.AsyncClient]:
    async with running_client(sqlite_url) as opened:
        yield opened


@pytest.fixture
async def postgres_client(postgres_url: str) -> AsyncIterator[httpx.AsyncClient]:
    async with running_client(postgres_url) as opened:
        yield opened


@pytest.fixture
async def table(sqlite_client: httpx.AsyncClient) -> Table:
    return await started_table(sqlite_client)
