"""A private event loop on a background thread, so blocking code can drive async clients."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable, Coroutine
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")

WORKER_GRACE = 1.0
"""Seconds a stopping loop waits for its worker threads (blocking handlers run there) that
are between tasks. One still running a task is not waited for: its code cannot be stopped."""


class _Workers(ThreadPoolExecutor):
    """The loop's default executor: knows its threads and which of them run a task, so a
    stopping loop can join the idle ones instead of leaving them to end some time later."""

    def __init__(self, name: str) -> None:
        self.threads: list[threading.Thread] = []
        self.busy: set[threading.Thread] = set()
        super().__init__(thread_name_prefix=f"{name}-worker", initializer=self._started)

    def _started(self) -> None:
        self.threads.append(threading.current_thread())

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        def run() -> T:
            me = threading.current_thread()
            self.busy.add(me)
            try:
                return fn(*args, **kwargs)
            finally:
                self.busy.discard(me)

        return super().submit(run)

    def close(self) -> None:
        """Stop taking tasks and join the idle threads (up to :data:`WORKER_GRACE` seconds)."""
        self.shutdown(wait=False, cancel_futures=True)
        deadline = time.monotonic() + WORKER_GRACE
        for thread in self.threads:
            if thread not in self.busy:
                thread.join(max(0.0, deadline - time.monotonic()))


class LoopThread:
    """Runs coroutines on its own loop; :meth:`run` blocks the caller until one finishes."""

    def __init__(self, name: str = "agentproto-loop") -> None:
        self.loop: asyncio.AbstractEventLoop = asyncio.new_event_loop()
        self._workers = _Workers(name)
        self.loop.set_default_executor(self._workers)
        self._thread = threading.Thread(target=self._main, name=name, daemon=True)
        self._thread.start()

    def _main(self) -> None:
        asyncio.set_event_loop(self.loop)
        try:
            self.loop.run_forever()
        finally:
            self.loop.close()
            self._workers.close()  # its idle threads have ended when the loop thread ends

    @property
    def in_loop_thread(self) -> bool:
        """The caller runs on the loop's own thread (a callback or a handler), where waiting
        for the loop would wait forever."""
        return threading.current_thread() is self._thread

    @property
    def running(self) -> bool:
        return self._thread.is_alive() and not self.loop.is_closed()

    def run(self, coro: Coroutine[Any, Any, T], timeout: float | None = None) -> T:
        """Run ``coro`` on the loop and wait; on timeout (or Ctrl-C) it is cancelled.
        ``RuntimeError`` at once from the loop's own thread, or once the loop has stopped."""
        if self.in_loop_thread:
            coro.close()
            raise RuntimeError("cannot wait for the connection's loop from its own thread")
        try:
            future = asyncio.run_coroutine_threadsafe(coro, self.loop)
        except RuntimeError:  # the loop is closed
            coro.close()
            raise RuntimeError("the connection is closed") from None
        try:
            return future.result(timeout)
        except BaseException:
            future.cancel()
            raise

    def join(self, timeout: float | None = None) -> None:
        """Wait up to ``timeout`` seconds for the loop to stop (at once from its own thread)."""
        if not self.in_loop_thread:
            self._thread.join(timeout)

    def stop(self, timeout: float = 5.0) -> None:
        """Stop the loop (and close it, on its thread); waits up to ``timeout`` seconds unless
        called from the loop's own thread."""
        if self._thread.is_alive():
            try:
                self.loop.call_soon_threadsafe(self.loop.stop)
            except RuntimeError:  # closed already
                return
            if not self.in_loop_thread:
                self._thread.join(timeout)
