"""Every benchmark runs in its smoke mode (one tiny round), so none can rot unnoticed.

A smoke run checks that the benchmark still drives today's code and its peers end to end and
prints its ratios against its anchor; its figures mean nothing (speed goals are judged from full
runs, named in the README). A peer the benchmarks need is a test dependency: a missing one fails
the run (exit 1), it is never skipped.
"""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from tests.conftest import ROOT

RATIO = r"\d+\.\d\dx?"
# benchmark -> what its output must show: the ratios against its anchor
EXPECTED = {
    # our server only in smoke mode: the TypeScript server it compares with is built outside
    # the repository (see its docstring); turns/s in both modes and 20 streams held open
    "bench_aap_server.py": [r"agentproto \(sqlite\) +[\d.]+ +[\d.]+ +20\b"],
    # one AsyncAAPClient holding many streams at once: time and memory per stream, the ratio
    # of the largest count to the smallest, and against httpx's own pool
    "bench_aap_scale.py": [
        rf"ratio 100 / 20 streams, CPU: {RATIO} .* without the cyclic GC: {RATIO}",
        rf"ours / httpx's own pool at 100 streams, CPU: {RATIO}",
        rf"floor growth 100 / 20 streams, CPU: {RATIO}; .* ours / floor growth: {RATIO}",
        rf"ours / raw floor at 100 streams, CPU: {RATIO}",
        r"agentproto +100 .* KiB",
        r"raw floor +100 .* KiB",
    ],
    # one editor process holding many remote ACP sessions (WebSocket): time and memory per
    # session, the growth from the smallest count to the largest, against a raw floor
    "bench_acp_scale.py": [
        rf"ratio 100 / 20 sessions, editor CPU: {RATIO} .* without the cyclic GC: {RATIO}",
        rf"floor growth 100 / 20 sessions, CPU: {RATIO}; .* ours / floor growth: {RATIO}",
        rf"ours / raw floor at 100 sessions, editor CPU: {RATIO}",
        r"agentproto +100 .* KiB .* KiB",
    ],
    "bench_build.py": [
        rf"ratio cold / bare, CPU: +{RATIO}",
        rf"model generator alone, codegen's options: +[\d.]+ s +\(= {RATIO} of bare",
        rf"model generator alone, bare options: .* codegen's cost {RATIO}x",
        r"no-op rebuild, in process",
        rf"cold / bare CLI runs, CPU per round: min {RATIO} +median {RATIO} +max {RATIO}",
        rf"cold / one-process floor .* per round: min {RATIO} +median {RATIO} +max {RATIO}",
    ],
    "bench_models.py": [
        rf"import agentproto\.acp\.models .* ratio {RATIO}",
        rf"PromptRequest +validate .*\({RATIO}\) +dump .*\({RATIO}\)",
    ],
    "bench_acp.py": [
        rf"ratio ours / official: initialize {RATIO}, prompt {RATIO}",
        rf"10 update\(s\): ours .* ratio {RATIO}",
        rf"ours / raw floor per round: min {RATIO} +median {RATIO} +max {RATIO} .*load [\d.]+",
        rf"ratio ours / official: +{RATIO}",
        rf"10 chunk\(s\): our v2 editor \+ our v2 agent .* ratio v2/v1 {RATIO}",
        r"our v2 editor \+ the TypeScript SDK's v2 agent \(node\) [\d.]+ / [\d.]+ ms",
        r"import agentproto\.acp\.v2 \(\+ connection\): +[\d.]+ ms",
        rf"ratio ours with the models its first call loads / official: {RATIO}",
    ],
    "bench_acp_remote.py": [
        rf"connect \+ initialize: ours .* ratio {RATIO}",
        rf"round trip \(prompt \+ 1 update\), \d+: ours .* ratio {RATIO}",
        rf"session/update throughput, \d+ in one turn: .* ratio ours / official {RATIO}",
        r"WS +server RSS per session: ours +[\d.]+ KiB +official +[\d.]+ KiB",
        r"HTTP server RSS per session: ours +[\d.]+ KiB +official +[\d.]+ KiB",
    ],
    "bench_sse.py": [rf"ours / httpx-sse: {RATIO}", rf"ours / raw loop: +{RATIO}"],
    "bench_flows.py": [
        rf"executor overhead: -?[\d.]+ us per flow \({RATIO}\)",
        rf"async executor overhead: -?[\d.]+ us per flow \({RATIO}\)",
    ],
    "bench_llm.py": [
        rf"ours / raw httpx +throughput +{RATIO}",
        rf"ours async / raw httpx async, CPU per round: min {RATIO} +median {RATIO} +max {RATIO}",
        rf"ours async / ai-lib-python async +throughput +{RATIO}",
        r"jsonpath-ng / ours: [\d.]+x slower",
        r"python-jsonpath / ours: [\d.]+x slower",
    ],
    "bench_skills.py": [
        rf"discover\(\) / raw httpx \+ json\.loads, wall: +{RATIO}",
        rf"discover\(\) / raw httpx \+ json\.loads, CPU per round: min {RATIO} +median {RATIO}",
        rf"execution store sqlite *: invoke->result median .*\({RATIO} memory\)",
        rf"execution store postgres *: invoke->result median .*invocations/s \({RATIO} memory\)",
    ],
    "bench_hostile.py": [
        r"aap +slow heads: 10 opened .*statuses \[408\]",
        r"aap +legitimate requests meanwhile: \d+ ok, 0 failed",
        r"all held",
    ],
    "bench_soak_acp.py": [r"end against start: RSS x[\d.]+", r"answered: \d+"],
    "bench_soak_aap.py": [r"growth after the first quarter: fds [+-]\d+", r"no hang"],
    # streams left every way a careless caller leaves them: exits 1 on a leak; no socket is
    # left in CLOSE-WAIT at the end
    "bench_soak_drops.py": [r"end:.*CLOSE-WAIT +0\b", r"never read", r"cancelled mid-read"],
    # telemetry absent, present but off, and on, against the package before it was added
    "bench_telemetry.py": [r"absent +[\d.]+ us +x\d\.\d{3}", r"on +[\d.]+ us +x\d+\.\d{3}"],
}


def test_every_benchmark_is_smoke_tested() -> None:
    assert sorted(EXPECTED) == sorted(p.name for p in (ROOT / "benchmarks").glob("bench_*.py"))


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_benchmark_smoke_run(name: str, request: pytest.FixtureRequest) -> None:
    if name == "bench_acp.py":  # its v2 part runs the TypeScript SDK's agent: installed here
        request.getfixturevalue("node_peers")
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / name), "--smoke"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, f"{name} --smoke failed:\n{done.stdout}\n{done.stderr}"
    for pattern in EXPECTED[name]:
        assert re.search(pattern, done.stdout), f"{name}: no {pattern!r} in:\n{done.stdout}"
