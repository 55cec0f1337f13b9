"""Every AI-Protocol manifest version, read into the one shape the client runs on.

Three shapes are in use upstream:

- **v1.1** (``protocol_version`` 1.1 or 1.5, the shape of the bundled manifests):
  ``auth`` at the top, ``payload_format``, ``parameter_mappings``, ``response_paths``,
  a full ``streaming.event_map``, ``capabilities`` as booleans. Read as is.
- **1.5-shaped** (``protocol_version`` 1.x using any of the v2 constructs, as upstream's
  compliance fixtures do): ``endpoint.auth`` / ``endpoint.chat``, typed ``parameters`` with
  defaults, ``api_families`` as an object, ``capabilities`` as a list or required/optional.
- **v2** (``protocol_version`` 2.x): the 1.5 constructs plus ``by_error_code``,
  ``retry_after_extraction``, ``api_style`` provider contracts and ``decoder.strategy``.

:func:`normalize` turns the last two into the first. What a v2 manifest leaves to its API
style (request shape, where the answer is, the stream program) comes from the *profile* of
that style: the bundled v1 manifest of the same API (OpenAI chat, Anthropic messages, Gemini
generateContent, Cohere v2), so a v2 OpenAI-compatible manifest is driven exactly like the
bundled OpenAI one, with its own endpoint, auth, parameters, errors, retries and limits.

This module imports nothing from the package: the build loads it on its own to check every
vendored manifest with the same code the runtime uses.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Mapping
from typing import Any, Final, TypeGuard, cast

from agentproto._runtime.errors import AgentprotoError

__all__ = [
    "PROFILE_PROVIDERS",
    "V1_SCHEMA_URL",
    "VersionError",
    "auth_section",
    "for_validation",
    "is_v15_shaped",
    "normalize",
    "parameter_defaults",
    "payload_format_of",
    "protocol_major",
    "schema_kind",
    "shadowed_env",
    "style_format",
    "tolerated",
    "unbuildable_format",
]

SUPPORTED = "1.x and 2.x"

PROFILE_PROVIDERS: dict[str, str] = {
    "openai_style": "openai",
    "anthropic_style": "anthropic",
    "gemini_style": "gemini",
    "cohere_v2": "cohere",
}
"""The bundled manifest whose request/response/stream program stands for each API style."""

# api_style / decoder.strategy / endpoints.*.adapter / api_families request_format -> format
_STYLES: dict[str, str] = {
    "openai": "openai_style",
    "openai_chat": "openai_style",
    "openai_compatible": "openai_style",
    "chat_completions": "openai_style",
    "anthropic": "anthropic_style",
    "anthropic_messages": "anthropic_style",
    "anthropic_event_stream": "anthropic_style",
    "gemini": "gemini_style",
    "gemini_generate": "gemini_style",
    "google": "gemini_style",
    "cohere": "cohere_v2",
    "cohere_v2": "cohere_v2",
    "cohere_chat": "cohere_v2",
}
_AUTH_TYPES: dict[str, str] = {
    "bearer": "bearer",
    "api_key": "api_key",
    "custom_header": "api_key",
    "header": "api_key",
    "query_param": "query_param",
}
_KNOWN_FLAGS = ("streaming", "tools", "vision")

V1_SCHEMA_URL = "https://raw.githubusercontent.com/ailib-official/ai-protocol/main/schemas/v1.json"
"""The canonical ``$schema`` of a v1 manifest (the one upstream's v1 schema enumerates)."""
_V1_SCHEMA_ALIASES = re.compile(
    r"^(?:(?:\.\./)+schemas/v1\.json"
    r"|https://raw\.githubusercontent\.com/(?:hiddenpath|ailib-official)/ai-protocol/"
    r"(?:main|master|v\d+\.\d+)/schemas/v1\.json)$"
)
"""Other names of that schema upstream's own manifests use: the relative path from
``v1/providers/`` (``../../schemas/v1.json``, which upstream's schema pattern misses: it allows
``../schemas/v1.json`` only) and the repository's former owner (``hiddenpath``)."""


class VersionError(AgentprotoError, ValueError):
    """A manifest of a version or shape this client does not read (``pointer``, ``reason``)."""

    def __init__(self, pointer: str, reason: str) -> None:
        super().__init__(f"{pointer or '/'}: {reason}")
        self.pointer = pointer
        self.reason = reason


def _is_map(value: Any) -> TypeGuard[Mapping[str, Any]]:
    return isinstance(value, Mapping)


def _is_list(value: Any) -> TypeGuard[list[Any]]:
    return isinstance(value, list)


def _map(value: Any) -> Mapping[str, Any]:
    return cast("Mapping[str, Any]", value) if isinstance(value, Mapping) else {}


def protocol_major(data: Mapping[str, Any]) -> int:
    """1 or 2; raises :class:`VersionError` for any other ``protocol_version``. A missing or
    non-string version reads as 1 (the schema then says what is wrong with it)."""
    version = data.get("protocol_version")
    if not isinstance(version, str | int | float) or isinstance(version, bool):
        return 1
    text = str(version)
    major = text.split(".", 1)[0].strip().lstrip("v")
    if major == "1":
        return 1
    if major == "2":
        return 2
    raise VersionError(
        "/protocol_version",
        f"protocol_version {text} is not supported; this client reads {SUPPORTED}",
    )


def is_v15_shaped(data: Mapping[str, Any]) -> bool:
    """Whether a 1.x manifest uses the constructs 1.5 took from v2."""
    endpoint = _map(data.get("endpoint"))
    capabilities = data.get("capabilities")
    return (
        "auth" in endpoint
        or "chat" in endpoint
        or "parameters" in data
        or isinstance(data.get("api_families"), Mapping)
        or isinstance(capabilities, list)
        or (isinstance(capabilities, Mapping) and "required" in capabilities)
    )


def schema_kind(data: Mapping[str, Any]) -> str:
    """Which schema judges ``data``: ``"v1"``, ``"v1.5"`` or ``"v2"``."""
    if protocol_major(data) == 2:
        return "v2"
    return "v1.5" if is_v15_shaped(data) else "v1"


def for_validation(data: Mapping[str, Any]) -> Mapping[str, Any]:
    """``data`` as its schema should see it: a v1 ``$schema`` naming the v1 schema by another
    of its names (:data:`_V1_SCHEMA_ALIASES`) reads as the canonical URL. ``$schema`` is a
    reference, not content; everything else is judged as given."""
    ref = data.get("$schema")
    if isinstance(ref, str) and ref != V1_SCHEMA_URL and _V1_SCHEMA_ALIASES.match(ref):
        return {**data, "$schema": V1_SCHEMA_URL}
    return data


def tolerated(kind: str, validator: str, path: Any) -> bool:
    """Whether a schema error is one upstream requires runtimes to accept: in a v2 manifest,
    top-level fields the schema does not know (forward compatibility, compliance case
    load-023). They stay in the manifest as given (``Manifest.raw``, ``Manifest.extensions``);
    unknown fields inside a section are still refused."""
    return kind == "v2" and validator == "additionalProperties" and len(list(path)) == 0


def style_format(api_style: str) -> str | None:
    """The payload format of an API style name (``openai_chat``, ``anthropic_messages``,
    ``gemini_generate``...), ``None`` for one this client has no shape for."""
    return _STYLES.get(api_style.lower())


def payload_format_of(data: Mapping[str, Any], api_style: str | None = None) -> str:
    """The request shape: ``payload_format`` when given, else the API style the manifest
    names (a contract's ``api_style``, ``decoder.strategy``, the chat endpoint's
    ``adapter``, ``api_families.chat.request_format``), else its decoder, else OpenAI's."""
    given = data.get("payload_format") or _map(data.get("auth")).get("payload_format")
    if isinstance(given, str) and given:
        return given
    streaming = _map(data.get("streaming"))
    decoder = _map(streaming.get("decoder"))
    families = data.get("api_families")
    chat_family = _map(_map(families).get("chat"))
    hints: tuple[Any, ...] = (
        api_style,
        _map(data.get("provider_contract")).get("api_style"),
        decoder.get("strategy"),
        _map(_map(data.get("endpoints")).get("chat")).get("adapter"),
        chat_family.get("request_format"),
    )
    for hint in hints:
        if isinstance(hint, str) and hint.lower() in _STYLES:
            return _STYLES[hint.lower()]
    fmt = str(decoder.get("format") or "")
    if fmt.startswith("anthropic"):
        return "anthropic_style"
    if fmt.startswith("gemini"):
        return "gemini_style"
    legacy = data.get("response_format")
    if isinstance(legacy, str) and legacy.endswith(("_style", "_v2")):
        return legacy
    return "openai_style"


def unbuildable_format(
    data: Mapping[str, Any], fmt: str, formats: tuple[str, ...]
) -> tuple[str, str] | None:
    """(pointer, reason) when ``fmt`` (the manifest's request format) is not one of the chat
    ``formats`` the client builds: the manifest describes another kind of API (Hugging Face
    Inference, Jina's embeddings and rerank, Stability's images), named in the reason with the
    API families it declares. ``None`` for a chat format."""
    if fmt in formats:
        return None
    if isinstance(data.get("payload_format"), str):
        pointer = "/payload_format"
    elif isinstance(_map(data.get("auth")).get("payload_format"), str):
        pointer = "/auth/payload_format"
    else:
        pointer = "/response_format"
    families = data.get("api_families")
    names = [str(f) for f in cast("list[object]", families)] if isinstance(families, list) else []
    kind = f" ({data.get('name', data.get('id'))}: {', '.join(names)})" if names else ""
    return (
        pointer,
        f"{fmt!r} is the request format of a non-chat API{kind}; this client builds chat "
        f"requests only, in {', '.join(formats)}",
    )


def auth_section(data: Mapping[str, Any]) -> dict[str, Any]:
    """The auth the client uses, in the v1.1 shape (``type`` bearer / api_key / query_param,
    ``token_env`` / ``key_env``, ``header_name``, ``param_name``, ``extra_headers``).
    ``endpoint.auth`` wins over a top-level ``auth`` (it is the single source when both are
    there, as the 1.5 credential rules say)."""
    endpoint_auth = _map(_map(data.get("endpoint")).get("auth"))
    source = endpoint_auth or _map(data.get("auth"))
    if not source:
        return {}
    kind = str(source.get("type", "bearer"))
    out: dict[str, Any] = {"type": _AUTH_TYPES.get(kind, kind)}
    for key in ("token_env", "key_env", "param_name", "extra_headers"):
        if source.get(key):
            out[key] = source[key]
    header = source.get("header_name") or source.get("header")
    if header and out["type"] == "api_key":
        out["header_name"] = header
    if source.get("prefix") and out["type"] == "api_key":
        out["prefix"] = source["prefix"]
    return out


def shadowed_env(data: Mapping[str, Any]) -> tuple[str, ...]:
    """Environment variables a top-level ``auth`` names that ``endpoint.auth`` overrides
    (never read; named in diagnostics so a user who set them knows why they are ignored)."""
    endpoint_auth = _map(_map(data.get("endpoint")).get("auth"))
    top = _map(data.get("auth"))
    if not endpoint_auth or not top:
        return ()
    used = {endpoint_auth.get("token_env"), endpoint_auth.get("key_env")}
    return tuple(str(top[k]) for k in ("token_env", "key_env") if top.get(k) and top[k] not in used)


def parameter_defaults(data: Mapping[str, Any]) -> dict[str, Any]:
    """``{standard name: default}`` of the typed ``parameters`` that declare a default
    (a parameter's ``alias`` is its standard name)."""
    out: dict[str, Any] = {}
    for name, spec in sorted(_map(data.get("parameters")).items()):
        if _is_map(spec) and "default" in spec and spec["default"] is not None:
            out[str(spec.get("alias") or name)] = spec["default"]
    return out


def _capabilities(value: Any) -> dict[str, bool]:
    if _is_list(value):
        names: list[Any] = list(value)
    elif _is_map(value) and "required" in value:
        names = [*(value.get("required") or []), *(value.get("optional") or [])]
    elif _is_map(value):
        return {str(k): v for k, v in value.items() if isinstance(v, bool)}
    else:
        return {}
    out = {flag: False for flag in _KNOWN_FLAGS}
    for name in names:
        out[str(name)] = True
    if out.get("text"):
        out.setdefault("chat", True)
    return out


def _endpoints(data: Mapping[str, Any], fmt: str) -> dict[str, Any]:
    endpoints: dict[str, Any] = {
        str(k): (dict(v) if _is_map(v) else v) for k, v in _map(data.get("endpoints")).items()
    }
    endpoint = _map(data.get("endpoint"))
    for name in ("chat", "embeddings", "rerank"):
        path = endpoint.get(name)
        if isinstance(path, str) and name not in endpoints:
            endpoints[name] = {"path": path, "method": "POST"}
    found = endpoints.get("stream_chat")
    if _is_map(found) and "chat_stream" not in endpoints:
        endpoints["chat_stream"] = dict(found)
    return endpoints


_OWN_PARAMETERS: Final = ("reasoning_effort",)
"""Chat parameters an API style's profile maps that only the style's own provider is known to
take: another provider gets them only when its manifest declares them."""


def _declares(data: Mapping[str, Any], standard: str) -> bool:
    declared = {
        str(spec.get("alias") or name) if _is_map(spec) else str(name)
        for name, spec in _map(data.get("parameters")).items()
    }
    return standard in declared or standard in _map(data.get("parameter_mappings"))


def normalize(
    data: Mapping[str, Any],
    profile: Callable[[str], Mapping[str, Any] | None] = lambda _fmt: None,
    api_style: str | None = None,
) -> dict[str, Any]:
    """``data`` in the v1.1 shape the client runs on (a new dict; ``data`` is not changed).

    A v1.1-shaped manifest comes back as it is (rate-limit headers declared ``null`` are
    dropped). For 1.5-shaped and v2 manifests, ``profile(payload_format)`` gives the bundled
    manifest of the API style, whose ``parameter_mappings``, ``response_paths``, ``tooling``,
    ``features.response_mapping``, ``streaming`` and ``termination`` fill what the manifest
    does not state in v1.1 terms. Raises :class:`VersionError` for an unsupported version.
    """
    major = protocol_major(data)
    out: dict[str, Any] = copy.deepcopy(dict(data))
    headers = _map(out.get("rate_limit_headers"))
    if headers:
        out["rate_limit_headers"] = {k: v for k, v in headers.items() if isinstance(v, str)}
    if major == 1 and not is_v15_shaped(data):
        return out

    fmt = payload_format_of(data, api_style)
    base = profile(fmt) or {}
    out["payload_format"] = fmt
    endpoint = _map(data.get("endpoint"))
    out["endpoint"] = {
        k: endpoint[k] for k in ("base_url", "timeout_ms", "protocol") if k in endpoint
    }
    auth = auth_section(data)
    if auth:
        out["auth"] = auth
    out["endpoints"] = _endpoints(data, fmt)
    out["capabilities"] = _capabilities(data.get("capabilities"))
    mappings: dict[str, str] = {
        str(k): str(v) for k, v in _map(base.get("parameter_mappings")).items()
    }
    for name, spec in _map(data.get("parameters")).items():
        standard = str(spec.get("alias") or name) if _is_map(spec) else str(name)
        if standard not in mappings:
            mappings[standard] = str(name)
    mappings.update({str(k): str(v) for k, v in _map(data.get("parameter_mappings")).items()})
    if base.get("id") != data.get("id"):
        # the API style's own provider (OpenAI for openai_style) takes reasoning_effort; a
        # provider merely compatible with the style is sent it only when it declares it
        for name in _OWN_PARAMETERS:
            if not _declares(data, name):
                mappings.pop(name, None)
    out["parameter_mappings"] = mappings
    for key in ("response_paths", "tooling"):
        if key not in data and key in base:
            out[key] = copy.deepcopy(base[key])
    features = dict(_map(data.get("features")))
    base_features = _map(base.get("features"))
    for key in ("response_mapping", "multi_candidate"):
        if key not in features and key in base_features:
            features[key] = copy.deepcopy(base_features[key])
    out["features"] = {k: v for k, v in features.items() if isinstance(v, Mapping)}
    if base.get("streaming"):
        # v2's event maps are abbreviations of the strategy they name (their `extract`
        # vocabulary is the strategy's, not the event fields'): the profile's program runs.
        streaming = copy.deepcopy(dict(base["streaming"]))
        stream_path = str(_map(out["endpoints"].get("chat_stream")).get("path", ""))
        if fmt == "gemini_style" and stream_path and "alt=sse" not in stream_path:
            # streamGenerateContent without ?alt=sse answers one streamed JSON array
            streaming["decoder"] = {**_map(streaming.get("decoder")), "format": "gemini_json"}
        out["streaming"] = streaming
    if "termination" in data or "termination" in base:
        termination = dict(_map(base.get("termination")))
        termination.update(_map(data.get("termination")))
        out["termination"] = termination
    classification = dict(_map(data.get("error_classification")))
    out["error_classification"] = classification
    retry = _map(data.get("retry_policy"))
    if retry:
        out["retry_policy"] = dict(retry)
    return out
