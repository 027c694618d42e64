"""The OpenAPI document a generated client can trust (docs/api.md, "The OpenAPI document").

FastAPI writes the routes, their parameters, bodies and answers from the pydantic models; this
module adds what it cannot know:

- every route's real error answers: the one error shape (``Error``) under each status the route
  can answer with, the codes it uses there listed in the description and in ``x-error-codes``
  (``code`` is one of the ``ErrorCode`` schema, every code of shared/errors.py's ``ErrorCode``);
  FastAPI's own 422 shape, which the API never sends, is replaced by it;
- the ``bearer`` security scheme (the Authorize button of ``/docs``), required where a route
  needs a token and optional (``[{"bearer": []}, {}]``) where a token only changes what is seen.

The codes of each route are written in ``ROUTE_ERRORS`` below, in one place;
tests/http/test_openapi.py plays games over HTTP and checks every answer against the document,
codes included, and that every route has its entry here.
"""
from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi
from pydantic import BaseModel, Field
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from shared.errors import ErrorCode
from shared.http.caching import cached_answer
from shared.http.constraints import constrain
from shared.http.models import ABSENT_WHEN_NULL
from shared.http.orders_doc import add_order_unions
from shared.http.presence import require_present_keys
from shared.json_types import JsonObject, as_object, object_at, object_items, object_kept, objects

BEARER = "bearer"
BEARER_DESCRIPTION = (
    "Authorization: Bearer <token>. A host token (POST /games), a player token (POST /games/{id}/players), "
    "an account's session token (s.…, GET /auth/callback), a bot token (b.…, POST /games/{id}/bot-tokens) "
    "or the operator's token (ENTENTE_OPERATOR_TOKEN); each route says which it takes.")


class ErrorDetail(BaseModel):
    code: ErrorCode = Field(..., description=(
        "a machine code (docs/api.md, \"Errors\"): the codes of each answer are listed with it (x-error-codes)"))
    message: str = Field(..., description="what went wrong, for people")
    where: str | None = Field(None, description="the part of the request at fault: body.orders[0], query.phase, ...",
                              json_schema_extra={ABSENT_WHEN_NULL: True})
    details: Any = Field(None, description="more, where the code says so (each order's check for orders_rejected)",
                         json_schema_extra={ABSENT_WHEN_NULL: True})


class Error(BaseModel):
    """Every failure, whatever its cause (shared/errors.py)."""

    error: ErrorDetail


STATUS_OF: dict[str, int] = {
    **dict.fromkeys(("malformed_json", "bad_request", "invalid_cursor", "invalid_last_event_id", "invalid_state",
                     "invalid_code", "token_in_url", "ticket_and_token"), 400),
    **dict.fromkeys(("token_required", "invalid_token", "unauthorized", "oauth_refused", "oauth_denied",
                     "invalid_ticket"), 401),
    **dict.fromkeys(("session_required", "bots_not_allowed", "invite_required", "invalid_invite_code",
                     "seat_removed"), 403),
    "seat_not_found": 404,
    **dict.fromkeys(("push_unavailable", "push_not_found", "email_unavailable", "email_not_found"), 404),
    "too_many_subscriptions": 409,
    **dict.fromkeys(("invalid_push_subscription", "invalid_email", "wrong_email_code"), 422),
    "api_key_not_found": 404,
    "too_many_api_keys": 409,
    **dict.fromkeys(("wrong_role", "not_your_power", "no_power", "out_of_scope", "host_may_not_resolve",
                     "identities_hidden", "press_disabled", "private_press_disabled", "metrics_not_allowed",
                     "partial_draws_disabled", "concessions_disabled"), 403),
    **dict.fromkeys(("game_not_found", "variant_not_found", "phase_not_found", "bot_token_not_found",
                     "webhook_not_found", "sign_in_unavailable", "not_found"), 404),
    **dict.fromkeys(("too_large", "body_too_large"), 413),
    "unsupported_media_type": 415,
    **dict.fromkeys(("game_not_started", "game_started", "game_full", "not_enough_players", "game_finished",
                     "nothing_to_order", "wrong_phase", "phase_already_resolved", "concurrent_update",
                     "deadline_passed", "game_paused", "not_paused", "extension_too_long", "pause_too_long",
                     "already_paused_this_phase", "nothing_submitted", "power_eliminated", "already_seated",
                     "too_many_bot_tokens"), 409),
    **dict.fromkeys(("invalid_request", "orders_rejected", "unsupported_variant", "unsupported_player_count",
                     "unsupported_setting", "unknown_power", "clock_out_of_bounds", "power_required",
                     "invalid_phase", "unknown_unit", "invalid_webhook", "no_recipient", "unknown_message",
                     "not_surviving"), 422),
    "too_many_order_writes": 429,
    "internal_error": 500,
    "provider_error": 502,
    "png_unavailable": 503,
    "render_queue_full": 503,
    "unavailable": 503,
    "too_many_streams": 429,
    "rate_limited": 429,
}

