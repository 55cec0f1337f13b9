"""What telemetry costs the hot path: ACP prompt round trips with telemetry absent, present but
off, and on (issue 41).

Run from the repository root:  python benchmarks/bench_telemetry.py [--prompts 3000] [--smoke]

An editor and an agent of ours in one process, over a socket pair (no process hop, so our own
code is all that is timed): each prompt makes the agent send one ``session/update`` and answer.
Both sides are instrumented (a CLIENT span and ``_meta`` injection per request on the editor's
side, a SERVER span and extraction on the agent's). Each configuration runs in a fresh
interpreter, three rounds alternated (a shared machine's drift hits all alike); the figure is
the median latency per prompt, then the ratio to the baseline (the median over the rounds):

- ``baseline``: the package as it was before the instrumentation (``git archive`` of
  ``--baseline``, by default the parent of the commit that added it), same workload;
- ``absent``: ``opentelemetry`` not importable (what a user without the ``otel`` extra runs);
- ``no SDK``: ``opentelemetry-api`` installed, no SDK configured (spans are non-recording);
- ``disabled``: ``configure_telemetry(enabled=False)``;
- ``on``: the SDK with an in-memory exporter, every span recorded (what tracing costs).

``--smoke``: tiny (50 prompts, one round), so the suite runs it; its figures mean nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
CONFIGS = ("baseline", "absent", "no SDK", "disabled", "on")


def child(config: str, prompts: int) -> None:
    """Run in a fresh interpreter: time ``prompts`` round trips, print the median (us)."""
    if config == "absent":
        sys.modules["opentelemetry"] = None  # type: ignore[assignment]
    from agentproto.acp import Agent, connect_agent, serve_agent
    from agentproto.acp.models import (
        ContentBlockText,
        InitializeResponse,
        NewSessionResponse,
        PromptResponse,
        SessionUpdateAgentMessageChunk,
    )

    if config in ("disabled", "on"):
        from agentproto._runtime.telemetry import configure_telemetry

        if config == "disabled":
            configure_telemetry(enabled=False)
        else:
            from opentelemetry.sdk.trace import TracerProvider
            from opentelemetry.sdk.trace.export import SimpleSpanProcessor
            from opentelemetry.sdk.trace.export.in_memory_span_exporter import (
                InMemorySpanExporter,
            )

            provider = TracerProvider()
            provider.add_span_processor(SimpleSpanProcessor(InMemorySpanExporter()))
            configure_telemetry(tracer_provider=provider)

    chunk = SessionUpdateAgentMessageChunk(content=ContentBlockText(type="text", text="hi"))

    class Echo(Agent):
        async def initialize(self, params: Any) -> InitializeResponse:
            return InitializeResponse(protocol_version=1)

        async def new_session(self, params: Any) -> NewSessionResponse:
            return NewSessionResponse(session_id="s")

        async def prompt(self, params: Any) -> PromptResponse:
            await self.client.session_update(session_id=params.session_id, update=chunk)
            return PromptResponse(stop_reason="end_turn")

    async def main() -> list[float]:
        a, b = socket.socketpair()
        agent_in, agent_out = await asyncio.open_connection(sock=a)
        editor_in, editor_out = await asyncio.open_connection(sock=b)
        served = asyncio.ensure_future(serve_agent(Echo(), reader=agent_in, writer=agent_out))
        editor = connect_agent(editor_in, editor_out)
        await editor.initialize(protocol_version=1)
        session = await editor.new_session(cwd="/", mcp_servers=[])
        block = [ContentBlockText(type="text", text="hello")]
        times: list[float] = []
        for i in range(prompts + 50):
            started = time.perf_counter()
            await editor.prompt(session_id=session.session_id, prompt=block)
            if i >= 50:  # warm-up left out
                times.append(time.perf_counter() - started)
        await editor.close()
        served.cancel()
        return times

    times = asyncio.run(main())
    print(json.dumps({"median_us": statistics.median(times) * 1e6}))


def baseline_tree(rev: str | None, folder: Path) -> Path | None:
    """The generated package at ``rev`` (default: before the instrumentation), unpacked."""

    def git(*args: str) -> str:
        return subprocess.run(
            ["git", *args], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout.strip()

    try:
        if rev is None:
            added = git("log", "--format=%H", "-1", "--grep=^telemetry on every side")
            rev = git("rev-parse", f"{added}^") if added else None
        if rev is None:
            return None
        archive = subprocess.run(
            ["git", "archive", rev, "generated"], cwd=ROOT, capture_output=True, check=True
        ).stdout
        subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)
    except (subprocess.CalledProcessError, FileNotFoundError):
        return None
    return folder / "generated"


def run(config: str, prompts: int, tree: Path) -> float:
    code = (
        f"import sys; sys.path.insert(0, {str(tree)!r}); sys.path.insert(1, {str(ROOT)!r}); "
        f"import runpy; runpy.run_path({__file__!r})['child']({config!r}, {prompts})"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=600
    ).stdout
    return float(json.loads(out.strip().splitlines()[-1])["median_us"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--prompts", type=int, default=3000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--baseline", help="the git revision before the instrumentation")
    parser.add_argument("--smoke", action="store_true")
    args = parser.parse_args()
    prompts, rounds = (50, 1) if args.smoke else (args.prompts, args.rounds)
    with tempfile.TemporaryDirectory() as folder:
        old = baseline_tree(args.baseline, Path(folder))
        trees = {c: ROOT / "generated" for c in CONFIGS}
        configs = list(CONFIGS)
        if old is None:
            configs.remove("baseline")
            print("baseline: not available (no git history here); ratios are to 'absent'")
        else:
            trees["baseline"] = old
        found: dict[str, list[float]] = {c: [] for c in configs}
        for number in range(rounds):  # every other round in reverse: drift hits all alike
            for config in configs if number % 2 == 0 else reversed(configs):
                found[config].append(run(config, prompts, trees[config]))
    medians = {c: statistics.median(v) for c, v in found.items()}
    lows = {c: min(v) for c, v in found.items()}
    base = medians.get("baseline", medians["absent"])
    low = lows.get("baseline", lows["absent"])
    print(f"ACP prompt round trip (one session/update), in process, {prompts} prompts x {rounds}")
    print("  (median of the rounds, then the best round: on a busy machine the best is the")
    print("  better guide to what the code itself costs)")
    for config in configs:
        print(
            f"  {config:9} {medians[config]:8.1f} us   x{medians[config] / base:5.3f}"
            f"   best {lows[config]:8.1f} us   x{lows[config] / low:5.3f}"
        )


if __name__ == "__main__":
    main()
