"""ACP over the network, the editor's side: Streamable HTTP and WebSocket (hand-written).

The wire is the one of the "Streamable HTTP + WebSocket transport" RFD as the official SDKs
ship it (``acp.http`` / ``acp.ws`` in agent-client-protocol 0.12):

- **Streamable HTTP** (``http://``, ``https://``): every message is a ``POST`` of one JSON-RPC
  message (``Content-Type: application/json``). ``initialize`` is answered in the POST's body
  (200) with an ``Acp-Connection-Id`` header; every later POST carries that header (and
  ``Acp-Session-Id`` for the methods of an established session: prompt, cancel, set mode,
  set config option, close) and is answered 202. What the agent sends arrives on Server-Sent
  Event streams opened with ``GET``: one for the connection, one per session (opened when a
  message names a new ``sessionId``). ``DELETE`` ends the connection.
- **WebSocket** (``ws://``, ``wss://``): one JSON-RPC message per text frame, both ways.

:func:`connect_remote_agent` gives the same :class:`~agentproto.acp.AgentConnection` a
spawned agent gives (the same ``Client`` handlers serve the agent's calls);
:func:`connect_remote_agent_sync` the blocking :class:`~agentproto.acp.SyncAgentConnection`.
A bearer ``token`` goes in ``Authorization`` (never in a repr or an error). ``limits`` is the
one :class:`~agentproto.Limits` policy: each message is at most its ``max_message_bytes`` (a
larger one ends the connection with :class:`RemoteError`), and at most its
``max_incoming_requests`` of the agent's requests are handled at once. A
transport failure (an HTTP status, a dropped socket) fails the calls in flight with
:class:`RemoteError`, which says what happened: nothing is dropped without a word.

**Resume.** The RFD leaves resumability to a later version (the official SDK ignores SSE
``id:`` fields), so it works between our editor and our agent side (``AgentApp``, the bridge)
and is off with any other peer: a drop there ends the connection with :class:`RemoteError`.
Over HTTP, our agent side numbers each event of a stream (``id:``); a stream that fails (not
one the agent ends) is opened again with ``Last-Event-ID`` and continues after it. Over
WebSocket, our editor announces ``Acp-Resumable: 1``; after a drop (not a close) it connects
again with ``Acp-Connection-Id`` and ``Last-Event-ID`` (how many frames it got), the agent
side replays the rest and answers ``Acp-Received`` (how many of ours it got), and the editor
sends again what followed. Each side keeps ``replay_bytes`` (1 MiB) of what it already sent;
what went past that is lost, and the connection ends with :class:`ResumeError` naming it.
A POST that fails with a transport error is not sent again (the agent may have it): the call
fails with :class:`RemoteError`.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import functools
import json
import ssl
import time
from collections.abc import AsyncGenerator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING

import httpx

from agentproto._runtime.json_types import JSONValue
from agentproto._runtime.jsonrpc import Connection, ConnectionClosed
from agentproto._runtime.limits import DEFAULT_LIMITS, Limits
from agentproto._runtime.sse import aiter_sse
from agentproto.acp.connection import (
    EDITION,
    AgentConnection,
    Client,
    SyncAgentConnection,
    SyncClient,
)
from agentproto.acp.core import Dispatch, Handshake, start_loop

if TYPE_CHECKING:
    from websockets.asyncio.client import ClientConnection as WebSocket

__all__ = [
    "CONNECTION_ID_HEADER",
    "DEFAULT_MAX_MESSAGE_BYTES",
    "LAST_EVENT_ID_HEADER",
    "RECEIVED_HEADER",
    "RESUMABLE_HEADER",
    "SESSION_ID_HEADER",
    "SESSION_SCOPED_METHODS",
    "LineChannel",
    "RemoteAgentConnection",
    "RemoteError",
    "RemoteTransport",
    "ResumeError",
    "connect_remote_agent",
    "connect_remote_agent_sync",
    "open_line_channel",
    "open_transport",
    "resolve_limits",
]

CONNECTION_ID_HEADER = "Acp-Connection-Id"
LAST_EVENT_ID_HEADER = "Last-Event-ID"
RESUMABLE_HEADER = "Acp-Resumable"
"""Sent by our WebSocket editor: it will reconnect after a drop (see :class:`AgentApp`)."""
RECEIVED_HEADER = "Acp-Received"
"""On a WebSocket accepted again: how many of the editor's messages the agent side got."""
SESSION_ID_HEADER = "Acp-Session-Id"
DEFAULT_MAX_MESSAGE_BYTES = DEFAULT_LIMITS.max_message_bytes
"""The largest message either side takes by default: ``Limits().max_message_bytes``."""
SESSION_SCOPED_METHODS = frozenset(
    EDITION.agent_methods[name].rpc
    for name in (
        "prompt",
        "cancel",
        "set_session_mode",
        "set_session_config_option",
        "close_session",
    )
)
"""Methods whose POST carries ``Acp-Session-Id`` (those of an established session)."""