BODY = ("malformed_json", "unsupported_media_type", "too_large", "body_too_large", "invalid_request")
PARAMS = ("invalid_request",)
GAME = ("game_not_found",)
ANY_TOKEN = ("invalid_token", "unauthorized", "out_of_scope")  # a token sent where one may be sent
NEEDS_TOKEN = (*ANY_TOKEN, "token_required", "wrong_role")
ORDERS = ("rate_limited", "game_not_started", "game_finished", "nothing_to_order", "wrong_phase", "deadline_passed",
          "not_your_power", "power_required", "no_power", "unknown_power", "too_many_order_writes")
SEES = ("not_your_power", "unknown_power")

# (method, path) -> the codes of the route, beyond internal_error (every route may answer 500)
ROUTE_ERRORS: dict[tuple[str, str], tuple[str, ...]] = {
    ("get", "/healthz"): (),
    ("get", "/livez"): (),
    # the lobby
    ("post", "/games"): (*BODY, "rate_limited", "unsupported_variant", "unsupported_player_count",
                         "unsupported_setting", "clock_out_of_bounds"),
    ("get", "/games"): (*PARAMS, *ANY_TOKEN, "invalid_cursor"),
    ("get", "/games/{game_id}"): GAME,
    ("post", "/games/{game_id}/players"): (*GAME, *ANY_TOKEN, *BODY, "rate_limited", "game_full", "game_started",
                                           "game_finished", "already_seated", "bots_not_allowed", "invite_required",
                                           "invalid_invite_code", "seat_removed"),
    ("delete", "/games/{game_id}/players/{seat}"): (*GAME, *NEEDS_TOKEN, *PARAMS, "seat_not_found", "game_started",
                                                    "game_finished"),
    ("post", "/games/{game_id}/start"): (*GAME, *NEEDS_TOKEN, "not_enough_players", "game_started",
                                         "game_finished"),
    ("post", "/games/{game_id}/finish"): (*GAME, *NEEDS_TOKEN, *BODY, "game_finished"),
    ("post", "/games/{game_id}/extend"): (*GAME, *NEEDS_TOKEN, *BODY, "game_not_started", "game_finished",
                                          "deadline_passed", "game_paused", "extension_too_long"),
    ("post", "/games/{game_id}/pause"): (*GAME, *NEEDS_TOKEN, *BODY, "game_not_started", "game_finished",
                                         "deadline_passed", "game_paused", "pause_too_long",
                                         "already_paused_this_phase"),
    ("post", "/games/{game_id}/resume"): (*GAME, *NEEDS_TOKEN, "game_not_started", "game_finished", "not_paused"),
    ("post", "/games/{game_id}/draw"): (*GAME, *NEEDS_TOKEN, *BODY, "game_not_started", "game_finished",
                                        "power_eliminated", "no_power", "partial_draws_disabled", "unknown_power",
                                        "not_surviving"),
    ("post", "/games/{game_id}/concede"): (*GAME, *NEEDS_TOKEN, *BODY, "game_not_started", "game_finished",
                                           "power_eliminated", "no_power", "concessions_disabled", "unknown_power",
                                           "not_surviving"),
    ("get", "/games/{game_id}/draw"): (*GAME, *NEEDS_TOKEN),
    # orders and resolution
    ("put", "/games/{game_id}/orders"): (*GAME, *NEEDS_TOKEN, *BODY, *ORDERS, "orders_rejected", "concurrent_update"),
    ("patch", "/games/{game_id}/orders"): (*GAME, *NEEDS_TOKEN, *BODY, *ORDERS, "orders_rejected", "unknown_unit",
                                           "concurrent_update"),
    ("post", "/games/{game_id}/ready"): (*GAME, *NEEDS_TOKEN, *BODY, *ORDERS, "nothing_submitted"),
    ("delete", "/games/{game_id}/ready"): (*GAME, *NEEDS_TOKEN, *BODY, *ORDERS, "nothing_submitted"),
    ("post", "/games/{game_id}/resolve"): (*GAME, *NEEDS_TOKEN, *BODY, "host_may_not_resolve", "game_not_started",
                                           "game_finished", "wrong_phase", "phase_already_resolved",
                                           "concurrent_update"),
    ("get", "/games/{game_id}/possible-orders"): (*GAME, *NEEDS_TOKEN, *PARAMS, "game_not_started", "game_finished",
                                                  "not_your_power", "power_required", "no_power", "unknown_power"),
    # views, the log, the stream, maps
    ("get", "/games/{game_id}/view"): (*GAME, *ANY_TOKEN, *PARAMS, *SEES, "invalid_phase", "phase_not_found"),
    ("get", "/games/{game_id}/events"): (*GAME, *NEEDS_TOKEN),
    ("get", "/games/{game_id}/stream"): (*GAME, *ANY_TOKEN, *PARAMS, *SEES, "invalid_last_event_id", "token_in_url",
                                         "ticket_and_token", "invalid_ticket", "too_many_streams",
                                         "rate_limited"),
    ("post", "/games/{game_id}/stream-ticket"): (*GAME, *ANY_TOKEN),
    ("get", "/variants"): (),
    ("get", "/variants/{name}"): (*PARAMS, "variant_not_found"),
    ("get", "/variants/{name}/map.svg"): (*PARAMS, "variant_not_found"),
    ("get", "/games/{game_id}/map.svg"): (*GAME, *ANY_TOKEN, *PARAMS, *SEES, "invalid_phase", "phase_not_found",
                                          "game_not_started", "render_queue_full"),
    ("get", "/games/{game_id}/map.png"): (*GAME, *ANY_TOKEN, *PARAMS, *SEES, "invalid_phase", "phase_not_found",
                                          "game_not_started", "png_unavailable", "render_queue_full"),
    # accounts
    ("get", "/auth/options"): (),
    ("get", "/auth/login"): ("sign_in_unavailable",),
    ("get", "/auth/callback"): (*PARAMS, "invalid_state", "invalid_code", "oauth_refused", "oauth_denied",
                                "provider_error", "sign_in_unavailable"),
    ("post", "/auth/logout"): (*NEEDS_TOKEN, "session_required"),
    ("post", "/me/api-keys"): (*NEEDS_TOKEN, *BODY, "session_required", "too_many_api_keys"),
    ("get", "/me/api-keys"): (*NEEDS_TOKEN, "session_required"),
    ("delete", "/me/api-keys/{key_id}"): (*NEEDS_TOKEN, *PARAMS, "session_required", "api_key_not_found"),
    ("get", "/me"): NEEDS_TOKEN,
    ("get", "/me/games"): NEEDS_TOKEN,
    ("get", "/me/stream"): (*NEEDS_TOKEN, *PARAMS, "too_many_streams"),
    ("post", "/games/{game_id}/bot-tokens"): (*GAME, *NEEDS_TOKEN, *BODY, "too_many_bot_tokens", "game_finished",
                                              "power_eliminated"),
    ("get", "/games/{game_id}/bot-tokens"): (*GAME, *NEEDS_TOKEN),
    ("delete", "/games/{game_id}/bot-tokens/{token_id}"): (*GAME, *NEEDS_TOKEN, *PARAMS, "bot_token_not_found"),
    ("get", "/games/{game_id}/identities"): (*GAME, *ANY_TOKEN, "identities_hidden"),
    ("get", "/games/{game_id}/seats"): (*GAME, *ANY_TOKEN),
    # press and notifications
    ("post", "/games/{game_id}/messages"): (*GAME, *NEEDS_TOKEN, *BODY, "rate_limited", "press_disabled",
                                            "private_press_disabled", "game_not_started", "game_finished",
                                            "power_eliminated", "unknown_power",
                                            "no_recipient", "not_your_power", "no_power"),
    ("get", "/games/{game_id}/messages"): (*GAME, *ANY_TOKEN, *PARAMS, "invalid_cursor"),
    ("get", "/games/{game_id}/conversations"): (*GAME, *ANY_TOKEN),
    ("get", "/games/{game_id}/conversations/{conversation}/messages"): (
        *GAME, *ANY_TOKEN, *PARAMS, "invalid_cursor", "unknown_power", "no_recipient"),
    ("post", "/games/{game_id}/conversations/{conversation}/messages"): (
        *GAME, *NEEDS_TOKEN, *BODY, *PARAMS, "rate_limited", "press_disabled", "private_press_disabled",
        "game_not_started", "game_finished", "power_eliminated", "unknown_power", "no_recipient", "not_your_power",
        "no_power"),
    ("post", "/games/{game_id}/conversations/{conversation}/read"): (
        *GAME, *NEEDS_TOKEN, *BODY, *PARAMS, "unknown_power", "no_recipient", "unknown_message"),
    ("put", "/games/{game_id}/webhook"): (*GAME, *NEEDS_TOKEN, *BODY, "invalid_webhook", "game_finished",
                                         "power_eliminated"),
    ("get", "/games/{game_id}/webhook"): (*GAME, *NEEDS_TOKEN),
    ("delete", "/games/{game_id}/webhook"): (*GAME, *NEEDS_TOKEN, "webhook_not_found"),
    ("put", "/games/{game_id}/channel-webhook"): (*GAME, *NEEDS_TOKEN, *BODY, "invalid_webhook", "game_finished"),
    ("get", "/games/{game_id}/channel-webhook"): (*GAME, *NEEDS_TOKEN),
    ("delete", "/games/{game_id}/channel-webhook"): (*GAME, *NEEDS_TOKEN, "webhook_not_found"),
    ("get", "/push/key"): ("push_unavailable",),
    ("put", "/games/{game_id}/push"): (*GAME, *NEEDS_TOKEN, *BODY, "push_unavailable", "invalid_push_subscription",
                                      "too_many_subscriptions", "game_finished", "power_eliminated"),
    ("get", "/games/{game_id}/push"): (*GAME, *NEEDS_TOKEN),
    ("delete", "/games/{game_id}/push"): (*GAME, *NEEDS_TOKEN, *PARAMS, "push_not_found"),
    ("put", "/games/{game_id}/email"): (*GAME, *NEEDS_TOKEN, *BODY, "email_unavailable", "invalid_email",
                                       "game_finished", "power_eliminated"),
    ("get", "/games/{game_id}/email"): (*GAME, *NEEDS_TOKEN, "email_unavailable"),
    ("post", "/games/{game_id}/email/confirm"): (*GAME, *NEEDS_TOKEN, *BODY, "email_unavailable", "email_not_found",
                                                "wrong_email_code"),
    ("delete", "/games/{game_id}/email"): (*GAME, *NEEDS_TOKEN, "email_not_found"),
}
# routes where a token is optional: it changes what the caller sees (or links a seat to an account)
OPTIONAL_TOKEN = {("post", "/games/{game_id}/players"), ("get", "/games/{game_id}/view"),
                  ("post", "/games/{game_id}/stream-ticket"),
                  ("get", "/games/{game_id}/stream"), ("get", "/games/{game_id}/map.svg"),
                  ("get", "/games/{game_id}/map.png"), ("get", "/games/{game_id}/identities"),
                  ("get", "/games/{game_id}/messages"), ("get", "/games/{game_id}/seats"),
                  ("get", "/games/{game_id}/conversations"),
                  ("get", "/games/{game_id}/conversations/{conversation}/messages")}
