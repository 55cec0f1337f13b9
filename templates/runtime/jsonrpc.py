"""JSON-RPC 2.0 over newline-delimited JSON on any pair of byte streams (asyncio).

One :class:`Connection` is both a caller and a callee: many requests may be in flight in both
directions at once, each matched to its answer by id. Incoming requests run concurrently; their
handler comes from a :class:`Dispatcher`.

Bytes go straight from the pipe's protocol into :meth:`Connection.feed` (no ``StreamReader``,
no reader task), and each handler starts *eagerly*, in that same call: one that answers without
waiting costs no task and no extra event-loop turn; one that waits continues in a task. An agent
answering a prompt thus reads, handles and writes in one loop turn.

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
import collections
import contextlib
import functools
import itertools
import json
import logging
import os
import sys
from collections.abc import Callable, Coroutine, Mapping, Sequence
from typing import IO, Any, ClassVar, Protocol, TypeGuard, cast

from agentproto._runtime.json_types import JSONObject, JSONValue

logger: logging.Logger = logging.getLogger("agentproto.jsonrpc")

DEFAULT_LIMIT = 64 * 1024 * 1024
_HIGH_WATER = 256 * 1024  # bytes queued before a writer waits for the pipe to drain
_BACKLOG_PAUSE = 4096  # lines queued behind a waiting notification handler before reading pauses
_CHUNK = 1 << 20  # bytes asked for per read from a StreamReader
_READ_SIZE = 64 * 1024  # bytes asked for per read from a pipe
CANCEL_METHOD = "$/cancel_request"
JSON = Any
"""Params and results as callers give them: anything ``json`` encodes, or :class:`RawJSON`.
What arrives is parsed into a :data:`JSONValue`."""


class RpcError(Exception):
    """A JSON-RPC error object, raised locally or received from the peer."""

    code: int = -32603
    """The class's code; an instance made from a received error keeps the code it came with."""
    CODES: ClassVar[dict[int, type[RpcError]]] = {}

    def __init__(self, message: str = "", data: JSON = None, *, code: int | None = None) -> None:
        super().__init__(message or type(self).__name__)
        self.message = message or type(self).__name__
        self.data = data
        if code is not None:
            self.code = code

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
    def from_json(cls, error: JSONValue) -> RpcError:
        if isinstance(error, dict):
            code = error.get("code")
            if isinstance(code, int):
                kind = RpcError.CODES.get(code, RpcError)
                return kind(str(error.get("message", "")), error.get("data"), code=code)
        return InternalError("malformed error object", error)


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


_dumps = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
_loads = json.JSONDecoder().decode


@functools.cache
def _json_parser() -> Callable[[bytes], JSONValue]:
    """pydantic-core's JSON parser (about 3x faster than ``json`` on small messages), imported
    when the first connection is made rather than with this module. ``json`` gets a second
    look at what it rejects, since JSON allows a few things it does not (lone surrogate
    escapes), so both accept exactly the same lines."""
    from pydantic_core import from_json

    def parse(line: bytes) -> JSONValue:
        try:
            message: JSONValue = from_json(line)
        except ValueError:
            message = _loads(line.decode())  # raises ValueError for a line that is not JSON
        return message

    return parse


