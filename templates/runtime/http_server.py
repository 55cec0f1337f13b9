"""Serve a spec table's routes as an ASGI app (hand-written; Starlette, the ``provider`` extra).

:func:`route_app` turns the generated ``ROUTES`` of a protocol and an object implementing its
``...Operations`` base into a Starlette application. Per request, in this order:

1. auth: ``Authorization: Bearer <token>`` checked by ``authenticate`` (token -> principal, or
   ``None`` to refuse); missing or refused is the table's ``unauthorized`` error, except that
   a route marked ``auth_optional`` serves a caller with no header (principal ``None``);
2. the body, read up to ``max_request_bytes`` (beyond: ``payload_too_large``, before the rest
   is read) and validated as the route's request model (``bad_request`` naming where and why,
   never echoing the input);
3. query parameters: required ones present, enum ones among their values, none repeated;
4. the handler, by the operation's name; an :class:`OperationError` it raises answers the
   table's status for that error name, with its message; anything else is logged with its
   traceback and answered ``server_error`` with a fixed text (no exception text leaves);
5. the answer: the model as JSON with the route's success status, nothing (204), or, for a
   stream operation whose handler returned an :class:`EventSource` (or an async iterator), an
   SSE stream.

SSE streams (:class:`EventStreamResponse`): frames ``event: <name>`` + ``data: <json>`` (the
name is the event model's discriminator, left out of the JSON; frames ready together go out
in one write), a comment line every
``keepalive`` seconds while the producer is quiet (so proxies keep the connection and a dead
peer is noticed), and the client's disconnect cancels the producer at once, even while it
waits (its ``finally`` blocks run), not at its next event. An event the requested mode does
not allow, or an exception in the producer, ends the stream (logged; nothing of it reaches
the client).
"""

from __future__ import annotations

import json
import logging
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from typing import Any, Literal, cast, get_args, get_origin

import anyio
import anyio.abc
import pydantic
from agentproto._runtime.errors import AgentprotoError
from agentproto._runtime.guard import Guard, GuardPolicy
from agentproto._runtime.routes import (
    EventSource,
    OperationError,
    RequestContext,
    RouteSpec,
    StreamSpec,
)
from agentproto._runtime.telemetry import SpanHandle, current, extract, shared
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import Response
from starlette.routing import Route
from starlette.types import Receive, Scope, Send

Authenticate = Callable[[str], Awaitable[str | None] | str | None]
"""A bearer token -> the principal it identifies, or ``None`` to refuse it."""
ErrorBody = Callable[[str], Mapping[str, Any]]
"""A public error message -> the JSON body of an error answer."""

log: logging.Logger = logging.getLogger("agentproto.server")
_FALLBACK_STATUS = {
    "bad_request": 400,
    "unauthorized": 401,
    "not_found": 404,
    "method_not_allowed": 405,
    "payload_too_large": 413,
    "server_error": 500,
    "not_implemented": 501,
}
_JSON = "application/json"


def error_json(message: str) -> Mapping[str, Any]:
    """``{"error": message}``: the error body most HTTP protocols use (AAP's ErrorResponse)."""
    return {"error": message}


@dataclass(frozen=True)
class RouteOptions:
    """How :func:`route_app` serves: limits and shapes that are not the protocol's to say."""

    max_request_bytes: int = 1 << 20
    """The largest request body read; a larger one is refused before it is read."""
    keepalive: float = 15.0
    """Seconds of silence on an SSE stream before a comment line is sent."""
    error_body: ErrorBody = field(default=error_json)
    """The JSON body of every error answer (the protocol's shape)."""
    realm: str = "agentproto"
    anonymous: str | None = None
    """The principal of a caller without credentials on any route (``None``: refused where
    the route needs auth). For servers that run without auth."""
    instrumentation: str | None = None
    """The instrumentation name of a SERVER span per request (``"agentproto.aap"``...), a
    child of the W3C trace context the request carries (``traceparent``); a stream's span
    lasts until the stream ends. ``None``: no spans."""


def _dump(model: pydantic.BaseModel) -> dict[str, Any]:
    return model.model_dump(mode="json", by_alias=True, exclude_none=True)


def _body(data: Any) -> bytes:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()


class _Answer(AgentprotoError):
    """A finished error answer, raised inside the dispatcher to leave it early."""

    def __init__(self, response: Response) -> None:
        self.response: Response = response


