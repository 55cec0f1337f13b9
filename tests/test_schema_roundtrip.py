"""Round trip as a property of every schema (issue 43): for every type of every models unit
that ``schemas/`` builds (every protocol and edition, found by the generator's own loader),
instances drawn from the JSON Schema itself (``tests/support/schema_instances.py``):

- parse, as Python data and as JSON text, to the variant the schema gives them at every union
  they go through (the models' member for the variant drawn; where the schema lets several
  variants match, any of them, except that a variant whose tag the instance carries is the
  only one);
- serialise back (wire names, fields that were given) to JSON equal to the instance.

And every open union's own variants: an unknown tag reads as ``Unknown...`` and a known tag
whose data does not match its variant as ``Invalid...`` (from a peer only); both are written
back unchanged.

The suite replays a fixed, small number of instances per type (the ``repeatable`` profile);
``nox -s explore`` draws ten times as many, fresh, and ``nox -s nightly`` fifty times as many.
"""

from __future__ import annotations

import importlib
import json
import os
import re
import types
import typing
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import BaseModel, RootModel, TypeAdapter, ValidationError

from tests.support.schema_instances import (
    Choice,
    Drawn,
    Instances,
    SchemaType,
    all_types,
)

PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "repeatable")
EXAMPLES = {"explore": 20, "nightly": 100}.get(PROFILE, 2)
PROPERTY = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.filter_too_much,
        HealthCheck.data_too_large,
    ],
)
TYPES = list(all_types())
_INSTANCES: dict[str, Instances] = {}


def _cases() -> list[tuple[SchemaType, int | None]]:
    """Every type; a union once per variant (each variant drawn, not left to chance)."""
    cases: list[tuple[SchemaType, int | None]] = []
    for kind in TYPES:
        count = _instances(kind).variants(kind.pointer)
        cases += [(kind, i) for i in range(count)] if count else [(kind, None)]
    return cases


_ADAPTERS: dict[str, TypeAdapter[Any]] = {}


def _instances(kind: SchemaType) -> Instances:
    key = kind.unit.module
    if key not in _INSTANCES:
        _INSTANCES[key] = Instances(kind.unit.schema)
    return _INSTANCES[key]


def _adapter(kind: SchemaType) -> TypeAdapter[Any]:
    key = kind.id
    if key not in _ADAPTERS:
        _ADAPTERS[key] = TypeAdapter(kind.python_type())
    return _ADAPTERS[key]


CASES = _cases()


def test_every_protocol_is_drawn_from() -> None:
    """The types come from every models unit the build makes: a protocol added to schemas/
    is in the property without a change to this file."""
    from codegen.pipeline import Layout, load_protocols
    from tests.support.schema_instances import ROOT

    modules = {u.module for p in load_protocols(Layout.for_root(ROOT)) for u in p.models}
    assert {t.unit.module for t in TYPES} == {
        m for m in modules if any(t.unit.module == m for t in TYPES)
    }
    with_types = {t.unit.module for t in TYPES}
    assert modules == with_types, f"units with no type drawn: {sorted(modules - with_types)}"
    assert len(TYPES) > 900


def _id(case: tuple[SchemaType, int | None]) -> str:
    kind, variant = case
    return kind.id if variant is None else f"{kind.id}/{variant}"


def _round_trip(case: tuple[SchemaType, int | None], data: st.DataObject) -> None:
    kind, variant = case
    instances = _instances(kind)
    drawn: Drawn = data.draw(instances.strategy(kind.pointer, variant), label="instance")
    adapter = _adapter(kind)
    for mode in ("python", "json"):
        try:
            if mode == "python":
                parsed = adapter.validate_python(drawn.value)
            else:
                parsed = adapter.validate_json(json.dumps(drawn.value))
        except ValidationError as exc:
            raise AssertionError(
                f"{kind.id}: valid data refused ({mode}):\n{json.dumps(drawn.value)[:2000]}\n{exc}"
            ) from None
        dumped = adapter.dump_python(parsed, mode="json", by_alias=True, exclude_unset=True)
        assert dumped == drawn.value, f"{kind.id} ({mode}): not written back as read"
        for choice in drawn.choices:
            if choice.direct:
                _check_variant(kind, instances, parsed, drawn.value, choice, mode)


def _round_trip_test(cases: list[tuple[SchemaType, int | None]]) -> Any:
    @pytest.mark.parametrize("case", cases, ids=[_id(c) for c in cases])
    @PROPERTY
    @given(data=st.data())
    def test(case: tuple[SchemaType, int | None], data: st.DataObject) -> None:
        _round_trip(case, data)

    return test


# One test function per models unit (``test_round_trip_acp_v2_models``...): hypothesis's
# settings of one ``@given`` function parametrized some 950 times nest too deep to read.
for _module in sorted({kind.unit.module for kind, _ in CASES}):
    _name = "test_round_trip_" + re.sub(r"\W", "_", _module.removesuffix(".py"))
    globals()[_name] = _round_trip_test([c for c in CASES if c[0].unit.module == _module])


