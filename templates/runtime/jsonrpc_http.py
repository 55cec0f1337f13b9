"""JSON-RPC 2.0 over HTTP, the client side: one POST per call, answered with JSON or with an SSE
stream of JSON-RPC messages (how A2A and MCP's Streamable HTTP carry it).

Written once as async code (``AsyncRpcHTTP``); the blocking ``RpcHTTP`` is derived from it when
the package is built. Both stand on the HTTP runtime (:mod:`agentproto._runtime.http`): its
pool, auth, retries, limits, deadlines and redacted logs apply to every call unchanged.

- A call (:meth:`AsyncRpcHTTP.call`) posts ``{"jsonrpc": "2.0", "id": n, "method": ...,
  "params": ...}`` with ``Accept: application/json, text/event-stream``. A JSON answer is the
  response; an SSE answer is read until the response with the call's id (messages before it,
  a server's notifications, are logged and skipped: this client declares no handler for them).
- A streamed call (:meth:`AsyncRpcHTTP.stream`) answers an
  :class:`~agentproto._runtime.streaming.AsyncEventStream`: each SSE ``data:`` is a JSON-RPC
  response whose ``result`` is one event, typed by :class:`RpcEvents`; the stream ends when the
  server closes it or after an event its end rule matches. A server that answers a streamed
  call with one JSON response gives a stream of that one event (or raises its error).
- An error object raises the protocol's typed error: its code is looked up in the protocol's
  table (``errors``: code -> :class:`~agentproto._runtime.jsonrpc.RpcError` subclass, generated
  from the spec table), falling back to the JSON-RPC standard codes, then to ``RpcError`` with
  the code it came with. Message and data are kept as sent.
- Anything that is not a JSON-RPC response for this call (not JSON, nested deeper than
  ``Limits.max_json_depth``, no ``"jsonrpc": "2.0"``, another id, both or neither of ``result``
  and ``error``, a result that does not match the method's type) raises
  :class:`~agentproto._runtime.http_errors.ResponseValidationError`; nothing is guessed.
- HTTP-level failures (a status other than 200 or 202, a transport error, a deadline) raise the
  HTTP runtime's typed errors, as for every HTTP client of the package.
"""

from __future__ import annotations

import itertools
import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final, Generic, TypeGuard, TypeVar, cast

import httpx
from agentproto._runtime.http import (
    NOT_GIVEN,
    AsyncHTTP,
    HTTPBase,
    NotGiven,
    TimeoutTypes,
    to_json,
)
from agentproto._runtime.http_errors import ResponseValidationError
from agentproto._runtime.json_types import JSONValue
from agentproto._runtime.jsonrpc import (
    STANDARD_ERRORS,
    InternalError,
    RpcError,
)
from agentproto._runtime.limits import LimitError, loads
from agentproto._runtime.redact import redact_url
from agentproto._runtime.sse import ServerSentEvent
from agentproto._runtime.streaming import AsyncEventStream, UnknownEvent

if TYPE_CHECKING:  # pydantic is imported when a call is made, not by ``import``
    from pydantic import BaseModel, TypeAdapter

# unasync: derive-sync

logger: logging.Logger = logging.getLogger("agentproto.jsonrpc")

T = TypeVar("T")
ErrorTable = Mapping[int, type[RpcError]]
"""A protocol's JSON-RPC error codes and the exception class each one raises."""

ACCEPT = "application/json, text/event-stream"
_EXPECTED = (200, 202)


def error_from(error: JSONValue, errors: ErrorTable) -> RpcError:
    """The typed exception for a received error object (its message and data kept)."""
    if isinstance(error, dict):
        code = error.get("code")
        message = error.get("message")
        if isinstance(code, int) and not isinstance(code, bool) and isinstance(message, str):
            kind = errors.get(code) or STANDARD_ERRORS.get(code) or RpcError
            return kind(message, error.get("data"), code=code)
    return InternalError("the peer sent a malformed error object", error)


def validator(kind: Any) -> Callable[[Any], Any]:
    """A function validating parsed JSON a peer sent as ``kind`` (a model, a union, ``None``...),
    its pydantic validator built on first use (the module imports cheaply)."""
    built: list[Callable[[Any], Any]] = []

    def validate(value: Any) -> Any:
        if not built:
            from agentproto._runtime.base import PEER_CONTEXT
            from pydantic import TypeAdapter

            if _is_model_class(kind):
                model = kind
                built.append(lambda v: model.model_validate(v, context=PEER_CONTEXT))
            else:
                adapter: TypeAdapter[Any] = TypeAdapter(kind)
                built.append(lambda v: adapter.validate_python(v, context=PEER_CONTEXT))
        return built[0](value)

    return validate


_PARAM_ADAPTERS: dict[object, TypeAdapter[Any]] = {}


def coerce_params(kind: Any, value: Any) -> Any:
    """A call's params as ``kind``: a model instance as it is, a mapping validated (wire or
    Python names; a union picks its member as the models do)."""
    from pydantic import BaseModel, TypeAdapter

    if isinstance(value, BaseModel):
        return value
    if _is_model_class(kind):
        return kind.model_validate(value)
    adapter = _PARAM_ADAPTERS.get(kind)
    if adapter is None:
        adapter = _PARAM_ADAPTERS[kind] = TypeAdapter(kind)
    return adapter.validate_python(value)


