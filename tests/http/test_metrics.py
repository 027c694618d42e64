"""/metrics after a played game (docs/operations.md, "Metrics"): every metric is there with the
count the game gave it. A real uvicorn serves the app in a thread, on a SQLite file and a
manual clock; the clock worker's sweep and the notification worker's step run on their own
store, as their processes would. Counters are compared before and after (the registry is
the test process's)."""
from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest
import uvicorn
from prometheus_client.parser import text_string_to_metric_families
from pydantic import SecretStr
from starlette.types import ASGIApp

from services.adjudication.worker import ClockWorker
from services.app import create_app
from services.cli.serve import UVICORN_OPTIONS
from services.notifications.delivery import step
from shared.clock import ManualClock
from shared.settings import Settings, SettingsError
from shared.store import open_store, utc_now
from tests.utils.http import OPERATOR, OPERATOR_TOKEN, POWERS, bearer
from tests.utils.oauth_provider import serve_in_thread
from tests.utils.wait import answers, wait_until
from tests.utils.webhook_receiver import Receiver

Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextmanager
def served(app: ASGIApp) -> Iterator[str]:
    """The app under uvicorn, lifespan and all, on a free port in a thread, with uvicorn's
    options as ``entente serve`` sets them (services.cli.serve.UVICORN_OPTIONS)."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on", **UVICORN_OPTIONS))
    thread = threading.Thread(target=lambda: asyncio.run(server.serve(sockets=[sock])), daemon=True)
    thread.start()
    try:
        while not server.started:
            assert thread.is_alive(), "the server did not start"
            threading.Event().wait(0.01)
        yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()


def scrape(client: httpx.Client, headers: dict[str, str] = OPERATOR) -> Samples:
    response = client.get("/metrics", headers=headers)
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("text/plain")
    return {(sample.name, frozenset(sample.labels.items())): sample.value
            for family in text_string_to_metric_families(response.text) for sample in family.samples}


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples.get((name, frozenset(labels.items())), 0.0)


def grew(before: Samples, after: Samples, name: str, **labels: str) -> float:
    return value(after, name, **labels) - value(before, name, **labels)


@pytest.fixture
def receiver_url() -> Iterator[tuple[Receiver, str]]:
    receiver = Receiver()
    with serve_in_thread(receiver.app()) as url:
        yield receiver, url


def test_metrics_after_a_played_game(sqlite_url: str, receiver_url: tuple[Receiver, str]) -> None:
    receiver, hooks = receiver_url
    settings = Settings(database_url=sqlite_url, operator_token=SecretStr(OPERATOR_TOKEN), environment="test",
                        webhook_allow_private_hosts=True, webhook_max_attempts=1)
    app = create_app(settings)
    clock = ManualClock()
    app.state.clock = clock
    with served(app) as base_url, httpx.Client(base_url=base_url, timeout=30) as client:
        before = scrape(client)

        created = client.post("/games", json={"name": "metrics", "settings": {"movement_minutes": 60}}).json()
        game, host = f"/games/{created['id']}", bearer(created["host_token"])
        tokens = [client.post(f"{game}/players").json()["token"] for _ in range(7)]
        assert client.put(f"{game}/webhook", json={"url": f"{hooks}/ok/one"}, headers=bearer(tokens[0])).is_success
        assert client.put(f"{game}/webhook", json={"url": f"{hooks}/fail/two"}, headers=bearer(tokens[1])).is_success
        assert client.post(f"{game}/start", headers=host).status_code == 200
        power_of = {token: client.get(f"{game}/view", headers=bearer(token)).json()["viewer"]["powers"][0]
                    for token in tokens}
        token_of = {power: token for token, power in power_of.items()}

        # S1901M: France orders one good and one bad order, the others hold; the last one resolves it early
        french = client.put(f"{game}/orders", json={"orders": ["A PAR - BUR", "A XYZ - ABC"]},
                            headers=bearer(token_of["FRANCE"]))
        assert french.json()["accepted"] == 1 and french.json()["rejected"] == 1
        others = [client.put(f"{game}/orders", json={"orders": []}, headers=bearer(token_of[p]))
                  for p in POWERS if p != "FRANCE"]
        assert [r.status_code for r in others] == [200] * 6 and others[-1].json()["resolved"] is False
        # France's set had a refused line, so France is not done until it says Done (docs/api.md,
        # "A refused line"): its Done resolves the phase early
        done = client.post(f"{game}/ready", headers=bearer(token_of["FRANCE"]))
        assert done.status_code == 200 and done.json()["resolved"] is True
        # F1901M by the host, S1902M by the operator, F1902M by the clock
        assert client.post(f"{game}/resolve", json={"phase": "F1901M"}, headers=host).status_code == 200
        assert client.post(f"{game}/resolve", json={"phase": "S1902M"}, headers=OPERATOR).status_code == 200
        assert client.get("/no/such/page").status_code == 404
        assert client.get("/openapi.json").status_code == 200  # the document: a route of its own

        clock.advance(minutes=60 + 1.5)  # F1902M's deadline passed 90 s ago; no worker has run yet
        lagging = scrape(client)
        assert value(lagging, "entente_clock_lag_seconds") == 90.0

        async def clock_and_notifier() -> None:
            store = await open_store(sqlite_url)
            try:
                assert await ClockWorker(store, clock).run_once() == 1
                await step(store, settings, utc_now())
            finally:
                await store.close()

        asyncio.run(clock_and_notifier())
        with client.stream("GET", f"{game}/stream", headers=bearer(tokens[0])) as stream:
            assert stream.status_code == 200, stream.read()
            lines = stream.iter_lines()  # kept: a dropped iterator closes the connection
            assert next(lines).startswith("retry:")  # the stream is open: its first line has come
            during = scrape(client)
            # the tailer reads the log on its own schedule once a stream follows it (docs/social.md)
            wait_until(lambda: grew(before, scrape(client), "entente_stream_log_reads_total") >= 1,
                       what="the stream's tailer to read the log")
        after = scrape(client)

    route = "/games/{game_id}/orders"
    assert grew(before, after, "entente_http_requests_total", method="PUT", route=route, status="200") == 7
    assert grew(before, after, "entente_http_request_duration_seconds_count", method="PUT", route=route) == 7
    assert grew(before, after, "entente_http_requests_total", method="POST", route="/games/{game_id}/players",
                status="201") == 7
    assert grew(before, after, "entente_http_requests_total", method="GET", route="unmatched", status="404") == 1
    assert grew(before, after, "entente_http_requests_total", method="GET", route="/openapi.json", status="200") == 1
    assert grew(before, after, "entente_order_submissions_total", variant="standard") == 7
    assert grew(before, after, "entente_orders_total", variant="standard", outcome="accepted") == 1
    assert grew(before, after, "entente_orders_total", variant="standard", outcome="rejected") == 1
    for trigger in ("early", "host", "operator", "clock"):
        assert grew(before, after, "entente_resolution_duration_seconds_count", variant="standard",
                    trigger=trigger) == 1, trigger
        assert grew(before, after, "entente_phases_resolved_total", variant="standard", trigger=trigger) >= 1
    assert sum(grew(before, after, "entente_phases_resolved_total", variant="standard", trigger=t)
               for t in ("early", "host", "operator", "clock")) == 4  # S1901M, F1901M, S1902M, F1902M
    assert value(after, "entente_clock_lag_seconds") == 0.0
    # four resolutions, each a phase_resolved to both webhooks: one seat's delivered, the other's dead
    delivered, dead = len(receiver.received["one"]), len(receiver.received["two"])
    assert delivered == dead >= 4
    assert grew(before, after, "entente_outbox_attempts_total", outcome="delivered") == delivered
    assert grew(before, after, "entente_outbox_attempts_total", outcome="dead") == dead
    assert value(after, "entente_outbox_notifications", status="delivered") == delivered
    assert value(after, "entente_outbox_notifications", status="dead") == dead
    assert value(after, "entente_outbox_notifications", status="pending") == 0
    assert value(during, "entente_open_streams") - value(before, "entente_open_streams") == 1
    assert value(after, "entente_open_streams") == value(before, "entente_open_streams")
    assert grew(before, after, "entente_stream_log_reads_total") >= 1  # the stream's tailer followed the log
    # the per-process caches, each with what it holds (this game's state, its submissions, the
    # history the stream rendered) and its estimated memory
    for cache in ("game_states", "phase_submissions", "history_entries"):
        assert value(after, "entente_cache_entries", cache=cache) >= 1, cache
        assert value(after, "entente_cache_estimated_bytes", cache=cache) > 0, cache
    # the game was read again and again: from its cached state, after the first read
    assert grew(before, after, "entente_cache_lookups_total", cache="game_states", outcome="hit") >= 7
    assert grew(before, after, "entente_cache_lookups_total", cache="game_states", outcome="miss") >= 1


def test_metrics_are_for_the_operator_or_an_allowed_address(sqlite_url: str) -> None:
    closed = create_app(Settings(database_url=sqlite_url, operator_token=SecretStr(OPERATOR_TOKEN), environment="test"))
    with served(closed) as base_url, httpx.Client(base_url=base_url) as client:
        for headers in ({}, bearer("not-the-operator-token-at-all"), bearer(OPERATOR_TOKEN + "x")):
            refused = client.get("/metrics", headers=headers)
            assert refused.status_code == 403 and refused.json()["error"]["code"] == "metrics_not_allowed"
        assert client.get("/metrics", headers=OPERATOR).status_code == 200
    allowed = create_app(Settings(database_url=sqlite_url, operator_token=SecretStr(OPERATOR_TOKEN), environment="test",
                                  metrics_allow="10.0.0.0/8, 127.0.0.1"))
    with served(allowed) as base_url, httpx.Client(base_url=base_url) as client:
        assert client.get("/metrics").status_code == 200
    # a forwarded address is no address of the connection's
    other = create_app(Settings(database_url=sqlite_url, operator_token=SecretStr(OPERATOR_TOKEN), environment="test",
                                metrics_allow="10.0.0.0/8"))
    with served(other) as base_url, httpx.Client(base_url=base_url) as client:
        assert client.get("/metrics", headers={"x-forwarded-for": "10.1.2.3"}).status_code == 403


METRICS_TOKEN = "m-" + "Zq7vR2kP9xW4nB8tL3cY6hJ1" * 2


def test_the_metrics_token_reads_the_metrics_and_nothing_else(sqlite_url: str) -> None:
    """ENTENTE_METRICS_TOKEN (docs/operations.md, "Metrics"): Prometheus' credential reads
    /metrics, and is no operator: the operator's routes refuse it."""
    app = create_app(Settings(database_url=sqlite_url, operator_token=SecretStr(OPERATOR_TOKEN), environment="test",
                              metrics_token=SecretStr(METRICS_TOKEN)))
    with served(app) as base_url, httpx.Client(base_url=base_url) as client:
        assert client.get("/metrics", headers=bearer(METRICS_TOKEN)).status_code == 200
        assert client.get("/metrics", headers=bearer(METRICS_TOKEN[:-1])).status_code == 403
        created = client.post("/games", json={"name": "scraped"})
        log = client.get(f"/games/{created.json()['id']}/events", headers=bearer(METRICS_TOKEN))
        assert log.status_code == 401, log.text  # the operator's route: no token it knows


