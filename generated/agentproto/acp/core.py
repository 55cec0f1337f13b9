"""What the ACP connections of every protocol version share (v1 in ``agentproto.acp``, the
draft v2 in ``agentproto.acp.v2``): routing the peer's calls to a handler object, typed calls
to the peer, the ``initialize`` exchange each connection remembers (the negotiated version, the
peer's capabilities), capability checks, and the blocking connection's loop thread.

Each version's ``connection`` module is generated from its schema's method table and holds the
typed surface (handler classes, connection classes with one method per call, the route
tables); it describes itself to this module with an :class:`Edition`. The JSON-RPC machinery
below all of it is ``agentproto._runtime.jsonrpc``: a :class:`Connection` over any byte stream
(a spawned agent's pipes, this process's stdio, or any ``StreamReader`` and writer pair).
"""

from __future__ import annotations

import asyncio
import functools
import importlib
import inspect
import logging
import threading
import warnings
import weakref
from collections.abc import Awaitable, Callable, Coroutine, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, NamedTuple, TypeVar, cast

from agentproto._runtime.errors import AgentprotoError
from agentproto._runtime.json_types import JSONValue
from agentproto._runtime.jsonrpc import (
    Connection,
    InternalError,
    InvalidParams,
    MethodNotFound,
    ProtocolError,
    RawJSON,
    RpcError,
    Subprocess,
    end_process_groups,
    start_eagerly,
)
from agentproto._runtime.sync_loop import LoopThread
from agentproto._runtime.telemetry import (
    SpanHandle,
    Telemetry,
    context_with,
    extract,
    inject,
    shared,
)

if TYPE_CHECKING:
    from pydantic import BaseModel
    from pydantic_core import ErrorDetails

logger: logging.Logger = logging.getLogger("agentproto.acp")
_T = TypeVar("_T")
INSTRUMENTATION = "agentproto.acp"
"""The instrumentation name of ACP's spans (see :func:`traced_attributes`)."""

Side = Literal["agent", "client"]
"""The two sides of ACP: the agent, and the client (the editor)."""


class UnstableMethodError(AgentprotoError, RuntimeError):
    """An unstable ACP method was used without opting in (``unstable=True``)."""


class CapabilityError(ProtocolError):
    """A call the peer did not advertise in ``initialize`` (``capability`` is the path in its
    capabilities, e.g. ``fs.readTextFile``), refused before anything was sent. Connections made
    with ``check_capabilities=False`` send such calls anyway (for peers that under-advertise)."""

    def __init__(self, method: str, capability: str, message: str) -> None:
        super().__init__(method, capability, message)
        Exception.__init__(self, message)  # the message as given, not "malformed answer"
        self.capability: str = capability


class VersionError(ProtocolError):
    """The agent answered ``initialize`` with a protocol version that was not offered (or
    none); ``version`` is what it answered (``None``: no integer)."""

    def __init__(self, version: int | None, offered: tuple[int, ...]) -> None:
        shown = "no version" if version is None else f"protocol version {version}"
        message = f"the agent answered initialize with {shown}; offered: {list(offered)}"
        super().__init__("initialize", "protocolVersion", message)
        Exception.__init__(self, message)  # the message as given, not "malformed answer"
        self.version: int | None = version
        self.offered: tuple[int, ...] = offered


class Route(NamedTuple):
    """One method of a side's route table (``AGENT_METHODS`` / ``CLIENT_METHODS`` of a
    version's connection module), keyed by its Python name there."""

    rpc: str  # the JSON-RPC method
    request: str  # request (or notification) model
    response: str | None  # response model; None for notifications
    notification: bool
    unstable: bool
    capability: str | None = None  # what the handling side must advertise before it is called


@dataclass(frozen=True)
class UnhandledMessage:
    """A request or notification from the peer that no typed handler method could take:
    ``reason`` says why. ``invalid``: its params do not match the method's schema (``errors``
    says where; a request is then answered -32602); ``unknown``: a method this version does
    not know (a request is answered -32601); ``unstable``: an unstable method the handler did
    not opt in to (answered -32601). ``params`` are as sent. Delivered to the handler's
    ``unhandled_message`` (by default: logged as a warning), so nothing a peer sends is lost
    without a word. Extension methods (``_``-prefixed) go to ``ext_method`` /
    ``ext_notification`` instead."""

    method: str
    params: JSONValue
    reason: Literal["invalid", "unknown", "unstable"]
    request: bool
    errors: tuple[ErrorDetails, ...] = ()


