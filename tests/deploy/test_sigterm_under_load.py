"""Every process of docker-compose.yml's topology stopped with SIGTERM in the middle of a load,
then started again: nothing acknowledged is lost, nothing is done twice (docs/operations.md,
"Stopping"; the machinery is test_compose_topology.py's).

Players of several two-player games of Tale of Ekonia (one state a seat) submit their orders
through the proxy, four at a time, each phase resolving early when its last orders arrive, each
resolution a webhook to both seats. While they do, every process (the services, the clock
worker, the notifier, nginx) gets SIGTERM at once and must exit 0. The topology starts again
on the same database and the
notifier drains the outbox. Then: every submission answered 200 is in the log; no phase of any
game is resolved twice; every notification due is delivered (the reminders of deadlines a day
away stay pending), and each seat received each ``phase_resolved`` once.
"""
from __future__ import annotations

import asyncio
import functools
import itertools
import secrets
import threading
import time
from collections import Counter
from datetime import timedelta
from pathlib import Path

import httpx
import pytest

from services.notifications.delivery import lease_for
from services.notifications.outbox import PROJECTION
from shared.events import from_recorded
from shared.settings import Settings
from shared.store import Notification, open_store, utc_now
from tests.deploy.test_compose_topology import COMPOSE, NOT_RUN, ONE_SHOT, Topology, require_nginx, wait_for
from tests.utils.oauth_provider import serve_in_thread
from tests.utils.webhook_receiver import Receiver

GAMES = 6
LOAD_SECONDS = 4.0  # of load before the SIGTERM


def start(topology: Topology, services: list[str]) -> str:
    for service in ONE_SHOT:  # the migration, to its end (a no-op on the second start)
        topology.run_once(service)
    for service in services:
        topology.start(service)
    proxy_port = topology.start_nginx()
    for service in services:
        wait_for(f"{service}'s health check", functools.partial(topology.healthy, service), topology, timeout=60)
    base_url = f"http://127.0.0.1:{proxy_port}"
    wait_for("the proxy", lambda: httpx.get(f"{base_url}/healthz", timeout=5).status_code == 200, topology, 20)
    return base_url


class Load:
    """Players ordering holds in turn, until told to stop; what was answered 200, and tried."""

    def __init__(self, base_url: str, seats: list[tuple[str, str]]) -> None:
        self.base_url = base_url
        self.seats = seats  # (game id, player token)
        self.stop = threading.Event()
        self.acknowledged: Counter[tuple[str, str, str]] = Counter()  # (game, phase, power) answered 200
        self.tried = 0
        self.refused: Counter[str] = Counter()  # answers other than 200, by status and code
        self.threads = [threading.Thread(target=self.run, args=(offset,), daemon=True) for offset in range(4)]

    def run(self, offset: int) -> None:
        # each thread a player of its own address, as the proxy limits per address (deploy/nginx.conf)
        transport = httpx.HTTPTransport(local_address=f"127.0.0.{10 + offset}")
        with httpx.Client(base_url=self.base_url, timeout=10, transport=transport) as client:
            for game_id, token in itertools.islice(itertools.cycle(self.seats), offset, None, 4):
                if self.stop.is_set():
                    return
                self.tried += 1
                try:
                    answer = client.put(f"/games/{game_id}/orders", json={"orders": []},
                                        headers={"authorization": f"Bearer {token}"})
                except httpx.HTTPError:
                    time.sleep(0.05)  # the proxy is going away
                    continue
                if answer.status_code == 200:
                    body = answer.json()
                    self.acknowledged[(game_id, body["phase"], body["power"])] += 1
                else:
                    self.refused[f"{answer.status_code} {answer.text[:120]}"] += 1


