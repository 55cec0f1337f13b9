"""ACP over the network: ours against the official SDK's experimental transports, one run.

Run from the repository root:  python benchmarks/bench_acp_remote.py [--prompts 300] [--smoke]

Each server runs in a subprocess of its own (uvicorn, one worker) so that client and server do
not share a GIL: ours is ``AgentApp`` serving the scripted test agent (tests/acp_peers/
our_agent.py), the official one is ``acp.http.asgi.create_asgi_app`` serving the same agent
written on the official SDK (tests/acp_peers/official_agent.py). Our editor
(``connect_remote_agent``) talks to ours, the official client (``create_http_stream`` /
``create_websocket_stream`` + ``acp.connect_to_agent``) to theirs; both over HTTP and WS:

- connect: open a connection and ``initialize`` (median of --connects);
- round trip: one ``session/prompt`` that makes the agent send one ``session/update`` before it
  answers, on an established connection (median and p95 of --prompts);
- updates/s: one prompt that makes the agent send --updates ``session/update`` notifications;
- sessions held: --sessions connections opened at once, each with a session, held open while
  the server's RSS is read (the delta over a fresh idle server, per session), then each
  prompted once, 200 turns in flight at a time (all answered). The client's RSS delta per
  session is shown too (both clients run in this process: ours first, then theirs, each
  against its own start; the official HTTP client shares one httpx client, as its API has
  the caller do, so its figure is near zero).

``--smoke``: tiny counts (5 prompts, 50 updates, 20 sessions), so the suite runs this
benchmark and it cannot rot; its figures mean nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import os
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "generated"))
PEERS = ROOT / "tests" / "acp_peers"
sys.path.insert(0, str(PEERS))


# -- the servers (a subprocess each) -------------------------------------------------------------


def serve(kind: str) -> None:
    """Serve ``kind`` (ours | theirs) on a free loopback port; print the port. Ends when
    its stdin does (the benchmark ended, however it ended)."""
    import socket
    import threading

    def orphaned() -> None:
        sys.stdin.read()
        os._exit(0)

    threading.Thread(target=orphaned, daemon=True).start()

    import uvicorn

    app: Any
    if kind == "ours":
        from agentproto.acp.remote_server import AgentApp
        from our_agent import ScriptedAgent as OurAgent

        app = AgentApp(OurAgent, max_connections=100_000, max_buffered_bytes=64 << 20)
    else:
        from acp.http.asgi import create_asgi_app
        from official_agent import ScriptedAgent as TheirAgent

        def factory(conn: Any) -> Any:
            agent = TheirAgent()
            agent.on_connect(conn)
            return agent

        app = create_asgi_app(factory)
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    print(sock.getsockname()[1], flush=True)
    config = uvicorn.Config(
        app,
        log_level="error",
        lifespan="off",
        ws_max_size=1 << 24,
        backlog=4096,
        timeout_keep_alive=30,
    )
    uvicorn.Server(config).run(sockets=[sock])


class Server:
    def __init__(self, kind: str) -> None:
        self.process = subprocess.Popen(
            [sys.executable, __file__, "--serve", kind],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            start_new_session=True,
        )
        assert self.process.stdout is not None
        self.port = int(self.process.stdout.readline())
        time.sleep(0.3)

    def url(self, scheme: str) -> str:
        return f"{scheme}://127.0.0.1:{self.port}/acp"

    def rss(self) -> int:
        return rss_of(self.process.pid)

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def rss_of(pid: int | str = "self") -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise RuntimeError("no VmRSS")


# -- the two clients, behind one small interface -------------------------------------------------


class Counting:
    """Counts the updates an editor gets (ours and theirs call it differently)."""

    def __init__(self) -> None:
        self.updates = 0


@contextlib.asynccontextmanager
async def ours(url: str, counter: Counting) -> AsyncIterator[Any]:
    from agentproto.acp import Client
    from agentproto.acp.remote import connect_remote_agent

    class Editor(Client):
        async def session_update(self, params: Any) -> None:
            counter.updates += 1

    async with connect_remote_agent(url, client=Editor()) as agent:
        await agent.initialize({"protocolVersion": 1})

        async def new_session() -> str:
            return (await agent.new_session({"cwd": "/", "mcpServers": []})).session_id

        async def prompt(sid: str, text: str) -> None:
            await agent.prompt({"sessionId": sid, "prompt": [{"type": "text", "text": text}]})

        yield new_session, prompt


@contextlib.asynccontextmanager
async def theirs(url: str, counter: Counting) -> AsyncIterator[Any]:
    import acp
    import httpx
    from acp import schema
    from acp.http.client import create_http_stream
    from acp.ws.client import create_websocket_stream

    class Editor:
        def on_connect(self, conn: Any) -> None:
            return None

        async def session_update(self, session_id: str, update: Any, **kwargs: Any) -> None:
            counter.updates += 1

    if url.startswith("http"):
        # their transport takes the caller's httpx client: one for all, as a user would share
        if SHARED.get("http") is None:
            SHARED["http"] = httpx.AsyncClient(
                timeout=httpx.Timeout(None), limits=httpx.Limits(max_connections=None)
            )
        transport: Any = create_http_stream(url, client=SHARED["http"])
    else:
        transport = await create_websocket_stream(url)
    conn = acp.connect_to_agent(Editor(), transport)
    try:
        await conn.initialize(protocol_version=1)

        async def new_session() -> str:
            return (await conn.new_session(cwd="/", mcp_servers=[])).session_id

        async def prompt(sid: str, text: str) -> None:
            await conn.prompt(
                session_id=sid, prompt=[schema.TextContentBlock(type="text", text=text)]
            )

        yield new_session, prompt
    finally:
        await conn.close()
        await transport.close()


SHARED: dict[str, Any] = {}


Opener = Callable[[str, Counting], contextlib.AbstractAsyncContextManager[Any]]


async def wait_for_updates(counter: Counting, expected: int, limit: float = 30.0) -> None:
    """The official client hands updates over on a task of its own, possibly after the
    prompt's answer: wait (bounded) until they are all counted."""
    deadline = time.perf_counter() + limit
    while counter.updates < expected:
        if time.perf_counter() > deadline:
            raise RuntimeError(f"only {counter.updates} of {expected} updates arrived")
        await asyncio.sleep(0.0005)


