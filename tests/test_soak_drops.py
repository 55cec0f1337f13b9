"""The soak benchmark with random drops (``benchmarks/bench_soak_drops.py``), in its smoke mode:
a few seconds of AAP and LLM streams left every way a careless caller leaves them, sync and
async, against a loopback server that cuts and stalls some. It exits 1 when a call fails for a
reason of ours (a pool exhausted by a leak), a socket is left in CLOSE-WAIT, or descriptors or
threads grew (on the code before issue 25 it leaked dozens of descriptors in 4 s)."""

from __future__ import annotations

import subprocess
import sys

from tests.conftest import ROOT


def test_the_soak_with_random_drops_leaves_nothing_behind() -> None:
    result = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "bench_soak_drops.py"), "--smoke"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    end = next(line for line in result.stdout.splitlines() if line.strip().startswith("end:"))
    assert "CLOSE-WAIT   0" in end, end
    assert "never read" in result.stdout and "cancelled mid-read" in result.stdout