@dataclass(frozen=True)
class Edition:
    """A version of the protocol as a generated connection module describes it."""

    version: int
    models: str  # the models module
    unstable_models: str
    agent_methods: Mapping[str, Route]  # what the agent handles, by Python name
    client_methods: Mapping[str, Route]  # what the client (editor) handles
    hot: tuple[str, ...] = ()  # models whose validators warm_up() builds
    handshake: str = "initialize"
    request_capabilities: str = "clientCapabilities"  # field of the handshake's request
    response_capabilities: str = "agentCapabilities"  # field of its response
    _by_rpc: dict[tuple[Side, str, bool], tuple[str, Route]] = field(
        default_factory=dict[tuple[Side, str, bool], tuple[str, Route]], compare=False, repr=False
    )

    def routes(self, side: Side) -> Mapping[str, Route]:
        """What ``side`` handles."""
        return self.agent_methods if side == "agent" else self.client_methods

    def lookup(self, side: Side, rpc: str, notification: bool) -> tuple[str, Route] | None:
        """The route ``side`` handles for ``rpc`` (a request or a notification)."""
        if not self._by_rpc:
            for handler_side in ("agent", "client"):
                for name, route in self.routes(handler_side).items():
                    self._by_rpc[handler_side, route.rpc, route.notification] = (name, route)
        return self._by_rpc.get((side, rpc, notification))

    def model(self, name: str, unstable: bool) -> type[BaseModel]:
        """A model class, imported on first use (importing a connection module loads none)."""
        return _model(self.unstable_models if unstable else self.models, name)

    def warm_up(self) -> None:
        """Import the models and build the validators of the hot messages on a background
        thread, once per process (the models load lazily: importing a connection module
        costs none of it). Called when a connection is made: the work overlaps the peer's
        start-up, and the first message waits for what is left of it (:meth:`until_warm`)
        rather than having a later one pay it."""
        state = _warmth(self.models)
        if state.started.is_set():
            return
        state.started.set()

        def build() -> None:
            try:
                for name in self.hot:
                    self.model(name, False).model_rebuild()
            except Exception:  # only an optimisation: the first call builds what is missing
                logger.debug("warming up the ACP models failed", exc_info=True)
            finally:
                state.done.set()

        threading.Thread(target=build, name="acp-warm-up", daemon=True).start()

    def until_warm(self) -> None:
        """Wait (2 s at most) for :meth:`warm_up` to finish, if it runs."""
        if self.models in _WARM:  # asked of every message: the common case first
            return
        state = _warmth(self.models)
        if state.started.is_set() and not state.done.is_set():
            state.done.wait(2.0)
        if state.done.is_set():
            _WARM.add(self.models)


@functools.cache
def _model(module: str, name: str) -> type[BaseModel]:
    """The model of a request or response type; one that is an alias (a union, ``Any``) is
    wrapped in a root model of its own name, so that every type validates alike."""
    from pydantic import BaseModel as Model
    from pydantic import RootModel

    found = getattr(importlib.import_module(module), name)
    if isinstance(found, type) and issubclass(found, Model):
        return found
    wrapped: type[BaseModel] = type(name, (RootModel[found],), {"__module__": module})  # type: ignore[valid-type]
    return wrapped


_WARM: set[str] = set()  # the model modules warm_up() has finished with


class _Warmth(NamedTuple):
    started: threading.Event
    done: threading.Event


@functools.cache
def _warmth(models: str) -> _Warmth:
    return _Warmth(threading.Event(), threading.Event())


@functools.cache
def _peer_context() -> Mapping[str, bool]:
    """The validation context of what a peer sends (open unions keep a known variant whose
    data does not match as their ``Invalid...`` variant); imported with the first message."""
    from agentproto._runtime.base import PEER_CONTEXT

    return PEER_CONTEXT


_MODEL_TYPES: dict[type, bool] = {}  # is the type a pydantic model (asked once per type)


def _is_model(value: object) -> bool:
    # Duck-typed, so that importing this module does not import pydantic (~100 ms); asked of
    # each message sent, so the answer is kept per type (``model_fields`` on a class goes
    # through a pydantic descriptor: 0.6 us a time).
    kind = type(value)
    if kind is dict or value is None:
        return False
    known = _MODEL_TYPES.get(kind)
    if known is None:
        known = _MODEL_TYPES[kind] = hasattr(kind, "model_dump_json") and hasattr(
            kind, "model_fields"
        )
    return known