METHODS = ("get", "put", "post", "delete", "patch")


def error_responses(codes: Iterable[str]) -> dict[str, JsonObject]:
    """The error answers of a route with these codes: one per status, the codes listed. Every
    route may answer 500, 503 ``unavailable`` while the database cannot be reached
    (shared/store/availability.py), and 403 ``out_of_scope`` to a bot token sent outside its
    own game (shared/http/middleware.py)."""
    by_status: dict[int, list[str]] = {}
    for code in dict.fromkeys([*codes, "out_of_scope", "internal_error", "unavailable"]):
        by_status.setdefault(STATUS_OF[code], []).append(code)
    return {str(status): {"description": "error: " + ", ".join(found), "x-error-codes": [*found],
                          "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}
            for status, found in sorted(by_status.items())}


def _error_schemas() -> JsonObject:
    schema: JsonObject = Error.model_json_schema(ref_template="#/components/schemas/{model}")
    found = dict(as_object(schema.pop("$defs", {}), "$defs"))
    found["Error"] = schema
    return found


# answers that are not JSON, as a generated client must read them: pictures as bytes, the log's
# JSON Lines and the stream's events as text
MEDIA_SCHEMAS: dict[str, JsonObject] = {
    "image/png": {"type": "string", "format": "binary"},
    "image/svg+xml": {"type": "string", "format": "binary"},
    "application/x-ndjson": {"type": "string", "description": "one JSON event a line (docs/api.md, \"Events\")"},
    "text/event-stream": {"type": "string", "description": "server-sent events (docs/social.md, \"The stream\")"},
}


REQUEST_ID: JsonObject = {"description": "the request's id, as in the server's logs (sent in X-Request-ID, or made up)",
              "schema": {"type": "string"}}
RETRY_AFTER: JsonObject = {"description": "seconds to wait before asking again",
                           "schema": {"type": "integer", "minimum": 1}}


def _headers(responses: JsonObject) -> None:
    """The headers every answer carries, and Retry-After where an answer says to wait."""
    for status, response in responses.items():
        headers = object_kept(as_object(response, status), "headers")
        headers.setdefault("X-Request-ID", REQUEST_ID)
        if status in ("429", "503"):
            headers.setdefault("Retry-After", RETRY_AFTER)


def _type_media(responses: JsonObject) -> None:
    """Give each non-JSON answer its schema, so that a client reads bytes or text by it."""
    for response in objects(responses.values()):
        for media, content in object_at(response, "content").items():
            if media in MEDIA_SCHEMAS and isinstance(content, dict) and "schema" not in content:
                content["schema"] = dict(MEDIA_SCHEMAS[media])


# what a service adds to the document beyond its routes (the stream's events, the webhooks'
# payloads): functions of the whole document, run last
DOCUMENT_ADDITIONS: list[Callable[[JsonObject], None]] = []


def complete(schema: JsonObject) -> JsonObject:
    """FastAPI's document with the error answers and the security of every route."""
    components = object_kept(schema, "components")
    schemas = object_kept(components, "schemas")
    for framework_only in ("HTTPValidationError", "ValidationError"):
        schemas.pop(framework_only, None)
    schemas.update(_error_schemas())
    object_kept(components, "securitySchemes")[BEARER] = {"type": "http", "scheme": "bearer",
                                                            "description": BEARER_DESCRIPTION}
    for path, item in object_at(schema, "paths").items():
        for method in METHODS:
            operation = as_object(item, path).get(method)
            if not isinstance(operation, dict):
                continue
            responses = object_kept(operation, "responses")
            responses.pop("422", None)  # FastAPI's own shape; ours comes below when the route can give it
            _type_media(responses)
            codes = ROUTE_ERRORS.get((method, path))
            if codes is None:  # a route this table does not know yet: at least the shapes it surely has
                codes = (*BODY, *PARAMS) if "requestBody" in operation or operation.get("parameters") else ()
            responses.update(error_responses(codes))
            _headers(responses)
            if (method, path) in OPTIONAL_TOKEN:
                operation["security"] = [{BEARER: []}, {}]
            elif "security" in operation:
                operation["security"] = [{BEARER: []}]
    add_order_unions(schemas)
    for addition in DOCUMENT_ADDITIONS:
        addition(schema)
    constrain(schema)
    require_present_keys(schema)
    title_apart_from_keys(schemas)
    return schema


def _snake(name: str) -> str:
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name).lower()


