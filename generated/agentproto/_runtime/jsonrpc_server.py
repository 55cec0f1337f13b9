"""Serve a spec table's JSON-RPC methods over HTTP as an ASGI app (hand-written; Starlette, the
``provider`` extra): one POST per call, answered with JSON, or, for a streamed method, with an
SSE stream whose every ``data:`` is a JSON-RPC response carrying one event.

A protocol's generated ``server.py`` holds one :class:`RpcRoute` per method of its table and a
handler base class with one typed method per operation; :func:`rpc_app` serves them (and the
table's plain HTTP operations, through :mod:`agentproto._runtime.http_server`). Per request,
in this order:

1. the guard (:mod:`agentproto._runtime.guard`): ``Host`` and ``Origin`` against their
   allow-lists (loopback names by default on loopback, no browser origin), ``Content-Type``
   JSON (a browser's cross-site "simple" request, ``text/plain`` or a form, is 415 before
   anything is read), the body's size, deadline and nesting; refusals are JSON-RPC errors;
2. auth: ``Authorization: Bearer <token>`` checked by ``authenticate`` (token -> principal, or
   ``None`` to refuse): missing or refused is 401 with ``WWW-Authenticate``, before the body is
   read. Without ``authenticate`` the server serves everyone (say so when you bind it beyond
   loopback);
3. the body, read up to ``max_request_bytes`` (beyond: 413, before the rest is read), parsed
   as JSON nested at most ``max_json_depth`` deep (else -32700, id ``null``);
4. the message: an object with ``"jsonrpc": "2.0"``, a string ``method``, an id that is a
   string, an integer or ``null`` (or none: a notification), ``params`` an object or array if
   present (else -32600); a batch (an array) is -32600: none of the tables' protocols batch;
5. the method, by name (else -32601), its params validated as its type (else -32602, saying
   where and why, never echoing the input);
6. the handler, by the operation's name. An :class:`~agentproto._runtime.jsonrpc.RpcError` it
   raises is the error object (its code, message and data: so they must hold nothing
   internal); anything else is logged with its traceback and answered -32603 with a fixed text;
7. the answer: ``{"jsonrpc": "2.0", "id": ..., "result": ...}`` (wire names, no ``null``
   fields), 202 and no body for a notification. A streamed method's handler returns an async
   iterator of events: an error raised before its first event is a plain JSON error answer;
   after it, an error frame ends the stream. Keepalive comments, one write per batch of ready
   frames and cancellation on disconnect are
   :class:`~agentproto._runtime.http_server.SSEResponse`'s.

With ``websocket=True`` an upgrade request at the endpoint is a JSON-RPC connection served by
the same handler (:mod:`agentproto._runtime.jsonrpc_ws`; streamed methods are not offered there).
"""

from __future__ import annotations

import json
import logging
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field, replace
from typing import Any

import pydantic
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route, WebSocketRoute
from starlette.types import Receive, Scope, Send

from agentproto._runtime.base import PEER_CONTEXT
from agentproto._runtime.errors import AgentprotoError
from agentproto._runtime.guard import ASGIApp, Guard, GuardPolicy, jsonrpc_error
from agentproto._runtime.http_server import (
    Authenticate,
    RouteOptions,
    SSEResponse,
    route_app,
)
from agentproto._runtime.json_types import JSONValue
from agentproto._runtime.jsonrpc import (
    InternalError,
    InvalidParams,
    InvalidRequest,
    MethodNotFound,
    ParseError,
    RpcError,
)
from agentproto._runtime.limits import DEFAULT_LIMITS, LimitError, Limits, loads
from agentproto._runtime.routes import RequestContext, RouteSpec

log: logging.Logger = logging.getLogger("agentproto.server")
_JSON = "application/json"


@dataclass(frozen=True, slots=True)
class RpcRoute:
    """One JSON-RPC method as a server serves it (read from the spec table at build time)."""

    name: str  # also the handler method's name
    rpc: str  # the JSON-RPC method
    params: Any = None  # the params' type (a model, a union...); None: the method takes none
    result: Any = None  # the result's type (None: the result is null)
    stream: bool = False  # the handler returns an async iterator of events


