"""Schema rewrites applied before model generation, so class names are stable and public.

datamodel-code-generator names an untitled union variant ``Parent1``, ``Parent2``... by position,
and two inline types that want the same name ``Format`` and ``Format1``, so a reorder upstream
would silently rename public classes. Here, before generation:

- every inline union variant gets a title from its parent and its tag (``SessionUpdate`` +
  ``tool_call`` → ``SessionUpdateToolCall``), its own short title, or its shape (``Enum``,
  ``Pattern``, ``String``...);
- inline enums and objects whose property name collides with a type, or with another inline
  type, are titled by their property path (``decoder.format`` → ``DecoderFormat``);
- tagged unions without a ``discriminator`` get one;
- where the protocol keeps unknown values and drops catch-alls (``unknown_values: keep``,
  ``catch_alls: drop``), a union's catch-all
  variant (titled ``other``, with a ``not`` of the known tags: how ACP v2 writes an open union
  or enum) is dropped, so the union is tagged (or the enum a plain one) and the models' own
  open machinery takes what no known variant matches (``Unknown...``, ``UnknownValue``); and
  a tagged variant that merges a whole union into itself (ACP v2's ``state_update``: the tag
  plus one of ``StateUpdate``'s variants) keeps its tag and the merged union's fields as sent
  (``model_extra``; validate them with the union's ``TypeAdapter``): the model generator can
  only merge one object into a variant, and numbers what it makes of a union.

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
    schema: dict[str, Any],
    *,
    root_name: str | None,
    exclude: tuple[str, ...],
    open_catch_alls: bool = False,
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
    if open_catch_alls:
        _drop_catch_alls(result)
        _flatten_nested_unions(defs)

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


def _is_catch_all(variant: Any) -> bool:
    """A union's ``other`` variant: whatever the known variants are not (``not``)."""
    return (
        isinstance(variant, dict)
        and str(variant.get("title", "")).lower() == "other"
        and isinstance(variant.get("not"), dict)
    )


def _drop_catch_alls(node: Any) -> None:
    """Drop a union's catch-all variant where the rest all carry a distinct constant of the
    same property (tagged objects), or are enum values: the union is then a ``oneOf`` (as
    exclusive as it always was) that the models open by themselves. A catch-all beside an
    untagged variant stays: it is what keeps that union open."""
    if isinstance(node, list):
        for item in node:
            _drop_catch_alls(item)
        return
    if not isinstance(node, dict):
        return
    for keyword_ in ("anyOf", "oneOf"):
        variants = node.get(keyword_)
        if isinstance(variants, list) and any(_is_catch_all(v) for v in variants):
            kept = [v for v in variants if not _is_catch_all(v)]
            consts = [_constant(v) for v in kept]
            exclusive = (
                bool(kept)
                and all(c is not None for c in consts)
                and len(set(consts)) == len(consts)
                and len({c[0] for c in consts if c is not None}) == 1
            )
            if exclusive:
                del node[keyword_]
                node["oneOf"] = kept
    for value in node.values():
        _drop_catch_alls(value)


def _constant(variant: Any) -> tuple[str, str] | None:
    """What makes a variant exclusive: its ``const`` value, or its tag (property, value)."""
    if not isinstance(variant, dict):
        return None
    if isinstance(variant.get("const"), str):
        return ("", variant["const"])
    tags = [
        (key, prop["const"])
        for key, prop in (variant.get("properties") or {}).items()
        if isinstance(prop, dict) and isinstance(prop.get("const"), str)
    ]
    return tags[0] if len(tags) == 1 else None


def _union_def(defs: dict[str, Any], ref: Any) -> bool:
    """``ref`` names a definition that is a union (``anyOf``/``oneOf`` of objects)."""
    if not isinstance(ref, str) or not ref.startswith("#/$defs/"):
        return False
    target = defs.get(ref.rsplit("/", 1)[1])
    return isinstance(target, dict) and any(k in target for k in ("anyOf", "oneOf"))


def _merges_union(defs: dict[str, Any], variant: Any) -> bool:
    """A union variant that merges (``allOf``) a union into itself."""
    merged = variant.get("allOf") if isinstance(variant, dict) else None
    return isinstance(merged, list) and any(
        isinstance(m, dict) and _union_def(defs, m.get("$ref")) for m in merged
    )


def _deeply_nested(defs: dict[str, Any], ref: Any) -> bool:
    """``ref`` names a union one of whose variants merges a union in turn (two levels deep:
    what the model generator numbers)."""
    if not _union_def(defs, ref):
        return False
    target = defs[str(ref).rsplit("/", 1)[1]]
    variants = (target.get("anyOf") or []) + (target.get("oneOf") or [])
    return any(_merges_union(defs, v) for v in variants)


def _flatten_nested_unions(defs: dict[str, Any]) -> None:
    """A tagged union variant ``{tag} + allOf: [<a union of variants that merge unions>]``
    keeps its tag; the union's fields stay as sent (the variant's ``model_extra``),
    documented on the variant. (One level of merging the model generator does by itself.)"""
    for definition in defs.values():
        if not isinstance(definition, dict):
            continue
        for keyword_ in ("anyOf", "oneOf"):
            for variant in definition.get(keyword_) or ():
                if not isinstance(variant, dict) or _constant(variant) is None:
                    continue
                merged = variant.get("allOf")
                if not isinstance(merged, list):
                    continue
                unions = [
                    m for m in merged if isinstance(m, dict) and _deeply_nested(defs, m.get("$ref"))
                ]
                if not unions:
                    continue
                variant["allOf"] = [m for m in merged if m not in unions] or None
                if variant["allOf"] is None:
                    del variant["allOf"]
                names = ", ".join(f"``{str(m['$ref']).rsplit('/', 1)[1]}``" for m in unions)
                note = (
                    f"The fields of {names} (one of its variants) are kept as sent, in "
                    "``model_extra``: validate them with its ``TypeAdapter``."
                )
                variant["description"] = (
                    str(variant.get("description", "")) + "\n\n" + note
                ).strip()
                variant["additionalProperties"] = True
