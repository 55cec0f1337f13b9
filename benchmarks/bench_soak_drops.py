"""Soak with random drops: AAP and LLM streams, sync and async, left every way a careless caller
leaves them, for minutes; no connection may leak. Not part of the test suite (the suite runs
``--smoke``).

Run from the repository root:  python benchmarks/bench_soak_drops.py [--seconds 180] [--seed 1]
                               python benchmarks/bench_soak_drops.py --smoke   (a few seconds)

A loopback server (Starlette + uvicorn, a separate process) answers AAP turn streams
(``turn_start``, 12 ``text_delta``, ``turn_stop``) and OpenAI-format chat streams (12 chunks and
``[DONE]``); at random it cuts a stream (8 %) or stalls it past the client's read timeout
(0.3 %). ``AAPClient`` and ``LLMClient`` run in threads, ``AsyncAAPClient`` and
``AsyncLLMClient`` in tasks, all at once, each on a pool of 32 connections (streams kept
alive or waiting in a cycle for the collector hold some: a leak would take them all within
seconds); every call picks a way to treat its stream at random:

- ``read all in with``; ``break in with``;
- ``never read``: opened and dropped before its first read (a generator that never started:
  before issue 25 its connection was never given back);
- ``never bound``: opened and not even bound to a name;
- ``break, no with``: broken out of a loop, never closed;
- ``partial then del``; ``kept unclosed``: held (up to 3 per client) and dropped later;
- ``in a cycle``: dropped inside a reference cycle (freed by the cyclic collector, closed at
  the client's next call);
- ``cancelled mid-read`` (async): a read cancelled by a timeout while the stream waits.

Every wait is bounded (read timeout 1 s, pool timeout 5 s: a leaked pool shows as a pool
timeout, counted as a failure of ours, not the server's). It prints open file descriptors,
threads, sockets in CLOSE-WAIT and RSS at the start, each quarter and the end, and what became
of the calls. Exit status 1 when a call failed for any reason but the server's own faults
(a cut: ``APIConnectionError``; a stall: ``APITimeoutError``), when a socket is left in
CLOSE-WAIT, or when descriptors or threads grew.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import logging
import os
import random
import socket
import subprocess
import sys
import threading
import time
import warnings
from collections import Counter
from collections.abc import AsyncIterable, Iterable
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "generated"))

from agentproto._runtime.http_errors import APIConnectionError, APITimeoutError  # noqa: E402
from agentproto.aap import AAPClient, AsyncAAPClient  # noqa: E402
from agentproto.aap.models import UserMessage  # noqa: E402
from agentproto.llm import AsyncLLMClient, LLMClient  # noqa: E402

DELTAS = 12
CUT = 0.08
STALL = 0.003
STALL_SECONDS = 3.0
READ_TIMEOUT = 1.0
POOL = httpx.Limits(max_connections=32, max_keepalive_connections=8)
TIMEOUT = httpx.Timeout(READ_TIMEOUT, connect=2.0, pool=5.0)
HELLO = [UserMessage(role="user", content="hi")]
USER = [{"role": "user", "content": "hi"}]
KEY = "sk-soak-0123456789"


# -- the server (a child process) ---------------------------------------------------------------


def serve(seed: int) -> None:
    import uvicorn
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import JSONResponse, Response, StreamingResponse
    from starlette.routing import Route

    logging.getLogger("asyncio").setLevel(logging.CRITICAL)
    rng = random.Random(seed)
    aap = [b"event: turn_start\ndata: {}\n\n"]
    aap += [b'event: text_delta\ndata: {"delta": "abcd"}\n\n'] * DELTAS
    aap += [b'event: turn_stop\ndata: {"stopReason": "end_turn"}\n\n']
    chunk = b'data: {"choices":[{"index":0,"delta":{"content":"ab"},"finish_reason":null}]}\n\n'
    last = b'data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\n'
    llm = [chunk] * DELTAS + [last, b"data: [DONE]\n\n"]

    def stream(frames: list[bytes]) -> Response:
        fate = rng.random()
        cut = rng.randrange(len(frames)) if fate < CUT else None
        stall = rng.randrange(len(frames)) if CUT <= fate < CUT + STALL else None

        async def body() -> Any:
            for i, frame in enumerate(frames):
                if i == cut:
                    raise ConnectionResetError("cut")
                if i == stall:
                    await asyncio.sleep(STALL_SECONDS)
                yield frame

        return StreamingResponse(body(), media_type="text/event-stream")

    async def session(request: Request) -> Response:
        return JSONResponse({"sessionId": "soak"}, status_code=201)

    async def turn(request: Request) -> Response:
        await request.body()
        return stream(aap)

    async def chat(request: Request) -> Response:
        await request.body()
        return stream(llm)

    app = Starlette(
        routes=[
            Route("/v1/sessions", session, methods=["POST"]),
            Route("/v1/sessions/{sid}/turns", turn, methods=["POST"]),
            Route("/v1/chat/completions", chat, methods=["POST"]),
        ]
    )
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    server = uvicorn.Server(
        uvicorn.Config(
            app, log_level="critical", lifespan="off", access_log=False, timeout_graceful_shutdown=1
        )
    )

    async def run() -> None:
        serving = asyncio.create_task(server.serve(sockets=[sock]))
        while not server.started:
            await asyncio.sleep(0.01)
        print(sock.getsockname()[1], flush=True)
        await serving

    asyncio.run(run())


# -- what the process holds ---------------------------------------------------------------------


def holdings() -> dict[str, int]:
    fds = os.listdir("/proc/self/fd")
    inodes = set()
    for fd in fds:
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(target[8:-1])
    close_wait = 0
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            rows = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for row in rows:
            fields = row.split()
            if fields[3] == "08" and fields[9] in inodes:  # 08: CLOSE_WAIT
                close_wait += 1
    rss = 0
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            rss = int(line.split()[1]) // 1024
    return {
        "fds": len(fds),
        "threads": threading.active_count(),
        "close_wait": close_wait,
        "rss_mib": rss,
    }


def show(label: str, seen: dict[str, int]) -> None:
    print(
        f"{label:>8}: fds {seen['fds']:4d}  threads {seen['threads']:3d}  "
        f"CLOSE-WAIT {seen['close_wait']:3d}  RSS {seen['rss_mib']:4d} MiB",
        flush=True,
    )


# -- the callers --------------------------------------------------------------------------------

SYNC_WAYS = (
    "read all in with",
    "break in with",
    "never read",
    "never bound",
    "break, no with",
    "partial then del",
    "kept unclosed",
    "in a cycle",
)
ASYNC_WAYS = (*SYNC_WAYS, "cancelled mid-read")


def take(events: Iterable[object], count: int) -> None:
    for n, _ in enumerate(events, 1):
        if n >= count:
            break


async def atake(events: AsyncIterable[object], count: int) -> None:
    n = 0
    async for _ in events:
        n += 1
        if n >= count:
            break


class Tally:
    def __init__(self) -> None:
        self.counts: Counter[str] = Counter()
        self.lock = threading.Lock()

    def add(self, key: str) -> None:
        with self.lock:
            self.counts[key] += 1

    def failed(self, exc: BaseException) -> None:
        cause = exc.__cause__
        if isinstance(cause, httpx.PoolTimeout):
            self.add(f"UNEXPECTED pool exhausted (a leak): {exc}")
        elif isinstance(exc, APITimeoutError):
            self.add("server stalled: APITimeoutError")
        elif isinstance(exc, APIConnectionError):
            self.add("server cut: APIConnectionError")
        else:
            self.add(f"UNEXPECTED {type(exc).__name__}: {exc}")


def one_sync(
    open_stream: Any, rng: random.Random, kept: list[Any], tally: Tally, kind: str
) -> None:
    way = rng.choice(SYNC_WAYS)
    k = rng.randrange(1, DELTAS + 3)
    try:
        if way == "read all in with":
            with open_stream() as events:
                take(events, 10**9)
        elif way == "break in with":
            with open_stream() as events:
                take(events, k)
        elif way == "never read":
            stream = open_stream()
            del stream
        elif way == "never bound":
            open_stream()
        elif way == "break, no with":
            take(open_stream(), k)
        elif way == "partial then del":
            stream = open_stream()
            take(stream, k)
            del stream
        elif way == "kept unclosed":
            kept.append(open_stream())
            if len(kept) > 3:
                kept.pop(0)
        else:
            cycle: list[Any] = [open_stream()]
            cycle.append(cycle)
            del cycle
        tally.add(f"{kind} sync: {way}")
    except Exception as exc:
        tally.failed(exc)


async def one_async(
    open_stream: Any, rng: random.Random, kept: list[Any], tally: Tally, kind: str
) -> None:
    way = rng.choice(ASYNC_WAYS)
    k = rng.randrange(1, DELTAS + 3)
    try:
        if way == "read all in with":
            async with await open_stream() as events:
                await atake(events, 10**9)
        elif way == "break in with":
            async with await open_stream() as events:
                await atake(events, k)
        elif way == "never read":
            stream = await open_stream()
            del stream
        elif way == "never bound":
            await open_stream()
        elif way == "break, no with":
            await atake(await open_stream(), k)
        elif way == "partial then del":
            stream = await open_stream()
            await atake(stream, k)
            del stream
        elif way == "kept unclosed":
            kept.append(await open_stream())
            if len(kept) > 3:
                kept.pop(0)
        elif way == "in a cycle":
            cycle: list[Any] = [await open_stream()]
            cycle.append(cycle)
            del cycle
        else:
            stream = await open_stream()
            try:
                await asyncio.wait_for(atake(stream, k), rng.uniform(0.0005, 0.003))
            except TimeoutError:
                pass
            del stream
        tally.add(f"{kind} async: {way}")
    except Exception as exc:
        tally.failed(exc)


def sync_worker(kind: str, base: str, until: float, seed: int, tally: Tally) -> None:
    rng = random.Random(seed)
    kept: list[Any] = []
    with httpx.Client(limits=POOL, timeout=TIMEOUT) as http:
        if kind == "aap":
            with AAPClient(base, timeout=TIMEOUT, http_client=http) as aap:
                while time.monotonic() < until:
                    one_sync(
                        lambda: aap.create_turn_stream("soak", messages=HELLO, mode="delta"),
                        rng,
                        kept,
                        tally,
                        kind,
                    )
                kept.clear()
                aap.create_session({"agent": {"name": "soak"}})  # closes what the GC left
        else:
            with LLMClient(
                "openai", api_key=KEY, base_url=base, http_client=http, timeout=TIMEOUT, retry=False
            ) as llm:
                while time.monotonic() < until:
                    one_sync(lambda: llm.stream(USER, model="m"), rng, kept, tally, kind)
                kept.clear()
                gc.collect()
                with llm.stream(USER, model="m") as s:
                    take(s, 1)


async def async_workers(
    aap_base: str, llm_base: str, until: float, seed: int, tasks: int, tally: Tally
) -> None:
    async with (
        httpx.AsyncClient(limits=POOL, timeout=TIMEOUT) as http_a,
        httpx.AsyncClient(limits=POOL, timeout=TIMEOUT) as http_l,
        AsyncAAPClient(aap_base, timeout=TIMEOUT, http_client=http_a) as aap,
        AsyncLLMClient(
            "openai",
            api_key=KEY,
            base_url=llm_base,
            http_client=http_l,
            timeout=TIMEOUT,
            retry=False,
        ) as llm,
    ):

        async def loop(i: int) -> None:
            rng = random.Random(seed * 1000 + i)
            kept: list[Any] = []
            kind = "aap" if i % 2 == 0 else "llm"
            while time.monotonic() < until:
                if kind == "aap":
                    opener = lambda: aap.create_turn_stream("soak", messages=HELLO, mode="delta")  # noqa: E731
                else:
                    opener = lambda: llm.stream(USER, model="m")  # noqa: E731
                await one_async(opener, rng, kept, tally, kind)
            kept.clear()

        await asyncio.gather(*(loop(i) for i in range(tasks)))
        gc.collect()
        await asyncio.sleep(0.05)  # closes scheduled by drops run
        await aap.create_session({"agent": {"name": "soak"}})  # closes what the GC left
        async with await llm.stream(USER, model="m") as s:
            await atake(s, 1)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=180.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--smoke", action="store_true", help="a few seconds, fewer callers")
    parser.add_argument("--serve", type=int, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve is not None:
        serve(args.serve)
        return 0
    seconds = 4.0 if args.smoke else args.seconds
    threads_per_kind, tasks = (1, 4) if args.smoke else (3, 12)
    warnings.simplefilter("ignore", ResourceWarning)  # expected: these streams are dropped
    logging.getLogger("asyncio").setLevel(logging.CRITICAL)

    server = subprocess.Popen(
        [sys.executable, __file__, "--serve", str(args.seed)],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert server.stdout is not None
        port = int(server.stdout.readline())
        aap_base = f"http://127.0.0.1:{port}/v1"
        llm_base = f"http://127.0.0.1:{port}/v1"
        tally = Tally()
        # Warm up: imports, the first connections, the loop's own threads.
        with AAPClient(aap_base) as warm:
            warm.create_session({"agent": {"name": "soak"}})
        asyncio.run(asyncio.sleep(0))
        gc.collect()
        start = holdings()
        print(f"soak with random drops: {seconds:g} s, seed {args.seed}")
        show("start", start)
        began = time.monotonic()
        until = began + seconds
        workers = [
            threading.Thread(
                target=sync_worker, args=(kind, base, until, args.seed * 10 + i, tally)
            )
            for i in range(threads_per_kind)
            for kind, base in (("aap", aap_base), ("llm", llm_base))
        ]
        workers.append(
            threading.Thread(
                target=lambda: asyncio.run(
                    async_workers(aap_base, llm_base, until, args.seed, tasks, tally)
                )
            )
        )
        for worker in workers:
            worker.start()
        quarter = seconds / 4
        for q in range(1, 4):
            time.sleep(max(0.0, began + q * quarter - time.monotonic()))
            show(f"{q}/4", holdings())
        for worker in workers:
            worker.join(seconds + 60)
            if worker.is_alive():
                print("HANG: a worker did not finish", flush=True)
                return 1
        gc.collect()
        end = holdings()
        show("end", end)
    finally:
        server.terminate()
        server.wait(10)

    calls = sum(tally.counts.values())
    print(f"{calls} calls, {calls / seconds:.0f}/s:")
    for key, count in sorted(tally.counts.items()):
        print(f"  {count:7d}  {key}")
    problems = [k for k in tally.counts if k.startswith("UNEXPECTED")]
    if end["close_wait"]:
        problems.append(f"{end['close_wait']} sockets left in CLOSE-WAIT")
    if end["fds"] > start["fds"] + 2:
        problems.append(f"descriptors grew from {start['fds']} to {end['fds']}")
    if end["threads"] > start["threads"]:
        problems.append(f"threads grew from {start['threads']} to {end['threads']}")
    for problem in problems:
        print(f"FAIL: {problem}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
