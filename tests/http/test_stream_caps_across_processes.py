"""A seat's cap on open live streams holds for every ``entente serve`` process of one database
(docs/operations.md, "Rate limits"; docs/social.md, "Limits"), on PostgreSQL and on one SQLite
file: with ENTENTE_STREAM_MAX_PER_VIEWER=2, two streams of France open on the first process
and the next on the second is refused 429 ``too_many_streams`` with Retry-After; another seat
and the public are not France; closing one of France's streams on the first process lets one
open on the second."""
from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager

import httpx

from tests.http.test_limits_across_processes import started_game
from tests.services.visibility.test_stream_limits import assert_too_many
from tests.utils.http import bearer
from tests.utils.served import entente_serves

CAPS = {"ENTENTE_STREAM_MAX_PER_VIEWER": "2", "ENTENTE_STREAM_MAX_PER_ADDRESS": "0"}


@asynccontextmanager
async def opened(client: httpx.AsyncClient, game_id: str, token: str | None) -> AsyncIterator[httpx.Response]:
    """A live stream held open (its first event read) until the block ends, then closed."""
    headers = bearer(token) if token else {}
    async with client.stream("GET", f"/games/{game_id}/stream", params={"timeout": 120}, headers=headers) as response:
        if response.status_code == 200:  # (leaving an ``async for`` early would close the stream)
            lines = response.aiter_lines()
            while not (await anext(lines)).startswith("event: view"):
                pass
        yield response


async def refused_then_open(client: httpx.AsyncClient, game_id: str, token: str) -> None:
    """Ask for a stream until one opens (the other process sees its stream closed, and gives its
    place back, a moment after the client closes it; a lease left alone would take 45 s)."""
    for _ in range(100):
        async with opened(client, game_id, token) as response:
            if response.status_code == 200:
                return
            await response.aread()
            assert_too_many(response)
        await asyncio.sleep(0.1)
    raise AssertionError("no stream opened")


async def test_a_seats_streams_are_capped_across_two_processes(store_url: str) -> None:
    with entente_serves(store_url, 2, lambda _: CAPS) as (first_url, second_url):
        with httpx.Client(base_url=first_url, timeout=30) as setup:
            game_id, tokens = started_game(setup)
        france, england = tokens[0], tokens[1]
        async with (httpx.AsyncClient(base_url=first_url, timeout=30) as first,
                    httpx.AsyncClient(base_url=second_url, timeout=30) as second, AsyncExitStack() as held):
            one = await held.enter_async_context(opened(first, game_id, france))
            two = await held.enter_async_context(opened(first, game_id, france))
            assert (one.status_code, two.status_code) == (200, 200)
            async with opened(second, game_id, france) as third:
                await third.aread()
                assert_too_many(third)
                error = third.json()["error"]
                assert error["where"] == "header.authorization"
                assert error["message"].startswith("2 live streams are open for this seat already")
            # another seat and the public are not France
            for token in (england, None):
                async with opened(second, game_id, token) as other:
                    assert other.status_code == 200
            # one of France's streams on the first process closes: one opens on the second
            await one.aclose()
            await refused_then_open(second, game_id, france)
