"""ACP over the network, the agent's side: an ASGI app serving an :class:`~agentproto.acp.Agent`
over Streamable HTTP and WebSocket (hand-written; the wire is described in
:mod:`agentproto.acp.remote`).

::

    app = AgentApp(lambda: MyAgent(), token="s3cret")
    uvicorn.run(app, host="127.0.0.1", port=8000)   # any ASGI server; TLS where it does TLS

Each connection (an ``initialize`` POST, or a WebSocket) gets its own agent from the factory,
served by the same machinery as stdio (:func:`~agentproto.acp.serve_agent`): the same handler
methods, ``self.client`` to call the editor back. Bounds, all keyword parameters:

- ``token``: every request must carry ``Authorization: Bearer <token>`` (401 otherwise;
  compared in constant time, never logged).
- ``allowed_origins``: a request with an ``Origin`` header (a browser) is refused (403) unless
  that origin is listed; requests without one (editors, scripts) pass. ``allowed_hosts``: the
  ``Host`` names requests may use (421 otherwise; by default, loopback names for a request
  that came in on a loopback address). Both, and JSON-only bodies, the body's deadline
  (``limits.request_body_deadline``) and nesting (``limits.max_json_depth``: -32700), are
  checked by :class:`~agentproto._runtime.guard.Guard` before anything else; a WebSocket frame
  nested too deep is answered -32700 by the JSON-RPC connection, as on stdio.
- ``limits``: the one :class:`~agentproto.Limits` policy. Its ``max_message_bytes`` bounds
  each message: a larger POST body is refused (413), a larger frame closes the WebSocket
  (1009); its ``max_incoming_requests`` bounds the editor's requests handled at once per
  connection (past it the next ones wait: back-pressure). ``max_message_bytes``, when given,
  overrides the policy's field (the older keyword, kept).
- ``max_connections``: more open connections are refused (503 / close 1013).
- ``max_sessions``: a ``session/new`` beyond this many on one connection is answered with a
  JSON-RPC error and never reaches the agent.
- ``idle_timeout``: a connection with no traffic either way for this long is closed.
- ``max_buffered_bytes``: what may wait for a slow event stream; beyond it the agent's next
  send waits (backpressure, no unbounded memory).
- ``replay_bytes`` (1 MiB): per stream, how much of what was already sent is kept for a
  resuming editor: event streams carry ``id:`` fields and a ``GET`` with ``Last-Event-ID``
  continues after that id; our WebSocket editor (which announces ``Acp-Resumable: 1``)
  reconnects with ``Acp-Connection-Id`` and ``Last-Event-ID`` (the count of messages it got)
  and the connection, its agent and sessions are kept ``resume_window`` seconds (30) after an
  abnormal close. What is no longer kept is refused: 409 / close code 4409, saying which
  messages are lost.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import hmac
import json
import logging
import time
import uuid
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any, Protocol

from agentproto._runtime.errors import AgentprotoError
from agentproto._runtime.guard import Guard, GuardPolicy, Refusal, jsonrpc_error, plain_error
from agentproto._runtime.json_types import JSONValue
from agentproto._runtime.jsonrpc import Connection, InternalError
from agentproto._runtime.limits import Limits, loads
from agentproto._runtime.redact import Secret, install_log_filter
from agentproto.acp.connection import EDITION, Agent, ClientConnection
from agentproto.acp.core import Dispatch, Handshake
from agentproto.acp.remote import (
    CONNECTION_ID_HEADER,
    RECEIVED_HEADER,
    RESUMABLE_HEADER,
    SESSION_ID_HEADER,
    resolve_limits,
)

__all__ = ["AgentApp", "Peer", "ServedConnection"]

logger: logging.Logger = logging.getLogger("agentproto.acp.remote")

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]

_NEW_SESSION = EDITION.agent_methods["new_session"].rpc
_KEEPALIVE = b": keepalive\n\n"


def error_body(refusal: Refusal) -> Any:
    """What the guard answers: JSON-RPC's -32700 for a body nested too deep (what the
    connection answers such a line on stdio), ``{"error": ...}`` for the HTTP-level
    refusals, as the rest of this server answers them."""
    return jsonrpc_error(refusal) if refusal.kind == "json_depth" else plain_error(refusal)


def _parse(data: bytes, limits: Limits) -> JSONValue:
    """A message as JSON, ``None`` when it is not (or is nested past the limit): only for
    routing; the JSON-RPC connection reads it again and answers what is wrong."""
    try:
        value: JSONValue = loads(data, limits.max_json_depth)
    except ValueError:
        return None
    return value


class _ResumeRefused(AgentprotoError):  # internal: answered 409 / close 4409, never raised out
    """A resume asked for messages no longer kept: ``first`` to ``last`` (event ids)."""

    def __init__(self, first: int, last: int) -> None:
        super().__init__(f"messages {first} to {last} are no longer kept")
        self.first: int = first
        self.last: int = last


class _Outbox:
    """One stream of the agent's messages (an event stream, or the WebSocket): each message
    gets the next event id (1, 2, ...) and stays in ``log`` until sent and then for as long as
    the sent ones fit in ``replay_bytes`` (what a resumed reader may ask for again). Readers
    follow it from an event id; a newer reader takes over from an older one."""

    def __init__(self, remote: ServedConnection) -> None:
        self.remote: ServedConnection = remote
        self.log: collections.deque[tuple[int, bytes]] = collections.deque()
        self.next_id: int = 1
        self.sent: int = 0  # the highest event id handed to a reader
        self.sent_bytes: int = 0  # bytes of the logged messages already sent
        self.closed: bool = False
        self.changed: asyncio.Event = asyncio.Event()
        self.reader: int = 0  # the current reader's number

    def put(self, line: bytes) -> None:
        self.log.append((self.next_id, line))
        self.next_id += 1
        self.changed.set()

    def close(self) -> None:
        self.closed = True
        self.changed.set()

    def start(self, after: int) -> int:
        """A reader that has everything up to event id ``after``: its number, or
        :class:`_ResumeRefused` when what follows ``after`` is no longer kept."""
        if after < 0 or after >= self.next_id:
            raise _ResumeRefused(after + 1, after)
        first = self.log[0][0] if self.log else self.next_id
        if after + 1 < first:
            raise _ResumeRefused(after + 1, first - 1)
        self.reader += 1
        self.changed.set()  # an older reader sees it is replaced
        return self.reader

    async def follow(
        self,
        me: int,
        after: int,
        emit: Callable[[int, bytes], Awaitable[None]],
        keepalive: float | None,
    ) -> bool:
        """Reader ``me`` (from :meth:`start`): hand every message after ``after`` to ``emit``,
        waiting for more until the stream closes (True) or a newer reader takes over (False).
        ``emit(0, b"")`` is a keepalive."""
        cursor = after
        while self.reader == me:
            first = self.log[0][0] if self.log else self.next_id
            index = cursor + 1 - first
            if 0 <= index < len(self.log):
                event_id, line = self.log[index]
                await emit(event_id, line)
                cursor = event_id
                self._sent(event_id, len(line))
                continue
            if self.closed:
                return True
            self.changed.clear()
            try:
                await asyncio.wait_for(self.changed.wait(), keepalive)
            except TimeoutError:
                await emit(0, b"")
        return False

    def _sent(self, event_id: int, size: int) -> None:
        if event_id > self.sent:
            self.sent = event_id
            self.sent_bytes += size
            self.remote.taken(size)
        limit = self.remote.app.replay_bytes
        while self.log and self.log[0][0] <= self.sent and self.sent_bytes > limit:
            self.sent_bytes -= len(self.log.popleft()[1])


class Peer(Protocol):
    """What serves one remote connection: an in-process agent's JSON-RPC connection, or (the
    bridge) a stdio agent process. It takes the editor's messages (one line each) and writes
    the agent's to the connection it was made for."""

    def feed(self, chunk: bytes) -> None: ...

    async def ready(self) -> None:
        """Wait until it takes more (back-pressure)."""
        ...

    async def close(self) -> None: ...


