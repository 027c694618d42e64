"""The gate every request passes before the routers: its path and query hold text, its body
is not over the limit; and the strict reading of JSON bodies the routes use (``StrictJSON``).

A pure ASGI middleware, installed outermost by ``build_app`` (docs/api.md, "Bad input"):

- A path or a query parameter (as decoded from its percent-escapes) that the text rule refuses
  (shared/text.py: a control character) gets 404 ``not_found`` (no resource has such a name)
  or 422 ``invalid_request`` naming the parameter: nothing with it reaches a route or the store.
- A body over ``MAX_BODY_BYTES`` is refused with 413 ``body_too_large`` before it is read
  (``Content-Length``) or as soon as the bytes that arrived pass the limit (chunked bodies);
  the connection is then closed rather than the rest read.
- A JSON body (declared ``application/json`` or ``+json``, or not declared, as FastAPI reads
  it) is decoded strictly by ``StrictJSON``, once, and only by a route that reads a body,
  after its rate limits (shared/http/route_bodies.py): here only its size is checked.
  ``NaN``, ``Infinity``, ``-Infinity``, numbers beyond a double's range (``1e400``) and
  integers beyond +/-(2**53 - 1) (RFC 7493, I-JSON), repeated keys, and strings the text rule
  refuses (shared/text.py: control characters, lone surrogates) get a 422 ``invalid_request``
  naming the field. A number with an integer value written with a fraction or an exponent
  (``7.0``, ``7e0``) is that integer, as JSON Schema's ``integer`` counts it: the route reads
  ``7``, so strict models take it (docs/api.md, "Errors"). What is not JSON at all is left to
  FastAPI (400 ``malformed_json``), and what is not declared JSON to the routes (415).

GET and HEAD requests (the live stream among them) are not buffered: only a declared length
over the limit is refused. Other bodies are read here, at most the limit, and handed on whole.
"""
from __future__ import annotations

import json
import math
import re
from collections.abc import Iterator, Mapping
from email.message import Message
from typing import Any
from urllib.parse import parse_qsl

import orjson

from shared.errors import DomainError, ErrorCode, NotFound, Unprocessable
from shared.text import KeyProblem, _printable, path_of, text_problem

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
    made = dict(pairs)
    if len(made) == len(pairs):
        return made
    seen: set[str] = set()
    for key, _ in pairs:
        if key in seen:
            return RepeatedKeys(pairs, key)
        seen.add(key)
    return made  # pragma: no cover - a shorter dict has a repeated key


def _constant(name: str) -> Marker:
    return Marker(f"{name} is not a finite number (and not JSON)")


# What in a body's bytes may need the walk, found by C passes over them: 16 digits in a row
# (an integer perhaps beyond 2**53; the digits mapped to one byte, then one search), and DEL, a C1
# control (UTF-8 \xc2\x80-\xc2\x9f) or an escape that writes a control or a surrogate (looked
# for only when a backslash, DEL or \xc2 is there at all). A float is told by the decoder itself.
_DIGIT_MAP = bytes(0x31 if 0x30 <= byte <= 0x39 else 0x30 for byte in range(256))
_LONG_RUN = b"1" * 16
_SUSPECT_TEXT = re.compile(rb"\x7f|\xc2[\x80-\x9f]|\\u00[0-1]|\\u00[89]|\\u007[fF]|\\u[dD][89a-fA-F]|\\[bf]")


# A body of plain values (no number written with a fraction or an exponent, no integer of 16
# digits, no suspect text) is read by orjson, about ten times faster than the standard library
# on arrays of numbers; its one leniency, a repeated key (it keeps the last), shows as fewer keys
# once the value is written again. Anything else, and anything orjson refuses, is read by the
# strict decoder below, which says what is wrong (docs/operations.md, "Request bodies").
_FRACTION = re.compile(rb"[0-9][.eE]")
_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"(\s*:)?')  # every string in order; the group: it is a key
NOT_PLAIN = Marker("not plain")


def _fraction(body: bytes) -> bool:
    """Whether a number may be written with a fraction or an exponent (a string holding a digit
    before a dot or an e says so too: the strict decoder then reads the body)."""
    if b"." not in body and b"e" not in body and b"E" not in body:
        return False
    return _FRACTION.search(body) is not None


def _keys(document: bytes) -> int:
    found = _STRING.findall(document)
    return len(found) - found.count(b"")


def plain_value(body: bytes) -> Any:
    """The value of a body of plain values, read fast; ``NOT_PLAIN`` when the strict decoder
    must read it."""
    if _fraction(body) or _long_integers(body) or _suspect_text(body):
        return NOT_PLAIN
    try:
        value = orjson.loads(body)
    except orjson.JSONDecodeError:
        return NOT_PLAIN
    if b":" in body and _keys(body) != _keys(orjson.dumps(value)):
        return NOT_PLAIN  # a key given twice
    return value


def _long_integers(body: bytes) -> bool:
    return _LONG_RUN in body.translate(_DIGIT_MAP)


