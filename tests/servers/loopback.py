"""Run an ASGI app on a real loopback socket (uvicorn, in a background thread)."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, Literal

import uvicorn


@contextmanager
def serve(
    app: Any,
    *,
    lifespan: Literal["on", "off"] = "off",
    loop: Literal["none", "auto"] = "none",
    **options: Any,
) -> Iterator[str]:
    """Serve ``app`` on 127.0.0.1 (a free port); yields the base URL ``http://127.0.0.1:N``.

    ``lifespan`` and ``loop`` are uvicorn's settings (``loop="none"``: the stdlib loop;
    ``"auto"``: uvloop where it is installed, as a deployed server would run); ``options``
    go to ``uvicorn.Config`` as they are (``ws_max_size=...``)."""
    with serve_made(lambda _: app, lifespan=lifespan, loop=loop, **options) as url:
        yield url


@contextmanager
def serve_made(
    make: Callable[[str], Any],
    *,
    lifespan: Literal["on", "off"] = "off",
    loop: Literal["none", "auto"] = "none",
    **options: Any,
) -> Iterator[str]:
    """:func:`serve` for an app that must know its own URL (an A2A agent's card names it):
    ``make(base_url)`` builds it once the port is bound."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    app = make(f"http://127.0.0.1:{port}")
    config = uvicorn.Config(
        app,
        log_level="warning",
        lifespan=lifespan,
        loop=loop,
        timeout_graceful_shutdown=1,
        access_log=False,
        **options,
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=lambda: server.run(sockets=[sock]), daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("loopback server did not start")
        time.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=5)
        if thread.is_alive():
            server.force_exit = True
            thread.join(timeout=5)
        sock.close()
        if thread.is_alive():  # a leaked server thread slows every later test: say so here
            raise RuntimeError(f"the loopback server on port {port} did not stop within 10 s")


def at(base: str, path: str, scheme: str = "http") -> str:
    """``base`` (from :func:`serve`) with ``path`` and ``scheme`` (``ws`` for a WebSocket)."""
    return f"{scheme}{base.removeprefix('http')}{path}"


def port(base: str) -> int:
    """The port of ``base`` (from :func:`serve`)."""
    return int(base.rsplit(":", 1)[1])


@contextmanager
def serve_guarded(
    app: Any, *, lifespan: Literal["on", "off"] = "off", **options: Any
) -> Iterator[str]:
    """:func:`serve` through ``agentproto._runtime.serve.make_server`` (the package's one way to
    serve: header and body deadlines, connection caps); ``options`` go to ``make_server``
    (``limits=``, ``error_body=``...). The server object is ``serve_guarded.last``."""
    from agentproto._runtime.serve import make_server

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    sock.listen(2048)
    port = sock.getsockname()[1]
    server = make_server(app, lifespan=lifespan, graceful_shutdown=1, **options)
    server.config.loop = "none"
    thread = threading.Thread(target=lambda: server.run(sockets=[sock]), daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("loopback server did not start")
        time.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=5)
        if thread.is_alive():
            server.force_exit = True
            thread.join(timeout=5)
        sock.close()
        if thread.is_alive():
            raise RuntimeError(f"the loopback server on port {port} did not stop within 10 s")
