"""`entente serve` as a real uvicorn process on PostgreSQL, playing 1901 over the network."""
from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from tests.games.test_standard_game import play_1901
from tests.utils.http import OPERATOR_TOKEN
from tests.utils.processes import stop
from tests.utils.wait import wait_until

pytestmark = pytest.mark.postgres
REPOSITORY = Path(__file__).resolve().parents[2]


def entente_command() -> list[str]:
    """The installed ``entente`` script, or the same entry point through this interpreter."""
    script = Path(sys.executable).parent / "entente"
    if script.exists():
        return [str(script)]
    return [sys.executable, "-c", "import sys; from services.cli import main; sys.exit(main())"]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_until_serving(base_url: str, process: subprocess.Popen, timeout: float = 60.0) -> None:
    """Wait until the server answers ``GET /games``; its exit stops the wait (with its stderr)."""
    def serving() -> bool:
        if process.poll() is not None:
            errors = process.stderr.read() if process.stderr else ""
            raise AssertionError(f"entente serve exited with {process.returncode}: {errors}")
        try:
            return httpx.get(f"{base_url}/games", timeout=1).status_code == 200
        except httpx.TransportError:
            return False

    wait_until(serving, timeout, "entente serve to answer", 0.1)


async def test_entente_serve_plays_1901(postgres_url: str) -> None:
    port = free_port()
    env = {**os.environ, "ENTENTE_OPERATOR_TOKEN": OPERATOR_TOKEN, "ENTENTE_ENVIRONMENT": "test"}
    process = subprocess.Popen(
        [*entente_command(), "serve", "--port", str(port), "--database", postgres_url,
         "--log-level", "warning"],
        cwd=REPOSITORY, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        base_url = f"http://127.0.0.1:{port}"
        wait_until_serving(base_url, process)
        async with httpx.AsyncClient(base_url=base_url, timeout=30) as client:
            table = await play_1901(client)
            assert (await client.get(f"/games/{table.game_id}")).json()["phase"] == "S1902M"
            assert (await client.get("/openapi.json")).status_code == 200
    finally:
        stop(process)
    assert process.returncode in (0, -15)


def test_serve_refuses_unsafe_settings(tmp_path: Path) -> None:
    env = {**os.environ, "ENTENTE_ENVIRONMENT": "production"}
    env.pop("ENTENTE_OPERATOR_TOKEN", None)
    done = subprocess.run([*entente_command(), "serve", "--database", f"sqlite:///{tmp_path}/x.db"],
                          cwd=REPOSITORY, env=env, capture_output=True, text=True, timeout=30)
    assert done.returncode == 2 and "ENTENTE_OPERATOR_TOKEN" in done.stderr


@pytest.mark.parametrize("token", ["1qaz2wsx3edc4rfv", "Password12345678", "entente-operator"])
def test_serve_refuses_a_guessable_operator_token_and_says_how_to_make_one(tmp_path: Path, token: str) -> None:
    """A token zxcvbn finds guessable stops a production server at start (docs/api.md, "The
    operator token"): exit 2, the reason, and a command that prints a strong one."""
    env = {**os.environ, "ENTENTE_ENVIRONMENT": "production", "ENTENTE_OPERATOR_TOKEN": token}
    done = subprocess.run([*entente_command(), "serve", "--database", f"sqlite:///{tmp_path}/x.db"],
                          cwd=REPOSITORY, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2, done.stderr
    assert "ENTENTE_OPERATOR_TOKEN is guessable" in done.stderr and "zxcvbn" in done.stderr
    assert "secrets.token_urlsafe(32)" in done.stderr and token not in done.stderr


def line_with(process: subprocess.Popen, words: str, timeout: float = 120.0) -> str:
    """The first line of the process's standard error that holds ``words`` (its exit, or the
    timeout, fails)."""
    import select

    assert process.stderr is not None
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        ready, _, _ = select.select([process.stderr], [], [], 0.5)
        if ready:
            line = process.stderr.readline()
            assert line, f"entente serve ended ({process.wait()}) without saying {words!r}"
            if words in line:
                return line
    raise AssertionError(f"entente serve said no {words!r} within {timeout} s")


@pytest.mark.parametrize("workers", [1, 2])
def test_serve_says_serving_only_once_its_port_answers(tmp_path: Path, workers: int) -> None:
    """A script that waits for "serving" may connect at once (docs/hosting.md, "Starting"): the
    line comes once the app has started and the port accepts, with one process or several."""
    port = free_port()
    env = {**os.environ, "ENTENTE_OPERATOR_TOKEN": OPERATOR_TOKEN, "ENTENTE_ENVIRONMENT": "test"}
    process = subprocess.Popen(
        [*entente_command(), "serve", "--port", str(port), "--database", f"sqlite:///{tmp_path}/x.db", "--no-worker",
         "--workers", str(workers), "--log-level", "warning"],
        cwd=REPOSITORY, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        said = line_with(process, "entente: serving")
        answer = httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=30)  # at once: no retry, no wait
        assert answer.status_code == 200, answer.text
        assert (f" in {workers} processes" in said) == (workers > 1), said
    finally:
        stop(process)
