"""The connection pool of agentproto's HTTP clients: linear in the number of open streams.

Each open stream (an AAP turn, an LLM answer) holds one HTTP/1.1 connection until it is closed.
httpcore's pool, which ``httpx`` uses, re-scans every connection it holds each time a request
starts or ends (and, for each idle one, every connection again): with thousands of connections
open at once, most of the time goes there (measured: 5,000 concurrent AAP streams took 13x the
CPU of 1,000, and draining 1,000 took 24 s). :class:`AsyncPooledTransport` and
:class:`PooledTransport` keep that scan short: the connections are spread over shards of
``shard_size`` (small ``httpx`` transports, each its own httpcore pool), and each call is
routed to a shard with a free slot in constant time (the most recently freed first, so
keep-alive connections are reused). The cost per stream no longer grows with the number of
streams (see ``benchmarks/bench_aap_scale.py`` and ``docs/benchmarks.md``).

The pool holds at most ``max_connections`` connections (``Limits.max_connections``: 100 by
default, the same as ``httpx``'s). A call past it waits for a connection to come free, and
says so: the first wait logs a warning on ``agentproto.http`` naming the limit and how to
raise it; a wait longer than the call's pool timeout raises :class:`PoolFullError` (an
``httpx.PoolTimeout``; the clients turn it into
:class:`~agentproto._runtime.http_errors.PoolTimeoutError`).

The proxies the environment names (``HTTP_PROXY``, ``HTTPS_PROXY``, ``ALL_PROXY``, and
``NO_PROXY``'s exceptions) are read as ``httpx`` reads them (:func:`environment_mounts`); each
proxy route is a pool of its own, of the same size (``httpx`` itself ignores the environment
once a client is given a transport).
"""

from __future__ import annotations

import importlib.util
import logging
import ssl
import threading
import time
from collections import deque
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Final, TypeVar, cast

import anyio
import httpcore
import httpx

from agentproto._runtime.errors import AgentprotoError
from agentproto._runtime.netio import AsyncioBackend

__all__ = [
    "DEFAULT_SHARD_SIZE",
    "AsyncPooledTransport",
    "PoolFullError",
    "PooledTransport",
    "ProxySettingError",
    "environment_mounts",
]

logger: logging.Logger = logging.getLogger("agentproto.http")

DEFAULT_SHARD_SIZE: Final = 16
"""Connections per shard. Measured with 3,000 concurrent AAP streams (CPU time less the
cyclic GC's, one run each): shards of 4 and 16 cost the same (2.7 s), 64 cost 3.9 s, 256
cost 15.6 s (each shard's own scan grows with its size)."""
_BACKEND: Final = AsyncioBackend()  # stateless on asyncio: one for every shard
_WARN_EVERY: Final = 60.0  # seconds between two "pool is full" warnings of one pool


class PoolFullError(httpx.PoolTimeout, AgentprotoError):
    """No connection of the pool came free within the call's pool timeout: what the
    transport raises to ``httpx`` (an ``httpx.PoolTimeout``); agentproto's clients turn it into
    :class:`~agentproto._runtime.http_errors.PoolTimeoutError`."""

    def __init__(self, max_connections: int, waited: float | None) -> None:
        super().__init__(_full_message(max_connections, waited))
        self.max_connections = max_connections


def _full_message(max_connections: int, waited: float | None) -> str:
    within = f" within the pool timeout ({waited:g} s)" if waited is not None else ""
    return (
        f"all {max_connections} connections of the client's pool are in use (each open "
        f"stream holds one) and none came free{within}: close the streams you are done with, "
        f"or raise the pool with limits=Limits(max_connections=...)"
    )


def _warn_full(max_connections: int) -> None:
    logger.warning(
        "all %d connections of the client's pool are in use (Limits.max_connections; each open "
        "stream holds one): calls now wait for one to come free, up to their pool timeout, "
        "then raise PoolTimeoutError; raise it with limits=Limits(max_connections=...)",
        max_connections,
    )


