"""A service's readiness follows its database, its liveness does not, and a request that
cannot reach the database answers 503 ``unavailable`` with ``Retry-After``, never 500
(docs/deploy.md, "Health checks").

A real ``entente serve --service lobby`` runs on a PostgreSQL database of the test's own; the
database is dropped under it ``WITH (FORCE)`` (its connections terminated, as when the
database server goes away), then made again and migrated, as an operator restoring it would.
"""
from __future__ import annotations

import os
import secrets
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import httpx

from shared.rules.diplomacy.c_core import ENGINE_BUILDS
from tests.utils import wait

from .conftest import create_database, drop_database
from .test_compose_topology import free_port

ENTENTE = str(Path(sys.executable).parent / "entente")


def wait_until(what: str, condition: Callable[[], bool], timeout: float, log: Path) -> float:
    """Seconds until ``condition`` held (looking every 0.1 s; a server not listening does not
    hold it); on a timeout, the end of the server's ``log``."""
    def holds() -> bool:
        try:
            return condition()
        except httpx.TransportError:
            return False

    started = time.monotonic()
    wait.wait_until(holds, timeout, what, 0.1, context=lambda: log.read_text(errors="replace")[-3000:])
    return time.monotonic() - started


def probe(url: str) -> int:
    """``entente health URL``'s exit status, as the compose health check runs it."""
    return subprocess.run([ENTENTE, "health", url, "--timeout", "5"], capture_output=True, timeout=30).returncode


def assert_unavailable(answer: httpx.Response) -> None:
    assert answer.status_code == 503, (answer.status_code, answer.text)
    assert answer.headers["retry-after"] == "5"
    assert answer.json()["error"]["code"] == "unavailable" and answer.json()["error"]["where"] == "store"


def test_readiness_turns_503_without_the_database_and_back_when_it_returns(fresh_database_url: str,
                                                                          tmp_path: Path) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = {"PATH": os.environ.get("PATH", ""), "HOME": str(tmp_path), "LANG": "C.UTF-8",
           "ENTENTE_DATABASE_URL": fresh_database_url, "ENTENTE_ENVIRONMENT": "production",
           "ENTENTE_OPERATOR_TOKEN": secrets.token_urlsafe(32), "ENTENTE_LOG_FORMAT": "json"}
    log = tmp_path / "lobby.log"
    with open(log, "wb") as out:
        server = subprocess.Popen([ENTENTE, "serve", "--service", "lobby", "--host", "127.0.0.1", "--port", str(port)],
                                  stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT, env=env)
    try:
        wait_until("the lobby to be ready", lambda: httpx.get(f"{base}/healthz").status_code == 200, 60, log)
        health = httpx.get(f"{base}/healthz").json()
        assert health["status"] == "ok" and health["store"] == "postgresql" and health["engine"] in ENGINE_BUILDS
        assert probe(f"{base}/healthz") == 0
        created = httpx.post(f"{base}/games", json={"name": "before", "variant": "standard"})
        assert created.status_code == 201, created.text

        drop_database(fresh_database_url)
        seconds = wait_until("readiness to turn 503", lambda: httpx.get(f"{base}/healthz").status_code == 503,
                             10, log)
        print(f"readiness turned 503 {seconds:.2f} s after the drop")
        assert seconds < 5, seconds
        assert_unavailable(httpx.get(f"{base}/healthz"))
        assert probe(f"{base}/healthz") == 1  # the compose health check fails
        assert httpx.get(f"{base}/livez").status_code == 200  # alive: not to be restarted for it
        assert probe(f"{base}/livez") == 0
        # every request that needs the store: 503 with Retry-After, nothing written, no 500
        assert_unavailable(httpx.get(f"{base}/games"))
        assert_unavailable(httpx.get(f"{base}/games/{created.json()['id']}"))
        assert_unavailable(httpx.post(f"{base}/games", json={"name": "during", "variant": "standard"}))
        # a token the middleware looks up before any route runs: the same answer, no traceback
        assert_unavailable(httpx.get(f"{base}/games", headers={"authorization": "Bearer s.a_0000.secret"}))
        assert_unavailable(httpx.get(f"{base}/games/{created.json()['id']}",
                                     headers={"authorization": f"Bearer b.{created.json()['id']}.secret"}))

        create_database(fresh_database_url)  # it comes back, empty: not ready until it is migrated
        assert_unavailable(httpx.get(f"{base}/healthz"))
        migrated = subprocess.run([ENTENTE, "migrate", "--database", fresh_database_url], capture_output=True,
                                  text=True, timeout=60, env=env)
        assert migrated.returncode == 0, migrated.stderr
        wait_until("readiness to turn 200 again", lambda: httpx.get(f"{base}/healthz").status_code == 200, 10, log)
        assert probe(f"{base}/healthz") == 0
        listed = httpx.get(f"{base}/games")
        assert listed.status_code == 200 and listed.json()["games"] == [], listed.text  # the restored (empty) store
        assert httpx.post(f"{base}/games", json={"name": "after", "variant": "standard"}).status_code == 201
    finally:
        server.terminate()
        code = server.wait(timeout=30)
    text = log.read_text(errors="replace")
    assert code == 0, text[-3000:]
    assert '"level": "error"' not in text and "Traceback" not in text, text[-5000:]


