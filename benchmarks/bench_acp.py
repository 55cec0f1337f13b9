"""ACP round trips and import time: ours against the official SDK (agent-client-protocol), one run.

Run from the repository root:  python benchmarks/bench_acp.py [--prompts 1000] [--smoke]

- round trips: an editor spawns the scripted test agent (tests/acp_peers/) and sends --prompts
  prompts one after another; each prompt makes the agent send 1 (then 10) `session/update`
  notifications before answering. Ours = our editor + our agent; official = the official SDK's
  client + an agent on the official SDK. Median and p95 latency per prompt, and the ratio.
  Our blocking editor (SyncAgentConnection) is timed too, against the same official figure.
- raw floor: the same exchange (initialize, session/new, the prompts with their updates) in
  hand-written JSON-RPC over the same pipes, read as ours are (asyncio pipe transports, 64 KiB
  reads handled in the callback that made them: asyncio's own StreamReader path costs more
  than our SDK's, so a floor on it was no floor), newline-delimited JSON with
  ``json.loads`` / ``json.dumps`` and no validation, on both sides (this file, ``--raw-agent``,
  is the agent): ours / floor is what the SDK costs over the least the exchange can cost.
  Ours, the floor, the official SDK and our sync editor run alternated, in --rounds rounds
  (benchmarks/rounds.py: each round every side once, the order reversed every other round),
  and the ratios printed are per round (min / median / max of the rounds' medians) with the
  load average beside them: a shared machine's drift hits every side alike.
- import: `import agentproto.acp` (+ its connection module) against `import acp`, each in a fresh
  interpreter, median of 7; also the first use of our models (they load lazily).
- first call after spawn: in a fresh interpreter, spawn the agent, then time the first
  `initialize`, and the first `prompt` (after `session/new`): what a new user's first call
  costs, lazy imports and validator builds included. Median of 7, ours against the official SDK.
- ACP v2 (agentproto.acp.v2): our v2 editor with our v2 agent (tests/acp_peers/our_v2_agent.py),
  and with the official TypeScript SDK's v2 agent (node; tests/node, installed by the test
  suite or `npm ci` there) for reference. A v2 turn sends N chunks plus three updates (the user
  message echo, running, idle). No Python SDK speaks v2, so there is no ratio to a peer: the
  v2 line is compared with our v1 one (the same work but for those three updates).

``--smoke``: every part once, tiny (5 prompts per case, one fresh interpreter per figure), so
the suite runs this benchmark and it cannot rot; its figures mean nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "generated"))

from agentproto.acp import Client, SyncAgentConnection, SyncClient, spawn_agent, v2  # noqa: E402
from rounds import alternate, load, ratio_line  # noqa: E402

PEERS = ROOT / "tests" / "acp_peers"


class QuietEditor(Client):
    async def session_update(self, params: Any) -> None:
        return None


class QuietSyncEditor(SyncClient):
    def session_update(self, params: Any) -> None:
        return None


async def ours(prompts: int, updates: int, agent: str = "our_agent.py") -> list[float]:
    async with spawn_agent(sys.executable, [str(PEERS / agent)], client=QuietEditor()) as conn:
        await conn.initialize({"protocolVersion": 1})
        sid = (await conn.new_session({"cwd": "/", "mcpServers": []})).session_id
        request = {"sessionId": sid, "prompt": [{"type": "text", "text": f"hello {updates}"}]}
        times = []
        for _ in range(prompts):
            started = time.perf_counter()
            await conn.prompt(request)
            times.append(time.perf_counter() - started)
        return times


class QuietV2Editor(v2.Client):
    async def session_update(self, params: Any) -> None:
        return None


async def ours_v2(prompts: int, updates: int, command: list[str] | None = None) -> list[float]:
    """Our v2 editor with our v2 agent (or ``command``: the TypeScript SDK's)."""
    agent = command or [sys.executable, str(PEERS / "our_v2_agent.py")]
    async with v2.spawn_agent(agent, client=QuietV2Editor()) as conn:
        await conn.initialize(protocol_version=2, info={"name": "bench", "version": "1"})
        sid = (await conn.new_session(cwd="/")).session_id
        request = {"sessionId": sid, "prompt": [{"type": "text", "text": f"hello {updates}"}]}
        times = []
        for _ in range(prompts):
            started = time.perf_counter()
            await conn.prompt(request)
            times.append(time.perf_counter() - started)
        return times


def ours_sync(prompts: int, updates: int) -> list[float]:
    """Our blocking editor (a private loop thread does the I/O) with our agent."""
    agent = str(PEERS / "our_agent.py")
    with SyncAgentConnection.spawn(sys.executable, [agent], client=QuietSyncEditor()) as conn:
        conn.initialize({"protocolVersion": 1})
        sid = conn.new_session({"cwd": "/", "mcpServers": []}).session_id
        request = {"sessionId": sid, "prompt": [{"type": "text", "text": f"hello {updates}"}]}
        times = []
        for _ in range(prompts):
            started = time.perf_counter()
            conn.prompt(request)
            times.append(time.perf_counter() - started)
        return times


async def official(
    prompts: int, updates: int, agent_file: str = "official_agent.py"
) -> list[float]:
    import acp
    from acp import schema

    class Editor:
        def on_connect(self, conn: Any) -> None:
            pass

        async def session_update(self, session_id: str, update: Any, **kwargs: Any) -> None:
            return None

    agent = str(PEERS / agent_file)
    async with acp.spawn_agent_process(Editor(), sys.executable, agent) as (conn, _process):
        await conn.initialize(protocol_version=1)
        sid = (await conn.new_session(cwd="/")).session_id
        block = [schema.TextContentBlock(type="text", text=f"hello {updates}")]
        times = []
        for _ in range(prompts):
            started = time.perf_counter()
            await conn.prompt(session_id=sid, prompt=block)
            times.append(time.perf_counter() - started)
        return times


# -- the raw floor: hand-written JSON-RPC over the same asyncio subprocess pipes ---------------


def _line(message: dict[str, Any]) -> bytes:
    return json.dumps(message).encode() + b"\n"


_READ_SIZE = 64 * 1024  # what our pipes read at a time (asyncio's 256 KiB is mmap'ed per read)


class _Lines(asyncio.Protocol):
    """The floor's input: a pipe read as ours is (64 KiB reads, each handled in the callback
    that made it, no StreamReader), split into lines, each handed to ``on_line``."""

    def __init__(self, on_line: Any) -> None:
        self.on_line = on_line
        self.partial = b""
        self.done: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        if hasattr(transport, "max_size"):
            transport.max_size = _READ_SIZE  # type: ignore[attr-defined]

    def data_received(self, data: bytes) -> None:
        *lines, self.partial = (self.partial + data).split(b"\n")
        for line in lines:
            self.on_line(line)

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.done.done():
            self.done.set_result(None)


async def raw_agent() -> None:
    """The floor's agent (``--raw-agent``): newline-delimited JSON-RPC on the process's pipes,
    ``json.loads`` / ``json.dumps``, no validation; "hello N" answers with N
    ``agent_message_chunk`` updates (the same messages as our agent's), then the response."""
    loop = asyncio.get_running_loop()
    out, _ = await loop.connect_write_pipe(asyncio.BaseProtocol, sys.stdout)

    def on_line(line: bytes) -> None:
        message = json.loads(line)
        method, params, rid = message.get("method"), message.get("params"), message.get("id")
        if method == "initialize":
            result: dict[str, Any] = {
                "protocolVersion": 1,
                "agentCapabilities": {"loadSession": False},
            }
        elif method == "session/new":
            result = {"sessionId": "sess-1"}
        elif method == "session/prompt":
            text = "".join(block.get("text", "") for block in params["prompt"])
            for i in range(int(text.partition(" ")[2] or 1)):
                update = {
                    "sessionUpdate": "agent_message_chunk",
                    "content": {"type": "text", "text": f"chunk {i}"},
                }
                out.write(
                    _line(
                        {
                            "jsonrpc": "2.0",
                            "method": "session/update",
                            "params": {"sessionId": params["sessionId"], "update": update},
                        }
                    )
                )
            result = {"stopReason": "end_turn"}
        else:
            return
        out.write(_line({"jsonrpc": "2.0", "id": rid, "result": result}))

    _, lines = await loop.connect_read_pipe(lambda: _Lines(on_line), sys.stdin)
    await lines.done


async def raw(prompts: int, updates: int) -> list[float]:
    """The floor's editor: the same exchange as ours (initialize, session/new, then prompts,
    each read to its response past its ``session/update`` notifications), raw, on the same
    pipes as ours (the child's stdout read as our pipes are)."""
    loop = asyncio.get_running_loop()
    process = subprocess.Popen(
        [sys.executable, __file__, "--raw-agent"], stdin=subprocess.PIPE, stdout=subprocess.PIPE
    )
    assert process.stdin is not None and process.stdout is not None
    out, _ = await loop.connect_write_pipe(asyncio.BaseProtocol, process.stdin)
    waiting: dict[int, asyncio.Future[Any]] = {}
    seen: list[Any] = []

    def on_line(line: bytes) -> None:
        message = json.loads(line)
        future = waiting.pop(message.get("id"), None) if "id" in message else None
        if future is not None:
            future.set_result(message["result"])
        else:
            seen.append(message["params"])  # a session/update: handed to the editor

    reader, _ = await loop.connect_read_pipe(lambda: _Lines(on_line), process.stdout)
    next_id = 0

    async def call(method: str, params: dict[str, Any]) -> Any:
        nonlocal next_id
        next_id += 1
        future = waiting[next_id] = loop.create_future()
        out.write(_line({"jsonrpc": "2.0", "id": next_id, "method": method, "params": params}))
        return await future

    try:
        await call("initialize", {"protocolVersion": 1})
        sid = (await call("session/new", {"cwd": "/", "mcpServers": []}))["sessionId"]
        request = {"sessionId": sid, "prompt": [{"type": "text", "text": f"hello {updates}"}]}
        times = []
        for _ in range(prompts):
            started = time.perf_counter()
            await call("session/prompt", request)
            times.append(time.perf_counter() - started)
            seen.clear()
        return times
    finally:
        out.close()
        await asyncio.to_thread(process.wait, 10)
        reader.close()


def import_time(statement: str, runs: int = 7) -> float:
    code = f"import time; t = time.perf_counter(); {statement}; print(time.perf_counter() - t)"
    samples = []
    for _ in range(runs):
        out = subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            check=True,
            env={"PYTHONPATH": str(ROOT / "generated"), "PATH": "/usr/bin:/bin"},
        )
        samples.append(float(out.stdout))
    return statistics.median(samples)


