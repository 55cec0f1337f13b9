"""Skill Sharing: generated error hierarchy and embedded schema, plus the hand-written
consumer client, document tools and provider kit (``templates/skills/*.py``, shipped as is)."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import Path

import jinja2

from codegen.errors import BuildError
from codegen.ir import Protocol
from codegen.package.unasync import ship

EXPORTS = {
    "AsyncSkillsClient": "consumer",
    "Credentials": "consumer",
    "Execution": "consumer",
    "AsyncExecution": "consumer",
    "SkillsClient": "consumer",
    "SkillProvider": "provider",
    "SkillSharingError": "errors",
    "AuthRequiredError": "errors",
    "EndpointUnreachableError": "errors",
    "ExecutionFailedError": "errors",
    "CancelNotSupportedError": "errors",
    "ExecutionStore": "store",
    "MemoryExecutionStore": "store",
    "SQLiteExecutionStore": "store",
    "PostgresExecutionStore": "store_postgres",
    "open_execution_store": "store",
    "StoreError": "agentproto._runtime.sql",
    "cancel_requested": "provider",
    "OAuth2Grant": "oauth2",
    "skill_tool": "tools",
    "skill_schema": "tools",
    "OAuth2Error": "oauth2",
    "InvocationTimeoutError": "errors",
    "PermissionDeniedError": "errors",
    "SkillNotFoundError": "errors",
    "ValidationError": "errors",
    "VersionIncompatibleError": "errors",
    "ValidationReport": "documents",
    "parse": "documents",
    "parse_index": "documents",
    "serialize": "documents",
    "validate": "documents",
    "Secret": "agentproto._runtime.redact",  # what Credentials hold
}


def error_class(name: str) -> str:
    """`skill_not_found` -> `SkillNotFoundError`; `validation_error` -> `ValidationError`."""
    pascal = "".join(part.capitalize() for part in name.split("_"))
    return pascal if pascal.endswith("Error") else pascal + "Error"


def render(
    protocol: Protocol, env: jinja2.Environment, models: Mapping[str, str]
) -> dict[str, str]:
    shown = f"schemas/{protocol.id}/spec.yaml"
    errors = []
    for error in protocol.errors:
        if not isinstance(error.code, str) or not re.fullmatch(r"[A-Z][A-Z0-9_]*", error.code):
            raise BuildError.single(shown, "/errors", f"{error.name}: code must be UPPER_SNAKE")
        errors.append((error_class(error.name), error))
    schema = json.dumps(protocol.models[0].document, sort_keys=True, ensure_ascii=False)
    files = {
        "skills/errors.py": env.get_template("skills/errors.py.j2").render(
            protocol=protocol, errors=errors
        ),
        "skills/schema.py": env.get_template("skills/schema.py.j2").render(
            protocol=protocol, schema_json=schema
        ),
    }
    helpers = Path(str(env.globals["template_root"])) / "skills"
    for path in sorted(helpers.glob("*.py")):
        files[f"skills/{path.name}"] = ship(path)
    return files