# --- which variant ----------------------------------------------------------------------------


def _unwrap(annotation: Any) -> Any:
    while typing.get_origin(annotation) is typing.Annotated:
        annotation = typing.get_args(annotation)[0]
    return annotation


def _members(annotation: Any, namespace: dict[str, Any] | None = None) -> list[Any]:
    """A union's members, nested unions, ``Annotated`` wrappers and forward references (in
    ``namespace``) resolved, in order."""
    annotation = _unwrap(annotation)
    if isinstance(annotation, typing.ForwardRef) and namespace is not None:
        return _members(eval(annotation.__forward_arg__, namespace), namespace)
    if isinstance(annotation, str) and namespace is not None:
        return _members(eval(annotation, namespace), namespace)
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        return [m for a in typing.get_args(annotation) for m in _members(a, namespace)]
    return [annotation]


def _step(
    obj: Any, annotation: Any, key: str | int, namespace: dict[str, Any]
) -> tuple[Any, Any] | None:
    """The value and annotation one step into ``obj`` (None where the models keep it as
    sent, e.g. a field they do not know)."""
    obj, annotation = _through_roots(obj, annotation)
    if isinstance(obj, BaseModel):
        for name, info in type(obj).model_fields.items():
            if key in (name, info.validation_alias):
                return getattr(obj, name), info.annotation
        return None
    containers = [
        m for m in _members(annotation, namespace) if typing.get_origin(m) in (list, dict)
    ]
    if isinstance(obj, list) and isinstance(key, int):
        items = [typing.get_args(m)[0] for m in containers if typing.get_origin(m) is list]
        return (obj[key], items[0]) if items else None
    if isinstance(obj, dict) and isinstance(key, str):
        values = [typing.get_args(m)[1] for m in containers if typing.get_origin(m) is dict]
        return (obj[key], values[0]) if values else None
    return None


def _through_roots(obj: Any, annotation: Any) -> tuple[Any, Any]:
    while isinstance(obj, RootModel):
        annotation = type(obj).model_fields["root"].annotation
        obj = obj.root
    return obj, annotation


def _is_null(variant: Any, instances: Instances) -> bool:
    node, _ = instances.deref(variant)
    return node.get("type") == "null"


def _is_catch_all(variant: Any) -> bool:
    return (
        isinstance(variant, dict)
        and str(variant.get("title", "")).lower() == "other"
        and isinstance(variant.get("not"), dict)
    )


def _tag(variant: Any, instances: Instances) -> tuple[str, Any] | None:
    merged, _ = instances.flatten(variant, "")
    tags = [
        (k, p["const"])
        for k, p in (merged.get("properties") or {}).items()
        if isinstance(p, dict) and "const" in p and k in (merged.get("required") or ())
    ]
    return tags[0] if len(tags) == 1 else None


def _check_variant(
    kind: SchemaType, instances: Instances, parsed: Any, value: Any, choice: Choice, mode: str
) -> None:
    obj, annotation = parsed, kind.python_type()
    namespace = vars(importlib.import_module(kind.module))
    raw = value
    for key in choice.path:
        stepped = _step(obj, annotation, key, namespace)
        if stepped is None:
            return  # kept as sent: nothing to tell apart
        obj, annotation = stepped
        raw = raw[key]
    obj, annotation = _through_roots(obj, annotation)
    variants = choice.variants
    where = f"{kind.id} at {list(choice.path)} ({choice.pointer}, {mode})"
    if _is_null(variants[choice.index], instances):
        assert obj is None, f"{where}: null read as {type(obj).__name__}"
        return
    members = [m for m in _members(annotation, namespace) if m is not type(None)]
    if not any(isinstance(m, type) and issubclass(m, BaseModel) for m in members):
        return  # scalars (an enum's values, a number or a string): the round trip checks them
    defined = {**kind.unit.schema.get("definitions", {}), **kind.unit.schema.get("$defs", {})}
    opened = [  # the open unions' own members (A2A's InvalidRequestError is a schema type)
        m
        for m in members
        if isinstance(m, type)
        and m.__name__.startswith(("Unknown", "Invalid"))
        and m.__name__ not in defined
    ]
    known = [m for m in members if m not in opened]
    listed = [i for i, v in enumerate(variants) if not _is_null(v, instances)]
    unknown = [m for m in opened if m.__name__.startswith("Unknown")]
    if unknown and any(_is_catch_all(variants[i]) for i in listed):  # dropped: Unknown... has it
        catch_alls = [i for i in listed if _is_catch_all(variants[i])]
        listed = [i for i in listed if i not in catch_alls]
        if choice.index in catch_alls:
            assert type(obj).__name__.startswith("Unknown"), (
                f"{where}: a catch-all read as {type(obj).__name__}"
            )
            return
    tag = _tag(variants[choice.index], instances)
    if len(listed) != len(known):
        # Variants that merge another union: the models have a member per combination. The
        # member read must be one of them and carry the variant's tag (or none of its
        # siblings' tags, for an untagged variant).
        assert type(obj) in known, f"{where}: read as {type(obj).__name__}"
        tags = {t for i in listed if (t := _tag(variants[i], instances)) is not None}
        carried = {
            (info.validation_alias if isinstance(info.validation_alias, str) else name, value)
            for name, info in type(obj).model_fields.items()
            if typing.get_origin(info.annotation) is typing.Literal
            for value in typing.get_args(info.annotation)
        }
        if tag is not None:
            assert tag in carried, f"{where}: read as {type(obj).__name__}, not tagged {tag}"
        else:
            assert not (tags & carried), f"{where}: read as {type(obj).__name__}, a tagged variant"
        return
    expected = {choice.index}
    shared = sum(1 for i in listed if _tag(variants[i], instances) == tag) > 1
    if (
        tag is None
        or shared  # a constant every variant has (JSON-RPC's "jsonrpc": "2.0") picks none
        or not (isinstance(raw, dict) and raw.get(tag[0]) == tag[1])
    ):
        # the schema lets every variant that matches have it, unless one is tagged so
        for i in listed:
            if instances.variant_validator(choice.base, variants[i]).is_valid(raw):
                expected.add(i)
    else:  # tagged: a generic variant whose tag field takes any value may have it too
        for i in listed:
            merged, _ = instances.flatten(variants[i], "")
            field = (merged.get("properties") or {}).get(tag[0])
            generic = isinstance(field, dict) and "const" not in field and "enum" not in field
            if generic and instances.variant_validator(choice.base, variants[i]).is_valid(raw):
                expected.add(i)
    allowed = [known[listed.index(i)] for i in sorted(expected) if i in listed]
    classes = [m for m in allowed if isinstance(m, type) and m is not Any]
    if len(classes) < len(allowed):
        return  # a scalar or container member: its value is checked by the round trip
    assert type(obj) in classes, (
        f"{where}: read as {type(obj).__name__}, the schema gives it "
        f"{' or '.join(c.__name__ for c in classes)}:\n{json.dumps(raw)[:1000]}"
    )


