"""What the OpenAPI document promises beyond bodies (docs/api.md, "The OpenAPI document"):
headers that every answer carries, Retry-After where an answer says to wait, date-time formats."""
from __future__ import annotations

import json
import re

from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from services.app import create_app
from shared.http.constraints import TEXT_PATTERN
from shared.settings import Settings
from shared.text import text_problem
from tests.utils.http import OPERATOR, running_app, settings_for, started_table


async def test_headers_and_formats_are_in_the_document_and_in_the_answers(sqlite_url: str) -> None:
    async with running_app(settings_for(sqlite_url)) as (app, client):
        document = app.openapi()
        answer = await client.get("/games")
        assert answer.headers["x-request-id"]
        put = document["paths"]["/games/{game_id}/orders"]["put"]["responses"]
        assert "X-Request-ID" in put["200"]["headers"] and "Retry-After" in put["429"]["headers"]
        assert all("X-Request-ID" in r["headers"] for item in document["paths"].values()
                   for op in item.values() if isinstance(op, dict) and "responses" in op
                   for r in op["responses"].values())
        schemas = document["components"]["schemas"]
        assert schemas["ClockInfo"]["properties"]["deadline"]["anyOf"][0] == {"type": "string", "format": "date-time"}
        assert schemas["ClockView"]["properties"]["deadline"]["anyOf"][0] == {"type": "string", "format": "date-time"}


TEXTS = st.text(alphabet=st.characters(min_codepoint=0, max_codepoint=0x2FF, exclude_categories=["Cs"]), max_size=12)


@settings(max_examples=300, deadline=None)
@given(TEXTS)
def test_the_documents_text_pattern_is_the_servers_text_rule(value: str) -> None:
    """docs/api.md, "Constraints": a string the pattern allows is one shared/text.py keeps, and back."""
    assert (re.fullmatch(TEXT_PATTERN, value) is not None) == \
        (text_problem(value) is None)


def test_each_variants_body_says_what_it_takes() -> None:
    """docs/api.md, "Constraints": player counts, clocks, max_turns and house bots by variant."""
    schemas = create_app(Settings(database_url="sqlite+aiosqlite:///:memory:", environment="test")).openapi()[
        "components"]["schemas"]
    assert [option["$ref"].rsplit("/", 1)[1] for option in schemas["CreateGame"]["oneOf"]] == [
        "CreateStandardGame", "CreateDirigibleGame", "CreateEkoniaGame"]
    count = {name: schemas[name]["properties"]["player_count"]["anyOf"][0]
             for name in ("StandardSettings", "DirigibleSettings", "EkoniaSettings")}
    assert count == {"StandardSettings": {"type": "integer", "minimum": 2, "maximum": 7},
                     "DirigibleSettings": {"type": "integer", "enum": [7]},
                     "EkoniaSettings": {"type": "integer", "minimum": 2, "maximum": 6}}
    clock = schemas["StandardSettings"]["properties"]["movement_minutes"]
    assert (clock["minimum"], clock["maximum"], clock["default"]) == (1, 30 * 24 * 60, 24 * 60)
    assert schemas["StandardSettings"]["properties"]["max_turns"]["type"] == "null"
    assert schemas["EkoniaSettings"]["properties"]["house_bot"]["type"] == "null"
    assert all("required" not in schemas[name] for name in count)  # every setting may be left out
    assert schemas["CreateStandardGame"]["required"] == ["name"]
    assert schemas["CreateEkoniaGame"]["required"] == ["name", "variant"]


async def test_every_line_of_a_games_log_is_a_log_record_of_the_document(sqlite_url: str) -> None:
    """docs/api.md, "Unions": GET /games/{id}/events, one LogRecord a line, each by its type."""
    async with running_app(settings_for(sqlite_url)) as (app, client):
        table = await started_table(client)
        await client.post(f"/games/{table.game_id}/messages", headers=table.player("ITALY"),
                          json={"to": "all", "text": "hello"})
        await table.resolve("S1901M")
        answer = await client.get(f"/games/{table.game_id}/events", headers=OPERATOR)
        document = app.openapi()
    assert answer.status_code == 200
    registry = Registry().with_resource("urn:doc", Resource.from_contents(document, default_specification=DRAFT202012))
    validator = Draft202012Validator({"$ref": "urn:doc#/components/schemas/LogRecord"}, registry=registry)
    lines = [json.loads(line) for line in answer.text.splitlines()]
    assert {"GameCreated", "PlayerJoined", "GameStarted", "PhaseResolved"} <= {line["type"] for line in lines}
    assert [f"{line['type']}: {error.message[:200]}" for line in lines for error in validator.iter_errors(line)] == []
    broken = {**next(line for line in lines if line["type"] == "PhaseResolved"), "data": {"phase": 1}}
    assert list(validator.iter_errors(broken))


async def test_the_documents_request_examples_are_valid_by_it_and_accepted_by_the_server(sqlite_url: str) -> None:
    """docs/api.md, "The OpenAPI document": each body's examples validate against their own
    schema, and the server takes the game-creation ones as written (201)."""
    async with running_app(settings_for(sqlite_url)) as (app, client):
        document = app.openapi()
        registry = Registry().with_resource("urn:doc",
                                            Resource.from_contents(document, default_specification=DRAFT202012))
        examples = {name: schema["examples"] for name, schema in document["components"]["schemas"].items()
                    if "examples" in schema}
        assert {"SubmitOrders", "PatchOrders", "SendMessage", "CreateStandardGame", "CreateDirigibleGame",
                "CreateEkoniaGame"} <= set(examples)
        for name, found in examples.items():
            validator = Draft202012Validator({"$ref": f"urn:doc#/components/schemas/{name}"}, registry=registry)
            assert [f"{name}: {e.message}" for example in found for e in validator.iter_errors(example)] == []
        for name in ("CreateStandardGame", "CreateDirigibleGame", "CreateEkoniaGame"):
            for example in examples[name]:
                created = await client.post("/games", json=example)
                assert created.status_code == 201, created.text
                assert created.json()["variant"] == example["variant"]
