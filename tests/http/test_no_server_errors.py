"""Whatever arrives, the answer is JSON and never a 500 (each request below is one a client could send)."""
from __future__ import annotations

import itertools

from tests.utils.http import OPERATOR, Table

BODIES = [b"", b"null", b"[]", b"{}", b"17", b'"text"', b'{"orders": null}', b'{"orders": [null]}',
          b'{"orders": [{"a": 1}]}', b'{"phase": 5}', b'{"phase": "S1901M", "orders": ["A PAR -"]}',
          b'{"name": null}', b'{"reason": "victory"}', b"\x00\xff", b'{"orders": ["' + b"\xc3\xa6" * 300 + b'"]}',
          b"{" * 10_000]


async def test_odd_requests_get_json_4xx(table: Table) -> None:
    game = f"/games/{table.game_id}"
    endpoints = [("POST", "/games"), ("GET", "/games"), ("POST", f"{game}/players"), ("POST", f"{game}/start"),
                 ("GET", game), ("PUT", f"{game}/orders"), ("POST", f"{game}/resolve"), ("GET", f"{game}/view"),
                 ("GET", f"{game}/possible-orders"), ("GET", f"{game}/events"), ("POST", f"{game}/finish"),
                 ("PUT", "/games/unknown/orders"), ("GET", f"{game}/view?power=%00"), ("GET", "/games?limit=-1")]
    credentials = [{}, {"Authorization": "Bearer " + "x" * 5000}, table.host, table.player("FRANCE"), OPERATOR]
    for (method, url), headers in itertools.product(endpoints, credentials):
        for body in BODIES if method != "GET" else [b"", b"{"]:
            response = await table.client.request(method, url, content=body,
                                                  headers={**headers, "content-type": "application/json"})
            assert response.status_code < 500, (method, url, body[:40], headers, response.text)
            if response.status_code >= 400:
                assert response.headers["content-type"].startswith("application/json"), (method, url)
                error = response.json()["error"]
                assert error["code"] and error["message"]