class ServedConnection:
    """One ACP connection served (what :meth:`AgentApp.attach` gets): what serves it (its
    :class:`Peer`), and where the agent's messages go."""

    connection: Peer

    def __init__(self, app: AgentApp, websocket: bool) -> None:
        self.app: AgentApp = app
        self.id: str = uuid.uuid4().hex
        self.websocket: bool = websocket
        self.connection_stream: _Outbox = _Outbox(self)
        self.session_streams: dict[str, _Outbox] = {}
        self.routes: dict[str, str] = {}  # request id -> the session its answer goes to
        self.waiters: dict[str, asyncio.Future[bytes]] = {}  # answers returned in a POST body
        self.sessions: int = 0
        self.last_activity: float = time.monotonic()
        self.buffered: int = 0
        self._room: asyncio.Event = asyncio.Event()
        self._room.set()
        self.closed: bool = False
        self.resumable: bool = False  # the editor may come back after a drop (WebSocket)
        self.detached_at: float | None = None  # since when no socket serves it
        self.received: int = 0  # messages taken from the editor (WebSocket), for its resume

    # -- the Writer the JSON-RPC connection writes to -------------------------------------------

    def write(self, data: bytes) -> None:
        line = data.rstrip(b"\n")
        self.last_activity = time.monotonic()
        message = _parse(line, self.app.limits)
        msg = message if isinstance(message, dict) else {}
        key = str(msg.get("id")) if "id" in msg and "method" not in msg else None
        if key is not None and key in self.waiters:
            waiter = self.waiters.pop(key)
            if not waiter.done():
                waiter.set_result(line)
            return
        self._outbox_for(msg, key).put(line)
        self._count(len(line))

    def _outbox_for(self, msg: dict[str, JSONValue], key: str | None) -> _Outbox:
        if self.websocket:
            return self.connection_stream
        if key is not None:  # an answer: to the stream of the session its request named
            result = msg.get("result")
            established = result.get("sessionId") if isinstance(result, dict) else None
            if isinstance(established, str):
                self.session_streams.setdefault(established, _Outbox(self))
            routed = self.routes.pop(key, None)
            if established is None and routed in self.session_streams:
                return self.session_streams[routed]
            return self.connection_stream
        params = msg.get("params")
        session = params.get("sessionId") if isinstance(params, dict) else None
        if isinstance(session, str) and session in self.session_streams:
            return self.session_streams[session]
        return self.connection_stream

    def _count(self, size: int) -> None:
        self.buffered += size
        if self.buffered > self.app.max_buffered_bytes:
            self._room.clear()

    def taken(self, size: int) -> None:
        self.buffered -= size
        self.last_activity = time.monotonic()
        if self.buffered <= self.app.max_buffered_bytes:
            self._room.set()

    async def drain(self) -> None:
        await self._room.wait()

    def close(self) -> None:
        return None

    # -- from the editor ---------------------------------------------------------------------

    def deliver(self, body: bytes) -> None:
        """One message from the editor, handled by the JSON-RPC connection."""
        self.last_activity = time.monotonic()
        message = _parse(body, self.app.limits)
        if isinstance(message, dict) and "method" in message and "id" in message:
            key = str(message["id"])
            params = message.get("params")
            session = params.get("sessionId") if isinstance(params, dict) else None
            if isinstance(session, str):
                self.routes[key] = session
            if message["method"] == _NEW_SESSION:
                if self.sessions >= self.app.max_sessions:
                    error = InternalError(
                        f"this connection has {self.sessions} sessions, the most it may have"
                    )
                    reply = {"jsonrpc": "2.0", "id": message["id"], "error": error.to_json()}
                    self.write(json.dumps(reply).encode())
                    return
                self.sessions += 1
        self.connection.feed(body.replace(b"\n", b" ") + b"\n")

    async def initialize(self, body: bytes, key: str) -> bytes:
        waiter: asyncio.Future[bytes] = asyncio.get_running_loop().create_future()
        self.waiters[key] = waiter
        self.deliver(body)
        return await asyncio.wait_for(waiter, self.app.idle_timeout)

    async def aclose(self) -> None:
        if self.closed:
            return
        self.closed = True
        await self.connection.close()
        for outbox in (self.connection_stream, *self.session_streams.values()):
            outbox.close()
        self._room.set()


