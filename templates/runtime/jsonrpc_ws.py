"""JSON-RPC 2.0 over a WebSocket: one message per text frame, both directions, on the same
:class:`~agentproto._runtime.jsonrpc.Connection` the stdio carrier uses (its id matching,
concurrency bound, size limit and typed errors apply unchanged).

- :func:`open_websocket` connects to a server (the ``websockets`` library: the ``remote``
  extra), its frames bounded by ``Limits.max_message_bytes``; a frame past it closes the
  socket (1009) and every call waiting fails with ``ConnectionClosed``.
- :func:`serve_websocket` serves one accepted ASGI WebSocket with a dispatcher (what
  :mod:`agentproto._runtime.jsonrpc_server` does at its endpoint for an upgrade request); the
  guard in front has checked Host and Origin.

Frames are text; a binary frame is read as UTF-8 text too. A frame holding more than one line
is read as those lines, each answered on its own.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, Mapping, MutableMapping
from typing import TYPE_CHECKING, Any

from agentproto._runtime.errors import needs_extra
from agentproto._runtime.jsonrpc import Connection, ConnectionClosed, Dispatcher
from agentproto._runtime.limits import DEFAULT_LIMITS, Limits

if TYPE_CHECKING:
    from websockets.asyncio.client import ClientConnection

Message = MutableMapping[str, Any]


class _FrameWriter:
    """The writer a :class:`Connection` writes lines to: each line out as one text frame, by a
    sender task, in order."""

    def __init__(
        self, send: Callable[[str], Awaitable[None]], close: Callable[[], Awaitable[None]]
    ):
        self._send = send
        self._close = close
        self._queue: asyncio.Queue[str | None] = asyncio.Queue()
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        while True:
            line = await self._queue.get()
            try:
                if line is None:
                    await self._close()
                    return
                await self._send(line)
            except Exception:  # the socket went away: the reader ends the connection
                return
            finally:
                self._queue.task_done()

    def write(self, data: bytes) -> None:
        for line in data.split(b"\n"):
            if line:
                self._queue.put_nowait(line.decode("utf-8", "replace"))

    async def drain(self) -> None:
        if not self._task.done():
            await self._queue.join()

    def close(self) -> None:
        self._queue.put_nowait(None)

    async def finished(self) -> None:
        with contextlib.suppress(Exception):
            await self._task


class WebSocketPeer:
    """A JSON-RPC connection over a client WebSocket; ``aclose()`` closes both."""

    def __init__(
        self, connection: Connection, socket: ClientConnection, reader: asyncio.Task[None]
    ):
        self.connection = connection
        self._socket = socket
        self._reader = reader

    async def aclose(self) -> None:
        await self.connection.close()
        with contextlib.suppress(Exception):
            await self._socket.close()
        self._reader.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await self._reader


async def open_websocket(
    url: str,
    dispatcher: Dispatcher,
    *,
    headers: Mapping[str, str] | None = None,
    limits: Limits | None = None,
    name: str = "server",
    open_timeout: float = 10.0,
) -> WebSocketPeer:
    """Connect to ``url`` (``ws://`` or ``wss://``) and speak JSON-RPC over it; ``dispatcher``
    answers what the server sends. ``headers``: sent with the handshake (``Authorization``)."""
    with needs_extra("remote", feature="JSON-RPC over WebSocket"):
        from websockets.asyncio.client import connect
        from websockets.exceptions import ConnectionClosed as SocketClosed
    limits = limits or DEFAULT_LIMITS
    socket = await connect(
        url,
        additional_headers=dict(headers or {}),
        max_size=limits.max_message_bytes,
        open_timeout=open_timeout,
    )
    writer = _FrameWriter(socket.send, socket.close)
    connection = Connection(None, writer, dispatcher, name=name, limits=limits)
    connection.start()

    async def read() -> None:
        reason: ConnectionClosed | None = None
        try:
            async for frame in socket:
                data = frame if isinstance(frame, bytes) else frame.encode("utf-8")
                connection.feed(data + b"\n")
        except SocketClosed as exc:
            reason = ConnectionClosed(f"the WebSocket to {name} closed ({exc.rcvd})")
        finally:
            connection.feed_eof(reason)

    reader = asyncio.get_running_loop().create_task(read())
    return WebSocketPeer(connection, socket, reader)


async def serve_websocket(
    receive: Callable[[], Awaitable[Message]],
    send: Callable[[Message], Awaitable[None]],
    dispatcher: Dispatcher,
    *,
    limits: Limits | None = None,
    name: str = "client",
) -> None:
    """Serve one ASGI WebSocket (its ``websocket.connect`` received already and accepted
    here) with ``dispatcher`` until either side closes it."""
    limits = limits or DEFAULT_LIMITS
    await send({"type": "websocket.accept"})

    async def send_text(line: str) -> None:
        await send({"type": "websocket.send", "text": line})

    async def close() -> None:
        with contextlib.suppress(Exception):
            await send({"type": "websocket.close", "code": 1000})

    writer = _FrameWriter(send_text, close)
    connection = Connection(None, writer, dispatcher, name=name, limits=limits)
    connection.start()
    try:
        while True:
            event = await receive()
            if event["type"] == "websocket.disconnect":
                break
            if event["type"] != "websocket.receive":
                continue
            data: bytes = event.get("bytes") or str(event.get("text") or "").encode("utf-8")
            if len(data) > limits.max_message_bytes:
                await send({"type": "websocket.close", "code": 1009})
                break
            connection.feed(data + b"\n")
    finally:
        connection.feed_eof(None)
        await connection.close()
        await writer.finished()
