"""A JSON body is read strictly once, by the route that reads it, after its rate limits
(docs/operations.md, "Request bodies"): a path no route serves, or a route that reads no body,
never decodes one (a broken body there changes nothing: 404, or the route's own answer); a
client over its rate limit gets 429 before its body is looked at; and the strict reading
decodes each value with no Python call per number (``StrictJSON``)."""
from __future__ import annotations

import json

import pytest
from pydantic import SecretStr

from shared.http import body
from shared.http.body import StrictJSON
from shared.settings import Settings
from tests.utils.http import OPERATOR_TOKEN, running_app

BROKEN = b'{"name": "x", "name": NaN}'


def test_a_broken_body_is_refused_where_it_breaks() -> None:
    cases = {
        b'{"name": NaN}': ("body.name", "NaN is not a finite number"),
        b'[7.0, {"a": 1e400}]': ("body[1].a", "inf is not a finite number"),
        b'{"a": 1, "a": 2}': ("body", "the key 'a' appears more than once"),
        b'{"orders": ["ok", "\\u0000"]}': ("body.orders[1]", "control character U+0000"),
        b'[12345678901234567]': ("body[0]", "beyond the integers JSON carries exactly"),
        b'{"x\\u0001": 1}': ("body", "the key 'x\\x01'"),
        b'{"a": {"b": [1, "\\ud800"]}}': ("body.a.b[1]", "lone surrogate U+D800"),
    }
    for text, (where, problem) in cases.items():
        read = StrictJSON(text)
        assert read.problem is not None, text
        assert read.problem[0] == where and problem in read.problem[1], (text, read.problem)
    assert StrictJSON(b"[1, 2").not_json and StrictJSON(b"\xff").not_json


def test_a_good_body_is_its_value_with_integral_numbers_made_integers() -> None:
    read = StrictJSON(b'{"count": 7.0, "exp": 7e0, "half": 0.5, "big": 1e20, "text": "caf\\u00e9 \\ud83d\\ude00"}')
    assert read.problem is None and read.value == {"count": 7, "exp": 7, "half": 0.5, "big": 1e20, "text": "café 😀"}
    assert type(read.value["count"]) is int and type(read.value["big"]) is float


def test_zeros_are_decoded_without_a_python_call_per_value(monkeypatch: pytest.MonkeyPatch) -> None:
    """The attack body of the review (a 680 kB array of zeros) costs the C decoder only: no
    number and no string in it can break a rule, so nothing is walked (``_scan`` not called)."""
    zeros = b"[" + b",".join([b"0"] * 340_000) + b"]"
    walked: list[int] = []
    original = body._scan

    def counting(*args: object, **kwargs: object) -> object:
        walked.append(1)
        return original(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(body, "_scan", counting)  # a spy: the walk itself runs
    assert StrictJSON(zeros).value == [0] * 340_000
    assert walked == []
    found = StrictJSON(zeros[:-1] + b",NaN]").problem
    assert found == ("body[340000]", "NaN is not a finite number (and not JSON)")
    assert walked == [1]


async def test_no_route_or_no_body_means_no_reading(store_url: str) -> None:
    settings = Settings(database_url=store_url, operator_token=SecretStr(OPERATOR_TOKEN), environment="test")
    async with running_app(settings) as (_, client):
        headers = {"content-type": "application/json"}
        nowhere = await client.post("/no/such/path", content=BROKEN, headers=headers)
        assert nowhere.status_code == 404 and nowhere.json()["error"]["code"] == "not_found"
        created = (await client.post("/games", json={"name": "Read"})).json()
        # ``start`` reads no body: the host's token decides, the broken body is never decoded
        start = await client.post(f"/games/{created['id']}/start", content=BROKEN,
                                  headers={**headers, "authorization": "Bearer nobody"})
        assert start.status_code in (401, 403), start.text
        refused = await client.post("/games", content=BROKEN, headers=headers)
        assert refused.status_code == 422 and refused.json()["error"]["where"] == "body"  # the repeated key


async def test_a_client_over_its_rate_limit_is_refused_before_its_body_is_read(store_url: str) -> None:
    settings = Settings(database_url=store_url, operator_token=SecretStr(OPERATOR_TOKEN), environment="test",
                        rate_limits=True, rate_create_per_address="2/hour")
    async with running_app(settings) as (_, client):
        headers = {"content-type": "application/json"}
        assert (await client.post("/games", json={"name": "One"})).status_code == 201
        assert (await client.post("/games", content=BROKEN, headers=headers)).status_code == 422  # counted too
        over = await client.post("/games", content=BROKEN, headers=headers)
        assert over.status_code == 429 and over.json()["error"]["code"] == "rate_limited"
        good = await client.post("/games", content=json.dumps({"name": "Three"}), headers=headers)
        assert good.status_code == 429  # counted once a request, before the body