def _encode(message: dict[str, JSON]) -> bytes:
    """One message as a line; pre-encoded params or result are spliced in without a copy
    through ``json``."""
    key = "params" if "params" in message else "result"
    raw = message.get(key)
    if type(raw) is not RawJSON:
        return _dumps(message).encode() + b"\n"
    head = '{"jsonrpc":"2.0"'
    if "id" in message:
        msg_id = message["id"]
        head += ',"id":' + (str(msg_id) if type(msg_id) is int else _dumps(msg_id))
    if "method" in message:
        head += ',"method":' + _dumps(message["method"])
    return b"".join((head.encode(), b',"', key.encode(), b'":', raw, b"}\n"))


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
        reader: asyncio.StreamReader | None,
        writer: Writer,
        dispatcher: Dispatcher,
        *,
        name: str = "peer",
        limit: int = DEFAULT_LIMIT,
    ) -> None:
        self._reader = reader  # None: bytes come through feed() (from a pipe, see read_pipe())
        self._limit = limit
        self._writer = writer
        self._dispatcher = dispatcher
        self._name = name
        self._transport: Any = getattr(writer, "transport", None)  # for its buffer size
        self._loop: asyncio.AbstractEventLoop | None = None
        self._parse = _json_parser()
        self._ids = itertools.count(1)
        self._pending: dict[int | str, asyncio.Future[JSON]] = {}
        self._handling: dict[int | str, asyncio.Task[None]] = {}
        self._write_lock = asyncio.Lock()
        self._closed: ConnectionClosed | None = None
        self._reader_task: asyncio.Task[None] | None = None
        self._finished: asyncio.Future[None] | None = None
        # Splitting lines across chunks.
        self._partial: list[bytes] = []
        self._partial_size = 0
        self._dropping = False
        # Ordering: while a notification handler is suspended, later lines wait here.
        self._blocked_by: asyncio.Task[None] | None = None
        self._backlog: collections.deque[bytes] = collections.deque()
        self._eof: ConnectionClosed | None = None
        self._pipe: _PipeInput | None = None  # see read_pipe()
        self._owns_pipe = False  # close() closes the pipe (stdin; not a child's stdout)
        self._resumed: asyncio.Future[None] | None = None  # set while reading is paused
        self._background: set[asyncio.Task[None]] = set()  # error replies waiting on the pipe

    def start(self) -> None:
        loop = self._loop = asyncio.get_running_loop()
        if self._finished is None:
            self._finished = loop.create_future()
            if self._closed is not None:
                self._finished.set_result(None)
        if self._reader is not None and self._reader_task is None:
            self._reader_task = loop.create_task(self._read_loop())

    async def read_pipe(self, pipe: IO[bytes], *, close: bool = False) -> _PipeInput:
        """Read the peer's lines from ``pipe`` (its stdout, or our stdin) rather than a
        ``StreamReader``: each read is fed in the loop callback that made it. ``close``: close
        the pipe with the connection."""
        reader = self._pipe = _PipeInput(self)
        self._owns_pipe = close
        await asyncio.get_running_loop().connect_read_pipe(lambda: reader, pipe)
        return reader

    @property
    def name(self) -> str:
        """The peer's name, as shown in messages."""
        return self._name

    @property
    def closed(self) -> bool:
        return self._closed is not None

    @property
    def at_eof(self) -> bool:
        """The peer's end of input was fed (:meth:`feed_eof`): the connection closes once the
        lines before it are handled."""
        return self._eof is not None

    async def wait_closed(self) -> None:
        if self._finished is not None:
            await asyncio.shield(self._finished)

    # -- outgoing -------------------------------------------------------------------------------

    async def _send(self, message: dict[str, JSON]) -> None:
        if self._closed is not None:
            raise self._closed
        try:
            # One write per line, at once (the peer starts on it while we go on); lines never
            # interleave. Wait only when the pipe is full.
            self._writer.write(_encode(message))
            transport = self._transport
            if transport is None or transport.get_write_buffer_size() > _HIGH_WATER:
                async with self._write_lock:
                    await self._writer.drain()
        except (ConnectionError, RuntimeError, OSError) as exc:
            reason = self._closed or ConnectionClosed(f"cannot write to {self._name}: {exc}")
            self._close(reason)
            raise reason from exc

    async def request(self, method: str, params: JSON = None) -> JSON:
        """Call ``method`` and return its result; cancelling this call cancels it remotely."""
        if self._closed is not None:
            raise self._closed
        request_id = next(self._ids)
        future: asyncio.Future[JSON] = (self._loop or asyncio.get_running_loop()).create_future()
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
        """Feeds :meth:`feed` from a ``StreamReader`` the caller gave us."""
        assert self._reader is not None
        try:
            while True:
                chunk = await self._reader.read(_CHUNK)
                if not chunk:
                    break
                self.feed(chunk)
                if self._resumed is not None:
                    await self._resumed
        except (ConnectionError, OSError) as exc:
            self.feed_eof(ConnectionClosed(f"{self._name} connection failed: {exc}"))
            return
        except asyncio.CancelledError:
            self._close(ConnectionClosed(f"connection to {self._name} was closed"))
            raise
        self.feed_eof()

    def feed(self, chunk: bytes) -> None:
        """Bytes from the peer: complete lines are handled at once, in this call.

        Responses resolve their futures, requests and notifications start their handlers
        eagerly (no task, no extra loop turn, unless the handler has to wait). While a
        notification handler waits, later lines queue behind it, so messages are still handled
        in arrival order.
        """
        if self._closed is not None or not chunk:
            return
        if b"\n" not in chunk:
            if not self._dropping:
                self._partial.append(chunk)
                self._partial_size += len(chunk)
                if self._partial_size > self._limit:
                    logger.warning("%s: a line over %d bytes was dropped", self._name, self._limit)
                    self._partial, self._partial_size, self._dropping = [], 0, True
            return
        lines = chunk.split(b"\n")
        if self._dropping:
            lines[0], self._dropping = b"", False
        elif self._partial:
            self._partial.append(lines[0])
            lines[0] = b"".join(self._partial)
        last = lines.pop()
        self._partial, self._partial_size = ([last], len(last)) if last else ([], 0)
        for line in lines:
            if not line.strip():
                continue
            if self._blocked_by is not None or self._backlog:
                self._backlog.append(line)
                if len(self._backlog) == _BACKLOG_PAUSE:
                    self._pause_reading()
            else:
                self._handle_line(line)
                if self._closed is not None:
                    return

    def feed_eof(self, reason: ConnectionClosed | None = None) -> None:
        """The peer closed its side: close once every line already received is handled."""
        self._eof = reason or ConnectionClosed(f"{self._name} closed the connection")
        if self._blocked_by is None and not self._backlog:
            self._close(self._eof)

    def _unblock(self, task: asyncio.Task[None]) -> None:
        if self._blocked_by is task:
            self._blocked_by = None
        while self._blocked_by is None and self._backlog and self._closed is None:
            self._handle_line(self._backlog.popleft())
        if not self._backlog:
            self._resume_reading()
        if self._blocked_by is None and self._eof is not None and not self._backlog:
            self._close(self._eof)

    def _pause_reading(self) -> None:
        """Too many lines wait behind a notification handler: stop reading until they are
        handled (the peer then blocks on a full pipe, as with a ``StreamReader``'s limit)."""
        if self._pipe is not None:
            self._pipe.pause_reading()
        if self._resumed is None:
            self._resumed = asyncio.get_running_loop().create_future()

    def _resume_reading(self) -> None:
        if self._resumed is None:
            return
        if self._pipe is not None:
            self._pipe.resume_reading()
        if not self._resumed.done():
            self._resumed.set_result(None)
        self._resumed = None

    def _handle_line(self, line: bytes) -> None:
        try:
            message = self._parse(line)
        except ValueError:  # not UTF-8 (UnicodeDecodeError), or not JSON
            self._reply_error_now(None, ParseError("invalid JSON"))
            return
        if isinstance(message, list):
            self._reply_error_now(None, InvalidRequest("batches are not supported"))
            return
        if not isinstance(message, dict):
            self._reply_error_now(None, InvalidRequest("a message must be a JSON object"))
            return
        msg_id = message.get("id")
        if message.get("jsonrpc") != "2.0":
            self._reply_error_now(
                msg_id if _valid_id(msg_id) else None, InvalidRequest('"jsonrpc" must be "2.0"')
            )
            return
        method = message.get("method")
        if method is None:
            self._handle_response(message)
            return
        if not isinstance(method, str):
            self._reply_error_now(
                msg_id if _valid_id(msg_id) else None, InvalidRequest("bad method or id")
            )
            return
        params = message.get("params")
        if "id" not in message:
            # Handled before anything that arrived after it (see feed()).
            task = _start_eagerly(self._handle_notification(method, params))
            if task is not None:
                self._blocked_by = task
                task.add_done_callback(self._unblock)
            return
        if not _valid_id(msg_id):
            self._reply_error_now(None, InvalidRequest("bad method or id"))
            return
        task = _start_eagerly(self._handle_request(msg_id, method, params))
        if task is not None:
            self._handling[msg_id] = task
            task.add_done_callback(lambda _: self._handling.pop(msg_id, None))

    def _handle_response(self, message: JSONObject) -> None:
        msg_id = message.get("id")
        future = self._pending.get(msg_id) if _valid_id(msg_id) else None
        if future is None or future.done():
            logger.debug("%s: skipping a response to unknown id %r", self._name, msg_id)
            return
        if "error" in message:
            future.set_exception(RpcError.from_json(message["error"]))
        elif "result" in message:
            future.set_result(message["result"])
        else:
            future.set_exception(InvalidRequest("a response needs result or error"))

    async def _handle_notification(self, method: str, params: JSONValue) -> None:
        if method == CANCEL_METHOD:
            request_id = params.get("requestId") if isinstance(params, dict) else None
            task = self._handling.get(request_id) if _valid_id(request_id) else None
            if task is not None:
                task.cancel()
            return
        try:
            await self._dispatcher.notify(method, params)
        except MethodNotFound:
            logger.debug("%s: ignoring unknown notification %r", self._name, method)
        except Exception:
            logger.exception("%s: notification handler for %r failed", self._name, method)

    async def _handle_request(self, msg_id: int | str, method: str, params: JSONValue) -> None:
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

    def _reply_error_now(self, msg_id: int | str | None, error: RpcError) -> None:
        """Answer a bad message from inside :meth:`feed` (no await there)."""
        task = _start_eagerly(self._reply_error(msg_id, error))
        if task is not None:  # the pipe was full: the reply waits for it in a task
            self._background.add(task)
            task.add_done_callback(self._background.discard)

    # -- shutdown -------------------------------------------------------------------------------

    def _close(self, reason: ConnectionClosed) -> None:
        if self._closed is None:
            self._closed = reason
        self._backlog.clear()
        self._resume_reading()
        for task in list(self._background):
            task.cancel()
        if self._finished is not None and not self._finished.done():
            self._finished.set_result(None)
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
        if self._pipe is not None and self._owns_pipe:
            self._pipe.close()
        task = self._reader_task
        if task is not None and not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task


