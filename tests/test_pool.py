"""The HTTP clients' own connection pool (``_runtime/pool.py``) over a real loopback server:
it holds ``Limits.max_connections`` connections across its shards, reuses kept-alive ones,
gives a slot back when a stream closes, and a call past the limit warns and then raises a
typed ``PoolTimeoutError`` naming the limit, instead of waiting silently."""

from __future__ import annotations

import asyncio
import importlib.util
import logging
import threading
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import httpx
import pytest
from agentproto import Limits
from agentproto._runtime.http import AsyncHTTP, SyncHTTP
from agentproto._runtime.http_errors import APITimeoutError, PoolTimeoutError
from agentproto._runtime.pool import AsyncPooledTransport, PooledTransport
from agentproto.errors import ProxySettingError
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response, StreamingResponse
from starlette.routing import Route

from tests.servers.loopback import serve
from tests.servers.proxy import forward_proxy

PEERS: list[tuple[str, int]] = []  # the client address of each request


async def hello(request: Request) -> Response:
    assert request.client is not None
    PEERS.append((request.client.host, request.client.port))
    return PlainTextResponse("hi")


async def held(request: Request) -> Response:
    """A stream that sends one line, then stays open (at most 10 s) until the client goes."""

    async def body() -> AsyncIterator[bytes]:
        yield b"first\n"
        for _ in range(100):
            await asyncio.sleep(0.1)
        yield b"last\n"

    return StreamingResponse(body(), media_type="text/plain")


APP = Starlette(routes=[Route("/hello", hello), Route("/held", held)])


@pytest.fixture(scope="module")
def base_url() -> Iterator[str]:
    with serve(APP) as url:
        yield url


SHORT_POOL = httpx.Timeout(10.0, pool=0.3)