class RemoteError(ConnectionClosed):
    """The remote transport failed: ``status`` is the HTTP status that did it (``None``: the
    connection dropped, or a message was over the size limit). Calls in flight fail with it."""

    def __init__(self, message: str, *, status: int | None = None) -> None:
        super().__init__(message)
        self.status: int | None = status


def _session_of(message: JSONValue) -> str | None:
    if not isinstance(message, dict):
        return None
    for key in ("params", "result"):
        part = message.get(key)
        if isinstance(part, dict):
            found = part.get("sessionId")
            if isinstance(found, str):
                return found
    return None


Sink = Callable[[bytes], None]
"""Where a transport puts each message the agent sent (one JSON text, no newline)."""
Ended = Callable[[RemoteError | None], None]
"""Called once when the transport ends (``None``: closed by us)."""


class ResumeError(RemoteError):
    """A dropped connection could not be resumed without loss: ``lost`` says which messages
    (event ids, or the editor's own messages) are gone. Calls in flight fail with it."""

    def __init__(self, message: str, *, lost: str = "", status: int | None = None) -> None:
        super().__init__(message, status=status)
        self.lost: str = lost


def _refusal(status: int, body: str) -> RemoteError:
    if status == 409:
        try:
            lost = str(json.loads(body).get("lost", ""))
        except (ValueError, AttributeError):
            lost = ""
        return ResumeError(f"the agent cannot resume the connection: {lost}", lost=lost, status=409)
    return RemoteError(f"the agent answered the event stream with HTTP {status}", status=status)


class _Backoff:
    """Waits between reconnection attempts: 50 ms doubling to 2 s, ``budget`` seconds in all
    since the last success."""

    def __init__(self, budget: float) -> None:
        self.budget = budget
        self.reset()

    def reset(self) -> None:
        self.delay = 0.05
        self.deadline: float | None = None

    async def wait(self) -> bool:
        now = time.monotonic()
        if self.deadline is None:
            self.deadline = now + self.budget
        if now + self.delay > self.deadline:
            return False
        await asyncio.sleep(self.delay)
        self.delay = min(self.delay * 2, 2.0)
        return True


class RemoteTransport:
    """One message-oriented connection to a remote agent (HTTP or WebSocket)."""

    async def send(self, message: bytes) -> None:
        raise NotImplementedError

    async def aclose(self) -> None:
        raise NotImplementedError


