"""The constraints the server enforces, written into the OpenAPI document (docs/api.md, "The
OpenAPI document", "Constraints"), so that a request valid by the document is one the server
takes, as far as a document can say it without knowing a game:

- the text rule (shared/text.py): every string of a request, and of the answers but the error's
  own words, has a ``pattern`` that leaves out the control characters the server refuses;
- ``variant`` is one of the variants served, and the new game's body is one schema per variant
  (``CreateStandardGame``, ``CreateDirigibleGame``, ``CreateEkoniaGame``, chosen by ``variant``)
  with its player counts (standard 2 to 7, Dirigible 7, Tale of Ekonia 2 to 6), its settings
  (``max_turns`` for Tale of Ekonia only, house bots for the others only, and needing
  ``house_bot`` when asked for) and the clock bounds (1 minute to 30 days);
- a power's name is one of the variants' powers (a string with a ``pattern``, not an enum, so
  generated clients take a plain string); a phase's name is written like S1901M,
  F1901R, W1901A or T01;
- a PATCH of orders has ``orders`` or ``clear`` not empty.

What only a game knows (which powers it has, which phase it is in, whether an order is legal)
stays an answer of the server: 422 ``unknown_power``, ``invalid_phase``, ``orders_rejected``.
"""
from __future__ import annotations

import copy
from collections.abc import Iterable

from shared.game.deadlines import MAX_MINUTES, MIN_MINUTES
from shared.json_types import JsonArray, JsonObject, JsonValue, array_at, as_array, object_at, objects
from shared.rules.variants import get_variant, variant_names

# shared/text.py's rule as an ECMA 262 pattern (lone surrogates are not text a client can send)
TEXT_PATTERN = "^[^\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f-\\u009f]*$"
PHASE_PATTERN = "^(?:[SsFf][0-9]{4}[MmRr]|[Ww][0-9]{4}[Aa]|[Tt][0-9]{1,4})$"
UNCHECKED = ("Error", "ErrorDetail")  # error messages quote what was sent, as it was sent
CLOCKS = ("movement_minutes", "retreat_minutes", "max_pause_minutes")
PLAYER_COUNTS = {"standard": (2, 7), "dirigible": (7, 7), "ekonia": (2, 6)}
HOUSE_BOT_VARIANTS = ("standard", "dirigible")  # shared/game/house_bots.py
CALENDAR_VARIANTS = ("ekonia",)  # the variants that take max_turns
POWER_FIELDS = ("power", "from")


def add_text_pattern(node: JsonValue) -> None:
    """Give every plain string schema under ``node`` the text rule's pattern."""
    if isinstance(node, list):
        for item in node:
            add_text_pattern(item)
        return
    if not isinstance(node, dict):
        return
    if (node.get("type") == "string" and "pattern" not in node and "enum" not in node and "const" not in node
            and "format" not in node):
        node["pattern"] = TEXT_PATTERN
    for key, value in node.items():
        if key not in ("default", "examples", "example", "const", "enum"):
            add_text_pattern(value)


def all_powers() -> list[str]:
    return sorted({power for name in variant_names() for power in get_variant(name).powers()})


def _nullable(schema: JsonObject) -> JsonObject:
    return {"anyOf": [schema, {"type": "null"}]}


def _power_schema(powers: Iterable[str]) -> JsonObject:
    """A power's name as a plain string held to the variants' powers by a ``pattern``, not an
    ``enum``: a generated client then takes a string (an enum of every variant's powers made
    each client cast its power to a type of thirteen names it mostly has no use for)."""
    names = sorted(powers)
    return {"type": "string", "pattern": "^(?:" + "|".join(names) + ")$", "maxLength": max(map(len, names)),
            "description": "a power of the game's variant, in capitals (GET /variants/{name} lists them): "
                           + ", ".join(names), "examples": [names[0]]}


def settings_of(variant: str, base: JsonObject) -> JsonObject:
    """The settings a game of ``variant`` can be created with, from the common ``SettingsIn``."""
    schema = copy.deepcopy(base)
    schema["title"] = f"{variant.capitalize()}Settings"
    properties = object_at(schema, "properties")
    low, high = PLAYER_COUNTS.get(variant, (2, 7))
    count: JsonObject = ({"type": "integer", "minimum": low, "maximum": high} if low < high
                         else {"type": "integer", "enum": [low]})
    properties["player_count"] = {**object_at(properties, "player_count"), "anyOf": [count, {"type": "null"}]}
    for name in CLOCKS:
        properties[name] = {**object_at(properties, name), "minimum": MIN_MINUTES, "maximum": MAX_MINUTES}
    if variant not in CALENDAR_VARIANTS:
        properties["max_turns"] = {**_without_type(object_at(properties, "max_turns")), "type": "null"}
    if variant in HOUSE_BOT_VARIANTS:
        needs_bot: JsonObject = {"required": ["house_bot"], "properties": {"house_bot": {"type": "string"}}}
        schema["allOf"] = [
            {"if": {"required": ["bots_fill_empty_seats"], "properties": {"bots_fill_empty_seats": {"const": True}}},
             "then": needs_bot},
            {"if": {"required": ["bot_after_missed_phases"],
                    "properties": {"bot_after_missed_phases": {"type": "integer"}}},
             "then": needs_bot}]
    if variant == "standard":
        as_array(schema.setdefault("allOf", []), "allOf").append(
            {"if": {"required": ["daide_open"], "properties": {"daide_open": {"const": True}}},
             "then": {"properties": {"player_count": {"enum": [7, None]}, "private": {"const": False}}}})
    else:
        properties["daide_open"] = {**object_at(properties, "daide_open"), "const": False}
    if variant not in HOUSE_BOT_VARIANTS:
        properties["house_bot"] = {**_without_type(object_at(properties, "house_bot")), "type": "null"}
        properties["bots_fill_empty_seats"] = {**object_at(properties, "bots_fill_empty_seats"), "const": False}
        properties["bot_after_missed_phases"] = {**_without_type(object_at(properties, "bot_after_missed_phases")),
                                                 "type": "null"}
    return schema


