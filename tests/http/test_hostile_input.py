"""Hostile values in a request get a 4xx in the one error shape and write nothing, on both back
ends: numbers JSON cannot carry, strings that are not Unicode text, control characters in
anything that would be stored, bodies over the limit, and digits that only look like digits
(docs/api.md, "Bad input")."""
from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from pydantic import SecretStr

from tests.utils.http import OPERATOR, Table, running_client, started_table

JSON = {"content-type": "application/json"}
MAX_BODY_BYTES = 1024 * 1024  # the documented limit (docs/api.md, "Bad input")


@pytest.fixture
async def client(store_url: str) -> AsyncIterator[httpx.AsyncClient]:
    async with running_client(store_url) as opened:
        yield opened


@pytest.fixture
async def table(client: httpx.AsyncClient) -> Table:
    return await started_table(client)


def error_of(response: httpx.Response, status: int) -> dict[str, Any]:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/json")
    error = response.json()["error"]
    assert error["code"] and error["message"], error
    return error


async def everything(client: httpx.AsyncClient) -> list[str]:
    """Every event of every game, as the operator exports them."""
    games = (await client.get("/games", params={"limit": 500})).json()["games"]
    lines: list[str] = []
    for game in games:
        lines.extend((await client.get(f"/games/{game['id']}/events", headers=OPERATOR)).text.splitlines())
    return lines


NON_FINITE = ["NaN", "Infinity", "-Infinity", "1e400", "-1e400"]


@pytest.mark.parametrize("number", NON_FINITE)
async def test_numbers_json_cannot_carry_get_422_wherever_they_are(table: Table, number: str) -> None:
    client, game = table.client, f"/games/{table.game_id}"
    before = await everything(client)
    cases = [
        ("POST", "/games", f'{{"name": {number}}}', {}, "body.name"),
        ("POST", "/games", f'{{"name": "x", "settings": {{"player_count": {number}}}}}', {},
         "body.settings.player_count"),
        ("POST", "/games", f'{{"name": "x", "settings": {{"movement_minutes": {number}}}}}', {},
         "body.settings.movement_minutes"),
        ("PUT", f"{game}/orders", f'{{"orders": ["A PAR H", {number}]}}', table.player("FRANCE"), "body.orders[1]"),
        ("POST", f"{game}/extend", f'{{"minutes": {number}}}', table.host, "body.minutes"),
        ("POST", f"{game}/messages", f'{{"to": "all", "text": "hi", "extra": {{"deep": [{number}]}}}}',
         table.player("FRANCE"), "body.extra.deep[0]"),
        ("POST", f"{game}/draw", number, table.player("FRANCE"), "body"),
    ]
    for method, path, body, headers, where in cases:
        response = await client.request(method, path, content=body.encode(), headers={**headers, **JSON})
        error = error_of(response, 422)
        assert error["code"] == "invalid_request" and error["where"] == where, (path, body, error)
        assert number.lstrip("-") in error["message"] or "finite" in error["message"]
    assert await everything(client) == before


async def test_strings_that_are_not_unicode_text_get_422(table: Table) -> None:
    client, game = table.client, f"/games/{table.game_id}"
    before = await everything(client)
    cases = [
        ("POST", "/games", b'{"name": "\\ud800"}', {}, "body.name"),
        ("POST", "/games", b'{"name": "ok \\udfff end"}', {}, "body.name"),
        ("POST", "/games", b'{"name": "x", "\\ud83d": 1}', {}, "body"),  # a key
        ("PUT", f"{game}/orders", b'{"orders": ["A PAR - \\udc00BUR"]}', table.player("FRANCE"), "body.orders[0]"),
        ("POST", f"{game}/messages", b'{"to": ["\\ud800"], "text": "hi"}', table.player("FRANCE"), "body.to[0]"),
    ]
    for method, path, body, headers, where in cases:
        error = error_of(await client.request(method, path, content=body, headers={**headers, **JSON}), 422)
        assert error["code"] == "invalid_request" and error["where"] == where, (body, error)
        assert "surrogate" in error["message"]
    paired = await client.post("/games", content=b'{"name": "\\ud83d\\ude00 club"}', headers=JSON)
    assert paired.status_code == 201 and paired.json()["name"] == "\U0001f600 club"  # a pair is one character
    before.extend((await client.get(f"/games/{paired.json()['id']}/events", headers=OPERATOR)).text.splitlines())
    assert sorted(await everything(client)) == sorted(before)