class AgentApp:
    """An ASGI 3 application serving ``agent_factory()`` agents over Streamable HTTP (POST,
    GET event streams, DELETE) and WebSocket, on any path it is mounted at."""

    def __init__(
        self,
        agent_factory: Callable[[], Agent],
        *,
        token: str | None = None,
        allowed_origins: tuple[str, ...] = (),
        allowed_hosts: tuple[str, ...] | None = None,
        unstable: bool = False,
        limits: Limits | None = None,
        max_message_bytes: int | None = None,
        max_connections: int = 1000,
        max_sessions: int = 100,
        idle_timeout: float = 300.0,
        max_buffered_bytes: int = 4 * 1024 * 1024,
        keepalive: float = 15.0,
        replay_bytes: int = 1024 * 1024,
        resume_window: float = 30.0,
    ) -> None:
        self.agent_factory = agent_factory
        self.replay_bytes = replay_bytes
        self.resume_window = resume_window
        self._token = None if token is None else Secret(token)
        if token is not None:
            install_log_filter()  # the token is masked wherever a log line would show it
        self.allowed_origins = allowed_origins
        self.unstable = unstable
        self.limits: Limits = resolve_limits(limits, max_message_bytes)
        self.max_message_bytes: int = self.limits.max_message_bytes
        self.guard: GuardPolicy = GuardPolicy(
            allowed_hosts=allowed_hosts,
            allowed_origins=allowed_origins,
            max_body_bytes=self.max_message_bytes,
            limits=self.limits,
            error_body=error_body,
        )
        self._guarded = Guard(self._serve, policy=self.guard)
        self.max_connections = max_connections
        self.max_sessions = max_sessions
        self.idle_timeout = idle_timeout
        self.max_buffered_bytes = max_buffered_bytes
        self.keepalive = keepalive
        self.connections: dict[str, ServedConnection] = {}
        self._reaper: asyncio.Task[None] | None = None

    def __repr__(self) -> str:  # the token never shows
        return f"<AgentApp: {len(self.connections)} connections>"

    async def aclose(self) -> None:
        """Close every connection."""
        for remote in list(self.connections.values()):
            await self._drop(remote)
        if self._reaper is not None:
            self._reaper.cancel()

    async def _drop(self, remote: ServedConnection) -> None:
        self.connections.pop(remote.id, None)
        await remote.aclose()

    async def _reap(self) -> None:
        while True:
            await asyncio.sleep(min(self.idle_timeout / 2, self.resume_window / 2, 5.0))
            now = time.monotonic()
            for remote in list(self.connections.values()):
                gone = remote.detached_at is not None
                if gone and now - (remote.detached_at or now) > self.resume_window:
                    logger.info("dropping ACP connection %s: not resumed in time", remote.id)
                    await self._drop(remote)
                elif now - remote.last_activity > self.idle_timeout:
                    logger.info("closing idle ACP connection %s", remote.id)
                    await self._drop(remote)

    async def _new(self, websocket: bool) -> ServedConnection:
        if self._reaper is None or self._reaper.done():
            self._reaper = asyncio.get_running_loop().create_task(self._reap())
        remote = ServedConnection(self, websocket)
        remote.connection = await self.attach(remote)
        self.connections[remote.id] = remote
        return remote

    async def attach(self, remote: ServedConnection) -> Peer:
        """What serves a new connection: an agent from the factory, on a JSON-RPC connection
        that writes to ``remote`` (the bridge attaches a process instead)."""
        agent = self.agent_factory()
        handshake = Handshake(EDITION)
        dispatch = Dispatch(agent, EDITION, "agent", self.unstable, handshake)
        connection = Connection(None, remote, dispatch, name="editor", limits=self.limits)
        connection.start()
        agent.client = ClientConnection(connection, unstable=self.unstable, handshake=handshake)
        return connection

    # -- ASGI ----------------------------------------------------------------------------------

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await self._guarded(scope, receive, send)

    async def _serve(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind == "lifespan":
            while True:
                event = await receive()
                if event["type"] == "lifespan.startup":
                    await send({"type": "lifespan.startup.complete"})
                elif event["type"] == "lifespan.shutdown":
                    await self.aclose()
                    await send({"type": "lifespan.shutdown.complete"})
                    return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        refused = self._refused(headers)
        if kind == "websocket":
            await self._websocket(scope, receive, send, refused, headers)
        elif kind == "http":
            if refused is not None:
                await _respond(send, refused[0], {"error": refused[1]})
                return
            method = scope["method"]
            if method == "POST":
                await self._post(headers, receive, send)
            elif method == "GET":
                await self._get(headers, send)
            elif method == "DELETE":
                await self._delete(headers, send)
            else:
                await _respond(send, 405, {"error": "method not allowed"})

    def _refused(self, headers: dict[str, str]) -> tuple[int, str] | None:
        if self._token is not None:  # Host and Origin: checked by the guard already
            given = headers.get("authorization", "")
            expected = f"Bearer {self._token.reveal()}"
            if not hmac.compare_digest(given.encode(), expected.encode()):
                return 401, "unauthorized"
        return None

    async def _post(self, headers: dict[str, str], receive: Receive, send: Send) -> None:
        declared = headers.get("content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.max_message_bytes:
            await _respond(send, 413, {"error": "message too large"})
            return
        chunks: list[bytes] = []
        size = 0
        while True:
            event = await receive()
            if event["type"] == "http.disconnect":
                return
            chunk: bytes = event.get("body", b"")
            size += len(chunk)
            if size > self.max_message_bytes:
                await _respond(send, 413, {"error": "message too large"})
                return
            chunks.append(chunk)
            if not event.get("more_body", False):
                break
        body = b"".join(chunks)
        if not headers.get("content-type", "").lower().startswith("application/json"):
            await _respond(send, 415, {"error": "Content-Type must be application/json"})
            return
        connection_id = headers.get(CONNECTION_ID_HEADER.lower())
        if connection_id is None:
            await self._initialize(body, send)
            return
        remote = self.connections.get(connection_id)
        if remote is None:
            await _respond(send, 404, {"error": "unknown connection"})
            return
        session = headers.get(SESSION_ID_HEADER.lower())
        if session is not None and session not in remote.session_streams:
            await _respond(send, 404, {"error": "unknown session"})
            return
        remote.deliver(body)
        await remote.connection.ready()  # back-pressure: max_incoming_requests
        await _respond(send, 202, None)

    async def _initialize(self, body: bytes, send: Send) -> None:
        message = _parse(body, self.limits)
        if not (
            isinstance(message, dict)
            and message.get("method") == EDITION.handshake
            and "id" in message
        ):
            await _respond(send, 400, {"error": f"the first message must be {EDITION.handshake}"})
            return
        if len(self.connections) >= self.max_connections:
            await _respond(send, 503, {"error": "too many connections"})
            return
        try:
            remote = await self._new(websocket=False)
        except OSError:
            logger.exception("the agent for a new ACP connection could not be started")
            await _respond(send, 502, {"error": "the agent could not be started"})
            return
        try:
            answer = await remote.initialize(body, str(message["id"]))
        except TimeoutError:
            await self._drop(remote)
            await _respond(send, 504, {"error": "initialize timed out"})
            return
        await send(
            {
                "type": "http.response.start",
                "status": 200,
                "headers": [
                    (b"content-type", b"application/json"),
                    (CONNECTION_ID_HEADER.lower().encode(), remote.id.encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": answer})

    async def _get(self, headers: dict[str, str], send: Send) -> None:
        if "text/event-stream" not in headers.get("accept", "") and "*/*" not in headers.get(
            "accept", ""
        ):
            await _respond(send, 406, {"error": "Accept must include text/event-stream"})
            return
        remote = self.connections.get(headers.get(CONNECTION_ID_HEADER.lower(), ""))
        if remote is None:
            await _respond(send, 404, {"error": "unknown connection"})
            return
        session = headers.get(SESSION_ID_HEADER.lower())
        if session is not None and session not in remote.session_streams:
            await _respond(send, 404, {"error": "unknown session"})
            return
        outbox = remote.connection_stream if session is None else remote.session_streams[session]
        try:
            after = int(headers.get("last-event-id", "0") or "0")
            reader = outbox.start(after)
        except ValueError:
            await _respond(send, 400, {"error": "Last-Event-ID must be an event id"})
            return
        except _ResumeRefused as refused:
            await _respond(send, 409, {"error": "cannot resume", "lost": str(refused)})
            return
        await send(
            {
                "type": "http.response.start",
                "status": 200,
                "headers": [
                    (b"content-type", b"text/event-stream"),
                    (b"cache-control", b"no-cache"),
                ],
            }
        )

        async def emit(event_id: int, line: bytes) -> None:
            if event_id == 0:
                frame = _KEEPALIVE
            else:
                frame = b"id: %d\ndata: %s\n\n" % (event_id, line)
            await send({"type": "http.response.body", "body": frame, "more_body": True})

        with contextlib.suppress(OSError):  # the editor went away: it may resume
            await outbox.follow(reader, after, emit, self.keepalive)
            await send({"type": "http.response.body", "body": b"", "more_body": False})

    async def _delete(self, headers: dict[str, str], send: Send) -> None:
        remote = self.connections.get(headers.get(CONNECTION_ID_HEADER.lower(), ""))
        if remote is None:
            await _respond(send, 404, {"error": "unknown connection"})
            return
        await self._drop(remote)
        await _respond(send, 202, None)

    async def _websocket(
        self,
        scope: Scope,
        receive: Receive,
        send: Send,
        refused: tuple[int, str] | None,
        headers: dict[str, str],
    ) -> None:
        event = await receive()
        if event["type"] != "websocket.connect":
            return
        if refused is not None:
            if "websocket.http.response" in scope.get("extensions", {}):  # the real status
                status, why = refused
                start: dict[str, Any] = {
                    "type": "websocket.http.response.start",
                    "status": status,
                    "headers": [],
                }
                await send(start)
                body = json.dumps({"error": why}).encode()
                await send({"type": "websocket.http.response.body", "body": body})
            else:  # the server answers 403
                await send({"type": "websocket.close", "code": 1008})
            return
        resumed = headers.get(CONNECTION_ID_HEADER.lower())
        after = 0
        if resumed is not None:  # our editor, back after a drop (see agentproto.acp.remote)
            remote = self.connections.get(resumed)
            if remote is None or not remote.resumable:
                await send({"type": "websocket.close", "code": 4404})
                return
            try:
                after = int(headers.get("last-event-id", "0") or "0")
                reader = remote.connection_stream.start(after)
            except (ValueError, _ResumeRefused) as exc:
                why = str(exc) if isinstance(exc, _ResumeRefused) else "bad Last-Event-ID"
                await send({"type": "websocket.accept"})
                await send({"type": "websocket.close", "code": 4409, "reason": why})
                return
            remote.detached_at = None
        else:
            if len(self.connections) >= self.max_connections:
                await send({"type": "websocket.close", "code": 1013})
                return
            try:
                remote = await self._new(websocket=True)
            except OSError:
                logger.exception("the agent for a new ACP connection could not be started")
                await send({"type": "websocket.close", "code": 1011})
                return
            remote.resumable = headers.get(RESUMABLE_HEADER.lower()) == "1"
            reader = remote.connection_stream.start(0)
        await send(
            {
                "type": "websocket.accept",
                "headers": [
                    (CONNECTION_ID_HEADER.lower().encode(), remote.id.encode()),
                    (RECEIVED_HEADER.lower().encode(), str(remote.received).encode()),
                ],
            }
        )

        async def emit(event_id: int, line: bytes) -> None:
            await send({"type": "websocket.send", "text": line.decode("utf-8", "replace")})

        async def outbound() -> None:
            if await remote.connection_stream.follow(reader, after, emit, None):
                with contextlib.suppress(Exception):  # closed here (idle, or the app closing)
                    await send({"type": "websocket.close", "code": 1001})

        sender = asyncio.get_running_loop().create_task(outbound())
        code = 1000
        try:
            while True:
                event = await receive()
                if event["type"] == "websocket.disconnect":
                    code = int(event.get("code", 1005))
                    return
                text = event.get("text")
                data: bytes = text.encode() if isinstance(text, str) else event.get("bytes") or b""
                if len(data) > self.max_message_bytes:
                    await send({"type": "websocket.close", "code": 1009})
                    return
                remote.received += 1
                remote.deliver(data)
                await remote.connection.ready()  # back-pressure: max_incoming_requests
        finally:
            sender.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await sender
            if remote.connection_stream.reader != reader:
                pass  # a resumed socket took over: it serves the connection now
            elif remote.resumable and not remote.closed and code not in (1000, 1001):
                remote.detached_at = time.monotonic()  # kept for resume_window seconds
            else:
                await self._drop(remote)


async def _respond(send: Send, status: int, body: dict[str, str] | None) -> None:
    payload = json.dumps(body).encode() if body is not None else b""
    headers = [(b"content-type", b"application/json")] if body is not None else []
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": payload})
