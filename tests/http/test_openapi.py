"""The OpenAPI document a generated client can trust (docs/api.md, "The OpenAPI document"):
a standard, a Dirigible and a Tale of Ekonia game are played over HTTP, errors included, and
every answer is checked against the document: its status is declared for its route, its body
validates against the declared schema (jsonschema, the document as the registry of its
references), and an error's code is among the codes the route declares for that status."""
from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from jsonschema import Draft202012Validator
from openapi_spec_validator import validate as validate_spec
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from services.app import create_app
from shared.http.constraints import TEXT_PATTERN
from shared.http.openapi import ROUTE_ERRORS
from tests.utils.http import APP_BASE, OPERATOR, POWERS, bearer, settings_for

DOCUMENT_URI = "urn:entente:openapi"


@dataclass
class Answer:
    method: str
    path: str
    status: int
    content_type: str
    body: bytes


class Conformance:
    """The document, and a check of one answer against it."""

    def __init__(self, document: dict[str, Any]) -> None:
        self.document = document
        resource = Resource.from_contents(document, default_specification=DRAFT202012)
        self.registry = Registry().with_resource(DOCUMENT_URI, resource)
        self.routes = [(re.compile("^" + re.sub(r"\{[^/]+\}", "[^/]+", path) + "$"), path)
                       for path in sorted(document["paths"], key=lambda p: (p.count("{"), p))]

    def route(self, path: str) -> str:
        return next(template for pattern, template in self.routes if pattern.match(path))

    def problems(self, answer: Answer) -> list[str]:
        template = self.route(answer.path)
        operation = self.document["paths"][template][answer.method]
        where = f"{answer.method.upper()} {template} -> {answer.status}"
        declared = operation["responses"].get(str(answer.status))
        if declared is None:
            return [f"{where}: status not declared ({sorted(operation['responses'])})"]
        content = declared.get("content", {})
        if answer.status == 204 or not content:
            return [] if not answer.body else [f"{where}: a body where none is declared"]
        media = answer.content_type.split(";")[0].strip()
        if media not in content:
            return [f"{where}: {media} not among {sorted(content)}"]
        if media != "application/json":
            return []
        body = json.loads(answer.body)
        pointer = "/".join(part.replace("~", "~0").replace("/", "~1") for part in
                           ("paths", template, answer.method, "responses", str(answer.status), "content", media,
                            "schema"))
        validator = Draft202012Validator({"$ref": f"{DOCUMENT_URI}#/{pointer}"}, registry=self.registry)
        found = [f"{where}: {e.json_path}: {e.message[:300]}" for e in validator.iter_errors(body)]
        codes = declared.get("x-error-codes")
        if codes is not None and body.get("error", {}).get("code") not in codes:
            found.append(f"{where}: code {body['error']['code']!r} not among {codes}")
        return found


@pytest.fixture
async def recorded(sqlite_url: str) -> AsyncIterator[tuple[httpx.AsyncClient, list[Answer], dict[str, Any]]]:
    answers: list[Answer] = []

    async def record(response: httpx.Response) -> None:
        await response.aread()
        answers.append(Answer(response.request.method.lower(), response.request.url.path, response.status_code,
                              response.headers.get("content-type", ""), response.content))

    app = create_app(settings_for(sqlite_url))
    async with app.router.lifespan_context(app):
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url=APP_BASE,
                                     event_hooks={"response": [record]}) as client:
            yield client, answers, app.openapi()


async def seated(client: httpx.AsyncClient, variant: str, players: int, **settings: Any) -> tuple[str, str, list]:
    created = (await client.post("/games", json={"name": variant.title(), "variant": variant,
                                                 "settings": {"player_count": players, **settings}})).json()
    seats = [(await client.post(f"/games/{created['id']}/players")).json() for _ in range(players)]
    await client.post(f"/games/{created['id']}/start", headers=bearer(created["host_token"]))
    return created["id"], created["host_token"], seats


