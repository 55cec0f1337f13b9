"""Editing source text at token and parser positions: the offsets tokenize's (row, col) pairs
and the ``ast`` nodes' (line, UTF-8 column) pairs stand for, and a set of non-overlapping
replacements applied in one pass. Shared by the rewrites of generated and template code
(:mod:`codegen.package.unasync`, :mod:`codegen.models.open_types`,
:mod:`codegen.models.generate`)."""

from __future__ import annotations

import ast
import bisect
import io
import re
import tokenize
from collections.abc import Callable, Iterable, Iterator
from typing import NamedTuple

from codegen import parsed


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


# One pattern for the tokens of Python source that the rewrites read, in tokenize's order of
# preference (a number before a name, so ``1e5`` holds no name ``e5``): tokenize itself reads
# line by line and builds a tuple per token, 20x slower on a large generated module.
_STRING_PREFIX = r"(?:[bB][rR]?|[rR][bBfF]?|[uU]|[fF][rR]?)?"
# Each body "unrolled" (a run of plain characters, then an escape or a lone quote and another
# run): an alternation per character was twice as slow on a large module.
_STRING_BODY = "|".join(
    (
        r"'''[^'\\]*(?:(?:\\.|'(?!''))[^'\\]*)*'''",
        r'"""[^"\\]*(?:(?:\\.|"(?!""))[^"\\]*)*"""',
        r"'[^'\\\n]*(?:\\.[^'\\\n]*)*'",
        r'"[^"\\\n]*(?:\\.[^"\\\n]*)*"',
    )
)
_TOKEN = re.compile(
    "|".join(
        (
            r"(?P<comment>#[^\r\n]*)",
            rf"(?P<string>{_STRING_PREFIX}(?:{_STRING_BODY}))",
            rf"(?P<number>{tokenize.Number})",
            r"(?P<name>\w+)",
            r"(?P<nl>\r?\n)",
            r"(?P<continuation>\\\r?\n)",
            r"(?P<op>\.\.\.|\*\*=|//=|>>=|<<=|->|:=|[-+*/%&|^@<>=!]=|\*\*|//|<<|>>|[^\s\w])",
        )
    ),
    re.DOTALL,
)


class Token(NamedTuple):
    kind: str  # comment, string, number, name, nl (a line end), op
    string: str
    start: int  # character offsets into the text
    end: int


def code_tokens(text: str, start: int = 0) -> Iterator[Token]:
    """The tokens of (valid) Python source with their character offsets: names, operators,
    numbers, whole strings (an f-string is one string, as tokenize reads it in Python 3.11),
    comments, and a ``nl`` for each line end outside a string (tokenize's NEWLINE and NL; a
    backslash continuation is none). No INDENT, DEDENT or ENDMARKER. From ``start`` on, when
    given: it must be where a token starts (or blank space before one)."""
    for match in _TOKEN.finditer(text, start):
        kind = match.lastgroup
        assert kind is not None
        if kind != "continuation":
            yield Token(kind, match.group(), match.start(), match.end())


# Strings and comments alone, in the same left-to-right reading as ``_TOKEN`` (no other token
# holds a quote or ``#``, so the two agree on where each one starts and ends).
# The lookahead lets the search pass over each character that can start neither (most of a
# module) in one step: four times faster than trying every prefix at each one.
_PROSE = re.compile(
    rf"(?=[#'\"bBrRuUfF])(?:#[^\r\n]*|{_STRING_PREFIX}(?:{_STRING_BODY}))",
    re.DOTALL,
)


def rename_names(text: str, mapping: dict[str, str]) -> str:
    """``text`` with each name token in ``mapping`` renamed (never text inside strings or
    comments).

    Each name is found by a plain search and kept when it stands alone (no word character on
    either side) outside every string and comment: a callback per token of a large module
    was most of a rename's time. A name after a dot after a digit (``1.e5``, a number's
    part) sends the text through the token-by-token rename instead."""
    if not mapping:
        return text
    edits: list[tuple[int, int, str]] = []
    code = _Code(text)
    for old, new in mapping.items():
        for at in code.names(old):
            if at >= 2 and text[at - 1] == "." and text[at - 2].isdigit():
                return _rename_tokens(text, mapping)
            edits.append((at, at + len(old), new))
    return apply(text, edits)


class _Code:
    """Where a name stands in code: a plain search, less the hits inside a string or a
    comment or inside a longer word."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.prose = [m.span() for m in _PROSE.finditer(text)]
        self.starts = [a for a, _ in self.prose]

    def names(self, name: str) -> Iterator[int]:
        text = self.text
        at = text.find(name)
        while at != -1:
            end = at + len(name)
            before = text[at - 1] if at else " "
            after = text[end] if end < len(text) else " "
            if not (_word(before) or _word(after)):
                k = bisect.bisect_right(self.starts, at) - 1
                if k < 0 or self.prose[k][1] <= at:  # outside every string and comment
                    yield at
            at = text.find(name, end)


def code_names(text: str, name: str) -> Iterator[int]:
    """The offsets of the name tokens ``name`` in ``text`` (none in strings or comments)."""
    return _Code(text).names(name)


def _word(char: str) -> bool:
    return char.isalnum() or char == "_"


def _rename_tokens(text: str, mapping: dict[str, str]) -> str:
    def one(match: re.Match[str]) -> str:
        word = match.group()
        return mapping.get(word, word) if match.lastgroup == "name" else word

    return _TOKEN.sub(one, text)


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
    lines = io.StringIO(text, newline="").readlines()
    after = 0
    for statement in _head(lines, text):
        docstring = isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant)
        future = isinstance(statement, ast.ImportFrom) and statement.module == "__future__"
        if not (docstring or future):
            break
        after = statement.end_lineno or 0
    return "".join(lines[:after]) + imports + "".join(lines[after:])


_HEAD_LINES = 40


def _head(lines: list[str], text: str) -> list[ast.stmt]:
    """The module's first two statements, parsed from its first lines when a third statement
    starts there (then the two are complete, as in the whole module): a large module is not
    parsed whole for the place of an import. The window doubles until it holds three
    statements (a long docstring comes first) or the whole module."""
    size = _HEAD_LINES
    while size < len(lines):
        try:
            body = ast.parse("".join(lines[:size])).body
        except SyntaxError:  # the cut falls inside a statement
            body = []
        if len(body) > 2:
            return body[:2]
        size *= 2
    return parsed.tree(text).body[:2]
