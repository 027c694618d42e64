"""deploy/nginx.conf's own limits, a second line behind the services' (docs/deploy.md, "The
proxy's limits"), run with Debian's nginx in front of one ``entente serve`` (every upstream
pointed at it, as the topology test points each at its service; one upstream at a closed port):

- a burst from one address past the rate is answered 429 ``too_many_requests`` with
  ``Retry-After`` by the proxy, while another address is served as usual;
- more live streams from one address than the proxy allows: 429 ``too_many_streams``;
- a body over the services' limit: 413 from the proxy, never read by a service;
- a service that does not answer: 503 ``unavailable`` with ``Retry-After``;
- a request whose headers stop coming (slowloris) is closed after the header timeout.
"""
from __future__ import annotations

import os
import re
import socket
import sys
import threading
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from .test_compose_topology import Topology, free_port, require_nginx
from .test_readiness import wait_until

ROOT = Path(__file__).resolve().parents[2]
ENTENTE = str(Path(sys.executable).parent / "entente")
CONF = (ROOT / "deploy" / "nginx.conf").read_text()
HEADER_TIMEOUT = int(re.search(r"client_header_timeout (\d+)s;", CONF).group(1))  # type: ignore[union-attr]
STREAMS_PER_ADDRESS = int(re.search(r"limit_conn streams_per_address (\d+);", CONF).group(1))  # type: ignore[union-attr]


@pytest.fixture(scope="module")
def proxy(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    require_nginx()
    tmp = tmp_path_factory.mktemp("proxy")
    port = free_port()
    env = {"PATH": os.environ.get("PATH", ""), "HOME": str(tmp), "LANG": "C.UTF-8",
           "ENTENTE_DATABASE_URL": f"sqlite:///{tmp}/entente.db",
           "ENTENTE_STREAM_MAX_PER_ADDRESS": "0"}  # as compose's visibility: the proxy limits per address
    topology = Topology(tmp, env["ENTENTE_DATABASE_URL"], "unused")
    for upstream in re.findall(r"server\s+([\w-]+):(\d+);", CONF):
        topology.ports[(upstream[0], int(upstream[1]))] = port
    topology.ports[("press", 8005)] = free_port()  # nothing listens there
    topology.processes["serve"] = topology.spawn("serve", [ENTENTE, "serve", "--host", "127.0.0.1", "--port",
                                                           str(port)], env=env, cwd=tmp)
    try:
        proxy_port = topology.start_nginx()
        base = f"http://127.0.0.1:{proxy_port}"
        wait_until("the proxy and the server", lambda: httpx.get(f"{base}/healthz").status_code == 200, 60,
                   tmp / "serve.log")
        yield base
    finally:
        codes = topology.stop_all()
    assert codes == {"serve": 0, "proxy": 0}, topology.logs()


def client(base: str, address: str) -> httpx.Client:
    """A client whose connections come from ``address`` (any of 127.0.0.0/8 reaches the proxy)."""
    return httpx.Client(base_url=base, timeout=10, transport=httpx.HTTPTransport(local_address=address))


def test_a_burst_past_the_rate_is_refused_for_its_address_only(proxy: str) -> None:
    statuses: Counter[int] = Counter()
    refusals: list[httpx.Response] = []

    def burst() -> None:  # eight connections of one address at once: far past 50 a second
        with client(proxy, "127.0.0.21") as each:
            for _ in range(60):
                answer = each.get("/variants")
                statuses[answer.status_code] += 1
                if answer.status_code == 429:
                    refusals.append(answer)

    threads = [threading.Thread(target=burst) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert statuses[200] >= 100 and statuses[429] > 0, statuses  # the burst allowance, then refusals
    refusal = refusals[0] if refusals else None
    assert refusal is not None and refusal.headers["retry-after"] == "1" and "x-request-id" not in refusal.headers
    assert refusal.json()["error"]["code"] == "too_many_requests"
    with client(proxy, "127.0.0.22") as other:  # another address, at the same moment: served
        assert [other.get("/variants").status_code for _ in range(20)] == [200] * 20


def test_more_streams_than_an_address_may_hold_are_refused(proxy: str) -> None:
    with client(proxy, "127.0.0.23") as setup:
        game = setup.post("/games", json={"name": "streams", "variant": "standard"}).json()
    url = f"{proxy}/games/{game['id']}/stream?timeout=30"
    opened: list[httpx.Response] = []
    clients = [client(proxy, "127.0.0.24") for _ in range(STREAMS_PER_ADDRESS + 1)]
    try:
        for each in clients[:STREAMS_PER_ADDRESS]:
            answer = each.send(each.build_request("GET", url), stream=True)
            assert answer.status_code == 200, answer.status_code
            opened.append(answer)
        refused = clients[-1].get(url)
        assert refused.status_code == 429 and refused.headers["retry-after"] == "30", refused.text
        assert refused.json()["error"]["code"] == "too_many_streams"
        with client(proxy, "127.0.0.25") as other:
            answer = other.send(other.build_request("GET", url), stream=True)
            assert answer.status_code == 200  # another address still opens one
            answer.close()
    finally:
        for answer in opened:
            answer.close()
        for each in clients:
            each.close()


def test_an_oversized_body_and_a_silent_service_are_the_proxys_own_answers(proxy: str) -> None:
    with client(proxy, "127.0.0.26") as each:
        big = each.post("/games", content=b"{" + b" " * (2 * 1024 * 1024) + b"}",
                        headers={"content-type": "application/json"})
        assert big.status_code == 413 and big.json()["error"]["code"] == "body_too_large", big.text
        silent = each.get("/games/g_000000000000/messages")  # press: nothing listens
        assert silent.status_code == 503 and silent.headers["retry-after"] == "5", silent.text
        assert silent.json()["error"]["code"] == "unavailable"


def test_a_request_whose_headers_stop_coming_is_closed(proxy: str) -> None:
    port = int(proxy.rsplit(":", 1)[1])
    sockets = []
    for _ in range(5):
        held = socket.create_connection(("127.0.0.1", port), timeout=HEADER_TIMEOUT + 10,
                                        source_address=("127.0.0.27", 0))
        held.sendall(b"GET /games HTTP/1.1\r\nHost: x\r\nX-Slow: ")  # and nothing more
        sockets.append(held)
    started = time.monotonic()
    ended: list[float] = []

    def wait_for_close(held: socket.socket) -> None:
        try:
            while held.recv(4096):
                pass
        except OSError:
            pass
        ended.append(time.monotonic() - started)

    watchers = [threading.Thread(target=wait_for_close, args=(held,)) for held in sockets]
    for watcher in watchers:
        watcher.start()
    for watcher in watchers:
        watcher.join(timeout=HEADER_TIMEOUT + 15)
    for held in sockets:
        held.close()
    assert len(ended) == 5 and max(ended) < HEADER_TIMEOUT + 3, ended