def _without_type(schema: JsonObject) -> JsonObject:
    return {key: value for key, value in schema.items() if key not in ("anyOf", "type", "minimum", "maximum", "enum")}


def create_game_schemas(schemas: JsonObject) -> None:
    """``CreateGame`` as one schema per variant, each with its own settings."""
    create, base = schemas.get("CreateGame"), schemas.get("SettingsIn")
    if not isinstance(create, dict) or not isinstance(base, dict):
        return
    options: JsonArray = []
    for variant in variant_names():
        name = f"Create{variant.capitalize()}Game"
        settings_name = f"{variant.capitalize()}Settings"
        schemas[settings_name] = settings_of(variant, base)
        body = copy.deepcopy(create)
        body["title"] = name
        body["description"] = f"a new {variant} game"
        properties = object_at(body, "properties")
        variant_schema: JsonObject = {"type": "string", "const": variant, "title": "Variant"}
        properties["variant"] = variant_schema
        if variant == "standard":
            variant_schema["default"] = "standard"
        else:
            body["required"] = [*array_at(body, "required"), "variant"]
        properties["settings"] = {"$ref": f"#/components/schemas/{settings_name}"}
        examples: JsonArray = [example for example in objects(array_at(create, "examples"))
                               if example.get("variant", "standard") == variant]
        if examples:
            body["examples"] = examples
        else:
            body.pop("examples", None)
        schemas[name] = body
        options.append({"$ref": f"#/components/schemas/{name}"})
    del schemas["SettingsIn"]  # each variant's settings stand in its place
    schemas["CreateGame"] = {"title": "CreateGame", "description": (
        "a new game: the body of its variant (the standard game when no variant is named)"), "oneOf": options}


def constrain_parameters(operation: JsonObject) -> None:
    """Variant, power and phase parameters as the server reads them."""
    for parameter in objects(array_at(operation, "parameters")):
        name, schema = parameter.get("name"), object_at(parameter, "schema")
        if name == "variant" and parameter.get("in") == "query":
            _replace_string(schema, {"type": "string", "enum": [*variant_names()]})
        elif name == "power":
            _replace_string(schema, _power_schema(all_powers()))
        elif name == "phase":
            _replace_string(schema, {"type": "string", "maxLength": 20, "pattern": PHASE_PATTERN})


def _replace_string(schema: JsonObject, replacement: JsonObject) -> None:
    """Put ``replacement`` where ``schema`` (or its non-null option) says string."""
    target = next((option for option in objects(array_at(schema, "anyOf")) if option.get("type") == "string"), schema)
    for key in ("maxLength", "minLength", "pattern"):
        target.pop(key, None)
    target.update(replacement)


def constrain_bodies(schemas: JsonObject) -> None:
    """Power names in the request bodies that name one (orders, ready, messages)."""
    powers = _power_schema(all_powers())
    for name in ("SubmitOrders", "PatchOrders", "ReadyRequest", "SendMessage"):
        properties = object_at(object_at(schemas, name), "properties")
        for field in POWER_FIELDS:
            if field in properties:
                _replace_string(object_at(properties, field), dict(powers))
        to = properties.get("to")
        if name == "SendMessage" and isinstance(to, dict):
            for option in objects(array_at(to, "anyOf")):
                if option.get("type") == "array":
                    option["items"] = dict(powers)


def constrain_patch(schemas: JsonObject) -> None:
    """A PATCH of orders changes something: ``orders`` or ``clear`` is not empty."""
    patch = schemas.get("PatchOrders")
    if isinstance(patch, dict):
        patch["allOf"] = [{"anyOf": [{"required": [name], "properties": {name: {"type": "array", "minItems": 1}}}
                                     for name in ("orders", "clear")]}]


def constrain(schema: JsonObject) -> None:
    """Every constraint above, in place."""
    schemas = object_at(object_at(schema, "components"), "schemas")
    create_game_schemas(schemas)
    constrain_bodies(schemas)
    constrain_patch(schemas)
    for item in objects(object_at(schema, "paths").values()):
        for operation in objects(item.values()):
            constrain_parameters(operation)
            add_text_pattern(operation.get("parameters", []))
            add_text_pattern(operation.get("requestBody", {}))
    for name, found in schemas.items():
        if name not in UNCHECKED:
            add_text_pattern(found)
