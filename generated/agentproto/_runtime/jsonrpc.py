"""JSON-RPC 2.0 over newline-delimited JSON on any pair of byte streams (asyncio).

One :class:`Connection` is both a caller and a callee: many requests may be in flight in both
directions at once, each matched to its answer by id. Incoming requests run concurrently; their
handler comes from a :class:`Dispatcher`.

Bytes go straight from the pipe's protocol into :meth:`Connection.feed` (no ``StreamReader``,
no reader task), and each handler starts *eagerly*, in that same call: one that answers without
waiting costs no task and no extra event-loop turn; one that waits continues in a task. An agent
answering a prompt thus reads, handles and writes in one loop turn.

- Over a byte stream (a pipe or socket ``StreamWriter``), lines are written in batches: what
  the handlers of one read write goes out at the end of that read, what is written elsewhere
  at the end of the loop's turn, a request at once (its caller waits for the answer), all in
  order, in one write each (one system call and one wake-up of the peer instead of one per
  message). A close hands what waits to the stream first; a process killed within the turn
  loses what it wrote in it, as with any buffered output. Writers that take one message per
  write (the remote transports) get one message per write.
- Errors are typed (:class:`RpcError` and one subclass per code: parse error -32700, invalid
  request -32600, method not found -32601, invalid params -32602, internal error -32603, auth
  required -32000, resource not found -32002, request cancelled -32800).
- Cancelling the task awaiting :meth:`Connection.request` sends ``$/cancel_request`` to the
  peer, best effort: the notice is handed to the pipe without waiting (a peer that stopped
  reading cannot make a cancelled call wait); a ``$/cancel_request`` received cancels the
  handler's task (or drops the request still queued), which answers -32800.
- Hostile input never kills the connection: a line that is not JSON (not UTF-8, ``NaN`` or
  ``Infinity``, nested deeper than 200) gets -32700, a scalar, a batch or a message without
  ``"jsonrpc": "2.0"`` gets -32600, an unknown request -32601; an unknown notification or a
  stray response is logged and skipped. Each line is parsed, handled and answered on its own:
  nothing that goes wrong with one (an exception of any kind, an answer that cannot be
  encoded) reaches the next.
- A handler's exception is answered -32603 with a generic message (the traceback goes to this
  module's logger; ``expose_errors=True`` sends its text). A result that cannot be encoded as
  JSON (``NaN``, a lone surrogate is escaped instead) is answered -32603 too: nothing but JSON
  goes out.
- Lines may be up to ``limit`` bytes (64 MiB by default: ``Limits.max_message_bytes``); a
  longer one is dropped unread and answered -32600 (id null), however it arrives.
- At most ``Limits.max_incoming_requests`` (256) requests from the peer are handled at once;
  more wait, in order, and reading pauses until one finishes (back-pressure: the peer's writes
  then block on the full pipe), so a flood of requests costs bounded memory.
- When the peer goes away every pending call fails at once with :class:`ConnectionClosed`.
- Notifications and answers are handled in the order they arrive (requests run concurrently):
  a ``session/update`` sent before a prompt's answer has been handled when the prompt call
  returns. So a notification handler must not wait for an answer on the same connection (it
  would wait behind itself); start a task for such work.
"""

from __future__ import annotations

import asyncio
import atexit
import collections
import contextlib
import functools
import itertools
import json
import logging
import os
import shlex
import signal
import sys
import time
from collections.abc import Callable, Coroutine, Mapping, Sequence
from typing import IO, Any, ClassVar, Protocol, TypeGuard, cast

from agentproto._runtime.errors import AgentprotoError
from agentproto._runtime.json_types import JSONObject, JSONValue
from agentproto._runtime.limits import DEFAULT_LIMITS, Limits
from agentproto._runtime.redact import install_log_filter
from agentproto._runtime.stderr import DEFAULT_KEEP, StderrTail

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


