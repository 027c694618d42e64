"""The visibility service's additions to the OpenAPI document: the positions' union tagged by
``variant``, and the live stream's events (docs/social.md, "The live stream").

Before OpenAPI 3.2 (``itemSchema``), the ``schema`` of a ``text/event-stream`` answer describes
one event, as schemathesis reads it: ``StreamEvent``, one of ``ViewEvent``, ``MessageEvent``
and ``ClosedEvent`` by its ``event`` field, each with its ``data`` as JSON text of the schema
it names (``contentMediaType``, ``contentSchema``): ``StreamView``, ``Message``,
``StreamClosed``. The answer's schema is any of ``StreamEvent`` or a string: a client that reads
the answer whole (a generated one) reads text, where a reader of events (schemathesis) finds no
event that is a string (docs/api.md, "Unions").
"""
from __future__ import annotations

import copy

from shared.events import EVENT_CLASSES
from shared.http.openapi import DOCUMENT_ADDITIONS
from shared.json_types import JsonArray, JsonObject, JsonValue, array_at, as_object, object_at, object_kept, object_path

STREAM_PATH = "/games/{game_id}/stream"
# the answer read whole, as a generated client that does not parse server-sent events reads it
# (openapi-python-client's game_stream answers this text)
WHOLE_STREAM: JsonObject = {"type": "string", "description": "the whole answer as text: its events one after another"}
CLOSE_REASONS: JsonArray = ["credential_revoked", "too_slow", "unavailable", "forbidden", "shutting_down"]


def _ref(name: str) -> JsonObject:
    return {"$ref": f"#/components/schemas/{name}"}


def _event(kind: str, data: str, with_id: bool, description: str) -> JsonObject:
    properties: JsonObject = {
        "event": {"type": "string", "const": kind},
        "data": {"type": "string", "contentMediaType": "application/json", "contentSchema": _ref(data)}}
    if with_id:
        properties["id"] = {"type": "string", "description": "the cursor to resume after (Last-Event-ID)"}
    return {"type": "object", "description": description, "properties": properties,
            "required": ["event", "data", *(["id"] if with_id else [])]}


def stream_view(game_view: JsonObject) -> JsonObject:
    """``GameView`` as every ``view`` event carries it, in one shape: ``history_added`` in place of
    ``history`` (docs/social.md, "Frames that send only what is new")."""
    schema = copy.deepcopy(game_view)
    schema["title"] = "StreamView"
    schema["description"] = (
        "the caller's view as the stream sends it: GET /view's, with history_added in place of history")
    properties: JsonObject = {key: value for key, value in object_at(schema, "properties").items() if key != "history"}
    properties["history_reset"] = {"type": "boolean", "description": (
        "true: history_added is the whole history page (the first view of a connection, a new viewer, "
        "a page that no longer meets the one held); false: append history_added to the page held")}
    properties["history_added"] = {
        "type": "array", "items": _ref("ResolvedPhaseView"),
        "description": "the whole page, or the resolved phases added since the previous view event, oldest first"}
    schema["properties"] = properties
    schema["required"] = [*(name for name in array_at(schema, "required") if name != "history"),
                          "history_reset", "history_added"]
    return schema


def add_stream_events(document: JsonObject) -> None:
    schemas = object_kept(object_kept(document, "components"), "schemas")
    if "GameView" not in schemas:
        return
    schemas["StreamView"] = stream_view(object_at(schemas, "GameView"))
    schemas["StreamClosed"] = {"type": "object", "title": "StreamClosed", "required": ["reason"],
                               "properties": {"reason": {"type": "string", "enum": CLOSE_REASONS}}}
    schemas["ViewEvent"] = _event("view", "StreamView", True, "the caller's view, when it changed")
    schemas["MessageEvent"] = _event("message", "Message", True, "a press message the caller may read")
    schemas["ClosedEvent"] = _event("closed", "StreamClosed", False, "the server ended the stream early")
    schemas["StreamEvent"] = {
        "title": "StreamEvent", "oneOf": [_ref("ViewEvent"), _ref("MessageEvent"), _ref("ClosedEvent")],
        "discriminator": {"propertyName": "event", "mapping": {
            "view": "#/components/schemas/ViewEvent", "message": "#/components/schemas/MessageEvent",
            "closed": "#/components/schemas/ClosedEvent"}}}
    stream = object_at(object_at(document, "paths"), STREAM_PATH).get("get")
    if isinstance(stream, dict):
        content = object_path(stream, "responses", "200", "content", "text/event-stream")
        content["schema"] = {"anyOf": [_ref("StreamEvent"), WHOLE_STREAM]}