class Partition:
    """A TCP relay to PostgreSQL that can go silent: while ``frozen`` it passes no byte either
    way and keeps every connection open (a network partition, a database host that hangs),
    so nothing fails fast and only a bound in time can answer."""

    def __init__(self, target: tuple[str, int]) -> None:
        import socket
        import threading

        self.target = target
        self.frozen = threading.Event()
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        import socket
        import threading

        while True:
            try:
                inside, _ = self.listener.accept()
            except OSError:
                return
            outside = socket.create_connection(self.target)
            for source, sink in ((inside, outside), (outside, inside)):
                threading.Thread(target=self._relay, args=(source, sink), daemon=True).start()

    def _relay(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                while self.frozen.is_set():
                    time.sleep(0.05)  # a frozen link holds the bytes: the fault under test
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for end in (source, sink):
                try:
                    end.close()
                except OSError:
                    pass

    def close(self) -> None:
        self.listener.close()


def test_readiness_answers_503_in_bounded_time_when_the_database_hangs(fresh_database_url: str,
                                                                      tmp_path: Path) -> None:
    from urllib.parse import urlsplit

    real = urlsplit(fresh_database_url)
    partition = Partition((real.hostname or "127.0.0.1", real.port or 5432))
    through = fresh_database_url.replace(real.netloc, f"{real.username}@127.0.0.1:{partition.port}"
                                         if real.username else f"127.0.0.1:{partition.port}", 1)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = {"PATH": os.environ.get("PATH", ""), "HOME": str(tmp_path), "LANG": "C.UTF-8",
           "ENTENTE_DATABASE_URL": through, "ENTENTE_ENVIRONMENT": "production",
           "ENTENTE_OPERATOR_TOKEN": secrets.token_urlsafe(32), "ENTENTE_LOG_FORMAT": "json"}
    log = tmp_path / "lobby.log"
    with open(log, "wb") as out:
        server = subprocess.Popen([ENTENTE, "serve", "--service", "lobby", "--host", "127.0.0.1", "--port", str(port)],
                                  stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT, env=env)
    try:
        wait_until("the lobby to be ready", lambda: httpx.get(f"{base}/healthz").status_code == 200, 60, log)
        partition.frozen.set()
        started = time.monotonic()
        answer = httpx.get(f"{base}/healthz", timeout=30)
        seconds = time.monotonic() - started
        print(f"readiness answered {answer.status_code} in {seconds:.2f} s with the database silent")
        assert_unavailable(answer)
        assert seconds < 4, seconds  # the 2 s bound, and some slack for a loaded machine
        assert httpx.get(f"{base}/livez", timeout=5).status_code == 200
        partition.frozen.clear()
        wait_until("readiness to turn 200 again", lambda: httpx.get(f"{base}/healthz").status_code == 200, 30, log)
    finally:
        partition.frozen.clear()
        server.terminate()
        code = server.wait(timeout=30)
        partition.close()
    assert code == 0, log.read_text(errors="replace")[-3000:]
