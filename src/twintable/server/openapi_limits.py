"""The OpenAPI schema says what the server takes, no more: the JSON limits every request
body is read under (``server/limits.py``: string length, no U+0000, entries per array or
object) written into the request bodies' schemas, and a new table's ``game`` as the list
of games installed here. A client or a schema-driven tester that follows the schema is
then never refused for a body's shape (issue #38: two places allowed what was refused).

What a schema cannot say stays a refusal with its own code: which options each game
takes (``options.*``), a profile's key, a full server.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from fastapi import FastAPI

from twintable.server.limits import DEFAULT_LIMITS

#: Any text without U+0000 (PostgreSQL stores none).
NO_NUL = "^[^\\u0000]*$"


def describe_input_limits(app: FastAPI, game_ids: Callable[[], Iterable[str]]) -> None:
    """Replace ``app.openapi`` by one that writes the limits in (once, then cached)."""
    plain = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            schema = plain()
            components = schema.get("components", {}).get("schemas", {})
            for name in _request_schemas(schema):
                _limit(components[name], components)
            if "CreateTable" in components:
                components["CreateTable"]["properties"]["game"]["enum"] = sorted(game_ids())
            app.openapi_schema = schema
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]


def _request_schemas(schema: dict[str, Any]) -> set[str]:
    """The components a request body refers to, directly or through another."""
    found: set[str] = set()
    waiting = [body for operations in schema.get("paths", {}).values()
               for operation in operations.values() if isinstance(operation, dict)
               for body in [operation.get("requestBody")] if body]
    components = schema.get("components", {}).get("schemas", {})
    while waiting:
        node = waiting.pop()
        if isinstance(node, dict):
            reference = node.get("$ref")
            if isinstance(reference, str) and reference.startswith("#/components/schemas/"):
                name = reference.rsplit("/", 1)[1]
                if name not in found:
                    found.add(name)
                    waiting.append(components[name])
            waiting.extend(node.values())
        elif isinstance(node, list):
            waiting.extend(node)
    return found


def _limit(node: Any, components: dict[str, Any]) -> None:
    """Write the limits into one schema and every schema nested in it (not through
    references: each component is visited once by itself)."""
    if isinstance(node, list):
        for item in node:
            _limit(item, components)
        return
    if not isinstance(node, dict):
        return
    kind = node.get("type")
    if kind == "string" and "enum" not in node and "const" not in node:
        node["maxLength"] = min(node.get("maxLength", DEFAULT_LIMITS.max_string),
                                DEFAULT_LIMITS.max_string)
        node.setdefault("pattern", NO_NUL)
    elif kind == "array":
        node["maxItems"] = min(node.get("maxItems", DEFAULT_LIMITS.max_items),
                               DEFAULT_LIMITS.max_items)
    elif kind == "object":
        node["maxProperties"] = min(node.get("maxProperties", DEFAULT_LIMITS.max_items),
                                    DEFAULT_LIMITS.max_items)
        if node.get("additionalProperties") is True or (
                "properties" not in node and "additionalProperties" not in node):
            # Free-form (a game's options): what any JSON value may hold here.
            node["additionalProperties"] = _ANY_VALUE
            node["propertyNames"] = _TEXT
    for key, value in node.items():
        if key in ("properties", "items", "anyOf", "oneOf", "allOf", "prefixItems"):
            _limit(value if key != "properties" else list(value.values()), components)
        elif key == "additionalProperties" and value is not _ANY_VALUE:
            _limit(value, components)


#: Numbers as the server reads them: whole ones of at most ``max_digits`` digits (a real
#: number past them would be read back as a whole one when written without a fraction).
_NUMBER: dict[str, Any] = {"type": "number", "minimum": -(10**DEFAULT_LIMITS.max_digits - 1),
                           "maximum": 10**DEFAULT_LIMITS.max_digits - 1}
_TEXT: dict[str, Any] = {"type": "string", "maxLength": DEFAULT_LIMITS.max_string,
                         "pattern": NO_NUL}
_SCALARS: list[dict[str, Any]] = [_TEXT, _NUMBER, {"type": "boolean"}, {"type": "null"}]
#: A JSON value under the limits, nested no deeper than an option needs (a list of
#: numbers or of strings: see each game's options on its rules page).
_ANY_VALUE: dict[str, Any] = {"anyOf": [
    *_SCALARS, {"type": "array", "maxItems": DEFAULT_LIMITS.max_items,
                "items": {"anyOf": _SCALARS}}]}