@pytest.mark.parametrize("character", ["\u0000", "\u0001", "\u001b", "\u007f", "\u0085"])
async def test_control_characters_are_refused_in_every_string_that_would_be_stored(
        table: Table, character: str) -> None:
    client, game = table.client, f"/games/{table.game_id}"
    france = table.player("FRANCE")
    before = await everything(client)
    cases = [
        ("POST", "/games", {"name": f"bad{character}name"}, {}, "body.name"),
        ("POST", "/games", {"name": "x", "variant": f"standard{character}"}, {}, "body.variant"),
        ("POST", f"{game}/bot-tokens", {"label": f"my{character}bot"}, france, "body.label"),
        ("PUT", f"{game}/webhook", {"url": f"https://example.com/{character}hook"}, france, "body.url"),
        ("POST", f"{game}/messages", {"to": "all", "text": f"hello{character}there"}, france, "body.text"),
        ("PUT", f"{game}/orders", {"orders": [f"A PAR{character} H"]}, france, "body.orders[0]"),
        ("POST", f"{game}/finish", {"reason": "abandoned", "note": character}, OPERATOR, "body.note"),
    ]
    for method, path, body, headers, where in cases:
        error = error_of(await client.request(method, path, json=body, headers=headers), 422)
        assert error["code"] == "invalid_request" and error["where"] == where, (path, error)
        assert f"U+{ord(character):04X}" in error["message"]
    assert await everything(client) == before
    fine = await client.post(f"{game}/messages", headers=france, json={"to": "all", "text": "one\ntwo\r\n\tthree"})
    assert fine.status_code == 201, fine.text


async def test_the_store_refuses_control_characters_from_any_writer(store_url: str) -> None:
    """The same rule holds below the HTTP edge, on both back ends: what PostgreSQL cannot keep
    (U+0000) SQLite does not keep either, and neither keeps the other control characters."""
    from shared.store import NewEvent, UnstorableText, open_store

    store = await open_store(store_url)
    try:
        refused: list[dict[str, object]] = [{"label": "a\u0000b"}, {"nested": [{"x": "\u001b[31m"}]}, {"key\u0007": 1},
                                            {"s": "\ud800"}]
        for data in refused:
            with pytest.raises(UnstorableText):
                async with store.transaction() as tx:
                    await tx.events.append("bots-g_x", [NewEvent("BotTokenIssued", data)], expected_version=None)
        with pytest.raises(UnstorableText):
            async with store.transaction() as tx:
                await tx.events.append("bots-g_x", [NewEvent("X", {}, metadata={"request_id": "a\u0000"})],
                                       expected_version=None)
        assert await store.events.stream_version("bots-g_x") == 0
        async with store.transaction() as tx:
            await tx.events.append("bots-g_x", [NewEvent("X", {"text": "tabs\tand\nlines\r\n"})], expected_version=None)
        assert await store.events.stream_version("bots-g_x") == 1
    finally:
        await store.close()


