"""Creating games and taking seats are limited per client address in the store, one limit for
every process (docs/operations.md, "Rate limits"): a token bucket kept in the address's own
stream, on both back ends, exact under racing requests; the client's address is the
connection's own unless a trusted proxy names it in X-Forwarded-For."""
from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import pytest
from pydantic import SecretStr

from shared.errors import TooManyRequests
from shared.events_limits import limit_stream
from shared.http.shared_limits import bucket_after, count_in_store
from shared.rates import Rate
from shared.settings import Settings
from shared.store import EventStore
from tests.utils.http import OPERATOR_TOKEN, asgi_request, running_app

FIVE_AN_HOUR = Rate(5, 3600)


def test_the_bucket_is_a_burst_then_one_every_period_over_count() -> None:
    now = datetime(2026, 1, 1, tzinfo=UTC)
    full_at = None
    for _ in range(5):
        waited, full_at = bucket_after(full_at, FIVE_AN_HOUR, now)
        assert waited == 0
    waited, kept = bucket_after(full_at, FIVE_AN_HOUR, now)
    assert waited == 720 and kept == full_at  # one more in 12 minutes, nothing taken
    assert bucket_after(full_at, FIVE_AN_HOUR, now + timedelta(minutes=12))[0] == 0
    assert bucket_after(full_at, FIVE_AN_HOUR, now + timedelta(hours=2))[1] == now + timedelta(hours=2, minutes=12)


async def test_racing_processes_count_against_one_limit(store: EventStore) -> None:
    async def one() -> bool:
        try:
            await count_in_store(store, "create", "198.51.100.7", FIVE_AN_HOUR, "secret")
            return True
        except TooManyRequests as refused:
            assert refused.retry_after is not None and 0 < refused.retry_after <= 3600
            return False

    outcomes = await asyncio.gather(*(one() for _ in range(12)))
    assert outcomes.count(True) == 5
    await count_in_store(store, "create", "198.51.100.8", FIVE_AN_HOUR, "secret")  # another address
    await count_in_store(store, "join", "198.51.100.7", FIVE_AN_HOUR, "secret")  # another action
    stream = limit_stream("create", "198.51.100.7", "secret")
    assert "198.51.100.7" not in stream and await store.events.stream_version(stream) == 5


@pytest.mark.parametrize("trusted, forwarded, counted_as", [
    ("", "203.0.113.1", "127.0.0.1"),  # no proxy trusted: the header is ignored
    ("127.0.0.1", "203.0.113.1", "203.0.113.1"),  # the trusted proxy names the client
    ("127.0.0.1", "203.0.113.66, 203.0.113.1", "203.0.113.1"),  # the last address, the one it saw
    ("127.0.0.1", "not an address", "127.0.0.1"),
])
async def test_the_client_address_is_the_trusted_proxys_word_only(sqlite_url: str, trusted: str, forwarded: str,
                                                                  counted_as: str) -> None:
    settings = Settings(database_url=sqlite_url, operator_token=SecretStr(OPERATOR_TOKEN), environment="test",
                        rate_limits=True, rate_create_per_address="1/hour", trusted_proxies=trusted)
    async with running_app(settings) as (app, _):
        body = b'{"name": "Limited"}'
        headers = {"content-type": "application/json", "x-forwarded-for": forwarded}
        assert (await asgi_request(app, "POST", "/games", body, headers))[0] == 201
        status, answer = await asgi_request(app, "POST", "/games", body, headers)
        assert status == 429 and b"rate_limited" in answer
        stream = limit_stream("create", counted_as, settings.operator_secret())
        assert await app.state.store.events.stream_version(stream) == 1
