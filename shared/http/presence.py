"""Which keys of an answer are always there, said in the OpenAPI document (docs/api.md, "The
OpenAPI document", "Required and optional keys").

pydantic lists a field with a default as optional, which is right for a request (leave it out
and the server takes the default) and wrong for an answer (the server always writes it, null
included). So in every schema that only answers use, each property is required unless the
answers leave it out where it does not apply (``x-absent-when-null``, shared/http/models.py)
or the route drops null keys (``EXCLUDE_NONE``). Request schemas keep their defaults optional:
every game setting may be left out. A generated client then needs no guess from defaults
(openapi-typescript: ``--default-non-nullable false``).
"""
from __future__ import annotations

from collections.abc import Iterator

from shared.http.models import ABSENT_WHEN_NULL
from shared.json_types import JsonObject, JsonValue, array_at, as_object, object_at, objects

PREFIX = "#/components/schemas/"
EXCLUDE_NONE = frozenset({"DrawStatus"})  # its routes answer with response_model_exclude_none


def _refs(node: JsonValue) -> Iterator[str]:
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith(PREFIX):
            yield ref[len(PREFIX):]
        for value in node.values():
            yield from _refs(value)
    elif isinstance(node, list):
        for item in node:
            yield from _refs(item)


def reachable(roots: JsonValue, schemas: JsonObject) -> set[str]:
    """The names of the schemas ``roots`` refer to, directly or through other schemas."""
    seen: set[str] = set()
    todo = list(_refs(roots))
    while todo:
        name = todo.pop()
        if name in seen or name not in schemas:
            continue
        seen.add(name)
        todo.extend(_refs(schemas[name]))
    return seen


def _operations(document: JsonObject) -> Iterator[JsonObject]:
    for item in objects(object_at(document, "paths").values()):
        for operation in objects(item.values()):
            if "responses" in operation:
                yield operation


def require_present_keys(document: JsonObject) -> None:
    schemas = object_at(object_at(document, "components"), "schemas")
    operations = list(_operations(document))
    answers = reachable([op["responses"] for op in operations], schemas)
    requests = reachable([[op.get("requestBody", {}), op.get("parameters", [])] for op in operations], schemas)
    for name in sorted(answers - requests - EXCLUDE_NONE):
        schema = object_at(schemas, name)
        required = array_at(schema, "required").copy()
        for key, property_schema in object_at(schema, "properties").items():
            if key not in required and not as_object(property_schema, key).get(ABSENT_WHEN_NULL):
                required.append(key)
        if required:
            schema["required"] = required
