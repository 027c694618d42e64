"""A schemathesis check (loaded with SCHEMATHESIS_HOOKS) for tests/http/test_schemathesis.py: a
request schemathesis made valid by the document is taken, unless what refused it is a fact of
one game or of one server that no document can hold (docs/api.md, "Constraints")."""
from __future__ import annotations

import json
from typing import Any

import schemathesis

# a game's own facts (its powers, its phase names, its units, the legality of an order, who may
# be written to) and opaque values only the server makes (cursors, sign-in states and codes)
BEYOND_THE_DOCUMENT = frozenset({
    "unknown_power", "invalid_phase", "orders_rejected", "unknown_unit", "power_required", "no_recipient",
    "invalid_webhook", "invalid_cursor", "invalid_state", "invalid_code", "invalid_last_event_id", "invalid_ticket",
    "not_surviving", "unknown_message",
    # a ticket or a token, not both: the ticket's description says so (OpenAPI has no "one of
    # these two" across a query parameter and a security scheme)
    "ticket_and_token"})


@schemathesis.check
def schema_valid_request_taken(ctx: Any, response: Any, case: Any) -> bool | None:
    meta = case.meta
    if meta is None or not meta.generation.mode.is_positive or response.status_code not in (400, 422):
        return None
    try:
        code = json.loads(response.content)["error"]["code"]
    except (ValueError, KeyError, TypeError):
        code = None
    if code in BEYOND_THE_DOCUMENT:
        return None
    raise AssertionError(f"a request valid by the document got {response.status_code} {code}: "
                         f"{response.content[:300]!r}")