class RpcError(AgentprotoError):
    """A JSON-RPC error object, raised locally or received from the peer."""

    code: int = -32603
    """The class's code; an instance made from a received error keeps the code it came with."""
    default_message: ClassVar[str | None] = None
    """The message of an instance made without one (else the class's name)."""
    CODES: ClassVar[dict[int, type[RpcError]]] = {}
    """The codes of this module's classes (the JSON-RPC standard ones and ACP's): what
    :meth:`from_json` reads without a table. A protocol's own classes are not added here (two
    protocols may give one code two meanings); they are looked up in its own table."""

    def __init__(self, message: str = "", data: JSON = None, *, code: int | None = None) -> None:
        """``message`` and ``data`` go to the peer when a handler raises this error."""
        message = message or self.default_message or type(self).__name__
        super().__init__(message)
        self.message: str = message
        self.data: JSON = data
        if code is not None:
            self.code = code

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.__module__ == __name__:
            RpcError.CODES[cls.code] = cls

    def __str__(self) -> str:
        return f"{self.message} ({self.code})"

    def to_json(self) -> dict[str, JSON]:
        error: dict[str, JSON] = {"code": self.code, "message": self.message}
        if self.data is not None:
            error["data"] = self.data
        return error

    @classmethod
    def from_json(
        cls, error: JSONValue, codes: Mapping[int, type[RpcError]] | None = None
    ) -> RpcError:
        """The exception for a received error object: its class from ``codes`` (a protocol's
        table), else from this module's codes, else ``RpcError`` with the code it came with."""
        if isinstance(error, dict):
            code = error.get("code")
            if isinstance(code, int):
                kind = (codes or {}).get(code) or RpcError.CODES.get(code, RpcError)
                return kind(str(error.get("message", "")), error.get("data"), code=code)
        return InternalError("malformed error object", error)


class ParseError(RpcError):
    """The message is not JSON (-32700)."""

    code = -32700


class InvalidRequest(RpcError):
    """The message is not a valid JSON-RPC request (-32600)."""

    code = -32600


class MethodNotFound(RpcError):
    """No such method (-32601)."""

    code = -32601


class InvalidParams(RpcError):
    """The params do not match the method (-32602)."""

    code = -32602


class InternalError(RpcError):
    """The handler failed (-32603)."""

    code = -32603


class AuthRequired(RpcError):
    """Authentication is required (-32000)."""

    code = -32000


class ResourceNotFound(RpcError):
    """A resource was not found (-32002)."""

    code = -32002


class RequestCancelled(RpcError):
    """The request was cancelled (-32800)."""

    code = -32800


STANDARD_ERRORS: dict[int, type[RpcError]] = {
    cls.code: cls
    for cls in (ParseError, InvalidRequest, MethodNotFound, InvalidParams, InternalError)
}
"""The error codes JSON-RPC 2.0 itself defines (-32700, -32600 to -32603), by code."""


class RawJSON(bytes):
    """Params or a result already encoded as JSON (e.g. by pydantic's ``model_dump_json``):
    spliced into the message as is, which saves building and encoding a dict."""


class ProtocolError(AgentprotoError):
    """The peer's answer to ``method`` does not match the protocol: ``field`` (a dotted path,
    ``""`` for the whole answer) is missing or has the wrong type. ``errors`` has them all."""

    def __init__(
        self, method: str, field: str, message: str, errors: Sequence[Mapping[str, Any]] = ()
    ) -> None:
        super().__init__(f"malformed answer to {method!r}: {field or 'the result'}: {message}")
        self.method: str = method
        self.field: str = field
        self.errors: list[Mapping[str, Any]] = list(errors)


def _reject_constant(name: str) -> JSONValue:
    raise ValueError(f"{name} is not JSON")


_dumps = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode
_dumps_ascii = json.JSONEncoder(separators=(",", ":"), allow_nan=False).encode
_loads = json.JSONDecoder(parse_constant=_reject_constant).decode


@functools.cache
def _json_parser() -> Callable[[bytes], JSONValue]:
    """pydantic-core's JSON parser (about 3x faster than ``json`` on small messages), imported
    when the first connection is made rather than with this module. ``json`` gets a second
    look at what it rejects, since JSON allows a few things it does not (lone surrogate
    escapes), so both accept exactly the same lines. Neither accepts ``NaN`` or ``Infinity``
    (not JSON), nor nesting deeper than pydantic-core's limit (200): ``ValueError``."""
    from pydantic_core import from_json

    def parse(line: bytes) -> JSONValue:
        try:
            message: JSONValue = from_json(line, allow_inf_nan=False)
        except ValueError as exc:
            if "recursion limit" in str(exc):
                raise ValueError("nested too deeply") from None
            try:
                message = _loads(line.decode())  # raises ValueError for a line that is not JSON
            except RecursionError:
                raise ValueError("nested too deeply") from None
        return message

    return parse


def _text(value: JSON) -> bytes:
    """``value`` as JSON text in UTF-8. A string holding a lone surrogate (JSON allows the
    escape, so a peer may send one) cannot be UTF-8: it goes out escaped, as it came.
    ``ValueError`` for what is not JSON (``NaN``, ``Infinity``), ``TypeError`` for what
    ``json`` cannot encode."""
    text = _dumps(value)
    try:
        return text.encode()
    except UnicodeEncodeError:
        return _dumps_ascii(value).encode()