def event_tags(union: type[Any], discriminator: str) -> frozenset[str]:
    """The discriminator values of the event models a union model (``RootModel[A | B]``) or a
    single event model may hold."""
    root = getattr(union, "model_fields", {}).get("root")
    members: tuple[Any, ...] = get_args(root.annotation) if root is not None else (union,)
    tags: set[str] = set()
    for member in members:
        tag = getattr(member, "model_fields", {}).get(discriminator)
        if tag is not None and get_origin(tag.annotation) is Literal:
            tags.update(str(v) for v in get_args(tag.annotation))
    return frozenset(tags)


class RouteServer:
    """The dispatcher behind :func:`route_app` (one per app)."""

    def __init__(
        self,
        routes: tuple[RouteSpec, ...],
        handlers: object,
        *,
        error_status: Mapping[str, int],
        authenticate: Authenticate,
        options: RouteOptions,
    ) -> None:
        self.routes: tuple[RouteSpec, ...] = routes
        self.handlers: object = handlers
        self.status: dict[str, int] = {**_FALLBACK_STATUS, **error_status}
        self.authenticate: Authenticate = authenticate
        self.options: RouteOptions = options
        self._tags: dict[tuple[str, str], frozenset[str]] = {}
        for route in routes:
            if not callable(getattr(handlers, route.name, None)):
                raise TypeError(f"{type(handlers).__name__} has no handler for {route.name}")
            if route.stream is not None:
                for mode, union in route.stream.modes.items():
                    self._tags[(route.name, mode)] = event_tags(union, route.stream.discriminator)

    # -- answers ----------------------------------------------------------------------------

    def error(self, name: str, message: str, headers: Mapping[str, str] | None = None) -> Response:
        status = self.status.get(name)
        if status is None:
            log.error("a handler raised the error %r, which the spec table does not have", name)
            status, message = self.status["server_error"], "internal error"
        extra = dict(headers or {})
        if status == 401:
            extra.setdefault("WWW-Authenticate", f'Bearer realm="{self.options.realm}"')
        return Response(
            _body(self.options.error_body(message)), status, headers=extra, media_type=_JSON
        )

    def _refuse(self, name: str, message: str) -> _Answer:
        return _Answer(self.error(name, message))

    # -- the steps --------------------------------------------------------------------------

    async def _principal(self, request: Request, route: RouteSpec) -> str | None:
        header = request.headers.get("authorization")
        if header is None:
            if self.options.anonymous is not None:
                return self.options.anonymous
            if route.auth_optional:
                return None
            raise self._refuse("unauthorized", "missing credentials (Authorization: Bearer)")
        scheme, _, token = header.partition(" ")
        token = token.strip()
        if scheme.lower() != "bearer" or not token:
            raise self._refuse("unauthorized", "the Authorization header is not a bearer token")
        found = self.authenticate(token)
        principal = await found if isinstance(found, Awaitable) else found
        if principal is None:
            raise self._refuse("unauthorized", "invalid credentials")
        return principal

    async def _read(self, request: Request) -> bytes:
        limit = self.options.max_request_bytes
        declared = request.headers.get("content-length")
        if declared is not None and declared.isdigit() and int(declared) > limit:
            raise self._refuse("payload_too_large", f"the body is larger than {limit} bytes")
        chunks: list[bytes] = []
        size = 0
        async for chunk in request.stream():
            size += len(chunk)
            if size > limit:
                raise self._refuse("payload_too_large", f"the body is larger than {limit} bytes")
            chunks.append(chunk)
        return b"".join(chunks)

    def _parse(self, model: type[Any], raw: bytes) -> Any:
        if not raw.strip():
            raise self._refuse("bad_request", "the request needs a JSON body")
        try:
            return cast("type[pydantic.BaseModel]", model).model_validate_json(raw)
        except pydantic.ValidationError as exc:
            problems: list[str] = []
            for error in exc.errors(include_url=False, include_input=False)[:3]:
                where = "/" + "/".join(str(p) for p in error["loc"])
                problems.append(f"{where}: {error['msg']}")
            more = exc.error_count() - len(problems)
            text = "; ".join(problems) + (f" (and {more} more)" if more > 0 else "")
            raise self._refuse("bad_request", f"invalid body: {text}") from None

    def _query(self, route: RouteSpec, request: Request) -> dict[str, str | None]:
        found: dict[str, str | None] = {}
        for spec in route.query:
            values = request.query_params.getlist(spec.name)
            if len(values) > 1:
                raise self._refuse("bad_request", f"query parameter {spec.name} is repeated")
            value = values[0] if values else None
            if value is None and spec.required:
                raise self._refuse("bad_request", f"query parameter {spec.name} is required")
            if value is not None and spec.values is not None and value not in spec.values:
                allowed = ", ".join(spec.values)
                raise self._refuse(
                    "bad_request", f"query parameter {spec.name} must be one of: {allowed}"
                )
            found[spec.name] = value
        return found

    async def dispatch(self, route: RouteSpec, request: Request) -> Response:
        name = self.options.instrumentation
        telemetry = shared(name) if name is not None else None
        if telemetry is None or not telemetry.active:
            return await self._dispatch(route, request)
        span = telemetry.start(
            f"{route.method} {route.path}",
            {
                "http.request.method": route.method,
                "http.route": route.path,
                "url.path": request.url.path,
                "server.address": request.url.hostname,
                "server.port": request.url.port,
            },
            kind="server",
            parent=extract(request.headers),
        )
        if not span.recording:
            return await self._dispatch(route, request)
        try:
            with current(span):
                response = await self._dispatch(route, request)
        except BaseException as exc:
            span.error(exc)
            span.end()
            raise
        span.set("http.response.status_code", response.status_code)
        if isinstance(response, EventStreamResponse):
            response.span = span  # ended with the stream
        else:
            if response.status_code >= 500:
                span.set("error.type", str(response.status_code))
            span.end()
        return response

    async def _dispatch(self, route: RouteSpec, request: Request) -> Response:
        request_id = uuid.uuid4().hex
        try:
            principal = await self._principal(request, route)
            args: list[Any] = [request.path_params[name] for name in route.path_params]
            body: Any = None
            if route.request is not None:
                body = self._parse(route.request, await self._read(request))
                args.append(body)
            kwargs = self._query(route, request)
            headers = {k: v for k, v in request.headers.items() if k != "authorization"}
            context = RequestContext(principal, request_id, headers)
            handler = getattr(self.handlers, route.name)
            result = await handler(context, *args, **kwargs)
        except _Answer as answer:
            return answer.response
        except ClientDisconnect:  # gone, or refused by the guard mid-body: nobody to answer
            return Response(status_code=400)
        except OperationError as exc:
            return self.error(exc.error, exc.message, exc.headers)
        except Exception:
            log.exception("%s failed (request %s)", route.name, request_id)
            return self.error("server_error", "internal error")
        return self._answer(route, body, result, request_id)

    def _answer(self, route: RouteSpec, body: Any, result: object, request_id: str) -> Response:
        headers = {"X-Request-Id": request_id}
        if result is None:
            return Response(status_code=route.success_status, headers=headers)
        if isinstance(result, pydantic.BaseModel):
            return Response(
                _body(_dump(result)), route.success_status, headers=headers, media_type=_JSON
            )
        kind = type(result).__name__
        stream = route.stream
        if stream is not None and isinstance(result, EventSource | AsyncIterator):
            mode = str(getattr(body, stream.mode_field, None))
            tags = self._tags.get((route.name, mode))
            if tags is not None:
                source = cast(
                    "EventSource[pydantic.BaseModel] | AsyncIterator[pydantic.BaseModel]", result
                )
                return EventStreamResponse(
                    source, stream, tags, keepalive=self.options.keepalive, headers=headers
                )
        log.error("%s returned %s, which is not its answer", route.name, kind)
        return self.error("server_error", "internal error")