async def first_calls_ours() -> tuple[float, float]:
    async with spawn_agent(sys.executable, [str(PEERS / "our_agent.py")]) as conn:
        started = time.perf_counter()
        await conn.initialize({"protocolVersion": 1})
        first = time.perf_counter() - started
        sid = (await conn.new_session({"cwd": "/", "mcpServers": []})).session_id
        started = time.perf_counter()
        await conn.prompt({"sessionId": sid, "prompt": [{"type": "text", "text": "hello 1"}]})
        return first, time.perf_counter() - started


async def first_calls_official() -> tuple[float, float]:
    import acp
    from acp import schema

    class Editor:
        def on_connect(self, conn: Any) -> None:
            pass

        async def session_update(self, session_id: str, update: Any, **kwargs: Any) -> None:
            return None

    agent = str(PEERS / "official_agent.py")
    async with acp.spawn_agent_process(Editor(), sys.executable, agent) as (conn, _process):
        started = time.perf_counter()
        await conn.initialize(protocol_version=1)
        first = time.perf_counter() - started
        sid = (await conn.new_session(cwd="/")).session_id
        block = [schema.TextContentBlock(type="text", text="hello 1")]
        started = time.perf_counter()
        await conn.prompt(session_id=sid, prompt=block)
        return first, time.perf_counter() - started


