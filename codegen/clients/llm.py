"""AI-Protocol: the provider registry, error classes and embedded schema are generated; the
manifest-driven client (``templates/llm/*.py``) is shipped as is.

- ``llm/registry.py``: a ``Literal`` of provider ids, per-provider capabilities, chat endpoint,
  auth kind and env var names, and every manifest embedded as JSON (nothing fetched at run time);
- ``llm/errors.py``: one exception class per standard error id of the schema's
  ``error_classification`` enum, with the spec table's statuses as fallback;
- ``llm/schema.py``: the v1.1 schema, for validating manifests users load at run time.

Every path and expression of every manifest is compiled here, with the runtime's own parser
(``templates/llm/paths.py``), so a manifest the client could not follow fails the build with
file, JSON pointer and reason instead of failing a user's request.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from collections.abc import Mapping
from pathlib import Path
from types import ModuleType
from typing import Any

import jinja2

from codegen import corpus
from codegen.errors import BuildError, Problem
from codegen.ir import Protocol
from codegen.sources import display_path, load_document
from codegen.unasync import ship

EXPORTS = {
    "AsyncChatStream": "client",
    "AsyncLLMClient": "client",
    "ChatResponse": "response",
    "ChatStream": "client",
    "Embeddings": "services",
    "FunctionTool": "tool_loop",
    "LLMClient": "client",
    "Manifest": "manifest",
    "ModelInfo": "services",  # (the table is sorted where it is used)
    "ManifestError": "problems",
    "MissingAPIKeyError": "client",
    "PROVIDERS": "registry",
    "PROVIDER_IDS": "registry",
    "ProviderError": "errors",
    "ProviderId": "registry",
    "ProviderInfo": "registry",
    "ProviderStreamError": "errors",
    "ParsedChatResponse": "structured",
    "StructuredOutputError": "structured",
    "ToolCall": "response",
    "ToolError": "tool_loop",
    "ToolExecutionError": "tool_loop",
    "ToolLoopError": "tool_loop",
    "ToolLoopLimitError": "tool_loop",
    "ToolLoopResult": "tool_loop",
    "ToolRun": "tool_loop",
    "UnsupportedError": "problems",
    "Usage": "response",
    "function_tool": "tool_loop",
}
_FALLBACK_DOC = "The provider answered with an error of this class."


def _standalone(template_root: Path, name: str) -> ModuleType:
    """Load a runtime module that imports nothing from the package (paths, payloads)."""
    path = template_root / "llm" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"_codegen_llm_{name}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while it runs
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules[spec.name]
    return module


def render(
    protocol: Protocol, env: jinja2.Environment, models: Mapping[str, str]
) -> dict[str, str]:
    unit = protocol.models[0]
    folder = unit.schema_file.parent
    root = folder.parent.parent
    template_root = Path(str(env.globals["template_root"]))
    paths = _standalone(template_root, "paths")
    payloads = _standalone(template_root, "payloads")

    providers = []
    problems: list[Problem] = []
    for file in corpus.manifest_files(folder):
        shown = display_path(file, root)
        manifest = load_document(file, root)  # validated against the schema by the spec stage
        problems.extend(_check(manifest, shown, paths, payloads))
        providers.append(_info(manifest))
    if problems:
        raise BuildError(problems)

    classes = _error_classes(protocol, unit.schema)
    spec_status = {status: error.name for error in protocol.errors for status in error.http_status}
    capability_names = sorted(
        unit.schema.get("properties", {}).get("capabilities", {}).get("properties", {})
    )
    schema = json.dumps(unit.schema, sort_keys=True, ensure_ascii=False)
    files = {
        "llm/registry.py": env.get_template("llm/registry.py.j2").render(
            protocol=protocol, providers=providers, capability_names=capability_names
        ),
        "llm/errors.py": env.get_template("llm/errors.py.j2").render(
            protocol=protocol, classes=classes, spec_status=dict(sorted(spec_status.items()))
        ),
        "llm/schema.py": env.get_template("llm/schema.py.j2").render(
            protocol=protocol, schema_json=schema
        ),
    }
    for path in sorted((template_root / "llm").glob("*.py")):
        files[f"llm/{path.name}"] = ship(path)
    return files


def _info(manifest: dict[str, Any]) -> dict[str, Any]:
    endpoints = manifest.get("endpoints") or {}
    chat = endpoints.get("chat")
    if not isinstance(chat, dict):
        chats = sorted(
            k for k, v in endpoints.items() if k.startswith("chat") and isinstance(v, dict)
        )
        chat = endpoints[chats[0]] if chats else {"path": "/chat/completions"}
    auth = manifest.get("auth") or {}
    streaming = manifest.get("streaming") or {}
    return {
        "id": manifest["id"],
        "name": str(manifest.get("name", manifest["id"])),
        "base_url": str(manifest["endpoint"]["base_url"]),
        "chat_method": str(chat.get("method", "POST")).upper(),
        "chat_path": str(chat["path"]),
        "auth": str(auth.get("type", "bearer")),
        "env_vars": tuple(str(auth[k]) for k in ("token_env", "key_env") if auth.get(k)),
        "payload_format": _payload_format(manifest),
        "stream_decoder": str((streaming.get("decoder") or {}).get("format", "sse")),
        "capabilities": tuple(
            sorted(k for k, v in (manifest.get("capabilities") or {}).items() if v is True)
        ),
        "json": json.dumps(manifest, ensure_ascii=False, separators=(",", ":")),
    }


def _check(
    manifest: dict[str, Any], shown: str, paths: ModuleType, payloads: ModuleType
) -> list[Problem]:
    """Every expression and path compiles; the payload format is one the client builds."""
    problems: list[Problem] = []

    def expr(pointer: str, text: Any) -> None:
        if isinstance(text, str):
            try:
                paths.compile_match(text)
            except paths.ExpressionError as exc:
                problems.append(Problem(shown, pointer, f"{exc.reason} in {text!r}"))

    def path(pointer: str, text: Any) -> None:
        if isinstance(text, str):
            try:
                paths.parse_path(text)
            except paths.ExpressionError as exc:
                problems.append(Problem(shown, pointer, f"{exc.reason} in {text!r}"))

    streaming = manifest.get("streaming") or {}
    for key in ("frame_selector", "stop_condition"):
        expr(f"/streaming/{key}", streaming.get(key))
    expr("/streaming/accumulator/flush_on", (streaming.get("accumulator") or {}).get("flush_on"))
    for key in ("content_path", "tool_call_path", "usage_path", "extra_metadata_path"):
        path(f"/streaming/{key}", streaming.get(key))
    path(
        "/streaming/candidate/candidate_id_path",
        (streaming.get("candidate") or {}).get("candidate_id_path"),
    )
    for i, rule in enumerate(streaming.get("event_map") or []):
        expr(f"/streaming/event_map/{i}/match", rule.get("match"))
        for group in ("fields", "extract"):
            for name, value in (rule.get(group) or {}).items():
                if isinstance(value, str) and value.startswith("$"):
                    path(f"/streaming/event_map/{i}/{group}/{name}", value)
    for key, value in (manifest.get("response_paths") or {}).items():
        path(f"/response_paths/{key}", value)
    mapping = ((manifest.get("features") or {}).get("response_mapping") or {}).get("tool_calls")
    if isinstance(mapping, dict):
        path("/features/response_mapping/tool_calls/path", mapping.get("path"))
        expr("/features/response_mapping/tool_calls/filter", mapping.get("filter"))
    fmt = _payload_format(manifest)
    if fmt not in payloads.FORMATS:
        problems.append(
            Problem(
                shown,
                "/payload_format",
                f"{fmt!r} is not a payload format the client builds "
                f"({', '.join(payloads.FORMATS)})",
            )
        )
    return problems


def _payload_format(manifest: dict[str, Any]) -> str:
    """The request shape, as the runtime reads it: ``payload_format``, else the one some
    manifests put under ``auth``, else ``response_format``, else OpenAI's."""
    return str(
        manifest.get("payload_format")
        or (manifest.get("auth") or {}).get("payload_format")
        or manifest.get("response_format")
        or "openai_style"
    )


