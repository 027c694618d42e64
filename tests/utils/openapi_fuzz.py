"""Requests generated from the OpenAPI document of ``services.app`` (hypothesis): every route,
its path, query and header parameters and every field of its body, drawn from the schema and,
at any place, from hostile values (numbers JSON cannot carry, lone surrogates, control
characters, lookalike digits, huge and wrong-typed values). The bodies are written by hand so
that ``NaN``, ``Infinity`` and ``1e400`` reach the server as those very bytes."""
from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote, urlencode

from hypothesis import strategies as st

from services.app import create_app

Strategy = st.SearchStrategy[Any]


@dataclass(frozen=True)
class Raw:
    """A JSON token written as it is (``NaN``, ``1e400``): no encoder would write them."""

    text: str


HOSTILE_NUMBERS: list[Any] = [Raw("NaN"), Raw("Infinity"), Raw("-Infinity"), Raw("1e400"), Raw("-1e400"),
                              Raw("1" * 40), 2**53, -(2**63), 10**30, -1, 0, 0.5, 1e308, True]
HOSTILE_STRINGS: list[Any] = [
    "\ud800", "ok\udfffok", "\udc00", "\x00", "nul\x00here", "\x01", "\x1b[31mred", "\x7f", "\u0085", "\x9b",
    "\u00b2", "\u00b9\u2070", "12\u00b3", " ", "", "\t", "\u202eevil", "\ufeff", "x" * 5000, "\U0001f600" * 50,
    "https://[::1", "https://exa mple.com/x", "A PAR - BUR\x00", "%00", "../../etc/passwd", "' OR 1=1 --",
    "NaN", "Infinity", "1e400", "-1", "999999999999999999999999", "null", "true", "{}", "[]",
]
HOSTILE_VALUES: list[Any] = [*HOSTILE_NUMBERS, *HOSTILE_STRINGS, None, [], {}, [Raw("NaN")], {"\x00": 1},
                             {"\ud800": Raw("Infinity")}, [[[[[[[[[[]]]]]]]]]]]
# what may stand in a query string or a path segment (text; percent-encoded on the wire)
HOSTILE_TEXT: list[str] = [s for s in HOSTILE_STRINGS if not any("\ud800" <= c <= "\udfff" for c in s)]


def render(value: Any) -> str:
    """JSON text of ``value``, with :class:`Raw` tokens verbatim (and surrogates as escapes)."""
    if isinstance(value, Raw):
        return value.text
    if isinstance(value, dict):
        return "{" + ", ".join(f"{json.dumps(str(k))}: {render(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(render(item) for item in value) + "]"
    return json.dumps(value)


def hostile_or(base: Strategy, weight: int = 4) -> Strategy:
    """``base`` most of the time, a hostile value otherwise."""
    return st.one_of(*([base] * weight), st.sampled_from(HOSTILE_VALUES))


class Schemas:
    """JSON schema (as FastAPI writes it) -> hypothesis strategy, $refs resolved."""

    def __init__(self, components: dict[str, Any]) -> None:
        self.components = components

    def resolve(self, schema: dict[str, Any]) -> dict[str, Any]:
        while "$ref" in schema:
            schema = self.components[schema["$ref"].rsplit("/", 1)[1]]
        return schema

    def valid(self, schema: dict[str, Any]) -> Strategy:
        """Values the schema allows (bounded sizes), hostile values mixed in at every level."""
        schema = self.resolve(schema)
        if "anyOf" in schema or "oneOf" in schema:
            return st.one_of(*(self.valid(option) for option in schema.get("anyOf", schema.get("oneOf", []))))
        if "const" in schema:
            return st.just(schema["const"])
        if "enum" in schema:
            return st.sampled_from(schema["enum"])
        kind = schema.get("type")
        if kind == "object":
            properties = schema.get("properties", {})
            required = set(schema.get("required", []))
            fields = {name: hostile_or(self.valid(sub)) for name, sub in properties.items()}
            return st.fixed_dictionaries({k: v for k, v in fields.items() if k in required},
                                         optional={k: v for k, v in fields.items() if k not in required})
        if kind == "array":
            most = min(schema.get("maxItems", 4), 4)
            return st.lists(hostile_or(self.valid(schema.get("items", {}))), min_size=schema.get("minItems", 0),
                            max_size=max(most, schema.get("minItems", 0)))
        if kind == "string":
            return st.text(min_size=schema.get("minLength", 0), max_size=min(schema.get("maxLength", 40), 40))
        if kind == "integer":
            low = int(schema.get("minimum", -1000))
            return st.integers(min_value=low, max_value=int(schema.get("maximum", low + 100_000)))
        if kind == "number":
            return st.floats(min_value=schema.get("minimum", 0.001), max_value=schema.get("maximum", 1e6),
                             allow_nan=False, allow_infinity=False)
        if kind == "boolean":
            return st.booleans()
        if kind == "null":
            return st.none()
        return st.sampled_from([None, 1, "x", [], {}])

    def fields(self, schema: dict[str, Any], path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], Any]]:
        """Every field path of an object schema (nested objects too) and a plain value for it."""
        schema = self.resolve(schema)
        options = schema.get("anyOf", schema.get("oneOf", [schema]))
        for option in options:
            option = self.resolve(option)
            if option.get("type") != "object":
                continue
            for name, sub in option.get("properties", {}).items():
                yield (*path, name), self.example(sub)
                yield from self.fields(sub, (*path, name))

    def example(self, schema: dict[str, Any]) -> Any:
        """One value the schema allows: its default, an enum's first, or the simplest."""
        schema = self.resolve(schema)
        if "default" in schema:
            return schema["default"]
        if "anyOf" in schema or "oneOf" in schema:
            return self.example(schema.get("anyOf", schema.get("oneOf", []))[0])
        if "const" in schema:
            return schema["const"]
        if "enum" in schema:
            return schema["enum"][0]
        kind = schema.get("type")
        simple = {"string": "x" * max(1, schema.get("minLength", 1)), "integer": int(schema.get("minimum", 1)),
                  "number": 1.0, "boolean": True, "null": None, "array": [], "object": {}}
        if kind == "object":
            return {name: self.example(sub) for name, sub in schema.get("properties", {}).items()
                    if name in schema.get("required", [])}
        return simple.get(kind, None) if isinstance(kind, str) else None


