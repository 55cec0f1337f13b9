"""Validating a manifest against the AI-Protocol v1.1 schema embedded in the package."""

from __future__ import annotations

from functools import cache
from typing import Any

from agentproto.llm.problems import ManifestError

__all__ = ["validate_manifest"]


@cache
def _validator() -> Any:
    import jsonschema.validators  # imported on first use: the bundled manifests never need it

    from agentproto.llm.schema import schema

    cls = jsonschema.validators.validator_for(schema())
    return cls(schema())


def validate_manifest(data: Any, source: str) -> None:
    """Raise :class:`ManifestError` for the first problem (sorted by location) in ``data``."""
    errors = sorted(_validator().iter_errors(data), key=lambda e: [str(p) for p in e.absolute_path])
    if errors:
        error = errors[0]
        pointer = "".join(
            "/" + str(p).replace("~", "~0").replace("/", "~1") for p in error.absolute_path
        )
        more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
        raise ManifestError(source, pointer, f"{error.message}{more}")