class _HttpTransport(RemoteTransport):
    def __init__(
        self,
        url: str,
        client: httpx.AsyncClient,
        headers: dict[str, str],
        sink: Sink,
        ended: Ended,
        max_message_bytes: int,
        resume: bool = True,
        resume_timeout: float = 30.0,
    ) -> None:
        self._url = url
        self._client = client
        self._resume = resume
        self._resume_timeout = resume_timeout
        self._headers = headers
        self._sink = sink
        self._ended = ended
        self._limit = max_message_bytes
        self._connection_id: str | None = None
        self._streams: dict[str | None, asyncio.Task[None]] = {}
        self._closed = False
        self._over = False  # ended() was called

    def __repr__(self) -> str:
        return f"<HTTP transport to {self._url}>"

    async def send(self, message: bytes) -> None:
        if self._closed:
            raise RemoteError("the HTTP transport is closed")
        if len(message) > self._limit:
            raise RemoteError(f"a message of {len(message)} bytes is over the limit")
        try:
            parsed: JSONValue = json.loads(message)
        except ValueError:
            parsed = None
        method = parsed.get("method") if isinstance(parsed, dict) else None
        headers = {"Content-Type": "application/json", **self._headers}
        if self._connection_id is not None:
            headers[CONNECTION_ID_HEADER] = self._connection_id
        session = _session_of(parsed)
        if method in SESSION_SCOPED_METHODS and session is not None:
            headers[SESSION_ID_HEADER] = session
        try:
            response = await self._client.post(self._url, content=message, headers=headers)
        except httpx.HTTPError as exc:
            raise RemoteError(f"POST to the agent failed: {type(exc).__name__}") from None
        if response.status_code not in (200, 202):
            raise RemoteError(
                f"the agent answered a POST with HTTP {response.status_code}",
                status=response.status_code,
            )
        if self._connection_id is None:
            found = response.headers.get(CONNECTION_ID_HEADER)
            if not found:
                raise RemoteError(f"the agent's answer had no {CONNECTION_ID_HEADER} header")
            self._connection_id = found
            self._open(None)
        if response.status_code == 200 and response.content:
            self._deliver(response.content)

    def _deliver(self, body: bytes) -> None:
        self._sink(body)
        try:
            session = _session_of(json.loads(body))
        except ValueError:
            return
        if session is not None and session not in self._streams:
            self._open(session)

    def _open(self, session: str | None) -> None:
        if not self._closed:
            self._streams[session] = asyncio.get_running_loop().create_task(self._read(session))

    async def _read(self, session: str | None) -> None:
        assert self._connection_id is not None
        headers = {
            "Accept": "text/event-stream",
            CONNECTION_ID_HEADER: self._connection_id,
            **self._headers,
        }
        if session is not None:
            headers[SESSION_ID_HEADER] = session
        failure: RemoteError | None = None
        last_id: int | None = None  # the last event id seen (None: the agent sends none)
        retry = _Backoff(self._resume_timeout)
        try:
            while True:
                if last_id is not None:
                    headers[LAST_EVENT_ID_HEADER] = str(last_id)
                try:
                    async with self._client.stream("GET", self._url, headers=headers) as response:
                        if response.status_code != 200:
                            await response.aread()
                            failure = _refusal(response.status_code, response.text)
                            return
                        async for event in aiter_sse(response.aiter_bytes()):
                            if len(event.data) > self._limit:
                                failure = RemoteError("a message over the size limit")
                                return
                            if event.id is not None and event.id.isdigit():
                                last_id = int(event.id)
                                retry.reset()
                            if event.data:
                                self._deliver(event.data.encode())
                    failure = RemoteError("the agent ended the event stream")
                    return
                except httpx.HTTPError as exc:
                    failure = RemoteError(f"the event stream failed: {type(exc).__name__}")
                    # resumed only where the agent numbers its events (else what was in
                    # flight could be lost without a word)
                    if not self._resume or last_id is None or not await retry.wait():
                        return
        finally:
            # A session's stream failing loses that session's messages: the connection ends
            # too (once), with the reason; a stream the agent ended is the connection's end.
            if not self._closed and (session is None or failure is not None):
                if not self._over:
                    self._over = True
                    self._ended(failure)

    async def aclose(self) -> None:
        if self._closed:
            return
        self._closed = True
        for task in self._streams.values():
            task.cancel()
        for task in self._streams.values():
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self._connection_id is not None:
            with contextlib.suppress(httpx.HTTPError):
                await self._client.request(
                    "DELETE",
                    self._url,
                    headers={CONNECTION_ID_HEADER: self._connection_id, **self._headers},
                )
        await self._client.aclose()


