"""Over a real connection to a real server (``entente serve``, uvicorn, PostgreSQL): hostile
bodies get their 422 in the one error shape and the server keeps the connection for the next
request (it used to fail while writing the error and reset the connection)."""
from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from tests.utils.http import OPERATOR_TOKEN
from tests.utils.served import KeptConnection, entente_serve

pytestmark = [pytest.mark.postgres, pytest.mark.slow]  # a real server (docs/testing.md, "Tiers")
JSON = {"content-type": "application/json"}


@pytest.fixture
def server(postgres_url: str) -> Iterator[str]:
    with entente_serve(postgres_url) as base_url:
        yield base_url


def test_hostile_bodies_get_422_and_the_connection_is_kept(server: str) -> None:
    connection = KeptConnection(server)
    try:
        created = connection.request("POST", "/games", json.dumps({"name": "Kept"}).encode(), JSON)
        assert created.status == 201
        game = created.json()
        host = {**JSON, "authorization": f"Bearer {game['host_token']}"}
        operator = {**JSON, "authorization": f"Bearer {OPERATOR_TOKEN}"}
        hostile = [
            ("POST", "/games", b'{"name": NaN}', JSON, "body.name"),
            ("POST", "/games", b'{"name": "x", "settings": {"player_count": Infinity}}', JSON,
             "body.settings.player_count"),
            ("POST", "/games", b'{"name": "x", "settings": {"movement_minutes": -Infinity}}', JSON,
             "body.settings.movement_minutes"),
            ("POST", f"/games/{game['id']}/extend", b'{"minutes": 1e400}', host, "body.minutes"),
            ("POST", "/games", b'{"name": "\\ud800"}', JSON, "body.name"),
            ("POST", f"/games/{game['id']}/finish", b'{"reason": "\\udfff"}', operator, "body.reason"),
            ("POST", "/games", b'{"name": "nul \\u0000 here"}', JSON, "body.name"),
        ]
        for method, path, body, headers, where in hostile:
            answer = connection.request(method, path, body, headers)
            assert answer.status == 422, (body, answer.body)
            assert answer.headers["content-type"].startswith("application/json")
            error = answer.json()["error"]
            assert error["code"] == "invalid_request" and error["where"] == where, (body, error)
            assert connection.request("GET", "/healthz").status == 200  # the same connection, still open
        assert connection.request("GET", f"/games/{game['id']}").json()["name"] == "Kept"
        assert connection.requests == 2 * len(hostile) + 2
    finally:
        connection.close()
