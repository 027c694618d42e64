"""Rate limits per address and per token (docs/operations.md, "Rate limits"): a burst past a limit
is 429 ``rate_limited`` with ``Retry-After`` and the error body, nothing done; another address,
another token and the operator are not held back; the bucket refills with time."""
from __future__ import annotations

from ipaddress import ip_network
from typing import Any

import httpx
import pytest
from pydantic import SecretStr

from services.app import create_app
from shared.errors import TooManyRequests
from shared.rates import Buckets, Rate, RateLimits, address_key, parse_rate
from shared.settings import Settings, SettingsError
from tests.utils.http import APP_BASE, OPERATOR, OPERATOR_TOKEN, running_app, started_table
from tests.utils.served import entente_serve


def limited(base_url: str) -> dict[str, str]:
    return {"ENTENTE_RATE_LIMITS": "true", "ENTENTE_RATE_CREATE_PER_ADDRESS": "5/hour"}


def from_address(base_url: str, address: str) -> httpx.Client:
    """A client whose connections leave from ``address`` (any of 127.0.0.0/8 is this machine)."""
    return httpx.Client(base_url=base_url, transport=httpx.HTTPTransport(local_address=address), timeout=10)


def assert_rate_limited(response: httpx.Response, where: str | None = None) -> int:
    assert response.status_code == 429, response.text
    error = response.json()["error"]
    assert error["code"] == "rate_limited"
    assert error.get("where") == where
    retry_after = int(response.headers["retry-after"])
    assert retry_after > 0
    return retry_after


def test_a_burst_of_games_from_one_address_is_refused_another_address_is_not(store_url: str) -> None:
    with entente_serve(store_url, limited) as base_url, from_address(base_url, "127.0.0.1") as first, \
            from_address(base_url, "127.0.0.2") as second:
        made = [first.post("/games", json={"name": f"Burst {n}"}) for n in range(8)]
        assert [r.status_code for r in made] == [201] * 5 + [429] * 3
        # 5 per hour: the next one in about 12 minutes
        assert 600 <= assert_rate_limited(made[-1]) <= 720
        assert "5 per hour" in made[-1].json()["error"]["message"]
        listed = first.get("/games", headers=OPERATOR).json()["games"]
        assert len(listed) == 5  # nothing created by the refused ones
        other = second.post("/games", json={"name": "From elsewhere"})
        assert other.status_code == 201, other.text
        # the operator is not limited, from the limited address either
        assert first.post("/games", json={"name": "Operator's"}, headers=OPERATOR).status_code == 201
        assert first.post("/games", json={"name": "Still refused"}).status_code == 429


@pytest.fixture
async def press_limited(store_url: str) -> Any:
    settings = Settings(database_url=store_url, operator_token=SecretStr(OPERATOR_TOKEN), environment="test",
                        rate_limits=True, rate_press_per_token="3/minute")
    async with running_app(settings, create_app) as (app, client):
        yield app, client


async def test_a_seat_sending_too_much_press_is_refused_by_its_token_from_any_address(press_limited: Any) -> None:
    app, client = press_limited
    table = await started_table(client)
    url = f"/games/{table.game_id}/messages"
    sent = [await client.post(url, json={"to": "all", "text": f"hello {n}"}, headers=table.player("FRANCE"))
            for n in range(4)]
    assert [r.status_code for r in sent] == [201, 201, 201, 429]
    assert 15 <= assert_rate_limited(sent[-1], "header.authorization") <= 20  # 3 a minute: one every 20 s
    elsewhere = httpx.AsyncClient(transport=httpx.ASGITransport(app=app, client=("10.9.8.7", 4000)),
                                  base_url=APP_BASE)
    async with elsewhere:
        moved = await elsewhere.post(url, json={"to": "all", "text": "from a new address"},
                                     headers=table.player("FRANCE"))
        assert_rate_limited(moved, "header.authorization")
    england = await client.post(url, json={"to": "all", "text": "mine"}, headers=table.player("ENGLAND"))
    assert england.status_code == 201, england.text
    texts = [m["text"] for m in (await client.get(url, headers=OPERATOR)).json()["messages"]]
    assert texts == ["hello 0", "hello 1", "hello 2", "mine"]  # nothing stored for the refused ones


@pytest.fixture
async def tight(store_url: str) -> Any:
    settings = Settings(database_url=store_url, operator_token=SecretStr(OPERATOR_TOKEN), environment="test",
                        rate_limits=True, rate_join_per_address="7/hour", rate_orders_per_token="1/minute",
                        rate_stream_per_token="1/minute")
    async with running_app(settings, create_app) as (app, client):
        yield app, client


