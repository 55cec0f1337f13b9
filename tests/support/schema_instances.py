"""Instances of every type the package is built from, drawn from the JSON Schemas themselves,
each with the union variants it was drawn from (issue 43's round-trip property).

Which schemas: every models unit of every protocol and edition that ``schemas/`` holds,
read by the generator's own loader (``codegen.pipeline.load_protocols``), so a protocol added
there is drawn from without a change here. Which types: every definition (``$defs`` or
draft-07's ``definitions``) a unit does not exclude, and the root where the unit names one.

Why not hypothesis-jsonschema: it cannot say which variant of a union an instance was drawn
from (the property needs it), it draws extra properties with any name (a sibling variant's
tag among them, which makes the instance another variant's), and it is slow on these schemas:
20 instances of ACP's ``AuthMethod`` took 5.9 s and ``SessionNotification`` failed its health
check (one instance in 3.2 s), where the whole property here has about a minute for
about 1,000 types.

What is drawn, per keyword: ``type`` (one or a list), ``properties`` / ``required`` (each
optional property in or out), ``additionalProperties`` (a schema: a few entries; open: a few
``xExtraN`` fields no schema names, which the models keep as sent; ``false``: none),
``items`` / ``minItems`` / ``maxItems`` / ``uniqueItems``, ``enum``, ``const``, ``pattern``,
``format`` (uri, date-time, the integer widths...), ``minimum`` / ``maximum``, ``minLength``,
``$ref`` / ``allOf`` (merged), ``anyOf`` / ``oneOf`` (one variant, recorded), ``not`` and
``if`` / ``then`` (checked by the schema's validator: a draw that breaks them is rejected). Every
instance is valid against its definition: that is checked, not assumed.
"""

from __future__ import annotations

import datetime
import importlib
import json
import string
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import cache, cached_property
from pathlib import Path
from typing import Any

import jsonschema
from hypothesis import assume
from hypothesis import strategies as st

from codegen.ir import ModelUnit
from codegen.models.normalise import class_name
from codegen.pipeline import Layout, load_protocols

ROOT = Path(__file__).resolve().parents[2]
MAX_DEPTH = 4  # past it, optional properties are left out and arrays are as short as allowed
EXTRA = "xExtra"  # the prefix of the unknown fields drawn into open objects (no schema uses it)
_UNIONS = ("anyOf", "oneOf")
_INT_FORMATS = {
    "int32": (-(2**31), 2**31 - 1),
    "int64": (-(2**63), 2**63 - 1),
    "uint8": (0, 2**8 - 1),
    "uint16": (0, 2**16 - 1),
    "uint32": (0, 2**32 - 1),
    "uint64": (0, 2**64 - 1),
}
_NAME = st.text(string.ascii_letters + string.digits + "_-", min_size=1, max_size=6)
_CHARACTERS = st.characters(exclude_categories=("Cs",))
_TEXT = st.text(_CHARACTERS, max_size=6)
_BOOLEANS = st.booleans()
_URI = st.builds(
    "{}://{}/{}".format,
    st.sampled_from(["https", "http", "file"]),
    st.from_regex(r"[a-z][a-z0-9]{0,5}(\.[a-z]{2,3})?", fullmatch=True),
    st.from_regex(r"[A-Za-z0-9_~.-]{0,6}", fullmatch=True),
)
_DATE_TIME = st.datetimes(timezones=st.just(datetime.UTC)).map(
    lambda d: d.isoformat().replace("+00:00", "Z")
)
_FORMATS: dict[str, st.SearchStrategy[str]] = {
    "uri": _URI,
    "date-time": _DATE_TIME,
    "regex": st.sampled_from(["^a$", "[0-9]+", ".*"]),
    "json-pointer": st.lists(_NAME, max_size=3).map(lambda parts: "".join("/" + p for p in parts)),
    "uri-template": st.sampled_from(["/items/{id}", "https://example.com/{a}{?b}"]),
}
_EXTRA_VALUE = st.one_of(
    st.none(), st.booleans(), st.integers(-5, 5), _TEXT, st.lists(_TEXT, max_size=2)
)
_ANY_KIND = st.sampled_from(["string", "integer", "boolean", "null", "object"])
_EXTRA_KEYS = st.lists(_NAME, max_size=2, unique=True)


@dataclass(frozen=True)
class Choice:
    """A union an instance went through: where (the instance's path), which union (its
    schema pointer) and which variant, and whether the models have a member of their own for
    each variant (a union merged into a variant's fields with ``allOf`` has none)."""

    path: tuple[str | int, ...]
    pointer: str  # where the union is written (for messages)
    index: int
    direct: bool
    variants: list[Any] = field(compare=False, repr=False)
    base: dict[str, Any] = field(compare=False, repr=False)  # what the union sits beside


