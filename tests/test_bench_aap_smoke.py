"""benchmarks/bench_aap_server.py --smoke: the benchmark runs (our server only, small numbers:
turns in both modes, streams held open and measured). The figures are the benchmark's, not
asserted here; the comparison with the TypeScript server needs its SDK (see its docstring)."""

from __future__ import annotations

import subprocess
import sys

from tests.conftest import ROOT


def test_the_aap_server_benchmark_runs() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "bench_aap_server.py"), "--smoke"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    row = next(line for line in done.stdout.splitlines() if line.startswith("agentproto (sqlite) "))
    turns_none, turns_delta, streams = row.split()[2:5]
    assert float(turns_none) > 0 and float(turns_delta) > 0 and int(streams) == 20
