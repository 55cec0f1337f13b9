"""JSON-RPC 2.0 between two peers over one long-lived connection (a subprocess's pipes, this
process's stdio, a WebSocket), for the protocols the generator renders from a spec table.

:class:`AsyncRpcPeer` makes typed calls over a :class:`~agentproto._runtime.jsonrpc.Connection`
(the same :class:`~agentproto._runtime.jsonrpc_http.RpcMethod` descriptions the HTTP carrier
uses, so a call reads the same over every carrier); :class:`TypedDispatcher` serves a
generated handler (one typed method per operation) on such a connection, as the HTTP server
does: params validated (-32602 saying where, never the input), the table's errors answered
with their code, any other exception -32603 with a fixed text, results in wire form.

Streamed methods are an HTTP concept (an SSE answer per call); over these carriers they are
not offered.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any, TypeVar

from agentproto._runtime.base import PEER_CONTEXT, wire_form
from agentproto._runtime.http_errors import ResponseValidationError
from agentproto._runtime.jsonrpc import (
    JSON,
    Connection,
    InternalError,
    InvalidParams,
    MethodNotFound,
    RpcError,
    spawn,
    stdio_connection,
)
from agentproto._runtime.jsonrpc_http import ErrorTable, RpcMethod
from agentproto._runtime.jsonrpc_server import RpcRoute, params_problem
from agentproto._runtime.limits import Limits
from agentproto._runtime.redact import Secret
from agentproto._runtime.routes import RequestContext
from agentproto._runtime.sync_loop import LoopThread

log: logging.Logger = logging.getLogger("agentproto.jsonrpc")
T = TypeVar("T")


def _typed_error(error: RpcError, errors: ErrorTable) -> RpcError:
    """The protocol's class for a received error (the connection knows only the standard
    codes), message and data kept."""
    kind = errors.get(error.code)
    if kind is None or isinstance(error, kind):
        return error
    return kind(error.message, error.data, code=error.code)


class AsyncRpcPeer:
    """Typed calls to the peer at the other end of ``connection``; ``close`` ends what carries
    it (the WebSocket, the subprocess)."""

    def __init__(
        self,
        connection: Connection,
        errors: ErrorTable,
        close: Callable[[], Awaitable[object]] | None = None,
    ) -> None:
        self.connection = connection
        self.errors = errors
        self._close = close

    async def call(self, method: RpcMethod[T], params: Any) -> T:
        """Call ``method`` with ``params`` (a model, a mapping, or ``None`` for none)."""
        try:
            raw = await self.connection.request(method.name, _wire(params))
        except RpcError as exc:
            raise _typed_error(exc, self.errors) from None
        try:
            return method.parse(raw)
        except ValueError as exc:  # pydantic's ValidationError is a ValueError
            raise ResponseValidationError(
                f"{method.name}: the result does not match its type: {exc}",
                status_code=200,
                body=b"",
            ) from None

    async def notify(self, method: str, params: Any) -> None:
        """Send a notification (no answer)."""
        await self.connection.notify(method, _wire(params))

    async def aclose(self) -> None:
        await self.connection.close()
        if self._close is not None:
            await self._close()


class NoCalls:
    """The dispatcher of a client that serves nothing: the peer's requests are answered
    -32601, its notifications logged and skipped."""

    async def request(self, method: str, params: JSON) -> JSON:
        raise MethodNotFound(f"this client serves no method ({method!r})")

    async def notify(self, method: str, params: JSON) -> None:
        log.debug("skipped the notification %r: no handler", method)


async def connect_peer(
    url: str,
    errors: ErrorTable,
    *,
    api_key: str | Secret | None = None,
    headers: Mapping[str, str] | None = None,
    limits: Limits | None = None,
) -> AsyncRpcPeer:
    """A typed peer over a WebSocket to ``url`` (``api_key``: ``Authorization: Bearer``)."""
    from agentproto._runtime.jsonrpc_ws import open_websocket

    sent = dict(headers or {})
    if api_key is not None:
        sent["Authorization"] = f"Bearer {Secret(api_key).reveal()}"
    socket = await open_websocket(url, NoCalls(), headers=sent, limits=limits)
    return AsyncRpcPeer(socket.connection, errors, socket.aclose)


async def spawn_peer(
    command: str | Sequence[str],
    args: Sequence[str],
    errors: ErrorTable,
    *,
    env: Mapping[str, str] | None = None,
    cwd: str | None = None,
    limits: Limits | None = None,
) -> AsyncRpcPeer:
    """A typed peer over the stdin/stdout of a process started from ``command`` (in a process
    group of its own, ended with the connection)."""
    process = await spawn(NoCalls(), command, args, env=env, cwd=cwd, limits=limits)
    return AsyncRpcPeer(process.connection, errors, process.close)


async def serve_stdio(routes: Sequence[RpcRoute], handler: object) -> None:
    """Serve ``handler`` over this process's stdin/stdout until the peer closes them."""
    connection = await stdio_connection(TypedDispatcher(routes, handler), name="client")
    await connection.wait_closed()


