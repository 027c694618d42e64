"""The gate every request passes before the routers: its path and query hold text, its body
is not over the limit and is strict JSON.

A pure ASGI middleware, installed outermost by ``build_app`` (docs/api.md, "Bad input"):

- A path or a query parameter (as decoded from its percent-escapes) that the text rule refuses
  (shared/text.py: a control character) gets 404 ``not_found`` (no resource has such a name)
  or 422 ``invalid_request`` naming the parameter: nothing with it reaches a route or the store.
- A body over ``MAX_BODY_BYTES`` is refused with 413 ``body_too_large`` before it is read
  (``Content-Length``) or as soon as the bytes that arrived pass the limit (chunked bodies);
  the connection is then closed rather than the rest read.
- A JSON body (declared ``application/json`` or ``+json``, or not declared, as FastAPI reads
  it) is decoded strictly: ``NaN``, ``Infinity``, ``-Infinity``, numbers beyond a double's
  range (``1e400``) and integers beyond +/-(2**53 - 1) (RFC 7493, I-JSON), repeated keys, and
  strings the text rule refuses (shared/text.py: control characters, lone surrogates) get a 422
  ``invalid_request`` naming the field. A number with an integer value written with a fraction
  or an exponent (``7.0``, ``7e0``) is that integer, as JSON Schema's ``integer`` counts it: the
  body is handed on rewritten with ``7``, so strict models take it (docs/api.md, "Errors").
  What is not JSON at all is left to FastAPI (400 ``malformed_json``), and what is not
  declared JSON to the routes (415).

GET and HEAD requests (the live stream among them) are not buffered: only a declared length
over the limit is refused. Other bodies are read here, at most the limit, and handed on whole.
"""
from __future__ import annotations

import json
import math
from email.message import Message
from typing import Any
from urllib.parse import parse_qsl

from shared.errors import DomainError, ErrorCode, NotFound, Unprocessable
from shared.text import first_problem, path_of, text_problem

from .asgi import Headers, HttpMiddleware, Receive, Scope
from .asgi import Message as ASGIMessage

MAX_BODY_BYTES = 1024 * 1024
SAFE_INTEGER = 2**53 - 1
UNBUFFERED_METHODS = frozenset({"GET", "HEAD"})



class BodyTooLarge(DomainError):
    status_code = 413
    code = ErrorCode.BODY_TOO_LARGE


class Marker:
    """A value the strict decoder found and refuses; ``first_problem`` reports ``problem``."""

    def __init__(self, problem: str) -> None:
        self.problem = problem


class RepeatedKeys(dict[str, Any]):
    """An object in which a key appears twice (kept as a dict, so the walk goes on into it)."""

    def __init__(self, pairs: list[tuple[str, Any]], key: str) -> None:
        super().__init__(pairs)
        self.problem = f"the key {key!r} appears more than once"


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    seen: set[str] = set()
    for key, _ in pairs:
        if key in seen:
            return RepeatedKeys(pairs, key)
        seen.add(key)
    return dict(pairs)


class IntegralFloat(int):
    """A number written with a fraction or an exponent whose value is an integer (``7.0``,
    ``1e2``): that integer, as JSON Schema's ``integer`` counts it (docs/api.md, "Bad input");
    the body is then handed on rewritten, so the routes read an integer."""


def _float(text: str) -> int | float | Marker:
    value = float(text)
    if not math.isfinite(value):
        return Marker(f"{text} is not a finite number")
    if value.is_integer() and abs(value) <= SAFE_INTEGER:
        return IntegralFloat(value)
    return value


def _integer(text: str) -> int | Marker:
    if len(text.lstrip("-")) > 16 or abs(int(text)) > SAFE_INTEGER:
        shown = text if len(text) <= 24 else text[:20] + "..."
        return Marker(f"{shown} is beyond the integers JSON carries exactly (+/-{SAFE_INTEGER})")
    return int(text)


def _constant(name: str) -> Marker:
    return Marker(f"{name} is not a finite number (and not JSON)")


