"""One way to serve an ASGI app on the open internet (hand-written; uvicorn, the ``provider``,
``remote`` or ``mcp`` extra).

Every server of the package (the AAP server, ACP over HTTP/WebSocket, the MCP server, the
Skill Sharing provider kit) and every command that starts one runs through :func:`serve` (or
:func:`serve_async`, or a :func:`make_server` a test drives). It runs uvicorn with its HTTP
protocol (httptools when installed, else h11) behind :class:`GuardedHTTP`, which adds the
connection bounds uvicorn lacks, from :class:`~agentproto._runtime.limits.Limits`:

- ``header_deadline`` (10 s): a request's head (request line and headers) must arrive whole
  within it, from the connection's start, or, on a kept-alive connection, from the next
  request's first byte: past it 408 and the connection closed. uvicorn itself has no header
  deadline, so a client that never finishes its headers held a connection for good;
- ``max_header_bytes`` (64 KiB): a longer head is answered 431 and closed;
- ``request_body_deadline`` (30 s): the body, from the end of the head to its last byte, past
  it (and one second's grace for the app's own answer, :class:`~agentproto._runtime.guard.Guard`'s
  408 in the protocol's shape) 408 when no answer started, and the connection closed; this
  also ends a client dripping a body the app never reads;
- ``max_server_connections`` (4,096) and ``max_connections_per_client`` (256, by client
  address): a connection past either takes the place of the oldest idle one (no request in
  progress: waiting for its head, or kept alive between requests), which is closed; when none
  is idle it is answered 503 and closed. An idle flood therefore costs a bounded number of
  descriptors, for ``header_deadline`` each, and never locks out a client that completes its
  requests;
- connections kept alive between requests close after ``idle_timeout`` (uvicorn's
  ``timeout_keep_alive``, 5 s); WebSocket connections are the app's (and uvicorn's pings).

The process's open-files limit is raised to fit ``max_server_connections`` (to the hard limit
at most; the cap is lowered, with a warning, if that is still too few).

:func:`check_bind` refuses to serve a non-loopback address without authentication unless told
so explicitly (``public_without_auth``), and then warns; :func:`serve` calls it.

uvicorn's own options are set for the open internet too: ``X-Forwarded-For`` is not trusted
unless ``forwarded_allow_ips`` names the proxies, no ``server`` header, no access log unless
asked (its lines carry the request path).
"""

from __future__ import annotations

import asyncio
import importlib
import logging
import resource
import socket
from collections.abc import Callable
from typing import Any, Final, Literal, cast

from agentproto._runtime.errors import AgentprotoError, needs_extra
from agentproto._runtime.guard import (
    ASGIApp,
    ErrorBody,
    Refusal,
    is_loopback,
    plain_error,
    refusal_response,
)
from agentproto._runtime.limits import DEFAULT_LIMITS, Limits, describe
from agentproto._runtime.redact import install_log_filter

__all__ = [
    "GuardedHTTP",
    "UnsafeBindError",
    "check_bind",
    "make_server",
    "open_socket",
    "serve",
    "serve_async",
    "url_of",
]

log: logging.Logger = logging.getLogger("agentproto.server")
LogLevel = Literal["critical", "error", "warning", "info", "debug", "trace"]
_BODY_GRACE: Final = 1.0  # the app's own 408 (the guard's) goes first
_RESERVED_FILES: Final = 64  # descriptors kept for everything but connections


class UnsafeBindError(AgentprotoError, ValueError):
    """Serving a non-loopback address without authentication, not asked for explicitly."""


def check_bind(host: str, *, authenticated: bool, public_without_auth: bool = False) -> None:
    """Refuse (:class:`UnsafeBindError`) to serve ``host`` without authentication unless it is
    a loopback address or ``public_without_auth`` says so; in that case, warn."""
    if authenticated or is_loopback(host):
        return
    if not public_without_auth:
        raise UnsafeBindError(
            f"refusing to serve {host} without authentication: anyone who reaches it could use "
            "it. Configure credentials, bind 127.0.0.1, or say so explicitly "
            "(--public-without-auth / public_without_auth=True)"
        )
    log.warning(
        "serving %s WITHOUT authentication (public_without_auth): anyone who reaches it can use it",
        host,
    )