def test_a_weak_metrics_token_or_the_operators_own_is_refused(sqlite_url: str) -> None:
    for token, words in (("short", "ENTENTE_METRICS_TOKEN"), (OPERATOR_TOKEN, "is the operator token")):
        settings = Settings(database_url=sqlite_url, operator_token=SecretStr(OPERATOR_TOKEN), environment="test",
                            metrics_token=SecretStr(token))
        with pytest.raises(SettingsError, match=words):
            settings.checked()


def test_the_request_id_is_taken_or_given_and_returned(sqlite_url: str) -> None:
    app = create_app(Settings(database_url=sqlite_url, operator_token=SecretStr(OPERATOR_TOKEN), environment="test"))
    with served(app) as base_url, httpx.Client(base_url=base_url) as client:
        given = client.post("/games", json={"name": "ids"}, headers={"x-request-id": "edge-1234"})
        assert given.headers["x-request-id"] == "edge-1234"
        made = client.get("/games")
        assert len(made.headers["x-request-id"]) == 32
        odd = client.get("/games", headers={"x-request-id": "no spaces or\tcontrols please"})
        assert odd.headers["x-request-id"] != "no spaces or\tcontrols please"
        events = client.get(f"/games/{given.json()['id']}/events", headers=OPERATOR).text
        assert '"request_id": "edge-1234"' in events or '"request_id":"edge-1234"' in events