class SSEResponse(Response):
    """An SSE answer fed by an async iterator of event models, each written by :meth:`frame`
    (a subclass says how; one that raises ``ValueError`` ends the stream): a comment line
    every ``keepalive`` seconds of silence, frames ready together in one write, and the
    client's disconnect cancelling the producer at once (its ``finally`` blocks run)."""

    def __init__(
        self,
        events: EventSource[pydantic.BaseModel] | AsyncIterator[pydantic.BaseModel],
        *,
        keepalive: float,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        self.events: EventSource[pydantic.BaseModel] | AsyncIterator[pydantic.BaseModel] = events
        self.keepalive: float = keepalive
        self.span: SpanHandle | None = None
        """The request's span (telemetry on): current while the events are produced, ended
        with the stream."""
        self.status_code = 200
        self.background = None
        self.init_headers(
            {
                "Content-Type": "text/event-stream; charset=utf-8",
                "Cache-Control": "no-cache",
                "X-Accel-Buffering": "no",
                **(headers or {}),
            }
        )

    def frame(self, event: pydantic.BaseModel) -> bytes:
        raise NotImplementedError

    def failed(self, exc: Exception) -> bytes | None:
        """The last frame to send when the producer fails with ``exc`` (``None``: the stream
        just ends; the failure is logged either way)."""
        return None

    async def _produce(self, out: anyio.abc.ObjectSendStream[bytes]) -> None:
        async def emit(event: pydantic.BaseModel) -> None:
            await out.send(self.frame(event))

        async with out:
            events = self.events
            try:
                if isinstance(events, EventSource):
                    await events.run(emit)
                    return
                try:
                    async for event in events:
                        await emit(event)
                finally:  # an async generator is closed here, in this task, however it ends
                    close = getattr(events, "aclose", None)
                    if close is not None:
                        await close()
            except Exception as exc:
                last = self.failed(exc)
                if last is None:
                    raise
                await out.send(last)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await send({"type": "http.response.start", "status": 200, "headers": self.raw_headers})
        out, frames = anyio.create_memory_object_stream[bytes](16)

        async def produce() -> None:
            try:
                if self.span is None:
                    await self._produce(out)
                else:
                    with current(self.span):
                        await self._produce(out)
            except Exception as exc:
                log.exception("an event stream failed; it ends here")
                if self.span is not None:
                    self.span.error(exc)

        async def watch(scope_: anyio.CancelScope) -> None:
            while (await receive())["type"] != "http.disconnect":
                pass
            scope_.cancel()

        try:
            async with anyio.create_task_group() as group:
                group.start_soon(watch, group.cancel_scope)
                group.start_soon(produce)
                async with frames:
                    ended = False
                    while not ended:
                        chunks = [b": keepalive\n\n"]
                        with anyio.move_on_after(self.keepalive):
                            try:
                                chunks = [await frames.receive()]
                            except anyio.EndOfStream:
                                chunks, ended = [], True
                        while not ended:  # what is ready goes out in one write
                            try:
                                chunks.append(frames.receive_nowait())
                            except anyio.WouldBlock:
                                break
                            except anyio.EndOfStream:
                                ended = True
                        body = b"".join(chunks)
                        await send(
                            {"type": "http.response.body", "body": body, "more_body": not ended}
                        )
                group.cancel_scope.cancel()
        except OSError:
            pass  # the client went away while we were writing
        finally:
            if self.span is not None:
                self.span.end()


class EventStreamResponse(SSEResponse):
    """The SSE answer of a REST stream operation: ``event: <name>`` + ``data: <json>``, the
    name being the event's discriminator (left out of the JSON), one of the mode's."""

    def __init__(
        self,
        events: EventSource[pydantic.BaseModel] | AsyncIterator[pydantic.BaseModel],
        stream: StreamSpec,
        allowed: frozenset[str],
        *,
        keepalive: float,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(events, keepalive=keepalive, headers=headers)
        self.stream: StreamSpec = stream
        self.allowed: frozenset[str] = allowed

    def frame(self, event: pydantic.BaseModel) -> bytes:
        data = _dump(event)
        name = data.pop(self.stream.discriminator, None)
        if not isinstance(name, str) or name not in self.allowed:
            raise ValueError(f"event {name!r} is not one this stream mode carries")
        return b"event: " + name.encode() + b"\ndata: " + _body(data) + b"\n\n"


def route_app(
    routes: tuple[RouteSpec, ...],
    handlers: object,
    *,
    error_status: Mapping[str, int],
    authenticate: Authenticate,
    options: RouteOptions | None = None,
    lifespan: Callable[[Starlette], AbstractAsyncContextManager[None]] | None = None,
    guard: GuardPolicy | None = None,
) -> Starlette:
    """A Starlette app serving ``routes`` with ``handlers`` (see the module docstring), behind
    :class:`~agentproto._runtime.guard.Guard` with the ``guard`` policy (Host, Origin, JSON
    bodies, body size, deadline and nesting) when one is given."""
    server = RouteServer(
        routes,
        handlers,
        error_status=error_status,
        authenticate=authenticate,
        options=options or RouteOptions(),
    )

    def endpoint(route: RouteSpec) -> Callable[[Request], Awaitable[Response]]:
        async def serve(request: Request) -> Response:
            return await server.dispatch(route, request)

        return serve

    async def http_error(request: Request, exc: Exception) -> Response:
        status = exc.status_code if isinstance(exc, HTTPException) else 500
        name, text = {
            404: ("not_found", "no such route"),
            405: ("method_not_allowed", "method not allowed"),
        }.get(status, ("bad_request", "bad request"))
        return server.error(name, text)

    async def internal_error(request: Request, exc: Exception) -> Response:
        log.error("unhandled %s", type(exc).__name__, exc_info=exc)
        return server.error("server_error", "internal error")

    app = Starlette(
        routes=[Route(r.path, endpoint(r), methods=[r.method]) for r in routes],
        exception_handlers={HTTPException: http_error, Exception: internal_error},
        lifespan=lifespan,
        middleware=[] if guard is None else [Middleware(Guard, policy=guard)],
    )
    app.state.route_server = server
    return app
