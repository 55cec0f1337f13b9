"""Validating, parsing and serialising Skill Sharing documents (hand-written, shipped as is).

- :func:`validate` checks a document against the protocol's JSON Schema (§3.1, §8.3.1) and
  answers a :class:`ValidationReport`: ``valid`` and ``errors``, each error a JSON Pointer
  ``path``, a ``message``, the ``expected`` value of the violated keyword and the ``actual`` value
  (left out when the field is missing). A Skill Index with duplicate skill ids is invalid
  (§4.3.4). For ``auth`` only the variant chosen by ``type`` is reported.
- :func:`parse` returns a typed :class:`SkillDescriptor` or raises ``ValidationError``
  (code VALIDATION_ERROR) whose ``details`` are those errors; :func:`parse_index` likewise.
- :func:`serialize` writes a descriptor as JSON with a 2-space indent, fields in schema order,
  fields that were never set left out, ending in a newline: the same descriptor always gives the
  same bytes, and ``parse(serialize(d)) == d``.

Documents are bounded (:class:`~agentproto._runtime.limits.Limits`): text larger than
``max_document_bytes`` or nested deeper than ``max_json_depth`` is invalid (an error at ``""``
saying which limit), never a ``RecursionError``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Any, TypeVar, cast

import pydantic

from agentproto._runtime.json_types import JSONObject, JSONValue
from agentproto._runtime.limits import DEFAULT_LIMITS, LimitError, Limits, check_depth, loads
from agentproto.skills.errors import ValidationError
from agentproto.skills.models import SkillDescriptor, SkillIndex, ValidationErrorDetail
from agentproto.skills.schema import schema

if TYPE_CHECKING:
    import jsonschema.protocols

M = TypeVar("M", bound=pydantic.BaseModel)


@dataclass(frozen=True)
class ValidationReport:
    """The outcome of :func:`validate`."""

    valid: bool
    errors: list[ValidationErrorDetail] = field(default_factory=list[ValidationErrorDetail])

    def as_dict(self) -> dict[str, Any]:
        return {
            "valid": self.valid,
            "errors": [e.model_dump(mode="json", exclude_unset=True) for e in self.errors],
        }


def _escape(token: str | int) -> str:
    return str(token).replace("~", "~0").replace("/", "~1")


def pointer(path: Any) -> str:
    """An RFC 6901 JSON Pointer from path tokens."""
    return "".join("/" + _escape(p) for p in path)


@cache
def _validator(kind: str) -> jsonschema.protocols.Validator:
    import jsonschema.validators

    root = schema()
    if kind not in root.get("$defs", {}):
        raise ValueError(f"unknown document kind {kind!r}")
    cls = jsonschema.validators.validator_for(root)
    return cls({**root, "$ref": f"#/$defs/{kind}"})


def _without_defaults(node: JSONValue) -> JSONValue:
    if isinstance(node, dict):
        return _object_without_defaults(node)
    if isinstance(node, list):
        return [_without_defaults(v) for v in node]
    return node


def _object_without_defaults(node: JSONObject) -> JSONObject:
    return {k: _without_defaults(v) for k, v in node.items() if k != "default"}


@cache
def _fast_check(kind: str) -> Callable[[Any], object]:
    """A compiled validator that only says yes or no (fastjsonschema, ~30x jsonschema here).

    The schema uses draft-7 keywords only, so both libraries agree on the verdict (a test
    checks it); ``default`` is stripped because fastjsonschema would write defaults into the
    document, and formats are not checked by either.
    """
    import fastjsonschema

    root = _object_without_defaults(schema())
    root.pop("$schema", None)
    return fastjsonschema.compile({**root, "$ref": f"#/$defs/{kind}"}, use_formats=False)


def _fast_valid(kind: str, value: Any) -> bool:
    import fastjsonschema

    try:
        _fast_check(kind)(value)
    except fastjsonschema.JsonSchemaException:
        return False
    return True


def _resolve(node: JSONValue) -> JSONValue:
    ref = node.get("$ref") if isinstance(node, dict) else None
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        found: JSONValue = schema()["$defs"].get(ref[len("#/$defs/") :], {})
        return found
    return node


def _lookup(node: JSONValue, *keys: str) -> JSONValue:
    """``node[key][key]...``, or ``None`` where a key is missing (or a node is no object)."""
    for key in keys:
        node = node.get(key) if isinstance(node, dict) else None
    return node


def _details(error: jsonschema.ValidationError) -> list[ValidationErrorDetail]:
    """One schema error as report entries (a tagged ``oneOf`` is narrowed to its variant)."""
    # The part of the document at fault (jsonschema's type allows "unset"; an error it yields
    # always has it).
    instance = cast(JSONValue, error.instance)
    if error.validator == "oneOf" and isinstance(error.schema, dict):
        tag = _lookup(error.schema.get("discriminator"), "propertyName")
        if isinstance(tag, str) and isinstance(instance, dict):
            tags = [_lookup(_resolve(v), "properties", tag, "const") for v in error.schema["oneOf"]]
            value = instance.get(tag)
            if value in tags:
                chosen = tags.index(value)
                inner = [e for e in error.context or () if e.schema_path[0] == chosen]
                return [d for e in inner for d in _details(e)]
            where = [*error.absolute_path, tag]
            return [
                ValidationErrorDetail(
                    path=pointer(where),
                    message=f"{value!r} is not one of {tags}"
                    if tag in instance
                    else f"{tag!r} is a required property",
                    expected=tags,
                    **({"actual": value} if tag in instance else {}),
                )
            ]
    path = list(error.absolute_path)
    if error.validator == "required":
        missing = error.message.split("'")[1] if "'" in error.message else ""
        return [
            ValidationErrorDetail(
                path=pointer([*path, missing]),
                message=error.message,
                expected=error.validator_value,
            )
        ]
    return [
        ValidationErrorDetail(
            path=pointer(path),
            message=error.message,
            expected=error.validator_value,
            actual=instance,
        )
    ]


def _size(document: str | bytes | bytearray) -> int:
    return len(document.encode()) if isinstance(document, str) else len(document)


def _load(
    document: str | bytes | Mapping[str, Any], limits: Limits = DEFAULT_LIMITS
) -> tuple[Any, list[ValidationErrorDetail]]:
    try:
        if isinstance(document, str | bytes | bytearray):
            size = _size(document)
            if size > limits.max_document_bytes:
                raise LimitError(
                    "the document", "max_document_bytes", limits.max_document_bytes, size
                )
            return loads(document, limits.max_json_depth), []
        check_depth(document, limits.max_json_depth)
    except LimitError as exc:
        return None, [ValidationErrorDetail(path="", message=str(exc), expected=exc.limit)]
    except ValueError as exc:
        return None, [ValidationErrorDetail(path="", message=f"not JSON: {exc}")]
    return document, []


def validate(
    document: str | bytes | Mapping[str, Any],
    kind: str = "SkillDescriptor",
    *,
    limits: Limits = DEFAULT_LIMITS,
) -> ValidationReport:
    """Check a document (JSON text or parsed) against the schema's ``kind`` definition
    (``SkillDescriptor``, ``SkillIndex``, ``InvocationRequest``, ``InvocationResponse``...).

    The formats the schema names (``date-time``, ``uri``) are annotations here, as JSON Schema
    has them by default; :func:`parse` checks them as well (its models hold datetimes and
    URLs), so it refuses a document with ``"created_at": ""`` that this reports valid."""
    value, errors = _load(document, limits)
    if not errors:
        if not _fast_valid(kind, value):
            # Only an invalid document pays for jsonschema, which gives every error and path.
            for error in _validator(kind).iter_errors(value):
                errors.extend(_details(error))
        if kind == "SkillIndex":
            errors.extend(_duplicate_ids(value))
    errors.sort(key=lambda e: (e.path, e.message))
    return ValidationReport(valid=not errors, errors=errors)


def _duplicate_ids(index: JSONValue) -> list[ValidationErrorDetail]:
    """§4.3.4: skill ids are unique within an index."""
    first: dict[str, int] = {}
    problems: list[ValidationErrorDetail] = []
    skills = _lookup(index, "skills")
    for i, entry in enumerate(skills if isinstance(skills, list) else []):
        skill_id = _lookup(entry, "id")
        if not isinstance(skill_id, str):
            continue
        if skill_id in first:
            problems.append(
                ValidationErrorDetail(
                    path=f"/skills/{i}/id",
                    message=f"duplicate skill id {skill_id!r} (first at /skills/{first[skill_id]})",
                    expected="unique skill ids (§4.3.4)",
                    actual=skill_id,
                )
            )
        else:
            first[skill_id] = i
    return problems


def _parse(
    document: str | bytes | Mapping[str, Any],
    model: type[M],
    kind: str,
    limits: Limits = DEFAULT_LIMITS,
) -> M:
    value, problems = _load(document, limits)
    report = (
        ValidationReport(valid=False, errors=problems)
        if problems
        else validate(value, kind, limits=limits)
    )
    if not report.valid:
        first = report.errors[0]
        more = f" (and {len(report.errors) - 1} more)" if len(report.errors) > 1 else ""
        raise ValidationError(
            f"invalid {kind} at {first.path or '/'}: {first.message}{more}",
            details=report.errors,
        )
    try:
        return model.model_validate(value)
    except pydantic.ValidationError as exc:  # formats the schema leaves to the model (URLs...)
        details = [
            ValidationErrorDetail(
                path=pointer(e["loc"]), message=e["msg"], expected=e["type"], actual=e.get("input")
            )
            for e in exc.errors()
        ]
        raise ValidationError(
            f"invalid {kind} at {details[0].path}: {details[0].message}", details=details
        ) from None


def parse(
    document: str | bytes | Mapping[str, Any], *, limits: Limits = DEFAULT_LIMITS
) -> SkillDescriptor:
    """A typed, validated Skill Descriptor, or ``ValidationError`` (VALIDATION_ERROR)."""
    return _parse(document, SkillDescriptor, "SkillDescriptor", limits)


def parse_index(
    document: str | bytes | Mapping[str, Any], *, limits: Limits = DEFAULT_LIMITS
) -> SkillIndex:
    """A typed, validated Skill Index (duplicate ids are an error), or ``ValidationError``.

    JSON text (what discovery fetches) within ``limits.max_document_bytes`` is validated once,
    by the model's own validator in pydantic-core, straight from the bytes: for a Skill Index
    without a ``null`` it accepts exactly what the JSON Schema accepts (and checks URL syntax
    besides; a property test holds the two to it), so an index of 10,000 skills is not walked a
    second time by a schema validator. The models take ``null`` for a field left out, the
    schema does not: a text holding the word goes the schema's way, as does one the model
    refuses (too deep, too, is reported there against ``limits.max_json_depth``) or with
    duplicate ids, for the report.
    """
    null: Any = "null" if isinstance(document, str) else b"null"
    if (
        isinstance(document, str | bytes)
        and _size(document) <= limits.max_document_bytes
        and null not in document
    ):
        try:
            index = SkillIndex.model_validate_json(document)
        except pydantic.ValidationError:
            pass  # reported below, in the schema's terms (JSON Pointers)
        else:
            ids = {entry.id for entry in index.skills}
            if len(ids) == len(index.skills):
                return index
    return _parse(document, SkillIndex, "SkillIndex", limits)


def to_document(model: pydantic.BaseModel) -> dict[str, Any]:
    """A model as its JSON document (wire names, fields never set left out)."""
    value: dict[str, Any] = model.model_dump(mode="json", by_alias=True, exclude_unset=True)
    return value


def serialize(descriptor: SkillDescriptor | SkillIndex) -> str:
    """Stable JSON text: 2-space indent, schema field order, UTF-8 kept, trailing newline."""
    return json.dumps(to_document(descriptor), indent=2, ensure_ascii=False) + "\n"
