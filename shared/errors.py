"""Domain errors that carry their HTTP status and a machine code: the one JSON shape of every
failure is ``{"error": {"code", "message", "where"?, "details"?}}``.

The rules' callers, the game core and the services raise these; shared/http/errors.py turns
them (and the framework's own failures) into responses. Nothing here knows the web framework.
"""
from __future__ import annotations

from typing import Any


class DomainError(Exception):
    """A failure the caller can act on; subclasses fix the status and a default code."""

    status_code = 400
    code = "bad_request"
    retry_after: int | None = None  # seconds: sent as Retry-After (429, 503)

    def __init__(self, message: str, *, code: str | None = None, where: str | None = None,
                 details: Any = None) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code
        self.where = where
        self.details = details

    def body(self) -> dict:
        error: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.where is not None:
            error["where"] = self.where
        if self.details is not None:
            error["details"] = self.details
        return {"error": error}


class BadRequest(DomainError):
    status_code = 400
    code = "bad_request"


class Unauthorized(DomainError):
    status_code = 401
    code = "unauthorized"


class Forbidden(DomainError):
    status_code = 403
    code = "forbidden"


class NotFound(DomainError):
    status_code = 404
    code = "not_found"


class Conflict(DomainError):
    status_code = 409
    code = "conflict"


class Unprocessable(DomainError):
    status_code = 422
    code = "unprocessable"


class TooManyRequests(DomainError):
    """429: the caller has done this too often; ``retry_after`` (seconds) goes out as the
    ``Retry-After`` header."""

    status_code = 429
    code = "too_many_requests"

    def __init__(self, message: str, *, retry_after: int, code: str | None = None, where: str | None = None,
                 details: Any = None) -> None:
        super().__init__(message, code=code, where=where, details=details)
        self.retry_after = max(1, retry_after)


class Unavailable(DomainError):
    """503: the database cannot be reached just now (shared/store/availability.py); nothing
    was done, the caller retries after ``retry_after`` seconds."""

    status_code = 503
    code = "unavailable"
    retry_after = 5

    def __init__(self, message: str = "the database cannot be reached just now; retry shortly", *,
                 where: str | None = "store") -> None:
        super().__init__(message, where=where)