async def powers_of(client: httpx.AsyncClient, game: str, seats: list) -> dict[str, dict[str, str]]:
    found = {}
    for seat in seats:
        view = (await client.get(f"/games/{game}/view", headers=bearer(seat["token"]))).json()
        found[view["viewer"]["power"]] = bearer(seat["token"])
    return found


async def play_standard(client: httpx.AsyncClient) -> None:
    await client.post("/games", json={"name": "x", "variant": "chess"})
    await client.post("/games", content=b"{not json", headers={"content-type": "application/json"})
    await client.post("/games", json={"name": ""})
    await client.get("/games", params={"cursor": "nonsense"})
    private = (await client.post("/games", json={"name": "p", "settings": {"private": True}})).json()
    await client.post(f"/games/{private['id']}/players", json={"invite_code": "wrong"})
    squatter = (await client.post(f"/games/{private['id']}/players",
                                  json={"invite_code": private["invite_code"]})).json()
    await client.delete(f"/games/{private['id']}/players/{squatter['codename']}", headers=bearer(private["host_token"]))
    await client.delete(f"/games/{private['id']}/players/nobody", headers=bearer(private["host_token"]))
    game, host, seats = await seated(client, "standard", 7, require_ready=True)
    auth = await powers_of(client, game, seats)
    url = f"/games/{game}"
    first = (await client.get("/games", params={"limit": 1})).json()
    await client.get("/games", params={"limit": 1, "cursor": first["next_cursor"]})
    await client.get(url)
    await client.get("/games/g_000000000000")
    await client.post(f"{url}/players")
    await client.post(f"{url}/start", headers=auth["FRANCE"])
    await client.post(f"{url}/start", headers=bearer("not-a-token"))
    await client.get(f"{url}/possible-orders", headers=auth["ENGLAND"])
    await client.get(f"{url}/possible-orders")
    await client.put(f"{url}/orders", json={"orders": ["A PAR - BUR", "F BRE - Atlantis"]}, headers=auth["FRANCE"])
    await client.put(f"{url}/orders", json={"orders": ["F BRE - MOS"]}, headers=auth["FRANCE"])
    await client.put(f"{url}/orders", json={"orders": ["A PAR H"], "phase": "F1905M"}, headers=auth["FRANCE"])
    await client.put(f"{url}/orders", json={"orders": ["A PAR H"], "power": "ENGLAND"}, headers=auth["FRANCE"])
    await client.put(f"{url}/orders", json={"orders": "A PAR H"}, headers=auth["FRANCE"])
    await client.patch(f"{url}/orders", json={"orders": ["A LVP - WAL"]}, headers=auth["ENGLAND"])
    await client.patch(f"{url}/orders", json={"clear": ["Atlantis"]}, headers=auth["ENGLAND"])
    await client.patch(f"{url}/orders", json={}, headers=auth["ENGLAND"])
    await client.post(f"{url}/ready", headers=auth["ENGLAND"])
    await client.post(f"{url}/ready", headers=auth["GERMANY"])
    await client.delete(f"{url}/ready", headers=auth["ENGLAND"])
    for power in ("FRANCE", "ENGLAND", None):
        await client.get(f"{url}/view", headers=auth[power] if power else {})
    await client.get(f"{url}/view", params={"power": "ITALY"}, headers=OPERATOR)
    await client.get(f"{url}/view", params={"power": "ITALY"}, headers=auth["FRANCE"])
    await client.post(f"{url}/messages", json={"to": "all", "text": "hello"}, headers=auth["ITALY"])
    await client.post(f"{url}/messages", json={"to": ["ITALY"], "text": "x"}, headers=auth["ITALY"])
    messages = (await client.get(f"{url}/messages", params={"limit": 1})).json()
    await client.get(f"{url}/messages", params={"cursor": messages["next_cursor"]}, headers=auth["ITALY"])
    await client.get(f"{url}/messages", params={"cursor": "e30"})
    await client.post(f"{url}/draw", json={"vote": True}, headers=auth["ITALY"])
    await client.get(f"{url}/draw", headers=auth["ITALY"])
    await client.post(f"{url}/draw", json={"vote": True, "powers": ["ITALY", "FRANCE"]}, headers=auth["ITALY"])
    await client.post(f"{url}/concede", json={"to": "FRANCE"}, headers=auth["ITALY"])  # 403: not a setting
    await client.post(f"{url}/conversations/FRANCE/messages", json={"text": "Lepanto?"}, headers=auth["ITALY"])
    await client.post(f"{url}/conversations/ATLANTIS/messages", json={"text": "?"}, headers=auth["ITALY"])
    await client.get(f"{url}/conversations", headers=auth["FRANCE"])
    await client.get(f"{url}/conversations")
    await client.get(f"{url}/conversations/ITALY/messages", headers=auth["FRANCE"])
    await client.get(f"{url}/conversations/no;such/messages", headers=auth["FRANCE"])
    await client.post(f"{url}/conversations/ITALY/read", json={}, headers=auth["FRANCE"])
    await client.post(f"{url}/conversations/ITALY/read", json={"through": "m_nothing"}, headers=auth["FRANCE"])
    await client.post(f"{url}/extend", json={"minutes": 10}, headers=bearer(host))
    await client.post(f"{url}/pause", json={"minutes": 10}, headers=bearer(host))
    await client.post(f"{url}/pause", headers=bearer(host))
    await client.post(f"{url}/resume", headers=bearer(host))
    await client.post(f"{url}/resume", headers=bearer(host))
    await client.post(f"{url}/resolve", json={"phase": "S1901M"}, headers=bearer(host))
    await client.post(f"{url}/resolve", json={"phase": "S1901M"}, headers=bearer(host))
    for phase in ("S1901M", "X1901", "S1950M"):
        await client.get(f"{url}/view", params={"phase": phase}, headers=auth["FRANCE"])
    await client.get(f"{url}/map.svg", params={"phase": "S1901M"})
    await client.get(f"{url}/map.png", headers=auth["FRANCE"])
    await client.get(f"{url}/events", headers=OPERATOR)
    await client.get(f"{url}/events", headers=auth["FRANCE"])
    await client.get(f"{url}/stream", params={"timeout": 0.1}, headers=auth["FRANCE"])
    await client.get(f"{url}/stream", headers={**auth["FRANCE"], "last-event-id": "abc"})
    ticket = (await client.post(f"{url}/stream-ticket", headers=auth["FRANCE"])).json()["ticket"]
    await client.get(f"{url}/stream", params={"ticket": ticket, "timeout": 0.1})
    await client.get(f"{url}/stream", params={"ticket": ticket, "timeout": 0.1})  # spent: 401 invalid_ticket
    await client.get(f"{url}/stream", params={"token": "anything"})  # 400 token_in_url
    bot = (await client.post(f"{url}/bot-tokens", json={"label": "bot"}, headers=auth["FRANCE"])).json()
    await client.get(f"{url}/bot-tokens", headers=auth["FRANCE"])
    await client.get(f"{url}/view", headers=bearer(bot["token"]))
    await client.get("/games", headers=bearer(bot["token"]))
    await client.delete(f"{url}/bot-tokens/{bot['token_id']}", headers=auth["FRANCE"])
    await client.delete(f"{url}/bot-tokens/{bot['token_id']}", headers=auth["FRANCE"])
    await client.put(f"{url}/webhook", json={"url": "http://127.0.0.1/hook"}, headers=auth["FRANCE"])
    await client.get(f"{url}/webhook", headers=auth["FRANCE"])
    await client.delete(f"{url}/webhook", headers=auth["FRANCE"])
    await client.put(f"{url}/channel-webhook", json={"url": "https://discord.example/api/webhooks/1/x"},
                     headers=bearer(host))
    await client.put(f"{url}/channel-webhook", json={"url": "ftp://x"}, headers=bearer(host))
    await client.get(f"{url}/channel-webhook", headers=auth["FRANCE"])
    await client.get(f"{url}/channel-webhook", headers=bearer(host))
    await client.delete(f"{url}/channel-webhook", headers=bearer(host))
    await client.delete(f"{url}/channel-webhook", headers=bearer(host))
    # Web Push and e-mail, on a server without a VAPID key or an SMTP server (404 saying so)
    await client.get("/push/key")
    await client.put(f"{url}/push", json={"endpoint": "https://push.example.org/1", "keys": {
        "p256dh": "B" + "A" * 86, "auth": "A" * 22}}, headers=auth["FRANCE"])
    await client.get(f"{url}/push", headers=auth["FRANCE"])
    await client.delete(f"{url}/push", headers=auth["FRANCE"])
    await client.put(f"{url}/email", json={"address": "x@example.org"}, headers=auth["FRANCE"])
    await client.get(f"{url}/email", headers=auth["FRANCE"])
    await client.post(f"{url}/email/confirm", json={"code": "ABCDEFGHJKLM"}, headers=auth["FRANCE"])
    await client.delete(f"{url}/email", headers=auth["FRANCE"])
    await client.get(f"{url}/identities")
    await client.get(f"{url}/identities", headers=OPERATOR)
    await client.get(f"{url}/seats")
    await client.get(f"{url}/seats", headers=bearer(host))
    await client.get(f"{url}/seats", headers=auth["FRANCE"])
    for path in ("/auth/login", "/auth/options", "/me", "/me/games", "/me/stream", "/variants", "/variants/standard",
                 "/variants/chess", "/variants/standard/map.svg", "/healthz", "/livez", "/me/api-keys"):
        await client.get(path)
    await client.post("/me/api-keys", json={"label": "bot"}, headers=auth["FRANCE"])  # not an account: 401
    await client.delete("/me/api-keys/ak_000000000000", headers=bearer("k.a_0123456789abcdef.forged"))
    await client.post(f"{url}/finish", json={"reason": "draw"}, headers=OPERATOR)
    await client.post(f"{url}/finish", json={"reason": "draw"}, headers=OPERATOR)
    await client.put(f"{url}/orders", json={"orders": []}, headers=auth["FRANCE"])
    await client.get(url)


