"""Progress lines for long steps: shown on a terminal, silent when output is piped."""

from __future__ import annotations

import sys
import time
from typing import TextIO


class Progress:
    def __init__(self, stream: TextIO | None = None, *, enabled: bool | None = None) -> None:
        self.stream = stream or sys.stderr
        self.enabled = self.stream.isatty() if enabled is None else enabled
        self._start = time.perf_counter()
        self._width = 0

    def step(self, message: str) -> None:
        if not self.enabled:
            return
        line = f"[{time.perf_counter() - self._start:5.1f}s] {message}"
        pad = max(0, self._width - len(line))
        self.stream.write("\r" + line + " " * pad)
        self.stream.flush()
        self._width = len(line)

    def done(self) -> None:
        if self.enabled and self._width:
            self.stream.write("\r" + " " * self._width + "\r")
            self.stream.flush()
            self._width = 0
