"""What the scale benchmarks (bench_aap_scale.py, bench_acp_scale.py) read of their own
process: CPU time, resident memory, and the cyclic garbage collector's time."""

from __future__ import annotations

import gc
import os
import resource
import time


def cpu() -> float:
    """CPU seconds (user + system) this process has used."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def rss(pid: int | str = "self") -> int:
    """Resident memory of a process (this one by default), in bytes."""
    with open(f"/proc/{pid}/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


class GCTime:
    """CPU time the cyclic garbage collector took (full collections counted apart)."""

    def __init__(self) -> None:
        self.total = 0.0
        self.full = 0
        self._start = 0.0
        gc.callbacks.append(self._phase)

    def _phase(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._start = time.process_time()
        else:
            self.total += time.process_time() - self._start
            self.full += info["generation"] == 2
