"""schemathesis finds no answer that contradicts the OpenAPI document, on both back ends
(docs/testing.md, "The document checked by schemathesis").

A real ``entente serve`` on SQLite and on PostgreSQL; a standard game is created, filled and
started first, and its id given to schemathesis, so that the game's routes are reached rather
than answering 404; one run with the operator's token, one with a seat's.
schemathesis generates requests from ``/openapi.json`` (a fixed seed and a fixed number of
examples per operation, under a minute a run) and checks every answer: no 5xx,
a status, content type, headers and body the document declares, the stream's events by their
schemas, and (tests/http/schemathesis_checks.py) that a request the document calls valid is
not refused for anything a document can say.
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from tests.utils.http import OPERATOR_TOKEN
from tests.utils.served import entente_serve

EXAMPLES = 12
PLAYER_EXAMPLES = 8
SEED = 20261204
CHECKS = ("not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance,"
          "response_headers_conformance,schema_valid_request_taken")
REPOSITORY = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.slow  # real servers (docs/testing.md, "Tiers")


def started_game(base_url: str) -> tuple[str, str]:
    """A started two-player game: its id and the first seat's token."""
    with httpx.Client(base_url=base_url, timeout=30) as client:
        created = client.post("/games", json={"name": "schemathesis", "settings": {"player_count": 2}}).json()
        tokens = []
        for _ in range(2):
            joined = client.post(f"/games/{created['id']}/players")
            assert joined.status_code == 201
            tokens.append(joined.json()["token"])
        host = {"Authorization": f"Bearer {created['host_token']}"}
        assert client.post(f"/games/{created['id']}/start", headers=host).status_code == 200
        return str(created["id"]), tokens[0]


def run_schemathesis(base_url: str, folder: Path, token: str, game_id: str,
                     examples: int) -> subprocess.CompletedProcess[str]:
    folder.mkdir()
    config = folder / "schemathesis.toml"
    config.write_text(f'[parameters]\n"path.game_id" = "{game_id}"\n')
    command = [sys.executable, "-m", "schemathesis.cli", "--config-file", str(config), "run",
               f"{base_url}/openapi.json", "--phases", "examples,fuzzing", "-n", str(examples), "--seed", str(SEED),
               "--checks", CHECKS, "-H", f"Authorization: Bearer {token}", "--no-color",
               "--request-timeout", "30", "--workers", "1"]
    env = {**os.environ, "SCHEMATHESIS_HOOKS": "tests.http.schemathesis_checks", "PYTHONPATH": str(REPOSITORY)}
    return subprocess.run(command, cwd=folder, env=env, capture_output=True, text=True, timeout=600)


def check_as(credential: str, base_url: str, tmp_path: Path) -> None:
    """With the operator's token (every route, the game's log and the other seats' views
    included), or with a seat's (orders, ready flags, press and draws as a player sends them).
    The two runs are two tests, so that the suite's workers run them side by side."""
    game_id, seat = started_game(base_url)
    if credential == "operator":
        assert_clean(run_schemathesis(base_url, tmp_path / "operator", OPERATOR_TOKEN, game_id, EXAMPLES))
    else:
        assert_clean(run_schemathesis(base_url, tmp_path / "player", seat, game_id, PLAYER_EXAMPLES))


def assert_clean(result: subprocess.CompletedProcess[str]) -> None:
    print("\n".join(result.stdout.splitlines()[-4:]))  # the count of requests and the time
    assert result.returncode == 0, result.stdout[-12000:] + result.stderr[-3000:]


@pytest.mark.parametrize("credential", ["operator", "player"])
def test_schemathesis_finds_nothing_on_sqlite(credential: str, sqlite_url: str, tmp_path: Path) -> None:
    with entente_serve(sqlite_url) as base_url:
        check_as(credential, base_url, tmp_path)


@pytest.mark.postgres
@pytest.mark.parametrize("credential", ["operator", "player"])
def test_schemathesis_finds_nothing_on_postgresql(credential: str, postgres_url: str, tmp_path: Path) -> None:
    with entente_serve(postgres_url) as base_url:
        check_as(credential, base_url, tmp_path)