@dataclass(frozen=True)
class RpcOptions:
    """How :func:`rpc_app` serves: limits and shapes that are not the protocol's to say."""

    max_request_bytes: int = 1 << 20
    """The largest request body read; a larger one is refused (413) before it is read."""
    max_json_depth: int = DEFAULT_LIMITS.max_json_depth
    """The deepest nesting of a request's JSON (deeper: -32700, never a RecursionError)."""
    keepalive: float = 15.0
    """Seconds of silence on an SSE stream before a comment line is sent."""
    realm: str = "agentproto"
    limits: Limits = DEFAULT_LIMITS
    """Over the WebSocket carrier: the longest message and the requests handled at once."""
    routes: RouteOptions = field(default_factory=RouteOptions)
    """How the table's plain HTTP operations are served."""
    guard: GuardPolicy = field(default_factory=lambda: GuardPolicy(error_body=jsonrpc_error))
    """Browser safety and body bounds in front of everything (Host and Origin allow-lists,
    JSON-only bodies, body deadline and nesting: :class:`~agentproto._runtime.guard.Guard`),
    refusals as JSON-RPC errors. Its ``max_body_bytes`` defaults to ``max_request_bytes``."""


def dump_result(value: Any, kind: Any) -> JSONValue:
    """A result in wire form: models by alias, no null fields; anything else through its type."""
    if isinstance(value, pydantic.BaseModel):
        dumped: JSONValue = value.model_dump(mode="json", by_alias=True, exclude_none=True)
        return dumped
    adapter: pydantic.TypeAdapter[Any] = pydantic.TypeAdapter(kind)
    found: JSONValue = adapter.dump_python(value, mode="json", by_alias=True, exclude_none=True)
    return found


def _text(data: Any) -> bytes:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()


def _answer(request_id: JSONValue, result: JSONValue) -> dict[str, JSONValue]:
    return {"jsonrpc": "2.0", "id": request_id, "result": result}


def _error(request_id: JSONValue, error: RpcError) -> dict[str, JSONValue]:
    return {"jsonrpc": "2.0", "id": request_id, "error": error.to_json()}


def params_problem(exc: pydantic.ValidationError) -> str:
    problems: list[str] = []
    for error in exc.errors(include_url=False, include_input=False, include_context=False)[:3]:
        where = "/" + "/".join(str(p) for p in error["loc"])
        problems.append(f"{where}: {error['msg']}")
    more = exc.error_count() - len(problems)
    return "invalid params: " + "; ".join(problems) + (f" (and {more} more)" if more > 0 else "")


class _Refused(AgentprotoError):
    """A finished answer, raised inside the dispatcher to leave it early."""

    def __init__(self, response: Response) -> None:
        self.response = response


