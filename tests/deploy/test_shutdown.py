"""SIGTERM with live streams open: each stream gets its ``closed`` event ``shutting_down`` at
once (docs/social.md, "The live stream"), the server exits 0 without waiting for a keep-alive
or its graceful timeout, and nothing is logged at error level (docs/deploy.md, "Stopping")."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx

from .test_compose_topology import free_port
from .test_readiness import wait_until

ENTENTE = str(Path(sys.executable).parent / "entente")
STREAMS = 3


def read_stream(url: str, headers: dict[str, str], received: list[tuple[float, bytes]]) -> None:
    try:
        with httpx.stream("GET", url, headers=headers, timeout=60) as answer:
            for chunk in answer.iter_raw():
                received.append((time.monotonic(), chunk))
    except httpx.HTTPError:
        received.append((time.monotonic(), b"<connection ended without a complete body>"))


def test_sigterm_closes_every_stream_with_shutting_down_and_exits_cleanly(tmp_path: Path) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = {"PATH": os.environ.get("PATH", ""), "HOME": str(tmp_path), "LANG": "C.UTF-8", "ENTENTE_LOG_FORMAT": "json",
           "ENTENTE_DATABASE_URL": f"sqlite:///{tmp_path}/entente.db"}
    log = tmp_path / "serve.log"
    with open(log, "wb") as out:
        # a graceful timeout well past the test's bound: the streams must not wait for it
        server = subprocess.Popen([ENTENTE, "serve", "--host", "127.0.0.1", "--port", str(port),
                                   "--graceful-timeout", "20"],
                                  stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT, env=env)
    try:
        wait_until("the server", lambda: httpx.get(f"{base}/healthz").status_code == 200, 60, log)
        game = httpx.post(f"{base}/games", json={"name": "shutdown", "variant": "standard"}).json()
        player = httpx.post(f"{base}/games/{game['id']}/players").json()
        streams: list[list[tuple[float, bytes]]] = [[] for _ in range(STREAMS)]
        readers = [threading.Thread(target=read_stream, daemon=True, args=(
            f"{base}/games/{game['id']}/stream",
            {"authorization": f"Bearer {player['token']}"} if index == 0 else {}, streams[index]))
            for index in range(STREAMS)]
        for reader in readers:
            reader.start()
        wait_until("every stream's first view", lambda: all(b"event: view" in b"".join(c for _, c in s)
                                                            for s in streams), 20, log)
        stopped_at = time.monotonic()
        server.send_signal(signal.SIGTERM)
        code = server.wait(timeout=30)
        exited_after = time.monotonic() - stopped_at
        for reader in readers:
            reader.join(timeout=5)
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
    text = log.read_text(errors="replace")
    assert code == 0, text[-3000:]
    assert exited_after < 5, f"{exited_after:.1f} s to exit\n{text[-3000:]}"
    for received in streams:
        data = b"".join(chunk for _, chunk in received)
        assert data.endswith(b'event: closed\ndata: {"reason":"shutting_down"}\n\n'), data[-300:]
        closed_at = next(when for when, chunk in received if b"shutting_down" in chunk)
        assert closed_at - stopped_at < 2, closed_at - stopped_at
    assert '"level": "error"' not in text and "Traceback" not in text, text[-5000:]