def _is_model_class(kind: object) -> TypeGuard[type[BaseModel]]:
    from pydantic import BaseModel

    return isinstance(kind, type) and issubclass(kind, BaseModel)


@dataclass(frozen=True)
class RpcMethod(Generic[T]):
    """One JSON-RPC method as a client calls it: its name and how its result is read."""

    name: str
    parse: Callable[[Any], T]
    """Validates the ``result`` member (parsed JSON) into the method's type."""
    idempotent: bool = False
    """Retried like a GET on a connection error or a retryable status."""


@dataclass(frozen=True)
class EndRule:
    """An event after which a stream is over: its tag is ``tag`` (any tag when ``None``) and,
    when ``field`` is given, the value at that dotted path of its wire form is one of
    ``values``."""

    tag: str | None = None
    field: str | None = None
    values: tuple[Any, ...] = ()

    def matches(self, tag: str | None, data: Mapping[str, Any]) -> bool:
        if self.tag is not None and tag != self.tag:
            return False
        if self.field is None:
            return True
        value: object = data
        for part in self.field.split("."):
            if not isinstance(value, Mapping):
                return False
            inside = cast("Mapping[str, object]", value)
            if part not in inside:
                return False
            value = inside[part]
        return any(value == v and type(value) is type(v) for v in self.values)


@dataclass(frozen=True)
class RpcEvents(Generic[T]):
    """The events of a streamed method: each ``result`` is one of ``variants``, chosen by the
    value of its ``discriminator`` field (a tag this version does not know gives an
    :class:`~agentproto._runtime.streaming.UnknownEvent` with the result as sent), and the
    stream is over after an event an ``end`` rule matches."""

    name: str
    discriminator: str
    variants: Mapping[str, Callable[[Any], T]]
    end: tuple[EndRule, ...] = ()

    def parse(self, result: JSONValue) -> T | UnknownEvent:
        if not isinstance(result, dict):
            raise ValueError(f"an event of {self.name} must be a JSON object")
        tag = result.get(self.discriminator)
        parse = self.variants.get(tag) if isinstance(tag, str) else None
        if parse is None:
            logger.debug("unknown %s event %r", self.name, tag)
            return UnknownEvent(str(tag), result)
        return parse(result)

    def is_end(self, result: JSONValue) -> bool:
        if not isinstance(result, dict):
            return False
        tag = result.get(self.discriminator)
        return any(rule.matches(tag if isinstance(tag, str) else None, result) for rule in self.end)


class _Missing:
    """The ``result`` of a success response that has none."""


_NO_RESULT: Final = _Missing()


@dataclass
class _Ids:
    """Request ids: one counter per client, never reused (``next`` is atomic in CPython)."""

    counter: itertools.count[int] = field(default_factory=lambda: itertools.count(1))

    def next(self) -> int:
        return next(self.counter)


def _invalid(response: httpx.Response, what: str, body: bytes = b"") -> ResponseValidationError:
    request = response.request
    return ResponseValidationError(
        f"{request.method} {redact_url(str(request.url))}: {what}",
        status_code=response.status_code,
        body=body,
    )


def _media(response: httpx.Response) -> str:
    media: str = response.headers.get("content-type", "")
    return media.split(";", 1)[0].strip().lower()


class RpcBase:
    """What the sync and async flavours share: messages, ids, and reading answers."""

    def __init__(self, http: HTTPBase, endpoint: str, errors: ErrorTable) -> None:
        """``endpoint``: the JSON-RPC URL, relative to the client's base URL (``""``: the base
        URL itself). ``errors``: the protocol's error table."""
        self.base: HTTPBase = http
        self.endpoint = endpoint
        self.errors = errors
        self._ids = _Ids()

    def _message(self, method: str, params: Any, request_id: int | None) -> dict[str, Any]:
        message: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
        if request_id is not None:
            message["id"] = request_id
        if params is not None:
            message["params"] = to_json(params)
        return message

    def _result(
        self, response: httpx.Response, message: JSONValue, request_id: int
    ) -> JSONValue | _Missing:
        """The ``result`` of a response message for ``request_id`` (:data:`_NO_RESULT` when it
        has none), or its typed error."""
        if not isinstance(message, dict) or message.get("jsonrpc") != "2.0":
            raise _invalid(response, "the answer is not a JSON-RPC 2.0 message")
        if message.get("id") != request_id:
            raise _invalid(
                response, f"the answer is for id {message.get('id')!r}, not {request_id}"
            )
        has_result, has_error = "result" in message, "error" in message
        if has_result and has_error:
            raise _invalid(response, "a JSON-RPC response holds both result and error")
        if not has_result and not has_error:
            return _NO_RESULT  # read as null where the method's result may be null, else refused
        if has_error:
            error = error_from(message["error"], self.errors)
            error.message = self.base.scrub_text(error.message)  # a server may echo a key
            error.args = (error.message,)
            raise error
        return message["result"]

    def _loads(self, response: httpx.Response, data: str | bytes) -> JSONValue:
        try:
            value: JSONValue = loads(data, self.base.limits.max_json_depth)
        except LimitError as exc:
            raise _invalid(response, str(exc)) from None
        except ValueError:
            raise _invalid(response, "the answer is not JSON") from None
        return value

    def _typed(
        self, response: httpx.Response, parse: Callable[[Any], T], value: JSONValue | _Missing
    ) -> T:
        if isinstance(value, _Missing):
            # Some servers (a2a-sdk) leave out a null ``result``: it is null when the method's
            # result may be null; any other result cannot be guessed.
            try:
                return parse(None)
            except ValueError:
                raise _invalid(response, "the response holds neither result nor error") from None
        try:
            return parse(value)
        except ValueError as exc:  # pydantic's ValidationError is a ValueError
            raise _invalid(response, f"the result does not match its type: {exc}") from None


