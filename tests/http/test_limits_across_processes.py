"""Two ``entente serve`` processes on one database count against one rate limit
(docs/operations.md, "Rate limits"; docs/decisions/0021-limits-across-processes.md): a client
alternating between them is refused 429 ``rate_limited`` at the limit, not at twice it, for
the per-token and the per-address limits of order writes and of press, on PostgreSQL and on
one SQLite file. Each process counting alone (ENTENTE_RATE_LIMITS_SHARED=false) lets the same
client through twice as often: what the shared buckets are for."""
from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager

import httpx
import pytest

from tests.http.test_rate_limits import assert_rate_limited
from tests.utils.http import bearer
from tests.utils.served import entente_serves

LIMITS = {"ENTENTE_RATE_LIMITS": "true", "ENTENTE_RATE_ORDERS_PER_TOKEN": "4/hour",
          "ENTENTE_RATE_ORDERS_PER_ADDRESS": "6/hour", "ENTENTE_RATE_PRESS_PER_TOKEN": "3/hour"}


def settings(shared: bool) -> Callable[[str], dict[str, str]]:
    return lambda _: {**LIMITS, "ENTENTE_RATE_LIMITS_SHARED": "true" if shared else "false"}


@contextmanager
def two_processes(url: str, shared: bool = True) -> Iterator[list[httpx.Client]]:
    """A client of each of two servers on ``url``."""
    with entente_serves(url, 2, settings(shared)) as bases, ExitStack() as stack:
        yield [stack.enter_context(httpx.Client(base_url=base, timeout=30)) for base in bases]


def started_game(client: httpx.Client) -> tuple[str, list[str]]:
    """A started standard game (nobody ready, so no phase resolves) and its seats' tokens."""
    created = client.post("/games", json={"name": "Across", "settings": {"require_ready": True}})
    assert created.status_code == 201, created.text
    game_id = created.json()["id"]
    tokens = []
    for _ in range(7):
        joined = client.post(f"/games/{game_id}/players")
        assert joined.status_code == 201, joined.text
        tokens.append(joined.json()["token"])
    started = client.post(f"/games/{game_id}/start", headers=bearer(created.json()["host_token"]))
    assert started.status_code == 200, started.text
    return game_id, tokens


def alternating(clients: list[httpx.Client], count: int, method: str, path: str, token: str,
                body: dict[str, object]) -> list[httpx.Response]:
    """``count`` requests, the first to the first process, the next to the other, and so on."""
    return [clients[n % 2].request(method, path, json=body, headers=bearer(token)) for n in range(count)]


def test_order_writes_and_press_through_two_processes_meet_each_limit_once(store_url: str) -> None:
    with two_processes(store_url) as clients:
        game_id, tokens = started_game(clients[0])
        path = f"/games/{game_id}/orders"
        first = alternating(clients, 6, "PUT", path, tokens[0], {"orders": []})
        assert [r.status_code for r in first] == [200] * 4 + [429] * 2
        assert "4 per hour" in first[4].json()["error"]["message"]
        assert 0 < assert_rate_limited(first[4], "header.authorization") <= 900
        # another seat from the same address: its token is fresh, the address has 2 writes left
        # of its 6 (the refused ones counted nowhere)
        second = alternating(clients, 4, "PUT", path, tokens[1], {"orders": []})
        assert [r.status_code for r in second] == [200, 200, 429, 429]
        assert "6 per hour" in second[2].json()["error"]["message"]
        assert_rate_limited(second[3], None)
        # press: its own limit, 3 an hour per token
        sent = alternating(clients, 5, "POST", f"/games/{game_id}/messages", tokens[2], {"to": "all", "text": "hi"})
        assert [r.status_code for r in sent] == [201] * 3 + [429] * 2
        assert_rate_limited(sent[3], "header.authorization")
        listed = clients[1].get(f"/games/{game_id}/messages", headers=bearer(tokens[3]))
        assert len(listed.json()["messages"]) == 3  # nothing sent by the refused ones


@pytest.mark.parametrize("store_url", ["sqlite"], indirect=True)
def test_each_process_counting_alone_lets_a_client_through_twice(store_url: str) -> None:
    with two_processes(store_url, shared=False) as clients:
        game_id, tokens = started_game(clients[0])
        written = alternating(clients, 10, "PUT", f"/games/{game_id}/orders", tokens[0], {"orders": []})
        assert [r.status_code for r in written] == [200] * 8 + [429] * 2
