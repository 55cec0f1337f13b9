"""One LLM client, sync and async, whose behaviour comes from a provider manifest.

::

    from agentproto.llm import LLMClient

    with LLMClient("openai") as llm:                # key from $OPENAI_API_KEY
        reply = llm.chat([{"role": "user", "content": "Hi"}], model="gpt-4o-mini")
        print(reply.content, reply.finish_reason, reply.usage, reply.rate_limits)

        with llm.stream([{"role": "user", "content": "Tell a story"}], model="gpt-4o-mini") as s:
            for event in s:
                ...                                 # PartialContentDelta, ToolCallEnded, ...
            print(s.final_response().finish_reason)

``AsyncLLMClient`` has the same surface with ``await`` / ``async with`` / ``async for``.

Everything provider-specific comes from the manifest: base URL (``endpoint.base_url``,
``base_url_template`` + ``connection_vars``), chat endpoint and method, ``{model}`` in paths,
auth (bearer, api_key header, query_param, ``extra_headers``; keys from ``token_env`` /
``key_env``), timeouts (``timeout_ms``), where each parameter goes (``parameter_mappings``,
dotted targets nest), the request shape (``payload_format``), how answers are read
(``response_paths``), how streams are decoded (``streaming``), retries (``retry_policy``, on
by default), error classes (``error_classification``), ``rate_limit_headers`` and
``features.multi_candidate``. API keys are held as :class:`~agentproto._runtime.redact.Secret`
and never appear in ``repr``, logs or error messages (even when the provider echoes one back).
What a provider may send, and for how long, is bounded by ``limits=``
(:class:`~agentproto._runtime.limits.Limits`); a stream dropped unclosed gives its connection
back (and warns where it was opened).
"""

from __future__ import annotations

import inspect
import os
import re
from collections.abc import (
    AsyncGenerator,
    AsyncIterator,
    Callable,
    Coroutine,
    Generator,
    Mapping,
    Sequence,
)
from dataclasses import replace
from types import TracebackType
from typing import TYPE_CHECKING, Any, Final, Generic, Self, TypeVar, cast
from urllib.parse import parse_qsl

import anyio
import httpx
from agentproto._runtime.http import (
    NOT_GIVEN,
    AsyncHTTP,
    Call,
    HTTPBase,
    NotGiven,
    RetryPolicy,
    TimeoutTypes,
    format_path,
)
from agentproto._runtime.http_errors import (
    APIConnectionError,
    APIError,
    APITimeoutError,
    ResponseValidationError,
    request_id_of,
)
from agentproto._runtime.limits import DEFAULT_LIMITS, LimitError, Limits, loads
from agentproto._runtime.redact import MASK, Secret, declare_secret_name, redact_url
from agentproto._runtime.release import Orphans, aclose_shielded, guard
from agentproto._runtime.telemetry import SpanHandle, Telemetry
from agentproto.llm.classify import classify, retry_after_of, retry_policy
from agentproto.llm.credentials import CredentialSource, MissingAPIKeyError, resolve_credential
from agentproto.llm.errors import ProviderError, ProviderStreamError, error_class
from agentproto.llm.events import StreamEvent
from agentproto.llm.manifest import Manifest
from agentproto.llm.observe import Hooks, Observer
from agentproto.llm.payloads import (
    Message,
    PayloadError,
    Tool,
    ToolChoice,
    merge_into,
    set_dotted,
    shape,
)
from agentproto.llm.pricing import Budget, ModelCatalog, Price, cost_of, price_of, sum_costs
from agentproto.llm.problems import UnsupportedError
from agentproto.llm.reasoning import plan_reasoning
from agentproto.llm.registry import ProviderId
from agentproto.llm.response import ChatResponse, Collector, Usage
from agentproto.llm.streaming import IncompleteStreamError, StreamDecoder

if TYPE_CHECKING:
    # Structured output, services and the tool loop are imported by the methods that use them:
    # importing the client costs none of them (nor pydantic, whose models are the caller's).
    import pydantic
    from agentproto.llm.services import Embeddings, ModelInfo, PageCursor, Service
    from agentproto.llm.structured import ParsedChatResponse, ResponseFormat
    from agentproto.llm.tool_loop import FunctionTool, ToolLoopResult, ToolRun

    _M = TypeVar("_M", bound=pydantic.BaseModel)

# unasync: derive-sync
# unasync: sync-only
# from concurrent.futures import ThreadPoolExecutor
# unasync: end

__all__ = [
    "AsyncChatStream",
    "AsyncLLMClient",
    "AsyncStreamRequest",
    "ChatStream",  # noqa: F822 (the blocking twins are derived at build time)
    "LLMClient",  # noqa: F822
    "MissingAPIKeyError",
    "classify",
    "retry_policy",
]

_H = TypeVar("_H", bound=HTTPBase)
_NOBODY = Orphans()  # streams made without their transport: closed at once or by the collector
_ANTHROPIC_DEFAULT_MAX_TOKENS: Final = 4096
_STANDARD_PARAMS: Final = (
    "temperature",
    "max_tokens",
    "top_p",
    "top_k",
    "stop_sequences",
    "frequency_penalty",
    "presence_penalty",
    "seed",
    "reasoning_effort",
    "reasoning_budget",
)
_REASONING: Final = ("reasoning_effort", "reasoning_budget")