async def connects(open_: Opener, url: str, count: int) -> list[float]:
    times = []
    for _ in range(count):
        started = time.perf_counter()
        async with open_(url, Counting()):
            times.append(time.perf_counter() - started)
    return times


async def round_trips(open_: Opener, url: str, count: int) -> list[float]:
    counter = Counting()
    async with open_(url, counter) as (new_session, prompt):
        sid = await new_session()
        times = []
        for i in range(count):
            started = time.perf_counter()
            await prompt(sid, "hello 1")
            await wait_for_updates(counter, i + 1)
            times.append(time.perf_counter() - started)
        return times


async def throughput(open_: Opener, url: str, updates: int) -> float:
    counter = Counting()
    async with open_(url, counter) as (new_session, prompt):
        sid = await new_session()
        await prompt(sid, "hello 5")  # warm
        await wait_for_updates(counter, 5)
        counter.updates = 0
        started = time.perf_counter()
        await prompt(sid, f"hello {updates}")
        await wait_for_updates(counter, updates)
        return updates / (time.perf_counter() - started)


async def held(open_: Opener, url: str, server: Server, count: int) -> tuple[float, float, float]:
    """``count`` connections with a session each, held at once: server and client bytes per
    session, and the seconds it took to prompt them all once."""
    async with open_(url, Counting()) as (new_session, prompt):  # warm: first-use costs
        await prompt(await new_session(), "hello 1")
    await asyncio.sleep(0.3)
    gc.collect()
    server_before, client_before = server.rss(), rss_of()
    counter = Counting()
    async with contextlib.AsyncExitStack() as stack:
        sessions: list[tuple[Any, str]] = []
        for start in range(0, count, 50):  # open them in waves (the server's backlog)

            async def one() -> tuple[Any, str]:
                new_session, prompt = await stack.enter_async_context(open_(url, counter))
                return prompt, await new_session()

            batch = min(50, count - start)
            sessions += await asyncio.gather(*(one() for _ in range(batch)))
        await asyncio.sleep(0.5)
        server_after, client_after = server.rss(), rss_of()
        started = time.perf_counter()
        room = asyncio.Semaphore(200)  # 200 turns in flight at once, 1000 sessions held

        async def turn(prompt: Any, sid: str) -> None:
            async with room:
                await prompt(sid, "hello 1")

        await asyncio.gather(*(turn(prompt, sid) for prompt, sid in sessions))
        await wait_for_updates(counter, count)
        prompted = time.perf_counter() - started
    return (server_after - server_before) / count, (client_after - client_before) / count, prompted