@dataclass
class Operation:
    method: str
    path: str  # the template, e.g. /games/{game_id}/orders
    parameters: list[dict[str, Any]]
    body: dict[str, Any] | None  # the JSON schema of the body, None: no body

    @property
    def name(self) -> str:
        return f"{self.method} {self.path}"


def operations() -> tuple[list[Operation], Schemas]:
    document = create_app().openapi()
    schemas = Schemas(document.get("components", {}).get("schemas", {}))
    found = []
    for path, methods in document["paths"].items():
        for method, operation in methods.items():
            body = operation.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema")
            found.append(Operation(method.upper(), path, operation.get("parameters", []), body))
    return found, schemas


@dataclass
class World:
    """What the server holds for the fuzz to aim at: game ids by state, credentials."""

    path_values: dict[str, list[str]] = field(default_factory=dict)  # parameter name -> real values
    credentials: list[str | None] = field(default_factory=list)  # Authorization header values


@dataclass(frozen=True)
class Request:
    method: str
    url: str  # path and query, percent-encoded
    headers: dict[str, str]
    body: bytes | None

    def short(self) -> str:
        return f"{self.method} {self.url[:120]} {self.headers} {(self.body or b'')[:200]!r}"


def segment(value: str) -> str:
    return quote(value, safe="")


def query_value(schemas: Schemas, schema: dict[str, Any]) -> Strategy:
    def as_text(value: Any) -> str:
        return json.dumps(value) if not isinstance(value, str) else value

    return st.one_of(schemas.valid(schema).map(as_text), st.sampled_from(HOSTILE_TEXT))


def request_strategy(operation: Operation, schemas: Schemas, world: World) -> Strategy:
    @st.composite
    def build(draw: Callable[[Strategy], Any]) -> Request:
        path = operation.path
        query: dict[str, str] = {}
        headers: dict[str, str] = {}
        for parameter in operation.parameters:
            name, where, schema = parameter["name"], parameter["in"], parameter.get("schema", {})
            if where == "path":
                real = world.path_values.get(name, []) or ["x"]
                value = draw(st.one_of(st.sampled_from(real), st.sampled_from(real), st.sampled_from(HOSTILE_TEXT)))
                path = path.replace("{" + name + "}", segment(value) or "x")
            elif where == "query":
                if name == "timeout":  # the live stream: never the default 300 seconds
                    query[name] = draw(st.one_of(st.sampled_from(["0.05", "0.1"]), st.sampled_from(HOSTILE_TEXT)))
                elif draw(st.booleans()):
                    query[name] = draw(query_value(schemas, schema))
            elif where == "header" and name == "last-event-id" and draw(st.booleans()):
                headers[name] = draw(st.sampled_from(["0", "1", "5", "999999", "-1", "\u00b2", "1\u00b3", "x", " 7 "]))
        if operation.path.endswith("/stream") and "timeout" not in query:
            query["timeout"] = "0.05"
        credential = draw(st.sampled_from(world.credentials))
        if credential is not None:
            headers["authorization"] = credential
        body: bytes | None = None
        if operation.body is not None or draw(st.integers(0, 9)) == 0:
            value = draw(hostile_or(schemas.valid(operation.body or {"type": "object"}), weight=6))
            body = render(value).encode("utf-8", "surrogatepass")
            kind = draw(st.sampled_from(["application/json"] * 8 + ["text/plain", "none"]))
            if kind != "none":
                headers["content-type"] = kind
        url = path + ("?" + urlencode(query, quote_via=quote) if query else "")
        return Request(operation.method, url, headers, body)

    return build()


def field_sweep(operation: Operation, schemas: Schemas) -> Iterator[tuple[str, dict[str, Any], Any]]:
    """For every field of the operation's body, a minimal valid body with that field replaced by
    each hostile value: (field path, body, hostile value)."""
    if operation.body is None:
        return
    base_schema = schemas.resolve(operation.body)
    base_schema = schemas.resolve(next((o for o in base_schema.get("anyOf", base_schema.get("oneOf", [base_schema]))
                                        if schemas.resolve(o).get("type") == "object"), base_schema))
    for path, _ in schemas.fields(operation.body):
        for hostile in HOSTILE_VALUES:
            body = json.loads(json.dumps(schemas.example(base_schema)))
            target = body
            for part in path[:-1]:
                if not isinstance(target.get(part), dict):
                    target[part] = {}
                target = target[part]
            target[path[-1]] = hostile
            yield ".".join(path), body, hostile
