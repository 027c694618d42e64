"""`entente serve --workers 2` as real processes (services/cli/workers.py): connections opened
all at once are spread over the workers, a worker that dies is replaced, and SIGTERM stops
every process with status 0."""
from __future__ import annotations

import os
import select
import signal
import socket
import subprocess
from pathlib import Path

import httpx

from tests.cli.test_serve import REPOSITORY, entente_command, free_port, wait_until_serving
from tests.utils.http import OPERATOR_TOKEN
from tests.utils.processes import stop, worker_pids
from tests.utils.wait import wait_until

CONNECTIONS = 32


def established_on(port: int, pids: list[int]) -> dict[int, int]:
    """How many established connections to ``port`` each process holds (read from /proc)."""
    inodes = {}
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        if int(fields[1].split(":")[1], 16) == port and fields[3] == "01":  # local port, ESTABLISHED
            inodes[fields[9]] = True
    counts = {}
    for pid in pids:
        held = 0
        for fd in Path(f"/proc/{pid}/fd").iterdir():
            try:
                target = os.readlink(fd)
            except OSError:
                continue
            if target.startswith("socket:[") and target[8:-1] in inodes:
                held += 1
        counts[pid] = held
    return counts


def test_connections_opened_at_once_are_spread_and_a_dead_worker_is_replaced(tmp_path: Path) -> None:
    port = free_port()
    env = {**os.environ, "ENTENTE_OPERATOR_TOKEN": OPERATOR_TOKEN, "ENTENTE_ENVIRONMENT": "test"}
    server = subprocess.Popen([*entente_command(), "serve", "--workers", "2", "--port", str(port), "--database",
                               f"sqlite:///{tmp_path}/spread.db", "--log-level", "warning", "--keep-alive", "30"],
                              cwd=REPOSITORY, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        base = f"http://127.0.0.1:{port}"
        wait_until_serving(base, server)
        workers = worker_pids(server.pid)
        assert len(workers) == 2
        # a pool of keep-alive connections opened at once, as a proxy or a bot adapter opens it
        pool = [socket.socket() for _ in range(CONNECTIONS)]
        try:
            for connection in pool:  # every connect sent before any is accepted
                connection.setblocking(False)
                connection.connect_ex(("127.0.0.1", port))
            for connection in pool:
                select.select([], [connection], [], 5)
                connection.setblocking(True)
            for connection in pool:
                connection.sendall(b"GET /healthz HTTP/1.1\r\nHost: entente\r\n\r\n")
            for connection in pool:
                assert connection.recv(4096).startswith(b"HTTP/1.1 200")
            counts = established_on(port, workers)
            assert sum(counts.values()) == CONNECTIONS, counts
            assert min(counts.values()) >= 4, counts  # both serve (one took them all with a shared socket)
        finally:
            for connection in pool:
                connection.close()

        os.kill(workers[0], signal.SIGKILL)
        wait_until(lambda: len(now := worker_pids(server.pid)) == 2 and workers[0] not in now, timeout=20,
                   what="the killed worker to be replaced")
        replaced = worker_pids(server.pid)
        assert len(replaced) == 2 and workers[0] not in replaced and workers[1] in replaced
        # a connection the kernel hands the new worker waits until its app has started (it
        # binds first): on a busy machine that start can take seconds, so the wait is generous
        for _ in range(10):
            assert httpx.get(f"{base}/healthz", timeout=60).status_code == 200

        server.send_signal(signal.SIGTERM)
        assert server.wait(timeout=40) == 0
        for pid in replaced:  # stopped and reaped: nothing left running
            assert not Path(f"/proc/{pid}").exists()
    finally:
        stop(server, timeout=40)


def test_workers_stop_when_their_supervisor_is_killed(tmp_path: Path) -> None:
    port = free_port()
    env = {**os.environ, "ENTENTE_OPERATOR_TOKEN": OPERATOR_TOKEN, "ENTENTE_ENVIRONMENT": "test"}
    server = subprocess.Popen([*entente_command(), "serve", "--workers", "2", "--port", str(port), "--database",
                               f"sqlite:///{tmp_path}/orphans.db", "--log-level", "warning"],
                              cwd=REPOSITORY, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    workers: list[int] = []
    try:
        wait_until_serving(f"http://127.0.0.1:{port}", server)
        workers = worker_pids(server.pid)
        assert len(workers) == 2
        server.kill()  # SIGKILL: the supervisor cannot stop them itself
        server.wait()
        wait_until(lambda: not any(Path(f"/proc/{pid}").exists() for pid in workers), timeout=30,
                   what="the workers to stop (left running otherwise)")
    finally:
        for pid in workers:
            if Path(f"/proc/{pid}").exists():
                os.kill(pid, signal.SIGKILL)
