"""Slow clients against a real `entente serve` (docs/hosting.md, "Slow clients"): CLIENTS
connections each send a request's headers one byte a second, never finishing; after SECONDS,
how many the server still holds open, and how long another client's request takes meanwhile.

    .venv/bin/python benchmarks/slowloris.py [CLIENTS] [SECONDS] [--http h11|httptools]

Before the header timeout every connection was still open after 40 s (200 of 200); with it,
each is answered 408 and closed at ENTENTE_HEADER_TIMEOUT_SECONDS (10 by default).
"""
from __future__ import annotations

import argparse
import os
import selectors
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

REPOSITORY = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPOSITORY))

from tests.cli.test_serve import entente_command, free_port, wait_until_serving  # noqa: E402
from tests.utils.processes import stop  # noqa: E402

HEADER = b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 10_000


def other_client_ms(base_url: str) -> float:
    started = time.perf_counter()
    httpx.get(f"{base_url}/healthz", timeout=30)
    return (time.perf_counter() - started) * 1000


def run(clients: int, seconds: float, http: str) -> None:
    port = free_port()
    base_url = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as directory:
        env = {**os.environ, "ENTENTE_OPERATOR_TOKEN": "slowloris-benchmark-token-0123456789",
               "ENTENTE_ENVIRONMENT": "test"}
        process = subprocess.Popen(
            [*entente_command(), "serve", "--port", str(port), "--database", f"sqlite:///{directory}/b.db",
             "--no-worker", "--log-level", "warning", "--http", http],
            cwd=REPOSITORY, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        try:
            wait_until_serving(base_url, process)
            unloaded = other_client_ms(base_url)
            selector = selectors.DefaultSelector()
            sockets = []
            for _ in range(clients):
                sock = socket.create_connection(("127.0.0.1", port))
                sock.setblocking(False)
                selector.register(sock, selectors.EVENT_READ)
                sockets.append(sock)
            open_ = set(sockets)
            started, sent, loaded = time.monotonic(), 0, []
            while time.monotonic() - started < seconds:
                for sock in list(open_):
                    try:
                        sock.send(HEADER[sent:sent + 1])
                    except OSError:
                        open_.discard(sock)
                sent += 1
                end = time.monotonic() + 1.0
                while time.monotonic() < end:
                    for key, _ in selector.select(timeout=max(0.0, end - time.monotonic())):
                        ready = key.fileobj
                        assert isinstance(ready, socket.socket)
                        sock = ready
                        try:
                            if not sock.recv(65536):
                                open_.discard(sock)
                                selector.unregister(sock)
                        except OSError:
                            open_.discard(sock)
                            selector.unregister(sock)
                loaded.append(other_client_ms(base_url))
            print(f"--http {http}: {clients} slow clients, {seconds:.0f} s: {len(open_)} still open; "
                  f"another client's GET /healthz {unloaded:.1f} ms unloaded, at most {max(loaded):.1f} ms "
                  f"(median {sorted(loaded)[len(loaded) // 2]:.1f} ms) meanwhile")
            for sock in sockets:
                sock.close()
        finally:
            stop(process)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("clients", type=int, nargs="?", default=200)
    parser.add_argument("seconds", type=float, nargs="?", default=40.0)
    parser.add_argument("--http", default="httptools", choices=["h11", "httptools"])
    arguments = parser.parse_args()
    run(arguments.clients, arguments.seconds, arguments.http)
