"""Structured orders in the OpenAPI document as discriminated unions by ``type``, one per board
(docs/api.md, "Structured orders"; the shapes are the tables of
shared/rules/variants/board_orders.py and ekonia_orders.py):

- ``BoardOrder``: the standard and Dirigible games' orders (``BoardMove``, ``BoardSupportMove``,
  ...), one of them by ``type``;
- ``EkoniaOrder``: Tale of Ekonia's (``EkoniaMove``, ``EkoniaBuy``, ...), likewise;
- ``StructuredOrder``: either (``move``, ``disband`` and ``unknown`` are words of both boards).

Every order has ``text``, ``type``, ``unit`` and ``to``; each type's own keys are required
where the server always writes them. The pydantic model (shared/http/models.py) stays the one
that writes the answers; tests/http/test_openapi.py checks three played games' answers against
these schemas.
"""
from __future__ import annotations

from shared.json_types import JsonObject

STRING: JsonObject = {"type": "string"}
INTEGER: JsonObject = {"type": "integer"}
STRINGS: JsonObject = {"type": "array", "items": {"type": "string"}}
NULL: JsonObject = {"type": "null"}
MAYBE_STRING: JsonObject = {"anyOf": [STRING, NULL]}
UNIT_GROUP: JsonObject = {"count": INTEGER, "unit_type": STRING}

# type -> its own keys: (required, optional)
BOARD: dict[str, tuple[JsonObject, JsonObject]] = {
    "hold": ({}, {}),
    "move": ({"via_convoy": {"type": "boolean", "description": "by convoy only"}}, {}),
    "support_hold": ({"supported": STRING}, {}),
    "support_move": ({"supported": STRING}, {}),
    "convoy": ({"convoyed": STRING}, {}),
    "retreat": ({}, {}),
    "disband": ({}, {}),
    "build": ({"location": STRING}, {}),
    "remove": ({}, {}),
    "waive": ({}, {}),
    "devastate": ({}, {}),
    "unknown": ({}, {}),
}
_MOVING: JsonObject = {**UNIT_GROUP, "from": STRING}
_STANDING: JsonObject = {**UNIT_GROUP, "location": STRING}
EKONIA: dict[str, tuple[JsonObject, JsonObject]] = {
    "move": ({**_MOVING, "path": STRINGS}, {}),
    **{kind: (_MOVING, {}) for kind in ("load", "unload", "bombard", "drop", "rebase")},
    **{kind: (_STANDING, {}) for kind in ("disband", "hide_units", "privateer")},
    "buy": (_STANDING, {}),
    "improve": ({"improvement": {"type": "string", "enum": ["FORT", "SHIPYARD", "GASVENT"]}, "location": STRING}, {}),
    "raze": ({"location": STRING}, {}),
    "attack_privateers": ({"location": STRING}, {}),
    "morale": ({"level": INTEGER}, {}),
    "hide_cities": ({"level": INTEGER}, {}),
    "spy": ({"mission": STRING}, {"target": STRING}),
    "give": ({"amount": INTEGER, "power": STRING}, {}),
    "expect": ({"amount": INTEGER, "power": STRING}, {}),
    "diplomacy": ({"stance": {"type": "string", "enum": ["WAR", "PEACE", "TRADE", "END TRADE", "SPARE", "HUNT"]},
                   "power": STRING}, {}),
    "unknown": ({}, {}),
}
BOARDS = {"Board": BOARD, "Ekonia": EKONIA}


def _camel(kind: str) -> str:
    return "".join(part.capitalize() for part in kind.split("_"))


def order_schema(board: str, kind: str, required: JsonObject, optional: JsonObject) -> JsonObject:
    properties: JsonObject = {
        "text": {"type": "string", "description": "the order in the variant's canonical notation"},
        "type": {"type": "string", "const": kind},
        "unit": {**MAYBE_STRING, "description": "the unit ordered, or null"},
        "to": {**MAYBE_STRING, "description": "where it goes, or null"},
        **required, **optional}
    return {"title": f"{board}{_camel(kind)}", "type": "object", "properties": properties,
            "required": ["text", "type", "unit", "to", *required]}


def add_order_unions(schemas: JsonObject) -> None:
    """Replace the one open ``StructuredOrder`` by the unions above."""
    if "StructuredOrder" not in schemas:
        return
    for board, table in BOARDS.items():
        mapping: JsonObject = {}
        for kind, (required, optional) in table.items():
            name = f"{board}{_camel(kind)}"
            schemas[name] = order_schema(board, kind, required, optional)
            mapping[kind] = f"#/components/schemas/{name}"
        schemas[f"{board}Order"] = {
            "title": f"{board}Order", "description": f"an order of the {board.lower()} board, by its type",
            "oneOf": [{"$ref": ref} for ref in mapping.values()],
            "discriminator": {"propertyName": "type", "mapping": mapping}}
    schemas["StructuredOrder"] = {
        "title": "StructuredOrder", "description": (
            "one order as a structured value (docs/api.md, \"Structured orders\"): a BoardOrder in the "
            "standard and Dirigible games, an EkoniaOrder in Tale of Ekonia"),
        "anyOf": [{"$ref": "#/components/schemas/BoardOrder"}, {"$ref": "#/components/schemas/EkoniaOrder"}]}