class _Kind(NamedTuple):
    """What a message is checked and written with: its model's validator and serializer,
    read once per model class (an attribute of a pydantic model class goes through its
    metaclass's ``__getattr__`` hook: about 0.7 us a read, several reads a message)."""

    validate: Callable[..., Any]  # the validator's ``validate_python``
    to_json: Callable[..., bytes]  # the serializer's ``to_json``
    root: bool  # a root model (a union or alias wrapped): its value is ``.root``
    name: str


_KINDS: dict[type, _Kind] = {}


def _kind(model: type[BaseModel]) -> _Kind:
    kind = _KINDS.get(model)
    if kind is None:
        # (a model not built yet is built by the first read of its validator's method)
        kind = _Kind(
            model.__pydantic_validator__.validate_python,
            model.__pydantic_serializer__.to_json,
            bool(model.__pydantic_root_model__),
            model.__name__,
        )
        _KINDS[model] = kind
    return kind


def _wire(model: Any) -> RawJSON:
    """A model as wire JSON (wire names, no nulls): what ``model_dump_json(by_alias=True,
    exclude_none=True)`` gives, as bytes, without its wrapper's decode and re-encode."""
    cls = cast("type[BaseModel]", type(model))
    kind = _KINDS.get(cls) or _kind(cls)
    return RawJSON(kind.to_json(model, by_alias=True, exclude_none=True))


def dump(value: Any) -> Any:
    """A model as wire JSON, encoded by pydantic directly (wire names, no nulls)."""
    if _is_model(value):
        return _wire(value)
    return {} if value is None else value


def _validation_errors(exc: Exception) -> list[ErrorDetails] | None:
    """pydantic's error list of a ``ValidationError``; None for any other exception."""
    from pydantic import ValidationError  # loaded already: the model is pydantic's

    if not isinstance(exc, ValidationError):
        return None
    return exc.errors(include_url=False, include_context=False)


def protocol_error(method: str, exc: Exception) -> ProtocolError:
    """A malformed answer's validation error, as a :class:`ProtocolError` naming the field."""
    errors = _validation_errors(exc)
    if not errors:
        return ProtocolError(method, "", str(exc))
    field_name = ".".join(str(part) for part in errors[0]["loc"])
    return ProtocolError(method, field_name, errors[0]["msg"], errors)


def _json_of(payload: Any) -> JSONValue:
    """What a payload given to the connection is on the wire, as JSON values."""
    if isinstance(payload, RawJSON):
        from pydantic_core import from_json

        value: JSONValue = from_json(bytes(payload))
        return value
    if _is_model(payload):
        dumped: JSONValue = payload.model_dump(mode="json", by_alias=True, exclude_none=True)
        return dumped
    return cast("dict[str, JSONValue]", payload) if isinstance(payload, dict) else {}


class Handshake:
    """The ``initialize`` exchange of one connection, as it went over the wire: the request
    (the client's capabilities) and the response (the negotiated version, the agent's
    capabilities). Shared by a connection's caller and its dispatch."""

    def __init__(self, edition: Edition) -> None:
        self.edition = edition
        self.request: dict[str, JSONValue] | None = None
        self.response: dict[str, JSONValue] | None = None

    def record(self, request: JSONValue, response: JSONValue) -> None:
        self.request = request if isinstance(request, dict) else {}
        self.response = response if isinstance(response, dict) else {}

    @property
    def done(self) -> bool:
        return self.response is not None

    @property
    def version(self) -> int | None:
        """The protocol version the agent answered (``None`` before ``initialize``)."""
        value = (self.response or {}).get("protocolVersion")
        return value if isinstance(value, int) and not isinstance(value, bool) else None

    def capabilities(self, side: Side) -> dict[str, JSONValue]:
        """What ``side`` advertised (empty before ``initialize``)."""
        if side == "agent":
            found = (self.response or {}).get(self.edition.response_capabilities)
        else:
            found = (self.request or {}).get(self.edition.request_capabilities)
        return found if isinstance(found, dict) else {}

    def advertises(self, side: Side, path: str) -> bool:
        """``side`` advertised the capability at ``path`` (``true``, or an object)."""
        value: JSONValue = self.capabilities(side)
        for part in path.split("."):
            if not isinstance(value, dict):
                return False
            value = value.get(part)
        return value is not None and value is not False


