"""Deterministic release of streamed responses, whatever the caller does with the stream.

A stream object (AAP events, an LLM answer...) owns an open HTTP response, which holds one
of the client's pooled connections until it is closed. Closing it from the stream's own
generator covers a stream that is read, broken out of or cancelled, but not one dropped before
its first read (a generator that never started runs no ``finally``), and the garbage collector
alone never gives the connection back: after as many such streams as the pool has connections,
every call on the client times out.

:func:`guard` ties the response to the stream object: when the object goes away unclosed, the
response is closed, and a ``ResourceWarning`` says where the stream was opened.

- At once when the object is freed by reference counting (``del``, a stream never bound to a
  name, a ``break`` out of a ``for``): the blocking flavour closes the response there; the async
  one schedules its ``aclose()`` on the running event loop.
- When the cyclic garbage collector frees it (it may run at any allocation, even inside
  httpcore's pool lock, where closing would deadlock), the response is queued on its client
  (:class:`Orphans`) and closed at the start of the client's next call, or when the client
  closes.
"""

from __future__ import annotations

import asyncio
import gc
import inspect
import sys
import threading
import warnings
import weakref
from collections import deque
from collections.abc import AsyncIterator
from typing import Any

import httpx

__all__ = [
    "Guard",
    "Orphans",
    "Pump",
    "aclose_orphans",
    "aclose_shielded",
    "close_orphans",
    "close_shielded",
    "guard",
    "opened_at",
    "pump",
]

_collecting = False


def _gc_phase(phase: str, info: dict[str, Any]) -> None:
    global _collecting
    _collecting = phase == "start"


gc.callbacks.append(_gc_phase)
_closing: set[asyncio.Task[None]] = set()  # async closes scheduled from a finalizer


class Orphans:
    """Responses of streams dropped while the garbage collector ran: closed by their client
    at its next call (thread-safe: a collection may run on any thread)."""

    def __init__(self) -> None:
        self._items: deque[httpx.Response] = deque()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._items)

    def add(self, response: httpx.Response) -> None:
        with self._lock:
            self._items.append(response)

    def take(self) -> list[httpx.Response]:
        """Every queued response (the queue is emptied)."""
        if not self._items:
            return []
        with self._lock:
            items = list(self._items)
            self._items.clear()
        return items


def opened_at() -> str:
    """``file:line`` of the first caller outside this package (where a stream was opened)."""
    frame = inspect.currentframe()
    while frame is not None:
        module = str(frame.f_globals.get("__name__", ""))
        if not (module == "agentproto" or module.startswith("agentproto.")):
            return f"{frame.f_code.co_filename}:{frame.f_lineno}"
        frame = frame.f_back
    return "<unknown>"


class Guard(weakref.ref[object]):
    """What :func:`guard` returns: one weak reference to the stream, carrying what closing
    needs. (A ``weakref.finalize`` is four objects the cyclic garbage collector tracks, and an
    open stream is held by thousands at scale: each tracked object makes every collection
    longer.)"""

    __slots__ = ("_is_async", "_orphans", "_response", "_what", "_where")

    def __new__(
        cls, stream: object, response: httpx.Response, orphans: Orphans, what: str
    ) -> Guard:
        return super().__new__(cls, stream, Guard._fire)

    def __init__(
        self, stream: object, response: httpx.Response, orphans: Orphans, what: str
    ) -> None:
        # (``weakref.ref.__init__`` only checks the arguments ``__new__`` took)
        self._response: httpx.Response | None = response
        self._orphans = orphans
        self._what = what
        self._where = opened_at()
        self._is_async = isinstance(response.stream, httpx.AsyncByteStream)
        _GUARDS[id(self)] = self

    def detach(self) -> None:
        """The stream was closed properly: nothing to do when it goes away."""
        if self._response is not None:
            self._response = None
            del _GUARDS[id(self)]

    @property
    def alive(self) -> bool:
        """Not detached, and the stream still here."""
        return self._response is not None and self() is not None

    @staticmethod
    def _fire(ref: Guard) -> None:
        """The stream went away: close its response unless it was detached."""
        response, ref._response = ref._response, None
        if response is None:
            return
        del _GUARDS[id(ref)]
        if not sys.is_finalizing():  # at exit, every connection goes anyway
            _dropped(response, ref._orphans, ref._what, ref._where, ref._is_async)


# A weak reference is called back only while it is alive itself: the guards of the streams not
# closed yet (by ``id``: a stream need not be hashable).
_GUARDS: dict[int, Guard] = {}


def guard(stream: object, response: httpx.Response, orphans: Orphans, *, what: str) -> Guard:
    """Close ``response`` when ``stream`` goes away unclosed (see the module docs). Call
    ``detach()`` on the result when the stream is closed properly."""
    return Guard(stream, response, orphans, what)


def _dropped(
    response: httpx.Response, orphans: Orphans, what: str, where: str, is_async: bool
) -> None:
    if response.is_closed:
        return  # read to its end, or closed on an error: nothing is held
    warnings.warn(
        f"{what} opened at {where} was not closed: its connection is given back now (use it "
        "in a with block, or call close())",
        ResourceWarning,
        stacklevel=2,
    )
    if _collecting:
        orphans.add(response)
        return
    if not is_async:
        try:
            response.close()
        except Exception:  # nowhere to raise to; the connection is dropped with it
            orphans.add(response)
        return
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:  # not on the event loop's thread (or not asyncio)
        orphans.add(response)
        return
    task = loop.create_task(_aclose(response))
    _closing.add(task)
    task.add_done_callback(_closing.discard)