@pytest.mark.slow  # a real server (docs/testing.md, "Tiers")
def test_the_server_processes_metrics_add_up_under_workers(tmp_path: Path) -> None:
    """``entente serve --workers 2``: whichever process answers a scrape, it counts every
    process's requests (prometheus_client's multiprocess mode, in a directory serve makes)."""
    port = free_port()
    environment = {"PATH": os.environ.get("PATH", ""), "HOME": str(tmp_path), "ENTENTE_OPERATOR_TOKEN": OPERATOR_TOKEN,
                   "ENTENTE_DATABASE_URL": f"sqlite:///{tmp_path / 'workers.db'}"}
    with open(tmp_path / "serve.log", "wb") as log:
        server = subprocess.Popen([str(Path(sys.executable).parent / "entente"), "serve", "--workers", "2",
                                   "--port", str(port), "--no-worker"], stdin=subprocess.DEVNULL, stdout=log,
                                  stderr=subprocess.STDOUT, env=environment)
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as client:
            wait_until(lambda: answers(client, "/healthz"), timeout=30, what="the server to answer /healthz")
            for _ in range(40):  # new connections each: the kernel spreads them over both processes
                with httpx.Client(base_url=f"http://127.0.0.1:{port}") as fresh:
                    assert fresh.get("/games").status_code == 200
            counts = []
            for _ in range(6):
                with httpx.Client(base_url=f"http://127.0.0.1:{port}") as fresh:
                    samples = scrape(fresh)
                    counts.append(value(samples, "entente_http_requests_total", method="GET", route="/games",
                                        status="200"))
            assert counts == [40.0] * 6
    finally:
        server.terminate()
        assert server.wait(timeout=60) == 0, (tmp_path / "serve.log").read_text()


def test_the_grafana_dashboard_reads_metrics_that_exist() -> None:
    """deploy/grafana-dashboard.json queries only metrics that the code defines, and all of them."""
    import json
    import re

    from prometheus_client import REGISTRY

    dashboard = json.loads((Path(__file__).resolve().parents[2] / "deploy" / "grafana-dashboard.json").read_text())
    queried = {name for panel in dashboard["panels"] for target in panel["targets"]
               for name in re.findall(r"\b(entente_[a-z_]+)", target["expr"])}
    defined = {sample for family in REGISTRY.collect() if family.name.startswith("entente_")
               for sample in {family.name, f"{family.name}_total", f"{family.name}_bucket"}}
    assert queried <= defined, queried - defined
    families = {family.name for family in REGISTRY.collect() if family.name.startswith("entente_")}
    assert {name.removesuffix("_total").removesuffix("_bucket") for name in queried} == families
