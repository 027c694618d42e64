"""The webhook payloads in the OpenAPI document, as OpenAPI 3.1 ``webhooks`` (docs/social.md,
"Notifications"): one per kind, each a POST of a Discord message (``content``, ``embeds``,
``allowed_mentions``) with the facts for machines under ``entente``, told apart by
``entente.kind``. The planning of notifications (planning.py) writes these payloads;
tests/services/notifications/test_payload_schemas.py checks what a receiver gets against them.
"""
from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from shared.http.models import DateTimeText
from shared.http.openapi import DOCUMENT_ADDITIONS
from shared.json_types import JsonObject, as_object, object_at, object_kept

Open = ConfigDict(extra="allow")


class EmbedField(BaseModel):
    model_config = Open
    name: str
    value: str
    inline: bool = False


class EmbedFooter(BaseModel):
    model_config = Open
    text: str


class Embed(BaseModel):
    """A Discord embed: phase_resolved's results as the public may see them, one field per power."""

    model_config = Open
    title: str | None = None
    description: str | None = None
    fields: list[EmbedField] = []
    footer: EmbedFooter | None = None


class AllowedMentions(BaseModel):
    parse: list[str] = Field(..., description="always []: a message's text never pings anyone")


class Facts(BaseModel):
    model_config = Open
    game_id: str
    phase: str | None


class Sender(BaseModel):
    power: str
    codename: str


class MessageFacts(Facts):
    kind: Literal["message_received"]
    # "from" is a keyword: the field is read and written by its alias
    sender: Sender = Field(..., alias="from")
    to: Literal["all"] | list[str] = Field(..., description="\"all\", or the powers of a private message")
    text: str = Field(..., description="the message, cut after 500 characters (with ...)")
    message_id: str


class PhaseFacts(Facts):
    kind: Literal["phase_resolved"]
    next_phase: str
    winners: list[str]
    your_powers: list[str] | None = Field(None, description="a seat's powers (not in the channel's payloads)")


class FinishedFacts(Facts):
    kind: Literal["game_finished"]
    reason: Literal["victory", "draw", "abandoned"]
    winners: list[str]
    your_powers: list[str] | None = Field(None, description="a seat's powers (not in the channel's payloads)")


class DeadlineFacts(Facts):
    kind: Literal["deadline_approaching"]
    deadline: DateTimeText
    your_powers: list[str] | None = Field(None, description=(
        "the seat's powers that must act (not in the channel's payloads)"))


class Payload(BaseModel):
    model_config = Open
    content: str = Field(..., description="for people, within Discord's limits")
    allowed_mentions: AllowedMentions
    embeds: list[Embed] = []


class MessageReceived(Payload):
    """To every seat that may read a press message, but the sender's."""

    entente: MessageFacts


class PhaseResolvedPayload(Payload):
    """To every seat and the game's channel: the phase's results as the public may see them."""

    entente: PhaseFacts


class GameFinishedPayload(Payload):
    """To every seat and the game's channel."""

    entente: FinishedFacts


class DeadlineApproaching(Payload):
    """To the seats that must act and the channel, ENTENTE_DEADLINE_WARNING_MINUTES before."""

    entente: DeadlineFacts


PAYLOADS: dict[str, type[Payload]] = {
    "message_received": MessageReceived, "phase_resolved": PhaseResolvedPayload,
    "game_finished": GameFinishedPayload, "deadline_approaching": DeadlineApproaching}


def _webhook(kind: str, model: type[Payload]) -> JsonObject:
    return {"post": {
        "operationId": f"webhook_{kind}", "summary": kind.replace("_", " "), "description": model.__doc__ or "",
        "requestBody": {"required": True, "content": {"application/json": {
            "schema": {"$ref": f"#/components/schemas/{model.__name__}"}}}},
        "responses": {"200": {"description": "any 2xx: delivered; anything else is retried with backoff"}}}}


def add_webhooks(document: JsonObject) -> None:
    """``webhooks`` and their payloads' schemas, for an app that serves the webhook routes."""
    if not any(path.endswith("/webhook") for path in object_at(document, "paths")):
        return
    schemas = object_kept(object_kept(document, "components"), "schemas")
    for model in PAYLOADS.values():
        found: JsonObject = model.model_json_schema(ref_template="#/components/schemas/{model}", by_alias=True)
        schemas.update(as_object(found.pop("$defs", {}), "$defs"))
        schemas[model.__name__] = found
    document["webhooks"] = {kind: _webhook(kind, model) for kind, model in PAYLOADS.items()}


DOCUMENT_ADDITIONS.append(add_webhooks)
