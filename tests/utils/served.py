"""`entente serve` as a real uvicorn process, and one kept-alive HTTP/1.1 connection to it that
says whether the server kept it (tests/http: the hostile-input and fuzz tests)."""
from __future__ import annotations

import http.client
import json
import os
import subprocess
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from tests.cli.test_serve import REPOSITORY, entente_command, free_port, wait_until_serving
from tests.utils.http import OPERATOR_TOKEN
from tests.utils.processes import stop

KEEP_ALIVE_SECONDS = 30  # how long the servers started here keep an idle connection open


@contextmanager
def entente_serve(database_url: str, settings: Callable[[str], dict[str, str]] | None = None,
                  port: int | None = None) -> Iterator[str]:
    """A real ``entente serve`` on ``database_url`` (no clock worker); yields its base URL.
    ``settings``: more environment for it, made from its base URL (a sign-in's redirect URI);
    ``port``: the port to listen on (a server started again where one stopped), else a free one."""
    with entente_serves(database_url, 1, settings, port) as (base_url,):
        yield base_url


@contextmanager
def entente_serves(database_url: str, count: int, settings: Callable[[str], dict[str, str]] | None = None,
                   port: int | None = None) -> Iterator[list[str]]:
    """``count`` real ``entente serve`` processes on ``database_url``, started at once (on a
    fresh database they race to make the schema, as a deployment's do); yields their base URLs."""
    processes: list[subprocess.Popen[str]] = []
    try:
        base_urls = []
        for number in range(count):
            chosen = port if port is not None and number == 0 else free_port()
            base_urls.append(f"http://127.0.0.1:{chosen}")
            env = {**os.environ, "ENTENTE_OPERATOR_TOKEN": OPERATOR_TOKEN, "ENTENTE_ENVIRONMENT": "test"}
            if settings is not None:
                env.update(settings(base_urls[-1]))
            processes.append(subprocess.Popen(
                [*entente_command(), "serve", "--port", str(chosen), "--database", database_url, "--no-worker",
                 "--log-level", "warning", "--keep-alive", str(KEEP_ALIVE_SECONDS)],
                cwd=REPOSITORY, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True))
        for base_url, process in zip(base_urls, processes, strict=True):
            wait_until_serving(base_url, process)
        yield base_urls
    finally:
        for process in processes:
            stop(process)


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)


class KeptConnection:
    """One TCP connection to the server, used for request after request: ``request`` raises
    ``ConnectionLost`` when the server closed or reset it (the thing to catch), and
    ``http.client`` is never allowed to open a second one behind our back."""

    def __init__(self, base_url: str) -> None:
        host, port = base_url.removeprefix("http://").split(":")
        self.connection = http.client.HTTPConnection(host, int(port), timeout=30)
        self.connection.connect()
        self.local = self._local_address()
        self.requests = 0
        self.last_answer = time.monotonic()

    def _local_address(self) -> Any:
        assert self.connection.sock is not None
        return self.connection.sock.getsockname()

    def request(self, method: str, path: str, body: bytes | None = None,
                headers: dict[str, str] | None = None) -> Answer:
        if self.connection.sock is None:
            raise ConnectionLost("the server closed the connection after the previous answer")
        if time.monotonic() - self.last_answer > KEEP_ALIVE_SECONDS * 0.8:
            # idle near the server's keep-alive (a busy machine between two drawn requests): the
            # server may close it, as it should, so a fresh connection is opened rather than
            # counting that close against the request sent next
            self.connection.close()
            self.connection.connect()
            self.local = self._local_address()
        try:
            self.connection.request(method, path, body=body, headers=headers or {})
            response = self.connection.getresponse()
            data = response.read()
        except (TimeoutError, ConnectionError, http.client.HTTPException) as error:
            raise ConnectionLost(f"{method} {path}: {error!r}") from error
        self.requests += 1
        self.last_answer = time.monotonic()
        answer = Answer(response.status, {k.lower(): v for k, v in response.getheaders()}, data)
        if self.connection.sock is None or answer.headers.get("connection", "").lower() == "close":
            raise ConnectionLost(f"{method} {path} -> {answer.status}: the server closed the connection")
        if self._local_address() != self.local:
            raise ConnectionLost("a new connection was opened")
        return answer

    def close(self) -> None:
        self.connection.close()


class ConnectionLost(AssertionError):
    """The server did not keep the connection."""