Dial = Callable[[dict[str, str]], Awaitable["WebSocket"]]
"""Opens a WebSocket to the agent with these extra headers (raises :class:`RemoteError`)."""


class _WebSocketTransport(RemoteTransport):
    """One message per text frame. With ``resume``, a drop (not a close) is followed by
    reconnecting with ``Acp-Connection-Id`` and ``Last-Event-ID`` (the count of frames got):
    the agent side replays what it sent after that, and says (``Acp-Received``) how many of
    ours it got, so the ones after are sent again: each message once, in order."""

    def __init__(
        self,
        socket: WebSocket,
        url: str,
        sink: Sink,
        ended: Ended,
        *,
        dial: Dial,
        resume: bool,
        resume_timeout: float,
        replay_bytes: int,
    ) -> None:
        self._socket = socket
        self._url = url
        self._sink = sink
        self._ended = ended
        self._dial = dial
        self._resume_timeout = resume_timeout
        self._replay_bytes = replay_bytes
        self._connection_id: str | None = _header(socket, CONNECTION_ID_HEADER)
        self._resume = resume and self._connection_id is not None
        self._received = 0  # frames got from the agent (its event ids)
        self._sent: collections.deque[tuple[int, str]] = collections.deque()
        self._sent_count = 0
        self._sent_bytes = 0
        self._resuming: asyncio.Event | None = None  # set once a resume ends (made for one)
        self._closed = False
        self._reader = asyncio.get_running_loop().create_task(self._read())

    def __repr__(self) -> str:
        return f"<WebSocket transport to {self._url}>"

    async def _read(self) -> None:
        from websockets.exceptions import ConnectionClosed as SocketClosed
        from websockets.exceptions import PayloadTooBig

        failure: RemoteError | None = RemoteError("the agent closed the WebSocket")
        try:
            while True:
                try:
                    async for frame in self._socket:
                        self._received += 1
                        self._sink(frame.encode() if isinstance(frame, str) else frame)
                    return  # closed normally (by the agent side: no resume)
                except PayloadTooBig:
                    failure = RemoteError("a message over the size limit")
                    return
                except SocketClosed as exc:
                    if exc.sent is not None and exc.sent.code == 1009:  # a frame too big
                        failure = RemoteError(
                            "a message over the size limit (Limits.max_message_bytes)"
                        )
                        return
                    if exc.rcvd is not None and exc.rcvd.code == 4409:
                        failure = ResumeError(
                            f"the agent cannot resume the connection: {exc.rcvd.reason}",
                            lost=exc.rcvd.reason,
                        )
                        return
                    failure = RemoteError(
                        f"the WebSocket dropped (close code {exc.rcvd.code if exc.rcvd else None})"
                    )
                    if not self._resume or self._closed:
                        return
                    resumed = await self._reconnect()
                    if resumed is not None:
                        failure = resumed
                        return
        finally:
            if not self._closed:
                self._ended(failure)

    async def _reconnect(self) -> RemoteError | None:
        """Open the connection again and send what the agent side did not get; the error
        that ends the connection when that cannot be done."""
        assert self._connection_id is not None
        resumed = self._resuming = asyncio.Event()  # sends wait for it (never set: time out)
        retry = _Backoff(self._resume_timeout)
        headers = {
            CONNECTION_ID_HEADER: self._connection_id,
            LAST_EVENT_ID_HEADER: str(self._received),
        }
        while True:
            if self._closed:
                return RemoteError("the WebSocket transport is closed")
            try:
                socket = await self._dial(headers)
                break
            except RemoteError as exc:
                if exc.status is not None or not await retry.wait():
                    return RemoteError(f"the WebSocket dropped and could not be resumed: {exc}")
        self._socket = socket
        got = _header(socket, RECEIVED_HEADER)
        taken = int(got) if got is not None and got.isdigit() else 0
        first = self._sent[0][0] if self._sent else self._sent_count + 1
        if taken + 1 < first:
            lost = f"the editor's messages {taken + 1} to {first - 1}"
            await socket.close()
            return ResumeError(
                f"cannot resume the connection: {lost} are no longer kept", lost=lost
            )
        from websockets.exceptions import ConnectionClosed as SocketClosed

        with contextlib.suppress(SocketClosed):  # dropped again: the reader sees it
            for number, text in list(self._sent):
                if number > taken:
                    await socket.send(text)
        resumed.set()
        self._resuming = None
        return None

    async def send(self, message: bytes) -> None:
        from websockets.exceptions import ConnectionClosed as SocketClosed

        if self._closed:
            raise RemoteError("the WebSocket transport is closed")
        resuming = self._resuming
        if resuming is not None:
            try:
                await asyncio.wait_for(resuming.wait(), self._resume_timeout)
            except TimeoutError:
                raise RemoteError("the WebSocket dropped and was not resumed in time") from None
        text = message.decode("utf-8", "replace")
        if self._resume:
            self._sent_count += 1
            self._sent.append((self._sent_count, text))
            self._sent_bytes += len(text)
            while self._sent_bytes > self._replay_bytes and len(self._sent) > 1:
                self._sent_bytes -= len(self._sent.popleft()[1])
        try:
            await self._socket.send(text)
        except SocketClosed:
            if not self._resume:
                raise RemoteError("the WebSocket is closed") from None
            # kept in the log: sent again once the connection is resumed

    async def aclose(self) -> None:
        if self._closed:
            return
        self._closed = True
        await self._socket.close()
        self._reader.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await self._reader


