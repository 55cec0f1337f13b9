"""The generator's own edge cases, each a small schema with checked-in expected output.

Set CODEGEN_UPDATE_FIXTURES=1 to rewrite the expected files after a deliberate change, then
review the diff.
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
import typing
from pathlib import Path
from typing import Any

import pytest
from pydantic import TypeAdapter, ValidationError

from codegen.errors import BuildError
from codegen.ir import ModelUnit
from codegen.models.generate import _check_names, generate_models, merged_class_names
from codegen.package.output import format_text

FIXTURES = Path(__file__).parent / "fixtures" / "models"
CASES = sorted(p.name.removesuffix(".schema.json") for p in FIXTURES.glob("*.schema.json"))


def generate_fixture(case: str) -> str:
    path = FIXTURES / f"{case}.schema.json"
    unit = ModelUnit(
        module=f"{case}/models.py",
        schema_file=path,
        schema=json.loads(path.read_text()),
        root_name=None,
        exclude=(),
        renames=(),
        header=f"Generated from tests/fixtures/models/{case}.schema.json",
    )
    return format_text(generate_models(unit, FIXTURES))


def load(case: str) -> dict[str, Any]:
    """Import an expected fixture as a real module (pydantic resolves names through it)."""
    name = f"_codegen_fixture_{case}"
    spec = importlib.util.spec_from_file_location(name, FIXTURES / f"{case}.expected.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return vars(module)


@pytest.mark.parametrize("case", CASES)
def test_fixture_output_matches_expected(case: str) -> None:
    expected_path = FIXTURES / f"{case}.expected.py"
    text = generate_fixture(case)
    if os.environ.get("CODEGEN_UPDATE_FIXTURES") == "1":
        expected_path.write_text(text)
    assert text == expected_path.read_text()


def test_recursion_validates_nested_data() -> None:
    ns = load("recursion")
    tree = ns["TreeNode"].model_validate(
        {"label": "a", "children": [{"label": "b", "children": [{"label": "c"}]}]}
    )
    assert tree.children[0].children[0].label == "c"
    expr = ns["Call"].model_validate(
        {"kind": "call", "args": [{"kind": "literal", "value": 1}, {"kind": "call", "args": []}]}
    )
    assert type(expr.args[1]).__name__ == "Call"  # unions are collapsed into field types
    # ... and still importable by their schema name, as a type alias of the same annotation
    union = TypeAdapter(ns["Expr"]).validate_python({"kind": "literal", "value": 2})
    assert type(union).__name__ == "LiteralModel" and union.value == 2
    with pytest.raises(ValidationError, match="does not match any of the expected tags"):
        TypeAdapter(ns["Expr"]).validate_python({"kind": "lambda"})
    # A type whose class got another name (Literal -> LiteralModel) gets no alias: `Literal`
    # stays typing's.
    assert ns["Literal"] is typing.Literal


def test_const_unions_are_named_by_tag_and_discriminated() -> None:
    text = (FIXTURES / "const_unions.expected.py").read_text()
    ns = load("const_unions")
    for name in ("ShapeCircle", "ShapeRect", "EventStarted", "EventStopped", "OpenA", "OpenOther"):
        assert name in ns, name
    assert 'discriminator="type"' in text and 'discriminator="event"' in text
    shape = ns["Shape"].model_validate({"type": "rect", "width": 1, "height": 2})
    assert type(shape.root).__name__ == "ShapeRect"
    with pytest.raises(Exception, match="does not match any of the expected tags"):
        ns["Shape"].model_validate({"type": "hexagon"})
    other = ns["Open"].model_validate({"mode": "zzz", "extra": 1})
    assert type(other.root).__name__ == "OpenOther"


def test_collisions_get_distinct_stable_names() -> None:
    ns = load("collisions")
    assert {"Item", "Status", "Kind"} <= set(ns)
    item_fields = ns["Item"].model_fields
    status_type = item_fields["status"].annotation
    assert status_type is not ns["Status"]  # the inline enum did not overwrite the def
    assert "class_" in ns["Class"].model_fields or "def_" in ns["Class"].model_fields


def test_camel_case_aliases_both_ways() -> None:
    ns = load("camel_case")
    info = ns["SessionInfo"].model_validate({"sessionId": "s", "createdAtMs": 5, "_meta": {}})
    assert (info.session_id, info.created_at_ms) == ("s", 5)
    by_name = ns["SessionInfo"](session_id="t")
    assert by_name.model_dump(by_alias=True, exclude_none=True) == {"sessionId": "t"}


def test_nullable_and_enums() -> None:
    ns = load("nullable_enums")
    settings = ns["Settings"].model_validate({"required_nullable": None})
    assert settings.required_nullable is None
    assert settings.level == "low"
    with pytest.raises(Exception, match="required_nullable"):
        ns["Settings"].model_validate({})
    # Enums are Literal aliases: the values as the schema lists them, and nothing else.
    assert typing.get_args(ns["Level"]) == ("low", "high", "very-high", "2fast")
    assert typing.get_args(ns["Code"]) == (1, 2, 3)
    with pytest.raises(ValidationError, match="level"):
        ns["Settings"].model_validate({"required_nullable": None, "level": "medium"})


def test_wire_names_are_the_default_output_and_meta_is_plain() -> None:
    ns = load("camel_case")
    info = ns["SessionInfo"](session_id="s", meta={"k": 1})
    assert info.model_dump(exclude_none=True) == {"sessionId": "s", "_meta": {"k": 1}}
    assert ns["SessionInfo"].model_validate({"session_id": "s"}).session_id == "s"


def test_merged_variants_without_a_parent_class_are_named_by_their_variant() -> None:
    text = (
        "class Mode1(Model):\n    a: int\n\n\n"
        "class IdleModeEndTurn(Model):\n    b: int\n\n\n"
        "class IdleModeMaxTokens(Model):\n    c: int\n\n\n"
        "class Mode2(IdleModeEndTurn, Mode1):\n    pass\n\n\n"
        "class Mode3(IdleModeMaxTokens, Mode1):\n    pass\n"
    )
    assert merged_class_names(text, {}) == {
        "Mode1": "ModeFields",
        "Mode2": "ModeEndTurn",
        "Mode3": "ModeMaxTokens",
    }


def test_any_positional_name_fails_the_build_even_with_no_unnumbered_twin() -> None:
    schema = {"$defs": {"Sha256": {"title": "Sha256", "type": "string"}}}
    with pytest.raises(BuildError, match=r"positional class names \['Thing2'\]"):
        _check_names(
            "class Thing2(Model):\n    pass\n\n\nclass Sha256(Model):\n    pass\n", schema, "s.json"
        )
