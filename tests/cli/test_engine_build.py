"""Which build of the rules engine runs is visible (docs/operations.md, "Which engine runs"):
``entente --version``, every HTTP service's ``/healthz`` and ``/livez`` and the workers' health
listeners name it, and the two switches, ``ENTENTE_PURE_PYTHON`` and ``ENTENTE_NO_C_CORE``,
change what they say."""
from __future__ import annotations

import importlib.metadata
import json
import os
import subprocess

import httpx
import pytest

from services.app import create_app
from services.cli.health import Heartbeat, answer
from shared.rules.diplomacy.c_core import ENGINE_BUILDS
from shared.rules.variants import engine_build
from tests.cli.test_serve import REPOSITORY, entente_command, free_port
from tests.utils.http import OPERATOR_TOKEN, running_client
from tests.utils.processes import stop
from tests.utils.wait import wait_until

SWITCHES = ("ENTENTE_PURE_PYTHON", "ENTENTE_NO_C_CORE")


def environment(**switches: str) -> dict[str, str]:
    """This process's environment without either switch, then ``switches``."""
    return {**{k: v for k, v in os.environ.items() if k not in SWITCHES}, **switches}


def version_lines(**switches: str) -> list[str]:
    done = subprocess.run([*entente_command(), "--version"], capture_output=True, text=True, timeout=120,
                          stdin=subprocess.DEVNULL, env=environment(**switches), cwd=REPOSITORY)
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


@pytest.fixture(scope="module")
def installed_build() -> str:
    """The fastest build this install can run, as a process without either switch runs it."""
    lines = version_lines()
    assert lines[1].startswith("engine: "), lines
    return lines[1].removeprefix("engine: ").split(" ")[0]


def test_version_names_the_release_and_the_engine_build(installed_build: str) -> None:
    lines = version_lines()
    assert lines[0] == f"entente {importlib.metadata.version('entente')}"
    assert installed_build in ENGINE_BUILDS
    if installed_build == "compiled-c-core":
        assert lines[1] == "engine: compiled-c-core"  # nothing faster exists, so no reason is given


def test_the_pure_switch_makes_the_engine_pure() -> None:
    assert version_lines(ENTENTE_PURE_PYTHON="1")[1] == "engine: pure (ENTENTE_PURE_PYTHON is set)"
    assert version_lines(ENTENTE_PURE_PYTHON="0")[1] == version_lines()[1]  # "0" is as good as unset


def test_the_c_core_switch_leaves_the_compiled_engine(installed_build: str) -> None:
    line = version_lines(ENTENTE_NO_C_CORE="1")[1]
    if installed_build == "pure":
        assert line.startswith("engine: pure (")  # the core never runs without the compiled engine
    else:
        assert line == "engine: compiled (ENTENTE_NO_C_CORE is set)"


def test_entente_help_mentions_version() -> None:
    done = subprocess.run([*entente_command(), "--help"], capture_output=True, text=True, timeout=120,
                          stdin=subprocess.DEVNULL, env=environment(), cwd=REPOSITORY)
    assert "entente --version" in done.stdout


async def test_health_answers_name_the_engine_build(store_url: str) -> None:
    async with running_client(store_url, create_app) as client:
        for path in ("/healthz", "/livez"):
            answer = await client.get(path)
            assert answer.status_code == 200
            assert answer.json() == {"status": "ok", "store": "postgresql" if "postgresql" in store_url else "sqlite",
                                     "engine": engine_build()[0]}
        documented = (await client.get("/openapi.json")).json()["components"]["schemas"]["Health"]
        assert "engine" in documented["required"]


def test_a_served_process_with_the_pure_switch_says_pure_in_healthz(sqlite_url: str) -> None:
    port = free_port()
    env = environment(ENTENTE_PURE_PYTHON="1", ENTENTE_OPERATOR_TOKEN=OPERATOR_TOKEN, ENTENTE_ENVIRONMENT="test")
    process = subprocess.Popen(
        [*entente_command(), "serve", "--service", "lobby", "--port", str(port), "--database", sqlite_url,
         "--log-level", "warning"],
        cwd=REPOSITORY, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        def healthy() -> httpx.Response | None:
            assert process.poll() is None, f"entente serve exited with {process.returncode}"
            try:
                answer = httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=2)
            except httpx.TransportError:
                return None
            return answer if answer.status_code == 200 else None

        answer = wait_until(healthy, 30, "the lobby to be ready", 0.1)
        assert answer.json()["engine"] == "pure"
    finally:
        stop(process)


def test_the_workers_health_listeners_name_the_engine_build() -> None:
    heartbeat = Heartbeat("worker")
    heartbeat.beat(True)
    for path in ("/healthz", "/livez"):
        response = answer(heartbeat, f"GET {path} HTTP/1.1")
        assert response.startswith(b"HTTP/1.1 200 ")
        assert json.loads(response.split(b"\r\n\r\n", 1)[1])["engine"] == engine_build()[0]
