"""One enumeration of the error codes (``shared.errors.ErrorCode``): every code the code base
raises or answers is a member (read off the source, tests/http/test_error_table.py's scan),
every member is one it can answer, and the OpenAPI document lists them all: the ``ErrorCode``
schema that every error's ``code`` is, and that each route's ``x-error-codes`` draw from."""
from __future__ import annotations

import ast

from services.app import create_app
from shared.errors import DomainError, ErrorCode, NotFound
from tests.http.test_error_table import SOURCES, _class_defaults, answered_codes


def test_every_code_raised_is_in_the_enumeration() -> None:
    raised = {code for _, code in answered_codes()}
    assert len(raised) > 60  # the scan found the raises
    assert sorted(raised - set(ErrorCode)) == []


def test_every_member_is_a_code_some_answer_may_carry() -> None:
    defaults = {code for _, code in _class_defaults([ast.parse(p.read_text()) for p in SOURCES]).values()}
    raised = {code for _, code in answered_codes()}
    # http_error: the framework's statuses the handlers have no code of their own for
    assert sorted(set(ErrorCode) - raised - defaults - {"http_error"}) == []


def test_a_member_is_its_string() -> None:
    member: str = ErrorCode.GAME_NOT_FOUND
    assert member == "game_not_found" and isinstance(member, str)
    error = NotFound("no such game", code=ErrorCode.GAME_NOT_FOUND)
    assert error.body() == {"error": {"code": "game_not_found", "message": "no such game"}}
    assert DomainError("x", code="game_not_found").code == ErrorCode.GAME_NOT_FOUND  # a literal still works


def test_the_openapi_document_lists_the_enumeration() -> None:
    document = create_app().openapi()
    schemas = document["components"]["schemas"]
    assert schemas["ErrorDetail"]["properties"]["code"]["$ref"] == "#/components/schemas/ErrorCode"
    assert schemas["ErrorCode"]["type"] == "string"
    assert sorted(schemas["ErrorCode"]["enum"]) == sorted(ErrorCode)
    listed = {code for path in document["paths"].values() for operation in path.values() if isinstance(operation, dict)
              for answer in operation.get("responses", {}).values() for code in answer.get("x-error-codes", [])}
    assert listed and sorted(listed - set(ErrorCode)) == []
