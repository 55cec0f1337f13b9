"""What a chat call tells the outside: request/response hooks and GenAI telemetry.

**Hooks** (:class:`Hooks`, ``LLMClient(..., hooks=Hooks(on_request=..., on_response=...,
on_error=...))``) are plain callables called with a :class:`RequestInfo` before a request is
sent, a :class:`ResponseInfo` once its answer is read (for a stream: once it is folded), and an
:class:`ErrorInfo` when a call fails. The URL they see is the one errors show (credential query
parameters masked); no header is passed, so no key reaches a hook. A hook's own exception
propagates (a broken hook is not hidden).

**Telemetry**: every chat call is a span named ``chat <model>`` (kind CLIENT) with the GenAI
semantic conventions' attributes: ``gen_ai.operation.name`` (``chat``),
``gen_ai.provider.name`` (the conventions' value: ``openai``, ``anthropic``, ``gcp.gemini``,
``mistral_ai``...; a manifest they do not name, its id) and its older name ``gen_ai.system``
(the manifest id itself is ``agentproto.llm.manifest``), ``gen_ai.request.model`` /
``max_tokens`` / ``temperature`` / ``top_p`` / ``top_k`` (as the body sent them: at its top
level, or in Gemini's ``generationConfig``), ``gen_ai.response.id`` (the completion's id from
the answer's body: ``id``, Gemini's ``responseId``) / ``model`` / ``finish_reasons``,
``gen_ai.usage.input_tokens`` / ``output_tokens`` (and ``cache_read.input_tokens`` /
``cache_creation.input_tokens``), ``server.address`` / ``server.port``, ``error.type`` on
failure, plus ``gen_ai.usage.cost`` and ``gen_ai.usage.cost.currency`` (not part of the
conventions: the cost by the manifest's prices). Metrics: ``gen_ai.client.token.usage``
(``{token}``, by ``gen_ai.token.type``), ``gen_ai.client.operation.duration`` (``s``) and
``gen_ai.client.cost`` (the cost, by currency). Without ``opentelemetry-api`` all of this is off
at no cost (:mod:`agentproto._runtime.telemetry`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, cast
from urllib.parse import urlsplit

from agentproto._runtime.telemetry import SpanHandle, Telemetry, shared

if TYPE_CHECKING:
    from agentproto.llm.response import ChatResponse

__all__ = ["ErrorInfo", "Hooks", "Observer", "RequestInfo", "ResponseInfo"]

INSTRUMENTATION = "agentproto.llm"


@dataclass(frozen=True)
class RequestInfo:
    """A request about to be sent."""

    provider: str
    model: str
    method: str
    url: str
    body: Mapping[str, Any]
    stream: bool


@dataclass(frozen=True)
class ResponseInfo:
    """An answer, read (a stream's: folded at its end)."""

    provider: str
    model: str
    response: ChatResponse
    elapsed: float
    stream: bool


@dataclass(frozen=True)
class ErrorInfo:
    """A call that failed (before an answer, or while a stream was read)."""

    provider: str
    model: str
    error: BaseException
    elapsed: float
    stream: bool


@dataclass(frozen=True)
class Hooks:
    """Callables the client calls around each chat request (any may be ``None``)."""

    on_request: Callable[[RequestInfo], None] | None = None
    on_response: Callable[[ResponseInfo], None] | None = None
    on_error: Callable[[ErrorInfo], None] | None = None


class Observer:
    """A client's hooks and telemetry, with the GenAI attribute names in one place."""

    def __init__(
        self,
        provider: str,
        hooks: Hooks | None,
        telemetry: Telemetry | bool,
    ) -> None:
        self.provider: str = provider
        self.hooks: Hooks | None = hooks
        self.telemetry: Telemetry
        if isinstance(telemetry, Telemetry):
            self.telemetry = telemetry
        else:
            self.telemetry = _default_telemetry() if telemetry else _OFF
        self.active: bool = self.telemetry.active or hooks is not None

    def begin(
        self, model: str, method: str, url: str, body: Mapping[str, Any], *, stream: bool
    ) -> SpanHandle:
        """Call ``on_request`` and open the call's span (a no-op one when telemetry is off)."""
        if self.hooks is not None and self.hooks.on_request is not None:
            self.hooks.on_request(RequestInfo(self.provider, model, method, url, body, stream))
        telemetry = self.telemetry
        if not telemetry.active:
            return telemetry.start("")
        parts = urlsplit(url)
        try:
            port = parts.port
        except ValueError:
            port = None
        attributes: dict[str, Any] = {
            "gen_ai.operation.name": "chat",
            **self._provider_attributes(),
            "gen_ai.request.model": model,
            "server.address": parts.hostname,
            "server.port": port,
        }
        attributes.update(request_parameters(body))
        attributes["gen_ai.request.stream"] = stream
        return telemetry.start(f"chat {model}", attributes, kind="client")

    def _provider_attributes(self) -> dict[str, str]:
        """The provider as the GenAI conventions name it (``gcp.gemini`` for the ``gemini``
        manifest), under ``gen_ai.provider.name`` and its older name ``gen_ai.system``; the
        manifest id beside them."""
        name = provider_name(self.provider)
        return {
            "gen_ai.provider.name": name,
            "gen_ai.system": name,
            "agentproto.llm.manifest": self.provider,
        }

    def success(
        self, span: SpanHandle, model: str, response: ChatResponse, *, stream: bool
    ) -> None:
        """Report an answer: the span's attributes and end, the metrics, ``on_response``."""
        elapsed = span.elapsed
        if span.recording:
            usage = response.usage
            cost = response.cost
            reasons = [c.raw_finish_reason or c.finish_reason or "" for c in response.candidates]
            answered = _answered_model(response)
            span.set_many(
                {
                    "gen_ai.response.id": response_id(response),
                    "gen_ai.response.model": answered,
                    "gen_ai.response.finish_reasons": [r for r in reasons if r],
                    "gen_ai.usage.input_tokens": usage.input_tokens if usage else None,
                    "gen_ai.usage.output_tokens": usage.output_tokens if usage else None,
                    "gen_ai.usage.cache_read.input_tokens": usage.cache_read_tokens
                    if usage
                    else None,
                    "gen_ai.usage.cache_creation.input_tokens": usage.cache_write_tokens
                    if usage
                    else None,
                    "gen_ai.usage.cost": float(cost.total)
                    if cost is not None and cost.total is not None
                    else None,
                    "gen_ai.usage.cost.currency": cost.currency if cost is not None else None,
                }
            )
            self._metrics(model, answered, elapsed, response, None)
            span.end()
        if self.hooks is not None and self.hooks.on_response is not None:
            self.hooks.on_response(ResponseInfo(self.provider, model, response, elapsed, stream))

    def failure(self, span: SpanHandle, model: str, error: BaseException, *, stream: bool) -> None:
        """Report a failed call: the span marked failed and ended, ``on_error``."""
        elapsed = span.elapsed
        if span.recording:
            error_type = getattr(error, "error_class", None) or type(error).__qualname__
            span.error(error, str(error_type))
            self._metrics(model, None, elapsed, None, str(error_type))
            span.end()
        if self.hooks is not None and self.hooks.on_error is not None:
            self.hooks.on_error(ErrorInfo(self.provider, model, error, elapsed, stream))

    def _metrics(
        self,
        model: str,
        answered: str | None,
        elapsed: float,
        response: ChatResponse | None,
        error_type: str | None,
    ) -> None:
        telemetry = self.telemetry
        base: dict[str, Any] = {
            "gen_ai.operation.name": "chat",
            **self._provider_attributes(),
            "gen_ai.request.model": model,
            "gen_ai.response.model": answered,
            "error.type": error_type,
        }
        telemetry.histogram(
            "gen_ai.client.operation.duration", unit="s", description="GenAI operation duration"
        ).record(elapsed, base)
        if response is None or response.usage is None:
            return
        tokens = telemetry.histogram(
            "gen_ai.client.token.usage", unit="{token}", description="Tokens used per operation"
        )
        for kind, count in (
            ("input", response.usage.input_tokens),
            ("output", response.usage.output_tokens),
        ):
            if count is not None:
                tokens.record(count, {**base, "gen_ai.token.type": kind})
        cost = response.cost
        if cost is not None and cost.total is not None:
            telemetry.histogram(
                "gen_ai.client.cost",
                unit=cost.currency or "1",
                description="Cost per operation by the manifest's prices",
            ).record(float(cost.total), {**base, "gen_ai.usage.cost.currency": cost.currency})


# The GenAI conventions' ``gen_ai.provider.name`` values (OpenTelemetry semantic conventions,
# gen-ai registry) of the providers whose manifests ship; any other manifest is named by its id.
PROVIDER_NAMES: Final[Mapping[str, str]] = {
    "anthropic": "anthropic",
    "azure": "azure.ai.openai",
    "bedrock": "aws.bedrock",
    "cohere": "cohere",
    "deepseek": "deepseek",
    "gemini": "gcp.gemini",
    "google": "gcp.gemini",
    "groq": "groq",
    "mistral": "mistral_ai",
    "openai": "openai",
    "perplexity": "perplexity",
    "vertex": "gcp.vertex_ai",
    "vertexai": "gcp.vertex_ai",
    "watsonx": "ibm.watsonx.ai",
    "xai": "x_ai",
    "grok": "x_ai",
}


def provider_name(manifest_id: str) -> str:
    """``gen_ai.provider.name`` for a manifest id (its version suffix, ``@v2``, aside)."""
    base = manifest_id.split("@", 1)[0]
    return PROVIDER_NAMES.get(base, base)


# Where a request body holds the sampling parameters: at its top level (OpenAI, Anthropic and
# their kin), or in Gemini's ``generationConfig``; the conventions' name of each.
_REQUEST_PARAMETERS: Final = (
    ((), "max_tokens", "max_tokens"),
    ((), "max_completion_tokens", "max_tokens"),
    ((), "temperature", "temperature"),
    ((), "top_p", "top_p"),
    ((), "top_k", "top_k"),
    (("generationConfig",), "maxOutputTokens", "max_tokens"),
    (("generationConfig",), "temperature", "temperature"),
    (("generationConfig",), "topP", "top_p"),
    (("generationConfig",), "topK", "top_k"),
)


def request_parameters(body: Mapping[str, Any]) -> dict[str, float | int]:
    """``gen_ai.request.max_tokens`` / ``temperature`` / ``top_p`` / ``top_k`` as the request
    body sent them."""
    found: dict[str, float | int] = {}
    for path, key, name in _REQUEST_PARAMETERS:
        node: Any = body
        for part in path:
            node = cast("Mapping[str, Any]", node).get(part) if isinstance(node, Mapping) else None
        value = cast("Mapping[str, Any]", node).get(key) if isinstance(node, Mapping) else None
        if isinstance(value, int | float) and not isinstance(value, bool):
            found.setdefault(f"gen_ai.request.{name}", value)
    return found


def response_id(response: ChatResponse) -> str | None:
    """``gen_ai.response.id``: the completion's id as the answer's body gives it (``id``:
    OpenAI's ``chatcmpl-...``, Anthropic's ``msg_...``; Gemini's ``responseId``), not an HTTP
    request id."""
    raw = response.raw
    if isinstance(raw, dict):
        answer = cast("dict[str, Any]", raw)
        for key in ("id", "responseId"):
            value = answer.get(key)
            if isinstance(value, str) and value:
                return value
    return None


def _answered_model(response: ChatResponse) -> str | None:
    raw = response.raw
    if isinstance(raw, dict):
        answer = cast("dict[str, Any]", raw)
        found = answer.get("model") or answer.get("modelVersion")
        if isinstance(found, str):
            return found
    return None


_OFF = Telemetry(INSTRUMENTATION, enabled=False)


def _default_telemetry() -> Telemetry:
    """The package's telemetry for LLM calls, as ``configure_telemetry`` set it up (the
    global providers by default; made once, importing OpenTelemetry at most once)."""
    return shared(INSTRUMENTATION)
