"""Reading input documents (JSON, YAML) and validating them against JSON Schemas.

Every failure becomes a :class:`~codegen.errors.BuildError` naming file, JSON pointer and reason.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import jsonschema
import yaml
from jsonschema.exceptions import ValidationError

from codegen.errors import BuildError, Problem, to_pointer
from codegen.inputs.metaschema import is_valid_schema

DATA_DIR = Path(__file__).parent.parent / "data"
# libyaml's loader parses the large OpenAPI files of real bundles about 30x faster.
_YAML_LOADER: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def display_path(path: Path, root: Path | None = None) -> str:
    """A path as it is shown in messages: relative to ``root`` when it is inside it."""
    if root is not None:
        try:
            return path.resolve().relative_to(root.resolve()).as_posix()
        except ValueError:
            pass
    return str(path)


def load_document(path: Path, root: Path | None = None) -> Any:
    """Parse a JSON or YAML file; a syntax error names the line and column."""
    shown = display_path(path, root)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise BuildError.single(shown, "", "file not found") from None
    except UnicodeDecodeError as exc:
        raise BuildError.single(shown, "", f"not UTF-8 text ({exc.reason})") from None
    if path.suffix in (".yaml", ".yml"):
        try:
            return yaml.load(text, Loader=_YAML_LOADER)
        except yaml.YAMLError as exc:
            mark = getattr(exc, "problem_mark", None)
            where = f"line {mark.line + 1}, column {mark.column + 1}: " if mark else ""
            problem = getattr(exc, "problem", None) or str(exc)
            raise BuildError.single(shown, "", f"invalid YAML: {where}{problem}") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise BuildError.single(
            shown, "", f"invalid JSON: line {exc.lineno}, column {exc.colno}: {exc.msg}"
        ) from None


@cache
def builtin_schema(name: str) -> dict[str, Any]:
    """A schema shipped with the generator (``codegen/data/<name>``), checked against its
    meta-schema once, here."""
    data: dict[str, Any] = json.loads((DATA_DIR / name).read_text(encoding="utf-8"))
    check_is_schema(data, str(DATA_DIR / name))
    return data


def _describe(error: ValidationError) -> str:
    message = error.message
    if len(message) > 300:
        message = message[:297] + "..."
    return f"{message} (rule {error.validator!r} at schema {to_pointer(error.schema_path)})"


def schema_problems(
    document: Any, schema: dict[str, Any], shown: str, *, check_schema: bool = True
) -> list[Problem]:
    """Every way ``document`` breaks ``schema``, deepest first, as problems."""
    validator_cls = jsonschema.validators.validator_for(schema)
    if check_schema:
        validator_cls.check_schema(schema)
    validator = validator_cls(schema)
    problems = []
    for error in validator.iter_errors(document):
        # A failed oneOf/anyOf says little by itself: report its best leaf too.
        leaf = jsonschema.exceptions.best_match([error]) if error.context else error
        problems.append(Problem(shown, to_pointer(leaf.absolute_path), _describe(leaf)))
    return problems


def validate_or_raise(document: Any, schema: dict[str, Any], shown: str) -> None:
    """``document`` against a schema checked already (a :func:`builtin_schema`)."""
    problems = schema_problems(document, schema, shown, check_schema=False)
    if problems:
        raise BuildError(problems)


def check_is_schema(document: Any, shown: str) -> None:
    """The document must itself be a valid JSON Schema for the dialect it declares."""
    if not isinstance(document, dict):
        raise BuildError.single(shown, "", "a JSON Schema must be an object")
    try:
        validator_cls = jsonschema.validators.validator_for(
            document, default=jsonschema.Draft202012Validator
        )
    except Exception as exc:  # an unknown $schema URI
        raise BuildError.single(shown, "/$schema", f"unknown dialect: {exc}") from None
    problems = []
    if validator_cls is not jsonschema.Draft202012Validator or not is_valid_schema(document):
        meta = validator_cls(validator_cls.META_SCHEMA)  # every problem, with its pointer
        problems = [
            Problem(shown, to_pointer(e.absolute_path), f"not a valid JSON Schema: {_describe(e)}")
            for e in meta.iter_errors(document)
        ]
    problems += [
        Problem(
            shown,
            pointer,
            f"$ref {ref!r} points to nothing in this file"
            if ref.startswith("#")
            else f"$ref {ref!r} points outside this file: the build reads no other file or "
            "URL; vendor the definition into this schema's $defs",
        )
        for pointer, ref in dangling_refs(document)
    ]
    if problems:
        raise BuildError(problems)


def dangling_refs(document: Any) -> list[tuple[str, str]]:
    """(pointer of the ``$ref``, its value) for each local ``$ref`` that resolves to nothing:
    the model generator would quietly type such a field ``Any``. A ``$ref`` outside the file
    (another file, a URL) is listed too: the build reads nothing but schemas/, never the
    network, so the same inputs give the same bytes."""
    found: list[tuple[str, str]] = []

    def resolves(ref: str) -> bool:
        node: Any = document
        for token in ref[1:].split("/")[1:] if ref != "#" else []:
            key = unquote(token).replace("~1", "/").replace("~0", "~")
            if isinstance(node, dict) and key in node:
                node = node[key]
            elif isinstance(node, list) and key.isdigit() and int(key) < len(node):
                node = node[int(key)]
            else:
                return False
        return True

    def walk(node: Any, path: list[str | int]) -> None:
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and not (ref.startswith("#") and resolves(ref)):
                found.append((to_pointer([*path, "$ref"]), ref))
            for key, value in node.items():
                if key not in ("const", "enum", "default", "examples"):
                    walk(value, [*path, key])
        elif isinstance(node, list):
            for index, value in enumerate(node):
                walk(value, [*path, index])

    walk(document, [])
    return found
