"""One shape for every type schema: JSON Schema 2020-12, whatever dialect the file is written in.

Upstream schemas come in several dialects: ACP's and ours are 2020-12 (``$defs``), A2A's and
many others are draft-07 (``definitions``, ``items`` as a list, ``dependencies``). Each file is
checked against the meta-schema of the dialect it declares (:func:`codegen.inputs.sources.
check_is_schema`), then :func:`upgrade` rewrites an older dialect into the 2020-12 document that
means the same, so every later stage (spec-table checks, name normalisation, the model
generator, the client renderers) reads ``$defs`` and ``#/$defs/...`` only, never a second
spelling. :func:`source_pointer` turns a pointer into the upgraded document back into the
file's own spelling, for messages.

What changes for draft-04/06/07 (and 2019-09's ``definitions``, which it still allows):
``definitions`` -> ``$defs`` (at every level) and every local ``$ref`` into them; ``items`` given
as a list -> ``prefixItems`` (with ``additionalItems`` -> ``items``); ``dependencies`` ->
``dependentRequired`` (lists) / ``dependentSchemas`` (schemas); draft-04's ``id`` -> ``$id`` and
its boolean ``exclusiveMinimum``/``exclusiveMaximum`` -> the numeric form. A ``$ref`` with
sibling assertions: before 2019-09 the siblings are ignored by every validator, so they are
dropped (annotations such as ``description`` stay, the model generator documents them).
"""

from __future__ import annotations

from typing import Any

DIALECT_2020_12 = "https://json-schema.org/draft/2020-12/schema"
_OLD = ("draft-04", "draft-06", "draft-07")
# Keywords that only annotate: kept beside a ``$ref`` of an older dialect.
_ANNOTATIONS = frozenset(
    {
        "description",
        "title",
        "default",
        "examples",
        "deprecated",
        "readOnly",
        "writeOnly",
        "$comment",
    }
)
# Keywords whose value is a map of name -> schema, or a list of schemas, or one schema.
_SCHEMA_MAPS = ("properties", "patternProperties", "definitions", "$defs", "dependentSchemas")
_SCHEMA_LISTS = ("allOf", "anyOf", "oneOf", "prefixItems")
_SCHEMA_ONE = (
    "additionalProperties",
    "propertyNames",
    "contains",
    "not",
    "if",
    "then",
    "else",
    "items",
    "additionalItems",
    "unevaluatedItems",
    "unevaluatedProperties",
)


def is_old_dialect(schema: dict[str, Any]) -> bool:
    """Whether ``schema`` declares a dialect before 2019-09 (or holds ``definitions`` only)."""
    declared = schema.get("$schema")
    if isinstance(declared, str):
        return any(name in declared for name in _OLD)
    return "definitions" in schema and "$defs" not in schema


def upgrade(schema: dict[str, Any]) -> dict[str, Any]:
    """The 2020-12 document equivalent to ``schema`` (a new object; ``schema`` is unchanged).
    A 2020-12 document with ``$defs`` is returned as it is."""
    old = is_old_dialect(schema)
    if not old and "definitions" not in schema:
        return schema
    result = _node(schema, old)
    assert isinstance(result, dict)
    if old:
        result["$schema"] = DIALECT_2020_12
    return result


def defs_of(schema: dict[str, Any]) -> dict[str, Any]:
    """The types of an upgraded schema (``$defs``), empty when it has none."""
    defs = schema.get("$defs")
    return defs if isinstance(defs, dict) else {}


def _ref(value: str) -> str:
    """A local ``$ref`` with each ``definitions`` keyword on its path renamed ``$defs`` (a
    property or type that happens to be called ``definitions`` keeps its name)."""
    if not value.startswith("#/"):
        return value
    tokens = value[2:].split("/")
    out: list[str] = []
    at_schema = True  # is the next token a keyword of a schema object?
    skip_name = False  # is it a name (of a property, a definition) or an index?
    for index, token in enumerate(tokens):
        if skip_name:
            out.append(token)
            skip_name, at_schema = False, True
            continue
        if not at_schema:
            out.append(token)
            continue
        following = tokens[index + 1] if index + 1 < len(tokens) else ""
        if token == "items" and following.isdigit():
            out.append("prefixItems")  # ``items`` as a list (older dialects)
            skip_name = True
            continue
        out.append("$defs" if token == "definitions" else token)
        if token in _SCHEMA_MAPS or token in _SCHEMA_LISTS or token == "dependencies":
            skip_name = True  # a name or an index follows
        elif token not in _SCHEMA_ONE:
            at_schema = False  # inside a value (enum, const...): nothing more to rename
    return "#/" + "/".join(out)


def _node(node: Any, old: bool) -> Any:
    if isinstance(node, list):
        return [_node(item, old) for item in node]
    if not isinstance(node, dict):
        return node
    if old and "$ref" in node:
        kept = {k: v for k, v in node.items() if k == "$ref" or k in _ANNOTATIONS}
        node = kept
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key == "$ref" and isinstance(value, str):
            out["$ref"] = _ref(value)
        elif key in ("enum", "const", "default", "examples"):
            out[key] = value  # values, not schemas
        elif key in _SCHEMA_MAPS and isinstance(value, dict):
            name = "$defs" if key == "definitions" else key
            out.setdefault(name, {}).update({k: _node(v, old) for k, v in value.items()})
        elif key in _SCHEMA_LISTS and isinstance(value, list):
            out[key] = [_node(v, old) for v in value]
        elif old and key == "items" and isinstance(value, list):
            out["prefixItems"] = [_node(v, old) for v in value]
            if "additionalItems" in node:
                out["items"] = _node(node["additionalItems"], old)
        elif old and key == "additionalItems":
            continue  # became ``items`` beside ``prefixItems``; alone it meant nothing
        elif old and key == "dependencies" and isinstance(value, dict):
            for name, dependency in value.items():
                target = "dependentRequired" if isinstance(dependency, list) else "dependentSchemas"
                out.setdefault(target, {})[name] = (
                    dependency if isinstance(dependency, list) else _node(dependency, old)
                )
        elif old and key == "id" and isinstance(value, str) and "$id" not in node:
            out["$id"] = value
        elif old and key in ("exclusiveMinimum", "exclusiveMaximum") and isinstance(value, bool):
            bound = "minimum" if key == "exclusiveMinimum" else "maximum"
            if value and bound in node:
                out[key] = node[bound]
        elif old and key in ("minimum", "maximum") and node.get(f"exclusive{key.title()}") is True:
            continue  # moved into exclusiveMinimum/exclusiveMaximum
        elif key in _SCHEMA_ONE:
            out[key] = _node(value, old)
        else:
            out[key] = value
    return out