def _encode(message: dict[str, JSON]) -> bytes:
    """One message as a line; pre-encoded params or result are spliced in without a copy
    through ``json``."""
    key = "params" if "params" in message else "result"
    raw = message.get(key)
    if type(raw) is not RawJSON:
        return _text(message) + b"\n"
    head = b'{"jsonrpc":"2.0"'
    if "id" in message:
        msg_id = message["id"]
        head += b',"id":' + (str(msg_id).encode() if type(msg_id) is int else _text(msg_id))
    if "method" in message:
        head += _method_part(message["method"])
    return b"".join((head, b',"', key.encode(), b'":', raw, b"}\n"))


_METHOD_PARTS: dict[JSON, bytes] = {}  # the methods this process sends, each encoded once


def _method_part(method: JSON) -> bytes:
    part = _METHOD_PARTS.get(method) if type(method) is str else None
    if part is None:
        part = b',"method":' + _text(method)
        if type(method) is str and len(_METHOD_PARTS) < 256:  # bounded: extension names
            _METHOD_PARTS[method] = part
    return part


class ConnectionClosed(AgentprotoError, ConnectionError):
    """The peer went away (closed its output, or died) before answering. For a spawned peer,
    ``command`` is its command line, ``returncode`` its exit status (negative: the signal
    that ended it; ``None``: not known, or still running) and ``stderr`` the last lines it
    wrote there (also in the message; ``None`` when its stderr was not kept)."""

    def __init__(
        self,
        message: str,
        *,
        command: str | None = None,
        returncode: int | None = None,
        stderr: str | None = None,
    ) -> None:
        super().__init__(message)
        self.command: str | None = command
        self.returncode: int | None = returncode
        self.stderr: str | None = stderr


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
        expose_errors: bool = False,
        limits: Limits | None = None,
    ) -> None:
        """``limits``: its ``max_message_bytes`` replaces ``limit``; ``max_incoming_requests``
        bounds the peer's requests handled at once."""
        self._expose_errors = expose_errors  # send a failed handler's exception text
        self._reader = reader  # None: bytes come through feed() (from a pipe, see read_pipe())
        install_log_filter()  # what this connection logs never shows a credential
        self._limit = limits.max_message_bytes if limits is not None else limit
        self._max_requests = (limits or DEFAULT_LIMITS).max_incoming_requests
        # The peer's requests past max_requests, waiting for a handler to finish (in order).
        self._queued: collections.deque[tuple[int | str, str, JSONValue]] = collections.deque()
        self._writer = writer
        self._dispatcher = dispatcher
        self._name = name
        self._transport: Any = getattr(writer, "transport", None)  # for its buffer size
        # A byte stream (pipes, sockets): the lines of one loop iteration (or of one read's
        # handlers) go out in one write, one system call and one wake-up of the peer. Other
        # writers take one message per write.
        self._batched = isinstance(writer, asyncio.StreamWriter) and self._transport is not None
        self._out: list[bytes] = []  # lines waiting for the end of the iteration
        self._out_size = 0
        self._flush_soon: asyncio.Handle | None = None
        self._feeding = False  # inside feed(): its end writes what its handlers wrote
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
        self._notifying = False  # a notification handler runs, started from feed()

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

    async def _send(self, message: dict[str, JSON], now: bool = False) -> None:
        """Send one message; ``ValueError``/``TypeError`` (nothing sent) when it is not JSON."""
        if self._closed is not None:
            raise self._closed
        await self._write(_encode(message), now)

    async def _write(self, line: bytes, now: bool = False) -> None:
        """Write one encoded line (see :meth:`_send`); ``now``: out at once (with the lines
        waiting before it) unless handlers of a read are running."""
        if self._batched:
            # Lines never interleave (one buffer, written in order); they go out at the end of
            # this read's handlers or of this loop iteration, whichever comes first. Wait only
            # when the pipe is full.
            self._out.append(line)
            self._out_size += len(line)
            if self._out_size + self._transport.get_write_buffer_size() <= _HIGH_WATER:
                if self._feeding:
                    return
                if now:
                    self._flush()
                    if self._closed is not None:
                        raise self._closed
                elif self._flush_soon is None:
                    loop = self._loop or asyncio.get_running_loop()
                    self._flush_soon = loop.call_soon(self._flush_later)
                return
            self._flush()
            if self._closed is not None:
                raise self._closed
        try:
            if not self._batched:
                # One write per message, at once (the peer starts on it while we go on).
                self._writer.write(line)
            transport = self._transport
            if transport is None or transport.get_write_buffer_size() > _HIGH_WATER:
                async with self._write_lock:
                    await self._writer.drain()
        except (ConnectionError, RuntimeError, OSError) as exc:
            if self._closed is not None:
                reason = self._closed
            elif isinstance(exc, ConnectionClosed):  # a transport's own, typed reason
                reason = exc
            else:
                reason = ConnectionClosed(f"cannot write to {self._name}: {exc}")
            self._close(reason)
            raise reason from exc

    def _flush_later(self) -> None:
        self._flush_soon = None
        self._flush()

    def _flush(self) -> None:
        """Hand the waiting lines to the byte stream, in one write. A write that fails closes
        the connection (the calls waiting for an answer fail with its reason)."""
        out = self._out
        if not out:
            return
        data = out[0] if len(out) == 1 else b"".join(out)
        self._out, self._out_size = [], 0
        try:
            self._writer.write(data)
        except (ConnectionError, RuntimeError, OSError) as exc:
            if self._closed is None:
                reason = (
                    exc
                    if isinstance(exc, ConnectionClosed)
                    else ConnectionClosed(f"cannot write to {self._name}: {exc}")
                )
                self._close(reason)

    async def request(self, method: str, params: JSON = None) -> JSON:
        """Call ``method`` and return its result; cancelling this call cancels it remotely.

        ``RuntimeError`` from a notification handler of this connection: the answer would
        queue behind the handler waiting for it (start a task for such work)."""
        if self._closed is not None:
            raise self._closed
        if self._notifying or (
            self._blocked_by is not None and self._blocked_by is asyncio.current_task()
        ):
            raise RuntimeError(
                f"a notification handler of the connection to {self._name} cannot wait for an "
                "answer on it (answers are handled after the handler returns): start a task"
            )
        request_id = next(self._ids)
        future: asyncio.Future[JSON] = (self._loop or asyncio.get_running_loop()).create_future()
        self._pending[request_id] = future
        message: dict[str, JSON] = {"jsonrpc": "2.0", "id": request_id, "method": method}
        if params is not None:
            message["params"] = params
        try:
            # The caller waits for the answer: out now, not at the end of the loop's turn
            # (which would cost a turn more).
            await self._send(message, now=True)
            return await future
        except asyncio.CancelledError:
            # (cancelling the task cancels the future it waits on: cancelled, not answered)
            if self._closed is None and (future.cancelled() or not future.done()):
                self._cancel_notice(request_id)
            raise
        finally:
            self._pending.pop(request_id, None)

    def _cancel_notice(self, request_id: int | str) -> None:
        """Hand ``$/cancel_request`` to the pipe without waiting (best effort): a cancelled
        call returns at once even when the peer stopped reading. Skipped when what waits for
        the pipe already passes ``limit`` (the peer reads nothing; it would only pile up)."""
        transport = self._transport
        if transport is not None and transport.get_write_buffer_size() > self._limit:
            logger.debug("%s: the pipe is full: no cancel notice for %r", self._name, request_id)
            return
        line = _encode(
            {"jsonrpc": "2.0", "method": CANCEL_METHOD, "params": {"requestId": request_id}}
        )
        if self._batched:  # behind the lines waiting (its request may be one of them)
            self._out.append(line)
            self._flush()
            return
        try:
            self._writer.write(line)
        except (ConnectionError, RuntimeError, OSError) as exc:
            logger.debug("%s: the cancel notice was not sent: %s", self._name, exc)

    async def notify(self, method: str, params: JSON = None) -> None:
        if type(params) is RawJSON and self._closed is None:  # encoded already: no message dict
            await self._write(
                b"".join((b'{"jsonrpc":"2.0"', _method_part(method), b',"params":', params, b"}\n"))
            )
            return
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
        outer = not self._feeding  # (a handler may feed lines of its own)
        self._feeding = True
        try:
            self._feed(chunk)
        finally:
            if outer:
                self._feeding = False
                if self._out:  # what the handlers of this read wrote, in one write
                    self._flush()

    def _feed(self, chunk: bytes) -> None:
        if b"\n" not in chunk:
            if not self._dropping:
                self._partial.append(chunk)
                self._partial_size += len(chunk)
                if self._partial_size > self._limit:
                    self._partial, self._partial_size, self._dropping = [], 0, True
                    self._too_long()
            return
        lines = chunk.split(b"\n")
        if self._dropping:
            lines[0], self._dropping = b"", False
        elif self._partial:
            self._partial.append(lines[0])
            lines[0] = b"".join(self._partial)
        last = lines.pop()
        self._partial, self._partial_size = ([last], len(last)) if last else ([], 0)
        if self._partial_size > self._limit:
            self._partial, self._partial_size, self._dropping = [], 0, True
            late = True  # answered after the lines before it
        else:
            late = False
        limit = self._limit
        for line in lines:
            if len(line) > limit:  # whole in one chunk: the same as in pieces
                self._too_long()
                continue
            if not line.strip():
                continue
            if self._blocked_by is not None or self._backlog:
                self._backlog.append(line)
                if len(self._backlog) >= _BACKLOG_PAUSE:
                    self._pause_reading()
            else:
                self._handle_line_safely(line)
                if self._closed is not None:
                    return
        if late:
            self._too_long()

    def _too_long(self) -> None:
        """A line over ``limit`` bytes: not read (its end is skipped), answered -32600."""
        logger.warning("%s: a line over %d bytes was dropped", self._name, self._limit)
        if self._closed is None:
            self._reply_error_now(
                None,
                InvalidRequest(
                    f"a message over {self._limit} bytes (Limits.max_message_bytes) was dropped"
                ),
            )

    async def ready(self) -> None:
        """Wait while reading is paused (too many requests or lines wait for a handler): a
        transport that :meth:`feed` s messages awaits this before taking the next one, so the
        peer is held back (``Limits.max_incoming_requests``) instead of queued without bound."""
        resumed = self._resumed
        if resumed is not None and self._closed is None:
            await asyncio.shield(resumed)

    def feed_eof(self, reason: ConnectionClosed | None = None) -> None:
        """The peer closed its side: close once every line already received is handled."""
        self._eof = reason or ConnectionClosed(f"{self._name} closed the connection")
        if self._blocked_by is None and not self._backlog:
            self._close(self._eof)

    def _unblock(self, task: asyncio.Task[None]) -> None:
        if self._blocked_by is task:
            self._blocked_by = None
        while self._blocked_by is None and self._backlog and self._closed is None:
            self._handle_line_safely(self._backlog.popleft())
        if not self._backlog and not self._queued:
            self._resume_reading()
        if self._blocked_by is None and self._eof is not None and not self._backlog:
            self._close(self._eof)

    def _pause_reading(self) -> None:
        """Too many lines wait behind a notification handler, or requests for a handler:
        stop reading until they are handled (the peer then blocks on a full pipe, as with a
        ``StreamReader``'s limit)."""
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

    def _handle_line_safely(self, line: bytes) -> None:
        """One line, on its own: whatever goes wrong stays with it (logged), later lines of the
        same read are still handled."""
        try:
            self._handle_line(line)
        except Exception:
            logger.exception("%s: a message could not be handled", self._name)
            with contextlib.suppress(Exception):
                self._reply_error_now(None, InternalError("internal error"))

    def _handle_line(self, line: bytes) -> None:
        try:
            message = self._parse(line)
        except ValueError as exc:  # not UTF-8 (UnicodeDecodeError), not JSON, too deep
            why = "nested too deeply" if "nested too deeply" in str(exc) else "invalid JSON"
            self._reply_error_now(None, ParseError(why))
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
            self._notifying = True
            try:
                task = start_eagerly(self._handle_notification(method, params))
            finally:
                self._notifying = False
            if task is not None:
                self._blocked_by = task
                task.add_done_callback(self._unblock)
            return
        if not _valid_id(msg_id):
            self._reply_error_now(None, InvalidRequest("bad method or id"))
            return
        if len(self._handling) >= self._max_requests or self._queued:
            self._queued.append((msg_id, method, params))
            self._pause_reading()
            return
        self._start_request(msg_id, method, params)

    def _start_request(self, msg_id: int | str, method: str, params: JSONValue) -> None:
        task = start_eagerly(self._handle_request(msg_id, method, params))
        if task is not None:
            self._handling[msg_id] = task
            task.add_done_callback(lambda done: self._request_done(msg_id, done))

    def _request_done(self, msg_id: int | str, task: asyncio.Task[None]) -> None:
        """A handler finished: start the queued requests there is room for now."""
        if self._handling.get(msg_id) is task:
            del self._handling[msg_id]
        while self._queued and len(self._handling) < self._max_requests and self._closed is None:
            self._start_request(*self._queued.popleft())
        if not self._queued and len(self._backlog) < _BACKLOG_PAUSE:
            self._resume_reading()

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
            elif _valid_id(request_id):
                for item in self._queued:
                    if item[0] == request_id:  # not started yet: dropped, answered -32800
                        self._queued.remove(item)
                        await self._reply_error(
                            request_id, RequestCancelled("the request was cancelled")
                        )
                        break
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
            detail = f"{type(exc).__name__}: {exc}" if self._expose_errors else "internal error"
            await self._reply_error(msg_id, InternalError(detail))
            return
        try:
            await self._send({"jsonrpc": "2.0", "id": msg_id, "result": result})
        except ConnectionClosed:
            pass
        except (ValueError, TypeError, RecursionError):
            logger.exception("%s: the result of %r is not JSON", self._name, method)
            await self._reply_error(msg_id, InternalError("the result could not be encoded"))

    async def _reply_error(self, msg_id: int | str | None, error: RpcError) -> None:
        if msg_id is None:
            logger.warning("%s: %s", self._name, error)
        try:
            await self._send({"jsonrpc": "2.0", "id": msg_id, "error": error.to_json()})
        except ConnectionClosed:
            pass
        except (ValueError, TypeError, RecursionError):  # its data is not JSON
            logger.exception("%s: error %s could not be encoded", self._name, error.code)
            bare = {"code": error.code, "message": "internal error"}
            with contextlib.suppress(ConnectionClosed):
                await self._send({"jsonrpc": "2.0", "id": msg_id, "error": bare})

    def _reply_error_now(self, msg_id: int | str | None, error: RpcError) -> None:
        """Answer a bad message from inside :meth:`feed` (no await there)."""
        task = start_eagerly(self._reply_error(msg_id, error))
        if task is not None:  # the pipe was full: the reply waits for it in a task
            self._background.add(task)
            task.add_done_callback(self._background.discard)

    # -- shutdown -------------------------------------------------------------------------------

    def _close(self, reason: ConnectionClosed) -> None:
        if self._closed is None:
            if self._out:  # written before the close: handed to the stream first
                data, self._out, self._out_size = b"".join(self._out), [], 0
                with contextlib.suppress(ConnectionError, RuntimeError, OSError):
                    self._writer.write(data)
            self._closed = reason
        self._backlog.clear()
        self._queued.clear()
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

    def close_now(self) -> None:
        """Close at once, without waiting (for a handler running on this connection's loop,
        inside the read that delivered its message): no later line is handled, not even one
        of the same read, calls in flight fail with :class:`ConnectionClosed` and nothing more
        is sent. :meth:`close` then closes our output."""
        self._close(ConnectionClosed(f"connection to {self._name} was closed"))

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


