"""No request, however malformed, gets a 5xx, and a real server keeps the connection.

Requests come from the OpenAPI document of ``services.app`` (tests/utils/openapi_fuzz.py): a sweep that
puts every hostile value into every body field, query and path parameter of every route, and
hypothesis exploring routes, parameters, bodies and credentials at random. Both back ends: the
app in-process on SQLite (every request of the sweep and of the exploration), and a real
``entente serve`` (uvicorn) on PostgreSQL over one kept-alive connection (the sweep's hostile
values on every field, and a sample of the exploration). Each test prints how many requests it
sent and how many 5xx it saw (docs/testing.md, "Fuzzing the HTTP API")."""
from __future__ import annotations

import asyncio
import json
import threading
from collections import Counter
from collections.abc import Iterator
from contextlib import AsyncExitStack
from typing import Any, Protocol

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import SecretStr

from services.app import create_app
from shared.settings import Settings
from tests.utils.http import OPERATOR_TOKEN
from tests.utils.openapi_fuzz import (
    HOSTILE_TEXT,
    Operation,
    Raw,
    Request,
    World,
    field_sweep,
    operations,
    render,
    segment,
)
from tests.utils.served import Answer, KeptConnection, entente_serve

OPERATIONS, SCHEMAS = operations()
EXPLORED_IN_PROCESS = 600
EXPLORED_SERVED = 250
WHOLE_BODIES = [Raw("NaN"), Raw("-Infinity"), "\ud800", "\x00", {"\x00": 1}, [Raw("1e400")], {"a": "\udfff"},
                "x" * 5000]


class Driver(Protocol):
    def send(self, request: Request) -> Answer: ...


class InProcess:
    """The combined app with its lifespan run, on its own event loop in a thread, behind
    httpx's ASGI transport (an exception escaping the app fails the test, as a 500 would)."""

    def __init__(self, database_url: str) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.stack = AsyncExitStack()
        self.client: httpx.AsyncClient = self._run(self._open(database_url))

    async def _open(self, database_url: str) -> httpx.AsyncClient:
        app = create_app(Settings(database_url=database_url, operator_token=SecretStr(OPERATOR_TOKEN),
                                  environment="test"))
        await self.stack.enter_async_context(app.router.lifespan_context(app))
        return await self.stack.enter_async_context(
            httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://entente.test", timeout=60))

    def _run(self, coroutine: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout=120)

    def send(self, request: Request) -> Answer:
        headers = {key: value.encode("latin-1") for key, value in request.headers.items()}
        response = self._run(self.client.request(request.method, request.url, headers=headers,  # type: ignore[arg-type]
                                                 content=request.body))
        return Answer(response.status_code, {k.lower(): v for k, v in response.headers.items()}, response.content)

    def close(self) -> None:
        self._run(self.stack.aclose())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=10)


class Served:
    """A real ``entente serve`` and one connection that must stay open throughout."""

    def __init__(self, connection: KeptConnection) -> None:
        self.connection = connection

    def send(self, request: Request) -> Answer:
        return self.connection.request(request.method, request.url, request.body, dict(request.headers))


def call(driver: Driver, method: str, url: str, body: Any = None, token: str | None = None) -> Answer:
    headers = {"content-type": "application/json"} if body is not None else {}
    if token:
        headers["authorization"] = f"Bearer {token}"
    return driver.send(Request(method, url, headers, json.dumps(body).encode() if body is not None else None))


def seated_game(driver: Driver, name: str) -> tuple[str, str, list[str]]:
    created = call(driver, "POST", "/games", {"name": name, "settings": {"require_ready": True}})
    assert created.status == 201, created.body
    game_id, host = created.json()["id"], created.json()["host_token"]
    tokens = []
    for _ in range(7):
        joined = call(driver, "POST", f"/games/{game_id}/players")
        assert joined.status == 201, joined.body
        tokens.append(joined.json()["token"])
    return game_id, host, tokens