def _header(socket: WebSocket, name: str) -> str | None:
    response = socket.response
    return response.headers.get(name) if response is not None else None


@functools.cache
def _tls() -> ssl.SSLContext:
    """One TLS context (httpx's default: certifi's roots) shared by every HTTP transport: each
    ``httpx.AsyncClient`` would load the roots again (about 600 KiB a connection)."""
    import certifi

    return ssl.create_default_context(cafile=certifi.where())


def resolve_limits(limits: Limits | None, max_message_bytes: int | None) -> Limits:
    """The limits a remote connection uses: ``limits`` (default ``Limits()``), with
    ``max_message_bytes`` in place of its own when given (the older keyword, kept)."""
    chosen = limits if limits is not None else DEFAULT_LIMITS
    if max_message_bytes is not None:
        chosen = chosen.replace(max_message_bytes=max_message_bytes)
    return chosen


def _auth(token: str | None, headers: dict[str, str] | None) -> dict[str, str]:
    sent = dict(headers or {})
    if token is not None:
        sent["Authorization"] = f"Bearer {token}"
    return sent


async def open_transport(
    url: str,
    sink: Sink,
    ended: Ended,
    *,
    token: str | None = None,
    headers: dict[str, str] | None = None,
    timeout: float = 30.0,
    max_message_bytes: int | None = None,
    limits: Limits | None = None,
    resume: bool = True,
    replay_bytes: int = 1024 * 1024,
) -> RemoteTransport:
    """A transport to the agent at ``url``: ``ws(s)://`` WebSocket, ``http(s)://`` Streamable
    HTTP. ``sink`` gets each message the agent sends; ``ended`` is called when it ends.
    Messages are bounded by ``limits.max_message_bytes`` (or ``max_message_bytes``).
    ``resume``: after a drop, reconnect (for ``timeout`` seconds) and resume where the agent
    side allows it (ours; see the module's text), keeping up to ``replay_bytes`` of what we
    sent for that."""
    max_message_bytes = resolve_limits(limits, max_message_bytes).max_message_bytes
    sent = _auth(token, headers)
    if url.startswith(("ws://", "wss://")):
        from websockets.asyncio.client import connect
        from websockets.exceptions import InvalidStatus, WebSocketException

        async def dial(extra: dict[str, str]) -> WebSocket:
            try:
                return await connect(
                    url,
                    additional_headers={**sent, **extra},
                    max_size=max_message_bytes,
                    open_timeout=timeout,
                    compression=None,
                )
            except InvalidStatus as exc:
                status = exc.response.status_code
                raise RemoteError(
                    f"the agent refused the WebSocket: HTTP {status}", status=status
                ) from None
            except (OSError, TimeoutError, WebSocketException) as exc:
                raise RemoteError(f"cannot connect to the agent: {type(exc).__name__}") from None

        socket = await dial({RESUMABLE_HEADER: "1"} if resume else {})
        return _WebSocketTransport(
            socket,
            url,
            sink,
            ended,
            dial=dial,
            resume=resume,
            resume_timeout=timeout,
            replay_bytes=replay_bytes,
        )
    if url.startswith(("http://", "https://")):
        # Idle pooled connections are let go after 4 s: servers commonly close them at 5 s
        # (uvicorn, nginx's 75 s is longer), and a POST sent on one the server is closing
        # fails with no way to know whether the agent got it.
        client = httpx.AsyncClient(
            timeout=httpx.Timeout(timeout, read=None),
            verify=_tls(),
            limits=httpx.Limits(keepalive_expiry=4.0),
        )
        return _HttpTransport(
            url, client, sent, sink, ended, max_message_bytes, resume=resume, resume_timeout=timeout
        )
    raise ValueError(f"an ACP agent URL starts with http(s):// or ws(s)://, not {url[:20]!r}")