class SyncRpcPeer:
    """:class:`AsyncRpcPeer` for blocking code: its connection runs on a private event loop
    thread; each call waits for its answer (``timeout`` in seconds, then cancelled)."""

    def __init__(self, loop: LoopThread, peer: AsyncRpcPeer) -> None:
        self._loop = loop
        self.peer = peer

    @classmethod
    def open(cls, name: str, start: Callable[[], Awaitable[AsyncRpcPeer]]) -> SyncRpcPeer:
        loop = LoopThread(name)

        async def run() -> AsyncRpcPeer:
            return await start()

        try:
            return cls(loop, loop.run(run()))
        except BaseException:
            loop.stop()
            raise

    def call(self, method: RpcMethod[T], params: Any, timeout: float | None = None) -> T:
        return self._loop.run(self.peer.call(method, params), timeout)

    def close(self, timeout: float = 10.0) -> None:
        try:
            self._loop.run(self.peer.aclose(), timeout)
        finally:
            self._loop.stop()


def _wire(params: Any) -> JSON:
    from pydantic import BaseModel

    return wire_form(params) if isinstance(params, BaseModel) else params


class TypedDispatcher:
    """Serves ``handler`` (a generated ``...Handler`` subclass) on a JSON-RPC connection: each
    request of one of ``routes`` calls the handler's method of that operation."""

    def __init__(
        self, routes: Sequence[RpcRoute], handler: object, *, principal: str | None = None
    ) -> None:
        self.routes: Mapping[str, RpcRoute] = {r.rpc: r for r in routes if not r.stream}
        self.handler = handler
        self.principal = principal
        self._adapters: dict[str, Any] = {}
        for route in self.routes.values():
            if not callable(getattr(handler, route.name, None)):
                raise TypeError(f"{type(handler).__name__} has no handler for {route.name}")

    def _params(self, route: RpcRoute, params: JSON) -> list[Any]:
        if route.params is None:
            return []
        from pydantic import TypeAdapter, ValidationError

        adapter = self._adapters.get(route.rpc)
        if adapter is None:
            adapter = self._adapters[route.rpc] = TypeAdapter(route.params)
        try:
            value = adapter.validate_python(
                params if params is not None else {}, context=PEER_CONTEXT
            )
        except ValidationError as exc:
            raise InvalidParams(params_problem(exc)) from None
        return [value]

    async def _run(self, method: str, params: JSON) -> tuple[RpcRoute, Any]:
        route = self.routes.get(method)
        if route is None:
            raise MethodNotFound(f"no method {method!r}")
        args = self._params(route, params)
        context = RequestContext(self.principal, uuid.uuid4().hex, {})
        try:
            return route, await getattr(self.handler, route.name)(context, *args)
        except RpcError:
            raise
        except Exception:
            log.exception("%s failed", method)
            raise InternalError("internal error") from None

    async def request(self, method: str, params: JSON) -> JSON:
        route, result = await self._run(method, params)
        from agentproto._runtime.jsonrpc_server import dump_result

        return dump_result(result, route.result)

    async def notify(self, method: str, params: JSON) -> None:
        try:
            await self._run(method, params)
        except RpcError as exc:  # a notification has no answer: say it here
            log.warning("notification %s refused: %s", method, exc)