async def _aclose(response: httpx.Response) -> None:
    try:
        await response.aclose()
    except Exception:  # the connection is broken: it is dropped, nothing is held
        pass
    reader = _PUMPS.pop(response, None)
    if reader is not None:
        reader.stop()


async def aclose_shielded(response: httpx.Response) -> None:
    """Close ``response`` so that no cancellation of the caller stops the close half-way.

    asyncio delivers a cancellation requested while a task is ready at that task's next
    await, whatever shield anyio puts up: inside httpcore's close, it leaves the connection
    busy for good (the pool never gets it back). On asyncio the close runs in a task of its
    own, which the caller's cancellation does not reach; elsewhere (trio) in a shielded
    cancel scope, which holds there."""
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:  # not asyncio
        loop = None
    if loop is None:
        import anyio

        with anyio.CancelScope(shield=True):
            await _aclose(response)
        return
    task = loop.create_task(_aclose(response))
    _closing.add(task)
    task.add_done_callback(_closing.discard)
    await asyncio.shield(task)


_END: Any = object()


class Pump:
    """Reads a response's raw body in a task of its own, ahead of its reader.

    httpcore closes a connection from inside its read when the read fails (a server that cuts
    the stream); asyncio delivers a cancellation at whatever await comes next, anyio's shields
    notwithstanding, and one landing inside that close leaves the connection busy for good:
    the pool never gets it back. The pump's task is never cancelled, so httpcore's frames
    never meet the reader's cancellation; the reader only waits on a future, which any
    cancellation leaves clean. The reader takes every chunk read so far at once (joined), so
    the hand-over costs one wake-up per batch, not per chunk; the pump waits once
    ``BUFFER`` bytes are waiting. The response's owner closes it (:func:`aclose_shielded`),
    which stops the pump (its read then fails, and it ends)."""

    BUFFER = 256 * 1024

    __slots__ = ("_buffer", "_end", "_loop", "_room", "_size", "_stopped", "_task", "_waiter")

    def __init__(self, response: httpx.Response, chunks: AsyncIterator[bytes]) -> None:
        self._loop = asyncio.get_running_loop()
        self._buffer: list[bytes] = []
        self._size = 0
        self._end: Any = None  # _END, or the read's error, once the pump is done
        self._waiter: asyncio.Future[None] | None = None  # the reader, waiting for data
        self._room: asyncio.Future[None] | None = None  # the pump, waiting for the reader
        self._stopped = False
        # Held while it runs (the loop holds its tasks weakly), let go once done: a done task
        # still holds its coroutine and context, objects the garbage collector walks as long as
        # the stream is open.
        self._task: asyncio.Task[None] | None = self._loop.create_task(self._run(chunks))
        self._task.add_done_callback(_retrieve)
        _PUMPS[response] = self

    async def _run(self, chunks: AsyncIterator[bytes]) -> None:
        try:
            async for chunk in chunks:
                if self._stopped:
                    return
                self._buffer.append(chunk)
                self._size += len(chunk)
                self._wake()
                if self._size >= self.BUFFER:
                    self._room = self._loop.create_future()
                    await self._room
                    if self._stopped:
                        return
            self._end = _END
        except Exception as exc:  # the read failed (or the response was closed): handed on
            self._end = exc
        finally:
            self._task = None  # the loop holds the task to its end
        self._wake()

    def _wake(self) -> None:
        waiter, self._waiter = self._waiter, None
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    async def next(self) -> bytes | None:
        """What was read since the last call (``None`` at the end of the body); the read's
        error, raised, once what came before it was taken."""
        while not self._buffer:
            if self._end is _END:
                return None
            if self._end is not None:
                raise self._end
            self._waiter = self._loop.create_future()
            await self._waiter
        data = self._buffer[0] if len(self._buffer) == 1 else b"".join(self._buffer)
        self._buffer = []
        self._size = 0
        room, self._room = self._room, None
        if room is not None and not room.done():
            room.set_result(None)
        return data

    def stop(self) -> None:
        """The reader is gone: stop, freeing the pump if it waits for room."""
        self._stopped = True
        self._buffer = []
        room, self._room = self._room, None
        if room is not None and not room.done():
            room.set_result(None)


def _retrieve(task: asyncio.Task[None]) -> None:
    """The pump's task ends with whatever error its closed response gave: seen here, so that
    asyncio does not log it as never retrieved."""
    if not task.cancelled():
        task.exception()


_PUMPS: weakref.WeakKeyDictionary[httpx.Response, Pump] = weakref.WeakKeyDictionary()


def pump(response: httpx.Response, chunks: AsyncIterator[bytes]) -> Pump | None:
    """A :class:`Pump` for ``response`` on asyncio; ``None`` elsewhere (trio), where anyio's
    shields hold and the chunks are read directly."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return None
    return Pump(response, chunks)


def close_shielded(response: httpx.Response) -> None:
    """The blocking twin of :func:`aclose_shielded` (nothing cancels a blocking close)."""
    try:
        response.close()
    except Exception:  # the connection is broken: it is dropped, nothing is held
        pass


def close_orphans(orphans: Orphans) -> None:
    """Close the queued responses (the blocking client, at its next call)."""
    for response in orphans.take():
        try:
            response.close()
        except Exception:
            pass


async def aclose_orphans(orphans: Orphans) -> None:
    """Close the queued responses (the async client, at its next call)."""
    for response in orphans.take():
        await aclose_shielded(response)