# -- telemetry -------------------------------------------------------------------------------

_PROMPTS = frozenset({"session/prompt"})


def traced_attributes(method: str, params: Any, handshake: Handshake) -> dict[str, Any]:
    """The attributes of an ACP request's span: the JSON-RPC method, the session, the
    protocol version; a prompt is a GenAI ``invoke_agent`` operation whose conversation is
    the session."""
    attributes: dict[str, Any] = {"rpc.system": "jsonrpc", "rpc.method": method}
    fields = cast("dict[str, Any]", params) if isinstance(params, dict) else {}
    session = fields.get("sessionId")
    if isinstance(session, str):
        attributes["acp.session.id"] = session
        attributes["gen_ai.conversation.id"] = session
    if handshake.version is not None:
        attributes["acp.protocol.version"] = handshake.version
    if method in _PROMPTS:
        attributes["gen_ai.operation.name"] = "invoke_agent"
        info = (handshake.response or {}).get("agentInfo")
        name = info.get("name") if isinstance(info, dict) else None
        if isinstance(name, str):
            attributes["gen_ai.agent.name"] = name
    return attributes


def traced_result(span: SpanHandle, method: str, result: Any) -> None:
    """What an answer adds to its request's span: a new session's id, a prompt's stop
    reason."""
    if not isinstance(result, dict):
        return
    fields = cast("dict[str, Any]", result)
    session = fields.get("sessionId")
    if isinstance(session, str):
        span.set("acp.session.id", session)
        span.set("gen_ai.conversation.id", session)
    reason = fields.get("stopReason")
    if isinstance(reason, str):
        span.set("acp.stop_reason", reason)
        span.set("gen_ai.response.finish_reasons", [reason])


# -- handlers --------------------------------------------------------------------------------


async def _invoke(function: Any, *args: Any) -> Any:
    """Call a handler method: awaited when async, on a worker thread when blocking."""
    if inspect.iscoroutinefunction(function):
        return await function(*args)
    return await asyncio.get_running_loop().run_in_executor(None, function, *args)


class _Target(NamedTuple):
    """A route resolved against one handler object (looked up once per method)."""

    function: Any
    model: _Kind  # the params' model
    awaitable: bool  # an ``async def``; otherwise a request runs on a worker thread
    response: type[BaseModel] | None  # what a request handler must return
    response_root: bool  # the response model is a root model (always validated)


class _Unhandled(AgentprotoError):
    """A message no typed handler method takes (raised and caught inside :class:`Dispatch`)."""

    def __init__(self, message: UnhandledMessage, error: Exception) -> None:
        super().__init__(message.reason)
        self.message = message
        self.error = error