def _valid_id(value: JSONValue) -> TypeGuard[int | str]:
    """An id a request may carry: a number or a string (``true`` is no id)."""
    return isinstance(value, int | str) and not isinstance(value, bool)


def _start_eagerly(coro: Coroutine[Any, Any, None]) -> asyncio.Task[None] | None:
    """Run ``coro`` now, up to its first real wait; ``None`` when it finished without one.

    A handler that answers at once (most do) then costs no task and no loop turn. One that
    waits continues in a task, which carries on driving the same coroutine (what Python
    3.12's eager tasks do; this works on 3.11 too).
    """
    try:
        yielded = coro.send(None)
    except StopIteration:
        return None
    return asyncio.get_running_loop().create_task(_drive(coro, yielded))


async def _drive(coro: Coroutine[Any, Any, None], yielded: Any) -> None:
    """Continue a coroutine that :func:`_start_eagerly` started and that now waits on
    ``yielded`` (an asyncio future, or ``None`` for a bare yield)."""
    while True:
        try:
            if yielded is None:
                await asyncio.sleep(0)
            else:
                # The coroutine marked the future as awaited (as a Task's step expects);
                # unmark it so that this task may wait on it in its place.
                yielded._asyncio_future_blocking = False
                await yielded
        except asyncio.CancelledError:
            if yielded is None or not yielded.cancelled():
                # We were cancelled while the coroutine waits on something else: pass it on.
                try:
                    yielded = coro.throw(asyncio.CancelledError())
                except StopIteration:
                    return
                continue
        except BaseException:
            pass  # the coroutine sees the outcome when it resumes below
        try:
            yielded = coro.send(None)
        except StopIteration:
            return


