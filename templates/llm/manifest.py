"""Provider manifests at run time: load, validate, compile once.

A :class:`Manifest` is a manifest compiled for use: every path and expression parsed, the
endpoint, auth, parameter mappings, response paths, retry policy, error classification and
streaming program ready. Manifests bundled with the package were validated when the package
was generated; one you load yourself (:meth:`Manifest.load` with a file, or
:meth:`Manifest.from_dict`) is validated against its own version's schema (v1.1, the 1.5
shape or v2) and read into the one shape the client runs on (see ``llm/versions.py``); a bad
one raises :class:`~agentproto.llm.problems.ManifestError` naming the file and every problem
with its JSON pointer and reason.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path as FilePath
from typing import Any, Final, TypeGuard

from agentproto._runtime.json_types import JSONValue
from agentproto._runtime.limits import DEFAULT_LIMITS, LimitError, Limits, check_depth, load_yaml
from agentproto._runtime.limits import loads as load_json
from agentproto.llm.paths import (
    ExpressionError,
    Reader,
    compile_path,
    compile_predicate,
    section,
)
from agentproto.llm.payloads import CONVENTIONAL_PARAMETERS, DEFAULT_TARGETS, FORMATS
from agentproto.llm.problems import ManifestError, UnsupportedError
from agentproto.llm.registry import REFUSED, manifest_json
from agentproto.llm.streaming import StreamProgram, compile_stream
from agentproto.llm.versions import (
    PROFILE_PROVIDERS,
    VersionError,
    normalize,
    parameter_defaults,
    shadowed_env,
    unbuildable_format,
)

__all__ = ["CHAT_PARAMETERS", "Manifest", "RateLimits", "ResponseShape", "ToolMapping"]

_PART_PATH = re.compile(r"^(.*)\[0\]\.([A-Za-z_][A-Za-z0-9_]*)$")  # ...parts[0].key
_TEMPLATE_VAR = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\{([A-Za-z_][A-Za-z0-9_]*)\}")
_OPENAI_CONVENTION = frozenset({"openai_style", "ai21_style"})
"""Formats whose chat path, when a manifest names no endpoint at all, is the OpenAI-compatible
``/chat/completions`` the manifests of those APIs rely on (azure, yi, together...)."""
_ERROR_ALIASES: Final = {"insufficient_quota": "quota_exhausted", "unknown": "other"}
"""Error class names upstream manifests use for a standard id (deepseek's, zhipu's v2 ``402``)."""

CHAT_PARAMETERS: Final = frozenset(
    {
        "temperature",
        "max_tokens",
        "top_p",
        "top_k",
        "stop",
        "stop_sequences",
        "frequency_penalty",
        "presence_penalty",
        "repetition_penalty",
        "seed",
        "n",
        "stream",
        "reasoning_effort",
        "response_format",
        "tools",
        "tool_choice",
        "parallel_tool_calls",
        "logprobs",
        "top_logprobs",
        "user",
    }
)
"""Standard names of chat-request parameters. A typed ``parameters`` default is sent with a
chat request only for these and for what the API style's own chat mapping names: cohere's v2
manifest also declares rerank's ``max_tokens_per_doc`` (default 4096), which a chat request
must not carry."""


@dataclass(frozen=True)
class ToolMapping:
    """Where the tool calls of a non-streamed answer are, and how to read one."""

    path: Reader
    filter: Callable[[JSONValue], bool] | None
    id: Reader | None
    name: Reader
    args: Reader


@dataclass(frozen=True)
class ResponseShape:
    """The compiled ``response_paths`` (and ``features.response_mapping``)."""

    content: Reader | None
    finish_reason: Reader | None
    usage: Reader | None
    tool_calls: ToolMapping | None
    thinking: Reader | None
    error_message: Reader
    error_code: Reader
    error_type: Reader
    error_status: Reader
    extra: Mapping[str, Reader]


@dataclass(frozen=True)
class RateLimits:
    """The manifest's rate-limit header names, read off a response."""

    names: Mapping[str, str]  # field -> header name

    def read(self, headers: Mapping[str, str]) -> dict[str, str]:
        lowered = {k.lower(): v for k, v in headers.items()}
        return {f: lowered[h.lower()] for f, h in self.names.items() if h.lower() in lowered}


