"""``entente serve --workers N``: N server processes, each listening on a socket of its own
bound with ``SO_REUSEPORT`` to the same address, so that the kernel spreads the connections
over them (docs/hosting.md, "Several processes").

uvicorn's own supervisor shares one listening socket between its workers, and a worker takes
every connection that is waiting when it wakes: a client (or a proxy) that opens its pool of
keep-alive connections at once finds them all on one process, which then serves every request
while the others idle, for as long as those connections live (measured: 16 of 16 connections
on one of two workers, docs/performance.md, 2026-12-01, "Growth: memory, views, replay"). With a socket
per process the kernel picks the process for each new connection by a hash of its addresses.

The supervisor here does what uvicorn's does, with uvicorn's public ``Server.run(sockets)``:
it starts the workers, starts again one that dies (a worker that fails before serving stops
everything: it would fail again), and on SIGTERM or SIGINT tells each to stop gracefully and
waits for it (then kills what is left after the graceful timeout and a margin). A worker whose
supervisor dies without stopping it (SIGKILL) is told to stop by the kernel. The supervisor
says "serving" once the first worker's app has started and its socket accepts connections
(``AnnouncingServer``), not before.
"""
from __future__ import annotations

import multiprocessing
import os
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable
from multiprocessing.process import BaseProcess
from typing import Any

import uvicorn

STARTUP_FAILURE = 3  # uvicorn's exit status for a worker that could not start serving
STOP_MARGIN_SECONDS = 10.0  # beyond the graceful timeout, before a worker still running is killed
WATCH_SECONDS = 0.5
PR_SET_PDEATHSIG = 1


def listening_sockets(host: str, port: int, count: int, backlog: int = 2048) -> list[socket.socket]:
    """``count`` sockets listening on ``host:port``, each with ``SO_REUSEPORT`` (port 0: the
    port the first one got)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sockets: list[socket.socket] = []
    try:
        for _ in range(count):
            sock = socket.socket(family, socket.SOCK_STREAM)
            sockets.append(sock)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
            sock.bind((host, port))
            port = sock.getsockname()[1]
            sock.listen(backlog)
            sock.set_inheritable(True)
    except OSError:
        for sock in sockets:
            sock.close()
        raise
    return sockets


def _stop_with_the_supervisor(supervisor: int) -> None:
    """Ask the kernel for SIGTERM when the supervisor dies (Linux's ``PR_SET_PDEATHSIG``), so
    that a supervisor killed with SIGKILL leaves no worker running on its own: uvicorn's left
    them serving, orphaned, for as long as nobody noticed. Elsewhere a no-op."""
    if not sys.platform.startswith("linux"):
        return
    import ctypes

    try:
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, int(signal.SIGTERM), 0, 0, 0)
    except (OSError, AttributeError):
        return
    if os.getppid() != supervisor:  # it died before the request was made
        os.kill(os.getpid(), signal.SIGTERM)


class AnnouncingServer(uvicorn.Server):
    """uvicorn's server calling ``on_started`` once the app's startup has run and the server
    accepts connections (docs/hosting.md, "Starting"): a script that waits for "serving" may
    connect at once."""

    def __init__(self, config: uvicorn.Config, on_started: Callable[[], None]) -> None:
        super().__init__(config)
        self.on_started = on_started

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets)
        if not self.should_exit:  # the app's startup failed: uvicorn stops without serving
            self.on_started()


def _serve(options: dict[str, Any], sock: socket.socket, supervisor: int, started: Any) -> None:
    """A worker process: uvicorn serving the app factory on its own socket; ``started`` (an
    Event of the supervisor's) set once it accepts connections."""
    _stop_with_the_supervisor(supervisor)
    config = uvicorn.Config(**options)
    server = AnnouncingServer(config, started.set)
    server.run(sockets=[sock])
    if not server.started:
        sys.exit(STARTUP_FAILURE)


class Supervisor:
    """The worker processes and what keeps them running."""

    def __init__(self, options: dict[str, Any], sockets: list[socket.socket], graceful_seconds: float,
                 announcement: str = "") -> None:
        self.options, self.sockets, self.graceful_seconds = options, sockets, graceful_seconds
        self.announcement = announcement  # printed once a worker serves
        self.context = multiprocessing.get_context("spawn")
        self.started = self.context.Event()
        self.processes: list[BaseProcess] = []
        self.stopping = threading.Event()

    def _start(self, index: int) -> BaseProcess:
        process = self.context.Process(target=_serve, daemon=False,
                                       args=(self.options, self.sockets[index], os.getpid(), self.started))
        process.start()
        return process

    def run(self) -> int:
        """Serve until told to stop; 0, or 1 when a worker could not start."""
        previous = {signum: signal.signal(signum, lambda *_: self.stopping.set())
                    for signum in (signal.SIGTERM, signal.SIGINT)}
        failed = False
        try:
            self.processes = [self._start(index) for index in range(len(self.sockets))]
            while not self.stopping.wait(WATCH_SECONDS):
                if self.announcement and self.started.is_set():
                    print(self.announcement, file=sys.stderr, flush=True)
                    self.announcement = ""
                for index, process in enumerate(self.processes):
                    if process.is_alive():
                        continue
                    if process.exitcode == STARTUP_FAILURE:
                        print(f"entente serve: worker {process.pid} could not start; stopping", file=sys.stderr)
                        failed = True
                        self.stopping.set()
                        break
                    print(f"entente serve: worker {process.pid} ended ({process.exitcode}); starting another",
                          file=sys.stderr, flush=True)
                    self.processes[index] = self._start(index)
        finally:
            self._stop_all()
            for signum, handler in previous.items():
                signal.signal(signum, handler)
            for sock in self.sockets:
                sock.close()
        return 1 if failed else 0

    def _stop_all(self) -> None:
        for process in self.processes:
            if process.is_alive() and process.pid is not None:
                os.kill(process.pid, signal.SIGTERM)
        deadline = time.monotonic() + self.graceful_seconds + STOP_MARGIN_SECONDS
        for process in self.processes:
            process.join(max(0.0, deadline - time.monotonic()))
            if process.is_alive():
                process.kill()
                process.join()
