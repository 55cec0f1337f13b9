"""AI-Protocol: the provider registry, error classes and embedded schema are generated; the
manifest-driven client (``templates/llm/*.py``) is shipped as is.

- ``llm/registry.py``: a ``Literal`` of provider ids, per-provider capabilities, chat endpoint,
  auth kind and env var names, and every manifest embedded as JSON (nothing fetched at run time);
- ``llm/errors.py``: one exception class per standard error id of the schema's
  ``error_classification`` enum, with the spec table's statuses as fallback;
- ``llm/schema.py``: the schemas of every manifest version (the seed v1.1 schema, upstream's
  current v1 schema, this project's 1.5-shape schema, upstream's v2 provider schema and the
  parts it references), for validating manifests users load at run time.

The upstream manifests vendored besides the bundled ones (``v1/providers/*.json``,
``v2/providers/*.yaml``) are validated against their own version's schema, read into the
client's shape by the runtime's own ``llm/versions.py`` and compiled like the bundled ones; the
error classes carry the standard codes (E1001...E9999), ``retryable`` and ``fallbackable`` of
``v2/error-codes.yaml``.

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
from urllib.parse import urljoin

import jinja2

from codegen.errors import BuildError, Problem, to_pointer
from codegen.inputs import corpus
from codegen.inputs.sources import display_path, load_document
from codegen.ir import Protocol
from codegen.package.unasync import ship

EXPORTS = {  # sorted where it is used
    "AsyncChatStream": "client",
    "AsyncFallbackChain": "fallback",
    "AsyncFallbackStream": "fallback",
    "Attempt": "fallback",
    "Budget": "pricing",
    "BudgetExceededError": "pricing",
    "Cost": "pricing",
    "ErrorInfo": "observe",
    "FallbackChain": "fallback",
    "FallbackError": "fallback",
    "FallbackStream": "fallback",
    "Hooks": "observe",
    "ModelCatalog": "pricing",
    "Price": "pricing",
    "RequestInfo": "observe",
    "ResponseInfo": "observe",
    "StreamInterruptedError": "fallback",
    "TextToolConfig": "text_tools",
    "TextToolParse": "text_tools",
    "hybrid_tool_calls": "text_tools",
    "parse_text_tool_calls": "text_tools",
    "AsyncLLMClient": "client",
    "ChatResponse": "response",
    "ChatStream": "client",
    "CredentialSource": "credentials",
    "Embeddings": "services",
    "FunctionTool": "tool_loop",
    "ImageBlock": "payloads",
    "LLMClient": "client",
    "Manifest": "manifest",
    "ManifestError": "problems",
    "MissingAPIKeyError": "client",
    "ModelInfo": "services",
    "PROVIDERS": "registry",
    "PROVIDER_IDS": "registry",
    "ParsedChatResponse": "structured",
    "ProviderError": "errors",
    "ProviderId": "registry",
    "ProviderInfo": "registry",
    "ProviderStreamError": "errors",
    "StructuredOutputError": "structured",
    "ToolArgumentsError": "response",
    "ToolCall": "response",
    "ToolError": "tool_loop",
    "ToolExecutionError": "tool_loop",
    "ToolLoopChatError": "tool_loop",
    "ToolLoopError": "tool_loop",
    "ToolLoopLimitError": "tool_loop",
    "ToolLoopResult": "tool_loop",
    "ToolRun": "tool_loop",
    "UPSTREAM_IDS": "registry",
    "UnknownProviderError": "problems",
    "UnsupportedError": "problems",
    "Usage": "response",
    "function_tool": "tool_loop",
    # runtime types a user of the client meets (its options)
    "RetryPolicy": "agentproto._runtime.http",
    "Secret": "agentproto._runtime.redact",
    "Histogram": "agentproto._runtime.telemetry",
    "SpanHandle": "agentproto._runtime.telemetry",
    "Telemetry": "agentproto._runtime.telemetry",
}
_FALLBACK_DOC = "The provider answered with an error of this class."


_ERRORS = "agentproto._runtime.errors"


def _load(name: str, path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up while it runs
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules[name]
    return module


def _standalone(template_root: Path, name: str) -> ModuleType:
    """Load a module of the LLM client that imports nothing from the package but the
    runtime's root exception (paths, payloads, versions): that one is loaded from the
    templates too, unless the package is imported in this process already."""
    provided = _ERRORS not in sys.modules
    if provided:
        sys.modules[_ERRORS] = _load(_ERRORS, template_root / "runtime" / "errors.py")
    try:
        return _load(f"_codegen_llm_{name}", template_root / "llm" / f"{name}.py")
    finally:
        if provided:
            del sys.modules[_ERRORS]


def render(
    protocol: Protocol, env: jinja2.Environment, models: Mapping[str, str]
) -> dict[str, str]:
    unit = protocol.models[0]
    folder = unit.schema_file.parent
    root = folder.parent.parent
    template_root = Path(str(env.globals["template_root"]))
    paths = _standalone(template_root, "paths")
    payloads = _standalone(template_root, "payloads")
    versions = _standalone(template_root, "versions")
    schemas = _schemas(folder, root)
    unvendored = _unvendored(schemas)
    validators = _validators(unit.schema, schemas, unvendored)

    providers = []
    bundled: dict[str, dict[str, Any]] = {}
    problems: list[Problem] = []
    for file in corpus.manifest_files(folder):
        shown = display_path(file, root)
        manifest = load_document(file, root)  # validated against the schema by the spec stage
        problems.extend(_validate(manifest, shown, versions, validators))
        problems.extend(_check(manifest, shown, paths, payloads))
        providers.append(_info(manifest))
        bundled[manifest["id"]] = manifest

    def profile(fmt: str) -> dict[str, Any] | None:
        provider = versions.PROFILE_PROVIDERS.get(fmt)
        return bundled.get(provider) if provider else None

    formats: dict[str, str] = {}  # vendored v2 provider id (and aliases) -> payload format
    upstream: list[tuple[str, str]] = []
    refused: list[tuple[str, tuple[str, str]]] = []  # key -> (pointer, reason): not chat APIs
    for file in upstream_manifest_files(folder):
        shown = display_path(file, root)
        manifest = load_document(file, root)
        found = _validate(manifest, shown, versions, validators)
        problems.extend(found)
        if found:
            continue
        try:
            normalized = versions.normalize(manifest, profile)
        except versions.VersionError as exc:
            problems.append(Problem(shown, exc.pointer, exc.reason))
            continue
        major = versions.protocol_major(manifest)
        key = f"{manifest['id']}@v{major}"
        fmt = str(versions.payload_format_of(normalized))
        unbuildable = versions.unbuildable_format(normalized, fmt, payloads.FORMATS)
        if unbuildable is not None:
            # vendored as upstream has it; the client refuses it with this one reason
            refused.append((key, unbuildable))
            continue
        problems.extend(_check(normalized, shown, paths, payloads))
        upstream.append((key, json.dumps(manifest, ensure_ascii=False, separators=(",", ":"))))
        formats[str(manifest["id"])] = fmt
        for alias in manifest.get("aliases") or ():
            formats.setdefault(str(alias), fmt)
    problems.extend(_check_contracts(folder, root, versions, formats, schemas))
    if problems:
        raise BuildError(problems)

    codes = load_document(folder / "v2" / "error-codes.yaml", root)
    classes = _error_classes(protocol, unit.schema, codes)
    known_codes = _known_codes(codes)
    spec_status = {status: error.name for error in protocol.errors for status in error.http_status}
    capability_names = sorted(
        unit.schema.get("properties", {}).get("capabilities", {}).get("properties", {})
    )
    schema = json.dumps(unit.schema, sort_keys=True, ensure_ascii=False)
    files = {
        "llm/registry.py": env.get_template("llm/registry.py.j2").render(
            protocol=protocol,
            providers=providers,
            capability_names=capability_names,
            upstream=sorted(upstream),
            refused=sorted(refused),
            catalogs=_catalogs(folder, root),
        ),
        "llm/errors.py": env.get_template("llm/errors.py.j2").render(
            protocol=protocol,
            classes=classes,
            spec_status=dict(sorted(spec_status.items())),
            known_codes=known_codes,
        ),
        "llm/schema.py": env.get_template("llm/schema.py.j2").render(
            protocol=protocol,
            schema_json=schema,
            schemas={
                name: json.dumps(value, sort_keys=True, ensure_ascii=False)
                for name, value in sorted(schemas.items())
            },
            unvendored=unvendored,
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


def _error_classes(
    protocol: Protocol, schema: dict[str, Any], codes: Any
) -> list[tuple[str, str, bool, str, str, bool]]:
    """(class name, id, retryable, doc, code, fallbackable) per standard error id, from the
    schema's enum; code, retryable and fallbackable from upstream's error-codes table
    (``other`` is its ``unknown``, E9999)."""
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
    standard = {
        ("other" if entry.get("name") == "unknown" else str(entry.get("name"))): (str(code), entry)
        for code, entry in sorted((codes or {}).get("error_codes", {}).items())
        if isinstance(entry, dict)
    }
    out = []
    for name in ids:
        error = table.get(name)
        pascal = "".join(part.capitalize() for part in str(name).split("_"))
        cls = pascal if pascal.endswith("Error") else pascal + "Error"
        if cls in ("TimeoutError", "OtherError"):
            cls = {"TimeoutError": "ProviderTimeoutError", "OtherError": "OtherProviderError"}[cls]
        code, entry = standard.get(str(name), ("E9999", {}))
        if "retryable" in entry:
            retryable = bool(entry["retryable"])
        else:
            retryable = bool(error.retryable) if error else name in ("overloaded", "timeout")
        doc = error.description if error else str(entry.get("description") or "")
        doc = doc or _FALLBACK_DOC.replace("this class", repr(name))
        out.append((cls, str(name), retryable, doc, code, bool(entry.get("fallbackable"))))
    return out


def _known_codes(codes: Any) -> dict[str, str]:
    """Provider error codes upstream's table maps to a standard id, over all providers (the
    first provider's word wins; the table has no conflicts today)."""
    out: dict[str, str] = {}
    mappings = (codes or {}).get("provider_mappings", {})
    for provider in sorted(mappings):
        for code, name in sorted((mappings[provider].get("by_error_code") or {}).items()):
            out.setdefault(str(code), "other" if name == "unknown" else str(name))
    return dict(sorted(out.items()))