def strict_read(body: bytes) -> tuple[str, str] | bytes | None:
    """(where, why) for a JSON body that breaks the strict rules; the body rewritten when a
    number in it was an integer written as ``7.0``; None when it is to go on as it is."""
    rewrite = False

    def number(text: str) -> int | float | Marker:
        nonlocal rewrite
        value = _float(text)
        rewrite = rewrite or isinstance(value, IntegralFloat)
        return value

    try:
        value = json.loads(body, parse_float=number, parse_int=_integer, parse_constant=_constant,
                           object_pairs_hook=_object)
    except (ValueError, RecursionError):  # not JSON (or not UTF-8): FastAPI's 400
        return None
    found = first_problem(value)
    if found is not None:
        parts, problem = found
        return path_of(parts), problem
    return json.dumps(value, ensure_ascii=False).encode("utf-8") if rewrite else None


def is_json(scope: Scope) -> bool:
    """Whether FastAPI will read this body as JSON: no content type, or application/(*+)json."""
    declared = _header(scope, b"content-type")
    if declared is None:
        return True
    message = Message()
    message["content-type"] = declared
    subtype = message.get_content_subtype()
    return message.get_content_maintype() == "application" and (subtype == "json" or subtype.endswith("+json"))


def _header(scope: Scope, name: bytes) -> str | None:
    headers: Headers = scope.get("headers", [])
    for key, value in headers:
        if key == name:
            return value.decode("latin-1")
    return None


def _declared_length(scope: Scope) -> int | None:
    text = _header(scope, b"content-length")
    return int(text) if text is not None and text.isascii() and text.isdigit() else None


async def send_error(send: Any, status: int, error: DomainError, *, close: bool = False) -> None:
    """An error in the one shape (shared/errors.py), sent from below the framework."""
    body = json.dumps(error.body()).encode("utf-8")
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    if status == 401:
        headers.append((b"www-authenticate", b"Bearer"))
    if error.retry_after is not None:
        headers.append((b"retry-after", str(error.retry_after).encode()))
    if close:
        headers.append((b"connection", b"close"))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def address_problem(scope: Scope) -> DomainError | None:
    """The error for a path or query parameter the text rule refuses, or None."""
    problem = text_problem(scope.get("path", ""))
    if problem is not None:
        return NotFound(f"no resource has such a path: {problem}", code=ErrorCode.NOT_FOUND, where="path")
    query = scope.get("query_string", b"").decode("latin-1")
    for name, value in parse_qsl(query, keep_blank_values=True):  # percent-escapes decoded as UTF-8
        problem = text_problem(name) or text_problem(value)
        if problem is not None:
            where = f"query.{name}" if text_problem(name) is None else "query"
            return Unprocessable(f"{where}: {problem}", code=ErrorCode.INVALID_REQUEST, where=where,
                                 details=[{"where": where, "message": problem}])
    return None


def too_large() -> BodyTooLarge:
    return BodyTooLarge(f"the request body is over the limit of {MAX_BODY_BYTES:,} bytes", where="body")


class RequestBodyGate(HttpMiddleware):
    async def handle(self, scope: Scope, receive: Any, send: Any) -> None:
        named = address_problem(scope)
        if named is not None:
            await send_error(send, named.status_code, named)
            return
        declared = _declared_length(scope)
        if declared is not None and declared > MAX_BODY_BYTES:
            await send_error(send, 413, too_large(), close=True)
            return
        if scope.get("method") in UNBUFFERED_METHODS:
            await self.app(scope, receive, send)
            return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":  # the client went away
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > MAX_BODY_BYTES:
                await send_error(send, 413, too_large(), close=True)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        if body and is_json(scope):
            found = strict_read(body)
            if isinstance(found, bytes):
                body = found
                scope = {**scope, "headers": [*((k, v) for k, v in scope.get("headers", []) if k != b"content-length"),
                                              (b"content-length", str(len(body)).encode())]}
            elif found is not None:
                where, problem = found
                message_text = f"{where}: {problem}"
                error = Unprocessable(message_text, code=ErrorCode.INVALID_REQUEST, where=where,
                                      details=[{"where": where, "message": problem}])
                await send_error(send, error.status_code, error)
                return
        await self.app(scope, _replay(body, receive), send)


def _replay(body: bytes, receive: Receive) -> Receive:
    """A ``receive`` that gives the body read here first, then what the client sends next
    (a disconnect, which a streaming endpoint listens for)."""
    given = False

    async def replayed() -> ASGIMessage:
        nonlocal given
        if not given:
            given = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replayed