@dataclass
class Drawn:
    value: Any
    choices: list[Choice] = field(default_factory=list)


@dataclass(frozen=True)
class SchemaType:
    """One type of one models unit: the module, the attribute holding it, its schema."""

    unit: ModelUnit
    key: str | None  # the definition's key; None for the unit's root
    name: str  # the attribute of the module (class or type alias)

    @property
    def module(self) -> str:
        return "agentproto." + self.unit.module.removesuffix(".py").replace("/", ".")

    @property
    def pointer(self) -> str:
        if self.key is None:
            return ""
        defs = "$defs" if "$defs" in self.unit.schema else "definitions"
        return f"/{defs}/{_escape(self.key)}"

    @property
    def id(self) -> str:
        return f"{self.unit.module.removesuffix('/models.py').removesuffix('.py')}:{self.name}"

    def __repr__(self) -> str:
        return self.id

    def python_type(self) -> Any:
        return getattr(importlib.import_module(self.module), self.name)


def units() -> list[ModelUnit]:
    """Every models unit of every protocol and edition in ``schemas/``."""
    return [u for p in load_protocols(Layout.for_root(ROOT)) for u in p.models]


def schema_types(unit: ModelUnit) -> list[SchemaType]:
    """The unit's types: each definition it keeps, then its root if it names one."""
    schema = unit.schema
    defs = schema.get("$defs", schema.get("definitions", {}))
    renames = dict(unit.renames)
    found = []
    for key, definition in defs.items():
        if key in unit.exclude or not isinstance(definition, dict):
            continue
        title = definition.get("title")
        name = class_name(title if isinstance(title, str) and title else key)
        found.append(SchemaType(unit, key, renames.get(name, name)))
    if unit.root_name is not None:
        found.append(SchemaType(unit, None, unit.root_name))
    return found


