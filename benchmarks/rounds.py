"""What every benchmark shares: alternated rounds, per-round ratios and the host's load.

A ratio of two medians taken at different times flatters whichever side ran while the shared
machine was quieter. So a benchmark runs its contenders in rounds, each round every contender once
(the order reversed every other round, so drift within a round hits both sides alike), and reports
the ratio of each round's pair: min / median / max over the rounds, with the load average beside
it (the machine is shared; a figure without its load cannot be judged).

Imported by the scripts in this directory (``python benchmarks/bench_x.py`` puts it on the path).
"""

from __future__ import annotations

import os
import statistics
from collections.abc import Callable, Sequence

__all__ = ["alternate", "load", "ratio_line", "ratios", "spread"]


def load() -> str:
    """The load average (1, 5, 15 min) and the cores this process may use."""
    one, five, fifteen = os.getloadavg()
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return f"load {one:.2f} {five:.2f} {fifteen:.2f} on {cores} cores"


def alternate(contenders: dict[str, Callable[[], float]], rounds: int) -> dict[str, list[float]]:
    """Run every contender once per round, in the given order then reversed on the next round;
    each call returns its measure (seconds, CPU seconds...). Returns the measures per name, one
    per round, in round order (so ``ratios`` pairs the same round's figures)."""
    names = list(contenders)
    out: dict[str, list[float]] = {name: [] for name in names}
    for i in range(rounds):
        for name in names if i % 2 == 0 else reversed(names):
            out[name].append(contenders[name]())
    return out


def ratios(ours: Sequence[float], peer: Sequence[float]) -> list[float]:
    """The ratio of each round's pair (same length, same round order)."""
    assert len(ours) == len(peer), "one figure per round on each side"
    return [a / b for a, b in zip(ours, peer, strict=True) if b]


def spread(values: Sequence[float]) -> str:
    """``min 1.02x  median 1.10x  max 1.31x``."""
    return (
        f"min {min(values):.2f}x  median {statistics.median(values):.2f}x  max {max(values):.2f}x"
    )


def ratio_line(label: str, ours: Sequence[float], peer: Sequence[float], target: str = "") -> str:
    """One report line: the per-round ratios of ``ours`` to ``peer`` and the load now."""
    per_round = ratios(ours, peer)
    tail = f", target {target}" if target else ""
    return f"{label} per round: {spread(per_round)} ({len(per_round)} rounds{tail}; {load()})"
