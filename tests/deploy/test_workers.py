"""The worker processes as the deployments run them: their health listener (``/healthz`` ready,
``/livez`` alive, ``entente health`` probing them) and their stop on SIGTERM (the work in hand
finished, exit status 0). docs/deploy.md describes both."""
from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import pytest

from benchmarks.clock import put_due_games
from services.adjudication.worker import ClockWorker
from services.cli.health import Heartbeat, answer
from shared.clock import ManualClock
from shared.store import open_store
from tests.utils import wait

from .conftest import drop_database

WORKERS = ("worker", "notifier")


class FakeMonotonic:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def status_of(response: bytes) -> int:
    return int(response.split(b" ", 2)[1])


def body_of(response: bytes) -> dict:
    return json.loads(response.split(b"\r\n\r\n", 1)[1])


def test_readiness_needs_a_recent_success_and_liveness_a_recent_sweep() -> None:
    clock = FakeMonotonic()
    heartbeat = Heartbeat("worker", stale_seconds=30, monotonic=clock)
    # just started: alive (a grace of one staleness limit), not yet ready
    assert status_of(answer(heartbeat, "GET /livez HTTP/1.1")) == 200
    assert status_of(answer(heartbeat, "GET /healthz HTTP/1.1")) == 503
    assert body_of(answer(heartbeat, "GET /healthz HTTP/1.1"))["status"] == "starting"
    heartbeat.beat(True)
    assert status_of(answer(heartbeat, "GET /healthz HTTP/1.1")) == 200
    # the database goes away: sweeps fail; still alive, no longer ready once the success is stale
    clock.now += 20
    heartbeat.beat(False)
    assert status_of(answer(heartbeat, "GET /healthz HTTP/1.1")) == 200
    clock.now += 11
    heartbeat.beat(False)
    report = body_of(answer(heartbeat, "GET /healthz HTTP/1.1"))
    assert status_of(answer(heartbeat, "GET /healthz HTTP/1.1")) == 503
    assert status_of(answer(heartbeat, "GET /livez HTTP/1.1")) == 200
    assert report["status"] == "failing" and report["failures_in_a_row"] == 2 and report["seconds_since_success"] == 31
    # the loop stops turning altogether: not alive either
    clock.now += 30
    assert status_of(answer(heartbeat, "GET /livez HTTP/1.1")) == 503
    assert body_of(answer(heartbeat, "GET /livez HTTP/1.1"))["status"] == "stuck"
    heartbeat.beat(True)
    assert body_of(answer(heartbeat, "GET /healthz HTTP/1.1"))["failures_in_a_row"] == 0


def test_the_listener_answers_only_its_two_paths() -> None:
    heartbeat = Heartbeat("notifier")
    heartbeat.beat(True)
    assert status_of(answer(heartbeat, "GET /healthz?verbose=1 HTTP/1.1")) == 200
    assert status_of(answer(heartbeat, "GET /metrics HTTP/1.1")) == 404
    assert status_of(answer(heartbeat, "POST /healthz HTTP/1.1")) == 405
    assert status_of(answer(heartbeat, "nonsense")) == 400
    head = answer(heartbeat, "HEAD /healthz HTTP/1.1")
    assert status_of(head) == 200 and head.endswith(b"\r\n\r\n")


async def test_a_stopped_clock_worker_finishes_its_batch_and_leaves_the_rest(tmp_path: Path) -> None:
    store = await open_store(f"sqlite:///{tmp_path / 'store.db'}")
    try:
        clock = ManualClock(datetime.now(UTC))
        await put_due_games(store, 7, clock.now())
        stop = asyncio.Event()
        worker = ClockWorker(store, clock, batch=3, on_beat=lambda ok: stop.set())  # SIGTERM during the first batch
        assert await worker.run_once(stop=stop) == 3
        assert await ClockWorker(store, clock, batch=3).run_once() == 4  # still due, for any worker
    finally:
        await store.close()


# ----------------------------------------------------------------------------- real processes


def entente() -> str:
    script = Path(sys.executable).parent / "entente"
    assert script.exists(), "the entente script is not installed in this environment"
    return str(script)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def probe(url: str) -> subprocess.CompletedProcess:
    return subprocess.run([entente(), "health", url], capture_output=True, text=True, timeout=30)


def started(argv: list[str], log: Path, **options: Any) -> subprocess.Popen[bytes]:
    """A process logging to a file (a pipe nobody reads would fill up and block it)."""
    with open(log, "wb") as output:
        return subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=output, stderr=subprocess.STDOUT, **options)


