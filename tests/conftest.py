"""Fixtures shared by every test: the store's (``store_url``, ``store``, ``postgres_store``), the
HTTP ones (``client``, ``table``, ``host``, ``social``...: the app of tests/utils/http.py on such a
store) and the local OAuth2 provider and webhook receiver.

``store_url`` runs a test on both back ends: a fresh SQLite file in tmp_path, and a PostgreSQL
database created for this test session on the server at ENTENTE_TEST_POSTGRES_URL (default
postgresql://postgres@127.0.0.1:5432/test), emptied before each test and dropped at the end.
Without a reachable server the PostgreSQL variants skip, unless ENTENTE_REQUIRE_POSTGRES=1.
"""
from __future__ import annotations

import asyncio
import os
import sys
import threading
import uuid
from collections.abc import AsyncIterator, Callable, Coroutine, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar
from urllib.parse import urlsplit

import pytest
from hypothesis import settings as hypothesis_settings

# The property tests' profiles (docs/testing.md, "Random tests, repeatable in CI"): by default
# each run draws new random examples; HYPOTHESIS_PROFILE=ci (set by .ci/run) draws the same
# ones every run, from each test's own name, so that CI's verdict on a commit is repeatable.
hypothesis_settings.register_profile("ci", derandomize=True, database=None, print_blob=True)
hypothesis_settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))

# The suite plays thousands of games from 127.0.0.1, hundreds of order writes with one token:
# the per-process rate limits (docs/operations.md, "Rate limits") are off in its apps and in the
# servers it starts (they inherit the environment), unless a test switches them on itself, as
# tests/http/test_rate_limits.py does with its own settings (docs/testing.md).
os.environ.setdefault("ENTENTE_RATE_LIMITS", "false")

# The suite starts hundreds of Python processes (servers, workers, commands) and its workers
# import every test module: with PYTHONDONTWRITEBYTECODE set (some machines set it), each of
# them compiles the project's modules from source again, about 0.4 CPU seconds a server start.
# The suite writes bytecode (git ignores __pycache__; docs/testing.md, "What the machine spends").
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
sys.dont_write_bytecode = False

# `entente worker` lowers its own CPU priority by default (docs/hosting.md, "The clock worker"):
# on a machine the suite keeps busy, a worker at nice 5 would wait behind every test process.
# The suite's workers keep the priority of the rest; tests/deploy/test_workers.py checks the
# default on a worker of its own
os.environ.setdefault("ENTENTE_WORKER_NICE", "0")

if TYPE_CHECKING:  # the store and the app are imported only by tests that use them
    import httpx

    from shared.clock import ManualClock
    from shared.store import EventStore
    from tests.utils.http import Host, Table
    from tests.utils.oauth_provider import LocalProvider
    from tests.utils.webhook_receiver import Receiver


def open_store(url: str) -> Coroutine[Any, Any, EventStore]:
    from shared.store import open_store as opener

    return opener(url)


DEFAULT_POSTGRES_URL = "postgresql://postgres@127.0.0.1:5432/test"
T = TypeVar("T")


def run_coroutine_in_thread(make_coroutine: Callable[[], Coroutine[Any, Any, T]]) -> T:
    """Run a coroutine to completion on a private event loop (safe inside sync fixtures)."""
    values: list[T] = []
    errors: list[BaseException] = []

    def target() -> None:
        try:
            values.append(asyncio.run(make_coroutine()))
        except BaseException as error:  # re-raised in the caller's thread
            errors.append(error)

    thread = threading.Thread(target=target)
    thread.start()
    thread.join()
    if errors:
        raise errors[0]
    return values[0]


def _server_url() -> str:
    return os.environ.get("ENTENTE_TEST_POSTGRES_URL", DEFAULT_POSTGRES_URL)


def unreachable_reason(server_url: str, error: BaseException) -> str:
    """Why the PostgreSQL tests cannot run, and what would let them."""
    missing = os.environ.get("ENTENTE_TEST_POSTGRES_MISSING")
    if missing:
        return f"PostgreSQL: {missing}"
    return f"PostgreSQL unreachable at {server_url} (set ENTENTE_TEST_POSTGRES_URL): {error!r}"