class Dispatch:
    """Routes the peer's calls to a handler object of ``side``, validating params into models
    (what the peer sent: a known union variant whose data does not match becomes its
    ``Invalid...`` variant). What cannot be taken is delivered to the handler's
    ``unhandled_message`` (and a request answered with the protocol's error)."""

    def __init__(
        self,
        handler: Any,
        edition: Edition,
        side: Side,
        unstable: bool,
        handshake: Handshake | None = None,
    ) -> None:
        self.handler = handler
        self.edition = edition
        self.side: Side = side
        self.unstable = unstable
        self.handshake: Handshake = handshake if handshake is not None else Handshake(edition)
        self._targets: dict[tuple[str, bool], _Target] = {}

    def _target(self, method: str, params: JSONValue, notification: bool) -> _Target | None:
        target = self._targets.get((method, notification))
        if target is not None:
            return target
        found = self.edition.lookup(self.side, method, notification)
        if found is None:
            if method.startswith("_"):
                return None
            raise _Unhandled(
                UnhandledMessage(method, params, "unknown", not notification),
                MethodNotFound(f"the {self.side} has no method {method!r}"),
            )
        name, route = found
        if route.unstable and not self.unstable:
            raise _Unhandled(
                UnhandledMessage(method, params, "unstable", not notification),
                MethodNotFound(
                    f"{method!r} is an unstable method and this {self.side} did not opt in"
                ),
            )
        function = getattr(self.handler, name)
        response = (
            self.edition.model(route.response, route.unstable)
            if route.response is not None
            else None
        )
        target = _Target(
            function,
            _kind(self.edition.model(route.request, route.unstable)),
            inspect.iscoroutinefunction(function),
            response,
            response is not None and _kind(response).root,
        )
        self._targets[method, notification] = target
        return target

    @staticmethod
    def _params(method: str, model: _Kind, params: Any, notification: bool) -> Any:
        """The handler's argument: the request model (a union's member, never its root)."""
        try:
            # ``model_validate`` without its Python wrapper: this runs for every message
            value = model.validate(params if params is not None else {}, context=_peer_context())
            return value.root if model.root else value
        except Exception as exc:
            errors = _validation_errors(exc)
            if errors is None:
                raise
            message = UnhandledMessage(method, params, "invalid", not notification, tuple(errors))
            raise _Unhandled(
                message, InvalidParams(f"invalid params for {model.name}", errors)
            ) from None

    async def _deliver(self, unhandled: _Unhandled) -> None:
        """Give the handler what it could not take as typed (its failure only logged)."""
        try:
            await _invoke_hook(self.handler.unhandled_message, unhandled.message)
        except Exception:
            logger.exception("the %s's unhandled_message hook failed", self.side)

    async def request(self, method: str, params: Any) -> Any:
        telemetry = shared(INSTRUMENTATION)
        if telemetry.active:
            return await self._traced(telemetry, method, params)
        return await self._request(method, params)

    async def _traced(self, telemetry: Telemetry, method: str, params: Any) -> Any:
        """:meth:`_request` inside a SERVER span, a child of the trace context the caller
        sent in ``_meta`` (else of the current span)."""
        meta = cast("dict[str, Any]", params).get("_meta") if isinstance(params, dict) else None
        parent = extract(cast("dict[str, Any]", meta)) if isinstance(meta, dict) else None
        span = telemetry.start(method, kind="server", parent=parent)
        if not span.recording:
            return await self._request(method, params)
        span.set_many(traced_attributes(method, params, self.handshake))
        # The handler runs in a task whose context has the span current (this coroutine may
        # have started eagerly in the reader's context and go on in another): what it calls
        # (an LLM, an MCP tool, the editor) becomes the span's children.
        work = asyncio.get_running_loop().create_task(
            self._request(method, params), context=context_with(span)
        )
        try:
            result = await work
        except BaseException as exc:
            if isinstance(exc, RpcError):
                span.set("rpc.response.status_code", str(exc.code))
            span.error(exc)
            span.end()
            raise
        traced_result(span, method, _json_of(result))
        span.end()
        return result

    async def _request(self, method: str, params: Any) -> Any:
        self.edition.until_warm()
        try:
            target = self._target(method, params, notification=False)
            if target is None:  # an extension method
                return await _invoke(self.handler.ext_method, method, params)
            args = self._params(method, target.model, params, notification=False)
        except _Unhandled as unhandled:
            await self._deliver(unhandled)
            raise unhandled.error from None
        if target.awaitable:
            result = await target.function(args)
        else:
            result = await asyncio.get_running_loop().run_in_executor(None, target.function, args)
        checked = self._checked(method, target, result)
        if method == self.edition.handshake and self.side == "agent":
            self.handshake.record(params, _json_of(checked))
        return dump(checked)

    def _checked(self, method: str, target: _Target, result: Any) -> Any:
        """The handler's result as its response model: a model or mapping that does not match
        is logged here and answered -32603 (never sent as it is)."""
        model = target.response
        if model is None or (
            (type(result) is model or isinstance(result, model)) and not target.response_root
        ):
            return result
        try:
            if _is_model(result):
                result = result.model_dump(mode="json", by_alias=True, exclude_none=True)
            return model.model_validate({} if result is None else result)
        except Exception as exc:
            logger.error(
                "the %s's handler for %r returned an invalid %s: %s",
                self.side,
                method,
                model.__name__,
                exc,
            )
            raise InternalError("internal error") from None

    async def notify(self, method: str, params: Any) -> None:
        self.edition.until_warm()
        try:
            target = self._target(method, params, notification=True)
            if target is None:  # an extension notification
                function = self.handler.ext_notification
                if inspect.iscoroutinefunction(function):
                    await function(method, params)
                else:
                    function(method, params)
                return
            args = self._params(method, target.model, params, notification=True)
        except _Unhandled as unhandled:
            await self._deliver(unhandled)
            return
        if target.awaitable:
            await target.function(args)
        else:
            # A blocking notification handler runs here, on the connection's thread, in
            # arrival order: a thread hop per notification would cost more than most take.
            target.function(args)