class AsyncRpcHTTP(RpcBase):
    """Calls JSON-RPC methods at one endpoint of an :class:`~agentproto._runtime.http.AsyncHTTP`
    client (whose policy, pool and limits they use)."""

    def __init__(self, http: AsyncHTTP, endpoint: str, errors: ErrorTable) -> None:
        super().__init__(http, endpoint, errors)
        self.http: AsyncHTTP = http

    async def call(
        self,
        method: RpcMethod[T],
        params: Any,
        *,
        extra_headers: Mapping[str, str] | None = None,
        timeout: TimeoutTypes | NotGiven = NOT_GIVEN,
        retry: bool | None = None,
    ) -> T:
        """Call ``method`` with ``params`` (a model, a mapping, or ``None`` for none)."""
        request_id = self._ids.next()
        call = self.http.call(
            "POST",
            self.endpoint,
            json=self._message(method.name, params, request_id),
            headers={"Accept": ACCEPT, **(extra_headers or {})},
            timeout=timeout,
            idempotent=method.idempotent,
            retry=retry,
            expected=_EXPECTED,
        )
        response = await self.http.send(call, stream=True)
        try:
            if _media(response) == "text/event-stream":
                result = await self._result_from_stream(response, request_id)
            else:
                body = await self.http.read_body(response)
                result = self._result(response, self._loads(response, body), request_id)
        finally:
            await response.aclose()
        return self._typed(response, method.parse, result)

    async def _result_from_stream(
        self, response: httpx.Response, request_id: int
    ) -> JSONValue | _Missing:
        stream: AsyncEventStream[JSONValue] = AsyncEventStream(
            response, lambda sse: self._loads(response, sse.data), http=self.http
        )
        async with stream:
            async for message in stream:
                if isinstance(message, dict) and "method" in message and "id" not in message:
                    logger.debug("skipped a notification %r: no handler", message.get("method"))
                    continue
                return self._result(response, message, request_id)
        raise _invalid(response, "the stream ended before the answer")

    async def notify(
        self,
        method: str,
        params: Any,
        *,
        extra_headers: Mapping[str, str] | None = None,
        timeout: TimeoutTypes | NotGiven = NOT_GIVEN,
    ) -> None:
        """Send a notification (no id, no answer: the server acknowledges it with 202)."""
        call = self.http.call(
            "POST",
            self.endpoint,
            json=self._message(method, params, None),
            headers={"Accept": ACCEPT, **(extra_headers or {})},
            timeout=timeout,
            expected=_EXPECTED,
        )
        response = await self.http.send(call, stream=False)
        await response.aclose()

    async def stream(
        self,
        events: RpcEvents[T],
        params: Any,
        *,
        extra_headers: Mapping[str, str] | None = None,
        timeout: TimeoutTypes | NotGiven = NOT_GIVEN,
    ) -> AsyncEventStream[T | UnknownEvent]:
        """Call a streamed method: its events, typed, as they arrive."""
        request_id = self._ids.next()
        call = self.http.call(
            "POST",
            self.endpoint,
            json=self._message(events.name, params, request_id),
            headers={"Accept": "text/event-stream, application/json", **(extra_headers or {})},
            timeout=timeout,
            idempotent=False,
            expected=_EXPECTED,
        )
        response = await self.http.send(call, stream=True)
        ended = [False]  # whether the last event parsed ends the stream (read by ``is_end``)

        def typed(message: JSONValue) -> T | UnknownEvent:
            result = self._result(response, message, request_id)
            ended[0] = not isinstance(result, _Missing) and events.is_end(result)
            return self._typed(response, events.parse, result)

        def parse(sse: ServerSentEvent) -> T | UnknownEvent | None:
            message = self._loads(response, sse.data)
            if isinstance(message, dict) and "method" in message and "id" not in message:
                logger.debug("skipped a notification %r: no handler", message.get("method"))
                return None
            return typed(message)

        return AsyncEventStream(
            response,
            parse,
            lambda _: ended[0],
            http=self.http,
            single=lambda body: typed(self._loads(response, body)),
        )