class Manifest:
    """One provider's manifest, compiled. Build it with :meth:`bundled`, :meth:`load` or
    :meth:`from_dict`; it holds no credentials and can be shared by any number of clients."""

    def __init__(self, data: Mapping[str, Any], source: str) -> None:
        try:
            normalized = normalize(data, _profile)
        except VersionError as exc:
            raise ManifestError(source, exc.pointer, exc.reason) from None
        except (TypeError, AttributeError, KeyError, ValueError) as exc:
            # a shape the schema let through and normalisation cannot read: still a
            # ManifestError, never a bare exception from inside the reader
            raise ManifestError(
                source, "", f"cannot be read ({type(exc).__name__}: {exc})"
            ) from None
        self.raw: Mapping[str, Any] = data
        """The manifest as given (``data`` is the normalised one the client runs on)."""
        self.data: Mapping[str, Any] = normalized
        data = normalized
        self.source = source
        self.id: str = str(data["id"])
        self.protocol_version: str = str(data.get("protocol_version", ""))
        self.credential_id: str = str(data.get("provider_id") or self.id)
        """The id the conventional ``{ID}_API_KEY`` variable is named after."""
        declared = parameter_defaults(self.raw)
        chat_names = CHAT_PARAMETERS | _profile_mappings(normalized)
        self.parameter_defaults: dict[str, Any] = {
            k: v for k, v in declared.items() if k in chat_names
        }
        """Defaults the typed ``parameters`` declare for chat parameters, sent when a call does
        not set them (``None`` for a parameter means: send nothing, not even the default)."""
        self.non_chat_defaults: dict[str, Any] = {
            k: v for k, v in declared.items() if k not in chat_names
        }
        """Defaults of parameters that are not chat parameters (rerank's ``top_n``...): never
        sent with a chat request; a call may still set such a parameter explicitly."""
        self.extensions: dict[str, Any] = _extensions(self.raw)
        """Top-level fields of a v2 manifest its schema does not know, kept as given (upstream
        requires runtimes to tolerate them)."""
        self.shadowed_env: tuple[str, ...] = shadowed_env(self.raw)
        self.name: str = str(data.get("name", self.id))
        endpoint = section(data, "endpoint")
        self.base_url: str = str(endpoint.get("base_url", ""))
        self.base_url_template: str | None = data.get("base_url_template")
        self.connection_vars: dict[str, str] = dict(data.get("connection_vars") or {})
        timeout_ms = endpoint.get("timeout_ms")
        self.timeout: float | None = timeout_ms / 1000.0 if isinstance(timeout_ms, int) else None
        auth = section(data, "auth")
        self.auth_type: str = str(auth.get("type", "bearer"))
        self.key_env: tuple[str, ...] = tuple(
            str(auth[k]) for k in ("token_env", "key_env") if auth.get(k)
        )
        self.auth_header: str = str(auth.get("header_name") or "x-api-key")
        self.auth_param: str = str(auth.get("param_name") or "key")
        extra_headers: list[Mapping[str, Any]] = auth.get("extra_headers") or []
        self.extra_headers: dict[str, str] = {
            str(h["name"]): str(h["value"]) for h in extra_headers
        }
        self.payload_format: str = str(
            data.get("payload_format")
            or auth.get("payload_format")
            or data.get("response_format")
            or "openai_style"
        )
        unbuildable = unbuildable_format(data, self.payload_format, FORMATS)
        if unbuildable is not None:
            raise ManifestError(source, *unbuildable)
        self.endpoints: dict[str, tuple[str, str]] = {}
        for name, value in section(data, "endpoints").items():
            if _is_mapping(value):
                if not isinstance(value.get("path"), str):
                    raise ManifestError(
                        source,
                        f"/endpoints/{_escape(str(name))}/path",
                        "an endpoint needs a path (a string)",
                    )
                self.endpoints[name] = (
                    str(value.get("method", "POST")).upper(),
                    str(value["path"]),
                )
        self.declared_apis: tuple[str, ...] = tuple(
            sorted(
                str(k)
                for k, v in section(self.raw, "endpoint").items()
                if isinstance(v, str) and k not in ("base_url", "protocol")
            )
        )
        """The APIs a v2 ``endpoint`` section names a path for (``chat``, ``rerank``...)."""
        conventional = (
            CONVENTIONAL_PARAMETERS.get(self.payload_format, {})
            if "parameter_mappings" not in data
            else {}
        )
        self.mappings: dict[str, str] = {
            **DEFAULT_TARGETS.get(self.payload_format, {}),
            **conventional,
            **{str(k): str(v) for k, v in section(data, "parameter_mappings").items()},
        }
        self.capabilities: dict[str, bool] = {
            str(k): bool(v) for k, v in section(data, "capabilities").items()
        }
        multi = section(data, "features", "multi_candidate")
        self.multi_candidate: str | None = multi.get("support_type")
        self.multi_candidate_param: str = str(multi.get("param_name") or "n")
        self.multi_candidate_concurrency: int = int(multi.get("max_concurrent") or 4)
        classification = section(data, "error_classification")
        self.by_http_status: dict[int, str] = {
            int(k): _error_id(v) for k, v in section(classification, "by_http_status").items()
        }
        self.by_error_status: dict[str, str] = {
            str(k): _error_id(v) for k, v in section(classification, "by_error_status").items()
        }
        self.by_error_code: dict[str, str] = {
            str(k): _error_id(v) for k, v in section(classification, "by_error_code").items()
        }
        self.by_message_contains: dict[str, str] = {
            str(k): _error_id(v) for k, v in section(classification, "by_message_contains").items()
        }
        extraction = section(classification, "retry_after_extraction")
        self.retry_after_pattern: re.Pattern[str] | None = None
        self.retry_after_unit: str = str(extraction.get("unit") or "seconds")
        if extraction.get("pattern"):
            try:
                self.retry_after_pattern = re.compile(str(extraction["pattern"]))
            except re.error as exc:
                raise ManifestError(
                    source,
                    "/error_classification/retry_after_extraction/pattern",
                    f"not a regular expression: {exc}",
                ) from None
        self.retry: dict[str, Any] = dict(section(data, "retry_policy"))
        self.rate_limits: RateLimits = RateLimits(dict(section(data, "rate_limit_headers")))
        termination = section(data, "termination")
        self.reasons: dict[str, str] = dict(section(termination, "mapping"))
        self.reason_field: str | None = termination.get("source_field")
        self.response: ResponseShape = self._response_shape()
        self.stream: StreamProgram = compile_stream(data, source)

    # -- construction -----------------------------------------------------------------------

    @classmethod
    def bundled(cls, provider: str) -> Manifest:
        """The manifest of a provider bundled with the package (compiled once, then cached):
        a bundled id, or ``<id>@v2`` / ``<id>@v1`` for the upstream manifests of other versions
        shipped with it (``agentproto.llm.UPSTREAM_IDS``)."""
        return _bundled(provider)

    @classmethod
    def load(cls, path: str | os.PathLike[str], *, limits: Limits = DEFAULT_LIMITS) -> Manifest:
        """A manifest file of your own (JSON, or YAML when PyYAML is installed), validated.

        Bounded (``limits``): a file larger than ``max_document_bytes``, nested deeper than
        ``max_json_depth``, or YAML whose aliases expand past ``max_yaml_nodes`` is refused,
        as is one that is not UTF-8: :class:`ManifestError` in every case."""
        file = FilePath(path)
        source = str(file)
        limit = limits.max_document_bytes
        try:
            with file.open("rb") as handle:
                raw = handle.read(limit + 1)
        except OSError as exc:
            raise ManifestError(source, "", f"cannot be read: {exc.strerror or exc}") from None
        try:
            if len(raw) > limit:
                raise LimitError("the manifest file", "max_document_bytes", limit, len(raw))
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise ValueError(f"not UTF-8 ({exc.reason} at byte {exc.start})") from None
            if file.suffix in (".yaml", ".yml"):
                data = load_yaml(text, limits)
            else:
                data = load_json(text, limits.max_json_depth)
        except LimitError as exc:
            raise ManifestError(source, "", str(exc)) from None
        except ValueError as exc:
            raise ManifestError(source, "", f"not valid JSON/YAML: {exc}") from None
        return cls.from_dict(data, source=source, limits=limits)

    @classmethod
    def from_dict(
        cls, data: Any, *, source: str = "<manifest>", limits: Limits = DEFAULT_LIMITS
    ) -> Manifest:
        """A manifest given as data, validated against its own version's schema (data nested
        deeper than ``limits.max_json_depth`` is refused: :class:`ManifestError`)."""
        from agentproto.llm.validation import validate_manifest

        try:
            check_depth(data, limits.max_json_depth)
        except LimitError as exc:
            raise ManifestError(source, "", str(exc)) from None
        validate_manifest(data, source)
        return cls(data, source)

    def __repr__(self) -> str:
        return f"<Manifest {self.id!r} from {self.source}>"

    # -- request side -----------------------------------------------------------------------

    def chat_endpoint(self, name: str | None = None) -> tuple[str, str]:
        """(method, path) of the chat endpoint: ``name``, else ``chat``, else the first whose
        name starts with ``chat``. A manifest that names no endpoint at all is an
        OpenAI-compatible one's (``/chat/completions``) only for the OpenAI formats; one that
        names other endpoints only (jina's v2: ``rerank``) has no chat: refused with
        :class:`UnsupportedError` before anything is sent, never sent to an invented path."""
        if name is not None:
            if name not in self.endpoints:
                known = ", ".join(sorted(self.endpoints)) or "none"
                raise ManifestError(
                    self.source, "/endpoints", f"no endpoint {name!r} (has: {known})"
                )
            return self.endpoints[name]
        if "chat" in self.endpoints:
            return self.endpoints["chat"]
        chats = sorted(n for n in self.endpoints if n.startswith("chat"))
        if chats:
            return self.endpoints[chats[0]]
        declared = sorted({*self.endpoints, *self.declared_apis})
        if declared:
            raise UnsupportedError(
                f"{self.id}: the manifest declares no chat endpoint (it declares: "
                f"{', '.join(declared)}); a chat request is not sent to a path it does not name"
            )
        if self.payload_format not in _OPENAI_CONVENTION:
            raise UnsupportedError(
                f"{self.id}: the manifest declares no chat endpoint and {self.payload_format} "
                "has no conventional one"
            )
        return ("POST", "/chat/completions")

    def resolve_base_url(self, variables: Mapping[str, str]) -> str:
        """The base URL: ``base_url_template`` when its variables are all given, else
        ``endpoint.base_url``; ``${VAR}`` / ``{var}`` come from ``variables``, the manifest's
        ``connection_vars``, then the environment."""
        values = {**self.connection_vars, **variables}
        if self.base_url_template and all(
            (m.group(1) or m.group(2)) in values
            for m in _TEMPLATE_VAR.finditer(self.base_url_template)
        ):
            return fill_template(self.base_url_template, values, self.source, "/base_url_template")
        return fill_template(self.base_url, values, self.source, "/endpoint/base_url")

    # -- response side ----------------------------------------------------------------------

    def _response_shape(self) -> ResponseShape:
        """``response_paths``, with the payload format's defaults for what a manifest does not
        give (none at all: every default). A path into element ``[0]`` of a list of parts reads
        every part: ``content[0].text`` is the text of all text parts (thinking parts become
        ``thinking``), ``parts[0].functionCall`` every part's call."""
        from agentproto.llm.response import (  # a cycle at import time otherwise
            ANTHROPIC_TOOL_MAPPING,
            RESPONSE_DEFAULTS,
            parts_reader,
        )

        given = dict(section(self.data, "response_paths"))
        paths = {**RESPONSE_DEFAULTS.get(self.payload_format, {}), **given}
        if "stop_reason" in given or "finish_reason" in given:
            paths = {k: v for k, v in paths.items() if k not in ("stop_reason", "finish_reason")}
            paths.update((k, v) for k, v in given.items() if k in ("stop_reason", "finish_reason"))
        if "function_call" in given:
            paths.pop("tool_calls", None)
        mapping = section(self.data, "features", "response_mapping")
        errors = section(mapping, "error")

        def path(pointer: str, text: str | None) -> Reader | None:
            if not text:
                return None
            try:
                return compile_path(text).first
            except ExpressionError as exc:
                raise ManifestError(self.source, pointer, exc.reason) from None

        def all_parts(pointer: str, text: str | None, kind: str) -> Reader | None:
            match = _PART_PATH.match(text or "")
            if match is None or (kind in ("text", "thinking")) != (match.group(2) == "text"):
                return path(pointer, text)
            parts = path(pointer, match.group(1))
            assert parts is not None
            return parts_reader(parts, kind if kind != "call" else match.group(2))

        def need(pointer: str, text: str) -> Reader:
            found = path(pointer, text)
            if found is None:  # "" (or null): a path this mapping cannot do without
                raise ManifestError(self.source, pointer, "must be a path, not empty")
            return found

        reason_key = next((k for k in ("finish_reason", "stop_reason") if k in paths), None)
        tools: ToolMapping | None = None
        spec = mapping.get("tool_calls")
        if spec is None and self.payload_format == "anthropic_style" and "tool_calls" not in given:
            spec = ANTHROPIC_TOOL_MAPPING
        if _is_mapping(spec) and spec.get("path"):
            fields = section(spec, "fields")
            where = "/features/response_mapping/tool_calls"
            try:
                condition = compile_predicate(spec["filter"]) if spec.get("filter") else None
            except ExpressionError as exc:
                raise ManifestError(self.source, f"{where}/filter", exc.reason) from None
            tools = ToolMapping(
                path=need(f"{where}/path", spec["path"]),
                filter=condition,
                id=path(f"{where}/fields/id", fields.get("id", "id")),
                name=need(f"{where}/fields/name", fields.get("name", "function.name")),
                args=need(f"{where}/fields/args", fields.get("args", "function.arguments")),
            )
        elif paths.get("tool_calls") or paths.get("function_call"):
            key = "tool_calls" if paths.get("tool_calls") else "function_call"
            use = section(self.data, "tooling", "tool_use")
            where = "/tooling/tool_use"
            found = all_parts(f"/response_paths/{key}", paths[key], "call")
            assert found is not None
            tools = ToolMapping(
                path=found,
                filter=None,
                id=path(f"{where}/id_path", use.get("id_path", "id")),
                name=need(f"{where}/name_path", use.get("name_path", "function.name")),
                args=need(f"{where}/input_path", use.get("input_path", "function.arguments")),
            )
        known = {
            "content",
            "tool_calls",
            "function_call",
            "usage",
            "finish_reason",
            "stop_reason",
            "reasoning",
        }
        content_path = paths.get("content")
        thinking = path("/response_paths/reasoning", paths.get("reasoning"))
        if thinking is None and _PART_PATH.match(content_path or ""):
            thinking = all_parts("/response_paths/content", content_path, "thinking")
        return ResponseShape(
            content=all_parts("/response_paths/content", content_path, "text"),
            finish_reason=path(f"/response_paths/{reason_key}", paths.get(reason_key or "")),
            usage=path("/response_paths/usage", paths.get("usage")),
            tool_calls=tools,
            thinking=thinking,
            error_message=need(
                "/features/response_mapping/error/message_path",
                errors.get("message_path", "error.message"),
            ),
            error_code=need(
                "/features/response_mapping/error/code_path", errors.get("code_path", "error.code")
            ),
            error_type=need(
                "/features/response_mapping/error/type_path", errors.get("type_path", "error.type")
            ),
            error_status=need(
                "/features/response_mapping/error/status_path",
                errors.get("status_path", "error.status"),
            ),
            extra={
                k: need(f"/response_paths/{k}", v)
                for k, v in sorted(paths.items())
                if k not in known and isinstance(v, str)
            },
        )