def test_a_full_pool_warns_then_raises_a_typed_error_naming_the_limit(
    base_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    async def main() -> None:
        limits = Limits(max_connections=2)
        async with AsyncHTTP(base_url, limits=limits, timeout=SHORT_POOL) as http:
            streams = [await http.send(http.call("GET", "held"), stream=True) for _ in range(2)]
            with caplog.at_level(logging.WARNING, logger="agentproto.http"):
                with pytest.raises(PoolTimeoutError) as caught:
                    await http.send(http.call("GET", "hello"), stream=False)
            error = caught.value
            assert isinstance(error, APITimeoutError)
            assert error.max_connections == 2
            assert "all 2 connections" in str(error)
            assert "limits=Limits(max_connections=...)" in str(error)
            warned = [r for r in caplog.records if "max_connections" in r.getMessage()]
            assert len(warned) == 1, caplog.records
            assert "all 2 connections" in warned[0].getMessage()
            for stream in streams:
                await stream.aclose()
            # closed streams gave their slots back: the next call goes through
            answer = await http.send(http.call("GET", "hello"), stream=False)
            assert answer.text == "hi"

    asyncio.run(main())


def test_a_waiting_call_gets_the_slot_a_closed_stream_gives_back(base_url: str) -> None:
    async def main() -> None:
        limits = Limits(max_connections=1)
        timeout = httpx.Timeout(10.0, pool=5.0)
        async with AsyncHTTP(base_url, limits=limits, timeout=timeout) as http:
            first = await http.send(http.call("GET", "held"), stream=True)
            waiting = asyncio.create_task(http.send(http.call("GET", "hello"), stream=False))
            await asyncio.sleep(0.2)
            assert not waiting.done()  # no slot yet
            await first.aclose()
            answer = await asyncio.wait_for(waiting, 5)
            assert answer.text == "hi"

    asyncio.run(main())


def test_the_pool_holds_max_connections_streams_across_shards(base_url: str) -> None:
    async def main() -> None:
        transport = AsyncPooledTransport(max_connections=40, shard_size=16)
        async with httpx.AsyncClient(transport=transport, timeout=SHORT_POOL) as client:
            http = AsyncHTTP(base_url, http_client=client, timeout=SHORT_POOL)
            streams = await asyncio.gather(
                *(http.send(http.call("GET", "held"), stream=True) for _ in range(40))
            )
            assert transport.in_use == 40
            # spread over ceil(40 / 16) small pools, none holding more than 16 connections
            shards = transport._shards
            assert len(shards) == 3
            for stream in streams:
                await stream.aclose()
            assert transport.in_use == 0

    asyncio.run(main())


def test_kept_alive_connections_are_reused(base_url: str) -> None:
    async def main() -> None:
        PEERS.clear()
        async with AsyncHTTP(base_url) as http:
            for _ in range(20):
                await http.send(http.call("GET", "hello"), stream=False)
        assert len(PEERS) == 20
        assert len(set(PEERS)) == 1, set(PEERS)  # one connection for all of them

    asyncio.run(main())


def test_a_cancelled_wait_leaves_the_pool_consistent(base_url: str) -> None:
    async def main() -> None:
        transport = AsyncPooledTransport(max_connections=1)
        async with httpx.AsyncClient(transport=transport, timeout=SHORT_POOL) as client:
            http = AsyncHTTP(base_url, http_client=client, timeout=SHORT_POOL)
            first = await http.send(http.call("GET", "held"), stream=True)
            waiting = asyncio.create_task(http.send(http.call("GET", "hello"), stream=False))
            await asyncio.sleep(0.05)
            waiting.cancel()
            with pytest.raises(asyncio.CancelledError):
                await waiting
            await first.aclose()
            assert transport.in_use == 0
            answer = await http.send(http.call("GET", "hello"), stream=False)
            assert answer.text == "hi"
            assert transport.in_use == 0

    asyncio.run(main())


def test_an_http_client_passed_in_names_httpx_limits(base_url: str) -> None:
    async def main() -> None:
        limits = httpx.Limits(max_connections=1)
        async with httpx.AsyncClient(limits=limits, timeout=SHORT_POOL) as client:
            http = AsyncHTTP(base_url, http_client=client, timeout=SHORT_POOL)
            first = await http.send(http.call("GET", "held"), stream=True)
            with pytest.raises(PoolTimeoutError) as caught:
                await http.send(http.call("GET", "hello"), stream=False)
            assert caught.value.max_connections is None
            assert "httpx.Limits(max_connections=...)" in str(caught.value)
            await first.aclose()

    asyncio.run(main())


def test_the_blocking_client_has_the_same_pool(
    base_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    with SyncHTTP(base_url, limits=Limits(max_connections=1), timeout=SHORT_POOL) as http:
        first = http.send(http.call("GET", "held"), stream=True)
        with caplog.at_level(logging.WARNING, logger="agentproto.http"):
            with pytest.raises(PoolTimeoutError, match="all 1 connections"):
                http.send(http.call("GET", "hello"), stream=False)
        assert any("max_connections" in r.getMessage() for r in caplog.records)
        # a thread waiting for the slot gets it when the stream closes
        got: list[str] = []
        slow = SyncHTTP(base_url, http_client=http._http, timeout=httpx.Timeout(10.0, pool=5.0))
        waiter = threading.Thread(
            target=lambda: got.append(slow.send(slow.call("GET", "hello"), stream=False).text)
        )
        waiter.start()
        first.close()
        waiter.join(10)
        assert got == ["hi"]
        transport = http._http._transport
        assert isinstance(transport, PooledTransport)
        assert transport.in_use == 0


PROXY_VARIABLES = ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY")


@pytest.fixture
def proxy_env(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    """No proxy variable from the machine running the suite: each test sets its own."""
    for name in PROXY_VARIABLES:
        monkeypatch.delenv(name, raising=False)
        monkeypatch.delenv(name.lower(), raising=False)
    return monkeypatch


def test_the_environments_proxy_carries_the_calls_through_the_same_pool(
    base_url: str, proxy_env: pytest.MonkeyPatch
) -> None:
    """``HTTP_PROXY`` is honoured as httpx honours it (httpx itself ignores it once a client is
    given a transport: the calls went direct), and the proxied route keeps the pool's bound:
    a call past ``max_connections`` is the same typed error."""
    with forward_proxy() as proxy:
        proxy_env.setenv("HTTP_PROXY", proxy.url)

        async def main() -> None:
            limits = Limits(max_connections=1)
            async with AsyncHTTP(base_url, limits=limits, timeout=SHORT_POOL) as http:
                assert (await http.send(http.call("GET", "hello"), stream=False)).text == "hi"
                held = await http.send(http.call("GET", "held"), stream=True)
                with pytest.raises(PoolTimeoutError, match="all 1 connections"):
                    await http.send(http.call("GET", "hello"), stream=False)
                await held.aclose()
                assert (await http.send(http.call("GET", "hello"), stream=False)).text == "hi"

        asyncio.run(main())
        with SyncHTTP(base_url) as http:
            assert http.send(http.call("GET", "hello"), stream=False).text == "hi"
        assert proxy.seen == [f"{base_url}/{p}" for p in ("hello", "held", "hello", "hello")]


def test_no_proxy_hosts_go_direct(base_url: str, proxy_env: pytest.MonkeyPatch) -> None:
    with forward_proxy() as proxy:
        proxy_env.setenv("HTTP_PROXY", proxy.url)
        proxy_env.setenv("NO_PROXY", "127.0.0.1")

        async def main() -> None:
            async with AsyncHTTP(base_url) as http:
                assert (await http.send(http.call("GET", "hello"), stream=False)).text == "hi"

        asyncio.run(main())
        with SyncHTTP(base_url) as http:
            assert http.send(http.call("GET", "hello"), stream=False).text == "hi"
        assert proxy.seen == []


def test_an_unusable_proxy_setting_is_a_typed_error_that_keeps_its_password(
    proxy_env: pytest.MonkeyPatch,
) -> None:
    proxy_env.setenv("HTTPS_PROXY", "ftp://someone:hunter2@proxy.example:21")
    for make in (lambda: AsyncHTTP("https://example.com"), lambda: SyncHTTP("https://example.com")):
        with pytest.raises(ProxySettingError) as caught:
            make()
        assert isinstance(caught.value, ValueError) and caught.value.route == "https://"
        assert "HTTPS_PROXY" in str(caught.value) and "ftp://" in str(caught.value)
        assert "hunter2" not in str(caught.value) and "someone" not in str(caught.value)
    # a SOCKS proxy without httpx's socks extra (found or not here, as if not)
    real = importlib.util.find_spec
    proxy_env.setattr(
        importlib.util,
        "find_spec",
        lambda name, *rest: None if name == "socksio" else real(name, *rest),
    )
    proxy_env.setenv("HTTPS_PROXY", "socks5://someone:hunter2@proxy.example:1080")
    with pytest.raises(ProxySettingError, match=r'pip install "httpx\[socks\]"') as caught:
        AsyncHTTP("https://example.com")
    assert "hunter2" not in str(caught.value)


def test_bad_pool_sizes_are_refused() -> None:
    with pytest.raises(ValueError, match="max_connections"):
        Limits(max_connections=0)
    with pytest.raises(ValueError, match="positive"):
        AsyncPooledTransport(max_connections=10, shard_size=0)


def test_the_async_pool_runs_on_asyncio_transports_and_survives_a_closed_keep_alive() -> None:
    """The shards' connections are ``netio``'s asyncio streams (not anyio's: far fewer objects
    per open connection for the garbage collector); a kept-alive connection the server closed
    while idle is seen as such (``is_readable``) and the next call opens a fresh one; a body
    that stalls past the read timeout raises ``ReadTimeout`` through the new stream."""
    from agentproto._runtime.netio import AsyncioStream

    async def main() -> None:
        requests: list[bytes] = []

        async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            head = await reader.readuntil(b"\r\n\r\n")
            requests.append(head)
            if b"/stall" in head:
                writer.write(b"HTTP/1.1 200 OK\r\ncontent-length: 10\r\n\r\nabc")
                await asyncio.sleep(1.0)
            else:
                writer.write(b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nhi")
                await writer.drain()
            writer.close()  # the server drops every connection after one answer

        server = await asyncio.start_server(handle, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        transport = AsyncPooledTransport(max_connections=4)
        try:
            async with httpx.AsyncClient(transport=transport) as client:
                for _ in range(3):  # each after the server closed the kept-alive one
                    async with client.stream("GET", f"http://127.0.0.1:{port}/hello") as response:
                        stream = response.extensions["network_stream"]
                        assert isinstance(stream, AsyncioStream)
                        assert await response.aread() == b"hi"
                    await asyncio.sleep(0.05)
                assert len(requests) == 3
                with pytest.raises(httpx.ReadTimeout):
                    await client.get(
                        f"http://127.0.0.1:{port}/stall", timeout=httpx.Timeout(5.0, read=0.2)
                    )
        finally:
            server.close()
            await server.wait_closed()

    asyncio.run(main())


TLS = Path(__file__).parent / "fixtures" / "tls"


def test_the_async_pool_speaks_tls_on_asyncio_transports_and_bounds_the_handshake() -> None:
    """Over TLS (a loopback server with the throwaway certificate of tests/fixtures/tls): the
    answer comes through ``netio``'s stream, upgraded in place; a server that accepts the
    connection and never answers the handshake raises ``ConnectTimeout`` at the connect
    timeout (not asyncio's own 60 s handshake bound, nor a ``ConnectError``)."""
    import ssl

    from agentproto._runtime.netio import AsyncioStream

    async def main() -> None:
        served = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        served.load_cert_chain(TLS / "cert.pem", TLS / "key.pem")
        trusted = ssl.create_default_context(cafile=str(TLS / "cert.pem"))

        async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            await reader.readuntil(b"\r\n\r\n")
            writer.write(b"HTTP/1.1 200 OK\r\ncontent-length: 6\r\n\r\nsecure")
            await writer.drain()
            writer.close()

        async def mute(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            await asyncio.sleep(2.0)  # accepts, never speaks TLS
            writer.close()

        server = await asyncio.start_server(handle, "127.0.0.1", 0, ssl=served)
        silent = await asyncio.start_server(mute, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        silent_port = silent.sockets[0].getsockname()[1]
        try:
            transport = AsyncPooledTransport(max_connections=2, verify=trusted)
            async with httpx.AsyncClient(transport=transport) as client:
                async with client.stream("GET", f"https://127.0.0.1:{port}/") as response:
                    stream = response.extensions["network_stream"]
                    assert isinstance(stream, AsyncioStream)
                    assert stream.get_extra_info("ssl_object") is not None
                    assert await response.aread() == b"secure"
                started = asyncio.get_running_loop().time()
                with pytest.raises(httpx.ConnectTimeout):
                    await client.get(
                        f"https://127.0.0.1:{silent_port}/",
                        timeout=httpx.Timeout(5.0, connect=0.3),
                    )
                assert asyncio.get_running_loop().time() - started < 1.5
        finally:
            for each in (server, silent):
                each.close()

    asyncio.run(main())
