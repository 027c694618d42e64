"""The OpenAPI document at the deployment's public address (docs/api.md, "The OpenAPI
document"; docs/deploy.md, "The proxy"): deploy/nginx.conf run with Debian's nginx in front of
the lobby as compose runs it (``entente serve --service lobby``, the other upstreams at closed
ports), so that what a developer's generator fetches from the deployed site is checked:

- the whole API's document, every path of every service (as ``entente serve`` gives it), not
  the lobby's dozen;
- a strong ETag, 304 to ``If-None-Match`` (whichever form of the tag), gzip when asked, and the
  same bytes for every request (encoded once by the process).
"""
from __future__ import annotations

import gzip
import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from .test_compose_topology import Topology, free_port, require_nginx
from .test_readiness import wait_until

ENTENTE = str(Path(sys.executable).parent / "entente")


@pytest.fixture(scope="module")
def proxied_lobby(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    require_nginx()
    tmp = tmp_path_factory.mktemp("openapi")
    env = {"PATH": os.environ.get("PATH", ""), "HOME": str(tmp), "LANG": "C.UTF-8",
           "PYTHONPATH": os.environ.get("PYTHONPATH", ""), "ENTENTE_DATABASE_URL": f"sqlite:///{tmp}/entente.db"}
    topology = Topology(tmp, env["ENTENTE_DATABASE_URL"], "unused")
    lobby = topology.port("lobby", 8001)
    for service, port in (("adjudication", 8002), ("visibility", 8003), ("accounts", 8004), ("press", 8005),
                          ("notifications", 8006)):
        topology.ports[(service, port)] = free_port()  # nothing listens there: only the lobby serves
    argv = [ENTENTE, "serve", "--service", "lobby", "--host", "127.0.0.1", "--port", str(lobby)]  # as compose's
    topology.processes["lobby"] = topology.spawn("lobby", argv, env=env, cwd=tmp)
    try:
        base = f"http://127.0.0.1:{topology.start_nginx()}"
        wait_until("the proxy and the lobby", lambda: httpx.get(f"{base}/healthz").status_code == 200, 60,
                   tmp / "lobby.log")
        yield base
    finally:
        codes = topology.stop_all()
    assert codes == {"lobby": 0, "proxy": 0}, topology.logs()


def whole_api_paths() -> set[str]:
    from services.app import create_app

    return set(create_app().openapi()["paths"])


def test_the_public_address_serves_the_whole_api_with_an_etag_and_gzip(proxied_lobby: str) -> None:
    with httpx.Client(base_url=proxied_lobby, timeout=30) as client:
        plain = client.get("/openapi.json", headers={"accept-encoding": "identity"})
        assert plain.status_code == 200, plain.text
        assert plain.headers["content-type"].startswith("application/json")
        assert "content-encoding" not in plain.headers
        document = plain.json()
        assert set(document["paths"]) == whole_api_paths()  # every service's routes, not the lobby's
        for path in ("/games/{game_id}/orders", "/games/{game_id}/view", "/games/{game_id}/stream", "/me/stream",
                     "/games/{game_id}/messages", "/games/{game_id}/webhook"):
            assert path in document["paths"], path
        etag = plain.headers["etag"]
        assert etag.startswith('"') and etag.endswith('"') and not etag.startswith("W/")

        zipped = client.get("/openapi.json", headers={"accept-encoding": "gzip"})
        assert zipped.status_code == 200 and zipped.headers["content-encoding"] == "gzip"
        assert zipped.headers["etag"] == etag and "accept-encoding" in zipped.headers["vary"].lower()
        assert zipped.content == plain.content  # httpx undoes the gzip: the same bytes
        with client.stream("GET", "/openapi.json", headers={"accept-encoding": "gzip"}) as sent:
            raw = b"".join(sent.iter_raw())  # as it came over the wire
        assert gzip.decompress(raw) == plain.content and len(raw) < len(plain.content) // 4

        for tag in (etag, f"W/{etag}", f'"other", {etag}'):
            again = client.get("/openapi.json", headers={"if-none-match": tag, "accept-encoding": "gzip"})
            assert again.status_code == 304 and again.content == b"" and again.headers["etag"] == etag, tag
        changed = client.get("/openapi.json", headers={"if-none-match": '"not-this-one"'})
        assert changed.status_code == 200 and changed.content == plain.content
        assert json.loads(client.get("/openapi.json").content) == document  # one document, every time

        page = client.get("/docs")  # the API's pages read the same document
        assert page.status_code == 200 and "/openapi.json" in page.text
