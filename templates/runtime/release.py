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
import threading
import warnings
import weakref
from collections import deque
from typing import Any

import httpx

__all__ = ["Orphans", "aclose_orphans", "close_orphans", "guard", "opened_at"]

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


def guard(
    stream: object, response: httpx.Response, orphans: Orphans, *, what: str
) -> weakref.finalize[Any, Any]:
    """Close ``response`` when ``stream`` goes away unclosed (see the module docs). Call
    ``detach()`` on the result when the stream is closed properly."""
    is_async = isinstance(response.stream, httpx.AsyncByteStream)
    finalizer = weakref.finalize(stream, _dropped, response, orphans, what, opened_at(), is_async)
    finalizer.atexit = False  # at exit, every connection goes anyway
    return finalizer


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
        await _aclose(response)
