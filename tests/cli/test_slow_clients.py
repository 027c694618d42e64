"""`entente serve` against slow clients (docs/hosting.md, "Slow clients"), with real sockets
against a real server, with each of uvicorn's HTTP parsers: headers sent byte by byte
(slowloris) or not at all get 408 and the connection closed at the header timeout, while other
clients are served at once; a kept-alive connection and a long live stream are not cut; past
the connection cap a request gets 503 with Retry-After and the error body."""
from __future__ import annotations

import json
import os
import socket
import subprocess
import threading
import time
from collections.abc import Iterator

import httpx
import pytest

from tests.cli.test_serve import REPOSITORY, entente_command, free_port, wait_until_serving
from tests.utils.http import OPERATOR_TOKEN
from tests.utils.processes import stop
from tests.utils.wait import wait_until

HEADER_TIMEOUT = 1.5
BODY_TIMEOUT = 1.5
MAX_CONNECTIONS = 12
PER_ADDRESS = 8


@pytest.fixture(scope="module", params=["h11", "httptools"])
def server(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, int]]:
    port, database = free_port(), tmp_path_factory.mktemp("slow") / "slow.db"
    env = {**os.environ, "ENTENTE_OPERATOR_TOKEN": OPERATOR_TOKEN, "ENTENTE_ENVIRONMENT": "test",
           "ENTENTE_HEADER_TIMEOUT_SECONDS": str(HEADER_TIMEOUT), "ENTENTE_MAX_CONNECTIONS": str(MAX_CONNECTIONS),
           "ENTENTE_BODY_TIMEOUT_SECONDS": str(BODY_TIMEOUT), "ENTENTE_MAX_CONNECTIONS_PER_ADDRESS": str(PER_ADDRESS)}
    process = subprocess.Popen(
        [*entente_command(), "serve", "--port", str(port), "--database", f"sqlite:///{database}",
         "--no-worker", "--log-level", "warning", "--keep-alive", "5", "--http", request.param],
        cwd=REPOSITORY, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        wait_until_serving(f"http://127.0.0.1:{port}", process)
        yield f"http://127.0.0.1:{port}", port
    finally:
        stop(process)


def read_until_closed(sock: socket.socket, limit: float) -> tuple[bytes, float]:
    """Everything the server sends until it closes (or ``limit`` seconds), and when it closed."""
    started, received = time.monotonic(), b""
    sock.settimeout(0.2)
    while time.monotonic() - started < limit:
        try:
            chunk = sock.recv(65536)
        except TimeoutError:
            continue
        except ConnectionResetError:
            break
        if not chunk:
            break
        received += chunk
    return received, time.monotonic() - started


class Trickler(threading.Thread):
    """A slowloris client: a request's headers one byte every ``pause`` seconds, never ending."""

    def __init__(self, port: int, pause: float = 0.1) -> None:
        super().__init__(daemon=True)
        self.sock = socket.create_connection(("127.0.0.1", port))
        self.pause, self.opened = pause, time.monotonic()
        self.answer, self.closed_after = b"", -1.0

    def run(self) -> None:
        header = b"GET /healthz HTTP/1.1\r\nHost: x\r\n" + b"X-Slow: " + b"a" * 10_000
        self.sock.settimeout(0.05)
        for byte in header:
            try:
                self.sock.send(bytes([byte]))
                chunk = self.sock.recv(65536)
            except TimeoutError:
                time.sleep(self.pause)  # a slow client: the behaviour under test
                continue
            except (BrokenPipeError, ConnectionResetError):
                break
            self.answer += chunk
            if not chunk:
                break
        self.closed_after = time.monotonic() - self.opened
        self.sock.close()


def answer_if(answer: httpx.Response, status: int) -> httpx.Response | None:
    return answer if answer.status_code == status else None


def assert_timed_out(answer: bytes) -> None:
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 408"), answer[:200]
    assert json.loads(body)["error"]["code"] == "request_timeout"


def test_headers_sent_byte_by_byte_are_cut_at_the_header_timeout_others_are_served(server: tuple[str, int]) -> None:
    base_url, port = server
    slow = [Trickler(port) for _ in range(8)]
    for client in slow:
        client.start()
    time.sleep(0.5)  # the slow clients trickle for a while before the other request: the load under test
    with from_address(base_url, "127.0.0.45") as others:  # another address, served at once meanwhile
        started = time.monotonic()
        assert others.get("/healthz").status_code == 200
        assert time.monotonic() - started < 0.5
    for client in slow:
        client.join(timeout=10)
    for client in slow:
        assert HEADER_TIMEOUT - 0.2 <= client.closed_after <= HEADER_TIMEOUT + 1.5, client.closed_after
        assert_timed_out(client.answer)


def test_a_connection_that_sends_nothing_is_closed_at_the_header_timeout(server: tuple[str, int]) -> None:
    _, port = server
    with socket.create_connection(("127.0.0.1", port)) as silent:
        answer, after = read_until_closed(silent, 10)
    assert HEADER_TIMEOUT - 0.2 <= after <= HEADER_TIMEOUT + 1.5, after
    assert_timed_out(answer)


def test_kept_alive_connections_and_long_answers_are_not_cut(server: tuple[str, int]) -> None:
    base_url, _ = server
    with httpx.Client(base_url=base_url, timeout=10, limits=httpx.Limits(max_connections=1)) as client:
        game = client.post("/games", json={"name": "Kept"}).json()["id"]
        started = time.monotonic()
        for _ in range(3):  # one connection, idle for less than the keep-alive, longer than the header timeout
            assert client.get(f"/games/{game}").status_code == 200
            time.sleep(0.9)  # an idle connection, past the header timeout: the time passing is under test
        assert time.monotonic() - started > HEADER_TIMEOUT
        stream_started = time.monotonic()
        streamed = client.get(f"/games/{game}/stream", params={"timeout": HEADER_TIMEOUT + 1.5})
        assert streamed.status_code == 200 and "event: view" in streamed.text
        assert time.monotonic() - stream_started >= HEADER_TIMEOUT + 1.0  # ran its whole course


def test_past_the_connection_cap_a_request_gets_503_with_retry_after(server: tuple[str, int]) -> None:
    base_url, port = server
    # from two addresses, each under its own cap: the server's cap is what refuses
    held = [connect_from(port, f"127.0.0.{41 + n % 2}") for n in range(MAX_CONNECTIONS)]
    try:
        # the server counts the held connections once it has accepted them (each look a new connection)
        refused = wait_until(lambda: answer_if(httpx.get(f"{base_url}/healthz", timeout=5), 503),
                             what="the held connections to be counted")
        assert refused.status_code == 503, refused.text
        assert refused.json()["error"]["code"] == "too_many_connections"
        assert int(refused.headers["retry-after"]) >= 1
    finally:
        for sock in held:
            sock.close()
    wait_until(lambda: answer_if(httpx.get(f"{base_url}/healthz", timeout=5), 200),
               what="the closed connections' places to be given back")


def connect_from(port: int, address: str) -> socket.socket:
    return socket.create_connection(("127.0.0.1", port), source_address=(address, 0))


def from_address(base_url: str, address: str) -> httpx.Client:
    return httpx.Client(base_url=base_url, timeout=5, transport=httpx.HTTPTransport(local_address=address))


def test_one_address_holds_at_most_its_share_of_connections(server: tuple[str, int]) -> None:
    base_url, port = server
    held = [connect_from(port, "127.0.0.43") for _ in range(PER_ADDRESS)]
    try:
        with from_address(base_url, "127.0.0.43") as same, from_address(base_url, "127.0.0.44") as other:
            refused = wait_until(lambda: answer_if(same.get("/healthz"), 503),
                                 what="the held connections to be counted")
            error = refused.json()["error"]
            assert error["code"] == "too_many_connections" and error["where"] == "request"
            assert "this address" in error["message"] and int(refused.headers["retry-after"]) >= 1
            assert other.get("/healthz").status_code == 200  # another address is served
    finally:
        for sock in held:
            sock.close()
    with from_address(base_url, "127.0.0.43") as same:
        wait_until(lambda: answer_if(same.get("/healthz"), 200), what="the address's places to be given back")


def test_a_body_trickling_in_is_cut_at_the_body_timeout_others_are_served(server: tuple[str, int]) -> None:
    base_url, port = server
    sock = socket.create_connection(("127.0.0.1", port))
    sock.sendall(b"POST /games HTTP/1.1\r\nHost: x\r\ncontent-type: application/json\r\n"
                 b"content-length: 100\r\n\r\n")
    started, answer = time.monotonic(), b""
    sock.settimeout(0.05)
    while time.monotonic() - started < BODY_TIMEOUT + 5:
        try:
            sock.send(b" ")  # a byte now and then: an idle timer would never fire
            chunk = sock.recv(65536)
        except TimeoutError:
            time.sleep(0.25)  # a slow client: the behaviour under test
            continue
        except (BrokenPipeError, ConnectionResetError):
            break
        answer += chunk
        if not chunk:
            break
    closed_after = time.monotonic() - started
    sock.close()
    assert_timed_out(answer)
    assert b"body" in answer
    assert BODY_TIMEOUT - 0.5 <= closed_after <= BODY_TIMEOUT + 4
    with httpx.Client(base_url=base_url, timeout=5) as client:
        made = client.post("/games", content=b'{"name": "Whole"}', headers={"content-type": "application/json"})
        assert made.status_code == 201  # a body that arrives whole is not timed out
