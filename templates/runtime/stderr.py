"""A spawned peer's stderr, kept in a bounded buffer (and passed through to ours when asked),
so that when the peer dies the error can say what it said last (:class:`StderrTail`)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
from typing import IO

DEFAULT_KEEP = 64 * 1024
"""Bytes of a peer's stderr kept: the newest, older ones dropped."""
_SHOWN_LINES = 20
_SHOWN_CHARS = 4000


class StderrTail(asyncio.Protocol):
    """Reads a child's stderr pipe as it writes: keeps the last ``keep`` bytes, and writes each
    chunk to this process's stderr too when ``passthrough``. The owner closes it."""

    def __init__(self, keep: int = DEFAULT_KEEP, *, passthrough: bool = False) -> None:
        if keep < 0:
            raise ValueError("keep must be >= 0")
        self._keep = keep
        self._passthrough = passthrough
        self._buffer = bytearray()
        self._dropped = 0  # bytes that fell off the front
        self._transport: asyncio.BaseTransport | None = None
        self._pipe: IO[bytes] | None = None

    async def attach(self, pipe: IO[bytes]) -> None:
        """Start reading ``pipe`` (the read end of the child's stderr) on the running loop."""
        self._pipe = pipe
        await asyncio.get_running_loop().connect_read_pipe(lambda: self, pipe)

    # -- the pipe's events (asyncio.Protocol) -------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self._transport = transport

    def data_received(self, data: bytes) -> None:
        self._keep_bytes(data)
        if self._passthrough:
            with contextlib.suppress(OSError, ValueError, AttributeError):
                sys.stderr.buffer.write(data)
                sys.stderr.buffer.flush()

    def eof_received(self) -> bool:
        return False

    # -- for the owner --------------------------------------------------------------------------

    def _keep_bytes(self, data: bytes) -> None:
        self._buffer += data
        excess = len(self._buffer) - self._keep
        if excess > 0:
            del self._buffer[:excess]
            self._dropped += excess

    def read_now(self) -> None:
        """Take what is in the pipe already without waiting (the child has exited; what it
        wrote last may not have been read by the loop yet)."""
        pipe = self._pipe
        transport = self._transport
        if pipe is None or transport is None or transport.is_closing():
            return
        try:
            fd = pipe.fileno()
        except (OSError, ValueError):
            return
        for _ in range(64):  # at most 4 MiB: the rest would not be kept anyway
            try:
                chunk = os.read(fd, 65536)
            except (BlockingIOError, InterruptedError, OSError):
                return
            if not chunk:
                return
            self.data_received(chunk)

    @property
    def data(self) -> bytes:
        """The bytes kept (the newest ``keep`` bytes of what the child wrote)."""
        return bytes(self._buffer)

    @property
    def dropped(self) -> int:
        """How many older bytes were not kept."""
        return self._dropped

    def tail(self) -> str:
        """The last lines kept (at most 20 lines, 4000 characters), as text."""
        text = self._buffer.decode("utf-8", errors="replace").rstrip()
        lines = text.splitlines()[-_SHOWN_LINES:]
        shown = "\n".join(lines)
        if len(shown) > _SHOWN_CHARS:
            shown = "..." + shown[-_SHOWN_CHARS:]
        return shown

    def close(self) -> None:
        if self._transport is not None:
            self._transport.close()
        elif self._pipe is not None:
            self._pipe.close()
