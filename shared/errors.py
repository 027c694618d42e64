"""Domain errors that carry their HTTP status and a machine code: the one JSON shape of every
failure is ``{"error": {"code", "message", "where"?, "details"?}}``.

The rules' callers, the game core and the services raise these; shared/http/errors.py turns
them (and the framework's own failures) into responses. Nothing here knows the web framework.
"""
from __future__ import annotations

from enum import StrEnum
from typing import Any, NotRequired, TypedDict


class ErrorCode(StrEnum):
    """Every machine code an answer's ``error.code`` can hold (docs/api.md, "Errors", has each
    one's status and meaning): the OpenAPI document lists them (the ``ErrorCode`` schema), and
    tests/http/test_error_codes.py checks that every code raised anywhere is one of them. A
    member is its string, so a code written as a string literal still compares equal."""

    ALREADY_PAUSED_THIS_PHASE = "already_paused_this_phase"
    ALREADY_SEATED = "already_seated"
    API_KEY_NOT_FOUND = "api_key_not_found"
    BAD_REQUEST = "bad_request"
    BODY_TOO_LARGE = "body_too_large"
    BOT_TOKEN_NOT_FOUND = "bot_token_not_found"
    BOTS_NOT_ALLOWED = "bots_not_allowed"
    CLOCK_OUT_OF_BOUNDS = "clock_out_of_bounds"
    CONCESSIONS_DISABLED = "concessions_disabled"
    CONCURRENT_UPDATE = "concurrent_update"
    CONFLICT = "conflict"
    DEADLINE_PASSED = "deadline_passed"
    EXTENSION_TOO_LONG = "extension_too_long"
    FORBIDDEN = "forbidden"
    GAME_FINISHED = "game_finished"
    GAME_FULL = "game_full"
    GAME_NOT_FOUND = "game_not_found"
    GAME_NOT_STARTED = "game_not_started"
    GAME_PAUSED = "game_paused"
    GAME_STARTED = "game_started"
    HOST_MAY_NOT_RESOLVE = "host_may_not_resolve"
    HTTP_ERROR = "http_error"
    IDENTITIES_HIDDEN = "identities_hidden"
    INTERNAL_ERROR = "internal_error"
    INVALID_CODE = "invalid_code"
    INVALID_CURSOR = "invalid_cursor"
    INVALID_INVITE_CODE = "invalid_invite_code"
    INVALID_LAST_EVENT_ID = "invalid_last_event_id"
    INVALID_PHASE = "invalid_phase"
    INVALID_REQUEST = "invalid_request"
    INVALID_STATE = "invalid_state"
    INVALID_TICKET = "invalid_ticket"
    INVALID_TOKEN = "invalid_token"
    INVALID_WEBHOOK = "invalid_webhook"
    INVITE_REQUIRED = "invite_required"
    MALFORMED_JSON = "malformed_json"
    METHOD_NOT_ALLOWED = "method_not_allowed"
    METRICS_NOT_ALLOWED = "metrics_not_allowed"
    NOT_SURVIVING = "not_surviving"
    NO_POWER = "no_power"
    NO_RECIPIENT = "no_recipient"
    NOT_ENOUGH_PLAYERS = "not_enough_players"
    NOT_FOUND = "not_found"
    NOT_PAUSED = "not_paused"
    NOT_YOUR_POWER = "not_your_power"
    NOTHING_SUBMITTED = "nothing_submitted"
    NOTHING_TO_ORDER = "nothing_to_order"
    OAUTH_DENIED = "oauth_denied"
    OAUTH_REFUSED = "oauth_refused"
    ORDERS_REJECTED = "orders_rejected"
    OUT_OF_SCOPE = "out_of_scope"
    PARTIAL_DRAWS_DISABLED = "partial_draws_disabled"
    PAUSE_TOO_LONG = "pause_too_long"
    PHASE_ALREADY_RESOLVED = "phase_already_resolved"
    PHASE_NOT_FOUND = "phase_not_found"
    PNG_UNAVAILABLE = "png_unavailable"
    POWER_ELIMINATED = "power_eliminated"
    POWER_REQUIRED = "power_required"
    PRESS_DISABLED = "press_disabled"
    PRIVATE_PRESS_DISABLED = "private_press_disabled"
    PROVIDER_ERROR = "provider_error"
    RATE_LIMITED = "rate_limited"
    RENDER_QUEUE_FULL = "render_queue_full"
    REQUEST_TIMEOUT = "request_timeout"
    SEAT_NOT_FOUND = "seat_not_found"
    SEAT_REMOVED = "seat_removed"
    SESSION_REQUIRED = "session_required"
    SIGN_IN_UNAVAILABLE = "sign_in_unavailable"
    TICKET_AND_TOKEN = "ticket_and_token"
    TOKEN_IN_URL = "token_in_url"
    TOKEN_REQUIRED = "token_required"
    TOO_LARGE = "too_large"
    TOO_MANY_API_KEYS = "too_many_api_keys"
    TOO_MANY_BOT_TOKENS = "too_many_bot_tokens"
    TOO_MANY_CONNECTIONS = "too_many_connections"
    TOO_MANY_ORDER_WRITES = "too_many_order_writes"
    TOO_MANY_REQUESTS = "too_many_requests"
    TOO_MANY_STREAMS = "too_many_streams"
    UNAUTHORIZED = "unauthorized"
    UNAVAILABLE = "unavailable"
    UNKNOWN_MESSAGE = "unknown_message"
    UNKNOWN_POWER = "unknown_power"
    UNKNOWN_UNIT = "unknown_unit"
    UNPROCESSABLE = "unprocessable"
    UNSUPPORTED_MEDIA_TYPE = "unsupported_media_type"
    UNSUPPORTED_PLAYER_COUNT = "unsupported_player_count"
    UNSUPPORTED_SETTING = "unsupported_setting"
    UNSUPPORTED_VARIANT = "unsupported_variant"
    VARIANT_NOT_FOUND = "variant_not_found"
    WEBHOOK_NOT_FOUND = "webhook_not_found"
    PUSH_UNAVAILABLE = "push_unavailable"
    PUSH_NOT_FOUND = "push_not_found"
    INVALID_PUSH_SUBSCRIPTION = "invalid_push_subscription"
    EMAIL_UNAVAILABLE = "email_unavailable"
    EMAIL_NOT_FOUND = "email_not_found"
    INVALID_EMAIL = "invalid_email"
    WRONG_EMAIL_CODE = "wrong_email_code"
    TOO_MANY_SUBSCRIPTIONS = "too_many_subscriptions"
    WRONG_PHASE = "wrong_phase"
    WRONG_ROLE = "wrong_role"


