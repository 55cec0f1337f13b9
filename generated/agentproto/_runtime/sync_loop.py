"""A private event loop on a background thread, so blocking code can drive async clients."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


class LoopThread:
    """Runs coroutines on its own loop; :meth:`run` blocks the caller until one finishes."""

    def __init__(self, name: str = "agentproto-loop") -> None:
        self.loop: asyncio.AbstractEventLoop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._main, name=name, daemon=True)
        self._thread.start()

    def _main(self) -> None:
        asyncio.set_event_loop(self.loop)
        try:
            self.loop.run_forever()
        finally:
            self.loop.close()  # also lets the loop's idle worker threads go

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
