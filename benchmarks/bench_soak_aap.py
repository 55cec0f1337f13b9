"""AAP soak: many turn streams, dropped by careless callers and cut by the server, no hang, no
leak. The suite runs only its smoke mode (``--smoke``: 200 streams, so it cannot rot).

Run from the repository root:  python benchmarks/bench_soak_aap.py [--streams 10000] [--seed 1]

A loopback AAP server (Starlette + uvicorn, a separate process so it does not share our GIL)
answers every ``POST /v1/sessions/{id}/turns`` with an SSE stream of ``turn_start``, 24
``text_delta`` and ``turn_stop``; at random it cuts the connection after a random number of
frames (15 %) or stalls past the client's read timeout (0.2 %). Half of the streams are read by
``AAPClient`` from 4 threads, half by ``AsyncAAPClient`` from 8 tasks, at the same time; each
caller picks at random: read it all in ``with``, ``break`` out of a ``for`` (no ``with``), read
a few events then ``del`` the stream, read one event from a stream never bound to a name, or
``break`` inside ``with``. Every wait is bounded (read timeout 1 s, each round joined with a
deadline: a hang prints HANG and exits 1). Prints open file descriptors, threads, RSS and the
Python objects alive after a collection at the start and after each quarter, their growth
after the first quarter (the warm-up: lazily built validators, the pool) against it, and what
became of the streams; any other error exits 1.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import logging
import os
import random
import select
import socket
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import AsyncIterable, Iterable
from pathlib import Path
from typing import Any

import anyio
import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "generated"))

from agentproto._runtime.http_errors import APIConnectionError, APITimeoutError  # noqa: E402
from agentproto.aap import AAPClient, AsyncAAPClient  # noqa: E402
from agentproto.aap.models import UserMessage  # noqa: E402

DELTAS = 24
CUT = 0.15
STALL = 0.002
STALL_SECONDS = 3.0
READ_TIMEOUT = 1.0
SYNC_THREADS = 4
ASYNC_TASKS = 8
HELLO = [UserMessage(role="user", content="hi")]


# -- the server (run in a child process) --------------------------------------------------------


def serve(seed: int) -> None:
    import uvicorn
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import JSONResponse, Response, StreamingResponse
    from starlette.routing import Route

    # writes to connections the client dropped are expected here
    logging.getLogger("asyncio").setLevel(logging.CRITICAL)
    rng = random.Random(seed)
    frames = [b"event: turn_start\ndata: {}\n\n"]
    frames += [b'event: text_delta\ndata: {"delta": "abcd"}\n\n'] * DELTAS
    frames += [b'event: turn_stop\ndata: {"stopReason": "end_turn"}\n\n']

    async def create_session(request: Request) -> Response:
        return JSONResponse({"sessionId": "soak"}, status_code=201)

    async def meta(request: Request) -> Response:
        return JSONResponse({"version": 3, "agents": [{"name": "soak", "version": "1"}]})

    async def turn(request: Request) -> Response:
        await request.body()
        fate = rng.random()
        cut = rng.randrange(len(frames)) if fate < CUT else None
        stall = rng.randrange(len(frames)) if CUT <= fate < CUT + STALL else None

        async def body() -> Any:
            for i, frame in enumerate(frames):
                if i == cut:
                    raise ConnectionResetError("cut")  # uvicorn drops the connection
                if i == stall:
                    await asyncio.sleep(STALL_SECONDS)
                yield frame

        return StreamingResponse(body(), media_type="text/event-stream")

    app = Starlette(
        routes=[
            Route("/v1/meta", meta, methods=["GET"]),
            Route("/v1/sessions", create_session, methods=["POST"]),
            Route("/v1/sessions/{sid}/turns", turn, methods=["POST"]),
        ]
    )
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    config = uvicorn.Config(
        app,
        log_level="critical",
        lifespan="off",
        access_log=False,
        timeout_graceful_shutdown=1,
    )
    server = uvicorn.Server(config)

    async def run() -> None:
        serving = asyncio.create_task(server.serve(sockets=[sock]))
        while not server.started:
            await asyncio.sleep(0.01)
        print(sock.getsockname()[1], flush=True)
        await serving

    asyncio.run(run())


# -- the callers --------------------------------------------------------------------------------


def take(events: Iterable[object], count: int) -> int:
    n = 0
    for _ in events:
        n += 1
        if n >= count:
            break
    return n


async def atake(events: AsyncIterable[object], count: int) -> int:
    n = 0
    async for _ in events:
        n += 1
        if n >= count:
            break
    return n


WAYS = ("all in with", "break, no with", "partial then del", "unreferenced", "break in with")


def one_sync(client: AAPClient, rng: random.Random, outcomes: Counter[str]) -> None:
    way = rng.choice(WAYS)
    k = rng.randrange(1, DELTAS + 3)
    try:
        if way == "all in with":
            with client.create_turn_stream("soak", messages=HELLO, mode="delta") as events:
                take(events, 10**9)
        elif way == "break, no with":
            take(client.create_turn_stream("soak", messages=HELLO, mode="delta"), k)
        elif way == "partial then del":
            stream = client.create_turn_stream("soak", messages=HELLO, mode="delta")
            take(stream, k)
            del stream
        elif way == "unreferenced":
            next(iter(client.create_turn_stream("soak", messages=HELLO, mode="delta")), None)
        else:
            with client.create_turn_stream("soak", messages=HELLO, mode="delta") as events:
                take(events, k)
        outcomes[way] += 1
    except APITimeoutError:
        outcomes["server stalled: APITimeoutError"] += 1
    except APIConnectionError:
        outcomes["server cut: APIConnectionError"] += 1
    except Exception as exc:  # counted, printed, and the run fails
        outcomes[f"UNEXPECTED {type(exc).__name__}: {exc}"] += 1


async def one_async(client: AsyncAAPClient, rng: random.Random, outcomes: Counter[str]) -> None:
    way = rng.choice(WAYS)
    k = rng.randrange(1, DELTAS + 3)
    try:
        if way == "all in with":
            stream = await client.create_turn_stream("soak", messages=HELLO, mode="delta")
            async with stream as events:
                await atake(events, 10**9)
        elif way == "break, no with":
            await atake(await client.create_turn_stream("soak", messages=HELLO, mode="delta"), k)
        elif way == "partial then del":
            stream = await client.create_turn_stream("soak", messages=HELLO, mode="delta")
            await atake(stream, k)
            del stream
        elif way == "unreferenced":
            await anext(await client.create_turn_stream("soak", messages=HELLO, mode="delta"), None)
        else:
            stream = await client.create_turn_stream("soak", messages=HELLO, mode="delta")
            async with stream as events:
                await atake(events, k)
        outcomes["async " + way] += 1
    except APITimeoutError:
        outcomes["server stalled: APITimeoutError"] += 1
    except APIConnectionError:
        outcomes["server cut: APIConnectionError"] += 1
    except Exception as exc:
        outcomes[f"UNEXPECTED {type(exc).__name__}: {exc}"] += 1


def sync_worker(client: AAPClient, count: int, seed: int, outcomes: Counter[str]) -> None:
    rng = random.Random(seed)
    local: Counter[str] = Counter()
    for _ in range(count):
        one_sync(client, rng, local)
    with LOCK:
        outcomes.update(local)


def async_round(
    url: str, timeout: httpx.Timeout, count: int, seed: int, outcomes: Counter[str]
) -> None:
    async def task(client: AsyncAAPClient, index: int, share: int) -> None:
        rng = random.Random(seed * 1000 + index)
        for _ in range(share):
            await one_async(client, rng, local)

    async def main() -> None:
        async with AsyncAAPClient(url, api_key="k", timeout=timeout) as client:
            async with anyio.create_task_group() as group:
                for i in range(ASYNC_TASKS):
                    share = count // ASYNC_TASKS + (i < count % ASYNC_TASKS)
                    group.start_soon(task, client, i, share)
            await client.get_meta()  # the client still answers

    local: Counter[str] = Counter()
    anyio.run(main)
    with LOCK:
        outcomes.update(local)


LOCK = threading.Lock()


# -- measurements -------------------------------------------------------------------------------


def snapshot() -> tuple[int, int, float, int]:
    """Open file descriptors, threads, RSS (MB), and Python objects tracked by the collector
    (after a collection: a leak of streams or responses would show here, not only in RSS)."""
    gc.collect()
    fds = len(os.listdir("/proc/self/fd"))
    rss = 0.0
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            rss = int(line.split()[1]) / 1024
    return fds, threading.active_count(), rss, len(gc.get_objects())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--streams", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--deadline", type=float, default=600.0, help="seconds per round")
    parser.add_argument("--serve", type=int, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--smoke", action="store_true", help="200 streams")
    args = parser.parse_args()
    if args.smoke:
        args.streams, args.deadline = 200, 60.0
    if args.serve is not None:
        serve(args.serve)
        return 0

    server = subprocess.Popen(
        [sys.executable, __file__, "--serve", str(args.seed)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert server.stdout is not None
        if not select.select([server.stdout], [], [], 30)[0]:
            print("HANG: the server did not start within 30 s")
            return 1
        url = f"http://127.0.0.1:{server.stdout.readline().strip()}/v1"
        return soak(url, args.streams, args.seed, args.deadline)
    finally:
        server.terminate()
        server.wait(10)


def soak(url: str, streams: int, seed: int, deadline: float) -> int:
    timeout = httpx.Timeout(10.0, read=READ_TIMEOUT)
    outcomes: Counter[str] = Counter()
    rounds = 4
    per_round = streams // rounds
    print(
        f"AAP soak: {streams} streams against {url} ({SYNC_THREADS} threads sync, "
        f"{ASYNC_TASKS} tasks async; server cuts {CUT:.0%}, stalls {STALL:.1%})"
    )
    with AAPClient(url, api_key="k", timeout=timeout) as client:
        client.get_meta()
        take(client.create_turn_stream("soak", messages=HELLO, mode="delta"), 3)  # warm up
        marks = [("start", snapshot())]
        started = time.monotonic()
        for r in range(rounds):
            sync_share = per_round // 2
            workers = [
                threading.Thread(
                    target=sync_worker,
                    args=(
                        client,
                        sync_share // SYNC_THREADS + (i < sync_share % SYNC_THREADS),
                        seed * 100 + r * 10 + i,
                        outcomes,
                    ),
                    daemon=True,
                )
                for i in range(SYNC_THREADS)
            ]
            workers.append(
                threading.Thread(
                    target=async_round,
                    args=(url, timeout, per_round - sync_share, seed * 100 + r, outcomes),
                    daemon=True,
                )
            )
            for worker in workers:
                worker.start()
            end = time.monotonic() + deadline
            for worker in workers:
                worker.join(max(0.0, end - time.monotonic()))
            if any(worker.is_alive() for worker in workers):
                print(f"HANG: round {r + 1} still running after {deadline:.0f} s", flush=True)
                os._exit(1)
            client.get_meta()  # the client still answers
            marks.append((f"{(r + 1) * per_round:,}", snapshot()))
        elapsed = time.monotonic() - started

    done = sum(outcomes.values())
    print(f"{done} streams in {elapsed:.1f} s ({done / elapsed:,.0f}/s), no hang")
    print(f"{'':8}{'fds':>6}{'threads':>9}{'RSS MB':>9}{'objects':>10}")
    for name, (fds, threads, rss, objects) in marks:
        print(f"{name:8}{fds:>6}{threads:>9}{rss:>9.1f}{objects:>10,}")
    (fds0, threads0, rss0, objects0), (fds1, threads1, rss1, objects1) = marks[1][1], marks[-1][1]
    print(
        f"growth after the first quarter: fds {fds1 - fds0:+d}, threads {threads1 - threads0:+d},"
        f" RSS x{rss1 / rss0:.2f}, objects x{objects1 / objects0:.2f}"
    )
    for name, count in sorted(outcomes.items()):
        print(f"  {count:6}  {name}")
    unexpected = sum(c for n, c in outcomes.items() if n.startswith("UNEXPECTED"))
    if done != per_round * rounds or unexpected:
        print(f"FAILED: {done} of {per_round * rounds} accounted for, {unexpected} unexpected")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