def _escape(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1")


def resolve_pointer(document: Any, pointer: str) -> Any:
    node = document
    for part in pointer.split("/")[1:] if pointer else ():
        part = part.replace("~1", "/").replace("~0", "~")
        node = node[int(part)] if isinstance(node, list) else node[part]
    return node


class Instances:
    """Hypothesis strategies for the instances of one schema's types."""

    def __init__(self, schema: dict[str, Any]) -> None:
        self.schema = schema
        self._validators: dict[str, Any] = {}
        self._strategies: dict[str, st.SearchStrategy[Drawn]] = {}

    @cached_property
    def validator_class(self) -> Any:
        return jsonschema.validators.validator_for(
            self.schema, default=jsonschema.Draft202012Validator
        )

    def validator(self, pointer: str) -> Any:
        """A validator of the schema at ``pointer`` (references resolve in the whole schema)."""
        found = self._validators.get(pointer)
        if found is None:
            defs = {k: self.schema[k] for k in ("$defs", "definitions") if k in self.schema}
            target = {**defs, "allOf": [{"$ref": "#" + pointer}]} if pointer else self.schema
            found = self._validators[pointer] = self.validator_class(target)
        return found

    def variant_validator(self, base: dict[str, Any], variant: Any) -> Any:
        """A validator of one variant of a union with what the union sits beside."""
        key = f"{id(variant)} {json.dumps(base, sort_keys=True, default=str)}"
        found = self._validators.get(key)
        if found is None:
            defs = {k: self.schema[k] for k in ("$defs", "definitions") if k in self.schema}
            found = self._validators[key] = self.validator_class({**defs, "allOf": [base, variant]})
        return found

    def is_valid(self, pointer: str, value: Any) -> bool:
        return bool(self.validator(pointer).is_valid(value))

    def strategy(self, pointer: str, variant: int | None = None) -> st.SearchStrategy[Drawn]:
        """Instances of the schema at ``pointer``, valid against it; ``variant``: of that
        variant of its union."""
        key = f"{pointer} {variant}"
        found = self._strategies.get(key)
        if found is None:
            found = self._strategies[key] = _instances(self, pointer, variant)
        return found

    def variants(self, pointer: str) -> int:
        """How many variants the union at ``pointer`` has (0: it is no union)."""
        _, unions = self.flatten({"$ref": "#" + pointer}, pointer)
        return len(unions[0][0]) if unions else 0

    # --- reading the schema -------------------------------------------------------------

    def deref(self, node: Any) -> tuple[dict[str, Any], str | None]:
        """The node a ``$ref`` chain ends at, with the ``$ref``'s siblings merged in; and the
        pointer of the last definition followed."""
        pointer = None
        seen = 0
        while isinstance(node, dict) and isinstance(node.get("$ref"), str):
            ref = node["$ref"]
            if not ref.startswith("#"):
                raise ValueError(f"an external reference: {ref}")
            pointer = ref[1:]
            target = resolve_pointer(self.schema, pointer)
            rest = {k: v for k, v in node.items() if k != "$ref"}
            node = {**target, **rest} if rest else target
            seen += 1
            if seen > 50:
                raise ValueError(f"a $ref cycle at {ref}")
        if node is True or node is None:
            return {}, pointer
        if node is False:
            raise ValueError("a false schema has no instance")
        return node, pointer

    def flatten(
        self, node: Any, pointer: str
    ) -> tuple[dict[str, Any], list[tuple[list[Any], str]]]:
        """``node`` with its references and ``allOf`` merged: the merged keywords, and the
        unions it must also satisfy (variants, pointer), its own first."""
        node, ref = self.deref(node)
        pointer = ref if ref is not None else pointer
        merged = {k: v for k, v in node.items() if k not in ("allOf", *_UNIONS)}
        unions: list[tuple[list[Any], str]] = []
        for keyword in _UNIONS:
            if isinstance(node.get(keyword), list):
                unions.append((node[keyword], f"{pointer}/{keyword}"))
        for i, part in enumerate(node.get("allOf") or ()):
            sub, sub_unions = self.flatten(part, f"{pointer}/allOf/{i}")
            merged = combine(merged, sub)
            unions.extend(sub_unions)
        return merged, unions


@st.composite
def _instances(draw: st.DrawFn, instances: Instances, pointer: str, variant: int | None) -> Drawn:
    drawn = Drawn(None)
    drawn.value = _Draw(instances, draw, drawn.choices, variant).value(
        {"$ref": "#" + pointer}, pointer, (), 0, direct=True
    )
    assume(instances.is_valid(pointer, drawn.value))  # `not`, `if`/`then`: rare rejects
    return drawn


@cache
def _integers(low: int | None, high: int | None) -> st.SearchStrategy[int]:
    return st.integers(low, high)


@cache
def _floats(low: float | None, high: float | None) -> st.SearchStrategy[float]:
    return st.floats(low, high, allow_nan=False, allow_infinity=False)


@cache
def _sampled(values: tuple[Any, ...]) -> st.SearchStrategy[Any]:
    return st.sampled_from(values)


@cache
def _text(low: int, high: int) -> st.SearchStrategy[str]:
    return st.text(_CHARACTERS, min_size=low, max_size=high)


@cache
def _pattern(pattern: str) -> st.SearchStrategy[str]:
    return st.from_regex(pattern, fullmatch=True)


def combine(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
    """Two schemas' keywords as one (``allOf`` of object schemas, as these schemas use it)."""
    out = dict(a)
    for key, value in b.items():
        if key not in out:
            out[key] = value
        elif key == "properties":
            props = dict(out[key])
            for name, sub in value.items():
                props[name] = {"allOf": [props[name], sub]} if name in props else sub
            out[key] = props
        elif key == "required":
            out[key] = list(dict.fromkeys([*out[key], *value]))
        elif key == "type":
            left = set(out[key]) if isinstance(out[key], list) else {out[key]}
            right = set(value) if isinstance(value, list) else {value}
            both = sorted(left & right)
            out[key] = both[0] if len(both) == 1 else both
        elif key in ("additionalProperties", "unevaluatedProperties"):
            out[key] = value if value is False else out[key]
        elif key in ("minimum", "minLength", "minItems"):
            out[key] = max(out[key], value)
        elif key in ("maximum", "maxLength", "maxItems"):
            out[key] = min(out[key], value)
        elif key == "not":
            out[key] = {"anyOf": [out[key], value]}
    return out


class _Draw:
    def __init__(
        self, instances: Instances, draw: st.DrawFn, choices: list[Choice], variant: int | None
    ) -> None:
        self.instances = instances
        self.draw = draw
        self.choices = choices
        self.forced = variant  # the variant of the first union met (the type's own)

    def value(
        self, node: Any, pointer: str, path: tuple[str | int, ...], depth: int, *, direct: bool
    ) -> Any:
        merged, unions = self.instances.flatten(node, pointer)
        pending = [(variants, where, direct) for variants, where in unions[:1]]
        pending += [(variants, where, False) for variants, where in unions[1:]]
        while pending:
            (variants, where, own), pending = pending[0], pending[1:]
            if self.forced is not None:
                index, self.forced = self.forced, None
            else:
                index = self._pick_variant(variants, depth)
            variant, more = self.instances.flatten(variants[index], f"{where}/{index}")
            # A variant that is only another union (``$ref`` to one, perhaps beside null) is
            # that union in the models: the inner one has the members. A union merged into a
            # variant beside fields of its own has no member of its own in the models.
            wrapper = bool(more) and not variant.get("properties")
            self.choices.append(Choice(path, where, index, own and not wrapper, variants, merged))
            merged = combine(merged, variant)
            pending += [(v, w, own and wrapper and i == 0) for i, (v, w) in enumerate(more)]
        return self._plain(merged, pointer, path, depth)

    def _pick_variant(self, variants: list[Any], depth: int) -> int:
        if depth > MAX_DEPTH:  # prefer one that ends the recursion: null, or a scalar
            for i, v in enumerate(variants):
                if isinstance(v, dict) and v.get("type") in ("null", "string", "boolean"):
                    return i
        return self.draw(_integers(0, len(variants) - 1))

    def _plain(
        self, node: dict[str, Any], pointer: str, path: tuple[str | int, ...], depth: int
    ) -> Any:
        if "const" in node:
            return node["const"]
        if isinstance(node.get("enum"), list):
            return self.draw(_sampled(tuple(node["enum"])))
        kind = node.get("type")
        if isinstance(kind, list):
            kinds = [k for k in kind if k != "null"] if depth > MAX_DEPTH else kind
            kind = self.draw(_sampled(tuple(kinds or kind)))
        if kind is None:
            kind = "object" if "properties" in node else self.draw(_ANY_KIND)
        if kind == "null":
            return None
        if kind == "boolean":
            return self.draw(st.booleans())
        if kind == "integer":
            low, high = _INT_FORMATS.get(node.get("format", ""), (None, None))
            low = node.get("minimum", low)
            high = node.get("maximum", high)
            return self.draw(_integers(low, high))
        if kind == "number":
            return self.draw(_floats(node.get("minimum"), node.get("maximum")))
        if kind == "string":
            return self._string(node)
        if kind == "array":
            return self._array(node, pointer, path, depth)
        if kind == "object":
            return self._object(node, pointer, path, depth)
        raise ValueError(f"{pointer}: type {kind!r}")

    def _string(self, node: dict[str, Any]) -> str:
        fmt = node.get("format")
        low, high = node.get("minLength", 0), node.get("maxLength")
        if isinstance(node.get("pattern"), str):
            text = _pattern(node["pattern"])
        elif fmt in _FORMATS:
            text = _FORMATS[fmt]
        else:
            text = _text(low, max(low, 6) if high is None else high)
        value: str = self.draw(text)
        assume(len(value) >= low and (high is None or len(value) <= high))
        return value

    def _array(
        self, node: dict[str, Any], pointer: str, path: tuple[str | int, ...], depth: int
    ) -> list[Any]:
        low = node.get("minItems", 0)
        high = node.get("maxItems", low if depth > MAX_DEPTH else low + 2)
        count = self.draw(_integers(low, max(low, high)))
        items = node.get("items", {})
        values = [
            self.value(items, f"{pointer}/items", (*path, i), depth + 1, direct=True)
            for i in range(count)
        ]
        if node.get("uniqueItems"):
            seen = [json.dumps(v, sort_keys=True) for v in values]
            assume(len(set(seen)) == len(seen))
        return values

    def _object(
        self, node: dict[str, Any], pointer: str, path: tuple[str | int, ...], depth: int
    ) -> dict[str, Any]:
        properties: Mapping[str, Any] = node.get("properties") or {}
        required = set(node.get("required") or ())
        out: dict[str, Any] = {}
        optional = [name for name in properties if name not in required]
        # which optional properties are in: one draw for all of them
        chosen = (
            0
            if depth > MAX_DEPTH or not optional
            else self.draw(_integers(0, 2 ** len(optional) - 1))
        )
        present = {name for i, name in enumerate(optional) if chosen >> i & 1}
        for name, sub in properties.items():
            if name not in required and name not in present:
                continue
            out[name] = self.value(
                sub, f"{pointer}/properties/{_escape(name)}", (*path, name), depth + 1, direct=True
            )
        for name in sorted(required - set(properties)):  # required, with no schema: any value
            out[name] = self.draw(_TEXT)
        extra = node.get("additionalProperties", True)
        closed = extra is False or node.get("unevaluatedProperties") is False
        if isinstance(extra, dict) and extra and depth <= MAX_DEPTH:
            for key in self.draw(_EXTRA_KEYS):
                if key not in properties:
                    out[key] = self.value(
                        extra,
                        f"{pointer}/additionalProperties",
                        (*path, key),
                        depth + 1,
                        direct=True,
                    )
        elif not closed and depth <= MAX_DEPTH and self.draw(_integers(0, 3)) == 0:
            out[f"{EXTRA}0"] = self.draw(_EXTRA_VALUE)
        return out


def all_types() -> Iterator[SchemaType]:
    for unit in units():
        yield from schema_types(unit)
