"""Response bodies decoded within a bound: gzip, deflate and br never inflate past a limit.

``httpx`` inflates each chunk it receives in one step, so one small compressed chunk can become
gigabytes before anyone can count them (a "zip bomb": 1 MiB of gzip holds 1 GiB of zeros).
:class:`BodyDecoder` inflates at most ``piece`` bytes per step instead, so what it hands on is
counted (and refused) as it is made. The HTTP runtime asks servers only for the encodings it
can decode this way (:data:`ACCEPT_ENCODING`) and reads raw bytes through this decoder.
"""

from __future__ import annotations

import importlib
import zlib
from collections.abc import Iterator
from typing import Any, Final, Protocol

from agentproto._runtime.errors import AgentprotoError

__all__ = ["ACCEPT_ENCODING", "BodyDecoder", "_DecodeError"]

PIECE: Final = 256 * 1024
"""Most bytes one decoding step makes."""


class _DecodeError(AgentprotoError, ValueError):
    """The body is not valid in its ``Content-Encoding``."""


class _Step(Protocol):
    def decode(self, data: bytes, limit: int) -> Iterator[bytes]: ...

    def flush(self) -> Iterator[bytes]: ...


class _Zlib:
    """gzip (several members allowed) or deflate (zlib-wrapped, or raw as some servers send)."""

    def __init__(self, gzip: bool) -> None:
        self._gzip = gzip
        self._wbits = 16 + zlib.MAX_WBITS if gzip else zlib.MAX_WBITS
        self._obj: Any = zlib.decompressobj(self._wbits)
        self._first = True

    def decode(self, data: bytes, limit: int) -> Iterator[bytes]:
        while data:
            try:
                out = self._obj.decompress(data, limit)
            except zlib.error as exc:
                if self._first and not self._gzip:  # deflate sent without its zlib header
                    self._first = False
                    self._obj = zlib.decompressobj(-zlib.MAX_WBITS)
                    continue
                kind = "gzip" if self._gzip else "deflate"
                raise _DecodeError(f"invalid {kind} data: {exc}") from None
            self._first = False
            if out:
                yield out
            data = self._obj.unconsumed_tail
            if self._obj.eof:
                data = self._obj.unused_data
                if data and self._gzip:  # the next gzip member
                    self._obj = zlib.decompressobj(self._wbits)
                else:
                    return  # bytes after the end of a deflate stream are ignored (as zlib does)

    def flush(self) -> Iterator[bytes]:
        try:
            out = self._obj.flush()
        except zlib.error as exc:  # pragma: no cover (flush never fails for a truncated body)
            raise _DecodeError(str(exc)) from None
        if out:
            yield out


class _Brotli:
    def __init__(self, module: Any) -> None:
        self._module = module
        self._obj = module.Decompressor()

    def decode(self, data: bytes, limit: int) -> Iterator[bytes]:
        try:
            # A step stops near ``limit`` (past it by less than a block); what is left comes
            # from further steps without input, until one makes nothing.
            out = self._obj.process(data, output_buffer_limit=limit)
            while out:
                yield out
                if self._obj.is_finished():
                    return
                out = self._obj.process(b"", output_buffer_limit=limit)
        except self._module.error as exc:
            raise _DecodeError(f"invalid br data: {exc}") from None

    def flush(self) -> Iterator[bytes]:
        return iter(())


def _brotli() -> Any:
    """The ``brotli`` module when it can decode within a bound (``output_buffer_limit``,
    Brotli 1.1+), else ``None`` (then ``br`` is not asked for)."""
    try:
        brotli: Any = importlib.import_module("brotli")  # optional, and untyped
    except ImportError:
        return None
    try:
        brotli.Decompressor().process(b"", output_buffer_limit=1)
    except Exception:  # an older Brotli, or brotlicffi: no bound on what a step makes
        return None
    return brotli


_BROTLI: Final = _brotli()
ACCEPT_ENCODING: Final = "gzip, deflate" + (", br" if _BROTLI is not None else "")
"""What the HTTP runtime asks servers for: only what :class:`BodyDecoder` decodes within a
bound."""


class BodyDecoder:
    """Raw body bytes in, decoded pieces out (each at most :data:`PIECE` bytes; br: at most
    one of its blocks more).

    ``content_encoding`` is the response's header (several codings, comma-separated, applied
    in order; an unknown one is left as is, as ``httpx`` does).
    """

    def __init__(self, content_encoding: str | None, piece: int = PIECE) -> None:
        self._piece = piece
        self._steps: list[_Step] = []
        for value in (content_encoding or "").split(","):
            name = value.strip().lower()
            if name in ("gzip", "x-gzip"):
                self._steps.append(_Zlib(gzip=True))
            elif name == "deflate":
                self._steps.append(_Zlib(gzip=False))
            elif name == "br" and _BROTLI is not None:
                self._steps.append(_Brotli(_BROTLI))
        self._steps.reverse()  # the last coding applied is undone first

    @property
    def identity(self) -> bool:
        return not self._steps

    def feed(self, data: bytes) -> Iterator[bytes]:
        """The decoded pieces of ``data`` (made one at a time, as they are taken)."""
        if not self._steps:
            if data:
                yield data
            return
        yield from self._through(0, data)

    def _through(self, i: int, data: bytes) -> Iterator[bytes]:
        step = self._steps[i]
        for out in step.decode(data, self._piece):
            if i + 1 == len(self._steps):
                yield out
            else:
                yield from self._through(i + 1, out)

    def flush(self) -> Iterator[bytes]:
        """What is left at the end of the body."""
        for i, step in enumerate(self._steps):
            for out in step.flush():
                if i + 1 == len(self._steps):
                    yield out
                else:
                    yield from self._through(i + 1, out)