POSITIONS = {"ekonia": "EkoniaPosition", "dirigible": "DirigiblePosition", "standard": "BoardPosition"}


def tag_positions(node: JsonValue) -> None:
    """Give each union of the three positions its discriminator (pydantic writes a union chosen
    by a function as a plain oneOf)."""
    if isinstance(node, list):
        for item in node:
            tag_positions(item)
        return
    if not isinstance(node, dict):
        return
    options = node.get("oneOf")
    refs = ([option.get("$ref", "") for option in options if isinstance(option, dict)]
            if isinstance(options, list) else [])
    if sorted(ref.rsplit("/", 1)[-1] for ref in refs if isinstance(ref, str)) == sorted(POSITIONS.values()):
        node["discriminator"] = {"propertyName": "variant", "mapping": {
            tag: f"#/components/schemas/{name}" for tag, name in POSITIONS.items()}}
    for value in node.values():
        tag_positions(value)


LOG_PATH = "/games/{game_id}/events"
LOG_FIELDS: JsonObject = {
    "stream_id": {"type": "string"}, "version": {"type": "integer", "description": "in its stream, from 1"},
    "position": {"type": "integer", "description": "in the whole log"},
    "metadata": {"type": "object"}, "recorded_at": {"type": "string", "format": "date-time"}}


def log_records(schemas: JsonObject) -> None:
    """``LogRecord``: one line of ``GET /games/{id}/events``, one of a record per event type, by
    ``type`` (shared/events.py's catalogue), its ``data`` the event as its current schema
    version writes it (a record of an older version holds that version's data, shown to the
    reader as it was stored: upcasting is the reader's, docs/api.md, "Events")."""
    mapping: JsonObject = {}
    for name, cls in sorted(EVENT_CLASSES.items()):
        found: JsonObject = cls.model_json_schema(mode="serialization", ref_template="#/components/schemas/Log{model}")
        for inner, schema in as_object(found.pop("$defs", {}), "$defs").items():
            schemas[f"Log{inner}"] = schema
        object_at(found, "properties").pop("type", None)
        found["required"] = [key for key in array_at(found, "required") if key != "type"]
        data = found
        version: JsonObject = {"type": "integer", "const": cls.SCHEMA_VERSION}
        if cls.SCHEMA_VERSION > 1:
            data = {"anyOf": [found, {"type": "object", "description": "an older schema version's data"}]}
            version = {"type": "integer", "minimum": 1, "maximum": cls.SCHEMA_VERSION}
        record = f"Log{name}"
        schemas[record] = {"title": record, "type": "object",
                           "required": [*LOG_FIELDS, "type", "schema_version", "data"],
                           "properties": {**LOG_FIELDS, "type": {"type": "string", "const": name},
                                          "schema_version": version, "data": data}}
        mapping[name] = f"#/components/schemas/{record}"
    schemas["LogRecord"] = {"title": "LogRecord", "description": "one line of a game's log (GET /games/{id}/events)",
                            "oneOf": [{"$ref": ref} for ref in mapping.values()],
                            "discriminator": {"propertyName": "type", "mapping": mapping}}


def add_visibility(document: JsonObject) -> None:
    schemas = object_at(object_at(document, "components"), "schemas")
    tag_positions(schemas)
    add_stream_events(document)
    route = object_at(object_at(document, "paths"), LOG_PATH).get("get")
    if isinstance(route, dict):
        log_records(schemas)
        media = object_path(route, "responses", "200", "content", "application/x-ndjson")
        media["schema"] = {**as_object(media.get("schema", {"type": "string"}), "schema"),
                           "description": "one LogRecord (#/components/schemas/LogRecord) a line"}


DOCUMENT_ADDITIONS.append(add_visibility)
