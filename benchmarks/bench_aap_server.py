"""AAP server throughput and open streams: our server kit against the upstream TypeScript one.

Run from the repository root::

    python benchmarks/bench_aap_server.py [--ts /work/ext/aap-ts] [--turns 2000]
        [--concurrency 32] [--streams 1000] [--hold 20] [--store sqlite|memory]
    python benchmarks/bench_aap_server.py --smoke     # ours only, small (the suite runs it)

Each server runs in its own process on loopback and serves the same scripted agent (no LLM):
``echo: <text>`` in 4-character deltas, and ``hold <s>`` waits that long before answering.
Ours: ``python -m agentproto.aap.serve`` (one uvicorn worker) with the agent of
tests/servers/aap_agents.py and its SQLite store (a file, every message written: durable;
``--store memory`` for an in-memory SQLite). Theirs (``--ts SDK_DIR``, the upstream SDK 0.8.0
built outside this repository, see interop/README.md): interop/aap_ts/ts_server.cjs, the
upstream ``aap()`` Hono app with its ``Session`` and an in-memory session map, as its
examples keep them. Both check a bearer key.

Measured, one server at a time, by one asyncio client process (httpx): turns per second with
``--concurrency`` sessions each taking turns back to back (``stream: none``, then ``delta``
read to the end of the stream), after a warm-up; then, on a freshly started server process,
``--streams`` streams open at once (``hold`` turns, each on its own session), the server's
resident memory before (sessions created, one turn taken) and while they are open
(``/proc/<pid>/status`` VmRSS), and the memory per open stream. Ratios are ours /
theirs, measured in the same run. Note: the upstream server ends its delta and message
streams before their last events are written (its ``writeSSE`` is not awaited); the client
here reads every stream to its end either way.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
KEY = "sk-bench-0123456789abcdef"


@dataclass
class Result:
    name: str
    turns_none: float = 0.0
    turns_delta: float = 0.0
    streams: int = 0
    rss_before_mb: float = 0.0
    rss_open_mb: float = 0.0
    open_seconds: float = 0.0

    @property
    def per_stream_kb(self) -> float:
        return (self.rss_open_mb - self.rss_before_mb) * 1024 / max(self.streams, 1)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


@contextmanager
def server(command: list[str], env: dict[str, str], url: str) -> Iterator[int]:
    process = subprocess.Popen(
        command,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            if process.poll() is not None:
                raise SystemExit(f"server exited: {process.stderr.read().decode()[-2000:]}")  # type: ignore[union-attr]
            try:
                if httpx.get(url + "/meta", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise SystemExit("server did not start")
            time.sleep(0.1)
        yield process.pid
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def ours(port: int, store: str) -> tuple[list[str], dict[str, str]]:
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(ROOT / "generated"), str(ROOT)]),
        "AAP_API_KEYS": f"bench:{KEY}",
    }
    command = [
        sys.executable, "-m", "agentproto.aap.serve",
        "--agent", "tests.servers.aap_agents:agents", "--store", store,
        "--port", str(port), "--log-level", "warning",
        "--settings", json.dumps({"max_sessions_per_principal": 1_000_000}),
    ]  # fmt: skip
    return command, env


def theirs(port: int, sdk: Path) -> tuple[list[str], dict[str, str]]:
    script = ROOT / "interop" / "aap_ts" / "ts_server.cjs"
    return ["node", str(script), str(sdk), str(port), KEY], dict(os.environ)


async def new_sessions(client: httpx.AsyncClient, count: int) -> list[str]:
    async def one() -> str:
        answer = await client.post("/sessions", json={"agent": {"name": "echo"}})
        answer.raise_for_status()
        return str(answer.json()["sessionId"])

    found: list[str] = []
    for start in range(0, count, 100):
        found += await asyncio.gather(*(one() for _ in range(min(100, count - start))))
    return found


async def turn(client: httpx.AsyncClient, sid: str, mode: str, text: str = "bench") -> None:
    body = {"messages": [{"role": "user", "content": text}], "stream": mode}
    if mode == "none":
        answer = await client.post(f"/sessions/{sid}/turns", json=body)
        answer.raise_for_status()
        return
    async with client.stream("POST", f"/sessions/{sid}/turns", json=body) as answer:
        answer.raise_for_status()
        async for _ in answer.aiter_bytes():
            pass


async def rate(client: httpx.AsyncClient, sessions: list[str], mode: str, total: int) -> float:
    left = total

    async def worker(sid: str) -> None:
        nonlocal left
        while left > 0:
            left -= 1
            await turn(client, sid, mode)

    started = time.perf_counter()
    await asyncio.gather(*(worker(s) for s in sessions))
    return total / (time.perf_counter() - started)


async def open_streams(
    url: str, pid: int, count: int, hold: float, result: Result, sessions: list[str] | None
) -> None:
    limits = httpx.Limits(max_connections=count + 10, max_keepalive_connections=count + 10)
    timeout = httpx.Timeout(hold + 60, connect=30)
    headers = {"Authorization": f"Bearer {KEY}"}
    async with httpx.AsyncClient(
        base_url=url, limits=limits, timeout=timeout, headers=headers
    ) as client:
        if sessions is None:  # a server that keeps sessions in memory: made here
            sessions = await new_sessions(client, count)
        await turn(client, sessions[0], "delta")
        result.rss_before_mb = rss_mb(pid)
        opened = 0
        all_open = asyncio.Event()

        async def hold_one(sid: str) -> None:
            nonlocal opened
            body = {"stream": "delta", "messages": [{"role": "user", "content": f"hold {hold}"}]}
            async with client.stream("POST", f"/sessions/{sid}/turns", json=body) as answer:
                answer.raise_for_status()
                async for _ in answer.aiter_bytes():
                    break  # turn_start: the stream is open and its turn runs
                opened += 1
                if opened == count:
                    all_open.set()
                await asyncio.sleep(hold + 30)  # keep it open until cancelled

        started = time.perf_counter()
        tasks = [asyncio.create_task(hold_one(s)) for s in sessions]
        try:
            await asyncio.wait_for(all_open.wait(), timeout=hold)
            result.open_seconds = time.perf_counter() - started
            await asyncio.sleep(0.5)
            result.rss_open_mb = rss_mb(pid)
            result.streams = count
        except TimeoutError:
            print(f"  only {opened} of {count} streams opened within {hold} s")
            result.streams = opened
            result.rss_open_mb = rss_mb(pid)
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)


async def measure(
    name: str, url: str, pid: int, args: argparse.Namespace
) -> tuple[Result, list[str]]:
    result = Result(name)
    limits = httpx.Limits(max_connections=args.concurrency + 4)
    headers = {"Authorization": f"Bearer {KEY}"}
    async with httpx.AsyncClient(
        base_url=url, limits=limits, timeout=30, headers=headers
    ) as client:
        sessions = await new_sessions(client, args.concurrency)
        await rate(client, sessions, "none", max(args.turns // 10, args.concurrency))  # warm-up
        result.turns_none = await rate(client, sessions, "none", args.turns)
        result.turns_delta = await rate(client, sessions, "delta", args.turns)
        held = await new_sessions(client, args.streams)  # for the streams, made beforehand
    return result, held


def run(
    name: str,
    command: list[str],
    env: dict[str, str],
    url: str,
    args: argparse.Namespace,
    durable: bool,
) -> Result:
    print(f"{name}: measuring...", flush=True)
    with server(command, env, url) as pid:
        result, held = asyncio.run(measure(name, url, pid, args))
    # Streams on a fresh process: memory that the turns (or making the sessions) left in the
    # allocator's pools would be reused by the streams and hide what they cost. A server that
    # keeps its sessions durably serves the ones made above; the others make them anew.
    with server(command, env, url) as pid:
        sessions = held if durable else None
        asyncio.run(open_streams(url, pid, args.streams, args.hold, result, sessions))
    return result


def report(results: list[Result]) -> None:
    print()
    print(f"{'server':<28} {'turns/s none':>12} {'turns/s delta':>13} {'streams':>8} "
          f"{'RSS before':>10} {'RSS open':>9} {'KB/stream':>9} {'open in':>8}")  # fmt: skip
    for r in results:
        print(
            f"{r.name:<28} {r.turns_none:>12.0f} {r.turns_delta:>13.0f} {r.streams:>8} "
            f"{r.rss_before_mb:>8.1f}MB {r.rss_open_mb:>7.1f}MB {r.per_stream_kb:>9.1f} "
            f"{r.open_seconds:>7.2f}s"
        )
    if len(results) == 2:
        a, b = results
        print(
            f"\nratios (ours / theirs): turns/s none {a.turns_none / b.turns_none:.2f}x, "
            f"delta {a.turns_delta / b.turns_delta:.2f}x, memory per open stream "
            f"{a.per_stream_kb / b.per_stream_kb:.2f}x"
        )


# -- a crowd: sessions + turns per second at 200 and 1,000 concurrent clients, driven by wrk --


@dataclass
class Round:
    server: str
    clients: int
    ops: float  # sessions + turns (one session and one turn in it) per second
    p50_ms: float
    p99_ms: float
    errors: int
    server_cpu: float  # CPU seconds of the server per 1,000 operations
    wrk_cpu_share: float  # wrk's CPU time / (wall time x its threads): < 1 is not saturated


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of ``pid`` and its children that were waited for."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = sum(int(v) for v in fields[11:15])
    return ticks / os.sysconf("SC_CLK_TCK")


def tree_cpu(pid: int) -> float:
    """CPU seconds of ``pid`` and every live process of its session (workers)."""
    total = 0.0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if os.getsid(int(entry.name)) == pid:
                total += cpu_seconds(int(entry.name))
        except (OSError, ValueError):
            continue
    return total


def wrk_round(name: str, url: str, pid: int, clients: int, seconds: float, threads: int) -> Round:
    script = ROOT / "benchmarks" / "aap_crowd.lua"
    env = {**os.environ, "AAP_BENCH_KEY": KEY}
    command = [
        "wrk", f"-t{threads}", f"-c{clients}", f"-d{seconds:g}s", "--timeout", "10s",
        "-s", str(script), url,
    ]  # fmt: skip
    before = tree_cpu(pid)
    started = time.perf_counter()
    process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, text=True)
    wrk_cpu = 0.0
    while process.poll() is None:
        try:
            wrk_cpu = cpu_seconds(process.pid)
        except OSError:
            break
        time.sleep(0.2)
    out = process.communicate()[0]
    wall = time.perf_counter() - started
    spent = tree_cpu(pid) - before
    found = dict(re.findall(r"(\w+)=([\d.]+)", " ".join(re.findall(r"^WRK (.*)$", out, re.M))))
    if not found:
        raise SystemExit(f"wrk said:\n{out}")
    duration = float(found["duration_us"]) / 1e6
    turns = int(found["turns"])
    return Round(
        name, clients, turns / duration, float(found["p50_ms"]), float(found["p99_ms"]),
        int(found["bad"]) + int(found["errors"]) + int(found["non2xx"]),
        spent / max(turns, 1) * 1000, wrk_cpu / (wall * threads),
    )  # fmt: skip


def crowd(args: argparse.Namespace) -> int:
    """Alternated rounds, one server process per round, each store against the TypeScript
    server measured right before or after it."""
    sys.path.insert(0, str(ROOT))
    from tests.support.postgres import start_postgres

    rounds: list[Round] = []
    settings = json.dumps({"max_sessions_per_principal": 10_000_000})
    limits = json.dumps({"max_connections_per_client": 4096})
    with tempfile.TemporaryDirectory() as folder, start_postgres() as pg:

        def ours_on(store: str) -> tuple[list[str], dict[str, str]]:
            command, env = ours(port, store)
            command += ["--limits", limits, "--workers", str(args.workers)]
            command[command.index("--settings") + 1] = settings
            return command, env

        for clients in args.clients:
            for n in range(args.rounds):
                order = ["sqlite", "typescript", "postgres"]
                if n % 2:
                    order.reverse()
                for which in order:
                    port = free_port()
                    url = f"http://127.0.0.1:{port}"
                    if which == "typescript":
                        command, env = theirs(port, args.ts)
                        name = "typescript-sdk 0.8.0"
                    else:
                        store = (
                            f"sqlite:///{folder}/aap-{clients}-{n}.db"
                            if which == "sqlite"
                            else pg.database(f"aap_{clients}_{n}")
                        )
                        command, env = ours_on(store)
                        name = f"agentproto ({which})"
                    with server(command, env, url) as pid:
                        wrk_round(name, url, pid, min(clients, 50), 2, args.wrk_threads)  # warm
                        found = wrk_round(name, url, pid, clients, args.seconds, args.wrk_threads)
                    rounds.append(found)
                    print(
                        f"  {clients:>5} clients, round {n + 1}: {name:<22} {found.ops:>8.0f} ops/s"
                        f" "
                        f"p50 {found.p50_ms:>7.1f} ms p99 {found.p99_ms:>7.1f} ms "
                        f"errors {found.errors} server CPU {found.server_cpu:.2f} s/1k ops "
                        f"wrk CPU {found.wrk_cpu_share:.0%}",
                        flush=True,
                    )
    print(f"\n{'clients':>7} {'round':>5} {'store':<9} {'ours ops/s':>10} {'TS ops/s':>9} "
          f"{'ratio':>6} {'ours p99':>9} {'TS p99':>8} {'p99 ratio':>9}")  # fmt: skip
    for clients in args.clients:
        for n in range(args.rounds):
            here = rounds[: len(rounds)]
            group = [r for r in here if r.clients == clients][n * 3 : n * 3 + 3]
            ts = next(r for r in group if r.server.startswith("typescript"))
            for r in group:
                if r is ts:
                    continue
                store = r.server.split("(")[1].rstrip(")")
                print(
                    f"{clients:>7} {n + 1:>5} {store:<9} {r.ops:>10.0f} {ts.ops:>9.0f} "
                    f"{r.ops / ts.ops:>5.2f}x {r.p99_ms:>7.1f}ms {ts.p99_ms:>6.1f}ms "
                    f"{r.p99_ms / ts.p99_ms:>8.2f}x"
                )
    busiest = max(r.wrk_cpu_share for r in rounds)
    print(f"\nwrk's busiest round used {busiest:.0%} of its {args.wrk_threads} threads' time "
          "(under 100%: the load generator was not the bottleneck)")  # fmt: skip
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ts", type=Path, help="the built upstream TypeScript SDK folder")
    parser.add_argument("--turns", type=int, default=2000)
    parser.add_argument("--concurrency", type=int, default=32)
    parser.add_argument("--streams", type=int, default=1000)
    parser.add_argument("--hold", type=float, default=20.0)
    parser.add_argument("--store", choices=["sqlite", "memory"], default="sqlite")
    parser.add_argument("--smoke", action="store_true", help="ours only, small numbers")
    parser.add_argument(
        "--crowd", action="store_true", help="sessions+turns/s under wrk (needs --ts and wrk)"
    )
    parser.add_argument(
        "--clients", type=lambda t: [int(c) for c in t.split(",")], default=[200, 1000]
    )
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--workers", type=int, default=1, help="our server's processes")
    parser.add_argument("--wrk-threads", type=int, default=2)
    args = parser.parse_args(argv)
    if args.crowd:
        if args.ts is None:
            parser.error("--crowd compares with the TypeScript server: give --ts SDK_DIR")
        return crowd(args)
    if args.smoke:
        args.turns, args.concurrency, args.streams, args.hold, args.ts = 40, 4, 20, 10.0, None
    results = []
    with tempfile.TemporaryDirectory() as folder:
        store = f"sqlite:///{folder}/aap.db" if args.store == "sqlite" else "sqlite://:memory:"
        port = free_port()
        command, env = ours(port, store)
        url = f"http://127.0.0.1:{port}"
        name = f"agentproto ({args.store})"
        results.append(run(name, command, env, url, args, durable=args.store == "sqlite"))
    if args.ts is not None:
        port = free_port()
        command, env = theirs(port, args.ts)
        url = f"http://127.0.0.1:{port}"
        results.append(run("typescript-sdk 0.8.0", command, env, url, args, durable=False))
    report(results)
    broken = [r.name for r in results if r.streams < args.streams or r.turns_none <= 0]
    if broken:
        print(f"incomplete: {broken}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
