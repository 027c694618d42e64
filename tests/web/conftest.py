"""The web client's browser tests (docs/web.md): one Chromium for the module, a context per
player (its own cookies, storage and pages, closed after the test), and one real ``entente
serve`` for the worker's session (``served``: each test plays games of its own, which the others
never look up), or a server of the test's own where the test needs an empty lobby or writes
into the server's store itself (``served_alone``)."""
from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import fresh_database
from tests.utils.served import entente_serve

CHROMIUM = Path("/usr/bin/chromium")
# Debian's old headless shell (package chromium-headless-shell, which .ci/run installs) where
# there is one: the same Blink and V8 without the whole browser around them, about a third less
# of Chromium's CPU for the same tests (docs/testing.md, "Chromium"). It grants no permission to
# show notifications: a module that needs them says FULL_CHROMIUM = True.
HEADLESS_SHELL = Path("/usr/bin/chromium-headless-shell")
# The flags this machine's closed network needs: nothing is fetched from anywhere else.
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]
SHOTS = os.environ.get("ENTENTE_WEB_SHOTS")  # a folder to copy the screenshots into, to look at


# One for the module, not the session: Playwright's sync API keeps an event loop running in the
# worker's thread while it is open, which the asyncio tests of the next modules could not start.
def executable(module: object) -> Path:
    """The browser for a module's tests: the headless shell where installed, unless the module
    asks for the whole of chromium."""
    return CHROMIUM if getattr(module, "FULL_CHROMIUM", False) or not HEADLESS_SHELL.exists() else HEADLESS_SHELL


@pytest.fixture(scope="module")
def browser(request: pytest.FixtureRequest) -> Iterator[object]:
    if not CHROMIUM.exists():
        reason = f"Debian's chromium is not installed at {CHROMIUM} (apt-get install -y chromium; .ci/run does)"
        if os.environ.get("ENTENTE_REQUIRE_POSTGRES") == "1":  # CI, which installs chromium with PostgreSQL
            pytest.fail(reason)
        pytest.skip(reason)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(executable(request.module)), args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture(autouse=True)
def contexts_closed_after_the_test(request: pytest.FixtureRequest) -> Iterator[None]:
    """The browser outlives the test; the contexts it opened (its players' pages, their live
    streams to a server that is about to stop) do not."""
    yield
    if "browser" in request.fixturenames:
        for context in list(request.getfixturevalue("browser").contexts):
            context.close()


@pytest.fixture(scope="session")
def session_server() -> Iterator[str]:
    """One server for every browser test of this worker that can share it, on a database of its
    own (the session's database is emptied under it before other tests). A server's start is
    about a CPU second: started for each of some fifty tests, it was a tenth of their CPU
    (docs/testing.md, "Fewer server starts")."""
    with fresh_database("entente_web") as url, entente_serve(url) as base_url:
        yield base_url


@pytest.fixture
def served(session_server: str) -> str:
    """The worker's shared server: holding the games of earlier tests, so no test may count on
    what the lobby lists or the store holds beyond its own games."""
    return session_server


@pytest.fixture
def served_alone(postgres_url: str) -> Iterator[str]:
    """A server of the test's own on the emptied session database (``postgres_url``, which the
    test may also write into)."""
    with entente_serve(postgres_url) as base_url:
        yield base_url


@pytest.fixture
def shots(tmp_path: Path) -> Iterator[Path]:
    """Where the screenshots go: the test's folder, and a copy in ENTENTE_WEB_SHOTS when set."""
    folder = tmp_path / "shots"
    folder.mkdir()
    yield folder
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        for shot in folder.iterdir():
            shutil.copy(shot, Path(SHOTS) / shot.name)
