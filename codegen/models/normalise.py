"""Schema rewrites applied before model generation, so class names are stable and public.

datamodel-code-generator names an untitled union variant ``Parent1``, ``Parent2``... by position,
and two inline types that want the same name ``Format`` and ``Format1``, so a reorder upstream
would silently rename public classes. Here, before generation:

- every inline union variant gets a title from its parent and its tag (``SessionUpdate`` +
  ``tool_call`` → ``SessionUpdateToolCall``), its own short title, or its shape (``Enum``,
  ``Pattern``, ``String``...);
- inline enums and objects whose property name collides with a type, or with another inline
  type, are titled by their property path (``decoder.format`` → ``DecoderFormat``);
- tagged unions without a ``discriminator`` get one.

Names depend on titles, tags and property names, never on positions. The input is not modified.
"""

from __future__ import annotations

import copy
import keyword
import re
from collections import defaultdict
from typing import Any

from codegen.errors import BuildError, Problem, to_pointer

DISCARDED_ROOT = "CodegenDiscardedRoot"
_KEEP_AT_ROOT = ("$schema", "$id", "$defs", "definitions", "description")
_CHILD_SCHEMAS = ("items", "additionalProperties", "allOf", "prefixItems", "contains")


def pascal(text: str) -> str:
    """``tool_call`` → ``ToolCall``; ``resource-link`` → ``ResourceLink``."""
    return "".join(p[:1].upper() + p[1:] for p in re.split(r"[^0-9A-Za-z]+", text) if p)


def normalise(
    schema: dict[str, Any], *, root_name: str | None, exclude: tuple[str, ...]
) -> tuple[dict[str, Any], dict[str, str]]:
    """Return a rewritten copy of ``schema`` ready for model generation.

    Also returns, for every variant title it made, the suffix it added to the parent's name
    (``SessionUpdateToolCall`` → ``ToolCall``), which
    :func:`codegen.models.generate.generate_models` uses to name the classes the generator
    builds by merging such variants.
    """
    result = copy.deepcopy(schema)
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

    class_names = _def_class_names(defs, defs_key)
    walker = _Walker(defs)
    for name, definition in defs.items():
        if isinstance(definition, dict):
            walker.walk(definition, class_names[name], (class_names[name],))
    walker.walk(
        {k: v for k, v in result.items() if k not in ("$defs", "definitions")},
        result["title"],
        (result["title"],),
    )
    walker.title_inline_types()
    return result, walker.suffixes


def class_name(text: str) -> str:
    """A PascalCase identifier for any text; never a keyword, never empty."""
    name = pascal(text) or "Model"
    if name[0].isdigit():
        name = "T" + name
    if keyword.iskeyword(name) or name in ("None", "True", "False"):
        # Not "None_": the model generator strips the underscore, then numbers the clash.
        name += "Model"
    return name


def _def_class_names(defs: dict[str, Any], defs_key: str) -> dict[str, str]:
    """Every type's class name (from its title, else its key), titled so the generator uses
    exactly that name. Two types wanting one name is an error, not a silent ``Foo1``."""
    names: dict[str, str] = {}
    owners: dict[str, str] = {}
    problems = []
    for key, definition in defs.items():
        if not isinstance(definition, dict):
            continue
        title = definition.get("title")
        name = class_name(title if isinstance(title, str) and title else key)
        if name in owners:
            problems.append(
                Problem(
                    "",
                    to_pointer([defs_key, key]),
                    f"its class name {name!r} is also that of {owners[name]!r}; give one a "
                    "distinct title",
                )
            )
            continue
        owners[name] = key
        names[key] = name
        if "title" in definition or name != key:
            definition["title"] = name
    if problems:
        raise BuildError(problems)
    return names


class _Walker:
    def __init__(self, defs: dict[str, Any]) -> None:
        self.defs = defs
        self.taken = set(defs) | {
            d["title"]
            for d in defs.values()
            if isinstance(d, dict) and isinstance(d.get("title"), str)
        }
        self.suffixes: dict[str, str] = {}
        # Inline enums/objects named after their property: (node, property path).
        self.inline: list[tuple[dict[str, Any], tuple[str, ...]]] = []

    def walk(self, node: Any, name: str, path: tuple[str, ...]) -> None:
        if isinstance(node, list):
            for item in node:
                self.walk(item, name, path)
            return
        if not isinstance(node, dict):
            return
        for union in ("oneOf", "anyOf"):
            variants = node.get(union)
            if isinstance(variants, list):
                self._name_variants(node, union, variants, name)
                for variant in variants:
                    if isinstance(variant, dict):
                        self.walk(variant, variant.get("title", name), path)
        properties = node.get("properties")
        if isinstance(properties, dict):
            for prop, sub in properties.items():
                if not isinstance(sub, dict):
                    continue
                if (
                    "title" not in sub
                    and "$ref" not in sub
                    and ("enum" in sub or "properties" in sub)
                ):
                    self.inline.append((sub, (*path, prop)))
                self.walk(sub, sub.get("title") or pascal(prop), (*path, prop))
        for child in _CHILD_SCHEMAS:
            if child in node:
                self.walk(node[child], name, path)

    def _name_variants(
        self, node: dict[str, Any], keyword: str, variants: list[Any], parent: str
    ) -> None:
        tags = [_tag(v, self.defs) if isinstance(v, dict) else None for v in variants]
        chosen: list[tuple[dict[str, Any], str]] = []
        for variant, tag in zip(variants, tags, strict=True):
            if not isinstance(variant, dict) or "$ref" in variant:
                continue
            own = variant.get("title")
            if isinstance(own, str) and own:
                if not own.startswith(parent):
                    chosen.append((variant, pascal(own)))
            elif tag is not None:
                chosen.append((variant, pascal(tag[1])))
            elif (shape := _shape(variant)) is not None:
                chosen.append((variant, shape))
        counts: dict[str, int] = defaultdict(int)
        for _, suffix in chosen:
            counts[suffix] += 1
        for variant, suffix in chosen:
            if counts[suffix] == 1 and suffix:  # ambiguous shapes stay for the rename map
                variant["title"] = parent + suffix
                self.suffixes[parent + suffix] = suffix
        _add_discriminator(node, keyword, tags)

    def title_inline_types(self) -> None:
        """Inline types whose natural name is taken, or wanted twice, get a path-based title."""
        by_name: dict[str, list[tuple[dict[str, Any], tuple[str, ...]]]] = defaultdict(list)
        for node, path in self.inline:
            by_name[pascal(path[-1])].append((node, path))
        for natural, group in sorted(by_name.items()):
            if len(group) == 1 and natural not in self.taken:
                continue
            for node, path in group:
                for length in range(2, len(path) + 1):
                    candidate = "".join(pascal(p) for p in path[-length:])
                    others = [
                        "".join(pascal(p) for p in q[-length:]) for _, q in group if q != path
                    ]
                    if candidate not in self.taken and candidate not in others:
                        node["title"] = candidate
                        break


def _join(path: tuple[str, ...]) -> str:
    return "".join(pascal(p) for p in path)


def _shape(variant: dict[str, Any]) -> str | None:
    """A name for an untagged, untitled variant from what it is, not where it is."""
    if "enum" in variant:
        return "Enum"
    if "pattern" in variant:
        return "Pattern"
    kind = variant.get("type")
    if isinstance(kind, str) and kind != "object":
        return pascal(kind)
    return None


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