def open_socket(host: str, port: int, backlog: int = 2048) -> socket.socket:
    """A listening TCP socket on ``host:port`` (``port`` 0: a free one)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host.strip("[]"), port))
        sock.listen(backlog)
    except BaseException:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock


def url_of(sock: socket.socket, path: str = "") -> str:
    """``http://host:port`` + ``path`` for a bound socket."""
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in str(host) else str(host)
    return f"http://{shown}:{port}{path}"


def _fit_descriptors(limits: Limits) -> Limits:
    """Raise the open-files limit to fit the connection cap; lower the cap if it cannot."""
    wanted = limits.max_server_connections + _RESERVED_FILES
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError):
            pass
    if soft != resource.RLIM_INFINITY and soft < wanted:
        cap = max(1, soft - _RESERVED_FILES)
        log.warning(
            "the open-files limit (%d) is below Limits.max_server_connections + %d: "
            "serving at most %d connections",
            soft,
            _RESERVED_FILES,
            cap,
        )
        return limits.replace(
            max_server_connections=cap,
            max_connections_per_client=min(limits.max_connections_per_client, cap),
        )
    return limits


def _http_protocol() -> Callable[..., asyncio.Protocol]:
    try:
        importlib.import_module("httptools")
    except ImportError:
        from uvicorn.protocols.http.h11_impl import H11Protocol

        return H11Protocol
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

    return HttpToolsProtocol


class _Registry:
    """The open connections of one server (oldest first), all and by client address."""

    def __init__(self, limits: Limits, error_body: ErrorBody) -> None:
        self.limits = limits
        self.error_body = error_body
        self.all: dict[GuardedHTTP, None] = {}
        self.by_client: dict[str, dict[GuardedHTTP, None]] = {}

    def admit(self, conn: GuardedHTTP) -> Refusal | None:
        mine = self.by_client.get(conn.client)
        if mine is not None and conn.client and len(mine) >= self.limits.max_connections_per_client:
            if not self._evict(mine):
                return Refusal(503, "too_many_connections", "too many connections from this client")
        if len(self.all) >= self.limits.max_server_connections:
            if not self._evict(self.all):
                return Refusal(503, "too_many_connections", "too many connections")
        self.all[conn] = None
        self.by_client.setdefault(conn.client, {})[conn] = None
        return None

    def _evict(self, among: dict[GuardedHTTP, None]) -> bool:
        for conn in among:
            if conn.idle():
                conn.close("evicted to make room")
                return True
        return False

    def release(self, conn: GuardedHTTP) -> None:
        if self.all.pop(conn, 0) is None:
            mine = self.by_client.get(conn.client)
            if mine is not None:
                mine.pop(conn, None)
                if not mine:
                    del self.by_client[conn.client]


