"""JSON-RPC 2.0 over newline-delimited JSON on any pair of byte streams (asyncio).

One :class:`Connection` is both a caller and a callee: many requests may be in flight in both
directions at once, each matched to its answer by id. Incoming requests run concurrently, each
in its own task; their handler comes from a :class:`Dispatcher`.

- Errors are typed (:class:`RpcError` and one subclass per code: parse error -32700, invalid
  request -32600, method not found -32601, invalid params -32602, internal error -32603, auth
  required -32000, resource not found -32002, request cancelled -32800).
- Cancelling the task awaiting :meth:`Connection.request` sends ``$/cancel_request`` to the
  peer; a ``$/cancel_request`` received cancels the handler's task, which answers -32800.
- Hostile input never kills the connection: a line that is not JSON gets -32700, a scalar, a
  batch or a message without ``"jsonrpc": "2.0"`` gets -32600, an unknown request -32601; an
  unknown notification or a stray response is logged and skipped.
- Lines may be up to ``limit`` bytes (64 MiB by default).
- When the peer goes away every pending call fails at once with :class:`ConnectionClosed`.
- Notifications and answers are handled in the order they arrive (requests run concurrently):
  a ``session/update`` sent before a prompt's answer has been handled when the prompt call
  returns. So a notification handler must not wait for an answer on the same connection (it
  would wait behind itself); start a task for such work.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import os
import sys
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Protocol

logger = logging.getLogger("agentproto.jsonrpc")

DEFAULT_LIMIT = 64 * 1024 * 1024
_HIGH_WATER = 256 * 1024
_CHUNK = (
    1 << 20
)  # bytes asked for per read  # bytes queued before a writer waits for the pipe to drain
CANCEL_METHOD = "$/cancel_request"
JSON = Any


class RpcError(Exception):
    """A JSON-RPC error object, raised locally or received from the peer."""

    code: ClassVar[int] = -32603
    CODES: ClassVar[dict[int, type[RpcError]]] = {}

    def __init__(self, message: str = "", data: JSON = None, *, code: int | None = None) -> None:
        super().__init__(message or type(self).__name__)
        self.message = message or type(self).__name__
        self.data = data
        if code is not None:
            self.code = code  # type: ignore[misc]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        RpcError.CODES[cls.code] = cls

    def __str__(self) -> str:
        return f"{self.message} ({self.code})"

    def to_json(self) -> dict[str, JSON]:
        error: dict[str, JSON] = {"code": self.code, "message": self.message}
        if self.data is not None:
            error["data"] = self.data
        return error

    @classmethod
    def from_json(cls, error: Any) -> RpcError:
        if not isinstance(error, dict) or not isinstance(error.get("code"), int):
            return InternalError("malformed error object", error)
        code = error["code"]
        kind = RpcError.CODES.get(code, RpcError)
        return kind(str(error.get("message", "")), error.get("data"), code=code)


class ParseError(RpcError):
    code = -32700


class InvalidRequest(RpcError):
    code = -32600


class MethodNotFound(RpcError):
    code = -32601


class InvalidParams(RpcError):
    code = -32602


class InternalError(RpcError):
    code = -32603


class AuthRequired(RpcError):
    code = -32000


class ResourceNotFound(RpcError):
    code = -32002


class RequestCancelled(RpcError):
    code = -32800


class RawJSON(bytes):
    """Params or a result already encoded as JSON (e.g. by pydantic's ``model_dump_json``):
    spliced into the message as is, which saves building and encoding a dict."""


def _encode(message: dict[str, JSON]) -> bytes:
    """One message as a line; pre-encoded params or result are spliced in without a copy
    through ``json``."""
    key = None
    for name in ("params", "result"):
        if isinstance(message.get(name), RawJSON):
            key = name
    if key is None:
        return json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode() + b"\n"
    parts = [b'{"jsonrpc":"2.0"']
    if "id" in message:
        msg_id = message["id"]
        encoded = str(msg_id) if type(msg_id) is int else json.dumps(msg_id, ensure_ascii=False)
        parts.append(b',"id":' + encoded.encode())
    if "method" in message:
        parts.append(b',"method":' + json.dumps(message["method"], ensure_ascii=False).encode())
    parts += (b',"', key.encode(), b'":', message[key], b"}\n")
    return b"".join(parts)


class ConnectionClosed(ConnectionError):
    """The peer went away (closed its output, or died) before answering."""


class Dispatcher(Protocol):
    """Routes incoming calls: ``request`` answers (or raises RpcError), ``notify`` returns."""

    async def request(self, method: str, params: JSON) -> JSON: ...

    async def notify(self, method: str, params: JSON) -> None: ...


class Writer(Protocol):
    def write(self, data: bytes) -> object: ...

    async def drain(self) -> None: ...

    def close(self) -> object: ...


class Connection:
    """A JSON-RPC peer over ``reader`` (lines in) and ``writer`` (lines out)."""

    def __init__(
        self,
        reader: asyncio.StreamReader,
        writer: Writer,
        dispatcher: Dispatcher,
        *,
        name: str = "peer",
        limit: int = DEFAULT_LIMIT,
    ) -> None:
        self._reader = reader
        self._limit = limit
        self._writer = writer
        self._dispatcher = dispatcher
        self._name = name
        self._ids = itertools.count(1)
        self._pending: dict[int | str, asyncio.Future[JSON]] = {}
        self._handling: dict[int | str, asyncio.Task[None]] = {}
        self._write_lock = asyncio.Lock()
        self._closed: ConnectionClosed | None = None
        self._reader_task: asyncio.Task[None] | None = None

    def start(self) -> None:
        if self._reader_task is None:
            self._reader_task = asyncio.get_running_loop().create_task(self._read_loop())

    @property
    def closed(self) -> bool:
        return self._closed is not None

    async def wait_closed(self) -> None:
        if self._reader_task is not None:
            await asyncio.shield(self._reader_task)

    # -- outgoing -------------------------------------------------------------------------------

    async def _send(self, message: dict[str, JSON]) -> None:
        if self._closed is not None:
            raise self._closed
        try:
            # One write per line, at once (the peer starts on it while we go on); lines never
            # interleave. Wait only when the pipe is full.
            self._writer.write(_encode(message))
            transport = getattr(self._writer, "transport", None)
            if transport is None or transport.get_write_buffer_size() > _HIGH_WATER:
                async with self._write_lock:
                    await self._writer.drain()
        except (ConnectionError, RuntimeError, OSError) as exc:
            self._close(ConnectionClosed(f"cannot write to {self._name}: {exc}"))
            raise self._closed from exc  # type: ignore[misc]

    async def request(self, method: str, params: JSON = None) -> JSON:
        """Call ``method`` and return its result; cancelling this call cancels it remotely."""
        if self._closed is not None:
            raise self._closed
        request_id = next(self._ids)
        future: asyncio.Future[JSON] = asyncio.get_running_loop().create_future()
        self._pending[request_id] = future
        message: dict[str, JSON] = {"jsonrpc": "2.0", "id": request_id, "method": method}
        if params is not None:
            message["params"] = params
        try:
            await self._send(message)
            return await future
        except asyncio.CancelledError:
            if self._closed is None and not future.done():
                with contextlib.suppress(Exception):
                    await asyncio.shield(self.notify(CANCEL_METHOD, {"requestId": request_id}))
            raise
        finally:
            self._pending.pop(request_id, None)

    async def notify(self, method: str, params: JSON = None) -> None:
        message: dict[str, JSON] = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            message["params"] = params
        await self._send(message)

    # -- incoming -------------------------------------------------------------------------------

    async def _read_loop(self) -> None:
        # Read what is there and split it into lines here: one await per chunk, not per line.
        partial: list[bytes] = []
        size = 0
        dropping = False
        try:
            while True:
                chunk = await self._reader.read(_CHUNK)
                if not chunk:
                    break
                if b"\n" not in chunk:
                    if not dropping:
                        partial.append(chunk)
                        size += len(chunk)
                        if size > self._limit:
                            logger.warning(
                                "%s: a line over %d bytes was dropped", self._name, self._limit
                            )
                            partial, size, dropping = [], 0, True
                    continue
                lines = chunk.split(b"\n")
                first = lines[0]
                if dropping:
                    lines[0], dropping = b"", False
                elif partial:
                    partial.append(first)
                    lines[0] = b"".join(partial)
                last = lines.pop()
                partial, size = ([last], len(last)) if last else ([], 0)
                for line in lines:
                    if line.strip():
                        await self._handle_line(line)
        except (ConnectionError, OSError) as exc:
            self._close(ConnectionClosed(f"{self._name} connection failed: {exc}"))
        except asyncio.CancelledError:
            self._close(ConnectionClosed(f"connection to {self._name} was closed"))
            raise
        self._close(ConnectionClosed(f"{self._name} closed the connection"))

    async def _handle_line(self, line: bytes) -> None:
        try:
            message = json.loads(line)
        except ValueError:
            await self._reply_error(None, ParseError("invalid JSON"))
            return
        if isinstance(message, list):
            await self._reply_error(None, InvalidRequest("batches are not supported"))
            return
        if not isinstance(message, dict):
            await self._reply_error(None, InvalidRequest("a message must be a JSON object"))
            return
        msg_id = message.get("id")
        if message.get("jsonrpc") != "2.0":
            await self._reply_error(
                msg_id if _valid_id(msg_id) else None, InvalidRequest('"jsonrpc" must be "2.0"')
            )
            return
        method = message.get("method")
        if method is None:
            self._handle_response(message)
            return
        if not isinstance(method, str) or ("id" in message and not _valid_id(msg_id)):
            await self._reply_error(
                msg_id if _valid_id(msg_id) else None, InvalidRequest("bad method or id")
            )
            return
        params = message.get("params")
        if "id" not in message:
            # In line: a notification is handled before anything that arrived after it.
            await self._handle_notification(method, params)
            return
        assert msg_id is not None
        task = asyncio.get_running_loop().create_task(self._handle_request(msg_id, method, params))
        self._handling[msg_id] = task
        task.add_done_callback(lambda _: self._handling.pop(msg_id, None))

    def _handle_response(self, message: dict[str, JSON]) -> None:
        msg_id = message.get("id")
        future = self._pending.get(msg_id) if _valid_id(msg_id) else None  # type: ignore[arg-type]
        if future is None or future.done():
            logger.debug("%s: skipping a response to unknown id %r", self._name, msg_id)
            return
        if "error" in message:
            future.set_exception(RpcError.from_json(message["error"]))
        elif "result" in message:
            future.set_result(message["result"])
        else:
            future.set_exception(InvalidRequest("a response needs result or error"))

    async def _handle_notification(self, method: str, params: JSON) -> None:
        if method == CANCEL_METHOD:
            request_id = params.get("requestId") if isinstance(params, dict) else None
            task = self._handling.get(request_id) if _valid_id(request_id) else None  # type: ignore[arg-type]
            if task is not None:
                task.cancel()
            return
        try:
            await self._dispatcher.notify(method, params)
        except MethodNotFound:
            logger.debug("%s: ignoring unknown notification %r", self._name, method)
        except Exception:
            logger.exception("%s: notification handler for %r failed", self._name, method)

    async def _handle_request(self, msg_id: int | str, method: str, params: JSON) -> None:
        try:
            result = await self._dispatcher.request(method, params)
        except asyncio.CancelledError:
            await self._reply_error(msg_id, RequestCancelled("the request was cancelled"))
            return
        except RpcError as error:
            await self._reply_error(msg_id, error)
            return
        except Exception as exc:
            logger.exception("%s: handler for %r failed", self._name, method)
            await self._reply_error(msg_id, InternalError(f"{type(exc).__name__}: {exc}"))
            return
        with contextlib.suppress(ConnectionClosed):
            await self._send({"jsonrpc": "2.0", "id": msg_id, "result": result})

    async def _reply_error(self, msg_id: int | str | None, error: RpcError) -> None:
        if msg_id is None:
            logger.warning("%s: %s", self._name, error)
        with contextlib.suppress(ConnectionClosed):
            await self._send({"jsonrpc": "2.0", "id": msg_id, "error": error.to_json()})

    # -- shutdown -------------------------------------------------------------------------------

    def _close(self, reason: ConnectionClosed) -> None:
        if self._closed is None:
            self._closed = reason
        for future in list(self._pending.values()):
            if not future.done():
                future.set_exception(self._closed)
        for task in list(self._handling.values()):
            task.cancel()

    async def close(self) -> None:
        """Stop reading, fail pending calls, and close our output."""
        self._close(ConnectionClosed(f"connection to {self._name} was closed"))
        with contextlib.suppress(Exception):
            self._writer.close()
        task = self._reader_task
        if task is not None and not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task


def _valid_id(value: Any) -> bool:
    return isinstance(value, int | str) and not isinstance(value, bool)


# -- processes and stdio -------------------------------------------------------------------------


class Subprocess:
    """A peer process with its connection; ``close()`` shuts it down in order."""

    def __init__(self, process: asyncio.subprocess.Process, connection: Connection) -> None:
        self.process = process
        self.connection = connection

    async def close(self, timeout: float = 2.0) -> int | None:
        """Close its stdin, wait; then terminate, wait; then kill. Returns the exit code."""
        await self.connection.close()
        process = self.process
        for step in (None, process.terminate, process.kill):
            if step is not None and process.returncode is None:
                with contextlib.suppress(ProcessLookupError):
                    step()
            try:
                return await asyncio.wait_for(process.wait(), timeout)
            except TimeoutError:
                continue
        return process.returncode


async def spawn(
    dispatcher: Dispatcher,
    command: str,
    args: Sequence[str] = (),
    *,
    env: Mapping[str, str] | None = None,
    cwd: str | None = None,
    limit: int = DEFAULT_LIMIT,
    stderr: int | None = None,
) -> Subprocess:
    """Start ``command`` and speak JSON-RPC over its stdin/stdout."""
    process = await asyncio.create_subprocess_exec(
        command,
        *args,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=stderr,
        env={**os.environ, **env} if env is not None else None,
        cwd=cwd,
        limit=limit,
    )
    assert process.stdin is not None and process.stdout is not None
    connection = Connection(process.stdout, process.stdin, dispatcher, name=command, limit=limit)
    connection.start()
    return Subprocess(process, connection)


async def stdio_connection(
    dispatcher: Dispatcher, *, limit: int = DEFAULT_LIMIT, name: str = "stdio"
) -> Connection:
    """A connection over this process's own stdin/stdout (for writing agents)."""
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=limit)
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin.buffer)
    transport, protocol = await loop.connect_write_pipe(
        asyncio.streams.FlowControlMixin, sys.stdout.buffer
    )
    writer = asyncio.StreamWriter(transport, protocol, reader, loop)
    connection = Connection(reader, writer, dispatcher, name=name, limit=limit)
    connection.start()
    return connection