async def _invoke_hook(
    function: Callable[[UnhandledMessage], Any], message: UnhandledMessage
) -> None:
    """A hook of a handler: awaited when async, called in place when blocking (it runs on the
    connection's thread, in arrival order, like a notification handler)."""
    result = function(message)
    if inspect.isawaitable(result):
        await result


def log_unhandled(side: str, message: UnhandledMessage) -> None:
    """What the handlers' default ``unhandled_message`` does: a warning naming the method and
    the first problem (the params stay out of the log: they may hold anything)."""
    where = ""
    if message.errors:
        first = message.errors[0]
        where = f": {'.'.join(str(p) for p in first['loc']) or 'params'}: {first['msg']}"
    kind = "request" if message.request else "notification"
    logger.warning(
        "the %s could not take a %s %r (%s)%s", side, kind, message.method, message.reason, where
    )


class HandlerBase:
    """What every handler (:class:`~agentproto.acp.Agent`, ``Client``) has besides the typed
    methods: extension methods and the hook for what does not match the schema."""

    _side: str = "handler"

    async def ext_method(self, method: str, params: Any) -> Any:
        """An extension request (``_``-prefixed method); -32601 by default."""
        raise MethodNotFound(method)

    async def ext_notification(self, method: str, params: Any) -> None:
        """An extension notification (``_``-prefixed method); ignored by default."""
        return None

    async def unhandled_message(self, message: UnhandledMessage) -> None:
        """A request or notification no typed method could take (see
        :class:`UnhandledMessage`); by default a warning on the ``agentproto.acp`` logger."""
        log_unhandled(self._side, message)


class SyncHandlerBase:
    """:class:`HandlerBase` for blocking handlers (``SyncClient``): these methods run on the
    connection's thread (``ext_method`` on a worker thread)."""

    _side: str = "client"

    def ext_method(self, method: str, params: Any) -> Any:
        """An extension request (``_``-prefixed method); -32601 by default."""
        raise MethodNotFound(method)

    def ext_notification(self, method: str, params: Any) -> None:
        """An extension notification (``_``-prefixed method); ignored by default."""
        return None

    def unhandled_message(self, message: UnhandledMessage) -> None:
        """A request or notification no typed method could take (see
        :class:`UnhandledMessage`); by default a warning on the ``agentproto.acp`` logger."""
        log_unhandled(self._side, message)


# -- calls -----------------------------------------------------------------------------------