class GuardedHTTP(asyncio.Protocol):
    """uvicorn's HTTP protocol behind the connection bounds (see the module docstring): what
    :func:`make_server` gives uvicorn as its ``http`` protocol class. Its settings come from
    the uvicorn ``Config`` (``agentproto_limits``, ``agentproto_error_body``)."""

    def __init__(
        self,
        config: Any,
        server_state: Any,
        app_state: dict[str, Any],
        _loop: asyncio.AbstractEventLoop | None = None,
    ) -> None:
        self.loop = _loop or asyncio.get_event_loop()
        registry: _Registry | None = getattr(server_state, "agentproto_connections", None)
        if registry is None:
            registry = _Registry(
                getattr(config, "agentproto_limits", DEFAULT_LIMITS),
                getattr(config, "agentproto_error_body", plain_error),
            )
            server_state.agentproto_connections = registry
        self.registry: _Registry = registry
        self.limits: Limits = registry.limits
        protocol = _http_protocol()
        self.inner: Any = protocol(
            config=config, server_state=server_state, app_state=app_state, _loop=_loop
        )
        self.current: Any = self.inner  # the WebSocket protocol after an upgrade
        self.transport: asyncio.Transport | None = None
        self.client: str = ""
        self.attached = False
        self.upgraded = False
        self.closed = False
        self.cycle: Any = None  # the last request whose head was complete
        self.since = 0.0  # when the current head (or body) began
        self.next_head = False  # bytes of the next request's head arrived (kept alive)
        self.head_bytes = 0
        self.timer: asyncio.TimerHandle | None = None

    # -- asyncio.Protocol -----------------------------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]
        peer: object = transport.get_extra_info("peername")
        self.client = _peer_host(peer)
        self.since = self.loop.time()
        refusal = self.registry.admit(self)
        if refusal is not None:
            self.closed = True
            self._answer(refusal)
            return
        self.attached = True
        self.inner.connection_made(transport)
        self._arm(self.limits.header_deadline)

    def data_received(self, data: bytes) -> None:
        if not self.attached:
            return
        if self.upgraded:
            self.current.data_received(data)
            return
        before = self._in_head()
        self.inner.data_received(data)
        transport = self.transport
        if transport is None:
            return
        upgraded = transport.get_protocol()
        if upgraded is not self:  # a WebSocket: its protocol owns the connection now
            self.upgraded = True
            self.current = upgraded
            transport.set_protocol(self)  # still told when it ends, for the counts
            self._disarm()
            return
        self._observe(len(data), before)

    def eof_received(self) -> bool | None:
        if self.attached:
            result: bool | None = self.current.eof_received()
            return result
        return None

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        self._disarm()
        self.registry.release(self)
        if self.attached:
            self.current.connection_lost(exc)

    def pause_writing(self) -> None:
        if self.attached:
            self.current.pause_writing()

    def resume_writing(self) -> None:
        if self.attached:
            self.current.resume_writing()

    # -- the bounds -----------------------------------------------------------------------------

    def _in_head(self) -> bool:
        cycle = self.inner.cycle
        if cycle is None:
            return True
        return cycle is self.cycle and cycle.response_complete and not cycle.more_body

    def idle(self) -> bool:
        """No request in progress: waiting for a head, or kept alive between requests."""
        if self.upgraded or self.closed:
            return False
        cycle = self.inner.cycle
        return cycle is None or bool(cycle.response_complete)

    def _observe(self, size: int, was_head: bool) -> None:
        cycle = self.inner.cycle
        if cycle is not None and cycle is not self.cycle:  # a new request's head is complete
            self.cycle = cycle
            self.head_bytes = 0
            self.next_head = False
            self.since = self.loop.time()
            if cycle.more_body:
                self._arm(self._body_deadline())
            else:
                self._disarm()
            return
        if cycle is not None and not (cycle.response_complete and not cycle.more_body):
            return  # the body, or the app at work
        if cycle is not None and not self.next_head:  # the next request's first bytes
            self.next_head = True
            self.since = self.loop.time()
            self._arm(self.limits.header_deadline)
        if was_head:
            self.head_bytes += size
            if self.head_bytes > self.limits.max_header_bytes:
                limit = describe("max_header_bytes", self.limits.max_header_bytes)
                self._answer(Refusal(431, "header_too_large", f"the request head is over {limit}"))

    def _body_deadline(self) -> float | None:
        deadline = self.limits.request_body_deadline
        return None if deadline is None else deadline + _BODY_GRACE

    def _arm(self, delay: float | None) -> None:
        self._disarm()
        if delay is not None:
            self.timer = self.loop.call_at(self.since + delay, self._expire)

    def _disarm(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None

    def _expire(self) -> None:
        self.timer = None
        if self.closed or self.upgraded:
            return
        cycle = self.inner.cycle
        if cycle is None or (cycle is self.cycle and self.next_head and not cycle.more_body):
            seconds = describe("header_deadline", self.limits.header_deadline)
            self._answer(
                Refusal(408, "header_deadline", f"the request head did not arrive within {seconds}")
            )
        elif cycle is self.cycle and cycle.more_body:
            if cycle.response_started:
                self.close("the body did not arrive in time")
            else:
                seconds = describe("request_body_deadline", self.limits.request_body_deadline)
                self._answer(
                    Refusal(408, "body_deadline", f"the body did not arrive within {seconds}")
                )

    def _answer(self, refusal: Refusal) -> None:
        """Answer ``refusal`` (no response is under way) and close."""
        transport = self.transport
        if transport is None or transport.is_closing():
            return
        cycle = self.inner.cycle
        if cycle is not None and not cycle.response_complete:
            cycle.disconnected = True  # the app's answer, if any, goes nowhere
        transport.write(refusal_response(refusal, self.registry.error_body))
        self.close(refusal.kind)

    def close(self, why: str) -> None:
        """Close the connection now (it leaves the counts at once)."""
        self._disarm()
        self.registry.release(self)
        transport = self.transport
        if transport is not None and not transport.is_closing():
            log.debug("closing a connection from %s: %s", self.client, why)
            cycle = self.inner.cycle if self.attached else None
            if cycle is not None and not cycle.response_complete:
                cycle.disconnected = True
            transport.close()


def make_server(
    app: ASGIApp | str,
    *,
    limits: Limits | None = None,
    error_body: ErrorBody = plain_error,
    factory: bool = False,
    workers: int = 1,
    idle_timeout: int = 5,
    ws_max_size: int | None = None,
    lifespan: Literal["auto", "on", "off"] = "auto",
    log_level: LogLevel = "warning",
    access_log: bool = False,
    forwarded_allow_ips: str | None = None,
    graceful_shutdown: int = 5,
) -> Any:
    """A ``uvicorn.Server`` for ``app`` (an ASGI app, or ``"module:attribute"``, a factory
    with ``factory=True``, as worker processes need) with :class:`GuardedHTTP`'s bounds.
    Run it with ``server.run(sockets=[sock])`` or ``await server.serve(sockets=[sock])``.
    ``error_body`` shapes the connection-level refusals (a module-level function when
    ``workers`` > 1: it goes to them pickled)."""
    with needs_extra("provider", feature="serving over HTTP (agentproto._runtime.serve)"):
        import uvicorn

    install_log_filter()  # live secrets (tokens) masked in uvicorn's and websockets' logs too
    limits = _fit_descriptors(limits or DEFAULT_LIMITS)
    config = uvicorn.Config(
        app,
        factory=factory,
        workers=workers,
        http=GuardedHTTP,
        lifespan=lifespan,
        log_level=log_level,
        access_log=access_log,
        timeout_keep_alive=idle_timeout,
        timeout_graceful_shutdown=graceful_shutdown,
        ws_max_size=ws_max_size if ws_max_size is not None else 16 * 1024 * 1024,
        proxy_headers=forwarded_allow_ips is not None,
        forwarded_allow_ips=forwarded_allow_ips,
        server_header=False,
        h11_max_incomplete_event_size=limits.max_header_bytes,
    )
    config.agentproto_limits = limits  # type: ignore[attr-defined]
    config.agentproto_error_body = error_body  # type: ignore[attr-defined]
    return uvicorn.Server(config)


def serve(
    app: ASGIApp | str,
    *,
    host: str = "127.0.0.1",
    port: int = 8000,
    authenticated: bool,
    public_without_auth: bool = False,
    sock: socket.socket | None = None,
    ready: Callable[[str], None] | None = None,
    workers: int = 1,
    **options: Any,
) -> None:
    """Serve ``app`` on ``host:port`` (or the listening ``sock``) until interrupted (SIGINT /
    SIGTERM), with the bounds of the module docstring. ``authenticated``: whether the app
    checks credentials (see :func:`check_bind`); ``ready(url)`` is called once it listens;
    ``workers`` > 1 runs that many processes (``app`` must then be an import string);
    ``options`` go to :func:`make_server` (``limits``, ``error_body``, ``factory``,
    ``ws_max_size``, ``lifespan``, ``log_level``, ``access_log``, ``forwarded_allow_ips``...)."""
    check_bind(host, authenticated=authenticated, public_without_auth=public_without_auth)
    server = make_server(app, workers=workers, **options)
    own = sock is None
    listening = open_socket(host, port) if sock is None else sock
    try:
        if ready is not None:
            ready(url_of(listening))
        if workers > 1:
            from uvicorn.supervisors import Multiprocess

            try:
                supervisor = Multiprocess(server.config, sockets=[listening])
            except TypeError:  # uvicorn before 0.49 takes the target too
                supervisor = Multiprocess(server.config, target=server.run, sockets=[listening])  # type: ignore[call-arg]
            supervisor.run()
        else:
            server.run(sockets=[listening])
    finally:
        if own:
            listening.close()


async def serve_async(
    app: ASGIApp,
    *,
    host: str = "127.0.0.1",
    port: int = 8000,
    authenticated: bool,
    public_without_auth: bool = False,
    sock: socket.socket | None = None,
    ready: Callable[[str], None] | None = None,
    **options: Any,
) -> None:
    """:func:`serve` in a running event loop (one process)."""
    check_bind(host, authenticated=authenticated, public_without_auth=public_without_auth)
    server = make_server(app, **options)
    own = sock is None
    listening = open_socket(host, port) if sock is None else sock
    try:
        if ready is not None:
            ready(url_of(listening))
        await server.serve(sockets=[listening])
    finally:
        if own:
            listening.close()


def _peer_host(peer: object) -> str:
    """The address part of a socket's peer name (``""`` for a Unix socket or none)."""
    if isinstance(peer, tuple):
        parts = cast("tuple[object, ...]", peer)
        if parts:
            return str(parts[0])
    return ""