def make_world(driver: Driver) -> tuple[World, dict[str, str]]:
    """A forming game, a started one with a bot token, a finished one; the credentials."""
    forming = call(driver, "POST", "/games", {"name": "Forming"})
    assert forming.status == 201
    started, host, players = seated_game(driver, "Started")
    assert call(driver, "POST", f"/games/{started}/start", {}, host).status == 200
    issued = call(driver, "POST", f"/games/{started}/bot-tokens", {"label": "bot"}, players[0])
    assert issued.status == 201, issued.body
    finished, finished_host, _ = seated_game(driver, "Finished")
    assert call(driver, "POST", f"/games/{finished}/start", {}, finished_host).status == 200
    assert call(driver, "POST", f"/games/{finished}/finish", {"reason": "abandoned"}, OPERATOR_TOKEN).status == 200
    named = {"operator": OPERATOR_TOKEN, "host": host, "player": players[0], "other player": players[3],
             "bot": issued.json()["token"], "forming host": forming.json()["host_token"]}
    world = World(
        path_values={"game_id": [forming.json()["id"], started, finished, "g_000000000000"],
                     "token_id": [issued.json()["token_id"], "bt_000000000000"]},
        credentials=[None, *(f"Bearer {token}" for token in named.values()), "Bearer b.g_fake.zzzz",
                     "Bearer s.a_fake.zzzz", "Bearer " + "x" * 300, "Basic YWxhZGRpbjpvcGVu", "Bearer",
                     "Bearer \u00e9t\u00e9"])
    return world, named


class Tally:
    """Requests sent and answers by class, for the figures the tests print."""

    def __init__(self, label: str) -> None:
        self.label = label
        self.statuses: Counter[int] = Counter()
        self.routes: set[str] = set()
        self.fields: set[str] = set()

    def check(self, driver: Driver, request: Request, route: str, field: str | None = None) -> Answer:
        answer = driver.send(request)
        self.statuses[answer.status] += 1
        self.routes.add(route)
        if field is not None:
            self.fields.add(f"{route} {field}")
        assert answer.status < 500, f"{answer.status} for {request.short()}: {answer.body[:300]!r}"
        if answer.status >= 400 and request.method != "HEAD":
            assert answer.headers.get("content-type", "").startswith("application/json"), request.short()
            error = answer.json()["error"]
            assert error["code"] and error["message"], request.short()
        return answer

    def summary(self) -> str:
        server_errors = sum(n for status, n in self.statuses.items() if status >= 500)
        classes = Counter(f"{status // 100}xx" for status in self.statuses.elements())
        fields = f" and {len(self.fields)} body fields" if self.fields else ""
        return (f"{self.label}: {sum(self.statuses.values())} requests over {len(self.routes)} routes{fields}, "
                f"{server_errors} 5xx ({', '.join(f'{k} {v}' for k, v in sorted(classes.items()))})")


def sweep(driver: Driver, world: World, named: dict[str, str], tally: Tally, credentials: list[str]) -> None:
    """Every hostile value in every body field, query and path parameter of every route."""
    for operation in OPERATIONS:
        base = concrete_path(operation, world)
        for token in credentials:
            headers = {"authorization": f"Bearer {named[token]}"}
            tally.check(driver, Request(operation.method, query_for(operation, base), headers, None), operation.name)
            for whole in WHOLE_BODIES:  # in place of the body, or where none is expected
                request = Request(operation.method, query_for(operation, base),
                                  {**headers, "content-type": "application/json"}, render(whole).encode())
                tally.check(driver, request, operation.name)
            for where, body, _ in field_sweep(operation, SCHEMAS):
                request = Request(operation.method, query_for(operation, base),
                                  {**headers, "content-type": "application/json"}, render(body).encode())
                tally.check(driver, request, operation.name, f"body.{where}")
            for parameter in operation.parameters:
                if parameter["in"] == "query":
                    for text in HOSTILE_TEXT:
                        url = query_for(operation, base, {parameter["name"]: text})
                        tally.check(driver, Request(operation.method, url, headers, None), operation.name)
                elif parameter["in"] == "path":
                    for text in HOSTILE_TEXT:
                        path = concrete_path(operation, world, {parameter["name"]: segment(text) or "x"})
                        tally.check(driver, Request(operation.method, query_for(operation, path), headers, None),
                                    operation.name)