def first_calls(kind: str, runs: int = 7) -> tuple[float, float]:
    """Median first initialize and first prompt, each run in a fresh interpreter."""
    samples: list[tuple[float, float]] = []
    for _ in range(runs):
        out = subprocess.run(
            [sys.executable, __file__, "--first-call", kind],
            capture_output=True,
            text=True,
            check=True,
        )
        init, prompt = out.stdout.split()
        samples.append((float(init), float(prompt)))
    return (
        statistics.median(s[0] for s in samples),
        statistics.median(s[1] for s in samples),
    )


def p95(values: list[float]) -> float:
    return sorted(values)[int(len(values) * 0.95)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--prompts", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=7, help="fresh interpreters per figure")
    parser.add_argument("--rounds", type=int, default=8, help="alternated rounds per case")
    parser.add_argument(
        "--smoke", action="store_true", help="every part once, tiny: checks the benchmark runs"
    )
    parser.add_argument(
        "--mixed", action="store_true", help="also run our editor with the official agent and back"
    )
    parser.add_argument("--first-call", choices=["ours", "official"], help=argparse.SUPPRESS)
    parser.add_argument("--raw-agent", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--only-first-call", action="store_true", help="just that figure")
    args = parser.parse_args()
    if args.smoke:
        args.prompts, args.runs = 5, 1
    if args.raw_agent:  # the raw floor's agent, a child of raw()
        asyncio.run(raw_agent())
        return
    if args.first_call:  # a child run of first_calls()
        run = first_calls_ours if args.first_call == "ours" else first_calls_official
        init, prompt = asyncio.run(run())
        print(init, prompt)
        return
    cases = (1, 10)
    print(f"first calls after spawn (fresh interpreter, median of {args.runs}):")
    (oi, op), (fi, fp) = first_calls("ours", args.runs), first_calls("official", args.runs)
    print(f"  first initialize: ours {oi * 1e3:6.2f} ms   official {fi * 1e3:6.2f} ms")
    print(
        f"  first prompt:     ours {op * 1e3:6.2f} ms   official {fp * 1e3:6.2f} ms "
        "(target <= 5 ms)"
    )
    print(f"  ratio ours / official: initialize {oi / fi:.2f}x, prompt {op / fp:.2f}x\n")
    if args.only_first_call:
        return
    rounds = 1 if args.smoke else args.rounds
    per_round = max(1, args.prompts // rounds)
    print(
        f"prompt round trips, {args.prompts} per case in {rounds} alternated rounds of "
        f"{per_round} (each round: ours, the raw floor, the official SDK, our sync editor, the "
        f"order reversed every other round; median / p95 per prompt over all rounds; {load()}):"
    )
    for updates in cases:
        got: dict[str, list[float]] = {"ours": [], "raw": [], "official": [], "sync": []}

        def block(name: str, run: Any, got: dict[str, list[float]] = got) -> Any:
            def measure() -> float:
                times = run()
                got[name] += times
                return statistics.median(times)

            return measure

        medians = alternate(
            {
                "ours": block("ours", lambda u=updates: asyncio.run(ours(per_round, u))),
                "raw": block("raw", lambda u=updates: asyncio.run(raw(per_round, u))),
                "official": block(
                    "official", lambda u=updates: asyncio.run(official(per_round, u))
                ),
                "sync": block("sync", lambda u=updates: ours_sync(per_round, u)),
            },
            rounds,
        )
        a, r, b, c = (got[k] for k in ("ours", "raw", "official", "sync"))
        ma, mb, mc = statistics.median(a), statistics.median(b), statistics.median(c)
        mr = statistics.median(r)
        print(
            f"  {updates:>2} update(s): ours {ma * 1e3:.3f} / {p95(a) * 1e3:.3f} ms   "
            f"official {mb * 1e3:.3f} / {p95(b) * 1e3:.3f} ms   ratio {ma / mb:.2f}x "
            "(target <= 0.4x)"
        )
        print(
            f"               raw floor {mr * 1e3:.3f} / {p95(r) * 1e3:.3f} ms   ours / floor "
            f"{ma / mr:.2f}x"
        )
        print(
            f"               our sync editor {mc * 1e3:.3f} / {p95(c) * 1e3:.3f} ms   "
            f"ratio {mc / mb:.2f}x (the official SDK has no sync client)"
        )
        print("    " + ratio_line("ours / raw floor", medians["ours"], medians["raw"], "<= 1.3x"))
        print("    " + ratio_line("ours / official", medians["ours"], medians["official"]))
    if args.mixed:
        print("\nmixed pairs (median ms per prompt):")
        for updates in cases:
            cells = {
                "ours+ours": asyncio.run(ours(args.prompts, updates)),
                "our editor+official agent": asyncio.run(
                    ours(args.prompts, updates, "official_agent.py")
                ),
                "official editor+our agent": asyncio.run(
                    official(args.prompts, updates, "our_agent.py")
                ),
                "official+official": asyncio.run(official(args.prompts, updates)),
            }
            row = ", ".join(f"{k} {statistics.median(v) * 1e3:.3f}" for k, v in cells.items())
            print(f"  {updates:>2} update(s): {row}")
    print(f"\nACP v2, {args.prompts} prompts per case (median / p95 per prompt):")
    node_agent = ROOT / "tests" / "node" / "ts_v2_agent.mjs"
    sdk = ROOT / "tests" / "node" / "node_modules" / "@agentclientprotocol" / "sdk"
    for updates in cases:
        one = asyncio.run(ours(args.prompts, updates))
        two = asyncio.run(ours_v2(args.prompts, updates))
        m1, m2 = statistics.median(one), statistics.median(two)
        print(
            f"  {updates:>2} chunk(s): our v2 editor + our v2 agent {m2 * 1e3:.3f} / "
            f"{p95(two) * 1e3:.3f} ms   ({updates + 3} updates; v1 with {updates}: "
            f"{m1 * 1e3:.3f} ms, ratio v2/v1 {m2 / m1:.2f}x)"
        )
        if sdk.is_dir():
            ts = asyncio.run(ours_v2(args.prompts, updates, ["node", str(node_agent)]))
            print(
                f"               our v2 editor + the TypeScript SDK's v2 agent (node) "
                f"{statistics.median(ts) * 1e3:.3f} / {p95(ts) * 1e3:.3f} ms"
            )
        else:
            print(
                f"               (the TypeScript SDK is not installed: npm ci in {sdk.parents[2]})"
            )
    ours_import = import_time("import agentproto.acp, agentproto.acp.connection", args.runs)
    ours_v2_import = import_time(
        "import agentproto.acp.v2, agentproto.acp.v2.connection", args.runs
    )
    ours_models = import_time("import agentproto.acp.connection, agentproto.acp.models", args.runs)
    official_import = import_time("import acp", args.runs)
    print(f"\nimport time (fresh interpreter, median of {args.runs}):")
    print(f"  import agentproto.acp (+ connection): {ours_import * 1e3:7.1f} ms (target <= 100)")
    print(
        f"  import agentproto.acp.v2 (+ connection): {ours_v2_import * 1e3:4.1f} ms (target <= 100)"
    )
    print(f"  ... and its models (first use):       {ours_models * 1e3:7.1f} ms")
    print(f"  import acp (official SDK):            {official_import * 1e3:7.1f} ms")
    print(f"  ratio ours / official:                {ours_import / official_import:7.2f}x")
    print(
        "  ratio ours with the models its first call loads / official: "
        f"{ours_models / official_import:.2f}x ({load()})"
    )


if __name__ == "__main__":
    main()
