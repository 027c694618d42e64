"""The handlers that turn every failure into the one JSON error shape (shared/errors.py):
domain errors with their own status, the framework's validation and HTTP errors, the store's
conflicts, and anything unexpected as a logged 500.
"""
from __future__ import annotations

import logging
import math
import reprlib
import sqlite3
from collections.abc import Sequence
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from shared.errors import DomainError, ErrorCode, Unavailable
from shared.store.availability import UNREACHABLE_CLASSES, unreachable
from shared.store.records import ConcurrencyError, GameNotFound, StreamNotFound, UnstorableText
from shared.text import text_problem

from .methods import allowed_methods

log = logging.getLogger("entente.errors")


def error_response(status: int, code: str, message: str, *, where: str | None = None,
                   details: Any = None, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse(DomainError(message, code=code, where=where, details=details).body(),
                        status_code=status, headers=headers)


def _location(loc: Sequence[str | int]) -> str:
    """``("body", "orders", 2)`` -> ``"body.orders[2]"``."""
    text = ""
    for part in loc:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text


def _bounded_repr(limit: int) -> reprlib.Repr:
    """A repr that looks at a bounded part of a value: the first few items of a container, two
    levels deep, ``limit`` characters of a string."""
    bounded = reprlib.Repr()
    bounded.maxlevel = 2
    bounded.maxlist = bounded.maxtuple = bounded.maxdict = bounded.maxset = bounded.maxfrozenset = 6
    bounded.maxstring = bounded.maxother = bounded.maxlong = limit
    return bounded


_BOUNDED = _bounded_repr(80)


def _short(value: Any, limit: int = 80) -> Any:
    """The offending input, safe to put in a JSON body and short: plain JSON scalars as they
    are, anything else (bytes, objects, long values, a number JSON cannot carry, a string that
    is not text) as a truncated repr. The body gate (body.py) refuses such values before a
    route sees them; this keeps the handler from failing if one comes another way. The repr
    looks at a bounded part of the value: a body of 340,000 numbers where an object belongs
    cost a whole repr of them, most of the time its 422 took (docs/operations.md, "Request
    bodies")."""
    if isinstance(value, (bool, int, type(None))) or (isinstance(value, float) and math.isfinite(value)):
        return value
    if isinstance(value, str) and len(value) <= limit and text_problem(value) is None:
        return value
    if isinstance(value, (str, bytes, bytearray)):
        text = ascii(value[:limit + 1])
    else:
        text = (_BOUNDED if limit == 80 else _bounded_repr(limit)).repr(value)
        text = text.encode("ascii", "backslashreplace").decode("ascii")
    return text if len(text) <= limit else text[:limit] + "..."


def _safe(text: str) -> str:
    """A message or location that a JSON response can carry whatever it quotes."""
    return text if text_problem(text) is None else ascii(text)[1:-1]


async def _domain_error(_: Request, exc: DomainError) -> JSONResponse:
    headers = {"WWW-Authenticate": "Bearer"} if exc.status_code == 401 else None
    if exc.retry_after is not None:
        headers = {"Retry-After": str(exc.retry_after)}
    return JSONResponse(exc.body(), status_code=exc.status_code, headers=headers)


async def _validation_error(_: Request, exc: RequestValidationError) -> JSONResponse:
    errors = exc.errors()
    if any(e.get("type") == "json_invalid" for e in errors):
        first = next(e for e in errors if e.get("type") == "json_invalid")
        reason = (first.get("ctx") or {}).get("error", "invalid JSON")
        return error_response(400, ErrorCode.MALFORMED_JSON, f"the request body is not valid JSON: {reason}",
                              where="body")
    if any(tuple(e.get("loc", ())) == ("body",) and isinstance(e.get("input"), (bytes, bytearray)) for e in errors):
        return error_response(415, ErrorCode.UNSUPPORTED_MEDIA_TYPE,
                              "the request body must be JSON, sent with content-type: application/json",
                              where="header.content-type")
    details = [{"where": _safe(_location(e.get("loc", ()))), "message": _safe(str(e.get("msg", ""))),
                "input": _short(e.get("input"))} for e in errors]
    first = details[0] if details else {"where": "request", "message": "invalid request"}
    return error_response(422, ErrorCode.INVALID_REQUEST, f"{first['where']}: {first['message']}",
                          where=first["where"], details=details)


async def _http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
    codes = {404: ErrorCode.NOT_FOUND, 405: ErrorCode.METHOD_NOT_ALLOWED, 400: ErrorCode.BAD_REQUEST,
             413: ErrorCode.TOO_LARGE}
    message = exc.detail if isinstance(exc.detail, str) else "request failed"
    headers = dict(getattr(exc, "headers", None) or {})
    if exc.status_code == 405:  # every method of the path, not only the first route's
        allowed = allowed_methods(request.app.router.routes, dict(request.scope))
        headers["Allow"] = ", ".join(allowed)
        message = f"{request.method} is not served here; this path serves {', '.join(allowed)}"
    return error_response(exc.status_code, codes.get(exc.status_code, ErrorCode.HTTP_ERROR), message,
                          headers=headers or None)


async def _concurrency_error(_: Request, exc: ConcurrencyError) -> JSONResponse:
    return error_response(409, ErrorCode.CONCURRENT_UPDATE,
                          "the game changed while this request ran; read it again and retry",
                          details={"stream": exc.stream_id})


async def _unstorable(_: Request, exc: UnstorableText) -> JSONResponse:
    """Text the store keeps on neither back end that reached it another way than a JSON body
    (the body gate names the field of a body; here the stored field is named instead)."""
    return error_response(422, ErrorCode.INVALID_REQUEST, f"{exc.where}: {exc.problem}", where="request",
                          details=[{"where": exc.where, "message": exc.problem}])


async def _missing_game(_: Request, exc: GameNotFound | StreamNotFound) -> JSONResponse:
    return error_response(404, ErrorCode.GAME_NOT_FOUND, str(exc), where="path.game_id")


def unavailable_response() -> JSONResponse:
    error = Unavailable()
    return JSONResponse(error.body(), status_code=error.status_code, headers={"Retry-After": str(error.retry_after)})


async def _unexpected(_: Request, exc: Exception) -> JSONResponse:
    if unreachable(exc):  # not a bug: the database is away (shared/store/availability.py)
        log.warning("database unreachable", extra={"error": type(exc).__name__})
        return unavailable_response()
    log.exception("unexpected error", exc_info=exc)
    return error_response(500, ErrorCode.INTERNAL_ERROR, "an unexpected error occurred; it has been logged")


def install_error_handlers(app: FastAPI) -> None:
    # Starlette types a handler as taking any Exception; these take the narrower one they handle.
    app.add_exception_handler(DomainError, _domain_error)  # type: ignore[arg-type]  # narrower
    app.add_exception_handler(RequestValidationError, _validation_error)  # type: ignore[arg-type]  # narrower
    app.add_exception_handler(StarletteHTTPException, _http_error)  # type: ignore[arg-type]  # narrower
    app.add_exception_handler(ConcurrencyError, _concurrency_error)  # type: ignore[arg-type]  # narrower
    app.add_exception_handler(UnstorableText, _unstorable)  # type: ignore[arg-type]  # narrower
    app.add_exception_handler(GameNotFound, _missing_game)  # type: ignore[arg-type]  # narrower
    app.add_exception_handler(StreamNotFound, _missing_game)  # type: ignore[arg-type]  # narrower
    # the ones raised inside a route are answered here, without a traceback in the log; those
    # raised in a middleware reach the last handler, which answers them the same way
    for unreachable_class in (*UNREACHABLE_CLASSES, sqlite3.OperationalError):
        app.add_exception_handler(unreachable_class, _unexpected)
    app.add_exception_handler(Exception, _unexpected)