# -- manifest versions ---------------------------------------------------------------------------


def upstream_manifest_files(protocol_folder: Path) -> list[Path]:
    """The vendored upstream manifests that are not bundled (``v1/providers/*.yaml``,
    ``v2/providers/*.yaml``)."""
    v1 = sorted((protocol_folder / "v1" / "providers").glob("*.yaml"))
    v2 = sorted((protocol_folder / "v2" / "providers").glob("*.yaml"))
    return v1 + v2


def _check_contracts(
    folder: Path,
    root: Path,
    versions: ModuleType,
    formats: Mapping[str, str],
    schemas: Mapping[str, dict[str, Any]],
) -> list[Problem]:
    """Each vendored provider contract is valid under upstream's contract schema, names an API
    style the client has a shape for, and a vendored v2 manifest of that provider is read in
    that shape."""
    import jsonschema.validators

    schema = schemas["v2/provider-contract.json"]
    validator = jsonschema.validators.validator_for(schema)(schema)
    problems: list[Problem] = []
    for file in sorted((folder / "v2" / "contracts").glob("*.yaml")):
        shown = display_path(file, root)
        contract = load_document(file, root)
        # `$schema` names the schema; that schema's own `additionalProperties: false` does not
        # list it, so it is set aside before validating (as upstream's contracts all carry it)
        body = {k: v for k, v in (contract or {}).items() if k != "$schema"}
        invalid = sorted(validator.iter_errors(body), key=lambda e: list(e.absolute_path))
        problems.extend(Problem(shown, to_pointer(e.absolute_path), e.message) for e in invalid)
        if invalid:
            continue
        style = str((contract or {}).get("api_style", ""))
        fmt = versions.style_format(style)
        if fmt is None:
            problems.append(
                Problem(shown, "/api_style", f"{style!r} is not an API style the client reads")
            )
            continue
        provider = str(contract.get("provider_id", ""))
        if provider in formats and formats[provider] != fmt:
            problems.append(
                Problem(
                    shown,
                    "/api_style",
                    f"{style!r} is {fmt}, but the v2 manifest of {provider!r} reads as "
                    f"{formats[provider]}",
                )
            )
    return problems