def _asyncpg_dsn(url: str) -> str:
    return url.replace("postgresql+asyncpg://", "postgresql://", 1)


def with_database(url: str, database: str) -> str:
    """The server URL ``url`` naming the database ``database`` instead."""
    return urlsplit(url)._replace(path=f"/{database}").geturl()


async def _create_database(server_url: str, name: str) -> None:
    import asyncpg

    connection = await asyncpg.connect(_asyncpg_dsn(server_url), timeout=5)
    try:
        await connection.execute(f'CREATE DATABASE "{name}"')
    finally:
        await connection.close()


async def _drop_database(server_url: str, name: str) -> None:
    import asyncpg

    connection = await asyncpg.connect(_asyncpg_dsn(server_url), timeout=5)
    try:
        await connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await connection.close()


async def _create_schema(url: str) -> None:
    store = await open_store(url)
    await store.close()


async def _empty(url: str) -> None:
    import asyncpg

    connection = await asyncpg.connect(_asyncpg_dsn(url), timeout=5)
    try:
        # every table of the store, whichever area of the product added it
        rows = await connection.fetch("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
        existing = {row["tablename"] for row in rows}
        from shared.store import TABLE_NAMES

        names = [name for name in TABLE_NAMES if name in existing]
        if names:
            await connection.execute(f"TRUNCATE {', '.join(names)} RESTART IDENTITY")
    finally:
        await connection.close()


@contextmanager
def fresh_database(prefix: str) -> Iterator[str]:
    """An empty PostgreSQL database (no schema) on the test server, named ``prefix`` with the
    process and a random part, dropped at the end; the test skips (fails in CI) without a server."""
    server_url = _server_url()
    name = f"{prefix}_{os.getpid()}_{uuid.uuid4().hex[:8]}"
    try:
        run_coroutine_in_thread(lambda: _create_database(server_url, name))
    except Exception as error:
        reason = unreachable_reason(server_url, error)
        if os.environ.get("ENTENTE_REQUIRE_POSTGRES") == "1":
            pytest.fail(reason)
        pytest.skip(reason)
    try:
        yield with_database(server_url, name)
    finally:
        run_coroutine_in_thread(lambda: _drop_database(server_url, name))


@pytest.fixture(scope="session")
def postgres_database_url() -> Iterator[str]:
    """The URL of a PostgreSQL database made for this test session, with the store's schema
    (dropped at its end)."""
    with fresh_database("entente_test") as url:
        run_coroutine_in_thread(lambda: _create_schema(url))
        yield url


@pytest.fixture
def postgres_url(postgres_database_url: str) -> str:
    """The session's PostgreSQL database, emptied for this test."""
    run_coroutine_in_thread(lambda: _empty(postgres_database_url))
    return postgres_database_url


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'store.db'}"


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def store_url(request: pytest.FixtureRequest) -> str:
    """A fresh, empty store's URL, once per back end."""
    if request.param == "sqlite":
        return request.getfixturevalue("sqlite_url")
    return request.getfixturevalue("postgres_url")


@pytest.fixture
async def store(store_url: str) -> AsyncIterator[EventStore]:
    opened = await open_store(store_url)
    try:
        yield opened
    finally:
        await opened.close()


@pytest.fixture
async def postgres_store(postgres_url: str) -> AsyncIterator[EventStore]:
    opened = await open_store(postgres_url)
    try:
        yield opened
    finally:
        await opened.close()


# ---------------------------------------------------------------------------- the app over HTTP
# (tests/utils/http.py; imported inside the fixtures, so that the rules' tests never load the app)

@pytest.fixture
async def client(store_url: str) -> AsyncIterator[httpx.AsyncClient]:
    from tests.utils.http import running_client

    async with running_client(store_url) as opened:
        yield opened


@pytest.fixture
async def sqlite_client(sqlite_url: str) -> AsyncIterator[httpx.AsyncClient]:
    from tests.utils.http import running_client

    async with running_client(sqlite_url) as opened:
        yield opened