def _pool_timeout(request: httpx.Request) -> float | None:
    timeouts: object = request.extensions.get("timeout")
    value = cast("dict[str, object]", timeouts).get("pool") if isinstance(timeouts, dict) else None
    return float(value) if isinstance(value, int | float) else None


class _Slots:
    """Which shard a call goes to: the free slots as a stack of shard numbers (the most
    recently freed on top), and a count of slots never used yet. Every operation is O(1)."""

    def __init__(self, max_connections: int, shard_size: int) -> None:
        if max_connections <= 0 or shard_size <= 0:
            raise ValueError("max_connections and shard_size must be positive")
        self.capacity = max_connections
        self.shard_size = shard_size
        self._free: list[int] = []
        self._fresh = 0
        self.in_use = 0

    def take(self) -> int | None:
        """A shard with a free slot (the slot is now taken), or ``None`` when all are."""
        if self._free:
            shard = self._free.pop()
        elif self._fresh < self.capacity:
            shard = self._fresh // self.shard_size
            self._fresh += 1
        else:
            return None
        self.in_use += 1
        return shard

    def give(self, shard: int) -> None:
        self.in_use -= 1
        self._free.append(shard)


class _Options:
    """What every shard is built with; one TLS context for all of them (built on first use:
    building one loads the CA bundle)."""

    def __init__(
        self,
        *,
        verify: ssl.SSLContext | str | bool,
        trust_env: bool,
        http1: bool,
        keepalive_expiry: float | None,
        proxy: httpx.Proxy | None,
    ) -> None:
        self._verify = verify
        self._trust_env = trust_env
        self.http1 = http1
        self.keepalive_expiry = keepalive_expiry
        self.proxy = proxy
        self._context: ssl.SSLContext | None = None

    def context(self) -> ssl.SSLContext:
        if self._context is None:
            if isinstance(self._verify, ssl.SSLContext):
                self._context = self._verify
            else:
                self._context = httpx.create_ssl_context(
                    verify=self._verify, trust_env=self._trust_env
                )
        return self._context

    def limits(self, shard_size: int) -> httpx.Limits:
        return httpx.Limits(
            max_connections=shard_size,
            max_keepalive_connections=shard_size,
            keepalive_expiry=self.keepalive_expiry,
        )


