"""A forward HTTP proxy on a real loopback socket, for the clients' proxy support: it reads
each request in absolute form (``GET http://host:port/path HTTP/1.1``), records the target,
forwards it to that origin (``Connection: close``) and relays the answer as it comes (a
streamed body too), then closes the client's connection. ``http://`` targets only (no
``CONNECT`` tunnel)."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from urllib.parse import urlsplit


class Proxy:
    def __init__(self) -> None:
        self.url = ""
        self.seen: list[str] = []  # the absolute target of every request, in order


async def _relay(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    while chunk := await reader.read(65536):
        writer.write(chunk)
        await writer.drain()


Handler = Callable[[asyncio.StreamReader, asyncio.StreamWriter], Awaitable[None]]


def _handler(proxy: Proxy) -> Handler:
    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        upstream: asyncio.StreamWriter | None = None
        try:
            head = await reader.readuntil(b"\r\n\r\n")
            line, _, rest = head.partition(b"\r\n")
            method, target, version = line.decode("latin-1").split(" ")
            proxy.seen.append(target)
            parts = urlsplit(target)
            headers = [
                h
                for h in rest.split(b"\r\n")
                if h and not h.lower().startswith((b"connection:", b"proxy-"))
            ]
            length = next(
                (
                    int(h.split(b":", 1)[1])
                    for h in headers
                    if h.lower().startswith(b"content-length:")
                ),
                0,
            )
            body = await reader.readexactly(length) if length else b""
            up_reader, upstream = await asyncio.open_connection(parts.hostname, parts.port or 80)
            path = parts.path + (f"?{parts.query}" if parts.query else "")
            upstream.write(
                f"{method} {path or '/'} {version}\r\n".encode("latin-1")
                + b"\r\n".join(headers)
                + b"\r\nconnection: close\r\n\r\n"
                + body
            )
            await upstream.drain()
            await _relay(up_reader, writer)
        except (OSError, asyncio.IncompleteReadError, ValueError):
            pass  # the client or the origin went away: both connections end here
        finally:
            if upstream is not None:
                upstream.close()
            writer.close()

    return handle


@contextmanager
def forward_proxy() -> Iterator[Proxy]:
    """Serve a forward proxy on 127.0.0.1 (a free port) in a thread; yields it (``url``,
    ``seen``)."""
    proxy = Proxy()
    loop = asyncio.new_event_loop()
    started = threading.Event()
    server: list[asyncio.Server] = []

    async def start() -> None:
        server.append(await asyncio.start_server(_handler(proxy), "127.0.0.1", 0))
        proxy.url = f"http://127.0.0.1:{server[0].sockets[0].getsockname()[1]}"
        started.set()

    def run() -> None:
        loop.run_until_complete(start())
        loop.run_forever()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    started.wait(10)
    try:
        yield proxy
    finally:

        async def stop() -> None:
            server[0].close()
            await server[0].wait_closed()
            relays = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
            for task in relays:  # a relay of a stream the client left open
                task.cancel()
            await asyncio.gather(*relays, return_exceptions=True)

        asyncio.run_coroutine_threadsafe(stop(), loop).result(10)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)
        loop.close()
