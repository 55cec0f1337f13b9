"""Structured output: ``response_format`` on ``chat()`` / ``stream()``, and typed parsing.

A request asks for JSON in one of three ways (the OpenAI SDK's forms):

- ``{"type": "json_object"}``: JSON mode, any JSON object;
- ``{"type": "json_schema", "json_schema": {"name": ..., "schema": {...}, "strict": bool}}``
  (or :func:`json_schema` to build it): an answer that follows the schema;
- a pydantic model class: its JSON Schema, made *strict* the way OpenAI's structured outputs
  want it (every object closed with ``additionalProperties: false``, every property listed in
  ``required``, ``default: null`` dropped); :meth:`AsyncLLMClient.parse` then returns the answer
  validated as that model.

:func:`apply_response_format` puts it where the provider's format wants it: ``response_format``
for OpenAI-style bodies, ``{"type": "json_object", "json_schema": ...}`` for Cohere v2,
``generationConfig.responseMimeType`` / ``responseSchema`` for Gemini (a model's schema as
pydantic makes it, ``$ref`` inlined: Gemini's schema subset has neither). It first checks that the
manifest declares structured output (a ``parameter_mappings.response_format`` target, a v2
``parameters.response_format``, ``capabilities.feature_flags.structured_output`` or
``structured_output`` among the capabilities); a manifest that does not, or a format with no
native form (Anthropic, Baidu, Replicate without a mapping), raises
:class:`~agentproto.llm.problems.UnsupportedError`: a requested format is never dropped.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, Literal, TypeAlias, TypeGuard, TypeVar

from agentproto._runtime.errors import AgentprotoError
from agentproto._runtime.limits import loads
from agentproto.llm.payloads import set_dotted
from agentproto.llm.problems import UnsupportedError

if TYPE_CHECKING:  # pydantic is imported by the caller's models, not by importing the client
    import pydantic
    from agentproto.llm.manifest import Manifest
    from agentproto.llm.response import ChatResponse

__all__ = [
    "ParsedChatResponse",
    "ResponseFormat",
    "StructuredOutputError",
    "apply_response_format",
    "declares_structured_output",
    "json_schema",
    "parse_response",
    "strict_schema",
]

M = TypeVar("M", bound="pydantic.BaseModel")

ResponseFormat: TypeAlias = "Mapping[str, Any] | type[pydantic.BaseModel]"
"""``{"type": "json_object"}``, ``{"type": "json_schema", "json_schema": {...}}`` or a pydantic
model class."""

_OPENAI_LIKE = ("openai_style", "ai21_style")
_GEMINI_TARGETS = ("generationConfig.responseMimeType", "generationConfig.responseSchema")


class StructuredOutputError(AgentprotoError, ValueError):
    """The answer is not the structured output asked for: not JSON, not valid against the
    model, or cut short (``finish_reason`` ``max_tokens``). ``content`` is the text received."""

    def __init__(self, message: str, *, content: str) -> None:
        super().__init__(message)
        self.content = content


@dataclass(frozen=True)
class _Format:
    kind: Literal["text", "json_object", "json_schema"]
    name: str = "response"
    schema: Mapping[str, Any] | None = None
    strict: bool | None = None
    plain: Mapping[str, Any] | None = None  # a model's schema as pydantic makes it (Gemini)


@dataclass(frozen=True)
class ParsedChatResponse(Generic[M]):
    """What :meth:`AsyncLLMClient.parse` returns: ``parsed`` is the first candidate's answer
    validated as the model; ``response`` is the whole :class:`ChatResponse`."""

    parsed: M
    response: ChatResponse

    @property
    def content(self) -> str:
        return self.response.content


def json_schema(
    schema: Mapping[str, Any], *, name: str = "response", strict: bool = True
) -> dict[str, Any]:
    """The OpenAI form of a JSON Schema response format, for ``response_format=``."""
    return {
        "type": "json_schema",
        "json_schema": {"name": name, "schema": dict(schema), "strict": strict},
    }


def strict_schema(model: type[pydantic.BaseModel]) -> dict[str, Any]:
    """The model's JSON Schema in the strict form OpenAI's structured outputs accept."""
    schema = model.model_json_schema()
    _make_strict(schema)
    return schema


def _make_strict(node: Any) -> None:
    if not _is_dict(node):
        if _is_list(node):
            for item in node:
                _make_strict(item)
        return
    if node.get("type") == "object" and "additionalProperties" not in node:
        node["additionalProperties"] = False
    properties = node.get("properties")
    if _is_dict(properties):
        node["required"] = list(properties)
    if "default" in node and node["default"] is None:
        del node["default"]
    all_of = node.get("allOf")
    if _is_list(all_of) and len(all_of) == 1 and _is_dict(all_of[0]):
        node.pop("allOf")
        node.update({**all_of[0], **node})
    for key in ("properties", "$defs", "definitions"):
        children = node.get(key)
        if _is_dict(children):
            for child in children.values():
                _make_strict(child)
    for key in ("items", "anyOf", "allOf", "oneOf", "prefixItems"):
        if key in node:
            _make_strict(node[key])


def _is_dict(value: object) -> TypeGuard[dict[str, Any]]:
    return isinstance(value, dict)


def _is_mapping(value: object) -> TypeGuard[Mapping[str, Any]]:
    return isinstance(value, Mapping)


def _is_list(value: object) -> TypeGuard[list[Any]]:
    return isinstance(value, list)


def _is_model_class(value: object) -> TypeGuard[type[pydantic.BaseModel]]:
    # A pydantic model class exists only once pydantic is imported: no need to import it here.
    module = sys.modules.get("pydantic")
    return module is not None and isinstance(value, type) and issubclass(value, module.BaseModel)


def normalize(response_format: ResponseFormat) -> _Format:
    """The one internal form of every accepted ``response_format`` (bad ones: ValueError)."""
    if _is_model_class(response_format):
        return _Format(
            "json_schema",
            response_format.__name__,
            strict_schema(response_format),
            True,
            response_format.model_json_schema(),
        )
    if not _is_mapping(response_format):
        raise ValueError(
            "response_format must be a mapping ({'type': 'json_object'} or "
            f"{{'type': 'json_schema', ...}}) or a pydantic model class, not {response_format!r}"
        )
    kind = response_format.get("type")
    if kind in ("text", "json_object"):
        return _Format(kind)
    if kind == "json_schema":
        spec = response_format.get("json_schema")
        if not _is_mapping(spec) or not _is_mapping(spec.get("schema")):
            raise ValueError(
                "response_format {'type': 'json_schema'} needs 'json_schema': "
                "{'name': ..., 'schema': {...}}"
            )
        strict = spec.get("strict")
        return _Format(
            "json_schema",
            str(spec.get("name") or "response"),
            dict(spec["schema"]),
            strict if isinstance(strict, bool) else None,
        )
    raise ValueError(
        f"response_format type {kind!r} is not one of 'text', 'json_object', 'json_schema'"
    )


def declares_structured_output(manifest: Manifest) -> bool | None:
    """True when the manifest declares structured output, False when it denies it, None when
    it says nothing. Read in the v1.1, 1.5 and v2 forms, from the document as written (a
    manifest's ``raw``, when it keeps one) and as the client runs it (``data``)."""
    if "response_format" in manifest.mappings:
        return True
    raw: object = getattr(manifest, "raw", None)
    documents = [raw] if _is_mapping(raw) and raw is not manifest.data else []
    for data in [*documents, manifest.data]:
        found = _declared_in(data)
        if found is not None:
            return found
    return None


def _declared_in(data: Mapping[str, Any]) -> bool | None:
    if "response_format" in (data.get("parameter_mappings") or {}):
        return True
    parameters = data.get("parameters")
    if _is_mapping(parameters) and "response_format" in parameters:
        return True
    capabilities = data.get("capabilities")
    if _is_mapping(capabilities):
        flags = capabilities.get("feature_flags")
        if _is_mapping(flags) and isinstance(flags.get("structured_output"), bool):
            return bool(flags["structured_output"])
        if isinstance(capabilities.get("structured_output"), bool):
            return bool(capabilities["structured_output"])
        for key in ("required", "optional"):
            listed = capabilities.get(key)
            if _is_list(listed) and "structured_output" in listed:
                return True
    elif _is_list(capabilities) and "structured_output" in capabilities:
        return True
    return None


def apply_response_format(
    manifest: Manifest,
    body: dict[str, Any],
    response_format: ResponseFormat,
    *,
    assume_supported: bool = False,
) -> None:
    """Put ``response_format`` into ``body`` in the provider's form, or raise
    :class:`UnsupportedError` (``assume_supported``: the caller vouches for a manifest that
    says nothing; a manifest that says no still refuses)."""
    fmt = normalize(response_format)
    if fmt.kind == "text":
        return  # plain text is what every provider answers without being asked
    declared = declares_structured_output(manifest)
    if declared is False or (declared is None and not assume_supported):
        where = (
            "parameter_mappings.response_format, parameters.response_format, "
            "capabilities.feature_flags.structured_output"
        )
        if declared is False:
            reason = f"the manifest says the provider has no structured output ({where})"
        else:
            reason = (
                f"the manifest does not declare structured output ({where}); pass "
                "structured_output=True to the client if you know the provider supports it"
            )
        raise UnsupportedError(f"{manifest.id}: {reason}; response_format is not sent")
    style = manifest.payload_format
    mapped = manifest.mappings.get("response_format")
    if style == "gemini_style":
        set_dotted(body, _GEMINI_TARGETS[0], "application/json")
        schema = fmt.plain or fmt.schema  # Gemini's schema subset has no additionalProperties
        if schema is not None:
            set_dotted(body, _GEMINI_TARGETS[1], _inline_refs(schema, manifest.id))
        return
    if style == "cohere_v2":
        value: dict[str, Any] = {"type": "json_object"}
        if fmt.schema is not None:
            value["json_schema"] = dict(fmt.schema)
        set_dotted(body, mapped or "response_format", value)
        return
    if style in _OPENAI_LIKE or mapped:
        set_dotted(body, mapped or "response_format", _openai_form(fmt))
        return
    raise UnsupportedError(
        f"{manifest.id}: payload_format {style} has no native structured output and the "
        "manifest maps no response_format; response_format is not sent"
    )


def _openai_form(fmt: _Format) -> dict[str, Any]:
    if fmt.schema is None:
        return {"type": "json_object"}
    spec: dict[str, Any] = {"name": fmt.name, "schema": dict(fmt.schema)}
    if fmt.strict is not None:
        spec["strict"] = fmt.strict
    return {"type": "json_schema", "json_schema": spec}


def _inline_refs(schema: Mapping[str, Any], provider: str) -> dict[str, Any]:
    """Gemini's ``responseSchema`` takes no ``$ref``: local ``#/$defs/...`` references are
    inlined (a recursive schema cannot be, and raises UnsupportedError)."""
    defs: Mapping[str, Any] = schema.get("$defs") or schema.get("definitions") or {}

    def walk(node: Any, seen: tuple[str, ...]) -> Any:
        if _is_list(node):
            return [walk(item, seen) for item in node]
        if not _is_mapping(node):
            return node
        ref = node.get("$ref")
        if isinstance(ref, str):
            name = ref.rsplit("/", 1)[-1]
            if not ref.startswith(("#/$defs/", "#/definitions/")) or name not in defs:
                raise UnsupportedError(f"{provider}: cannot inline the schema reference {ref!r}")
            if name in seen:
                raise UnsupportedError(
                    f"{provider}: the schema is recursive through {ref!r}; Gemini's "
                    "responseSchema cannot express that"
                )
            rest = {k: v for k, v in node.items() if k != "$ref"}
            return {**walk(defs[name], (*seen, name)), **walk(rest, seen)}
        return {str(k): walk(v, seen) for k, v in node.items() if k not in ("$defs", "definitions")}

    result: dict[str, Any] = walk(schema, ())
    return result


def parse_response(response: ChatResponse, model: type[M]) -> M:
    """The first candidate's text validated as ``model`` (works on a streamed answer's
    ``final_response()`` too). Raises :class:`StructuredOutputError` when the model refused
    (OpenAI's ``message.refusal``, or a ``refusal`` stop with no content), the answer was cut
    short, is not JSON or does not validate."""
    content = response.content
    refusal = _refusal(response.raw)
    if refusal is not None or (response.finish_reason == "refusal" and not content):
        raise StructuredOutputError(
            f"{response.provider}: the model refused: {refusal or response.raw_finish_reason}",
            content=content,
        )
    if response.finish_reason == "max_tokens":
        raise StructuredOutputError(
            f"{response.provider}: the answer was cut short at max_tokens; it is not complete "
            f"JSON ({len(content)} characters received)",
            content=content,
        )
    try:
        data = loads(content)
    except ValueError as exc:
        raise StructuredOutputError(
            f"{response.provider}: the answer is not JSON: {exc}", content=content
        ) from None
    import pydantic

    try:
        return model.model_validate(data)
    except pydantic.ValidationError as exc:
        raise StructuredOutputError(
            f"{response.provider}: the answer does not match {model.__name__}: "
            f"{exc.error_count()} error(s): {_summary(exc)}",
            content=content,
        ) from None


def _refusal(body: Any) -> str | None:
    """An OpenAI-style answer's ``choices[0].message.refusal`` (structured outputs put a
    refusal there instead of the content)."""
    choices = body.get("choices") if _is_mapping(body) else None
    first: object = choices[0] if _is_list(choices) and choices else None
    message = first.get("message") if _is_mapping(first) else None
    refusal = message.get("refusal") if _is_mapping(message) else None
    return refusal if isinstance(refusal, str) and refusal else None


def _summary(exc: pydantic.ValidationError) -> str:
    return "; ".join(
        f"{'.'.join(str(p) for p in error['loc']) or '<root>'}: {error['msg']}"
        for error in exc.errors()[:5]
    )