class Caller:
    """Typed calls to the peer over one JSON-RPC connection (each version's
    ``AgentConnection`` and ``ClientConnection`` add one method per call)."""

    _peer: Side = "agent"

    def __init__(
        self,
        connection: Connection,
        edition: Edition,
        *,
        unstable: bool = False,
        process: Subprocess | None = None,
        handshake: Handshake | None = None,
        check_capabilities: bool = True,
    ) -> None:
        self.connection = connection
        self.edition = edition
        self.unstable = unstable
        self.process = process
        self.handshake: Handshake = handshake if handshake is not None else Handshake(edition)
        self.check_capabilities = check_capabilities
        """Refuse a call the peer did not advertise (:class:`CapabilityError`) before sending
        it; ``False`` for peers that under-advertise."""
        self._routes = edition.routes(self._peer)

    @property
    def protocol_version(self) -> int | None:
        """The protocol version of this connection: what the agent answered ``initialize``
        with (``None`` before that)."""
        return self.handshake.version

    @property
    def peer_capabilities(self) -> dict[str, JSONValue]:
        """What the peer advertised in ``initialize``, as sent (empty before that)."""
        return self.handshake.capabilities(self._peer)

    def _check(self, name: str) -> Route:
        route = self._routes[name]
        if route.unstable and not self.unstable:
            raise UnstableMethodError(
                f"{route.rpc!r} is an unstable ACP method: create the connection with unstable=True"
            )
        if route.capability is not None and self.check_capabilities:
            if not self.handshake.done:
                raise CapabilityError(
                    route.rpc,
                    route.capability,
                    f"{route.rpc!r} needs the {self._peer}'s {route.capability!r} capability, and "
                    "initialize has not been answered yet (or create the connection with "
                    "check_capabilities=False)",
                )
            if not self.handshake.advertises(self._peer, route.capability):
                raise CapabilityError(
                    route.rpc,
                    route.capability,
                    f"the {self._peer} did not advertise the {route.capability!r} capability "
                    f"that {route.rpc!r} needs (or create the connection with "
                    "check_capabilities=False)",
                )
        return route

    def _payload(self, route: Route, params: Any) -> Any:
        if not _is_model(params):
            # A mapping: checked against the request model (``model_validate`` without its
            # Python wrapper: the same validator, the same ValidationError). A model was
            # checked when it was made.
            params = _kind(self.edition.model(route.request, route.unstable)).validate(params)
        return _wire(params)

    async def _call(self, name: str, params: Any) -> Any:
        self.edition.until_warm()
        route = self._check(name)
        payload = self._payload(route, params)
        telemetry = shared(INSTRUMENTATION)
        if telemetry.active:
            return await self._traced(telemetry, route, payload)
        raw = await self.connection.request(route.rpc, payload)
        return self._answer(route, payload, raw)

    async def _traced(self, telemetry: Telemetry, route: Route, payload: Any) -> Any:
        """The call inside a CLIENT span whose trace context goes in the request's ``_meta``
        (``traceparent``, ``tracestate``, ``baggage``: root keys, as the extensibility rules
        reserve them)."""
        sent: Any = payload
        span = telemetry.start(route.rpc, kind="client")
        if span.recording:
            data = _json_of(payload)
            params = dict(data) if isinstance(data, dict) else {}
            span.set_many(traced_attributes(route.rpc, params, self.handshake))
            meta = params.get("_meta")
            carrier: dict[str, Any] = dict(meta) if isinstance(meta, dict) else {}
            inject(carrier, span)
            params["_meta"] = carrier
            sent = params
        try:
            raw = await self.connection.request(route.rpc, sent)
            answer = self._answer(route, payload, raw)
        except BaseException as exc:
            if isinstance(exc, RpcError):
                span.set("rpc.response.status_code", str(exc.code))
            span.error(exc)
            span.end()
            raise
        if span.recording:
            traced_result(span, route.rpc, raw)
        span.end()
        return answer

    def _answer(self, route: Route, payload: Any, raw: Any) -> Any:
        """The peer's answer to ``route`` as its response model."""
        assert route.response is not None
        if route.rpc == self.edition.handshake and self._peer == "agent":
            self.handshake.record(_json_of(payload), raw)
        try:
            model = _kind(self.edition.model(route.response, route.unstable))
            return model.validate(raw if raw is not None else {}, context=_peer_context())
        except ValueError as exc:  # pydantic's ValidationError
            raise protocol_error(route.rpc, exc) from exc

    async def _notify(self, name: str, params: Any) -> None:
        self.edition.until_warm()
        route = self._check(name)
        await self.connection.notify(route.rpc, self._payload(route, params))

    async def ext_method(self, method: str, params: Any = None) -> Any:
        """Call an extension method (its name must start with ``_``)."""
        if not method.startswith("_"):
            raise ValueError("extension methods start with '_'")
        return await self.connection.request(method, params)

    async def ext_notification(self, method: str, params: Any = None) -> None:
        """Send an extension notification (its name must start with ``_``)."""
        if not method.startswith("_"):
            raise ValueError("extension notifications start with '_'")
        await self.connection.notify(method, params)

    async def close(self) -> None:
        """Close the connection (and end a spawned agent, see :meth:`Subprocess.close`)."""
        if self.process is not None:
            await self.process.close()
        else:
            await self.connection.close()


# -- the blocking editor -----------------------------------------------------------------------


def _shut_down(loop: LoopThread, connection: Caller, timeout: float) -> None:
    """Close the connection (and end the agent's process group) and stop the loop thread;
    returns within about ``timeout`` seconds whatever state they are in."""
    if not loop.running:
        return
    if loop.in_loop_thread:
        # From a handler on the connection's own thread, inside the read that delivered its
        # message: closed now (the later lines of that read are not handled, calls in flight
        # fail with ConnectionClosed), the process ended there, without waiting.
        connection.connection.close_now()
        task = loop.loop.create_task(connection.close())
        task.add_done_callback(lambda _: loop.stop())
        _closing.add(task)
        task.add_done_callback(_closing.discard)
        return
    try:
        loop.run(connection.close(), timeout)
    except BaseException:
        logger.warning(
            "closing the connection to %s did not finish", connection.connection.name, exc_info=True
        )
        raise
    finally:
        process = connection.process
        if process is not None and not process.ended:
            end_process_groups(0.5, [process.pgid])  # the loop was stuck: end the agent here
        loop.stop()


_closing: set[asyncio.Task[None]] = set()