class _Base(Generic[_H]):
    """What both flavours share: the manifest, credentials and request building."""

    _http: _H
    structured_output: bool = False
    """Send ``response_format`` even when the manifest does not declare structured output."""

    def __init__(
        self,
        provider: ProviderId | str | Manifest,
        *,
        api_key: str | Secret | None = None,
        base_url: str | None = None,
        model: str | None = None,
        variables: Mapping[str, str] | None = None,
        headers: Mapping[str, str] | None = None,
        timeout: TimeoutTypes | NotGiven = NOT_GIVEN,
        retry: bool | RetryPolicy = True,
        endpoint: str | None = None,
        stream_path: str | None = None,
        budget: Budget | None = None,
        catalog: ModelCatalog | None = None,
        hooks: Hooks | None = None,
        telemetry: bool | Telemetry = True,
        drop_cache_hints: bool = False,
        limits: Limits | None = None,
    ) -> None:
        self._limits: Limits | None = limits
        self.manifest: Manifest = (
            provider if isinstance(provider, Manifest) else _manifest(provider)
        )
        self.model: str | None = model
        self.budget: Budget | None = budget
        """A spending limit this client's calls count against (shared with others given it)."""
        self.catalog: ModelCatalog = (
            catalog if catalog is not None else ModelCatalog.bundled(self.manifest.credential_id)
        )
        """v1 model records for prices and context windows the manifest does not carry."""
        self.drop_cache_hints: bool = drop_cache_hints
        self.observer: Observer = Observer(self.manifest.id, hooks, telemetry)
        """The client's hooks and telemetry (:class:`~agentproto.llm.observe.Observer`)."""
        self.variables: dict[str, str] = dict(variables or {})
        self.endpoint = endpoint
        self.stream_path = stream_path
        self.credential: CredentialSource
        self._key = self._find_key(api_key)
        base = base_url or self.manifest.resolve_base_url(self.variables)
        # A query in the base URL (Azure's ``?api-version=``) goes on every request.
        base, _, query = base.partition("?")
        self._base_url = base
        self._query = dict(parse_qsl(query, keep_blank_values=True))
        self.secret_params: tuple[str, ...] = (
            (self.manifest.auth_param,) if self.manifest.auth_type == "query_param" else ()
        )
        if isinstance(retry, RetryPolicy):
            self._retry = retry
        else:
            self._retry = retry_policy(self.manifest) if retry else RetryPolicy.disabled()
        if isinstance(timeout, NotGiven):
            seconds = self.manifest.timeout
            self._timeout: TimeoutTypes = (
                httpx.Timeout(seconds, connect=min(seconds, 10.0)) if seconds else 60.0
            )
        else:
            self._timeout = timeout
        self._headers = {**self.manifest.extra_headers, **(headers or {})}

    def _find_key(self, api_key: str | Secret | None) -> Secret:
        """The key by the credential chain (see ``llm/credentials.py``); ``self.credential``
        says where it came from, never what it is."""
        key, self.credential = resolve_credential(self.manifest, api_key)
        if key is None:
            raise MissingAPIKeyError(self.credential)
        return key

    def _http_options(self) -> dict[str, Any]:
        options: dict[str, Any] = {
            "headers": self._headers,
            "timeout": self._timeout,
            "retry": self._retry,
            "error_factory": self._error,
            "limits": self._limits,
            "secrets": (self._key,),
        }
        kind = self.manifest.auth_type
        if kind == "bearer":
            options["api_key"] = self._key
        elif kind == "api_key":
            key = self._key
            header = self.manifest.auth_header

            def add_key(request: httpx.Request) -> httpx.Request:
                request.headers[header] = key.reveal()
                return request

            options["auth"] = add_key
            options["secret_headers"] = (header,)
        return options

    def __repr__(self) -> str:
        return (
            f"<{type(self).__name__} provider={self.manifest.id!r} "
            f"base_url={redact_url(self._base_url)!r} api_key={MASK!r}>"
        )

    # -- requests ---------------------------------------------------------------------------

    def _build(
        self,
        messages: Sequence[Message | Mapping[str, Any]],
        *,
        model: str | None,
        tools: Sequence[Tool | Mapping[str, Any]] | None,
        tool_choice: ToolChoice | None,
        params: Mapping[str, Any],
        stream: bool,
        n: int | None,
        extra_body: Mapping[str, Any] | None,
        extra_headers: Mapping[str, str] | None,
        timeout: TimeoutTypes | NotGiven,
        response_format: ResponseFormat | None = None,
    ) -> Call:
        manifest = self.manifest
        model = model or self.model
        if not model:
            raise ValueError(f"{manifest.id}: no model: pass model=... to the call or the client")
        if tools and manifest.capabilities.get("tools") is False:
            raise UnsupportedError(f"{manifest.id}: the manifest says the provider has no tools")
        method, path = manifest.chat_endpoint(self.endpoint)
        if stream:
            if manifest.capabilities.get("streaming") is False:
                raise UnsupportedError(f"{manifest.id}: the manifest says it cannot stream")
            if self.stream_path is not None:
                path = self.stream_path
            elif "chat_stream" in manifest.endpoints:
                method, path = manifest.endpoints["chat_stream"]
            elif "stream" not in manifest.mappings:
                raise UnsupportedError(
                    f"{manifest.id}: the manifest gives no way to ask for a stream (no "
                    "parameter_mappings.stream, no endpoints.chat_stream); pass stream_path="
                )
        try:
            pieces = shape(
                manifest.payload_format,
                messages,
                tools,
                tool_choice,
                manifest.data.get("tooling"),
                vision=manifest.capabilities.get("vision"),
                drop_cache_hints=self.drop_cache_hints,
            )
        except PayloadError as exc:
            raise ValueError(f"{manifest.id}: {exc}") from None
        values: dict[str, Any] = dict(manifest.parameter_defaults)
        for name, value in pieces.items():
            values[name] = value
        for name, value in params.items():
            if name == "response_format":  # params={"response_format": ...} means the same
                response_format = response_format if response_format is not None else value
            elif value is None:
                values.pop(name, None)  # None: send nothing, not even the manifest's default
            else:
                values[name] = value
        reasoning = plan_reasoning(
            manifest, values.pop("reasoning_effort", None), values.pop("reasoning_budget", None)
        )
        values.update(reasoning.values)
        if manifest.payload_format == "anthropic_style" and "max_tokens" not in values:
            values["max_tokens"] = _ANTHROPIC_DEFAULT_MAX_TOKENS + (reasoning.min_max_tokens or 0)
        if reasoning.min_max_tokens is not None and values.get("max_tokens", 0) <= (
            reasoning.min_max_tokens
        ):
            raise ValueError(
                f"{manifest.id}: max_tokens ({values.get('max_tokens')}) must exceed the "
                f"thinking budget ({reasoning.min_max_tokens})"
            )
        if stream and "stream" in manifest.mappings:
            values["stream"] = True
        if n is not None and n > 1:
            values[manifest.multi_candidate_param] = n

        variables = {**manifest.connection_vars, **self.variables}
        names = set(re.findall(r"{([A-Za-z_][A-Za-z0-9_]*)}", path))
        if "model" in names:
            if "owner" in names and "owner" not in variables and "/" in model:
                variables["owner"], model = model.split("/", 1)
            variables["model"] = model
        if "model" not in names or "model" in manifest.mappings:
            values["model"] = model
        missing = sorted(names - set(variables))
        if missing:
            raise ValueError(
                f"{manifest.id}: the path {path!r} needs {missing}: pass variables={{...}}"
            )
        path = format_path(path, **{k: variables[k] for k in names})

        body: dict[str, Any] = {}
        for name, value in values.items():
            target = manifest.mappings.get(name)
            if target is None:
                if name in ("messages", "model", manifest.multi_candidate_param):
                    target = name
                else:
                    raise UnsupportedError(
                        f"{manifest.id}: the manifest maps no parameter {name!r} "
                        f"(it maps: {', '.join(sorted(manifest.mappings))})"
                    )
            set_dotted(body, target, value)
        for target, value in reasoning.body.items():
            set_dotted(body, target, value)
        if response_format is not None:
            from agentproto.llm.structured import apply_response_format

            apply_response_format(
                manifest, body, response_format, assume_supported=self.structured_output
            )
        if extra_body:
            merge_into(body, extra_body)
        path, query = _split_query(path, self._query)
        if manifest.auth_type == "query_param":
            query[manifest.auth_param] = self._key.reveal()
            _keep_keys_out_of_httpx_logs(manifest.auth_param)
        headers = dict(extra_headers or {})
        if stream:
            headers.setdefault("Accept", "text/event-stream")
        call = self._http.call(
            method,
            path,
            params=query,
            json=body,
            headers=headers,
            timeout=timeout,
            retry=self._retry.max_retries > 0,
        )
        return call

    def _service_call(
        self,
        service: Service,
        *,
        cursor: PageCursor | None = None,
        json_body: Any = None,
        extra_headers: Mapping[str, str] | None,
        timeout: TimeoutTypes | NotGiven,
    ) -> Call:
        """A request to a declared service (model list, embeddings) with the chat call's base
        URL, base query and credentials."""
        manifest = self.manifest
        path = service.path
        names = set(re.findall(r"{([A-Za-z_][A-Za-z0-9_]*)}", path))
        if names:
            variables = {**manifest.connection_vars, **self.variables}
            missing = sorted(names - set(variables))
            if missing:
                raise ValueError(
                    f"{manifest.id}: the path {path!r} needs {missing}: pass variables={{...}}"
                )
            path = format_path(path, **{k: variables[k] for k in names})
        if cursor is not None and cursor.url is not None:
            path = cursor.url
        path, query = _split_query(path, self._query)
        query.update(service.query)
        if cursor is not None:
            query.update(cursor.params)
        if manifest.auth_type == "query_param":
            query[manifest.auth_param] = self._key.reveal()
            _keep_keys_out_of_httpx_logs(manifest.auth_param)
        return self._http.call(
            service.method,
            path,
            params=query,
            json=json_body,
            headers={**service.headers, **(extra_headers or {})},
            timeout=timeout,
            retry=self._retry.max_retries > 0,
        )

    def _json(self, response: httpx.Response) -> Any:
        try:
            return loads(response.content, self._http.limits.max_json_depth)
        except LimitError as exc:
            raise ResponseValidationError(
                f"{self.manifest.id}: the answer is not usable: {exc}",
                status_code=response.status_code,
                body=response.content,
            ) from None
        except ValueError:
            raise ResponseValidationError(
                f"{self.manifest.id}: the answer is not JSON "
                f"(content-type {response.headers.get('content-type')!r})",
                status_code=response.status_code,
                body=response.content,
            ) from None

    def _error(self, response: httpx.Response, body: bytes) -> ProviderError:
        try:
            data = loads(body, self._http.limits.max_json_depth) if body else None
        except ValueError:  # not JSON, or nested too deeply: no fields read from it
            data = None
        manifest = self.manifest
        name = classify(manifest, response.status_code, data)
        shape_ = manifest.response

        def text(getter: Any) -> str | None:
            value = getter(data)
            return None if value is None or not isinstance(value, str | int) else str(value)

        message_text = text(shape_.error_message)
        request = response.request
        url = redact_url(str(request.url), self.secret_params)
        message = f"{manifest.id}: {request.method} {url} answered {response.status_code} ({name})"
        if message_text:
            message += f": {message_text[:300]}"
        return error_class(name)(
            message,
            status_code=response.status_code,
            headers=response.headers,
            body=body,
            method=request.method,
            url=url,
            provider=manifest.id,
            error_message=message_text,
            error_code=text(shape_.error_code),
            error_type=text(shape_.error_type),
            rate_limits=manifest.rate_limits.read(response.headers),
            retry_after=retry_after_of(manifest, response.headers, body),
        )

    def _response(self, response: httpx.Response) -> ChatResponse:
        body = self._json(response)
        return ChatResponse.from_body(
            self.manifest,
            body,
            rate_limits=self.manifest.rate_limits.read(response.headers),
            request_id=request_id_of(response.headers),
        )

    def _not_a_stream(self, response: httpx.Response) -> ResponseValidationError:
        """The error for a stream request answered with another content type (body read)."""
        kind = response.headers.get("content-type", "")
        return ResponseValidationError(
            f"{self.manifest.id}: expected an event stream, got content-type {kind!r}",
            status_code=response.status_code,
            body=response.content,
        )

    def _simulated(self, n: int | None) -> bool:
        return bool(n and n > 1 and self.manifest.multi_candidate == "simulated")

    # -- cost, budget, observation ----------------------------------------------------------

    def price(self, model: str | None = None) -> Price | None:
        """The price of ``model`` (the client's by default): the manifest's per-model or
        provider price, else its v1 model record; ``None`` when neither says."""
        name = model or self.model
        return price_of(self.manifest, name, self.catalog) if name else None

    def _model_of(self, standard: Mapping[str, Any]) -> str:
        model = standard.get("model") or self.model
        if not model:
            raise ValueError(
                f"{self.manifest.id}: no model: pass model=... to the call or the client"
            )
        return str(model)

    def _admit(self, model: str) -> None:
        """Refuse a call its budget cannot afford, before anything is built or sent."""
        if self.budget is not None:
            self.budget.check(f"{self.manifest.id} {model}", self.price(model))

    def _begin(self, call: Call, model: str, *, stream: bool) -> SpanHandle:
        url = redact_url(
            f"{self._base_url.rstrip('/')}/{call.path.lstrip('/')}", self.secret_params
        )
        payload: object = call.json
        body: Mapping[str, Any] = (
            cast("Mapping[str, Any]", payload) if isinstance(payload, Mapping) else {}
        )
        return self.observer.begin(model, call.method, url, body, stream=stream)


