"""What is defined once stays defined once: the ASGI scope's type and the middleware's opening
(shared/http/asgi.py), and the reading of the Authorization header
(``shared.auth.bearer_token_of``), which the request dependencies, the token middleware and the
workers' metrics listener all use, with one limit."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

from services.app import create_app
from services.cli.health import bearer_of
from shared.auth import MAX_TOKEN_LENGTH, bearer_token_of
from shared.errors import Unauthorized
from shared.http.asgi import HttpMiddleware

ROOT = Path(__file__).resolve().parents[2]


def test_the_scope_type_is_declared_once() -> None:
    declared = []
    for path in sorted([*(ROOT / "shared").rglob("*.py"), *(ROOT / "services").rglob("*.py")]):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(
                node, ast.AnnAssign) else []
            if any(isinstance(t, ast.Name) and t.id == "Scope" for t in targets):
                declared.append(path.relative_to(ROOT).as_posix())
    assert declared == ["shared/http/asgi.py"]


def test_every_middleware_layer_has_the_one_opening() -> None:
    """Each layer the app stacks is an ``HttpMiddleware`` and writes only its ``handle``: the
    pass-through of what is not an HTTP request is written once."""
    layers: list[type] = [entry.cls for entry in create_app().user_middleware]  # type: ignore[misc]  # classes
    assert len(layers) >= 5
    assert [layer.__name__ for layer in layers if not issubclass(layer, HttpMiddleware)] == []
    assert [layer.__name__ for layer in layers if "__call__" in vars(layer) or "__init__" in vars(layer)] == []


async def test_what_is_not_an_http_request_goes_straight_through() -> None:
    seen: list[str] = []

    async def inner(scope: dict[str, object], receive: object, send: object) -> None:
        seen.append(str(scope["type"]))

    class Refusing(HttpMiddleware):
        async def handle(self, scope: dict[str, object], receive: object, send: object) -> None:
            seen.append("handled")

    layer = Refusing(inner)
    await layer({"type": "lifespan"}, None, None)
    await layer({"type": "websocket"}, None, None)
    await layer({"type": "http"}, None, None)
    assert seen == ["lifespan", "websocket", "handled"]


def test_one_reading_of_the_authorization_header() -> None:
    longest = "k." + "x" * (MAX_TOKEN_LENGTH - 2)
    assert bearer_token_of(f"Bearer {longest}") == longest
    assert bearer_token_of("  bearer   abc ") == "abc"
    for wrong, code in [("Basic abc", "unauthorized"), ("Bearer ", "unauthorized"),
                        (f"Bearer {longest}x", "invalid_token")]:
        with pytest.raises(Unauthorized) as refused:
            bearer_token_of(wrong)
        assert refused.value.code == code
    # the metrics listener of the workers reads it the same way (None where the API says 401)
    assert bearer_of(f"GET /metrics HTTP/1.1\r\nAuthorization: Bearer {longest}\r\n\r\n".encode()) == longest
    assert bearer_of(f"GET /metrics HTTP/1.1\r\nauthorization: Bearer {longest}x\r\n\r\n".encode()) is None
    assert bearer_of(b"GET /metrics HTTP/1.1\r\nAuthorization: Basic abc\r\n\r\n") is None
