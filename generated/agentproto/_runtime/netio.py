"""The network layer under agentproto's connection pool on asyncio: plain asyncio transports.

httpcore reads and writes its connections through a network backend; its default on asyncio
goes through anyio, which costs, per connection, a task group, a child task, an event and a
cancel scope to connect (its happy-eyeballs race, run even for one address) and, held for as
long as the connection is open, a stream, a protocol with two events, two resource guards and
a cancel scope per read. At thousands of open streams those objects are most of what the
cyclic garbage collector walks (see ``benchmarks/bench_aap_scale.py``). :class:`AsyncioBackend`
speaks to ``asyncio`` directly: ``loop.create_connection`` and one small protocol per
connection; a read waits on one future, bounded by a timer. Elsewhere (trio) it hands over to
httpcore's own backend. Errors are httpcore's (``ConnectError``, ``ReadTimeout``...), which
``httpx`` maps to its own as usual.
"""

from __future__ import annotations

import asyncio
import select
import ssl
from collections.abc import Iterable
from typing import Any, Final, cast

import httpcore

__all__ = ["AsyncioBackend", "AsyncioStream"]

SocketOption = (
    tuple[int, int, int] | tuple[int, int, bytes | bytearray] | tuple[int, int, None, int]
)
"""A ``socket.setsockopt`` argument tuple (httpcore's ``SOCKET_OPTION``)."""
_HIGH: Final = 256 * 1024  # bytes read ahead before the socket is paused


class _Protocol(asyncio.Protocol):
    """Buffers what the connection receives and wakes the one waiting reader or writer."""

    __slots__ = ("_paused", "_transport", "buffer", "drain", "eof", "error", "waiter")

    def __init__(self) -> None:
        self.buffer = bytearray()  # not tracked by the garbage collector
        self._transport: asyncio.Transport | None = None
        self.waiter: asyncio.Future[None] | None = None
        self.drain: asyncio.Future[None] | None = None
        self.error: BaseException | None = None
        self.eof = False
        self._paused = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        # (not asserted: uvloop's transports are not ``asyncio.Transport`` instances)
        self._transport = cast(asyncio.Transport, transport)

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        if len(self.buffer) >= _HIGH and self._transport is not None and not self._paused:
            self._paused = True
            self._transport.pause_reading()
        self._wake()

    def eof_received(self) -> bool:
        self.eof = True
        self._wake()
        return False  # the transport closes itself

    def connection_lost(self, exc: Exception | None) -> None:
        self.eof = True
        self.error = exc
        self._wake()
        drain, self.drain = self.drain, None
        if drain is not None and not drain.done():
            drain.set_result(None)

    def pause_writing(self) -> None:
        if self.drain is None:
            self.drain = asyncio.get_running_loop().create_future()

    def resume_writing(self) -> None:
        drain, self.drain = self.drain, None
        if drain is not None and not drain.done():
            drain.set_result(None)

    def _wake(self) -> None:
        waiter, self.waiter = self.waiter, None
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    def take(self, max_bytes: int) -> bytes:
        data = bytes(self.buffer[:max_bytes])
        del self.buffer[:max_bytes]
        if self._paused and len(self.buffer) < _HIGH // 2 and self._transport is not None:
            self._paused = False
            self._transport.resume_reading()
        return data


def _expire(future: asyncio.Future[None], error: type[Exception]) -> None:
    if not future.done():
        future.set_exception(error())


async def _wait(
    future: asyncio.Future[None], timeout: float | None, error: type[Exception]
) -> None:
    """Wait for ``future``; past ``timeout`` seconds raise ``error`` (httpcore's timeout)."""
    if timeout is None:
        await future
        return
    timer = asyncio.get_running_loop().call_later(timeout, _expire, future, error)
    try:
        await future
    finally:
        timer.cancel()


