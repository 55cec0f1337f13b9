"""Remote ACP at scale: one process holding 1,000 / 5,000 / 10,000 WebSocket sessions at once.

Run from the repository root:
    python benchmarks/bench_acp_scale.py [--counts 1000,5000,10000]
(``--smoke``: 20 and 100 sessions: the suite runs it so it cannot rot; its figures mean nothing).

The agent side is ours: ``AgentApp`` serving the scripted test agent (tests/acp_peers/
our_agent.py) under uvicorn, in a child process of its own (a fresh one per round, so each
count starts from the same server heap). The editor side runs in a fresh interpreter per
round, after a warm-up of 20 sessions. For each count N it opens N connections with
``connect_remote_agent`` (``ws://``, the defaults: resume on), each ``initialize`` + one
``session/new``, in waves of 100 (the server's accept backlog), and holds them all; then
prompts every session once ("hello 1": the agent sends one ``session/update``, then answers;
200 turns in flight at a time); then closes them all.

Printed per N: wall and CPU time of the editor process per phase (open, prompt, close), its
CPU and resident memory per session, the cyclic collector's time and full collections, the
objects the collector tracks per held session; the agent process's CPU and resident memory per
session. Then the ratio of the largest count's editor CPU to the smallest's (linear: the ratio
of the counts; the target is 10k <= 12x 1k), with and without the collector's time.

At every count the same round also runs on a raw floor, alternated with ours: the same
exchange written by hand on the ``websockets`` library our transport uses (JSON-RPC lines
built and read with ``json``; no validation, no dispatch, no resume buffer, no limits). Its
growth from the smallest count to the largest is what the event loop, the WebSocket library
and the collector cost on this host ("floor growth"; ``--no-floor`` skips it).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import resource
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

from scale_measure import GCTime, cpu, rss

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "generated"))
sys.path.insert(0, str(ROOT / "tests" / "acp_peers"))

S = TypeVar("S")
WARM_UP = 20
WAVE = 100  # connections opened at once
IN_FLIGHT = 200  # turns in flight at once
EDITOR: Any = None  # the editor's handler class (imported in the round's process only)


# -- the agent side (a child process) -----------------------------------------------------------


def serve() -> None:
    """Serve our agent on a free loopback port; print the port; end when stdin does."""
    import socket
    import threading

    import uvicorn
    from agentproto.acp.remote_server import AgentApp
    from our_agent import ScriptedAgent

    def orphaned() -> None:
        sys.stdin.read()
        os._exit(0)

    threading.Thread(target=orphaned, daemon=True).start()
    app = AgentApp(ScriptedAgent, max_connections=100_000)
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    print(sock.getsockname()[1], flush=True)
    config = uvicorn.Config(app, log_level="error", lifespan="off", backlog=4096)
    uvicorn.Server(config).run(sockets=[sock])


def proc_cpu(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


# -- the editor side ------------------------------------------------------------------------------


GC = GCTime()


Session = tuple[Callable[[], Awaitable[None]], Callable[[], Awaitable[None]]]  # prompt, close


def _editor_class() -> Any:
    """The editor's handler class, made once (a class per session would be the bench's own
    objects in the per-session count)."""
    from agentproto.acp import Client

    class Editor(Client):
        def __init__(self, counter: list[int]) -> None:
            self.counter = counter

        async def session_update(self, params: Any) -> None:
            self.counter[0] += 1

    return Editor


async def ours_open(url: str, counter: list[int]) -> Session:
    from agentproto.acp.remote import connect_remote_agent

    stack = contextlib.AsyncExitStack()
    agent = await stack.enter_async_context(connect_remote_agent(url, client=EDITOR(counter)))
    await agent.initialize(protocol_version=1)
    sid = (await agent.new_session(cwd="/", mcp_servers=[])).session_id

    async def prompt() -> None:
        done = await agent.prompt(session_id=sid, prompt=[{"type": "text", "text": "hello 1"}])
        assert done.stop_reason == "end_turn", done

    return prompt, stack.aclose


async def floor_open(url: str, counter: list[int]) -> Session:
    from websockets.asyncio.client import connect

    socket = await connect(url, compression=None, max_size=1 << 24)
    ids = iter(range(1 << 62))

    async def call(method: str, params: dict[str, Any]) -> Any:
        key = next(ids)
        await socket.send(
            json.dumps({"jsonrpc": "2.0", "id": key, "method": method, "params": params})
        )
        while True:
            message = json.loads(await socket.recv())
            if message.get("id") == key and "method" not in message:
                assert "result" in message, message
                return message["result"]
            if message.get("method") == "session/update":
                counter[0] += 1

    await call("initialize", {"protocolVersion": 1})
    sid = (await call("session/new", {"cwd": "/", "mcpServers": []}))["sessionId"]

    async def prompt() -> None:
        done = await call(
            "session/prompt", {"sessionId": sid, "prompt": [{"type": "text", "text": "hello 1"}]}
        )
        assert done["stopReason"] == "end_turn", done

    return prompt, socket.close


async def timed_round(
    n: int, open_one: Callable[[str, list[int]], Awaitable[Session]], url: str, server: int
) -> dict[str, float]:
    counter = [0]
    gc.collect()
    base, objects0 = rss(), len(gc.get_objects())
    server_rss0, server_cpu0 = rss(server), proc_cpu(server)
    gc0 = GC.total
    full0 = GC.full
    wall0, cpu0 = time.perf_counter(), cpu()
    sessions: list[Session] = []
    for start in range(0, n, WAVE):
        wave = min(WAVE, n - start)
        sessions += await asyncio.gather(*(open_one(url, counter) for _ in range(wave)))
    wall1, cpu1 = time.perf_counter(), cpu()
    held, server_held = rss() - base, rss(server) - server_rss0
    objects = len(gc.get_objects()) - objects0  # outside the timed phases
    wall1b, cpu1b = time.perf_counter(), cpu()
    room = asyncio.Semaphore(IN_FLIGHT)

    async def turn(prompt: Callable[[], Awaitable[None]]) -> None:
        async with room:
            await prompt()

    await asyncio.gather(*(turn(prompt) for prompt, _ in sessions))
    wall2, cpu2 = time.perf_counter(), cpu()
    await asyncio.gather(*(close() for _, close in sessions))
    cpu3 = cpu()
    assert counter[0] == n, f"{counter[0]} of {n} updates arrived"
    return {
        "open_wall": wall1 - wall0,
        "open_cpu": cpu1 - cpu0,
        "prompt_wall": wall2 - wall1b,
        "prompt_cpu": cpu2 - cpu1b,
        "close_cpu": cpu3 - cpu2,
        "held": held,
        "server_held": server_held,
        "server_cpu": proc_cpu(server) - server_cpu0,
        "objects": objects,
        "gc": GC.total - gc0,
        "full": GC.full - full0,
    }


def one_round(port: int, server: int, n: int, side: str) -> dict[str, float]:
    global EDITOR
    EDITOR = _editor_class()
    url = f"ws://127.0.0.1:{port}/acp"
    opener = ours_open if side == "ours" else floor_open
    asyncio.run(timed_round(WARM_UP, opener, url, server))  # imports, validators, the loop
    return asyncio.run(timed_round(n, opener, url, server))


def fresh(n: int, side: str) -> dict[str, float]:
    """One round: a fresh agent process and a fresh editor interpreter."""
    agent = subprocess.Popen(
        [sys.executable, __file__, "--serve"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        assert agent.stdout is not None
        port = int(agent.stdout.readline())
        time.sleep(0.3)
        done = subprocess.run(
            [sys.executable, __file__, "--round", str(port), str(agent.pid), str(n), side],
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode != 0:
            raise SystemExit(f"the round of {n} sessions ({side}) failed:\n{done.stderr}")
        result: dict[str, float] = json.loads(done.stdout.splitlines()[-1])
        return result
    finally:
        agent.terminate()
        try:
            agent.wait(10)
        except subprocess.TimeoutExpired:
            agent.kill()
            agent.wait()


def report(label: str, n: int, r: dict[str, float]) -> float:
    total = r["open_cpu"] + r["prompt_cpu"] + r["close_cpu"]
    print(
        f"{label:<10} {n:>6} {r['open_wall']:>8.2f}s {r['open_cpu']:>7.2f}s "
        f"{r['prompt_wall']:>8.2f}s {r['prompt_cpu']:>7.2f}s {r['close_cpu']:>7.2f}s "
        f"{total / n * 1e6:>7.0f} us {r['held'] / n / 1024:>6.1f} KiB {r['gc']:>5.2f}s "
        f"{r['full']:>3.0f} {r['objects'] / n:>6.1f}   "
        f"{r['server_cpu'] / n * 1e6:>6.0f} us {r['server_held'] / n / 1024:>6.1f} KiB"
    )
    return total


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--counts", default="1000,5000,10000")
    parser.add_argument("--no-floor", action="store_true", help="skip the raw floor")
    parser.add_argument("--smoke", action="store_true")
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--round", nargs=4, help=argparse.SUPPRESS)  # port pid count side
    args = parser.parse_args()
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    if args.serve:
        serve()
        return 0
    if args.round:
        port, pid, n, side = args.round
        print(json.dumps(one_round(int(port), int(pid), int(n), side)))
        return 0
    counts = [20, 100] if args.smoke else [int(c) for c in args.counts.split(",")]
    if max(counts) + 100 > hard:
        raise SystemExit(f"{max(counts)} sessions need more file descriptors than {hard}")
    print(f"host: {os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}")
    print("concurrent remote ACP sessions (WebSocket) held by one editor process")
    print(
        f"{'editor':<10} {'sessions':>6} {'open wall':>9} {'open CPU':>8} {'prompt wall':>9} "
        f"{'prompt CPU':>8} {'close CPU':>8} {'CPU/session':>10} {'RSS/session':>10} "
        f"{'GC':>6} {'full':>3} {'objs':>6}   {'agent CPU/session':>9} {'agent RSS/session':>9}"
    )
    ours: dict[int, float] = {}
    floor: dict[int, float] = {}
    gcs: dict[int, float] = {}
    floor_gcs: dict[int, float] = {}
    agent: dict[int, float] = {}
    for n in counts:  # alternated: the raw floor, then ours, at each count
        if not args.no_floor:
            f = fresh(n, "floor")
            floor[n] = report("raw floor", n, f)
            floor_gcs[n] = f["gc"]
        r = fresh(n, "ours")
        ours[n] = report("agentproto", n, r)
        gcs[n] = r["gc"]
        agent[n] = r["server_cpu"]
    lo, hi = min(counts), max(counts)
    print(
        f"ratio {hi} / {lo} sessions, editor CPU: {ours[hi] / ours[lo]:.2f}x "
        f"(for {hi / lo:.0f}x the sessions; target <= {hi / lo * 1.2:.0f}x); without the "
        f"cyclic GC: {(ours[hi] - gcs[hi]) / (ours[lo] - gcs[lo]):.2f}x; "
        f"agent CPU: {agent[hi] / agent[lo]:.2f}x"
    )
    if floor:
        print(
            f"floor growth {hi} / {lo} sessions, CPU: {floor[hi] / floor[lo]:.2f}x; without "
            f"the cyclic GC: {(floor[hi] - floor_gcs[hi]) / (floor[lo] - floor_gcs[lo]):.2f}x; "
            f"ours / floor growth: {ours[hi] / ours[lo] / (floor[hi] / floor[lo]):.2f}x"
        )
        for n in counts:
            print(f"ours / raw floor at {n} sessions, editor CPU: {ours[n] / floor[n]:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