async def play_dirigible(client: httpx.AsyncClient) -> None:
    game, host, seats = await seated(client, "dirigible", 7)
    auth = await powers_of(client, game, seats)
    url = f"/games/{game}"
    await client.get(f"{url}/possible-orders", headers=auth["ENGLAND"])
    await client.put(f"{url}/orders", json={"orders": ["D LON B", "F EDI B", "A LVP B"]}, headers=auth["ENGLAND"])
    await client.patch(f"{url}/orders", json={"orders": ["A EDI B"]}, headers=auth["ENGLAND"])
    for power in POWERS:
        if power != "ENGLAND":
            await client.put(f"{url}/orders", json={"orders": []}, headers=auth[power])
    await client.get(f"{url}/view", headers=auth["ENGLAND"])
    await client.put(f"{url}/orders", json={"orders": ["D LON - NTH"]}, headers=auth["ENGLAND"])
    await client.get(f"{url}/possible-orders", headers=auth["ENGLAND"])
    await client.post(f"{url}/resolve", headers=bearer(host))
    await client.get(f"{url}/view", params={"phase": "W1900A"})
    await client.get(f"{url}/view")


async def play_ekonia(client: httpx.AsyncClient) -> None:
    game, host, seats = await seated(client, "ekonia", 2)
    auth = await powers_of(client, game, seats)
    url = f"/games/{game}"
    for headers in auth.values():
        menu = (await client.get(f"{url}/possible-orders", headers=headers)).json()["menu"]
        unit = next(g for g in menu if g["kind"] == "unit")
        await client.put(f"{url}/orders", json={"orders": [unit["orders"][0]["text"], "MORALE 1"]}, headers=headers)
        await client.put(f"{url}/orders", json={"orders": ["BUY 99 INFANTRY AT nowhere"]}, headers=headers)
        await client.get(f"{url}/view", headers=headers)
    await client.get(f"{url}/view", headers=OPERATOR)
    for headers in auth.values():
        await client.get(f"{url}/view", headers=headers)
        await client.get(f"{url}/view", params={"phase": "T01"}, headers=headers)
        await client.patch(f"{url}/orders", json={"orders": ["MORALE 2"]}, headers=headers)
    await client.post(f"{url}/resolve", headers=bearer(host))
    await client.post(f"{url}/resolve", headers=OPERATOR)
    await client.get(f"{url}/view")
    await client.get("/variants/ekonia")
    await client.get(f"{url}/map.svg", params={"phase": "T01"})