def wait_until(condition: Callable[[], Any], process: subprocess.Popen[bytes], log: Path, timeout: float = 30.0, *,
               what: str = "the condition") -> Any:
    """``condition()`` once it is true, while ``process`` runs (its exit stops the wait); on a
    timeout, the end of its ``log``."""
    def looked() -> Any:
        assert process.poll() is None, f"exited with {process.returncode}: {log.read_text()[-3000:]}"
        try:
            return condition()
        except httpx.TransportError:
            return None

    return wait.wait_until(looked, timeout, what, 0.2, context=lambda: log.read_text()[-3000:])


def stopped(process: subprocess.Popen, log: Path) -> tuple[int, str]:
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        raise
    return process.returncode, log.read_text()


@pytest.mark.postgres
@pytest.mark.parametrize("command", WORKERS)
def test_a_worker_reports_its_health_and_stops_with_status_0(command: str, fresh_database_url: str,
                                                             tmp_path: Path) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    log = tmp_path / "worker.log"
    process = started([entente(), command, "--database", fresh_database_url, "--poll", "0.2",
                       "--health-port", str(port), "--health-stale", "2"], log, cwd=tmp_path)
    try:
        ready = wait_until(lambda: (r := httpx.get(f"{base}/healthz", timeout=2)).status_code == 200 and r.json(),
                           process, log, what="the worker to be ready")
        assert ready["worker"] == command and ready["status"] == "ok" and ready["failures_in_a_row"] == 0
        assert probe(f"{base}/healthz").returncode == 0 and probe(f"{base}/livez").returncode == 0

        drop_database(fresh_database_url)  # the database goes away under the running worker
        failing = wait_until(lambda: (r := httpx.get(f"{base}/healthz", timeout=2)).status_code == 503 and r.json(),
                             process, log, what="readiness to turn 503")
        assert failing["status"] == "failing" and failing["failures_in_a_row"] > 0
        assert httpx.get(f"{base}/livez", timeout=2).status_code == 200  # not stuck: no restart for it
        refused = probe(f"{base}/healthz")
        assert refused.returncode == 1 and "503" in refused.stderr
    finally:
        code, output = stopped(process, log)
    assert code == 0, output
    assert f"entente {command}: stopped" in output


def test_the_notification_module_still_runs_and_stops_with_status_0(tmp_path: Path) -> None:
    database = tmp_path / "store.db"
    log = tmp_path / "notifications.log"
    process = started([sys.executable, "-m", "services.notifications", "--database", f"sqlite:///{database}"], log,
                      cwd=Path(__file__).resolve().parents[2])
    try:
        # its signal handlers are set before it opens the store
        wait_until(database.exists, process, log, what="the store to be opened")
    finally:
        code, output = stopped(process, log)
    assert code == 0, output


def test_the_clock_worker_gives_way_to_request_serving_by_default(tmp_path: Path) -> None:
    # nice 5 below its parent once its schema is checked (docs/hosting.md, "The clock worker")
    database = f"sqlite:///{tmp_path / 'entente.db'}"
    migrated = subprocess.run([entente(), "migrate", "--database", database], capture_output=True, timeout=60)
    assert migrated.returncode == 0, migrated.stderr
    log = tmp_path / "worker.log"
    environment = {name: value for name, value in os.environ.items() if name != "ENTENTE_WORKER_NICE"}
    process = started([entente(), "worker", "--database", database, "--poll", "30"], log, cwd=tmp_path,
                      env=environment)
    try:
        own = os.getpriority(os.PRIO_PROCESS, 0)
        lowered = wait_until(lambda: os.getpriority(os.PRIO_PROCESS, process.pid) == min(19, own + 5),
                             process, log, timeout=60, what="the worker to lower its priority")
        assert lowered
    finally:
        stopped(process, log)


@pytest.mark.parametrize(("option", "named"), [(("--lanes", "0"), "worker_lanes"), (("--nice", "20"), "worker_nice"),
                                               (("--batch", "0"), "worker_batch")])
def test_a_worker_refuses_lanes_a_batch_or_a_nice_out_of_range(option: tuple[str, str], named: str) -> None:
    answer = subprocess.run([entente(), "worker", *option, "--once", "--database", "sqlite:///:memory:"],
                            capture_output=True, text=True, timeout=60)
    assert answer.returncode == 2, answer.stderr
    assert named in answer.stderr and "Traceback" not in answer.stderr


def test_a_health_probe_of_nothing_fails() -> None:
    done = probe(f"http://127.0.0.1:{free_port()}/healthz")
    assert done.returncode == 1 and "did not answer" in done.stderr