class ErrorJSON(TypedDict):
    """One error as every answer writes it (docs/api.md, "Errors")."""

    code: str
    message: str
    where: NotRequired[str]  # the part of the request that was wrong: body.orders[2], query.power
    details: NotRequired[Any]  # what the code's answers add (the rejected orders, the limits...)


class ErrorBody(TypedDict):
    error: ErrorJSON


class DomainError(Exception):
    """A failure the caller can act on; subclasses fix the status and a default code."""

    status_code = 400
    code: str = ErrorCode.BAD_REQUEST  # (a string literal still passes: ErrorCode is a StrEnum)
    retry_after: int | None = None  # seconds: sent as Retry-After (429, 503)

    def __init__(self, message: str, *, code: str | None = None, where: str | None = None,
                 details: Any = None) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code
        self.where = where
        self.details = details

    def body(self) -> ErrorBody:
        error: ErrorJSON = {"code": self.code, "message": self.message}
        if self.where is not None:
            error["where"] = self.where
        if self.details is not None:
            error["details"] = self.details
        return {"error": error}


class BadRequest(DomainError):
    status_code = 400
    code = ErrorCode.BAD_REQUEST


class Unauthorized(DomainError):
    status_code = 401
    code = ErrorCode.UNAUTHORIZED


class Forbidden(DomainError):
    status_code = 403
    code = ErrorCode.FORBIDDEN


class NotFound(DomainError):
    status_code = 404
    code = ErrorCode.NOT_FOUND


class Conflict(DomainError):
    status_code = 409
    code = ErrorCode.CONFLICT


class Unprocessable(DomainError):
    status_code = 422
    code = ErrorCode.UNPROCESSABLE


class TooManyRequests(DomainError):
    """429: the caller has done this too often; ``retry_after`` (seconds) goes out as the
    ``Retry-After`` header."""

    status_code = 429
    code = ErrorCode.TOO_MANY_REQUESTS

    def __init__(self, message: str, *, retry_after: int, code: str | None = None, where: str | None = None,
                 details: Any = None) -> None:
        super().__init__(message, code=code, where=where, details=details)
        self.retry_after = max(1, retry_after)


class Unavailable(DomainError):
    """503: the database cannot be reached just now (shared/store/availability.py); nothing
    was done, the caller retries after ``retry_after`` seconds."""

    status_code = 503
    code = ErrorCode.UNAVAILABLE
    retry_after = 5

    def __init__(self, message: str = "the database cannot be reached just now; retry shortly", *,
                 where: str | None = "store") -> None:
        super().__init__(message, where=where)