def _keep_keys_out_of_httpx_logs(param: str) -> None:
    """A key sent as a query parameter (``auth.type: query_param``) is part of the URL, which
    httpx logs at INFO level: its name is declared secret, so the runtime's log filter (on
    every logger of this package and httpx's) masks it there, as in errors and reprs."""
    declare_secret_name(param)


def _manifest(provider: str) -> Manifest:
    if os.sep in provider or provider.endswith((".json", ".yaml", ".yml")):
        return Manifest.load(provider)
    return Manifest.bundled(provider)


def _merge_candidates(responses: Sequence[ChatResponse]) -> ChatResponse:
    """The answers of a simulated ``n``: one candidate each, usage summed over the requests
    (``usage.raw["requests"]`` keeps each one's), ``raw`` the list of bodies."""
    first = responses[0]
    candidates = tuple(
        replace(r.candidates[0], index=i) for i, r in enumerate(responses) if r.candidates
    )
    usages = [r.usage for r in responses if r.usage is not None]

    def total(values: list[int | None]) -> int | None:
        return None if not values or any(v is None for v in values) else sum(v or 0 for v in values)

    usage = (
        Usage(
            total([u.input_tokens for u in usages]),
            total([u.output_tokens for u in usages]),
            total([u.total_tokens for u in usages]),
            {"requests": [u.raw for u in usages]},
            total([u.reasoning_tokens for u in usages]),
            total([u.cache_read_tokens for u in usages]),
            total([u.cache_write_tokens for u in usages]),
            sum_costs([u.cost for u in usages]),
        )
        if usages
        else None
    )
    return replace(first, candidates=candidates, usage=usage, raw=[r.raw for r in responses])