def _schemas(folder: Path, root: Path) -> dict[str, dict[str, Any]]:
    """Every schema besides the seed: upstream's current v1, our 1.5 shape, upstream's v2."""
    out: dict[str, dict[str, Any]] = {
        "v1": load_document(folder / "v1" / "v1.json", root),
        "v1.5": load_document(folder / "ai-protocol.v1.5.schema.json", root),
    }
    for file in sorted((folder / "v2").glob("*.json")):
        out[f"v2/{file.name}"] = load_document(file, root)
    return out


def _unvendored(schemas: Mapping[str, dict[str, Any]]) -> tuple[str, ...]:
    """The URIs ``$ref``-ed from the vendored v2 schemas that are not vendored themselves."""
    have = {str(s.get("$id")) for s in schemas.values()}
    found: set[str] = set()

    def walk(node: Any, base: str) -> None:
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and not ref.startswith("#"):
                uri = urljoin(base, ref.split("#", 1)[0])
                if uri not in have:
                    found.add(uri)
            for value in node.values():
                walk(value, base)
        elif isinstance(node, list):
            for value in node:
                walk(value, base)

    for schema in schemas.values():
        walk(schema, str(schema.get("$id", "")))
    return tuple(sorted(found))


def _validators(
    seed: dict[str, Any], schemas: Mapping[str, dict[str, Any]], unvendored: tuple[str, ...]
) -> dict[str, list[Any]]:
    import jsonschema.validators
    import referencing
    from referencing.jsonschema import DRAFT202012

    resources = [(u, referencing.Resource.from_contents({}, DRAFT202012)) for u in unvendored]
    resources += [(str(s["$id"]), referencing.Resource.from_contents(s)) for s in schemas.values()]
    registry: Any = referencing.Registry().with_resources(resources)

    def make(schema: dict[str, Any]) -> Any:
        cls = jsonschema.validators.validator_for(schema)
        return cls(schema, registry=registry)

    return {
        "v1": [make(seed), make(schemas["v1"])],
        "v1.5": [make(schemas["v1.5"])],
        "v2": [make(schemas["v2/provider.json"])],
    }