class AsyncioStream(httpcore.AsyncNetworkStream):
    """One connection: an asyncio transport and its :class:`_Protocol`."""

    __slots__ = ("_protocol", "_transport")

    def __init__(self, transport: asyncio.Transport, protocol: _Protocol) -> None:
        self._transport = transport
        self._protocol = protocol

    async def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        protocol = self._protocol
        while not protocol.buffer:
            if protocol.error is not None:
                raise httpcore.ReadError(str(protocol.error)) from protocol.error
            if protocol.eof:
                return b""
            if self._transport.is_closing():
                raise httpcore.ReadError("the connection is closed")
            waiter = protocol.waiter = asyncio.get_running_loop().create_future()
            await _wait(waiter, timeout, httpcore.ReadTimeout)
        return protocol.take(max_bytes)

    async def write(self, buffer: bytes, timeout: float | None = None) -> None:
        if not buffer:
            return
        protocol = self._protocol
        if protocol.error is not None or self._transport.is_closing():
            raise httpcore.WriteError("the connection is closed")
        self._transport.write(buffer)
        drain = protocol.drain
        if drain is not None:
            await _wait(drain, timeout, httpcore.WriteTimeout)
            if protocol.error is not None:
                raise httpcore.WriteError(str(protocol.error)) from protocol.error

    async def aclose(self) -> None:
        self._transport.close()

    async def start_tls(
        self,
        ssl_context: ssl.SSLContext,
        server_hostname: str | None = None,
        timeout: float | None = None,
    ) -> httpcore.AsyncNetworkStream:
        loop = asyncio.get_running_loop()
        try:
            # the call's connect timeout, as TimeoutError (asyncio's own handshake timeout
            # raises ConnectionAbortedError: it only backs this one up)
            async with asyncio.timeout(timeout):
                transport = await loop.start_tls(
                    self._transport,
                    self._protocol,
                    ssl_context,
                    server_hostname=server_hostname,
                    ssl_handshake_timeout=None if timeout is None else timeout + 1.0,
                )
        except TimeoutError as exc:
            self._transport.close()
            raise httpcore.ConnectTimeout(str(exc)) from exc
        except (OSError, ssl.SSLError, ConnectionError) as exc:
            self._transport.close()
            raise httpcore.ConnectError(str(exc)) from exc
        if transport is None:  # the connection went away during the handshake
            raise httpcore.ConnectError("the connection closed during the TLS handshake")
        self._protocol.connection_made(transport)
        return AsyncioStream(transport, self._protocol)

    def get_extra_info(self, info: str) -> Any:
        if info == "ssl_object":
            return self._transport.get_extra_info("ssl_object")
        if info == "client_addr":
            return self._transport.get_extra_info("sockname")
        if info == "server_addr":
            return self._transport.get_extra_info("peername")
        if info == "socket":
            return self._transport.get_extra_info("socket")
        if info == "is_readable":  # an idle keep-alive connection the server closed
            protocol = self._protocol
            if protocol.buffer or protocol.eof or self._transport.is_closing():
                return True
            return _readable(self._transport.get_extra_info("socket"))
        return None


def _readable(sock: Any) -> bool:
    """Does the socket have something to read (data, or the peer's close) right now?"""
    if sock is None:
        return True
    poller = select.poll()  # not select(): thousands of connections are past FD_SETSIZE
    poller.register(sock.fileno(), select.POLLIN)
    return bool(poller.poll(0))


class AsyncioBackend(httpcore.AsyncNetworkBackend):
    """httpcore's network backend on asyncio transports (see the module docs); off asyncio,
    httpcore's own (anyio, or trio)."""

    def __init__(self) -> None:
        self._other: httpcore.AsyncNetworkBackend | None = None

    def _fallback(self) -> httpcore.AsyncNetworkBackend | None:
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            pass
        else:
            return None
        if self._other is None:
            other: object = httpcore.AnyIOBackend()  # anyio runs on trio too
            assert isinstance(other, httpcore.AsyncNetworkBackend)
            self._other = other
        return self._other

    async def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[SocketOption] | None = None,
    ) -> httpcore.AsyncNetworkStream:
        other = self._fallback()
        if other is not None:
            return await other.connect_tcp(host, port, timeout, local_address, socket_options)
        loop = asyncio.get_running_loop()
        local = (local_address, 0) if local_address is not None else None
        return await self._connect(
            loop.create_connection(_Protocol, host, port, local_addr=local),
            timeout,
            socket_options,
        )

    async def connect_unix_socket(
        self,
        path: str,
        timeout: float | None = None,
        socket_options: Iterable[SocketOption] | None = None,
    ) -> httpcore.AsyncNetworkStream:
        other = self._fallback()
        if other is not None:
            return await other.connect_unix_socket(path, timeout, socket_options)
        loop = asyncio.get_running_loop()
        return await self._connect(
            loop.create_unix_connection(_Protocol, path), timeout, socket_options
        )

    async def _connect(
        self,
        connecting: Any,
        timeout: float | None,
        socket_options: Iterable[SocketOption] | None,
    ) -> httpcore.AsyncNetworkStream:
        try:
            async with asyncio.timeout(timeout):
                transport, protocol = await connecting
        except TimeoutError as exc:
            raise httpcore.ConnectTimeout("the connection timed out") from exc
        except OSError as exc:
            raise httpcore.ConnectError(str(exc)) from exc
        assert isinstance(protocol, _Protocol)
        if socket_options:
            sock = transport.get_extra_info("socket")
            for option in socket_options:
                sock.setsockopt(*option)
        return AsyncioStream(cast(asyncio.Transport, transport), protocol)

    async def sleep(self, seconds: float) -> None:
        other = self._fallback()
        if other is not None:
            await other.sleep(seconds)
            return
        await asyncio.sleep(seconds)
