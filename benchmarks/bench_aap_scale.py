"""AAP at scale: one ``AsyncAAPClient`` holding 1,000 / 5,000 / 10,000 turn streams at once.

Run from the repository root:
    python benchmarks/bench_aap_scale.py [--counts 1000,5000,10000] [--httpx-up-to 1000]
(``--smoke``: 20 and 100 streams: the suite runs it so it cannot rot; its figures mean nothing).

A loopback server in a child process (plain asyncio, so the server is not what is measured and
does not share our GIL) answers every ``POST /v1/sessions/{id}/turns`` with an SSE stream of
``turn_start``, 4 ``text_delta`` and ``turn_stop``, each stream on a connection of its own (HTTP
1.1: one stream holds one connection). Each count runs in a fresh interpreter, after the same
warm-up of 20 streams (no count inherits another's heap). For each count N the client opens N
streams at once (``asyncio.gather``) and reads the first event of each, so all N are held open
together, then reads every stream to its end.

The client builds its own pool, as large as N (``limits=Limits(max_connections=N)``; the
default holds 100, see docs/limits.md). Up to ``--httpx-up-to`` streams the same round also
runs on ``httpx``'s own pool (``http_client=httpx.AsyncClient(limits=httpx.Limits(...))``), the
anchor, alternated with ours. Printed per N: wall and CPU time (this process: the client) to
open and to drain, CPU time and resident memory per stream, the time the cyclic garbage
collector took and its full collections; then the ratio of the largest N's CPU time to the
smallest's (linear: the ratio of the counts; the target is 10k <= 12x 1k), with and without
the collector's time, and ours against httpx's pool. "objs/stream": the objects the cyclic
collector tracks, held per open stream (``gc.get_objects()`` after the open phase less before
it, counted outside the timed phases; the harness's own gather tasks included).

At every count the same round also runs on a raw floor, alternated with ours: the same
exchange written by hand on plain asyncio (one protocol per connection that parses the
response head, the chunked body and the SSE frames in its callback, ``json.loads`` per event,
no validation, no pool, no timeouts, no release guard). It is not a competitor: it is what
CPython's event loop and cyclic collector cost for N open connections on this host, so the
ratio of its largest count to its smallest is the platform's own growth, printed beside ours
("floor growth"; ``--no-floor`` skips it).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

import httpx
from scale_measure import GCTime, cpu, rss

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "generated"))

from agentproto import Limits  # noqa: E402
from agentproto.aap import AsyncAAPClient  # noqa: E402
from agentproto.aap.models import UserMessage  # noqa: E402

DELTAS = 4
S = TypeVar("S")
WARM_UP = 20  # streams opened and drained before the measured round
# 10,000 connects at once on a loaded 2-core host: each may wait long for the loop (not the bound
# under test)
TIMEOUT = httpx.Timeout(120.0)
HELLO = [UserMessage(role="user", content="hi")]


# -- the server (a child process) ---------------------------------------------------------------


def _frames() -> bytes:
    events = [b"event: turn_start\ndata: {}\n\n"]
    events += [b'event: text_delta\ndata: {"delta": "abcd"}\n\n'] * DELTAS
    events += [b'event: turn_stop\ndata: {"stopReason": "end_turn"}\n\n']
    body = b"".join(b"%x\r\n%s\r\n" % (len(e), e) for e in events) + b"0\r\n\r\n"
    head = (
        b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n"
    )
    return head + body


class _Turns(asyncio.Protocol):
    """HTTP/1.1 just enough for the bench: read a request (head + content-length body), answer
    it with the whole SSE stream, keep the connection for the next."""

    answer = _frames()

    def __init__(self) -> None:
        self.buffer = b""
        self.transport: asyncio.Transport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        while True:
            end = self.buffer.find(b"\r\n\r\n")
            if end < 0:
                return
            head = self.buffer[:end].lower()
            length = 0
            at = head.find(b"content-length:")
            if at >= 0:
                length = int(head[at + 15 :].split(b"\r\n", 1)[0])
            if len(self.buffer) < end + 4 + length:
                return
            self.buffer = self.buffer[end + 4 + length :]
            assert self.transport is not None
            self.transport.write(self.answer)


def serve() -> None:
    async def run() -> None:
        loop = asyncio.get_running_loop()
        server = await loop.create_server(_Turns, "127.0.0.1", 0, backlog=16384)
        print(server.sockets[0].getsockname()[1], flush=True)
        await loop.run_in_executor(None, sys.stdin.read)  # until the parent closes our stdin

    asyncio.run(run())


# -- the client ---------------------------------------------------------------------------------


# -- the raw floor (a client of its own) --------------------------------------------------------

_FLOOR_BODY = json.dumps({"messages": [{"role": "user", "content": "hi"}], "mode": "delta"})


class _FloorConnection(asyncio.Protocol):
    """One connection of the floor: the response head, the chunked body and the SSE frames
    parsed as they arrive (events as ``(name, data)`` with the data ``json.loads``'d)."""

    __slots__ = ("buffer", "done", "events", "head", "transport", "waiter")

    def __init__(self) -> None:
        self.buffer = bytearray()
        self.events: list[tuple[str, object]] = []
        self.head = False
        self.done = False
        self.waiter: asyncio.Future[None] | None = None
        self.transport: asyncio.BaseTransport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        buffer = self.buffer
        buffer += data
        if not self.head:
            end = buffer.find(b"\r\n\r\n")
            if end < 0:
                return
            assert buffer.startswith(b"HTTP/1.1 200"), bytes(buffer[:40])
            del buffer[: end + 4]
            self.head = True
        while True:  # chunks: size CRLF data CRLF; one SSE frame per chunk here
            line = buffer.find(b"\r\n")
            if line < 0:
                break
            size = int(buffer[:line], 16)
            if len(buffer) < line + 2 + size + 2:
                break
            frame = bytes(buffer[line + 2 : line + 2 + size])
            del buffer[: line + 2 + size + 2]
            if size == 0:
                self.done = True
                break
            name, _, data_line = frame.rstrip(b"\n").partition(b"\ndata: ")
            self.events.append((name[len(b"event: ") :].decode(), json.loads(data_line)))
        self._wake()

    def connection_lost(self, exc: Exception | None) -> None:
        self.done = True
        self._wake()

    def _wake(self) -> None:
        waiter, self.waiter = self.waiter, None
        if waiter is not None and not waiter.done():
            waiter.set_result(None)


class _FloorStream:
    __slots__ = ("connection", "read")

    def __init__(self, connection: _FloorConnection) -> None:
        self.connection = connection
        self.read = 0

    def __aiter__(self) -> _FloorStream:
        return self

    async def __anext__(self) -> tuple[str, object]:
        connection = self.connection
        while self.read >= len(connection.events):
            if connection.done:
                raise StopAsyncIteration
            connection.waiter = asyncio.get_running_loop().create_future()
            await connection.waiter
        event = connection.events[self.read]
        self.read += 1
        return event

    def close(self) -> None:
        assert self.connection.transport is not None
        self.connection.transport.close()


async def floor_round(url: str, n: int) -> dict[str, float]:
    """The round of :func:`one_round` on the raw floor (see the module docs)."""
    loop = asyncio.get_running_loop()
    where = httpx.URL(url)
    host, port = where.host, where.port or 80
    body = _FLOOR_BODY.encode()
    request = (
        f"POST {where.path}/sessions/s/turns HTTP/1.1\r\nhost: {host}:{port}\r\n"
        f"content-type: application/json\r\naccept: text/event-stream\r\n"
        f"content-length: {len(body)}\r\n\r\n"
    ).encode() + body

    async def open_one() -> _FloorStream:
        transport, connection = await loop.create_connection(_FloorConnection, host, port)
        assert isinstance(transport, asyncio.WriteTransport)
        transport.write(request)
        stream = _FloorStream(connection)
        first = await anext(stream)
        assert first[0] == "turn_start", first
        return stream

    async def drain(stream: _FloorStream) -> int:
        count = 0
        async for _ in stream:
            count += 1
        stream.close()
        return count

    return await timed_round(n, open_one, drain)


async def timed_round(
    n: int,
    open_one: Callable[[], Awaitable[S]],
    drain: Callable[[S], Awaitable[int]],
) -> dict[str, float]:
    """Open ``n`` streams at once (each read to its first event), then drain them all: the
    wall and CPU time of each phase, the collector's share, what is held per open stream."""
    gc.collect()
    base = rss()
    objects0 = len(gc.get_objects())
    gc0, full0 = GC.total, GC.full
    wall0, cpu0 = time.perf_counter(), cpu()
    streams = await asyncio.gather(*(open_one() for _ in range(n)))
    wall1, cpu1 = time.perf_counter(), cpu()
    gc1 = GC.total
    held = rss() - base
    # objects the cyclic GC tracks, per open stream (counted outside the timed phases)
    objects = len(gc.get_objects()) - objects0
    wall1b, cpu1b = time.perf_counter(), cpu()
    counts = await asyncio.gather(*(drain(s) for s in streams))
    wall2, cpu2 = time.perf_counter(), cpu()
    gc2, full2 = GC.total, GC.full
    assert counts == [DELTAS + 1] * n, set(counts)
    return {
        "open_wall": wall1 - wall0,
        "open_cpu": cpu1 - cpu0,
        "drain_wall": wall2 - wall1b,
        "drain_cpu": cpu2 - cpu1b,
        "objects": objects,
        "held": held,
        "open_gc": gc1 - gc0,
        "drain_gc": gc2 - gc1,
        "full": full2 - full0,
    }


GC = GCTime()


async def one_round(url: str, n: int, pool: str) -> dict[str, float]:
    if pool == "floor":
        return await floor_round(url, n)
    if pool == "httpx":  # httpx's own pool, as large as n (the anchor)
        http: httpx.AsyncClient | None = httpx.AsyncClient(
            limits=httpx.Limits(max_connections=n, max_keepalive_connections=n), timeout=TIMEOUT
        )
    else:  # the pool agentproto builds itself
        http = None
    limits = Limits(max_connections=n)
    async with AsyncAAPClient(url, http_client=http, limits=limits, timeout=TIMEOUT) as client:

        async def open_one() -> Any:
            stream = await client.create_turn_stream("s", messages=HELLO, mode="delta")
            first = await anext(stream)
            assert type(first).__name__ == "TurnStartEvent", first
            return stream

        async def drain(stream: Any) -> int:
            count = 0
            async with stream as events:
                async for _ in events:
                    count += 1
            return count

        result = await timed_round(n, open_one, drain)
    if http is not None:
        await http.aclose()
    return result


def fresh(url: str, n: int, pool: str) -> dict[str, float]:
    """One round in a fresh interpreter: every count starts from the same state (the heap the
    cyclic garbage collector walks, the pool, the file descriptors), after the same warm-up."""
    done = subprocess.run(
        [sys.executable, __file__, "--round", url, str(n), pool],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"the round of {n} streams ({pool}) failed:\n{done.stderr}")
    result: dict[str, float] = json.loads(done.stdout.splitlines()[-1])
    return result


def report(label: str, n: int, r: dict[str, float]) -> float:
    total = r["open_cpu"] + r["drain_cpu"]
    print(
        f"{label:<10} {n:>6} {r['open_wall']:>9.2f}s {r['open_cpu']:>8.2f}s "
        f"{r['drain_wall']:>10.2f}s {r['drain_cpu']:>9.2f}s {total / n * 1e6:>8.0f} us "
        f"{r['held'] / n / 1024:>7.1f} KiB {r['open_gc'] + r['drain_gc']:>6.2f}s "
        f"{r['full']:>4.0f} {r['objects'] / n:>8.1f}"
    )
    return total


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--counts", default="1000,5000,10000")
    parser.add_argument(
        "--httpx-up-to",
        type=int,
        default=1000,
        help="also run httpx's own pool up to this count (superlinear: 5,000 takes minutes)",
    )
    parser.add_argument("--no-floor", action="store_true", help="skip the raw floor")
    parser.add_argument("--smoke", action="store_true")
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--round", nargs=3, help=argparse.SUPPRESS)  # url count pool
    args = parser.parse_args()
    if args.serve:
        serve()
        return 0
    if args.round:
        url, n, pool = args.round
        asyncio.run(one_round(url, WARM_UP, pool))  # imports, validators, the loop
        print(json.dumps(asyncio.run(one_round(url, int(n), pool))))
        return 0
    counts = [20, 100] if args.smoke else [int(c) for c in args.counts.split(",")]
    server = subprocess.Popen(
        [sys.executable, __file__, "--serve"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert server.stdout is not None
        port = int(server.stdout.readline())
        url = f"http://127.0.0.1:{port}/v1"
        load = os.getloadavg()[0]
        print(f"host: {os.cpu_count()} cores, load {load:.2f}; httpx {httpx.__version__}")
        print(f"concurrent AAP turn streams held by one AsyncAAPClient, {DELTAS + 2} events each")
        print(
            f"{'pool':<10} {'streams':>6} {'open wall':>10} {'open CPU':>9} {'drain wall':>11} "
            f"{'drain CPU':>10} {'CPU/stream':>11} {'RSS/stream':>11} {'of which GC':>7} "
            f"{'full':>4} {'objs/stream':>8}"
        )
        ours: dict[int, float] = {}
        theirs: dict[int, float] = {}
        floor: dict[int, float] = {}
        gcs: dict[int, float] = {}
        floor_gcs: dict[int, float] = {}
        for n in counts:
            # alternated: httpx's pool, the raw floor, then ours, at each count
            if n <= args.httpx_up_to:
                theirs[n] = report("httpx", n, fresh(url, n, "httpx"))
            if not args.no_floor:
                f = fresh(url, n, "floor")
                floor[n] = report("raw floor", n, f)
                floor_gcs[n] = f["open_gc"] + f["drain_gc"]
            r = fresh(url, n, "ours")
            ours[n] = report("agentproto", n, r)
            gcs[n] = r["open_gc"] + r["drain_gc"]
        lo, hi = min(counts), max(counts)
        print(
            f"ratio {hi} / {lo} streams, CPU: {ours[hi] / ours[lo]:.2f}x "
            f"(for {hi / lo:.0f}x the streams; target <= {hi / lo * 1.2:.0f}x); without the "
            f"cyclic GC: {(ours[hi] - gcs[hi]) / (ours[lo] - gcs[lo]):.2f}x"
        )
        if floor:
            print(
                f"floor growth {hi} / {lo} streams, CPU: {floor[hi] / floor[lo]:.2f}x; without "
                f"the cyclic GC: {(floor[hi] - floor_gcs[hi]) / (floor[lo] - floor_gcs[lo]):.2f}x"
                f"; ours / floor growth: {ours[hi] / ours[lo] / (floor[hi] / floor[lo]):.2f}x"
            )
            for n in counts:
                print(f"ours / raw floor at {n} streams, CPU: {ours[n] / floor[n]:.2f}x")
        for n in sorted(theirs):
            print(f"ours / httpx's own pool at {n} streams, CPU: {ours[n] / theirs[n]:.2f}x")
    finally:
        if server.stdin is not None:
            server.stdin.close()
        server.wait(timeout=10)
    return 0


if __name__ == "__main__":
    sys.exit(main())