async def test_every_answer_of_three_played_games_conforms_to_the_document(recorded) -> None:
    client, answers, document = recorded
    validate_spec(document)  # a valid OpenAPI 3.1 document in the first place
    await play_standard(client)
    await play_dirigible(client)
    await play_ekonia(client)
    conformance = Conformance(document)
    problems = [problem for answer in answers for problem in conformance.problems(answer)]
    assert problems == [], "\n".join(problems[:30])
    statuses = {a.status for a in answers}
    assert {200, 201, 204, 400, 401, 403, 404, 409, 422} <= statuses, statuses
    touched = {(a.method, conformance.route(a.path)) for a in answers}
    untouched = set(ROUTE_ERRORS) - touched - {("get", "/auth/callback"), ("post", "/auth/logout")}
    assert untouched == set(), untouched


def test_every_route_declares_its_errors_and_its_security() -> None:
    document = create_app().openapi()
    routes = {(method, path) for path, item in document["paths"].items() for method in item}
    assert routes == set(ROUTE_ERRORS)  # one entry per route in shared/http/openapi.py
    assert document["components"]["securitySchemes"]["bearer"] == {
        "type": "http", "scheme": "bearer", "description": document["components"]["securitySchemes"]["bearer"][
            "description"]}
    schemas = document["components"]["schemas"]
    assert "HTTPValidationError" not in schemas and "Error" in schemas
    view = document["paths"]["/games/{game_id}/view"]["get"]
    assert view["security"] == [{"bearer": []}, {}]  # a token is optional: it changes what is seen
    put = document["paths"]["/games/{game_id}/orders"]["put"]
    assert put["security"] == [{"bearer": []}] and "orders_rejected" in put["responses"]["422"]["x-error-codes"]
    assert "security" not in document["paths"]["/games"]["post"]
    # the view is typed down to units, centres, history and structured orders
    for name in ("GameView", "BoardPosition", "DirigiblePosition", "EkoniaPosition", "ResolvedPhaseView",
                 "StructuredOrder", "MenuGroup"):
        assert name in schemas, name
    # every JSON answer has a named shape a generated client can type, except the map document,
    # an open object by design (docs/maps.md)
    untyped = sorted((method, path) for path, item in document["paths"].items() for method, operation in item.items()
                     for code, answer in operation["responses"].items() if code.startswith("2")
                     for schema in [answer.get("content", {}).get("application/json", {}).get("schema")]
                     if schema is not None and "$ref" not in schema and schema.get("type") != "array")
    assert untyped == [("get", "/variants/{name}")]
    assert schemas["VariantSummary"]["required"] == ["name", "board", "powers"]
    assert schemas["BoardPosition"]["properties"]["units"]["additionalProperties"] == {
        "items": {"type": "string", "pattern": TEXT_PATTERN}, "type": "array"}