def _stream_error(collector: Collector) -> None:
    """Raise the provider's in-stream error as a :class:`ProviderStreamError` (its message,
    type and code in the text; the error object in ``error``)."""
    if collector.errors:
        error = collector.errors[0]
        tags = [t for t in dict.fromkeys((error.error_type, error.code)) if t]
        raise ProviderStreamError(
            f"{collector.manifest.id}: the stream reported an error ({error.error_class}): "
            f"{error.message}" + (f" [{', '.join(tags)}]" if tags else ""),
            error_class=error.error_class,
            error=error.error,
        )


async def _achat_events(
    client: AsyncLLMClient,
    response: httpx.Response,
    decoder: StreamDecoder,
    collector: Collector,
    http: AsyncHTTP | None,
) -> AsyncGenerator[StreamEvent, None]:
    """The events of a streamed answer, each also folded into ``collector``. An error the
    provider sent in the stream is yielded (``StreamError``), then raised."""
    add = collector.add
    try:
        chunks = http.stream_body(response) if http is not None else response.aiter_bytes()
        async for chunk in chunks:
            events = decoder.feed(chunk)
            for event in events:
                add(event)
                yield event
            if decoder.done:
                break
        else:
            for event in decoder.end_of_body():
                add(event)
                yield event
        _stream_error(collector)
        if not decoder.complete:
            raise IncompleteStreamError(
                f"{client.manifest.id}: the stream ended before it was complete",
                method="POST",
                url=redact_url(str(response.request.url), client.secret_params),
            )
        for event in decoder.finish():
            add(event)
            yield event
    except httpx.TimeoutException as exc:
        raise APITimeoutError(f"{client.manifest.id}: the stream stalled") from exc
    except httpx.TransportError as exc:
        raise APIConnectionError(
            f"{client.manifest.id}: the stream broke: {type(exc).__name__}"
        ) from exc
    finally:
        await aclose_shielded(response)  # a cancelled read still gives the connection back


def _priced(client: _Base[Any], response: ChatResponse, model: str) -> ChatResponse:
    """``response`` with its cost (by the client's prices) and model; charged to the client's
    budget."""
    usage = response.usage
    if usage is not None and usage.cost is None:
        usage = replace(usage, cost=cost_of(usage, client.price(model)))
    priced = replace(response, usage=usage, model=model)
    if client.budget is not None:
        client.budget.charge(priced.cost)
    return priced


class _Fold:
    """A stream's events folded into its answer, priced and charged once. Shared by the
    stream and its observing generator (which holds this, not the stream: a stream dropped
    unclosed is still freed at once)."""

    def __init__(
        self,
        client: _Base[Any],
        collector: Collector,
        model: str,
        rate_limits: dict[str, str],
        request_id: str | None,
    ) -> None:
        self.client = client
        self.collector = collector
        self.model = model
        self.rate_limits = rate_limits
        self.request_id = request_id
        self.final: ChatResponse | None = None

    def __call__(self) -> ChatResponse:
        if self.final is None:
            _stream_error(self.collector)
            folded = self.collector.response(
                rate_limits=self.rate_limits, request_id=self.request_id
            )
            self.final = _priced(self.client, folded, self.model)
        return self.final


