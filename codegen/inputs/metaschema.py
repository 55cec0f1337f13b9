"""A fast yes/no check that a document is a valid JSON Schema 2020-12 (its meta-schema).

jsonschema follows the 2020-12 meta-schema's ``$dynamicRef``s through its registry at every
subschema, which made checking the ACP schemas (640 KB) the build's second longest step. The
same meta-schema, as one plain document (its vocabularies merged, ``$dynamicRef: #meta`` as a
reference to the root, which is what it resolves to for this dialect), compiles with
fastjsonschema into straight Python that checks a schema in a few milliseconds.

It only answers yes or no: a document it refuses is checked again by jsonschema, which lists
every problem with its pointer (:func:`codegen.inputs.sources.check_is_schema`), so messages are
the same as before. Formats are not checked (jsonschema checks none without a format checker)
and defaults are never written into the document.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

DIALECT = "https://json-schema.org/draft/2020-12/schema"
_META = "https://json-schema.org/draft/2020-12/meta/"
# Keywords of the meta-schemas that assert nothing (or only name things for their dialect).
_DROPPED = frozenset(
    {
        "$schema",
        "$id",
        "$vocabulary",
        "$dynamicAnchor",
        "$comment",
        "title",
        "default",
        "deprecated",
        "description",
    }
)


def _plain(node: Any, vocabulary: str, defs: dict[str, Any], contents: Callable[[str], Any]) -> Any:
    """A meta-schema node as draft-07 for fastjsonschema (``vocabulary``: the document it is
    from, for its local ``$ref``s)."""
    if isinstance(node, list):
        return [_plain(item, vocabulary, defs, contents) for item in node]
    if not isinstance(node, dict):
        return node
    out: dict[str, Any] = {}
    ref: str | None = None
    for key, value in node.items():
        if key in _DROPPED:
            continue
        if key == "$dynamicRef":
            if value != "#meta":
                raise ValueError(f"unexpected $dynamicRef {value!r} in the meta-schema")
            ref = "#"
        elif key == "$ref":
            ref = _definition(value, vocabulary, defs, contents)
        elif key in ("enum", "const"):
            out[key] = value  # values, not schemas
        elif key == "$defs":
            continue  # reached through the $refs that use them
        elif key == "properties" and isinstance(value, dict):
            # property *names* are data here: their schemas are converted, the names kept
            out[key] = {name: _plain(s, vocabulary, defs, contents) for name, s in value.items()}
        else:
            out[key] = _plain(value, vocabulary, defs, contents)
    if ref is None:
        return out
    # draft-07 ignores the siblings of a $ref: keep them beside it, under allOf
    return {"allOf": [{"$ref": ref}, out]} if out else {"$ref": ref}


def _definition(
    ref: str, vocabulary: str, defs: dict[str, Any], contents: Callable[[str], Any]
) -> str:
    """``#/$defs/x`` of ``vocabulary`` or ``meta/<v>#/$defs/x`` as ``#/definitions/<v>.x``."""
    document, _, fragment = ref.partition("#")
    if document:
        vocabulary = document.removeprefix("meta/")
    if not fragment.startswith("/$defs/") or "/" in fragment[len("/$defs/") :]:
        raise ValueError(f"unexpected $ref {ref!r} in the meta-schema")
    name = f"{vocabulary}.{fragment[len('/$defs/') :]}"
    if name not in defs:
        defs[name] = {}  # placeholder: a definition may refer to itself
        source = contents(_META + vocabulary)["$defs"][fragment[len("/$defs/") :]]
        defs[name] = _plain(source, vocabulary, defs, contents)
    return f"#/definitions/{name}"


def plain_meta_schema() -> dict[str, Any]:
    """The 2020-12 meta-schema (from jsonschema's registry) as one draft-07 document."""
    from jsonschema_specifications import REGISTRY  # type: ignore[import-untyped]

    contents = REGISTRY.contents
    root = contents(DIALECT)
    defs: dict[str, Any] = {}
    properties: dict[str, Any] = {}
    parts = [root, *(contents(_META + p["$ref"].removeprefix("meta/")) for p in root["allOf"])]
    for index, part in enumerate(parts):
        vocabulary = "schema" if index == 0 else part["$id"].removeprefix(_META)
        if set(part) - _DROPPED - {"allOf", "type", "properties", "$defs"}:
            raise ValueError(f"unexpected keywords in the meta-schema {vocabulary}")
        if part["type"] != ["object", "boolean"]:
            raise ValueError(f"unexpected type in the meta-schema {vocabulary}")
        for name, schema in part.get("properties", {}).items():
            if name in properties:
                raise ValueError(f"{name} is defined by two vocabularies")
            properties[name] = _plain(schema, vocabulary, defs, contents)
    return {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "type": ["object", "boolean"],
        "properties": properties,
        "definitions": defs,
    }


@cache
def _compiled() -> Callable[[Any], Any]:
    import fastjsonschema

    check: Callable[[Any], Any] = fastjsonschema.compile(
        plain_meta_schema(), use_default=False, use_formats=False, detailed_exceptions=False
    )
    return check


def is_valid_schema(document: Any) -> bool:
    """Does ``document`` pass the JSON Schema 2020-12 meta-schema? (formats not checked)"""
    import fastjsonschema

    try:
        _compiled()(document)
    except fastjsonschema.JsonSchemaValueException:
        return False
    return True