async def test_each_limited_route_counts_its_action(tight: Any) -> None:
    _, client = tight
    table = await started_table(client)  # seven joins from this address: the most it takes an hour
    other = (await client.post("/games", json={"name": "Another"})).json()
    assert_rate_limited(await client.post(f"/games/{other['id']}/players"))
    assert (await client.get(f"/games/{other['id']}")).json()["players"] == 0
    # one order write a minute for FRANCE's token: PUT, then PATCH and ready are refused
    assert (await table.order("FRANCE", ["A PAR H"])).status_code == 200
    url = f"/games/{table.game_id}"
    refusals = [await client.patch(f"{url}/orders", json={"orders": ["A PAR - BUR"]}, headers=table.player("FRANCE")),
                await client.post(f"{url}/ready", headers=table.player("FRANCE")),
                await client.delete(f"{url}/ready", headers=table.player("FRANCE"))]
    for response in refusals:
        assert_rate_limited(response, "header.authorization")
    summary = (await client.get(url)).json()  # the PUT's whole set stands: no change, no ready flag
    assert (summary["submitted"], summary["ready"], summary["ordering"]) == (["FRANCE"], [], [])
    assert (await table.order("ENGLAND", ["F LON H"])).status_code == 200  # another token
    # one stream a minute for ENGLAND's token
    assert (await client.get(f"{url}/stream", params={"timeout": 0.2}, headers=table.player("ENGLAND"))).status_code \
        == 200
    assert_rate_limited(await client.get(f"{url}/stream", params={"timeout": 0.2}, headers=table.player("ENGLAND")),
                        "header.authorization")


def test_a_bucket_refills_evenly_and_a_refusal_takes_nothing() -> None:
    now = [1000.0]
    limits = RateLimits({"join": Rate(2, 60)}, {"join": Rate(3, 60)}, clock=lambda: now[0])
    limits.check("join", "192.0.2.1", "t1")
    limits.check("join", "192.0.2.1", "t1")
    with pytest.raises(TooManyRequests) as refused:
        limits.check("join", "192.0.2.1", "t1")
    assert refused.value.retry_after == 30
    now[0] += 30  # one back in the address's bucket; the token's was not charged by the refusal
    limits.check("join", "192.0.2.1", "t1")
    limits.check("join", "192.0.2.2", "t2")
    limits.check("join", "192.0.2.3", "t1")  # t1: 3 - 2 + 30 s' worth (1.5) - 1 - 1 = 0.5 left
    with pytest.raises(TooManyRequests) as by_token:
        limits.check("join", "192.0.2.4", "t1")  # from anywhere
    assert by_token.value.where == "header.authorization"
    exempt = RateLimits({"join": Rate(1, 60)}, {}, exempt=(ip_network("10.0.0.0/8"),), clock=lambda: now[0])
    for _ in range(5):
        exempt.check("join", "10.1.2.3", None)  # the proxy's network: not limited by address


def test_ipv6_counts_by_its_64_and_mapped_ipv4_as_ipv4() -> None:
    assert address_key("2001:db8:1:2:aaaa::1") == address_key("2001:db8:1:2:bbbb::9") == "2001:db8:1:2::/64"
    assert address_key("2001:db8:1:3::1") != address_key("2001:db8:1:2::1")
    assert address_key("::ffff:192.0.2.7") == "192.0.2.7"


def test_buckets_forget_the_least_recently_used_past_their_bound() -> None:
    buckets = Buckets(max_keys=3)
    for key in "abcd":
        buckets.wait(key, Rate(1, 60), 0.0)
    assert len(buckets) == 3
    assert buckets.wait("a", Rate(1, 60), 0.0) == 0.0  # forgotten: a full bucket again
    assert buckets.wait("d", Rate(1, 60), 0.0) == 60.0


@pytest.mark.parametrize("text", ["20", "20/fortnight", "-1/hour", "0/hour", "x/minute", "20/ hour /"])
def test_a_rate_that_is_no_rate_stops_the_start(text: str) -> None:
    with pytest.raises(ValueError):
        parse_rate(text)
    with pytest.raises(SettingsError, match="ENTENTE_RATE_JOIN_PER_TOKEN"):
        Settings(operator_token=SecretStr(OPERATOR_TOKEN), environment="test", rate_join_per_token=text).checked()


def test_rates_read() -> None:
    assert parse_rate("20/hour") == Rate(20, 3600)
    assert parse_rate(" 5 / Second ") == Rate(5, 1)
    assert parse_rate("0") is None and parse_rate("off") is None
    with pytest.raises(SettingsError, match="ENTENTE_RATE_LIMIT_EXEMPT"):
        Settings(operator_token=SecretStr(OPERATOR_TOKEN), environment="test", rate_limit_exempt="proxy").checked()