class _Writer:
    """The JSON-RPC connection's writer over a remote transport: each line is one message,
    sent in order by one task; ``drain`` waits for them and raises what stopped them."""

    def __init__(self) -> None:
        self.transport: RemoteTransport | None = None
        # The pending lines in a deque, and a task only while there are some: an asyncio.Queue
        # and a finished task kept were nine objects per idle connection for the collector.
        self._pending: collections.deque[bytes] = collections.deque()
        self._sender: asyncio.Task[None] | None = None
        self._failed: RemoteError | None = None

    def write(self, data: bytes) -> None:
        if self._failed is not None:
            raise self._failed
        self._pending.append(data.rstrip(b"\n"))
        if self._sender is None or self._sender.done():
            self._sender = asyncio.get_running_loop().create_task(self._send_all())

    async def _send_all(self) -> None:
        assert self.transport is not None
        try:
            while self._pending:
                message = self._pending.popleft()
                try:
                    await self.transport.send(message)
                except RemoteError as exc:
                    self._failed = exc
                    return
        finally:
            self._sender = None

    async def drain(self) -> None:
        sender = self._sender
        if sender is not None:
            await asyncio.shield(sender)
        if self._failed is not None:
            raise self._failed

    def close(self) -> None:
        return None


class RemoteAgentConnection(AgentConnection):
    """An :class:`~agentproto.acp.AgentConnection` to a remote agent: closing it closes the
    transport too (``DELETE`` for HTTP, a close frame for WebSocket)."""

    transport: RemoteTransport

    async def close(self) -> None:
        await super().close()
        await self.transport.aclose()


async def _connect(
    url: str,
    *,
    client: Client | SyncClient | None,
    token: str | None,
    headers: dict[str, str] | None,
    unstable: bool,
    check_capabilities: bool,
    timeout: float,
    limits: Limits,
    resume: bool = True,
) -> RemoteAgentConnection:
    handshake = Handshake(EDITION)
    dispatch = Dispatch(
        client if client is not None else Client(), EDITION, "client", unstable, handshake
    )
    writer = _Writer()
    connection = Connection(None, writer, dispatch, name="agent", limits=limits)

    def ended(reason: RemoteError | None) -> None:
        connection.feed_eof(reason)

    def sink(message: bytes) -> None:
        connection.feed(message + b"\n")

    writer.transport = await open_transport(
        url,
        sink,
        ended,
        token=token,
        headers=headers,
        timeout=timeout,
        limits=limits,
        resume=resume,
    )
    connection.start()
    EDITION.warm_up()
    agent = RemoteAgentConnection(
        connection, unstable=unstable, handshake=handshake, check_capabilities=check_capabilities
    )
    agent.transport = writer.transport
    return agent


