"""Validating a manifest against its own version's AI-Protocol schema (embedded in the package).

``protocol_version`` 1.x in the v1.1 shape is judged by the v1 schemas, 1.x using the v2
constructs by the 1.5 schema, 2.x by upstream's v2 provider schema; any other version is
refused with a sentence that says so. Every problem is reported, not only the first. A v1
``$schema`` naming the v1 schema by another of its names (upstream's relative
``../../schemas/v1.json``) is read as the canonical URL, and a v2 manifest's unknown top-level
fields are tolerated as upstream requires (``versions.for_validation`` / ``tolerated``).
"""

from __future__ import annotations

from functools import cache
from typing import Any, cast

from agentproto.llm.problems import ManifestError
from agentproto.llm.versions import VersionError, for_validation, schema_kind, tolerated

__all__ = ["manifest_problems", "validate_manifest"]


def _pointer(path: Any) -> str:
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in path)


@cache
def _validators(kind: str) -> tuple[Any, ...]:
    import jsonschema.validators  # imported on first use: the bundled manifests never need it
    import referencing
    from agentproto.llm.schema import ROOTS, SCHEMAS_JSON, UNVENDORED, named

    resources: list[tuple[str, Any]] = [
        (uri, referencing.Resource.from_contents({}, default_specification=_draft()))
        for uri in UNVENDORED
    ]
    for name in SCHEMAS_JSON:
        contents = named(name)
        resources.append((str(contents["$id"]), referencing.Resource.from_contents(contents)))
    registry: Any = referencing.Registry[Any]().with_resources(resources)
    out: list[Any] = []
    for name in ROOTS[kind]:
        root = named(name)
        cls = jsonschema.validators.validator_for(root)
        out.append(cls(root, registry=registry))
    return tuple(out)


def _draft() -> Any:
    from referencing.jsonschema import DRAFT202012

    return DRAFT202012


def _leaves(error: Any) -> list[Any]:
    """The errors worth reporting for ``error``: itself, or for a failed ``oneOf`` /
    ``anyOf`` every error of the alternative that came closest."""
    if not error.context:
        return [error]
    branches: dict[Any, list[Any]] = {}
    for sub in error.context:
        branches.setdefault(sub.relative_schema_path[0], []).append(sub)
    # closest: fewest errors other than missing properties (a document missing what every
    # alternative requires is read as the first, main alternative)
    closest = min(
        branches.items(),
        key=lambda item: (sum(e.validator != "required" for e in item[1]), item[0]),
    )[1]
    return [leaf for sub in closest for leaf in _leaves(sub)]


def manifest_problems(data: Any) -> list[tuple[str, str]]:
    """Every (JSON pointer, reason) by which ``data`` breaks its version's schema, sorted."""
    if not isinstance(data, dict):
        return [("", f"a manifest is a JSON object, not {type(data).__name__}")]
    try:
        kind = schema_kind(cast("dict[str, Any]", data))
    except VersionError as exc:
        return [(exc.pointer, exc.reason)]
    best: list[tuple[str, str]] | None = None
    document = for_validation(cast("dict[str, Any]", data))
    for validator in _validators(kind):
        found = sorted(
            {
                (_pointer(leaf.absolute_path), leaf.message)
                for error in validator.iter_errors(document)
                if not tolerated(kind, error.validator, error.absolute_path)
                for leaf in _leaves(error)
            }
        )
        if not found:
            return []
        best = found  # the last schema (the current upstream one) names the problems
    assert best is not None
    return best


def validate_manifest(data: Any, source: str) -> None:
    """Raise :class:`ManifestError` listing every problem of ``data`` (first one in front)."""
    problems = manifest_problems(data)
    if problems:
        raise ManifestError.many(source, problems)
