"""What ``tools/list`` advertises, kept lean: an agent pays for the listing on every turn.

The SDK derives each tool's schemas from its signature with pydantic. As
derived, they name every property twice (its key and a ``title``) and spell
out every nested result shape: ``get_session``'s output schema alone was
1,450 tokens, the whole listing 12,300. The listing keeps what a client uses:

- input schemas without ``title`` (a property's name is its title), nor an
  empty ``properties``, and an
  optional argument as its value's type alone: pydantic spells ``x: int | None =
  None`` as ``anyOf [integer, null]`` with ``default: null``, where leaving it
  out says the same;
- output schemas to their first level: each field's JSON type, and which
  fields are always there (``additionalProperties: true``, the default, left
  out). The nested shapes are told, with an example, in each tool's
  description, which is what a model reads;
- descriptions with one line per paragraph: a docstring's line breaks cost a
  token each on the wire and say nothing.

Results are unchanged: the SDK still validates every structured result
against the full shape ``schemas.py`` declares (mostly the wire dataclasses) before it is sent.
"""

from __future__ import annotations

import json
from typing import Any

from mcp.server import MCPServer
from mcp_types import Tool

# tools/list, as sent, is to stay within this many tokens (cl100k_base; see segmint_bench.tokens):
# what it was at 26 tools. A new tool buys its room from the others.
TOKEN_BUDGET = 5_485

# Keywords whose value maps names to schemas (a property named "title" is no title).
_SCHEMA_MAPS = ("properties", "$defs", "definitions", "patternProperties")


def serve_lean_listing(server: MCPServer) -> None:
    """Answer ``tools/list`` with lean schemas (see the module docstring)."""
    listed = server.list_tools

    async def list_tools() -> list[Tool]:
        return [lean(tool) for tool in await listed()]

    server.list_tools = list_tools  # type: ignore[method-assign]  # this server's listing, in the SDK's method's place


def lean(tool: Tool) -> Tool:
    output = tool.output_schema
    return tool.model_copy(
        update={
            "description": paragraphs(tool.description) if tool.description else tool.description,
            "input_schema": lean_input(tool.input_schema),
            "output_schema": first_level(output) if output is not None else None,
        }
    )


def paragraphs(text: str) -> str:
    """The text with its paragraphs (parted by a blank line) one to a line."""
    return "\n".join(" ".join(paragraph.split("\n")) for paragraph in text.split("\n\n"))


def lean_input(schema: dict[str, Any]) -> dict[str, Any]:
    lean_schema = without_titles(schema)
    if lean_schema.get("properties") == {}:  # no arguments: an object is all there is to say
        del lean_schema["properties"]
    required = set(lean_schema.get("required", ()))
    properties = lean_schema.get("properties", {})
    for name, prop in properties.items():
        if name not in required and "default" in prop and prop["default"] is None:
            properties[name] = _not_null(prop)
    return lean_schema


def _not_null(prop: dict[str, Any]) -> dict[str, Any]:
    """An optional argument's schema without its ``null`` branch and ``null`` default."""
    options = [o for o in prop.get("anyOf", []) if o != {"type": "null"}]
    rest = {k: v for k, v in prop.items() if k not in ("anyOf", "default")}
    if len(options) == 1 and "anyOf" in prop:
        return {**options[0], **rest}
    return {**rest, **({"anyOf": options} if options else {})}


def without_titles(schema: Any) -> Any:
    if isinstance(schema, list):
        return [without_titles(s) for s in schema]
    if not isinstance(schema, dict):
        return schema
    lean_schema = {}
    for key, value in schema.items():
        if key == "title":
            continue
        if key in _SCHEMA_MAPS and isinstance(value, dict):
            lean_schema[key] = {name: without_titles(s) for name, s in value.items()}
        else:
            lean_schema[key] = without_titles(value)
    return lean_schema


def first_level(schema: dict[str, Any]) -> dict[str, Any]:
    """The object's fields with their JSON types; what is nested in them is left out."""
    definitions = schema.get("$defs", {})
    lean_schema: dict[str, Any] = {"type": "object"}
    if "properties" in schema:
        lean_schema["properties"] = {name: _field(s, definitions) for name, s in schema["properties"].items()}
    if "required" in schema:
        lean_schema["required"] = schema["required"]
    if schema.get("additionalProperties", True) is not True:
        lean_schema["additionalProperties"] = schema["additionalProperties"]
    return lean_schema


def _field(schema: dict[str, Any], definitions: dict[str, Any]) -> dict[str, Any]:
    types = _json_types(schema, definitions)
    if not types:
        return {}
    return {"type": types[0] if len(types) == 1 else types}


def _json_types(schema: dict[str, Any], definitions: dict[str, Any]) -> list[str]:
    """The JSON types a value may have; empty when any type will do."""
    if "$ref" in schema:
        target = definitions.get(schema["$ref"].rsplit("/", 1)[-1])
        return _json_types(target, definitions) if target is not None else []
    if "type" in schema:
        return schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
    options = [_json_types(option, definitions) for option in schema.get("anyOf", [])]
    if not options or not all(options):
        return []
    return list(dict.fromkeys(t for option in options for t in option))


def listing_json(tools: list[dict[str, Any]]) -> str:
    """The ``tools/list`` result as it goes on the wire (compact JSON), from the tools as plain data."""
    return json.dumps({"tools": tools}, ensure_ascii=False, separators=(",", ":"))


def model_facing_json(tools: list[dict[str, Any]]) -> str:
    """The part a client turns into the model's tool definitions: name, description, input schema."""
    return listing_json([{k: t[k] for k in ("name", "description", "inputSchema") if k in t} for t in tools])
