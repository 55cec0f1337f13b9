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
from dataclasses import replace
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
    from datamodel_code_generator import (  # type: ignore[attr-defined]
        DataModelType,
        InputFileType,
        PythonVersion,
    )

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

    shown = display_path(unit.schema_file, root)
    try:
        schema, suffixes = normalise(unit.schema, root_name=unit.root_name, exclude=unit.exclude)
    except BuildError as exc:
        raise BuildError([p if p.file else replace(p, file=shown) for p in exc.problems]) from None
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
    for duplicate, original in duplicate_classes(text).items():
        # Keep the definition that comes first (later ones may be used before they are
        # defined, in a base class or a RootModel[...]), under the unnumbered name.
        _, second = sorted((duplicate, original), key=_lines(text).__getitem__)
        text = _drop_class(text, second)
        text = rename_identifiers(text, [(duplicate, original)])
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


def _lines(text: str) -> dict[str, int]:
    return {n.name: n.lineno for n in ast.parse(text).body if isinstance(n, ast.ClassDef)}


def duplicate_classes(text: str) -> dict[str, str]:
    """``X1`` that is ``X`` again, body and bases alike (the generator emits some merged
    variants twice): duplicate name → original name."""
    classes = {n.name: n for n in ast.parse(text).body if isinstance(n, ast.ClassDef)}
    shape = {
        name: ast.dump(ast.Tuple(elts=node.bases, ctx=ast.Load()))
        + ast.dump(ast.Module(node.body, []))
        for name, node in classes.items()
    }
    found = {}
    for name in classes:
        match = _NUMBERED.match(name)
        if match and match.group(1) in classes and shape[name] == shape[match.group(1)]:
            found[name] = match.group(1)
    return found


def _fields(node: ast.ClassDef) -> set[str]:
    return {
        n.target.id
        for n in node.body
        if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name)
    }


def merged_class_names(text: str, suffixes: dict[str, str]) -> dict[str, str]:
    """Names for the classes the model generator numbers when it merges schemas.

    Two shapes occur, both from a tagged variant whose schema is itself "properties + a union":

    - ``X1`` holds the fields shared by the merged variants, which inherit ``(BaseVariant, X1)``:
      ``StateUpdateIdle1`` → ``StateUpdateIdleFields``; ``StateUpdateIdle2(IdleStateUpdateEndTurn,
      StateUpdateIdle1)`` → ``StateUpdateIdleEndTurn``.
    - ``X`` is a variant alone and ``X1`` the same variant with its parent's properties, the
      type users meet: ``X1`` → ``X`` and ``X`` → ``XFields``.

    Names come from titles and tags, never from positions.
    """
    classes = {n.name: n for n in ast.parse(text).body if isinstance(n, ast.ClassDef)}
    renames: dict[str, str] = {}
    bases_of = {n: [b.id for b in c.bases if isinstance(b, ast.Name)] for n, c in classes.items()}
    for name, node in classes.items():
        match = _NUMBERED.match(name)
        if not match or match.group(1) not in classes:
            continue
        stem = match.group(1)
        bases = bases_of[name]
        merged_into = any(name in b[1:] for other, b in bases_of.items() if other != name)
        plain = not any(b in classes for b in bases)
        if f"{stem}1" == name and merged_into and plain:
            renames[name] = f"{stem}Fields"
        elif bases and bases[0] in suffixes and bases[1:] == [f"{stem}1"]:
            renames[name] = stem + suffixes[bases[0]]
        elif (
            f"{stem}1" == name
            and plain
            and not any(b in classes for b in bases_of[stem])
            and _fields(classes[stem]) < _fields(node)
            and f"{stem}Fields" not in classes
        ):
            renames[name] = stem
            renames[stem] = f"{stem}Fields"
    taken = set(classes) - set(renames)
    return {old: new for old, new in renames.items() if new not in taken}


def _titles(node: Any) -> set[str]:
    """Every title in a (normalised) schema: the class names the normaliser chose."""
    if isinstance(node, list):
        return set().union(*map(_titles, node)) if node else set()
    if not isinstance(node, dict):
        return set()
    found = set().union(*map(_titles, node.values())) if node else set()
    if isinstance(node.get("title"), str):
        found.add(node["title"])
    return found


def _check_names(text: str, schema: dict[str, Any], shown: str) -> None:
    """No positional collision name (``Foo1`` beside ``Foo``) may reach the public API.

    A name that is some schema's own title (``Pwned0`` from a title ending in a digit) is
    not positional, however it ends."""
    names = class_names(text)
    known = set(names) | set(schema.get("$defs", schema.get("definitions", {})))
    chosen = _titles(schema)
    numbered = sorted(
        n
        for n in names
        if (m := _NUMBERED.match(n)) and m.group(1) in known and n not in chosen
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