def concrete_path(operation: Operation, world: World, given: dict[str, str] | None = None) -> str:
    path = operation.path
    for name, values in world.path_values.items():
        path = path.replace("{" + name + "}", (given or {}).get(name, values[1 % len(values)]))
    return path


def query_for(operation: Operation, path: str, query: dict[str, str] | None = None) -> str:
    from urllib.parse import quote, urlencode

    values = dict(query or {})
    if operation.path.endswith("/stream"):
        values.setdefault("timeout", "0.05")
    return path + ("?" + urlencode(values, quote_via=quote) if values else "")


# ----------------------------------------------------------------------------- in-process, SQLite


@pytest.fixture(scope="module")
def in_process(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[InProcess, World, dict[str, str]]]:
    driver = InProcess(f"sqlite:///{tmp_path_factory.mktemp('fuzz') / 'fuzz.db'}")
    try:
        world, named = make_world(driver)
        yield driver, world, named
    finally:
        driver.close()


def test_every_hostile_value_in_every_field_of_every_route_in_process(
        in_process: tuple[InProcess, World, dict[str, str]]) -> None:
    driver, world, named = in_process
    tally = Tally("sweep, in-process SQLite")
    sweep(driver, world, named, tally, ["operator"])  # the real server's sweep is a player's (below)
    print(tally.summary())
    assert len(tally.routes) == len(OPERATIONS) and len(tally.fields) >= 20


def explore(driver: Driver, world: World, tally: Tally, examples: int) -> None:
    """Hypothesis draws a route, then its parameters, credentials and body, ``examples`` times."""

    @settings(max_examples=examples, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(data=st.data())
    def one_request(data: st.DataObject) -> None:
        operation = data.draw(st.sampled_from(OPERATIONS), label="operation")
        tally.check(driver, data.draw(request_strategy_for(operation, world), label="request"), operation.name)

    one_request()


def test_random_requests_from_the_openapi_document_in_process(
        in_process: tuple[InProcess, World, dict[str, str]]) -> None:
    driver, world, _ = in_process
    tally = Tally("hypothesis, in-process SQLite")
    explore(driver, world, tally, EXPLORED_IN_PROCESS)
    print(tally.summary())
    assert sum(tally.statuses.values()) >= EXPLORED_IN_PROCESS


def request_strategy_for(operation: Operation, world: World) -> st.SearchStrategy[Request]:
    from tests.utils.openapi_fuzz import request_strategy

    return request_strategy(operation, SCHEMAS, world)


# ----------------------------------------------------------------------------- a real server, PostgreSQL


@pytest.fixture(scope="module")
def served(postgres_database_url: str) -> Iterator[tuple[Served, World, dict[str, str]]]:
    with entente_serve(postgres_database_url) as base_url:
        connection = KeptConnection(base_url)
        try:
            driver = Served(connection)
            world, named = make_world(driver)
            yield driver, world, named
        finally:
            connection.close()


@pytest.mark.slow  # a real server (docs/testing.md, "Tiers")
@pytest.mark.postgres
def test_every_hostile_value_in_every_field_over_one_kept_connection_to_a_real_server(
        served: tuple[Served, World, dict[str, str]]) -> None:
    driver, world, named = served
    tally = Tally("sweep, entente serve on PostgreSQL")
    sweep(driver, world, named, tally, ["player"])
    print(tally.summary(), f"- on one connection ({driver.connection.requests} requests)")
    assert len(tally.routes) == len(OPERATIONS)


@pytest.mark.slow  # a real server (docs/testing.md, "Tiers")
@pytest.mark.postgres
def test_random_requests_over_one_kept_connection_to_a_real_server(
        served: tuple[Served, World, dict[str, str]]) -> None:
    driver, world, _ = served
    tally = Tally("hypothesis, entente serve on PostgreSQL")
    explore(driver, world, tally, EXPLORED_SERVED)
    print(tally.summary(), f"- one connection for all {driver.connection.requests} requests of the module")
    assert sum(tally.statuses.values()) >= EXPLORED_SERVED