def start_eagerly(coro: Coroutine[Any, Any, None]) -> asyncio.Task[None] | None:
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
    """Continue a coroutine that :func:`start_eagerly` started and that now waits on
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
        self.on_eof: Callable[[ConnectionClosed | None], None] = connection.feed_eof
        """What the end of the pipe does (a :class:`Subprocess` names the exit status)."""
        self._ended = False

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
        self._ended = True
        self.on_eof(None)
        return False

    def connection_lost(self, exc: Exception | None) -> None:
        if self._ended:
            return
        self._ended = True
        reason = (
            ConnectionClosed(f"{self._connection.name} connection failed: {exc}") if exc else None
        )
        self.on_eof(reason)

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

    The process leads its own process group (a new session), so that whatever it starts (a
    launcher shim's real agent) is ended with it: :meth:`close` ends the whole group, and so
    does this interpreter's exit for a group still running.

    The connection ends when the process exits, even if its stdout stays open: a process it
    started may have inherited the pipe, and no end of file would ever come.
    """

    def __init__(
        self,
        process: asyncio.subprocess.Process,
        connection: Connection,
        stdout: _PipeInput,
        command: str = "",
        stderr: StderrTail | None = None,
    ) -> None:
        self.process = process
        self.connection = connection
        self.command: str = command or connection.name
        self.stderr: StderrTail | None = stderr
        """Its stderr, kept (the last bytes) unless spawned with a stderr of its own."""
        self._stdout = stdout
        self.pgid: int = process.pid
        """Its process group (and session): what :meth:`close` ends."""
        _live_groups[self.pgid] = True
        self._eof_task: asyncio.Future[None] | None = None
        stdout.on_eof = self._eof
        self._watcher = asyncio.ensure_future(self._end_on_exit())

    @property
    def ended(self) -> bool:
        """:meth:`close` has ended its process group (or the exit handler did)."""
        return self.pgid not in _live_groups

    def _ended(self, code: int | None) -> ConnectionClosed:
        if code is None:
            how = "closed its output"
        elif code < 0:
            how = f"was killed by signal {-code}"
        else:
            how = f"exited with code {code}"
        said = None
        if self.stderr is not None:
            self.stderr.read_now()
            said = self.stderr.tail()
        message = f"{self.command} {how}" + (f"; its stderr ends:\n{said}" if said else "")
        return ConnectionClosed(message, command=self.command, returncode=code, stderr=said)

    def _eof(self, reason: ConnectionClosed | None) -> None:
        """Its stdout ended: the connection closes, naming the exit status when it comes soon
        (a process that closes its output is usually exiting)."""
        if reason is not None or self.process.returncode is not None:
            self.connection.feed_eof(reason or self._ended(self.process.returncode))
            return

        async def wait_for_exit() -> None:
            try:
                code: int | None = await asyncio.wait_for(self.process.wait(), 0.5)
            except TimeoutError:
                code = None
            if not self.connection.at_eof:
                self.connection.feed_eof(self._ended(code))

        self._eof_task = asyncio.ensure_future(wait_for_exit())

    async def _end_on_exit(self) -> None:
        code = await self.process.wait()
        connection = self.connection
        while not connection.at_eof and not connection.closed:
            # What it wrote before exiting is still read (and handled) first.
            if self._stdout.drained():
                connection.feed_eof(self._ended(code))
                return
            await asyncio.sleep(0.02)

    async def close(self, timeout: float = 2.0) -> int | None:
        """Close its stdin and wait for it to exit; then SIGTERM its process group (whatever
        is left of it) and wait; then SIGKILL it. Every wait is ``timeout`` seconds at most.
        Returns the exit code."""
        self._watcher.cancel()
        await self.connection.close()
        process = self.process
        ended = False
        try:
            await _wait_process(process, timeout)
            for sig in (signal.SIGTERM, signal.SIGKILL):
                if process.returncode is not None and await _group_gone(self.pgid, 0):
                    break
                _signal_group(self.pgid, sig)
                await _wait_process(process, timeout)
                await _group_gone(self.pgid, timeout)
            ended = True
            return process.returncode
        finally:
            if not ended:  # cancelled: nothing of it may outlive close()
                _signal_group(self.pgid, signal.SIGKILL)
            _live_groups.pop(self.pgid, None)
            # Its stdout is read until it exits (what it writes meanwhile is dropped).
            self._stdout.close()
            if self.stderr is not None:
                self.stderr.close()