@pytest.fixture
async def postgres_client(postgres_url: str) -> AsyncIterator[httpx.AsyncClient]:
    from tests.utils.http import running_client

    async with running_client(postgres_url) as opened:
        yield opened


@pytest.fixture
async def table(sqlite_client: httpx.AsyncClient) -> Table:
    from tests.utils.http import started_table

    return await started_table(sqlite_client)


@pytest.fixture
def clock() -> ManualClock:
    from shared.clock import ManualClock

    return ManualClock()


@pytest.fixture
async def host(sqlite_url: str, clock: ManualClock) -> AsyncIterator[Host]:
    from tests.utils.http import hosting

    async with hosting(sqlite_url, clock) as opened:
        yield opened


# ---------------------------------------------------------------------------- sign-in and webhooks

@pytest.fixture(scope="session")
def provider() -> LocalProvider:
    from tests.utils.oauth_provider import LocalProvider

    return LocalProvider()


@pytest.fixture(scope="session")
def provider_url(provider: LocalProvider) -> Iterator[str]:
    from tests.utils.oauth_provider import serve_in_thread

    with serve_in_thread(provider.app()) as url:
        yield url


@pytest.fixture
async def social(sqlite_url: str, provider_url: str) -> AsyncIterator[tuple[Any, httpx.AsyncClient]]:
    """The combined app on a fresh SQLite store, signing in at the local provider."""
    from tests.utils.http import running_app, social_settings

    async with running_app(social_settings(sqlite_url, provider_url)) as opened:
        yield opened


@pytest.fixture
async def social_any(store_url: str, provider_url: str) -> AsyncIterator[tuple[Any, httpx.AsyncClient]]:
    """The combined app on each back end (``store_url`` gives an empty store, outbox included)."""
    from tests.utils.http import running_app, social_settings

    async with running_app(social_settings(store_url, provider_url)) as (app, client):
        yield app, client


@pytest.fixture(scope="session")
def receiver() -> Receiver:
    from tests.utils.webhook_receiver import Receiver

    return Receiver()


@pytest.fixture(scope="session")
def receiver_url(receiver: Receiver) -> Iterator[str]:
    from tests.utils.oauth_provider import serve_in_thread

    with serve_in_thread(receiver.app()) as url:
        yield url


# The cost tiers (docs/testing.md, "Tiers"): each test gets one marker from its folder, so that
# `pytest -m fast` checks the rules, the store on SQLite, the HTTP apps in-process and the house
# rules in a few minutes, and `-m "not slow"` leaves out only what starts real servers, browsers
# and deployments.
FAST_FOLDERS = ("rules", "architecture", "game", "store", "http")
SLOW_FOLDERS = ("web", "deploy", "clients", "cli", "games", "services/daide")
TIERS = ("fast", "medium", "slow")
# the files that take longest, whatever their tier (docs/testing.md, "The slowest files"): they
# go before everything else, so that they start at once side by side instead of last
HEAVIEST_FILES = ("tests/http/test_schemathesis.py", "tests/games/test_ekonia_http_twins.py",
                  "tests/services/visibility/test_hidden_write_twins.py",
                  "tests/services/visibility/maps/test_picture_cache.py",
                  "tests/services/visibility/test_stream_hub.py")


def heaviness(item: pytest.Item) -> int:
    """Where the test's file stands in HEAVIEST_FILES (the heaviest 0), or after all of them."""
    return next((rank for rank, name in enumerate(HEAVIEST_FILES) if item.nodeid.startswith(name)),
                len(HEAVIEST_FILES))