class AsyncPooledTransport(httpx.AsyncBaseTransport):
    """An ``httpx`` transport over shards of small pools (see the module docs); give it to
    ``httpx.AsyncClient(transport=...)``. Sends HTTP/1.1."""

    def __init__(
        self,
        *,
        max_connections: int = 100,
        shard_size: int = DEFAULT_SHARD_SIZE,
        verify: ssl.SSLContext | str | bool = True,
        trust_env: bool = True,
        keepalive_expiry: float | None = 5.0,
        proxy: httpx.Proxy | None = None,
    ) -> None:
        self._slots = _Slots(max_connections, shard_size)
        self._options = _Options(
            verify=verify,
            trust_env=trust_env,
            http1=True,
            keepalive_expiry=keepalive_expiry,
            proxy=proxy,
        )
        self._shards: list[httpx.AsyncHTTPTransport] = []
        self._waiters: deque[_AsyncWaiter] = deque()
        self._warned = -_WARN_EVERY

    @property
    def max_connections(self) -> int:
        return self._slots.capacity

    @property
    def in_use(self) -> int:
        """Connections held by calls and open streams now."""
        return self._slots.in_use

    def _shard(self, number: int) -> httpx.AsyncHTTPTransport:
        while len(self._shards) <= number:
            shard = httpx.AsyncHTTPTransport(
                verify=self._options.context(),
                limits=self._options.limits(self._slots.shard_size),
                proxy=self._options.proxy,
            )
            if self._options.proxy is not None:  # httpx's own pool through the proxy
                self._shards.append(shard)
                continue
            # The same pool httpx builds, on asyncio's own transports (``netio``): far fewer
            # objects per connection for the garbage collector to walk. httpx takes no
            # network backend, so its pool is replaced (httpx is pinned).
            shard._pool = httpcore.AsyncConnectionPool(  # pyright: ignore[reportPrivateUsage]
                ssl_context=self._options.context(),
                max_connections=self._slots.shard_size,
                max_keepalive_connections=self._slots.shard_size,
                keepalive_expiry=self._options.keepalive_expiry,
                http1=True,
                http2=False,
                network_backend=_BACKEND,
            )
            self._shards.append(shard)
        return self._shards[number]

    def _give(self, shard: int) -> None:
        while self._waiters:  # hand the slot straight to the longest waiter
            waiter = self._waiters.popleft()
            if not waiter.done.is_set():
                waiter.shard = shard
                waiter.done.set()
                return
        self._slots.give(shard)

    async def _take(self, request: httpx.Request) -> int:
        shard = self._slots.take()
        if shard is not None:
            return shard
        now = time.monotonic()
        if now - self._warned >= _WARN_EVERY:
            self._warned = now
            _warn_full(self._slots.capacity)
        waiter = _AsyncWaiter()
        self._waiters.append(waiter)
        timeout = _pool_timeout(request)
        try:
            with anyio.fail_after(timeout):
                await waiter.done.wait()
        except TimeoutError:
            if waiter.shard is not None:  # handed over as the wait ran out: use it
                return waiter.shard
            waiter.done.set()  # skipped by the next hand-over
            raise PoolFullError(self._slots.capacity, timeout) from None
        except BaseException:
            waiter.done.set()
            if waiter.shard is not None:
                self._give(waiter.shard)
            raise
        assert waiter.shard is not None
        return waiter.shard

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        shard = await self._take(request)
        try:
            response = await self._shard(shard).handle_async_request(request)
        except BaseException:
            self._give(shard)
            raise
        stream = response.stream
        assert isinstance(stream, httpx.AsyncByteStream)
        response.stream = _AsyncReleasing(stream, self._give, shard)
        return response

    async def aclose(self) -> None:
        shards, self._shards = self._shards, []
        for shard in shards:
            await shard.aclose()


class _AsyncWaiter:
    __slots__ = ("done", "shard")

    def __init__(self) -> None:
        self.done = anyio.Event()
        self.shard: int | None = None


class _AsyncReleasing(httpx.AsyncByteStream):
    """A response body that gives its pool slot back once closed (the shard in a slot, not in
    a closure: two objects fewer for the garbage collector per open stream)."""

    __slots__ = ("_give", "_shard", "_stream")

    def __init__(
        self, stream: httpx.AsyncByteStream, give: Callable[[int], None], shard: int
    ) -> None:
        self._stream = stream
        self._give: Callable[[int], None] | None = give
        self._shard = shard

    def __aiter__(self) -> AsyncIterator[bytes]:
        return self._stream.__aiter__()

    async def aclose(self) -> None:
        try:
            await self._stream.aclose()
        finally:
            give, self._give = self._give, None
            if give is not None:
                give(self._shard)