async def _wait_process(process: asyncio.subprocess.Process, timeout: float) -> None:
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(process.wait(), timeout)


_live_groups: dict[int, bool] = {}
"""Process groups of spawned peers not closed yet, ended at this interpreter's exit."""


def _signal_group(pgid: int, sig: int) -> bool:
    """Send ``sig`` to a process group; ``False`` when none of it is left."""
    try:
        os.killpg(pgid, sig)
    except (ProcessLookupError, PermissionError):
        return False
    return True


async def _group_gone(pgid: int, timeout: float) -> bool:
    """Wait up to ``timeout`` for every process of a group to end."""
    deadline = asyncio.get_running_loop().time() + timeout
    while _signal_group(pgid, 0) and not _only_zombies(pgid):
        if asyncio.get_running_loop().time() >= deadline:
            return False
        await asyncio.sleep(0.01)
    return True


def _only_zombies(pgid: int) -> bool:
    """All that is left of a group has exited and waits to be reaped (by init, which may be
    slow to, in a container): nothing is running. ``False`` when that cannot be told."""
    proc = "/proc"
    try:
        pids = [name for name in os.listdir(proc) if name.isdigit()]
    except OSError:
        return False
    for pid in pids:
        try:
            with open(f"{proc}/{pid}/stat", "rb") as file:
                fields = file.read().rsplit(b")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if len(fields) > 2 and int(fields[2]) == pgid and fields[0] != b"Z":
            return False
    return True


def end_process_groups(grace: float = 1.0, groups: Sequence[int] | None = None) -> None:
    """End the process groups of spawned peers (``groups``, or all not closed yet): SIGTERM,
    then SIGKILL after ``grace`` seconds. Registered to run at this interpreter's exit."""
    chosen: list[int] = list(_live_groups) if groups is None else list(groups)
    for pgid in chosen:
        _live_groups.pop(pgid, None)
    left = [pgid for pgid in chosen if _signal_group(pgid, signal.SIGTERM)]
    deadline = time.monotonic() + grace
    while left and time.monotonic() < deadline:
        left = [pgid for pgid in left if _signal_group(pgid, 0) and not _only_zombies(pgid)]
        if left:
            time.sleep(0.01)
    for pgid in left:
        _signal_group(pgid, signal.SIGKILL)


atexit.register(end_process_groups)


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


def command_line(command: str | Sequence[str], args: Sequence[str] = ()) -> list[str]:
    """``command`` and ``args`` as one argument list; ``command`` may be that list already
    (then ``args`` must be empty)."""
    if isinstance(command, str | os.PathLike):
        if isinstance(args, str):
            raise TypeError(f"args must be a list of strings, not the string {args!r}")
        return [os.fspath(command), *args]
    argv: list[object] = list(command)
    if not argv or not all(isinstance(arg, str) for arg in argv):
        raise TypeError(f"command must be a string or a non-empty list of strings, not {command!r}")
    if args:
        raise TypeError("give the command as a list, or as a string and args, not both")
    return [str(arg) for arg in argv]


async def spawn(
    dispatcher: Dispatcher,
    command: str | Sequence[str],
    args: Sequence[str] = (),
    *,
    env: Mapping[str, str] | None = None,
    cwd: str | None = None,
    limit: int = DEFAULT_LIMIT,
    stderr: int | None = None,
    expose_errors: bool = False,
    pass_stderr: bool = False,
    keep_stderr: int = DEFAULT_KEEP,
    limits: Limits | None = None,
) -> Subprocess:
    """Start ``command`` (with ``args``; or ``command`` as an argument list) in a process group
    of its own and speak JSON-RPC over its stdin/stdout.

    Its stdout is a pipe of our own, read by :class:`_PipeInput`, rather than one made by
    ``asyncio.subprocess`` (whose transport defers every read to the next loop turn). Its
    stderr goes to ``stderr`` (a file descriptor) when given; otherwise it is read into a
    :class:`StderrTail` keeping the last ``keep_stderr`` bytes (and passed through to ours when
    ``pass_stderr``): a :class:`ConnectionClosed` for its end carries that tail.
    """
    argv = command_line(command, args)
    shown = shlex.join(argv)
    shown = shown if len(shown) <= 200 else shown[:197] + "..."
    loop = asyncio.get_running_loop()
    tail = StderrTail(keep_stderr, passthrough=pass_stderr) if stderr is None else None
    err_read, err_write = os.pipe() if tail is not None else (None, stderr)
    read_fd, write_fd = os.pipe()
    try:
        try:
            transport, protocol = await loop.subprocess_exec(
                lambda: asyncio.subprocess.SubprocessStreamProtocol(limit, loop),
                *argv,
                stdin=asyncio.subprocess.PIPE,
                stdout=write_fd,
                stderr=err_write,
                env={**os.environ, **env} if env is not None else None,
                cwd=cwd,
                start_new_session=True,
            )
        finally:
            os.close(write_fd)  # the child has its own copy: its exit is our EOF
            if tail is not None and err_write is not None:
                os.close(err_write)
        if tail is not None and err_read is not None:
            err_pipe, err_read = os.fdopen(err_read, "rb", buffering=0), None
            try:
                await tail.attach(err_pipe)
            except BaseException:
                err_pipe.close()
                raise
        process = asyncio.subprocess.Process(transport, protocol, loop)
        assert process.stdin is not None
        connection = Connection(
            None,
            process.stdin,
            dispatcher,
            name=shown,
            limit=limit,
            expose_errors=expose_errors,
            limits=limits,
        )
        connection.start()
        stdout = os.fdopen(read_fd, "rb", buffering=0)
    except BaseException:
        os.close(read_fd)
        if err_read is not None:
            os.close(err_read)
        if tail is not None:
            tail.close()
        raise
    try:
        pipe = await connection.read_pipe(stdout)
    except BaseException:
        stdout.close()
        if tail is not None:
            tail.close()
        with contextlib.suppress(ProcessLookupError):
            process.kill()
        raise
    return Subprocess(process, connection, pipe, shown, tail)


async def stdio_connection(
    dispatcher: Dispatcher,
    *,
    limit: int = DEFAULT_LIMIT,
    name: str = "stdio",
    expose_errors: bool = False,
    limits: Limits | None = None,
) -> Connection:
    """A connection over this process's own stdin/stdout (for writing agents)."""
    loop = asyncio.get_running_loop()
    transport, protocol = await loop.connect_write_pipe(
        asyncio.streams.FlowControlMixin, sys.stdout.buffer
    )
    writer = asyncio.StreamWriter(transport, protocol, None, loop)
    connection = Connection(
        None, writer, dispatcher, name=name, limit=limit, expose_errors=expose_errors, limits=limits
    )
    connection.start()
    await connection.read_pipe(sys.stdin.buffer, close=True)
    return connection