async def _aobserve(
    events: AsyncGenerator[StreamEvent, None],
    fold: _Fold,
    span: SpanHandle | None,
) -> AsyncGenerator[StreamEvent, None]:
    """``events`` as they come, and at their end the folded answer priced, charged to the
    budget and reported to the stream's span and hooks (made only when there is a budget,
    hooks or telemetry: otherwise a stream has no step more per event)."""
    observer = fold.client.observer
    model = fold.model
    try:
        async for event in events:
            yield event
        final = fold()
    except GeneratorExit:  # closed before its end: no answer to report
        if span is not None:
            span.set("agentproto.stream.closed_early", True)
            span.end()
        raise
    except BaseException as exc:
        if span is not None:
            observer.failure(span, model, exc, stream=True)
        raise
    finally:
        await events.aclose()
    if span is not None:
        observer.success(span, model, final, stream=True)


class AsyncChatStream:
    """A streamed answer: iterate it for events; a context manager that closes the response.

    ``rate_limits``, ``headers`` and ``request_id`` are there from the start;
    :meth:`final_response` reads what is left and folds every event into a
    :class:`ChatResponse`.
    """

    def __init__(
        self,
        client: AsyncLLMClient,
        response: httpx.Response,
        *,
        model: str | None = None,
        span: SpanHandle | None = None,
        http: AsyncHTTP | None = None,
    ) -> None:
        """``http``: the client's transport (its limits and deadline, and where a stream the
        garbage collector drops is closed)."""
        self._response = response
        self._decoder = StreamDecoder(
            client.manifest.stream, http.limits if http is not None else DEFAULT_LIMITS
        )
        limits = http.limits if http is not None else DEFAULT_LIMITS
        self._collector = Collector(client.manifest, limits.max_body_bytes)
        self.headers: httpx.Headers = response.headers
        self.request_id: str | None = request_id_of(response.headers)
        self.rate_limits: dict[str, str] = client.manifest.rate_limits.read(response.headers)
        self._fold = _Fold(
            client, self._collector, model or client.model or "", self.rate_limits, self.request_id
        )
        # Not a bound method: a stream dropped unclosed is freed (and its response closed) at
        # once, not later by the garbage collector, possibly inside httpcore's pool lock.
        events = _achat_events(client, response, self._decoder, self._collector, http)
        if span is not None or client.budget is not None:  # else: not one step more per event
            events = _aobserve(events, self._fold, span)
        self._iterator = events
        # A stream never read has a generator that never started (no ``finally`` runs): the
        # guard gives the connection back when the stream goes away unclosed.
        self._guard = guard(
            self, response, http.orphans if http is not None else _NOBODY, what=type(self).__name__
        )

    def __aiter__(self) -> AsyncIterator[StreamEvent]:
        # The stream itself, not its generator: a loop over a stream never bound to a name
        # keeps the stream alive (its guard would otherwise close the response mid-loop).
        return self

    async def __anext__(self) -> StreamEvent:
        return await self._iterator.__anext__()

    async def final_response(self) -> ChatResponse:
        """Read the rest and return the whole answer (raises on an in-stream error)."""
        async for _ in self._iterator:
            pass
        return self._fold()

    def partial(self) -> ChatResponse | None:
        """The events received so far, folded (what a caller has seen of a stream that
        broke); ``None`` when they do not fold (a tool call cut off mid-arguments)."""
        try:
            return self._collector.response(
                rate_limits=self.rate_limits, request_id=self.request_id
            )
        except APIError:
            return None

    async def text(self) -> str:
        """Read the rest and return the first candidate's text."""
        return (await self.final_response()).content

    async def aclose(self) -> None:
        self._guard.detach()
        await aclose_shielded(self._response)

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()