def _leaves(error: Any) -> list[Any]:
    """The errors worth reporting for ``error``: itself, or for a failed ``oneOf`` /
    ``anyOf`` every error of the alternative that came closest (as the runtime does)."""
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


def _catalogs(folder: Path, root: Path) -> list[tuple[str, str]]:
    """The vendored v1 model records (``v1/models/*.json``: per-token prices and context
    windows), embedded as JSON by file stem."""
    out: list[tuple[str, str]] = []
    for file in sorted((folder / "v1" / "models").glob("*.json")):
        data = load_document(file, root)
        models = data.get("models") if isinstance(data, dict) else None
        if not isinstance(models, dict):
            raise BuildError.single(display_path(file, root), "/models", "must be an object")
        out.append((file.stem, json.dumps(data, ensure_ascii=False, separators=(",", ":"))))
    return out


def _validate(
    manifest: Any, shown: str, versions: ModuleType, validators: Mapping[str, list[Any]]
) -> list[Problem]:
    """Every problem of ``manifest`` against its own version's schema (for v1: the seed or
    upstream's current schema accepting it is enough)."""
    if not isinstance(manifest, dict):
        return [Problem(shown, "", "a manifest is a JSON object")]
    try:
        kind = versions.schema_kind(manifest)
    except versions.VersionError as exc:
        return [Problem(shown, exc.pointer, exc.reason)]
    found: list[Problem] = []
    document = versions.for_validation(manifest)
    for validator in validators[kind]:
        found = []
        for error in validator.iter_errors(document):
            if versions.tolerated(kind, error.validator, error.absolute_path):
                continue
            for leaf in _leaves(error):
                found.append(Problem(shown, to_pointer(leaf.absolute_path), leaf.message))
        if not found:
            return []
    return found
