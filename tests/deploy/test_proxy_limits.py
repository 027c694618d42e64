"""Behind the documented proxy, with compose's settings, the per-address limits of the services
hold per client, and across processes (docs/operations.md, "Rate limits"): Debian's nginx with
deploy/nginx.conf in front of ``entente serve --workers 2`` with compose's environment, the
client addresses 127.0.0.x. One address gets its 20 games an hour and the 21st is refused
``rate_limited`` by the service (the two processes count against one limit, in the store), a
client's own ``X-Forwarded-For`` changes nothing, and another address is served as usual.
Compose trusts the proxy's header from the compose network's private addresses; here the proxy
connects from 127.0.0.1, which stands in for them."""
from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from .test_compose_topology import COMPOSE, Topology, free_port, require_nginx
from .test_readiness import wait_until

ROOT = Path(__file__).resolve().parents[2]
ENTENTE = str(Path(sys.executable).parent / "entente")
CONF = (ROOT / "deploy" / "nginx.conf").read_text()
PER_HOUR = 20  # ENTENTE_RATE_CREATE_PER_ADDRESS's default, which compose keeps


@pytest.fixture(scope="module")
def proxy(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    require_nginx()
    tmp = tmp_path_factory.mktemp("proxy-limits")
    port = free_port()
    composed = COMPOSE["x-entente-env"]
    assert "ENTENTE_RATE_LIMIT_EXEMPT" not in composed and "ENTENTE_RATE_LIMITS" not in composed
    env = {"PATH": os.environ.get("PATH", ""), "HOME": str(tmp), "LANG": "C.UTF-8",
           **({"PYTHONPATH": os.environ["PYTHONPATH"]} if "PYTHONPATH" in os.environ else {}),
           "ENTENTE_DATABASE_URL": f"sqlite:///{tmp}/entente.db",
           "ENTENTE_TRUSTED_PROXIES": composed["ENTENTE_TRUSTED_PROXIES"] + ", 127.0.0.1"}
    topology = Topology(tmp, env["ENTENTE_DATABASE_URL"], "unused")
    for upstream in re.findall(r"server\s+([\w-]+):(\d+);", CONF):
        topology.ports[(upstream[0], int(upstream[1]))] = port
    topology.processes["serve"] = topology.spawn("serve", [ENTENTE, "serve", "--host", "127.0.0.1", "--port",
                                                           str(port), "--workers", "2", "--no-worker"],
                                                 env=env, cwd=tmp)
    try:
        proxy_port = topology.start_nginx()
        base = f"http://127.0.0.1:{proxy_port}"
        wait_until("the proxy and the server", lambda: httpx.get(f"{base}/healthz").status_code == 200, 60,
                   tmp / "serve.log")
        yield base
    finally:
        topology.stop_all()


def client(base: str, address: str) -> httpx.Client:
    return httpx.Client(base_url=base, timeout=30, transport=httpx.HTTPTransport(local_address=address))


def test_the_21st_game_from_one_address_in_an_hour_is_refused(proxy: str) -> None:
    with client(proxy, "127.0.0.31") as one:
        made = [one.post("/games", json={"name": f"Game {n}"}).status_code for n in range(PER_HOUR)]
        assert made == [201] * PER_HOUR
        refused = one.post("/games", json={"name": "One more"})
        assert refused.status_code == 429, refused.text
        error = refused.json()["error"]
        assert error["code"] == "rate_limited" and "from this address" in error["message"]
        assert int(refused.headers["retry-after"]) > 0
        forged = one.post("/games", json={"name": "Forged"}, headers={"x-forwarded-for": "203.0.113.9"})
        assert forged.status_code == 429  # the proxy sets the header: a client's own is never read
    with client(proxy, "127.0.0.32") as other:
        assert other.post("/games", json={"name": "Elsewhere"}).status_code == 201
        listed = other.get("/games", params={"limit": 100}).json()["games"]
        assert len(listed) == PER_HOUR + 1  # nothing made by the refused ones


def test_the_61st_seat_from_one_address_in_an_hour_is_refused(proxy: str) -> None:
    """ENTENTE_RATE_JOIN_PER_ADDRESS (60 an hour by default, which compose keeps), behind the proxy."""
    with client(proxy, "127.0.0.33") as hosting, client(proxy, "127.0.0.34") as joining:
        games = [hosting.post("/games", json={"name": f"Seats {n}"}).json()["id"] for n in range(9)]
        seats = [joining.post(f"/games/{game}/players").status_code for game in games for _ in range(7)][:61]
        assert seats == [201] * 60 + [429], seats
        refused = joining.post(f"/games/{games[-1]}/players")
        assert refused.status_code == 429 and refused.json()["error"]["code"] == "rate_limited"