# --- the open unions' own variants ------------------------------------------------------------


def _open_union(kind: SchemaType) -> tuple[type, type, str] | None:
    """The ``Unknown...`` and ``Invalid...`` members of a type that is an open union, and
    the wire name of its tag."""
    members = _members(kind.python_type(), vars(importlib.import_module(kind.module)))
    unknown = [m for m in members if isinstance(m, type) and m.__name__ == f"Unknown{kind.name}"]
    invalid = [m for m in members if isinstance(m, type) and m.__name__ == f"Invalid{kind.name}"]
    if not (unknown and invalid):
        return None
    (field,) = unknown[0].model_fields.items()
    wire = field[1].validation_alias if isinstance(field[1].validation_alias, str) else field[0]
    return unknown[0], invalid[0], wire


OPEN = [
    (kind, variant)
    for kind, variant in CASES
    if variant is not None and _open_union(kind) is not None
]


def test_open_unions_are_covered() -> None:
    assert {k.unit.module for k, _ in OPEN} >= {
        "acp/models.py",
        "acp/v2/models.py",
        "aap/models.py",
    }


@pytest.mark.parametrize("case", OPEN, ids=[_id(c) for c in OPEN])
@PROPERTY
@given(data=st.data())
def test_open_union_variants(case: tuple[SchemaType, int | None], data: st.DataObject) -> None:
    """A known variant's instance with its tag changed to one this version does not know is
    an ``Unknown...``; with a required field taken out, an ``Invalid...`` (from a peer only:
    our own data must match); both written back as read."""
    from agentproto._runtime.base import PEER_CONTEXT

    kind, variant = case
    found = _open_union(kind)
    assert found is not None
    unknown, invalid, wire = found
    drawn: Drawn = data.draw(_instances(kind).strategy(kind.pointer, variant), label="instance")
    value = drawn.value
    adapter = _adapter(kind)
    if not (isinstance(value, dict) and isinstance(value.get(wire), str)):
        return  # a variant the models keep without a tag (the union's catch-all)
    newer = {**value, wire: value[wire] + "_from_a_newer_peer"}
    read = adapter.validate_python(newer)
    assert type(read) is unknown, type(read).__name__
    assert adapter.dump_python(read, mode="json", by_alias=True, exclude_unset=True) == newer
    member = type(adapter.validate_python(value))
    if member is unknown:
        return  # the catch-all variant: its instance is an Unknown... already (checked above)
    required = [
        (info.validation_alias if isinstance(info.validation_alias, str) else name)
        for name, info in member.model_fields.items()
        if info.is_required() and typing.get_origin(info.annotation) is not typing.Literal
    ]
    if not required:
        return  # nothing can be missing: every body of this tag is valid
    broken = {k: v for k, v in value.items() if k != required[0]}
    with pytest.raises(ValidationError):
        adapter.validate_python(broken)  # our own data: refused
    read = adapter.validate_python(broken, context=PEER_CONTEXT)
    assert type(read) is invalid, type(read).__name__
    assert read.errors
    assert adapter.dump_python(read, mode="json", by_alias=True, exclude_unset=True) == broken