def _error_classes(protocol: Protocol, schema: dict[str, Any]) -> list[tuple[str, str, bool, str]]:
    """(class name, id, retryable, doc) per standard error id, from the schema's enum."""
    by_status = (
        schema.get("properties", {})
        .get("error_classification", {})
        .get("properties", {})
        .get("by_http_status", {})
    )
    ids = (by_status.get("additionalProperties") or {}).get("enum")
    if not isinstance(ids, list) or "other" not in ids:
        raise BuildError.single(
            f"schemas/{protocol.id}/{protocol.models[0].schema_file.name}",
            "/properties/error_classification/properties/by_http_status/additionalProperties/enum",
            "must list the standard error ids, 'other' among them",
        )
    table = {error.name: error for error in protocol.errors}
    out = []
    for name in ids:
        error = table.get(name)
        pascal = "".join(part.capitalize() for part in str(name).split("_"))
        cls = pascal if pascal.endswith("Error") else pascal + "Error"
        if cls in ("TimeoutError", "OtherError"):
            cls = {"TimeoutError": "ProviderTimeoutError", "OtherError": "OtherProviderError"}[cls]
        retryable = bool(error.retryable) if error else name in ("overloaded", "timeout")
        doc = error.description if error else _FALLBACK_DOC.replace("this class", repr(name))
        out.append((cls, str(name), retryable, doc))
    return out
