"""What a build shows while it runs: progress lines on a terminal (silent when piped), and the
generator's warnings, which never share a line with the progress.

Warnings are log records of the ``codegen`` logger. A record that carries a ``topic`` (set
with :func:`topic_extra`: e.g. the lenient reading of one agents.json bundle) is counted, and
the build ends with one summary line per topic; ``--verbose`` prints each record in full.
Any other warning is printed in full as it comes.
"""

from __future__ import annotations

import logging
import sys
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TextIO

LOGGER = "codegen"


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

    def clear(self) -> None:
        """Take the progress line off the terminal (before anything else is written there);
        the next :meth:`step` draws it again."""
        if self.enabled and self._width:
            self.stream.write("\r" + " " * self._width + "\r")
            self.stream.flush()
            self._width = 0

    def done(self) -> None:
        self.clear()


@dataclass(frozen=True)
class Topic:
    """What a summary line counts: ``files`` read with ``count`` ``what`` (e.g. 6 bundles
    read with 21 kinds of lenient reading)."""

    name: str  # "agents.json"
    files: str  # "bundles"
    what: str  # "kinds of lenient reading or warning"


def topic_extra(topic: Topic, file: str, count: int) -> Mapping[str, object]:
    """The ``extra`` of a log record that a build summarises under ``topic``."""
    return {"codegen_topic": topic, "codegen_file": file, "codegen_count": count}


@dataclass
class _Tally:
    files: set[str] = field(default_factory=set)
    count: int = 0


class BuildLog(logging.Handler):
    """Writes the ``codegen`` logger's records to ``stream`` without ever sharing a line with
    ``progress``; records with a topic are tallied (unless ``verbose``) for :meth:`summary`."""

    def __init__(self, progress: Progress, stream: TextIO, *, verbose: bool = False) -> None:
        super().__init__(logging.WARNING)
        self.progress = progress
        self.stream = stream
        self.verbose = verbose
        self.tallies: dict[Topic, _Tally] = {}
        self.setFormatter(logging.Formatter("codegen: warning: %(message)s"))

    def emit(self, record: logging.LogRecord) -> None:
        topic = getattr(record, "codegen_topic", None)
        if isinstance(topic, Topic) and not self.verbose:
            tally = self.tallies.setdefault(topic, _Tally())
            tally.files.add(str(getattr(record, "codegen_file", "")))
            tally.count += int(getattr(record, "codegen_count", 1))
            return
        try:
            text = self.format(record)
        except Exception:  # a broken record must not end the build
            self.handleError(record)
            return
        self.progress.clear()
        self.stream.write(text + "\n")
        self.stream.flush()

    def summary(self) -> list[str]:
        """One line per topic, e.g. ``agents.json: 6 bundles read with 21 kinds of ...``."""
        return [
            f"codegen: warning: {topic.name}: {len(tally.files)} {topic.files} read with "
            f"{tally.count} {topic.what} (details: --verbose)"
            for topic, tally in sorted(self.tallies.items(), key=lambda item: item[0].name)
        ]


@contextmanager
def build_log(progress: Progress, stream: TextIO, *, verbose: bool = False) -> Iterator[BuildLog]:
    """Route the ``codegen`` logger's warnings through a :class:`BuildLog` for the duration;
    the summary lines are written at the end (after the progress line is cleared)."""
    logger = logging.getLogger(LOGGER)
    handler = BuildLog(progress, stream, verbose=verbose)
    saved = logger.propagate
    logger.addHandler(handler)
    logger.propagate = False
    try:
        yield handler
    finally:
        logger.removeHandler(handler)
        logger.propagate = saved
        lines = handler.summary()
        if lines:
            progress.clear()
            stream.write("".join(line + "\n" for line in lines))
            stream.flush()