def title_apart_from_keys(schemas: JsonObject) -> None:
    """A schema titled like one of its own keys (``Error``'s ``error``, ``Identities``'
    ``identities``) is titled ``<Name>Answer``: openapi-python-client names the model's local
    variable after the model, which then hides the key's value and fails ``mypy --strict``
    (docs/api.md, "Generated clients"). The schema's name in ``components`` stays."""
    for name, schema in object_items(schemas):
        title = schema.get("title", name)
        if isinstance(title, str) and _snake(title) in {_snake(key) for key in object_at(schema, "properties")}:
            schema["title"] = f"{title}Answer"


def install_openapi(app: FastAPI) -> None:
    """Serve the completed document at ``/openapi.json`` (and so in ``/docs``): encoded once,
    with a strong ETag (304 to ``If-None-Match``) and gzip where the client takes it
    (shared/http/caching.py), rather than FastAPI's own route, which encodes it afresh for every
    request. ``serve_document`` makes an app serve another document there (the whole API's)."""

    def openapi() -> JsonObject:
        if app.openapi_schema is None:
            app.openapi_schema = complete(get_openapi(title=app.title, version=app.version, routes=app.routes,
                                                      description=app.description))
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]  # FastAPI's documented way to customise it
    app.state.openapi_document = openapi
    for index, route in enumerate(app.router.routes):
        if isinstance(route, Route) and route.path == app.openapi_url:
            app.router.routes[index] = Route(route.path, encoded_document, methods=["GET"], include_in_schema=False)


def serve_document(app: FastAPI, document: Callable[[], JsonObject]) -> None:
    """Serve ``document()`` (asked at the first request) at the app's ``/openapi.json``: the
    composition root gives each service run alone the whole API's document, so that the one
    public address serves every route whichever service the proxy asks (docs/api.md, "The
    OpenAPI document")."""
    app.state.openapi_document = document


_ENCODED = "openapi_encoded"


async def encoded_document(request: Request) -> Response:
    """The document's bytes, encoded at the first request of the process and kept."""
    state = request.app.state
    body: bytes | None = getattr(state, _ENCODED, None)
    if body is None:
        document = state.openapi_document()
        body = json.dumps(document, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode("utf-8")
        setattr(state, _ENCODED, body)
    return cached_answer(request, body, "application/json")
