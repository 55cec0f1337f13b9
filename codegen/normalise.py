"""Schema rewrites applied before model generation, so class names are stable and public.

datamodel-code-generator names an untitled union variant ``Parent1``, ``Parent2``... by position,
so a reorder upstream silently renames public classes. Here every inline variant gets a title
made from its parent and its tag (``SessionUpdate`` + ``tool_call`` → ``SessionUpdateToolCall``)
or its own short title, and tagged unions without a ``discriminator`` get one. The input
document is never modified.
"""

from __future__ import annotations

import copy
import re
from typing import Any

DISCARDED_ROOT = "CodegenDiscardedRoot"
_KEEP_AT_ROOT = ("$schema", "$id", "$defs", "definitions", "description")


def pascal(text: str) -> str:
    """``tool_call`` → ``ToolCall``; ``resource-link`` → ``ResourceLink``."""
    return "".join(p[:1].upper() + p[1:] for p in re.split(r"[^0-9A-Za-z]+", text) if p)


def normalise(
    schema: dict[str, Any], *, root_name: str | None, exclude: tuple[str, ...]
) -> tuple[dict[str, Any], dict[str, str]]:
    """Return a rewritten copy of ``schema`` ready for model generation.

    Also returns, for every variant title it made, the suffix it added to the parent's name
    (``SessionUpdateToolCall`` → ``ToolCall``), which :func:`codegen.models.generate_models`
    uses to name the classes the generator builds by merging such variants.
    """
    result = copy.deepcopy(schema)
    suffixes: dict[str, str] = {}
    defs_key = "$defs" if "$defs" in result else "definitions"
    defs: dict[str, Any] = result.get(defs_key, {})
    if root_name is None:
        # Only the $defs are types; the root (e.g. ACP's message envelope) is not a model.
        result = {k: v for k, v in result.items() if k in _KEEP_AT_ROOT}
        result["title"] = DISCARDED_ROOT
        result["type"] = "object"
    else:
        result["title"] = root_name
    for name in exclude:
        defs.pop(name, None)
    for name, definition in defs.items():
        if isinstance(definition, dict):
            _name_variants(definition, definition.get("title") or name, defs, suffixes)
    _name_variants(result, result["title"], defs, suffixes, top=True)
    return result, suffixes


def _tag(variant: dict[str, Any], defs: dict[str, Any]) -> tuple[str, str] | None:
    """The (property, value) a union variant is tagged with, if exactly one."""
    props = dict(variant.get("properties") or {})
    ref = variant.get("$ref")
    if isinstance(ref, str) and ref.startswith(("#/$defs/", "#/definitions/")):
        target = defs.get(ref.rsplit("/", 1)[1])
        if isinstance(target, dict):
            props = {**(target.get("properties") or {}), **props}
    tags = [
        (key, prop["const"])
        for key, prop in props.items()
        if isinstance(prop, dict) and isinstance(prop.get("const"), str)
    ]
    return tags[0] if len(tags) == 1 else None


def _name_variants(
    node: Any, parent: str, defs: dict[str, Any], suffixes: dict[str, str], *, top: bool = False
) -> None:
    if isinstance(node, list):
        for item in node:
            _name_variants(item, parent, defs, suffixes)
        return
    if not isinstance(node, dict):
        return
    for keyword in ("oneOf", "anyOf"):
        variants = node.get(keyword)
        if not isinstance(variants, list):
            continue
        tags = [_tag(v, defs) if isinstance(v, dict) else None for v in variants]
        for variant, tag in zip(variants, tags, strict=True):
            if not isinstance(variant, dict) or "$ref" in variant:
                continue
            own = variant.get("title")
            suffix = None
            if isinstance(own, str) and own:
                if not own.startswith(parent):
                    suffix = pascal(own)
            elif tag is not None:
                suffix = pascal(tag[1])
            if suffix:
                variant["title"] = parent + suffix
                suffixes[parent + suffix] = suffix
        _add_discriminator(node, keyword, tags)
    for key, value in node.items():
        if key in ("not", "const", "default", "examples", "enum"):
            continue
        if key in ("$defs", "definitions") and top:
            continue  # handled one by one by normalise()
        child_parent = parent
        if isinstance(value, dict) and isinstance(value.get("title"), str):
            child_parent = value["title"]
        _name_variants(value, child_parent, defs, suffixes)


def _add_discriminator(
    node: dict[str, Any], keyword: str, tags: list[tuple[str, str] | None]
) -> None:
    """A union whose every variant is tagged by the same property gets a discriminator."""
    if keyword != "oneOf" or "discriminator" in node or not tags:
        return
    if any(t is None for t in tags):
        return
    properties = {t[0] for t in tags if t is not None}
    values = [t[1] for t in tags if t is not None]
    if len(properties) == 1 and len(set(values)) == len(values):
        node["discriminator"] = {"propertyName": properties.pop()}