def fill_template(template: str, values: Mapping[str, str], source: str, pointer: str) -> str:
    """``template`` with ``${VAR}`` and ``{var}`` filled from ``values`` then the environment."""

    def value(match: re.Match[str]) -> str:
        name = match.group(1) or match.group(2)
        found = values.get(name)
        if found is None:
            found = os.environ.get(name)
        if found is None:
            raise ManifestError(
                source,
                pointer,
                f"needs the variable {name!r}: pass variables={{{name!r}: ...}} or set ${name}",
            )
        return found

    return _TEMPLATE_VAR.sub(value, template)


def _error_id(value: Any) -> str:
    name = str(value)
    return _ERROR_ALIASES.get(name, name)


def _profile_mappings(normalized: Mapping[str, Any]) -> frozenset[str]:
    """The standard parameter names the chat API of this manifest's style maps (its profile's
    ``parameter_mappings``; a v1.1-shaped manifest's own)."""
    fmt = str(normalized.get("payload_format") or "")
    profile = _profile(fmt) if fmt else None
    source = profile if profile is not None else normalized
    return frozenset(str(k) for k in section(source, "parameter_mappings"))


def _extensions(raw: Mapping[str, Any]) -> dict[str, Any]:
    """A v2 manifest's top-level fields its schema does not name."""
    version = str(raw.get("protocol_version", ""))
    if not version.lstrip("v").startswith("2"):
        return {}
    from agentproto.llm.schema import named  # only v2 manifests pay for the schema

    known = section(named("v2/provider.json"), "properties")
    return {str(k): v for k, v in raw.items() if k not in known}


def _escape(token: str) -> str:
    """A JSON Pointer token (RFC 6901)."""
    return token.replace("~", "~0").replace("/", "~1")


def _is_mapping(value: object) -> TypeGuard[Mapping[str, Any]]:
    """A manifest value that is an object (an endpoint may also be a URL string, a section
    may be absent)."""
    return isinstance(value, Mapping)


@cache
def _profile(payload_format: str) -> Mapping[str, Any] | None:
    """The bundled manifest that stands for an API style (see ``versions.PROFILE_PROVIDERS``)."""
    provider = PROFILE_PROVIDERS.get(payload_format)
    if provider is None:
        return None
    value: dict[str, Any] = json.loads(manifest_json(provider))
    return value


@cache
def _bundled(provider: str) -> Manifest:
    refused = REFUSED.get(provider)
    if refused is not None:  # vendored, but not a chat API this client can call
        pointer, reason = refused
        raise ManifestError(f"agentproto.llm bundled manifest {provider!r}", pointer, reason)
    text = manifest_json(provider)
    return Manifest(json.loads(text), f"agentproto.llm bundled manifest {provider!r}")