def _abandoned(loop: LoopThread, connection: Caller, name: str) -> None:
    """A blocking connection was never closed (garbage-collected, or still open at exit):
    warn, and shut it down."""
    warnings.warn(f"unclosed SyncAgentConnection to {name}", ResourceWarning, stacklevel=2)
    try:
        _shut_down(loop, connection, 10.0)
    except BaseException:  # nowhere to raise to
        logger.debug("cleaning up an unclosed connection failed", exc_info=True)


def start_loop(name: str, start: Callable[[], Awaitable[_T]]) -> tuple[LoopThread, _T]:
    """A new loop thread named ``name``, and what ``start`` (making an async connection on
    it) returned; the thread is stopped if ``start`` fails."""
    loop = LoopThread(name)

    async def run() -> _T:
        return await start()

    try:
        return loop, loop.run(run())
    except BaseException:
        loop.stop()
        raise


class SyncCaller:
    """The machinery of a version's blocking ``SyncAgentConnection``: the connection runs on
    a private event loop thread; each call waits for its answer there.

    A notification handler runs on that thread: it may send notifications (written at once,
    without waiting for an answer) and ``close()`` the connection (closed at once: nothing
    read after that message is handled), but a call that needs an answer raises
    ``RuntimeError`` at once there (the answer could only be read by that same thread).
    ``close()`` always returns; a connection never closed warns (``ResourceWarning``) and is
    shut down when garbage-collected or at exit."""

    def __init__(self, loop: LoopThread, connection: Caller) -> None:
        self._loop = loop
        self._caller = connection
        self._sending: set[asyncio.Task[None]] = set()
        name = connection.connection.name
        self._finalizer = weakref.finalize(self, _abandoned, loop, connection, name)

    @property
    def closed(self) -> bool:
        return not self._finalizer.alive

    @property
    def protocol_version(self) -> int | None:
        """The protocol version the agent answered ``initialize`` with (``None`` before)."""
        return self._caller.protocol_version

    @property
    def peer_capabilities(self) -> dict[str, JSONValue]:
        """What the agent advertised in ``initialize``, as sent (empty before that)."""
        return self._caller.peer_capabilities

    @property
    def check_capabilities(self) -> bool:
        """Refuse a call the agent did not advertise before sending it (see
        :class:`CapabilityError`)."""
        return self._caller.check_capabilities

    @check_capabilities.setter
    def check_capabilities(self, value: bool) -> None:
        self._caller.check_capabilities = value

    def close(self, timeout: float = 10.0) -> None:
        """Close the connection and end the agent (see :meth:`Subprocess.close`); returns
        within about ``timeout`` seconds in any case (then the agent's group is killed).
        From a notification handler it closes at once and ends the agent without waiting; a
        later ``close()`` from another thread waits (``timeout``) for that to finish."""
        if self._finalizer.detach() is not None:
            _shut_down(self._loop, self._caller, timeout)
        else:
            self._loop.join(timeout)

    def _run(self, coro: Coroutine[Any, Any, _T], timeout: float | None) -> _T:
        if self._loop.in_loop_thread:
            coro.close()
            raise RuntimeError(
                "a call that waits for the agent's answer cannot be made from a notification "
                "handler (it runs on the connection's thread, which reads that answer): make it "
                "from another thread, or from a request handler"
            )
        return self._loop.run(coro, timeout)

    def _send(self, coro: Coroutine[Any, Any, None], timeout: float | None) -> None:
        if not self._loop.in_loop_thread:
            self._loop.run(coro, timeout)
            return
        # From a notification handler: written now, in order with what the handler does
        # next (a close() right after it must not lose it); only a wait for a full pipe
        # goes on in a task.
        task = start_eagerly(coro)
        if task is not None:
            self._sending.add(task)
            task.add_done_callback(self._sent)

    def _sent(self, task: asyncio.Task[None]) -> None:
        self._sending.discard(task)
        if not task.cancelled() and task.exception() is not None:
            logger.warning("a notification to the agent failed: %s", task.exception())

    def ext_method(self, method: str, params: Any = None, *, timeout: float | None = None) -> Any:
        """Call an extension method (its name must start with ``_``)."""
        return self._run(self._caller.ext_method(method, params), timeout)

    def ext_notification(
        self, method: str, params: Any = None, *, timeout: float | None = None
    ) -> None:
        """Send an extension notification (its name must start with ``_``)."""
        self._send(self._caller.ext_notification(method, params), timeout)