class RpcStreamResponse(SSEResponse):
    """The SSE answer of a streamed method: each event as a JSON-RPC response of the call."""

    def __init__(
        self,
        request_id: JSONValue,
        events: AsyncIterator[pydantic.BaseModel],
        *,
        keepalive: float,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(events, keepalive=keepalive, headers=headers)
        self.request_id = request_id

    def frame(self, event: pydantic.BaseModel) -> bytes:
        return b"data: " + _text(_answer(self.request_id, dump_result(event, Any))) + b"\n\n"

    def failed(self, exc: Exception) -> bytes:
        if not isinstance(exc, RpcError):
            log.error("a stream of request %r failed", self.request_id, exc_info=exc)
            exc = InternalError("internal error")
        return b"data: " + _text(_error(self.request_id, exc)) + b"\n\n"


class RpcServer:
    """The dispatcher behind :func:`rpc_app` (one per app)."""

    def __init__(
        self,
        methods: tuple[RpcRoute, ...],
        handler: object,
        *,
        authenticate: Authenticate | None,
        options: RpcOptions,
    ) -> None:
        self.methods: dict[str, RpcRoute] = {m.rpc: m for m in methods}
        self.handler: object = handler
        self.authenticate: Authenticate | None = authenticate
        self.options: RpcOptions = options
        self._adapters: dict[str, pydantic.TypeAdapter[Any]] = {}
        for method in methods:
            if not callable(getattr(handler, method.name, None)):
                raise TypeError(f"{type(handler).__name__} has no handler for {method.name}")

    def _adapter(self, route: RpcRoute) -> pydantic.TypeAdapter[Any]:
        adapter = self._adapters.get(route.rpc)
        if adapter is None:
            adapter = self._adapters[route.rpc] = pydantic.TypeAdapter(route.params)
        return adapter

    # -- answers ----------------------------------------------------------------------------

    def _json(self, message: Mapping[str, Any], headers: Mapping[str, str]) -> Response:
        return Response(_text(message), 200, headers=dict(headers), media_type=_JSON)

    def _http_error(self, status: int, message: str, **headers: str) -> _Refused:
        body = _text({"error": message})
        return _Refused(Response(body, status, headers=headers, media_type=_JSON))

    # -- the steps --------------------------------------------------------------------------

    async def _principal(self, request: Request) -> str | None:
        if self.authenticate is None:
            return None
        challenge = {"WWW-Authenticate": f'Bearer realm="{self.options.realm}"'}
        header = request.headers.get("authorization")
        scheme, _, token = (header or "").partition(" ")
        token = token.strip()
        if header is None or scheme.lower() != "bearer" or not token:
            raise self._http_error(401, "missing credentials (Authorization: Bearer)", **challenge)
        found = self.authenticate(token)
        principal = await found if isinstance(found, Awaitable) else found
        if principal is None:
            raise self._http_error(401, "invalid credentials", **challenge)
        return principal

    async def _read(self, request: Request) -> bytes:
        limit = self.options.max_request_bytes
        declared = request.headers.get("content-length")
        if declared is not None and declared.isdigit() and int(declared) > limit:
            raise self._http_error(413, f"the body is larger than {limit} bytes")
        chunks: list[bytes] = []
        size = 0
        async for chunk in request.stream():
            size += len(chunk)
            if size > limit:
                raise self._http_error(413, f"the body is larger than {limit} bytes")
            chunks.append(chunk)
        return b"".join(chunks)

    def _message(self, raw: bytes) -> tuple[JSONValue, str, JSONValue, bool]:
        """(id, method, params, is a notification) of a request, or its error answer."""
        try:
            message: JSONValue = loads(raw, self.options.max_json_depth, allow_nan=False)
        except LimitError:
            raise self._rpc_refusal(None, ParseError("the JSON is nested too deeply")) from None
        except ValueError:
            raise self._rpc_refusal(None, ParseError("the body is not JSON")) from None
        if isinstance(message, list):
            raise self._rpc_refusal(None, InvalidRequest("batches are not supported"))
        if not isinstance(message, dict) or message.get("jsonrpc") != "2.0":
            raise self._rpc_refusal(None, InvalidRequest("not a JSON-RPC 2.0 request"))
        notification = "id" not in message
        request_id = message.get("id")
        if isinstance(request_id, bool) or not isinstance(request_id, str | int | None):
            raise self._rpc_refusal(None, InvalidRequest("the id must be a string or a number"))
        method = message.get("method")
        if not isinstance(method, str):
            raise self._rpc_refusal(request_id, InvalidRequest("the method must be a string"))
        params = message.get("params")
        if params is not None and not isinstance(params, dict | list):
            raise self._rpc_refusal(request_id, InvalidRequest("params must be an object or array"))
        return request_id, method, params, notification

    def _rpc_refusal(self, request_id: JSONValue, error: RpcError) -> _Refused:
        return _Refused(self._json(_error(request_id, error), {}))

    async def dispatch(self, request: Request) -> Response:
        request_id = uuid.uuid4().hex
        headers = {"X-Request-Id": request_id}
        call_id: JSONValue = None
        try:
            principal = await self._principal(request)
            call_id, method, params, notification = self._message(await self._read(request))
            route = self.methods.get(method)
            if route is None:
                raise self._rpc_refusal(call_id, MethodNotFound(f"no method {method!r}"))
            args: list[Any] = []
            if route.params is not None:
                try:
                    args.append(
                        self._adapter(route).validate_python(
                            params if params is not None else {}, context=PEER_CONTEXT
                        )
                    )
                except pydantic.ValidationError as exc:
                    raise self._rpc_refusal(call_id, InvalidParams(params_problem(exc))) from None
            context = RequestContext(
                principal,
                request_id,
                {k: v for k, v in request.headers.items() if k != "authorization"},
            )
            handle = getattr(self.handler, route.name)
            if route.stream:
                return await self._stream(call_id, handle(context, *args), headers)
            result = await handle(context, *args)
            if notification:
                return Response(status_code=202, headers=headers)
            return self._json(_answer(call_id, dump_result(result, route.result)), headers)
        except _Refused as refused:
            refused.response.headers.update(headers)
            return refused.response
        except RpcError as exc:
            return self._json(_error(call_id, exc), headers)
        except Exception:
            log.exception("request %s failed", request_id)
            return self._json(_error(call_id, InternalError("internal error")), headers)

    async def _stream(
        self, call_id: JSONValue, events: AsyncIterator[Any], headers: Mapping[str, str]
    ) -> Response:
        """The SSE answer, or a JSON error when the handler fails before its first event."""
        try:
            first = await anext(events)
        except StopAsyncIteration:
            return RpcStreamResponse(
                call_id, _empty(), keepalive=self.options.keepalive, headers=headers
            )
        except BaseException:
            close = getattr(events, "aclose", None)
            if close is not None:
                await close()
            raise
        return RpcStreamResponse(
            call_id, _prepend(first, events), keepalive=self.options.keepalive, headers=headers
        )


async def _empty() -> AsyncIterator[Any]:
    return
    yield  # an async generator with no items


async def _prepend(first: Any, rest: AsyncIterator[Any]) -> AsyncIterator[Any]:
    try:
        yield first
        async for item in rest:
            yield item
    finally:
        close = getattr(rest, "aclose", None)
        if close is not None:
            await close()


class _RpcSocket:
    """The WebSocket carrier at the endpoint: an upgrade request there is a JSON-RPC connection
    (:mod:`agentproto._runtime.jsonrpc_ws`), served by the same handler."""

    def __init__(self, server: RpcServer) -> None:
        self.server = server

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        from agentproto._runtime.jsonrpc_peer import TypedDispatcher
        from agentproto._runtime.jsonrpc_ws import serve_websocket

        if (await receive())["type"] != "websocket.connect":
            return
        principal: str | None = None
        authenticate = self.server.authenticate
        if authenticate is not None:
            headers = {
                k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]
            }
            scheme, _, token = headers.get("authorization", "").partition(" ")
            found = authenticate(token.strip()) if scheme.lower() == "bearer" else None
            principal = await found if isinstance(found, Awaitable) else found
            if principal is None:
                await send({"type": "websocket.close", "code": 1008, "reason": "unauthorized"})
                return
        dispatcher = TypedDispatcher(
            tuple(self.server.methods.values()), self.server.handler, principal=principal
        )
        await serve_websocket(receive, send, dispatcher, limits=self.server.options.limits)