class AsyncLLMClient(_Base[AsyncHTTP]):
    """The client. ``provider`` is a bundled provider id (see ``agentproto.llm.PROVIDERS``),
    a manifest file path, or a :class:`Manifest`."""

    def __init__(
        self,
        provider: ProviderId | str | Manifest,
        *,
        api_key: str | Secret | None = None,
        base_url: str | None = None,
        model: str | None = None,
        variables: Mapping[str, str] | None = None,
        headers: Mapping[str, str] | None = None,
        timeout: TimeoutTypes | NotGiven = NOT_GIVEN,
        retry: bool | RetryPolicy = True,
        endpoint: str | None = None,
        stream_path: str | None = None,
        http_client: httpx.AsyncClient | None = None,
        structured_output: bool = False,
        budget: Budget | None = None,
        catalog: ModelCatalog | None = None,
        hooks: Hooks | None = None,
        telemetry: bool | Telemetry = True,
        drop_cache_hints: bool = False,
        limits: Limits | None = None,
    ) -> None:
        """``budget``: a spending limit (see :class:`~agentproto.llm.pricing.Budget`);
        ``catalog``: v1 model records for prices the manifest lacks (the bundled ones of this
        provider by default); ``hooks``: request/response callables; ``telemetry``: OpenTelemetry
        spans and metrics when ``opentelemetry-api`` is installed (``False``: off, or a
        :class:`~agentproto._runtime.telemetry.Telemetry` of your own providers);
        ``drop_cache_hints``: send requests for APIs without per-block cache hints with the
        hints left out (refused otherwise)."""
        super().__init__(
            provider,
            api_key=api_key,
            base_url=base_url,
            model=model,
            variables=variables,
            headers=headers,
            timeout=timeout,
            retry=retry,
            endpoint=endpoint,
            stream_path=stream_path,
            budget=budget,
            catalog=catalog,
            hooks=hooks,
            telemetry=telemetry,
            drop_cache_hints=drop_cache_hints,
            limits=limits,
        )
        self._http = AsyncHTTP(self._base_url, http_client=http_client, **self._http_options())
        self.structured_output = structured_output

    async def chat(
        self,
        messages: Sequence[Message | Mapping[str, Any]],
        *,
        model: str | None = None,
        tools: Sequence[Tool | Mapping[str, Any]] | None = None,
        tool_choice: ToolChoice | None = None,
        temperature: float | NotGiven | None = NOT_GIVEN,
        max_tokens: int | NotGiven | None = NOT_GIVEN,
        top_p: float | NotGiven | None = NOT_GIVEN,
        top_k: int | NotGiven | None = NOT_GIVEN,
        stop_sequences: Sequence[str] | NotGiven | None = NOT_GIVEN,
        frequency_penalty: float | NotGiven | None = NOT_GIVEN,
        presence_penalty: float | NotGiven | None = NOT_GIVEN,
        seed: int | NotGiven | None = NOT_GIVEN,
        reasoning_effort: str | NotGiven | None = NOT_GIVEN,
        reasoning_budget: int | NotGiven | None = NOT_GIVEN,
        n: int | None = None,
        response_format: ResponseFormat | None = None,
        params: Mapping[str, Any] | None = None,
        extra_body: Mapping[str, Any] | None = None,
        extra_headers: Mapping[str, str] | None = None,
        timeout: TimeoutTypes | NotGiven = NOT_GIVEN,
    ) -> ChatResponse:
        """One answer (``n`` > 1: that many candidates, natively or by parallel requests, as
        ``features.multi_candidate`` says). ``params`` takes any other standard parameter the
        manifest maps; ``extra_body`` is merged into the request body as is.
        ``response_format`` asks for JSON (see :mod:`agentproto.llm.structured`; :meth:`parse`
        also validates the answer as a pydantic model)."""
        standard = _params(locals())
        if self._simulated(n):
            assert n is not None
            # unasync: async-only
            results: list[ChatResponse | None] = [None] * n
            limiter = anyio.CapacityLimiter(self.manifest.multi_candidate_concurrency)

            async def one(i: int) -> None:
                async with limiter:
                    results[i] = await self._chat_once(messages, standard, 1)

            async with anyio.create_task_group() as group:
                for i in range(n):
                    group.start_soon(one, i)
            return _merge_candidates([r for r in results if r is not None])
            # unasync: sync-only
            # concurrency = self.manifest.multi_candidate_concurrency
            # with ThreadPoolExecutor(max_workers=concurrency) as pool:
            #     futures = [pool.submit(self._chat_once, messages, standard, 1) for _ in range(n)]
            #     return _merge_candidates([f.result() for f in futures])
            # unasync: end
        return await self._chat_once(messages, standard, n)

    async def _chat_once(
        self, messages: Any, standard: dict[str, Any], n: int | None
    ) -> ChatResponse:
        model = self._model_of(standard)
        self._admit(model)
        call = self._build(messages, stream=False, n=n, **standard)
        if not self.observer.active:  # the plain path: nothing to tell anyone
            response = await self._http.send(call, stream=False)
            return _priced(self, self._response(response), model)
        span = self._begin(call, model, stream=False)
        try:
            response = await self._http.send(call, stream=False)
            result = _priced(self, self._response(response), model)
        except BaseException as exc:
            self.observer.failure(span, model, exc, stream=False)
            raise
        self.observer.success(span, model, result, stream=False)
        return result

    async def parse(
        self,
        messages: Sequence[Message | Mapping[str, Any]],
        *,
        response_format: type[_M],
        model: str | None = None,
        tools: Sequence[Tool | Mapping[str, Any]] | None = None,
        tool_choice: ToolChoice | None = None,
        temperature: float | NotGiven | None = NOT_GIVEN,
        max_tokens: int | NotGiven | None = NOT_GIVEN,
        top_p: float | NotGiven | None = NOT_GIVEN,
        top_k: int | NotGiven | None = NOT_GIVEN,
        stop_sequences: Sequence[str] | NotGiven | None = NOT_GIVEN,
        frequency_penalty: float | NotGiven | None = NOT_GIVEN,
        presence_penalty: float | NotGiven | None = NOT_GIVEN,
        seed: int | NotGiven | None = NOT_GIVEN,
        reasoning_effort: str | NotGiven | None = NOT_GIVEN,
        reasoning_budget: int | NotGiven | None = NOT_GIVEN,
        params: Mapping[str, Any] | None = None,
        extra_body: Mapping[str, Any] | None = None,
        extra_headers: Mapping[str, str] | None = None,
        timeout: TimeoutTypes | NotGiven = NOT_GIVEN,
    ) -> ParsedChatResponse[_M]:
        """``chat()`` asking for the JSON Schema of the pydantic model ``response_format``
        (made strict), the answer validated as that model: ``.parsed``. Raises
        :class:`~agentproto.llm.structured.StructuredOutputError` for an answer that is cut
        short, not JSON or not valid (like the openai SDK's ``chat.completions.parse``)."""
        from agentproto.llm.structured import ParsedChatResponse, parse_response

        response = await self._chat_once(messages, _params(locals()), None)
        return ParsedChatResponse(parse_response(response, response_format), response)

    def stream(
        self,
        messages: Sequence[Message | Mapping[str, Any]],
        *,
        model: str | None = None,
        tools: Sequence[Tool | Mapping[str, Any]] | None = None,
        tool_choice: ToolChoice | None = None,
        temperature: float | NotGiven | None = NOT_GIVEN,
        max_tokens: int | NotGiven | None = NOT_GIVEN,
        top_p: float | NotGiven | None = NOT_GIVEN,
        top_k: int | NotGiven | None = NOT_GIVEN,
        stop_sequences: Sequence[str] | NotGiven | None = NOT_GIVEN,
        frequency_penalty: float | NotGiven | None = NOT_GIVEN,
        presence_penalty: float | NotGiven | None = NOT_GIVEN,
        seed: int | NotGiven | None = NOT_GIVEN,
        reasoning_effort: str | NotGiven | None = NOT_GIVEN,
        reasoning_budget: int | NotGiven | None = NOT_GIVEN,
        n: int | None = None,
        response_format: ResponseFormat | None = None,
        params: Mapping[str, Any] | None = None,
        extra_body: Mapping[str, Any] | None = None,
        extra_headers: Mapping[str, str] | None = None,
        timeout: TimeoutTypes | NotGiven = NOT_GIVEN,
        # unasync: async-only
    ) -> AsyncStreamRequest:
        """A streamed answer: ``async with client.stream(...) as s`` (or
        ``s = await client.stream(...)``, then close it)."""
        # unasync: sync-only
        # ) -> ChatStream:
        # """A streamed answer (use it in a ``with`` block)."""
        # unasync: end
        standard = _params(locals())
        if self._simulated(n):
            raise UnsupportedError(
                f"{self.manifest.id}: n > 1 is simulated by parallel requests; stream one at a time"
            )
        model = self._model_of(standard)
        self._admit(model)
        call = self._build(messages, stream=True, n=n, **standard)
        # unasync: async-only
        return AsyncStreamRequest(self._open_stream, call, model)
        # unasync: sync-only
        # return self._open_stream(call, model)
        # unasync: end

    async def _open_stream(self, call: Call, model: str | None = None) -> AsyncChatStream:
        span = self._begin(call, model or "", stream=True) if self.observer.active else None
        try:
            response = await self._http.send(call, stream=True)
        except BaseException as exc:
            if span is not None:
                self.observer.failure(span, model or "", exc, stream=True)
            raise
        try:
            if not _is_stream(response):
                await self._http.read_body(response)
                raise self._not_a_stream(response)
        except BaseException as exc:
            await response.aclose()
            if span is not None:
                self.observer.failure(span, model or "", exc, stream=True)
            raise
        if span is not None and not span.recording and self.observer.hooks is None:
            span = None  # nobody to tell at the end: no step more per event
        return AsyncChatStream(self, response, model=model, span=span, http=self._http)

    async def run_tools(
        self,
        messages: Sequence[Message | Mapping[str, Any]],
        *,
        tools: Sequence[FunctionTool | Callable[..., Any]],
        model: str | None = None,
        max_iterations: int = 10,
        tool_choice: ToolChoice | None = None,
        temperature: float | NotGiven | None = NOT_GIVEN,
        max_tokens: int | NotGiven | None = NOT_GIVEN,
        params: Mapping[str, Any] | None = None,
        extra_body: Mapping[str, Any] | None = None,
        extra_headers: Mapping[str, str] | None = None,
        timeout: TimeoutTypes | NotGiven = NOT_GIVEN,
    ) -> ToolLoopResult:
        """Chat, run the tool calls of the answer with the tools' functions, send the
        results, and again, until an answer asks for no tool (see
        :mod:`agentproto.llm.tool_loop`). Each tool is a :class:`FunctionTool` or a plain
        function (sync or ``async def``); ``tool_choice`` applies to the first chat only (a
        ``"required"`` kept on would never let the model stop). More than ``max_iterations``
        chats raises :class:`ToolLoopLimitError`; a chat failing after tools ran raises
        :class:`ToolLoopChatError` with the conversation so far; the calls of one answer run
        in order."""
        from agentproto.llm.tool_loop import (
            ToolError,
            ToolExecutionError,
            ToolLoopChatError,
            ToolLoopLimitError,
            ToolLoopResult,
            ToolRun,
            as_tools,
            encode_output,
            prepare,
        )

        by_name = as_tools(tools)
        # unasync: sync-only
        # for tool in by_name.values():
        #     if tool.is_async:
        #         raise TypeError(
        #             f"tool {tool.name!r} is async def: use AsyncLLMClient.run_tools"
        #         )
        # unasync: end
        if max_iterations < 1:
            raise ValueError("max_iterations must be at least 1")
        specs = [tool.spec() for tool in by_name.values()]
        history: list[dict[str, Any]] = [dict(m) for m in messages]
        runs: list[ToolRun] = []
        response: ChatResponse | None = None
        for iteration in range(1, max_iterations + 1):
            try:
                response = await self.chat(
                    history,
                    model=model,
                    tools=specs,
                    tool_choice=tool_choice if iteration == 1 else None,
                    temperature=temperature,
                    max_tokens=max_tokens,
                    params=params,
                    extra_body=extra_body,
                    extra_headers=extra_headers,
                    timeout=timeout,
                )
            except APIError as exc:
                if not runs:  # nothing ran yet: the provider's error as it is
                    raise
                raise ToolLoopChatError(
                    f"the chat after {len(runs)} tool run(s) failed: {exc}",
                    messages=history,
                    runs=runs,
                    response=response,
                ) from exc
            history.append(response.message())
            if not response.tool_calls:
                return ToolLoopResult(response, history, runs, iteration)
            results: list[dict[str, Any]] = []
            for call in response.tool_calls:
                try:
                    tool, arguments = prepare(by_name, call)
                    value = tool.function(**arguments)
                    # unasync: async-only
                    if inspect.isawaitable(value):
                        value = await value
                    # unasync: end
                    run = ToolRun(call, encode_output(tool, value))
                except ToolError as exc:
                    run = ToolRun(call, str(exc), is_error=True)
                except Exception as exc:
                    raise ToolExecutionError(
                        f"{self.manifest.id}: tool {call.name!r} raised {type(exc).__name__}",
                        messages=history,
                        runs=runs,
                        response=response,
                    ) from exc
                runs.append(run)
                results.append(run.block())
            history.append({"role": "user", "content": results})
        raise ToolLoopLimitError(
            f"{self.manifest.id}: the model still asks for tools after {max_iterations} chats "
            "(max_iterations)",
            messages=history,
            runs=runs,
            response=response,
        )

    async def list_models(
        self,
        *,
        max_pages: int = 100,
        extra_headers: Mapping[str, str] | None = None,
        timeout: TimeoutTypes | NotGiven = NOT_GIVEN,
    ) -> list[ModelInfo]:
        """Every model the provider lists (``services.list_models``), all pages followed up to
        ``max_pages`` (more raises ``ResponseValidationError`` rather than cutting the list)."""
        from agentproto.llm.services import list_models_service, read_models_page

        if max_pages < 1:
            raise ValueError("max_pages must be at least 1")
        service = list_models_service(self.manifest)
        models: list[ModelInfo] = []
        cursor: PageCursor | None = None
        seen: set[tuple[str | None, tuple[tuple[str, str], ...]]] = set()
        for _ in range(max_pages):
            call = self._service_call(
                service, cursor=cursor, extra_headers=extra_headers, timeout=timeout
            )
            response = await self._http.send(call, stream=False)
            page, cursor = read_models_page(
                self.manifest, service, self._json(response), self._base_url, response.content
            )
            models.extend(page)
            if cursor is None:
                return models
            key = (cursor.url, tuple(sorted(cursor.params.items())))
            if key in seen:  # a server that keeps sending one cursor: stop now, not at max_pages
                raise ResponseValidationError(
                    f"{self.manifest.id}: the model list sent the same next-page cursor twice",
                    status_code=response.status_code,
                    body=response.content,
                )
            seen.add(key)
        raise ResponseValidationError(
            f"{self.manifest.id}: the model list has more than {max_pages} pages "
            "(raise max_pages=)",
            status_code=200,
            body=b"",
        )

    async def embed(
        self,
        input: str | Sequence[str],
        *,
        model: str | None = None,
        dimensions: int | None = None,
        encoding_format: str | None = None,
        batch_size: int = 2048,
        extra_body: Mapping[str, Any] | None = None,
        extra_headers: Mapping[str, str] | None = None,
        timeout: TimeoutTypes | NotGiven = NOT_GIVEN,
    ) -> Embeddings:
        """One vector per input (``endpoints.embeddings``), sent ``batch_size`` inputs per
        request, in order; ``usage`` adds up the batches'."""
        from agentproto.llm.services import (
            Embeddings,
            embeddings_body,
            embeddings_service,
            read_embeddings,
            sum_usage,
        )

        service = embeddings_service(self.manifest)
        model = model or self.model
        if not model:
            raise ValueError(
                f"{self.manifest.id}: no model: pass model=... to the call or the client"
            )
        inputs = [input] if isinstance(input, str) else list(input)
        if not inputs:
            raise ValueError(f"{self.manifest.id}: embed() needs at least one input")
        if batch_size < 1:
            raise ValueError("batch_size must be at least 1")
        vectors: list[list[float]] = []
        usages: list[Any] = []
        bodies: list[Any] = []
        answered: str | None = None
        for start in range(0, len(inputs), batch_size):
            batch = inputs[start : start + batch_size]
            body = embeddings_body(
                model, batch, dimensions=dimensions, encoding_format=encoding_format
            )
            if extra_body:
                merge_into(body, extra_body)
            call = self._service_call(
                service, json_body=body, extra_headers=extra_headers, timeout=timeout
            )
            response = await self._http.send(call, stream=False)
            data = self._json(response)
            found, usage, answered_model = read_embeddings(
                self.manifest.id, data, len(batch), response.content
            )
            vectors.extend(found)
            usages.append(usage)
            bodies.append(data)
            answered = answered or answered_model
        return Embeddings(vectors, answered, sum_usage(usages), tuple(bodies))

    async def aclose(self) -> None:
        await self._http.aclose()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()


