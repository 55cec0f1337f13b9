"""Model generation: one JSON Schema → one pydantic v2 module, via datamodel-code-generator.

Everything runs in this process (the generator's import and template compilation are paid once
per build). Output is deterministic: no timestamps, no version header, fixed options; the
formatting pass happens later for the whole tree at once (:mod:`codegen.output`).
"""

from __future__ import annotations

import ast
import io
import json
import re
import tokenize
import warnings
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from codegen.errors import BuildError
from codegen.ir import ModelUnit
from codegen.normalise import DISCARDED_ROOT, normalise
from codegen.sources import display_path

# Integer formats of the ACP schema that the model generator does not know: plain ints.
_TYPE_MAPPINGS = [f"integer+{fmt}=integer" for fmt in ("uint8", "uint16", "uint32", "uint64")]
_NUMBERED = re.compile(r"^(\w*?[A-Za-z_])(\d+)$")


def _options() -> dict[str, Any]:
    from datamodel_code_generator import DataModelType, InputFileType, PythonVersion

    return {
        "input_file_type": InputFileType.JsonSchema,
        "output_model_type": DataModelType.PydanticV2BaseModel,
        "target_python_version": PythonVersion.PY_311,
        "disable_timestamp": True,
        "enable_version_header": False,
        "snake_case_field": True,
        "allow_population_by_field_name": True,
        "use_schema_description": True,
        "use_field_description": True,
        "field_constraints": True,
        "use_annotated": False,
        "use_title_as_name": True,
        "use_double_quotes": True,
        "use_standard_collections": True,
        "use_union_operator": True,
        "set_default_enum_member": True,
        "collapse_root_models": True,
        "base_class": "agentproto._runtime.base.Model",
        "type_mappings": _TYPE_MAPPINGS,
        "formatters": [],
    }


def generate_models(unit: ModelUnit, root: Path) -> str:
    """The module text for one model unit (not yet formatted)."""
    from datamodel_code_generator import generate

    schema, suffixes = normalise(unit.schema, root_name=unit.root_name, exclude=unit.exclude)
    shown = display_path(unit.schema_file, root)
    with warnings.catch_warnings():
        # Format warnings (uint16...) are handled by _TYPE_MAPPINGS; nothing else is expected.
        warnings.simplefilter("ignore")
        try:
            text = generate(
                json.dumps(schema, sort_keys=False),
                input_filename=unit.schema_file.name,
                custom_file_header=_header(unit.header),
                **_options(),
            )
        except BuildError:
            raise
        except Exception as exc:  # the model generator's own error, with our file name
            raise BuildError.single(shown, "", f"model generation failed: {exc}") from None
    assert isinstance(text, str)
    if unit.root_name is None:
        text = _drop_class(text, DISCARDED_ROOT)
    renames = {**merged_class_names(text, suffixes), **dict(unit.renames)}
    if renames:
        text = rename_identifiers(text, renames.items())
    _check_names(text, schema, shown)
    return text


def _header(line: str) -> str:
    return f'"""{line}. Do not edit: run `codegen build`."""'


def _drop_class(text: str, name: str) -> str:
    """Remove one top-level class (and its model_rebuild call) from module text."""
    tree = ast.parse(text)
    lines = text.splitlines(keepends=True)
    spans = []
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name == name:
            spans.append((node.lineno - 1 - len(node.decorator_list), node.end_lineno or 0))
        elif (
            isinstance(node, ast.Expr)
            and isinstance(node.value, ast.Call)
            and isinstance(node.value.func, ast.Attribute)
            and isinstance(node.value.func.value, ast.Name)
            and node.value.func.value.id == name
        ):
            spans.append((node.lineno - 1, node.end_lineno or 0))
    for start, end in sorted(spans, reverse=True):
        del lines[start:end]
    return "".join(lines)


def class_names(text: str) -> list[str]:
    return [n.name for n in ast.parse(text).body if isinstance(n, ast.ClassDef)]


def merged_class_names(text: str, suffixes: dict[str, str]) -> dict[str, str]:
    """Names for the classes the generator numbers when it merges a tagged variant with a
    base that is itself a union: ``X1`` (the shared fields) and ``X2..Xn`` (one per base
    variant, which inherit ``(BaseVariant, X1)``).

    ``StateUpdateIdle1`` → ``StateUpdateIdleFields``; ``StateUpdateIdle2(IdleStateUpdateEndTurn,
    StateUpdateIdle1)`` → ``StateUpdateIdleEndTurn``. Names depend on titles and tags, never on
    positions.
    """
    classes = {n.name: n for n in ast.parse(text).body if isinstance(n, ast.ClassDef)}
    renames: dict[str, str] = {}
    for name, node in classes.items():
        match = _NUMBERED.match(name)
        if not match or match.group(1) not in classes:
            continue
        stem = match.group(1)
        bases = [b.id for b in node.bases if isinstance(b, ast.Name)]
        if f"{stem}1" == name and not any(b in classes for b in bases):
            renames[name] = f"{stem}Fields"
        elif bases and bases[0] in suffixes and bases[1:] == [f"{stem}1"]:
            renames[name] = stem + suffixes[bases[0]]
    taken = set(classes)
    return {old: new for old, new in renames.items() if new not in taken}


def _check_names(text: str, schema: dict[str, Any], shown: str) -> None:
    """No positional collision name (``Foo1`` beside ``Foo``) may reach the public API."""
    names = class_names(text)
    known = set(names) | set(schema.get("$defs", schema.get("definitions", {})))
    numbered = sorted(
        n for n in names if (m := _NUMBERED.match(n)) and m.group(1) in known
    )
    if numbered:
        raise BuildError.single(
            shown,
            "",
            f"positional class names {numbered} would reach the public API; give their schemas "
            "a title, or map them in the protocol's rename file",
        )


def rename_identifiers(text: str, renames: Iterable[tuple[str, str]]) -> str:
    """Rename NAME tokens only (never text inside strings or comments)."""
    mapping = dict(renames)
    out = []
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        if tok.type == tokenize.NAME and tok.string in mapping:
            tok = tok._replace(string=mapping[tok.string])
        out.append(tok)
    return tokenize.untokenize(out)