class PooledTransport(httpx.BaseTransport):
    """The blocking twin of :class:`AsyncPooledTransport` (thread-safe), for
    ``httpx.Client(transport=...)``."""

    def __init__(
        self,
        *,
        max_connections: int = 100,
        shard_size: int = DEFAULT_SHARD_SIZE,
        verify: ssl.SSLContext | str | bool = True,
        trust_env: bool = True,
        keepalive_expiry: float | None = 5.0,
        proxy: httpx.Proxy | None = None,
    ) -> None:
        self._slots = _Slots(max_connections, shard_size)
        self._options = _Options(
            verify=verify,
            trust_env=trust_env,
            http1=True,
            keepalive_expiry=keepalive_expiry,
            proxy=proxy,
        )
        self._shards: list[httpx.HTTPTransport] = []
        self._lock = threading.Condition()
        self._warned = -_WARN_EVERY

    @property
    def max_connections(self) -> int:
        return self._slots.capacity

    @property
    def in_use(self) -> int:
        """Connections held by calls and open streams now."""
        return self._slots.in_use

    def _shard(self, number: int) -> httpx.HTTPTransport:
        with self._lock:
            while len(self._shards) <= number:
                self._shards.append(
                    httpx.HTTPTransport(
                        verify=self._options.context(),
                        limits=self._options.limits(self._slots.shard_size),
                        proxy=self._options.proxy,
                    )
                )
            return self._shards[number]

    def _give(self, shard: int) -> None:
        with self._lock:
            self._slots.give(shard)
            self._lock.notify()

    def _take(self, request: httpx.Request) -> int:
        timeout = _pool_timeout(request)
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._lock:
            shard = self._slots.take()
            if shard is not None:
                return shard
            now = time.monotonic()
            if now - self._warned >= _WARN_EVERY:
                self._warned = now
                _warn_full(self._slots.capacity)
            while shard is None:
                left = None if deadline is None else deadline - time.monotonic()
                if left is not None and left <= 0:
                    raise PoolFullError(self._slots.capacity, timeout)
                self._lock.wait(left)
                shard = self._slots.take()
            return shard

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        shard = self._take(request)
        try:
            response = self._shard(shard).handle_request(request)
        except BaseException:
            self._give(shard)
            raise
        stream = response.stream
        assert isinstance(stream, httpx.SyncByteStream)
        response.stream = _Releasing(stream, self._give, shard)
        return response

    def close(self) -> None:
        with self._lock:
            shards, self._shards = self._shards, []
        for shard in shards:
            shard.close()


class _Releasing(httpx.SyncByteStream):
    """A response body that gives its pool slot back once closed."""

    __slots__ = ("_give", "_shard", "_stream")

    def __init__(
        self, stream: httpx.SyncByteStream, give: Callable[[int], None], shard: int
    ) -> None:
        self._stream = stream
        self._give: Callable[[int], None] | None = give
        self._shard = shard

    def __iter__(self) -> Iterator[bytes]:
        return self._stream.__iter__()

    def close(self) -> None:
        try:
            self._stream.close()
        finally:
            give, self._give = self._give, None
            if give is not None:
                give(self._shard)


_T = TypeVar("_T")


def environment_mounts(make: Callable[[httpx.Proxy], _T]) -> dict[str, _T | None]:
    """The ``mounts=`` of an ``httpx`` client for the proxies the environment names, read as
    ``httpx`` reads them (``HTTP_PROXY``, ``HTTPS_PROXY``, ``ALL_PROXY``, lower case first;
    ``NO_PROXY``'s hosts map to ``None``: the client's own transport); ``make`` builds the
    transport of each proxy. ``httpx`` reads the environment only for a client whose
    transport it builds: a client given one of these pools would otherwise go direct."""
    from httpx._utils import get_environment_proxies  # httpx is pinned: its own reading

    mounts: dict[str, _T | None] = {}
    for pattern, url in get_environment_proxies().items():
        if url is None:
            mounts[pattern] = None
            continue
        try:
            proxy = httpx.Proxy(url)
        except (ValueError, httpx.InvalidURL):
            scheme = url.split("://", 1)[0] if "://" in url else ""
            raise ProxySettingError(
                pattern,
                "a proxy URL is http://, https://, socks5:// or socks5h://host:port, not "
                + (f"{scheme}://..." if scheme else "this"),
            ) from None
        if proxy.url.scheme.startswith("socks") and importlib.util.find_spec("socksio") is None:
            raise ProxySettingError(
                pattern, 'a SOCKS proxy needs the socksio package: pip install "httpx[socks]"'
            )
        mounts[pattern] = make(proxy)
    return mounts


class ProxySettingError(AgentprotoError, ValueError):
    """A proxy the environment names (``HTTP_PROXY``, ``HTTPS_PROXY``, ``ALL_PROXY``) that
    cannot be used. The message names the route and the URL's scheme, never the URL (it may
    hold a password)."""

    def __init__(self, route: str, reason: str) -> None:
        super().__init__(
            f"the proxy the environment (HTTP_PROXY, HTTPS_PROXY or ALL_PROXY) names for "
            f"{route!r} cannot be used: {reason}"
        )
        self.route = route
