"""Editing source text at token positions: the offsets tokenize's (row, col) pairs stand for,
and a set of non-overlapping replacements applied in one pass. Shared by the rewrites that
work on tokens (:mod:`codegen.unasync`, :func:`codegen.models.plain_fields`)."""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable


def lines_of(text: str) -> list[str]:
    """Lines as tokenize reads them: ended by ``\\n`` only (``str.splitlines`` also breaks at
    ``\\x1e``, ``\\x0c``, ``\\u2028``... and would shift every offset after one)."""
    return io.StringIO(text).readlines()


def offsets(text: str) -> Callable[[tuple[int, int]], int]:
    """The character offset in ``text`` of a tokenize position (1-based row, column)."""
    starts = [0]
    for line in lines_of(text):
        starts.append(starts[-1] + len(line))
    return lambda pos: starts[pos[0] - 1] + pos[1]


def apply(text: str, edits: Iterable[tuple[int, int, str]]) -> str:
    """``text`` with each ``(start, end, replacement)`` applied (offsets into ``text``; the
    edits must not overlap)."""
    out: list[str] = []
    cursor = 0
    for start, end, new in sorted(edits):
        out.append(text[cursor:start])
        out.append(new)
        cursor = end
    out.append(text[cursor:])
    return "".join(out)
