"""Editing source text at token and parser positions: the offsets tokenize's (row, col) pairs
and the ``ast`` nodes' (line, UTF-8 column) pairs stand for, and a set of non-overlapping
replacements applied in one pass. Shared by the rewrites of generated and template code
(:mod:`codegen.package.unasync`, :mod:`codegen.models.open_types`,
:mod:`codegen.models.generate`)."""

from __future__ import annotations

import ast
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


class NodeSource:
    """Text with the character spans of its ``ast`` nodes."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.lines = io.StringIO(text, newline="").readlines()  # as the parser counts them
        self.starts = [0]
        for line in self.lines:
            self.starts.append(self.starts[-1] + len(line))

    def offset(self, line: int, column: int) -> int:
        """The character offset of a parser position (columns count UTF-8 bytes)."""
        prefix = self.lines[line - 1].encode("utf-8")[:column]
        return self.starts[line - 1] + len(prefix.decode("utf-8"))

    def span(self, node: ast.expr | ast.stmt) -> tuple[int, int]:
        assert node.end_lineno is not None and node.end_col_offset is not None
        return (
            self.offset(node.lineno, node.col_offset),
            self.offset(node.end_lineno, node.end_col_offset),
        )

    def lines_span(self, node: ast.stmt) -> tuple[int, int]:
        """Whole lines, from the statement's first line to its last."""
        assert node.end_lineno is not None
        return self.starts[node.lineno - 1], self.starts[node.end_lineno]

    def segment(self, node: ast.expr) -> str:
        start, end = self.span(node)
        return self.text[start:end]


def insert_imports(text: str, imports: str) -> str:
    """``imports`` after the module's docstring and ``__future__`` import (the formatter
    sorts and merges them with the others, and drops the unused)."""
    body = ast.parse(text).body
    after = 0
    for statement in body[:2]:
        docstring = isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant)
        future = isinstance(statement, ast.ImportFrom) and statement.module == "__future__"
        if not (docstring or future):
            break
        after = statement.end_lineno or 0
    lines = io.StringIO(text, newline="").readlines()
    return "".join(lines[:after]) + imports + "".join(lines[after:])