class _PipeInput(asyncio.Protocol):
    """A connection's input from a pipe (made by :meth:`Connection.read_pipe`): feeds the
    connection straight from the pipe transport, each read in the loop callback that made it
    (no StreamReader, and no ``call_soon`` hop as with the pipes of ``asyncio.subprocess``).
    The connection pauses and resumes it; the owner of the pipe closes it."""

    def __init__(self, connection: Connection) -> None:
        self._connection = connection
        self._transport: asyncio.BaseTransport | None = None

    # -- the pipe's events (asyncio.Protocol) -------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        if hasattr(transport, "max_size"):
            # asyncio reads up to 256 KiB at a time; a buffer that big is mmap'ed and unmapped
            # again on every read (three system calls per message). 64 KiB stays on the heap.
            cast(Any, transport).max_size = _READ_SIZE
        self._transport = transport

    def data_received(self, data: bytes) -> None:
        self._connection.feed(data)

    def eof_received(self) -> bool:
        self._connection.feed_eof()
        return False

    def connection_lost(self, exc: Exception | None) -> None:
        reason = (
            ConnectionClosed(f"{self._connection.name} connection failed: {exc}") if exc else None
        )
        self._connection.feed_eof(reason)

    # -- for the connection and the pipe's owner ---------------------------------------------

    def pause_reading(self) -> None:
        if isinstance(self._transport, asyncio.ReadTransport):
            self._transport.pause_reading()

    def resume_reading(self) -> None:
        if isinstance(self._transport, asyncio.ReadTransport):
            self._transport.resume_reading()

    def drained(self) -> bool:
        """Nothing is left to read: the pipe is not open, or holds no unread bytes."""
        pipe = self._transport
        return pipe is None or pipe.is_closing() or _unread_bytes(pipe) == 0

    def close(self) -> None:
        if self._transport is not None:
            self._transport.close()