def p95(samples: list[float]) -> float:
    return sorted(samples)[int(len(samples) * 0.95) - 1 if len(samples) > 1 else 0]


async def run(args: argparse.Namespace) -> None:
    servers = {"ours": Server("ours"), "official": Server("theirs")}
    openers: dict[str, Opener] = {"ours": ours, "official": theirs}
    try:
        for scheme in ("http", "ws"):
            label = "HTTP" if scheme == "http" else "WS"
            print(f"{label} (Streamable HTTP)" if scheme == "http" else "WS (WebSocket)")
            figures: dict[str, dict[str, Any]] = {}
            for name in ("ours", "official"):
                url = servers[name].url(scheme)
                opener = openers[name]
                await round_trips(opener, url, 3)  # warm both sides
                figures[name] = {
                    "connect": statistics.median(await connects(opener, url, args.connects)),
                    "trips": await round_trips(opener, url, args.prompts),
                    "rate": await throughput(opener, url, args.updates),
                }
            o, t = figures["ours"], figures["official"]
            om, tm = statistics.median(o["trips"]), statistics.median(t["trips"])
            print(
                f"  connect + initialize: ours {o['connect'] * 1e3:7.2f} ms   "
                f"official {t['connect'] * 1e3:7.2f} ms   "
                f"ratio {o['connect'] / t['connect']:.2f}x"
            )
            print(
                f"  round trip (prompt + 1 update), {args.prompts}: ours {om * 1e3:.3f} / "
                f"{p95(o['trips']) * 1e3:.3f} ms   official {tm * 1e3:.3f} / "
                f"{p95(t['trips']) * 1e3:.3f} ms (median / p95)   ratio {om / tm:.2f}x"
            )
            print(
                f"  session/update throughput, {args.updates} in one turn: ours "
                f"{o['rate']:9.0f}/s   official {t['rate']:9.0f}/s   "
                f"ratio ours / official {o['rate'] / t['rate']:.2f}x"
            )
        print(f"\n{args.sessions} concurrent remote sessions held in one process:")
        for scheme in ("ws", "http"):
            label = "HTTP" if scheme == "http" else "WS"
            row = {}
            for name in ("ours", "official"):
                fresh = Server("ours" if name == "ours" else "theirs")  # RSS from a clean start
                try:
                    row[name] = await held(openers[name], fresh.url(scheme), fresh, args.sessions)
                finally:
                    fresh.stop()
            (os_, oc, op), (ts, tc, tp) = row["ours"], row["official"]
            print(
                f"  {label:4} server RSS per session: ours {os_ / 1024:6.1f} KiB   "
                f"official {ts / 1024:6.1f} KiB   (client: ours {oc / 1024:.1f} KiB, "
                f"official {tc / 1024:.1f} KiB); all prompted once: ours {op:.2f} s, "
                f"official {tp:.2f} s"
            )
    finally:
        if SHARED.get("http") is not None:
            await SHARED["http"].aclose()
        for server in servers.values():
            server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--prompts", type=int, default=300)
    parser.add_argument("--connects", type=int, default=30)
    parser.add_argument("--updates", type=int, default=5000)
    parser.add_argument("--sessions", type=int, default=1000)
    parser.add_argument("--smoke", action="store_true", help="tiny counts: checks it runs")
    parser.add_argument("--serve", choices=("ours", "theirs"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(args.serve)
        return
    if args.smoke:
        args.prompts, args.connects, args.updates, args.sessions = 5, 3, 50, 20
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 20_000)), hard))
    asyncio.run(run(args))


if __name__ == "__main__":
    main()