@asynccontextmanager
async def connect_remote_agent(
    url: str,
    *,
    client: Client | SyncClient | None = None,
    token: str | None = None,
    headers: dict[str, str] | None = None,
    unstable: bool = False,
    check_capabilities: bool = True,
    timeout: float = 30.0,
    max_message_bytes: int | None = None,
    limits: Limits | None = None,
    resume: bool = True,
) -> AsyncGenerator[RemoteAgentConnection, None]:
    """Connect to the agent served at ``url`` (``http(s)://`` Streamable HTTP, ``ws(s)://``
    WebSocket); ``client`` answers its calls as with a spawned agent. ``token``: a bearer
    token. ``timeout``: seconds to connect and per POST. ``limits``: the
    :class:`~agentproto.Limits` policy (its ``max_message_bytes`` and
    ``max_incoming_requests``); ``max_message_bytes``, when given, overrides its field.
    ``resume``: reconnect after a drop and resume without losing or repeating a message where
    the agent side allows it (ours does); otherwise the calls in flight fail with
    :class:`ResumeError` saying what was lost, or :class:`RemoteError`."""
    agent = await _connect(
        url,
        client=client,
        token=token,
        headers=headers,
        unstable=unstable,
        check_capabilities=check_capabilities,
        timeout=timeout,
        limits=resolve_limits(limits, max_message_bytes),
        resume=resume,
    )
    try:
        yield agent
    finally:
        await agent.close()


def connect_remote_agent_sync(
    url: str,
    *,
    client: Client | SyncClient | None = None,
    token: str | None = None,
    headers: dict[str, str] | None = None,
    unstable: bool = False,
    check_capabilities: bool = True,
    timeout: float = 30.0,
    max_message_bytes: int | None = None,
    limits: Limits | None = None,
    resume: bool = True,
) -> SyncAgentConnection:
    """:func:`connect_remote_agent` for blocking code: the same
    :class:`~agentproto.acp.SyncAgentConnection` a spawned agent gives (``close()`` or a
    ``with`` block ends it)."""

    async def start() -> AgentConnection:
        return await _connect(
            url,
            client=client,
            token=token,
            headers=headers,
            unstable=unstable,
            check_capabilities=check_capabilities,
            timeout=timeout,
            limits=resolve_limits(limits, max_message_bytes),
            resume=resume,
        )

    loop, connection = start_loop("acp-remote", start)
    return SyncAgentConnection(loop, connection)


class LineChannel:
    """Raw messages to and from a remote agent (the conformance checker's channel): what
    :meth:`send` gets is sent as one message, as is."""

    def __init__(self) -> None:
        self.transport: RemoteTransport | None = None
        self._inbox: asyncio.Queue[bytes | None] = asyncio.Queue()

    def put(self, message: bytes) -> None:
        self._inbox.put_nowait(message)

    def end(self, reason: RemoteError | None) -> None:
        self._inbox.put_nowait(None)

    async def send(self, line: bytes) -> None:
        assert self.transport is not None
        try:
            await self.transport.send(line.rstrip(b"\n"))
        except RemoteError as exc:
            if exc.status is None or exc.status >= 500:
                raise ConnectionError(str(exc)) from None
            # The agent refused this message at the HTTP level: an answer, not a drop (given
            # to the checker as such, with the request's id when it had one).
            try:
                sent: JSONValue = json.loads(line)
            except ValueError:
                sent = None
            msg_id = sent.get("id") if isinstance(sent, dict) else None
            self.put(json.dumps({"id": msg_id, "httpStatus": exc.status}).encode())

    async def receive(self) -> bytes | None:
        return await self._inbox.get()

    async def close(self) -> None:
        if self.transport is not None:
            await self.transport.aclose()


async def open_line_channel(
    url: str, *, token: str | None = None, timeout: float = 30.0
) -> LineChannel:
    """A :class:`LineChannel` to the agent at ``url``."""
    channel = LineChannel()
    try:
        channel.transport = await open_transport(
            url, channel.put, channel.end, token=token, timeout=timeout
        )
    except RemoteError as exc:
        raise ConnectionError(str(exc)) from None
    return channel