# -- processes and stdio -------------------------------------------------------------------------


class Subprocess:
    """A peer process with its connection; ``close()`` shuts it down in order.

    The connection ends when the process exits, even if its stdout stays open: a process it
    started may have inherited the pipe, and no end of file would ever come.
    """

    def __init__(
        self, process: asyncio.subprocess.Process, connection: Connection, stdout: _PipeInput
    ) -> None:
        self.process = process
        self.connection = connection
        self._stdout = stdout
        self._watcher = asyncio.ensure_future(self._end_on_exit())

    async def _end_on_exit(self) -> None:
        code = await self.process.wait()
        connection = self.connection
        while not connection.at_eof and not connection.closed:
            # What it wrote before exiting is still read (and handled) first.
            if self._stdout.drained():
                connection.feed_eof(ConnectionClosed(f"{connection.name} exited with code {code}"))
                return
            await asyncio.sleep(0.02)

    async def close(self, timeout: float = 2.0) -> int | None:
        """Close its stdin, wait; then terminate, wait; then kill. Returns the exit code."""
        self._watcher.cancel()
        await self.connection.close()
        process = self.process
        try:
            for step in (None, process.terminate, process.kill):
                if step is not None and process.returncode is None:
                    with contextlib.suppress(ProcessLookupError):
                        step()
                try:
                    return await asyncio.wait_for(process.wait(), timeout)
                except TimeoutError:
                    continue
            return process.returncode
        finally:
            # Its stdout is read until it exits (what it writes meanwhile is dropped).
            self._stdout.close()


def _unread_bytes(pipe: asyncio.BaseTransport) -> int:
    """Bytes waiting in a pipe (FIONREAD); 0 when that cannot be told."""
    import fcntl
    import termios

    file = pipe.get_extra_info("pipe")
    try:
        buffer = fcntl.ioctl(file.fileno(), termios.FIONREAD, b"\0\0\0\0")
    except (AttributeError, OSError, ValueError):
        return 0
    return int.from_bytes(buffer, sys.byteorder)


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
    """Start ``command`` and speak JSON-RPC over its stdin/stdout.

    Its stdout is a pipe of our own, read by :class:`_PipeInput`, rather than one made by
    ``asyncio.subprocess`` (whose transport defers every read to the next loop turn).
    """
    loop = asyncio.get_running_loop()
    read_fd, write_fd = os.pipe()
    try:
        try:
            transport, protocol = await loop.subprocess_exec(
                lambda: asyncio.subprocess.SubprocessStreamProtocol(limit, loop),
                command,
                *args,
                stdin=asyncio.subprocess.PIPE,
                stdout=write_fd,
                stderr=stderr,
                env={**os.environ, **env} if env is not None else None,
                cwd=cwd,
            )
        finally:
            os.close(write_fd)  # the child has its own copy: its exit is our EOF
        process = asyncio.subprocess.Process(transport, protocol, loop)
        assert process.stdin is not None
        connection = Connection(None, process.stdin, dispatcher, name=command, limit=limit)
        connection.start()
        stdout = os.fdopen(read_fd, "rb", buffering=0)
    except BaseException:
        os.close(read_fd)
        raise
    try:
        pipe = await connection.read_pipe(stdout)
    except BaseException:
        stdout.close()
        with contextlib.suppress(ProcessLookupError):
            process.kill()
        raise
    return Subprocess(process, connection, pipe)


async def stdio_connection(
    dispatcher: Dispatcher, *, limit: int = DEFAULT_LIMIT, name: str = "stdio"
) -> Connection:
    """A connection over this process's own stdin/stdout (for writing agents)."""
    loop = asyncio.get_running_loop()
    transport, protocol = await loop.connect_write_pipe(
        asyncio.streams.FlowControlMixin, sys.stdout.buffer
    )
    writer = asyncio.StreamWriter(transport, protocol, None, loop)
    connection = Connection(None, writer, dispatcher, name=name, limit=limit)
    connection.start()
    await connection.read_pipe(sys.stdin.buffer, close=True)
    return connection