async def test_bodies_over_the_limit_get_413_before_they_are_read(table: Table) -> None:
    client, game = table.client, f"/games/{table.game_id}"
    before = await everything(client)
    too_big = b'{"name": "' + b"x" * MAX_BODY_BYTES + b'"}'
    error = error_of(await client.post("/games", content=too_big, headers=JSON), 413)
    assert error["code"] == "body_too_large" and error["where"] == "body"
    assert f"{MAX_BODY_BYTES:,}" in error["message"] or str(MAX_BODY_BYTES) in error["message"]
    not_even_json = b"{" * (MAX_BODY_BYTES + 1)  # never parsed: 413, not 400
    assert error_of(await client.put(f"{game}/orders", content=not_even_json,
                                     headers={**table.player("FRANCE"), **JSON}), 413)["code"] == "body_too_large"

    async def chunks() -> AsyncIterator[bytes]:  # no content-length: counted as it arrives
        yield b'{"orders": ["'
        for _ in range(MAX_BODY_BYTES // 65536 + 1):
            yield b"A" * 65536
        yield b'"]}'

    streamed = await client.put(f"{game}/orders", content=chunks(), headers={**table.player("FRANCE"), **JSON})
    assert error_of(streamed, 413)["code"] == "body_too_large"
    assert await everything(client) == before
    just_under = b'{"to": "all", "text": "hi", "padding": "' + b" " * (MAX_BODY_BYTES - 100) + b'"}'
    assert len(just_under) <= MAX_BODY_BYTES
    error = error_of(await client.post(f"{game}/messages", content=just_under,
                                       headers={**table.player("FRANCE"), **JSON}), 422)
    assert error["where"] == "body.padding"  # read and checked like any body: the limit is the limit
    view = await client.get(f"{game}/view", headers=table.player("FRANCE"))
    assert view.status_code == 200
    stream = await client.get(f"{game}/stream", params={"timeout": 0.2}, headers=table.player("FRANCE"))
    assert stream.status_code == 200 and "event: view" in stream.text


async def test_digits_that_only_look_like_digits(table: Table) -> None:
    """``"²".isdigit()`` is true and ``int("²")`` fails: ids and numbers are ASCII digits only."""
    client, game = table.client, f"/games/{table.game_id}"
    for value in ("\u00b2".encode("latin-1"), "\u00b9\u00b3".encode("latin-1"), b"1\xb2", b" 7 \xb3"):
        response = await client.get(f"{game}/stream", headers=[(b"last-event-id", value)])
        error = error_of(response, 400)
        assert error["code"] == "invalid_last_event_id", value


async def test_a_callback_state_with_lookalike_digits_or_foreign_letters_is_refused(client: httpx.AsyncClient,
                                                                                    ) -> None:
    from services.accounts.oauth import check_state
    from shared.errors import BadRequest
    from shared.settings import Settings

    settings = Settings(operator_token=SecretStr("operator-token-for-tests-0123456789"), environment="test")
    for state in ("nonce.\u00b2\u00b3.abc", "nonce.\u00b9\u2070.abc", "nonce.123.\u00e9\u00e9", "\u00e9.1.x",
                  "nonce.99999999999999999999999999.abc"):
        with pytest.raises(BadRequest) as refused:
            check_state(settings, state, "nonce", now=0.0)
        assert refused.value.code == "invalid_state", state
    with pytest.raises(BadRequest):
        check_state(settings, "nonce.1.abc", "n\u00f6nce", now=0.0)
    response = await client.get("/auth/callback", params={"code": "x", "state": "n.\u00b2\u00b3.\u00e9"})
    assert response.status_code in (400, 404), response.text  # refused (or no sign-in here), never a 500


async def test_control_characters_in_a_path_or_a_query_reach_no_route_nor_the_store(table: Table) -> None:
    """PostgreSQL cannot take U+0000 even as a query parameter (it was a 500 there)."""
    client, game = table.client, f"/games/{table.game_id}"
    for path in ("/games/%00", "/games/g_%00x/view", f"{game}/orders%01", "/games/%1b%5b31m"):
        response = await client.get(path, headers=table.player("FRANCE"))
        assert error_of(response, 404)["where"] == "path", path
    for path, name in ((f"{game}/view?power=%00", "power"), ("/games?status=%00", "status"),
                       (f"{game}/messages?after=1%00", "after"), (f"{game}/stream?timeout=0.1&power=%7f", "power")):
        error = error_of(await client.get(path, headers=table.player("FRANCE")), 422)
        assert error["code"] == "invalid_request" and error["where"] == f"query.{name}", path
    assert error_of(await client.get("/games?%00=1"), 422)["where"] == "query"
    assert (await client.get(f"{game}/view?power=FRANCE", headers=table.player("FRANCE"))).status_code == 200