# unasync: async-only
class AsyncStreamRequest:
    """A stream about to be opened: ``async with`` it, or ``await`` it for the stream.

    Made by :meth:`AsyncLLMClient.stream` with the client's opener and the built request.
    """

    def __init__(
        self,
        open_stream: Callable[[Call, str | None], Coroutine[Any, Any, AsyncChatStream]],
        call: Call,
        model: str | None = None,
    ) -> None:
        self._open_stream = open_stream
        self._call = call
        self._model = model
        self._stream: AsyncChatStream | None = None

    def __await__(self) -> Generator[Any, None, AsyncChatStream]:
        return self._open_stream(self._call, self._model).__await__()

    async def __aenter__(self) -> AsyncChatStream:
        self._stream = await self._open_stream(self._call, self._model)
        return self._stream

    async def __aexit__(self, *exc: object) -> None:
        if self._stream is not None:
            await self._stream.aclose()


# unasync: end


def _split_query(path: str, base: Mapping[str, str]) -> tuple[str, dict[str, Any]]:
    """``path`` without its query, and the query to send: the base URL's, then the path's own
    (a manifest's ``stream_path`` ``...?alt=sse``, a next-page URL's cursor). httpx's
    ``params=`` replaces a URL's query, so one left in the path would be lost."""
    path, _, own = path.partition("?")
    return path, {**base, **dict(parse_qsl(own, keep_blank_values=True))}


def _is_stream(response: httpx.Response) -> bool:
    kind: str = response.headers.get("content-type", "")
    return kind.startswith(("text/event-stream", "application/json", "application/x-ndjson"))


def _params(scope: dict[str, Any]) -> dict[str, Any]:
    """The keyword arguments of chat()/stream() that ``_build`` takes, from ``locals()``."""
    # a keyword left out is not given (the manifest's default applies); None: send nothing
    given = {n: scope[n] for n in _STANDARD_PARAMS if not isinstance(scope[n], NotGiven)}
    if given.get("stop_sequences") is not None:
        given["stop_sequences"] = list(given["stop_sequences"])
    given.update(scope["params"] or {})
    return {
        "model": scope["model"],
        "tools": scope["tools"],
        "tool_choice": scope["tool_choice"],
        "params": given,
        "extra_body": scope["extra_body"],
        "extra_headers": scope["extra_headers"],
        "timeout": scope["timeout"],
        "response_format": scope["response_format"],
    }