def _suspect_text(body: bytes) -> bool:
    if b"\\" not in body and b"\x7f" not in body and b"\xc2" not in body:
        return False
    return _SUSPECT_TEXT.search(body) is not None


class StrictJSON:
    """One strict reading of a JSON body (docs/api.md, "Bad input"): the value (integers written
    with a fraction made integers), or where and why it breaks the rules, or ``not_json``.

    The bytes are decoded once by the standard library's C decoder, with a callback only per
    object (repeated keys), per number written with a fraction or an exponent and per
    ``NaN``/``Infinity``; C passes over the bytes say whether any integer or string could break
    a rule, and only then is the value walked, once, without building a path per value. A body
    of plain integers and ordinary strings (nearly every one) costs the decoder and two passes
    (docs/operations.md, "Request bodies")."""

    __slots__ = ("value", "problem", "not_json")

    def __init__(self, body: bytes) -> None:
        self.value: Any = None
        self.problem: tuple[str, str] | None = None
        self.not_json = False
        plain = plain_value(body)
        if plain is not NOT_PLAIN:
            self.value = plain
            return
        flagged = False

        def marked(name: str) -> Marker:
            nonlocal flagged
            flagged = True
            return _constant(name)

        def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
            nonlocal flagged
            made = _object(items)
            if type(made) is RepeatedKeys:
                flagged = True
            return made

        def fraction(text: str) -> float:
            """A number with a fraction or an exponent: refused when not finite, walked to be
            made an integer when it is one (``7.0``); any other float goes on as it is."""
            nonlocal flagged
            value = float(text)
            if not math.isfinite(value) or (value.is_integer() and abs(value) <= SAFE_INTEGER):
                flagged = True
            return value

        try:
            value = json.loads(body, parse_constant=marked, object_pairs_hook=pairs, parse_float=fraction)
        except (ValueError, RecursionError):  # not JSON (or not UTF-8): FastAPI's 400
            self.not_json = True
            return
        numbers = flagged or _long_integers(body)
        text = _suspect_text(body)
        if flagged or numbers or text:
            holder = [value]
            found = _scan(holder, text=text, numbers=numbers)
            value = holder[0]
            if found is not None:
                parts, problem = found
                self.problem = path_of(tuple(parts[1:])), problem
                return
        self.value = value


def _scan(holder: list[Any], *, text: bool, numbers: bool) -> tuple[list[str | int], str] | None:
    """The first value (in document order) the rules refuse, with its path from ``holder``;
    integral floats (``7.0``) replaced by their integers in place. Strings are looked at only
    with ``text``, numbers only with ``numbers`` (the bytes' scans said nothing could be wrong
    otherwise); markers and repeated keys always. Iterative: any depth the decoder took."""
    path: list[str | int] = []
    containers: list[Any] = [holder]
    frames: list[Iterator[tuple[Any, Any]]] = [enumerate(holder)]
    while frames:
        container = containers[-1]
        is_object = type(container) is not list
        for key, item in frames[-1]:
            if is_object and text:
                key_problem = text_problem(key)
                if key_problem is not None:
                    return path, KeyProblem(key, key_problem).problem
            kind = type(item)
            if kind is list or kind is dict or kind is RepeatedKeys:
                path.append(key if not is_object else _printable(key))
                if kind is RepeatedKeys:
                    return path, item.problem
                containers.append(item)
                frames.append(iter(item.items()) if kind is not list else enumerate(item))
                break
            if kind is str:
                problem = text_problem(item) if text else None
            elif kind is float:  # only with ``numbers``: a float is written with a fraction or an exponent
                problem, whole = _checked_float(item)
                if whole is not None:
                    container[key] = whole
            elif kind is int:
                problem = None
                if numbers and not -SAFE_INTEGER <= item <= SAFE_INTEGER:
                    shown = str(item) if len(str(item)) <= 24 else str(item)[:20] + "..."
                    problem = f"{shown} is beyond the integers JSON carries exactly (+/-{SAFE_INTEGER})"
            elif kind is Marker:
                problem = item.problem
            else:
                problem = None
            if problem is not None:
                return [*path, key if not is_object else _printable(key)], problem
        else:
            frames.pop()
            containers.pop()
            if path:
                path.pop()
    return None


def _checked_float(value: float) -> tuple[str | None, int | None]:
    """A decoded float's problem (not finite), or the integer it stands for (``7.0``)."""
    if not math.isfinite(value):
        return f"{value!r} is not a finite number", None
    if value.is_integer() and abs(value) <= SAFE_INTEGER:
        return None, int(value)
    return None, None


def is_json(scope: Mapping[str, Any]) -> bool:
    """Whether FastAPI will read this body as JSON: no content type, or application/(*+)json."""
    declared = _header(scope, b"content-type")
    if declared is None:
        return True
    message = Message()
    message["content-type"] = declared
    subtype = message.get_content_subtype()
    return message.get_content_maintype() == "application" and (subtype == "json" or subtype.endswith("+json"))


def _header(scope: Mapping[str, Any], name: bytes) -> str | None:
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