def tier_of(item: pytest.Item) -> str:
    """The test's own tier marker where it has one (a test that starts a real server in a fast
    folder says so), else its folder's."""
    own = [tier for tier in TIERS if item.get_closest_marker(tier) is not None]
    if own:
        return own[0]
    folder = Path(str(item.path)).resolve().relative_to(Path(__file__).resolve().parent).as_posix()
    if any(folder.startswith(f"{slow}/") for slow in SLOW_FOLDERS):
        return "slow"
    if folder.split("/")[0] in FAST_FOLDERS and item.get_closest_marker("postgres") is None:
        return "fast"
    return "medium"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Each test's tier marker; and the heaviest files first, then the slow tier, the medium, the
    fast (each in its files' order), so that the workers start on the long tests and steal the short ones at
    the end, rather than meeting the browsers last (docs/testing.md, "Parallel")."""
    tiers = {}
    for item in items:
        tiers[item.nodeid] = tier_of(item)
        item.add_marker(getattr(pytest.mark, tiers[item.nodeid]))
    items.sort(key=lambda item: (heaviness(item), TIERS[::-1].index(tiers[item.nodeid])))


def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """``--dist load`` (pyproject.toml's) with short queues, the heaviest files one test at a time
    (tests/utils/scheduling.py; docs/testing.md, "Parallel"); any other ``--dist`` as xdist has it."""
    if config.getoption("dist") != "load":
        return None
    from tests.utils.scheduling import ModuleRuns

    return ModuleRuns(config, log, single=HEAVIEST_FILES)


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """`-n auto`: two workers a core (at least two, at most eight), since most of the suite's time
    is spent waiting on the servers, browsers and databases it starts (docs/testing.md, "Parallel")."""
    return max(2, min(8, 2 * (os.cpu_count() or 1)))


_THROWAWAY: list[Any] = []


def pytest_configure(config: pytest.Config) -> None:
    """Without ENTENTE_TEST_POSTGRES_URL and with no server at the default URL, start a cluster of
    the suite's own (tests/utils/throwaway_postgres.py): once, in the controlling process, whose
    environment xdist's workers inherit."""
    if os.environ.get("PYTEST_XDIST_WORKER") or "ENTENTE_TEST_POSTGRES_URL" in os.environ:
        return
    if config.option.collectonly:
        return
    from tests.utils.throwaway_postgres import answers, start_cluster

    if answers(DEFAULT_POSTGRES_URL):
        return
    try:
        cluster = start_cluster()
    except RuntimeError as why:
        os.environ["ENTENTE_TEST_POSTGRES_MISSING"] = str(why)
        return
    _THROWAWAY.append(cluster)
    os.environ["ENTENTE_TEST_POSTGRES_URL"] = cluster.url


def pytest_unconfigure(config: pytest.Config) -> None:
    """A thread a test left running (a store nobody closed, a server never stopped) would keep
    pytest alive after its summary until CI's time runs out: name it and fail at once instead.
    The suite's own PostgreSQL cluster, if it made one, is stopped first."""
    for cluster in _THROWAWAY:
        cluster.stop()
    import sys
    import time

    leftovers = [thread for thread in threading.enumerate()
                 if thread is not threading.main_thread() and thread.is_alive() and not thread.daemon]
    deadline = time.monotonic() + 10
    for thread in leftovers:
        thread.join(max(0.0, deadline - time.monotonic()))
    leftovers = [thread for thread in leftovers if thread.is_alive()]
    if leftovers:
        sys.stdout.flush()
        sys.stderr.write(f"\nthe tests left {len(leftovers)} thread(s) running: "
                         f"{', '.join(sorted(thread.name for thread in leftovers))}\n")
        sys.stderr.flush()
        os._exit(3)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    """With ENTENTE_TEST_CPU_LOG set, the CPU seconds each test costs (the worker's own, and its
    children's: the servers and browsers a test starts, once they are stopped) are appended to that
    file and the worker's name, for benchmarks/slowest_test_files.py --cpu: the cost of a file that
    a busy machine does not inflate as it does wall time (docs/testing.md, "The slowest files").
    Each line ends with the test's wall seconds and the clock (``os.times().elapsed``, one clock
    for every worker) at its end, for the run's timeline (``--tail``)."""
    log = os.environ.get("ENTENTE_TEST_CPU_LOG")
    if not log:
        yield
        return
    before, wall = os.times(), os.times().elapsed
    yield
    after = os.times()
    own = (after.user - before.user) + (after.system - before.system)
    children = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    with open(f"{log}.{worker}", "a", encoding="utf-8") as out:
        out.write(f"{item.nodeid}\t{own:.3f}\t{children:.3f}\t{after.elapsed - wall:.3f}\t{after.elapsed:.3f}\n")
