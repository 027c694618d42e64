"""The logs of a whole game keep its secrets (docs/operations.md, "Logs").

``entente serve`` runs as operators run it (its stderr a file, so JSON lines, here at debug
level so that even idle worker steps are there), with sign-in through a local OAuth provider.
An account signs in and takes a seat of a Tale of Ekonia game; the scripted states build,
trade, spy (a stolen map, investigations, counter-espionage), and write press. Then every
secret of the game, every token, the account's names, every order, every message and every
string of every event's data (what the operator alone reads), is looked for in the logs, and
none is there; while each request is, once, with its request id, route template and game id.
"""
from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest

from tests.utils.ekonia_players import PLAYERS, orders_for
from tests.utils.oauth_provider import CLIENT_ID, CLIENT_SECRET, LocalProvider, serve_in_thread
from tests.utils.wait import answers, wait_until

OPERATOR_TOKEN = "operator-token-for-the-logs-test-0123456789"
TURNS = 7  # espionage on turns 3, 5 and 6
ENTENTE = str(Path(sys.executable).parent / "entente")

# the provider's id of the player: a secret, long like a Discord id (a short one would turn up by
# chance in timestamps and durations)
PROVIDER_USER_ID = "830274519263748102"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def bearer(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


def strings_in(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):  # the values: the keys are the catalogue's field names (docs/api.md)
        for item in value.values():
            yield from strings_in(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings_in(item)


@pytest.fixture
def provider() -> Iterator[tuple[LocalProvider, str]]:
    local = LocalProvider()
    with serve_in_thread(local.app()) as url:
        yield local, url


def test_the_logs_of_an_ekonia_game_with_espionage_keep_its_secrets(
        tmp_path: Path, provider: tuple[LocalProvider, str]) -> None:
    local, provider_url = provider
    local.add_user(PROVIDER_USER_ID, "zanzibar_quill", "Zanzibar Quillfeather")
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    environment = {
        "PATH": os.environ.get("PATH", ""), "HOME": str(tmp_path), "ENTENTE_OPERATOR_TOKEN": OPERATOR_TOKEN,
        "ENTENTE_DATABASE_URL": f"sqlite:///{tmp_path / 'logs.db'}", "ENTENTE_LOG_LEVEL": "debug",
        "ENTENTE_OAUTH_AUTHORIZE_URL": f"{provider_url}/oauth2/authorize",
        "ENTENTE_OAUTH_TOKEN_URL": f"{provider_url}/api/oauth2/token",
        "ENTENTE_OAUTH_USER_URL": f"{provider_url}/api/users/@me", "ENTENTE_OAUTH_CLIENT_ID": CLIENT_ID,
        "ENTENTE_OAUTH_CLIENT_SECRET": CLIENT_SECRET, "ENTENTE_OAUTH_REDIRECT_URI": f"{base}/auth/callback",
        "ENTENTE_WEBHOOK_ALLOW_PRIVATE_HOSTS": "true"}
    log_path = tmp_path / "serve.log"
    with open(log_path, "wb") as log:
        server = subprocess.Popen([ENTENTE, "serve", "--port", str(port)], stdin=subprocess.DEVNULL, stdout=log,
                                  stderr=subprocess.STDOUT, env=environment, cwd=tmp_path)
    secrets: set[str] = {OPERATOR_TOKEN, "zanzibar_quill", "Zanzibar Quillfeather", PROVIDER_USER_ID}
    sent = 0
    try:
        with httpx.Client(base_url=base, timeout=30) as client:
            wait_until(lambda: answers(client, "/healthz"), timeout=30, what="the server to answer /healthz")
            # the account signs in: the provider's code and the session token are secrets too
            with httpx.Client(base_url=base, timeout=30) as browser, httpx.Client(timeout=30) as outside:
                login = browser.get("/auth/login")
                back = outside.get(f"{login.headers['location']}&user={PROVIDER_USER_ID}")
                callback = urlsplit(back.headers["location"])
                secrets.update(value for part in callback.query.split("&") for value in part.split("=")[1:])
                signed_in = browser.get(f"{callback.path}?{callback.query}")
                assert signed_in.status_code == 200, signed_in.text
                session = signed_in.json()["token"]
                secrets.add(session)
                sent += 2  # the login and the callback (the provider is not entente)

            created = client.post("/games", json={"name": "Ekonia with spies", "variant": "ekonia"}).json()
            game_id, host_token = created["id"], created["host_token"]
            secrets.add(host_token)
            tokens = [client.post(f"/games/{game_id}/players", headers=bearer(session)).json()["token"]]
            tokens += [client.post(f"/games/{game_id}/players").json()["token"] for _ in range(5)]
            secrets.update(tokens)
            assert client.post(f"/games/{game_id}/start", headers=bearer(host_token)).status_code == 200
            sent += 8
            power_of = {}
            for token in tokens:
                power_of[token] = client.get(f"/games/{game_id}/view", headers=bearer(token)).json()["viewer"][
                    "powers"][0]
            sent += len(tokens)
            for turn in range(1, TURNS + 1):
                for token in tokens:
                    power = power_of[token]
                    orders: list[str] = []
                    if power in PLAYERS:
                        view = client.get(f"/games/{game_id}/view", headers=bearer(token)).json()
                        orders = orders_for(turn, power, view["position"])
                        sent += 1
                    secrets.update(orders)
                    answer = client.put(f"/games/{game_id}/orders", json={"orders": orders}, headers=bearer(token))
                    assert answer.status_code == 200, answer.text
                    sent += 1
                if turn in (2, 5):
                    text = f"Secret pact number {turn}: meet at the narrows, burn the ships"
                    secrets.add(text)
                    vieren = next(t for t, p in power_of.items() if p == "VIEREN")
                    wrote = client.post(f"/games/{game_id}/messages", json={"to": ["PARESQUE"], "text": text},
                                        headers=bearer(vieren))
                    assert wrote.status_code == 201, wrote.text
                    sent += 1
            events = client.get(f"/games/{game_id}/events", headers=bearer(OPERATOR_TOKEN))
            assert events.status_code == 200
            sent += 1
            hidden = [json.loads(line) for line in events.text.splitlines() if line.strip()]
            assert any(e["type"] == "PhaseResolved" for e in hidden) and len(hidden) > 40
    finally:
        server.terminate()
        assert server.wait(timeout=60) == 0

    public = {game_id, "ekonia"} | {f"T{turn:02d}" for turn in range(1, TURNS + 2)}
    for event in hidden:
        secrets.update(s for s in strings_in(event["data"]) if len(s) >= 6 and s not in public)
    text = log_path.read_text()
    found = sorted(secret for secret in secrets if secret in text)
    assert found == [], f"secrets in the logs: {found[:20]}"

    lines = [json.loads(line) for line in text.splitlines() if line.startswith("{")]
    requests = [line for line in lines if line["logger"] == "entente.http" and line["message"] == "request"]
    assert {"timestamp", "level", "request_id", "method", "route", "status", "duration_ms"} <= set(requests[0])
    ordered = [r for r in requests if r["route"] == "/games/{game_id}/orders"]
    assert len(ordered) == 6 * TURNS and {r["game_id"] for r in ordered} == {game_id}
    assert len({r["request_id"] for r in requests}) == len(requests) >= sent
    resolved = [line for line in lines if line["message"] == "phase resolved"]
    assert [line["phases"] for line in resolved] == [[f"T{turn:02d}"] for turn in range(1, TURNS + 1)]
    assert all(line["trigger"] == "early" and line["game_id"] == game_id for line in resolved)
    assert not [line for line in lines if re.search(r"uvicorn\.access", line["logger"])]
