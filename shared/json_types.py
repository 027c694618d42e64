"""JSON whose shape the code does not know in advance, typed as JSON (docs/architecture.md, "The
house in figures"; decisions/0027-json-types.md).

Where a shape is known it has a TypedDict or a frozen record (decisions/0025). What is left is
truly arbitrary JSON: the OpenAPI document FastAPI writes and the HTTP layer completes, and
the pieces of it the services add. ``JsonValue`` says what such a value can be, and a reader
narrows it with ``isinstance`` (or the helpers below, which do) before it reads further, so
that a wrong shape fails where it is read, by name, and not three calls later. (The rules
import nothing outside shared/rules: Tale of Ekonia's map.json is read with ``object`` values
and geography.py's own narrowing.)
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TypeAlias

JsonValue: TypeAlias = "None | bool | int | float | str | list[JsonValue] | dict[str, JsonValue]"
JsonObject: TypeAlias = "dict[str, JsonValue]"
JsonArray: TypeAlias = "list[JsonValue]"


def as_object(value: JsonValue, where: str = "a JSON value") -> JsonObject:
    """``value`` as an object, or TypeError naming ``where``."""
    if not isinstance(value, dict):
        raise TypeError(f"{where} is not a JSON object: {type(value).__name__}")
    return value


def as_array(value: JsonValue, where: str = "a JSON value") -> JsonArray:
    """``value`` as an array, or TypeError naming ``where``."""
    if not isinstance(value, list):
        raise TypeError(f"{where} is not a JSON array: {type(value).__name__}")
    return value


def object_at(parent: JsonObject, key: str) -> JsonObject:
    """``parent[key]`` as an object; a new empty one (not put in ``parent``) when the key is absent."""
    value = parent.get(key)
    return {} if value is None else as_object(value, repr(key))


def array_at(parent: JsonObject, key: str) -> JsonArray:
    """``parent[key]`` as an array; a new empty one (not put in ``parent``) when the key is absent."""
    value = parent.get(key)
    return [] if value is None else as_array(value, repr(key))


def object_kept(parent: JsonObject, key: str) -> JsonObject:
    """``parent[key]`` as an object, put there empty first when the key is absent (``setdefault``)."""
    return as_object(parent.setdefault(key, {}), repr(key))


def objects(values: Iterable[JsonValue]) -> Iterator[JsonObject]:
    """The objects among ``values``, the rest skipped."""
    return (value for value in values if isinstance(value, dict))


def object_items(parent: JsonObject) -> Iterator[tuple[str, JsonObject]]:
    """The keys of ``parent`` whose values are objects, with those objects; the rest skipped."""
    return ((key, value) for key, value in parent.items() if isinstance(value, dict))


def object_path(node: JsonObject, *keys: str) -> JsonObject:
    """The object reached from ``node`` by ``keys`` in turn: KeyError where one is absent,
    TypeError where a value on the way is not an object."""
    for key in keys:
        node = as_object(node[key], key)
    return node