@pytest.mark.postgres
def test_sigterm_in_the_middle_of_a_load_loses_and_doubles_nothing(fresh_database_url: str, tmp_path: Path) -> None:
    require_nginx()
    services = [name for name in COMPOSE["services"] if name not in (*NOT_RUN, *ONE_SHOT)]
    token = secrets.token_urlsafe(32)
    receiver = Receiver()
    with serve_in_thread(receiver.app()) as receiver_url:
        first = Topology(tmp_path / "first", fresh_database_url, token)
        first.tmp.mkdir()
        try:
            base_url = start(first, services)
            seats: list[tuple[str, str]] = []
            with httpx.Client(base_url=base_url, timeout=30) as client:
                for number in range(GAMES):
                    created = client.post("/games", json={"name": f"load {number}", "variant": "ekonia",
                                                          "settings": {"player_count": 2}}).json()
                    game_id = created["id"]
                    for seat in range(2):
                        joined = client.post(f"/games/{game_id}/players").json()
                        hooked = client.put(f"/games/{game_id}/webhook",
                                            json={"url": f"{receiver_url}/ok/{game_id}-{seat}"},
                                            headers={"authorization": f"Bearer {joined['token']}"})
                        assert hooked.status_code == 200, hooked.text
                        seats.append((game_id, joined["token"]))
                    started = client.post(f"/games/{game_id}/start",
                                          headers={"authorization": f"Bearer {created['host_token']}"})
                    assert started.status_code == 200, started.text
            load = Load(base_url, seats)
            for thread in load.threads:
                thread.start()
            time.sleep(LOAD_SECONDS)  # the load runs this long before the SIGTERM: part of the scenario
            assert sum(load.acknowledged.values()) > 20, f"no load to speak of before the SIGTERM: {load.refused}"
        finally:
            codes = first.stop_all()  # while the load goes on
        load.stop.set()
        for thread in load.threads:
            thread.join(timeout=30)
        assert codes == {name: 0 for name in first.processes}, f"exit statuses: {codes}\n{first.logs()}"

        second = Topology(tmp_path / "second", fresh_database_url, token)
        second.tmp.mkdir()
        try:
            start(second, services)

            def drained() -> bool:
                return asyncio.run(owed(fresh_database_url)) == []

            wait_for("the notifier to drain the outbox", drained, second, timeout=60)
        finally:
            codes = second.stop_all()
        assert codes == {name: 0 for name in second.processes}, f"exit statuses: {codes}\n{second.logs()}"

    submitted, resolved, counts = asyncio.run(stored(fresh_database_url))
    for key, acknowledged in load.acknowledged.items():
        assert submitted[key] >= acknowledged, f"{key}: answered 200 {acknowledged} times, stored {submitted[key]}"
    assert sum(submitted.values()) <= load.tried
    for game_id, phases in resolved.items():
        assert len(phases) == len(set(phases)), f"{game_id} resolved a phase twice: {phases}"
    assert sum(len(p) for p in resolved.values()) > GAMES, "the load resolved hardly anything"
    assert counts.get("dead", 0) == 0 and counts["delivered"] > 0, counts
    got = Counter((name, p["entente"]["kind"], p["entente"]["phase"])
                  for name, payloads in receiver.received.items() for p in payloads)
    assert [key for key, times in got.items() if times > 1] == []
    assert sum(got.values()) == counts["delivered"]
    for game_id, phases in resolved.items():
        for seat in range(2):
            assert {phase for (name, kind, phase) in got if name == f"{game_id}-{seat}" and
                    kind == "phase_resolved"} == set(phases)


async def owed(url: str) -> list[Notification] | None:
    """The outbox's rows due by the end of a worker's lease and not delivered yet; None while
    the projection has not planned the whole log yet (a notifier told to stop leaves the rest
    of the log to the next one).

    A row a worker has claimed is leased to it: its next attempt moves to the lease's end
    (``lease_for``, seconds ahead), but it is still owed, and a worker stopped before it got
    to the row gives it back undelivered. A reminder of a deadline a day away is not owed."""
    store = await open_store(url)
    try:
        if await store.projections.projection_position(PROJECTION) < await store.events.head():
            return None
        rows = await store.outbox.notifications()
    finally:
        await store.close()
    horizon = utc_now() + lease_for(Settings()) + timedelta(minutes=1)
    return [row for row in rows if row.status in ("pending", "dead") and row.next_attempt_at <= horizon]


async def stored(url: str) -> tuple[Counter[tuple[str, str, str]], dict[str, list[str]], dict[str, int]]:
    store = await open_store(url)
    try:
        records = await store.events.read_all(limit=1_000_000)
        counts = await store.outbox.notification_counts()
    finally:
        await store.close()
    submitted: Counter[tuple[str, str, str]] = Counter()
    resolved: dict[str, list[str]] = {}
    for record in records:
        if record.type == "OrdersSubmitted":
            event = from_recorded(record)
            game_id = record.stream_id.removeprefix("orders-").rsplit("-", 2)[0]
            submitted[(game_id, event.phase, event.power)] += 1  # type: ignore[attr-defined]
        elif record.type == "PhaseResolved":
            resolved.setdefault(record.stream_id.removeprefix("game-"), []).append(str(record.data["phase"]))
    return submitted, resolved, counts