def rpc_app(
    methods: tuple[RpcRoute, ...],
    handler: object,
    *,
    endpoint: str = "/",
    websocket: bool = False,
    routes: tuple[RouteSpec, ...] = (),
    error_status: Mapping[str, int] | None = None,
    authenticate: Authenticate | None = None,
    options: RpcOptions | None = None,
    lifespan: Callable[[Starlette], AbstractAsyncContextManager[None]] | None = None,
) -> ASGIApp:
    """An ASGI app serving ``methods`` at ``endpoint`` (POST; with ``websocket``, an upgrade
    there too) and the table's plain HTTP ``routes`` beside it, all with ``handler``, behind the
    guard (see the module docstring)."""
    options = options or RpcOptions()
    server = RpcServer(methods, handler, authenticate=authenticate, options=options)
    table: list[BaseRoute] = [Route(endpoint, server.dispatch, methods=["POST"])]
    if websocket:
        table.append(WebSocketRoute(endpoint, _RpcSocket(server)))
    if routes:

        async def anyone(token: str) -> str | None:
            found = authenticate(token) if authenticate is not None else token
            return await found if isinstance(found, Awaitable) else found

        rest = route_app(
            routes,
            handler,
            error_status=error_status or {},
            authenticate=anyone,
            options=options.routes
            if authenticate is not None
            else RouteOptions(
                max_request_bytes=options.routes.max_request_bytes,
                keepalive=options.routes.keepalive,
                error_body=options.routes.error_body,
                realm=options.routes.realm,
                anonymous=options.routes.anonymous or "anonymous",
            ),
        )
        table.extend(rest.routes)
    app = Starlette(routes=table, lifespan=lifespan)
    app.state.rpc_server = server
    policy = options.guard
    if policy.max_body_bytes is None:
        policy = replace(policy, max_body_bytes=options.max_request_bytes)
    return Guard(app, policy=policy)
