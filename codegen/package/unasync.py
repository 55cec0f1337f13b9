"""One source for both flavours: the blocking classes of a runtime module are derived from its
async ones ("unasync", the technique encode/httpcore uses).

A template module that holds the line ``# unasync: derive-sync`` is written once, as async
code. :func:`combine` turns it into the shipped module: every top-level statement the rewrite
leaves alone (helpers, errors, policy) is written once; every one it changes is written twice,
its blocking twin first, then the async original. The blocking twin is made by :func:`to_sync`:

- code: ``async def``/``async with``/``async for`` lose ``async``; ``await`` is dropped;
  ``Awaitable[X]`` becomes ``X``; names are renamed by :data:`RENAMES` (``__aenter__`` ->
  ``__enter__``, ``aclose`` -> ``close``, ``AsyncHTTP`` -> ``SyncHTTP``...), then any name
  ``AsyncX`` (``Async`` and a capital) becomes ``X``; dotted names by :data:`DOTTED`
  (``anyio.sleep`` -> ``time.sleep``). Keywords and names are only ever read from tokens:
  string literals, f-strings and the names inside them are never touched.
- prose (comments, and strings standing alone as statements: docstrings): the same renames of
  names and dotted names, nothing else (``async``/``await`` in prose stay as written).

Where a flavour needs code of its own, a region says so (lines, any indentation)::

    # unasync: async-only
    <async code, left out of the blocking twin>
    # unasync: sync-only
    # <blocking code, commented out here, uncommented in the twin>
    # unasync: end

(either part may stand alone). Two definitions of one name in the combined module (a twin
whose name the rewrite does not change) fail the build, as does a region left open.
"""

from __future__ import annotations

import ast
import io
import itertools
import re
import tokenize
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Final, Literal

from codegen.errors import BuildError
from codegen.textedit import apply, lines_of, offsets

MARKER: Final = "# unasync: derive-sync"
"""The line that makes a template module a single async source."""
HEADER: Final = (
    "# Written once as async code: each blocking twin below (the class or function without\n"
    "# ``Async``) is derived from its async original by codegen's unasync rewrite."
)

RENAMES: Final[dict[str, str]] = {
    # Python's protocols and the standard library.
    "__aenter__": "__enter__",
    "__aexit__": "__exit__",
    "__aiter__": "__iter__",
    "__anext__": "__next__",
    "StopAsyncIteration": "StopIteration",
    "AsyncIterator": "Iterator",
    "AsyncIterable": "Iterable",
    "AsyncGenerator": "Generator",
    "AsyncExitStack": "ExitStack",
    "asynccontextmanager": "contextmanager",
    "aclosing": "closing",
    "anext": "next",
    "aiter": "iter",
    "enter_async_context": "enter_context",
    # httpx and our own runtime.
    "aclose": "close",
    "aread": "read",
    "aiter_bytes": "iter_bytes",
    "aiter_lines": "iter_lines",
    "aiter_raw": "iter_raw",
    "aiter_text": "iter_text",
    "aiter_sse": "iter_sse",
    # Project pairs whose blocking name is not the async one less "Async".
    "AsyncHTTP": "SyncHTTP",
    "AsyncFlows": "SyncFlows",
    "_aevents": "_events",
    "aload_bundle": "load_bundle",
    "_aread": "_read",
    "_afetch": "_fetch",
    "_achat_events": "_chat_events",
    "_aobserve": "_observe",
    "_achain_events": "_chain_events",
    "_AsyncOpener": "_Opener",
    "_AsyncDelivery": "_Delivery",
    "aclose_orphans": "close_orphans",
    "aclose_shielded": "close_shielded",
}
"""Whole names renamed in the blocking twin (before the ``AsyncX`` -> ``X`` rule)."""

DOTTED: Final[dict[str, str]] = {
    "anyio.sleep": "time.sleep",
}
"""Dotted names renamed in the blocking twin (the module must import what they name)."""

_ASYNC_CLASS = re.compile(r"^(_*)Async(?=[A-Z])")
# Every token the rewrite changes holds one of these (a keyword, ``Awaitable``, an ``AsyncX``
# name, a RENAMES name, the first part of a DOTTED name), in code or in prose.
_REWRITTEN = re.compile(
    "|".join(
        re.escape(word)
        for word in sorted(
            {"async", "await", "Awaitable", "Async", *RENAMES, *(d.split(".")[0] for d in DOTTED)},
            key=lambda w: (-len(w), w),
        )
    )
)
_PRAGMA = re.compile(r"^(?P<indent>[ \t]*)# unasync: (?P<word>async-only|sync-only|end)[ \t]*$")
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*")
_SKIP = frozenset({tokenize.NL, tokenize.COMMENT})
_STATEMENT_START = frozenset(
    {tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT, tokenize.ENCODING}
)


class UnasyncError(ValueError):
    """A single source the rewrite cannot follow; ``line`` is 1-based in the template."""

    def __init__(self, line: int, reason: str) -> None:
        super().__init__(f"line {line}: {reason}")
        self.line = line
        self.reason = reason


def rename(name: str) -> str:
    """The blocking name of ``name`` (itself when it has none)."""
    if name in RENAMES:
        return RENAMES[name]
    return _ASYNC_CLASS.sub(r"\1", name)


def _rename_dotted(words: str) -> str:
    """A dotted name in prose or code: the longest :data:`DOTTED` prefix, then each part."""
    parts = words.split(".")
    for n in range(len(parts), 1, -1):
        head = ".".join(parts[:n])
        if head in DOTTED:
            return ".".join([DOTTED[head], *parts[n:]])
    return ".".join(rename(p) for p in parts)


def rename_prose(text: str) -> str:
    """Comments and docstrings: names and dotted names renamed, every other word kept."""
    return _WORD.sub(lambda m: _rename_dotted(m.group(0)), text)


# -- regions --------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Region:
    start: int  # 0-based line of the opening pragma
    end: int  # 0-based line of ``# unasync: end``


def _regions(lines: list[str], first: int = 1) -> list[_Region]:
    """The regions of ``lines`` (checked: closed, not nested, sync-only lines commented)."""
    found: list[_Region] = []
    opened: int | None = None
    part: str | None = None
    indent = ""
    for i, line in enumerate(lines):
        match = _PRAGMA.match(line)
        if match is None:
            if part == "sync-only" and line.strip() and not line.startswith(indent + "#"):
                raise UnasyncError(
                    first + i,
                    "a sync-only line must be commented out at the pragma's indent: "
                    f"{line.strip()!r}",
                )
            continue
        word = match["word"]
        if word == "end":
            if opened is None:
                raise UnasyncError(first + i, "'# unasync: end' closes no region")
            found.append(_Region(opened, i))
            opened, part = None, None
        elif opened is not None and not (part == "async-only" and word == "sync-only"):
            raise UnasyncError(first + i, f"'# unasync: {word}' inside an open region")
        else:
            if opened is None:
                opened, indent = i, match["indent"]
            part = word
    if opened is not None:
        raise UnasyncError(first + opened, "region not closed by '# unasync: end'")
    return found


def flavour(text: str, which: Literal["async", "sync"], *, first: int = 1) -> str:
    """``text`` as one flavour sees it: the other flavour's region parts and the pragmas left
    out, sync-only lines uncommented for ``sync`` (not yet rewritten)."""
    lines = lines_of(text)
    _regions(lines, first)
    out: list[str] = []
    part: str | None = None
    indent = ""
    for line in lines:
        match = _PRAGMA.match(line.rstrip("\r\n"))
        if match is not None:
            word = match["word"]
            if part is None:
                indent = match["indent"]
            part = None if word == "end" else word
            continue
        if part == "async-only" and which == "sync":
            continue
        if part == "sync-only":
            if which == "async":
                continue
            body = line[len(indent) + 1 :]
            body = body[1:] if body.startswith(" ") else body
            line = indent + body if body.strip() else "\n"
        out.append(line)
    return "".join(out)


# -- the rewrite ----------------------------------------------------------------------------


def _tokens(text: str, first: int) -> list[tokenize.TokenInfo]:
    try:
        return list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, SyntaxError) as exc:
        raise UnasyncError(first, f"cannot tokenize: {exc}") from None


def _is_prose_string(tokens: list[tokenize.TokenInfo], i: int) -> bool:
    """A string standing alone as a statement (a docstring or an attribute's docstring)."""
    j = i - 1
    while j >= 0 and tokens[j].type in _SKIP:
        j -= 1
    if j >= 0 and tokens[j].type not in _STATEMENT_START:
        return False
    k = i + 1
    while k < len(tokens) and tokens[k].type == tokenize.COMMENT:
        k += 1
    return k < len(tokens) and tokens[k].type in (tokenize.NEWLINE, tokenize.ENDMARKER)


def _edits(tokens: list[tokenize.TokenInfo], first: int) -> Iterator[tuple[int, int, str]]:
    """(start token index, end token index inclusive, replacement) for the code rewrite,
    plus prose edits as (index, index, new token text)."""
    fstring_depth = 0
    fstring_start = getattr(tokenize, "FSTRING_START", -1)
    fstring_end = getattr(tokenize, "FSTRING_END", -1)
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        if tok.type == fstring_start:
            fstring_depth += 1
        elif tok.type == fstring_end:
            fstring_depth -= 1
        elif fstring_depth:
            pass  # inside an f-string (3.12+): opaque, as the one STRING token of 3.11
        elif tok.type == tokenize.COMMENT:
            new = rename_prose(tok.string)
            if new != tok.string:
                yield i, i, new
        elif tok.type == tokenize.STRING:
            if _is_prose_string(tokens, i):
                new = rename_prose(tok.string)
                if new != tok.string:
                    yield i, i, new
        elif tok.type == tokenize.NAME and tok.string == "async":
            follower = tokens[i + 1].string if i + 1 < len(tokens) else ""
            if follower not in ("def", "with", "for"):
                raise UnasyncError(first + tok.start[0] - 1, "'async' not before def/with/for")
            yield i, i, ""
        elif tok.type == tokenize.NAME and tok.string == "await":
            yield i, i, ""
        elif tok.type == tokenize.NAME and tok.string == "Awaitable" and _next_is(tokens, i, "["):
            close = _matching(tokens, i + 1, first)
            yield i, i + 1, ""
            yield close, close, ""
        elif tok.type == tokenize.NAME:
            j = i
            while (
                j + 2 < len(tokens)
                and tokens[j + 1].string == "."
                and tokens[j + 2].type == tokenize.NAME
            ):
                j += 2
            dotted = "".join(t.string for t in tokens[i : j + 1])
            new = _rename_dotted(dotted)
            if new != dotted:
                yield i, j, new
            i = j
        i += 1


def _next_is(tokens: list[tokenize.TokenInfo], i: int, text: str) -> bool:
    return i + 1 < len(tokens) and tokens[i + 1].string == text


def _matching(tokens: list[tokenize.TokenInfo], i: int, first: int) -> int:
    depth = 0
    for j in range(i, len(tokens)):
        if tokens[j].string in ("[", "(", "{"):
            depth += 1
        elif tokens[j].string in ("]", ")", "}"):
            depth -= 1
            if depth == 0:
                return j
    raise UnasyncError(first + tokens[i].start[0] - 1, "unbalanced brackets after Awaitable")


def to_sync(text: str, *, first: int = 1) -> str:
    """The blocking rewrite of async code (a module or whole top-level statements).

    ``first`` is the template line ``text`` starts on, for error messages.
    """
    return _rewrite(text, first)[0]


def _rewrite(text: str, first: int) -> tuple[str, bool]:
    """:func:`to_sync`, and whether it changed code (not only comments and docstrings): a
    changed name or keyword is always a changed tree."""
    if _REWRITTEN.search(text) is None:  # no token it could change: tokenizing is slow
        return text, False
    tokens = _tokens(text, first)
    offset = offsets(text)
    edits: list[tuple[int, int, str]] = []
    code = False
    for begin, end, new in _edits(tokens, first):
        a = offset(tokens[begin].start)
        b = offset(tokens[end].end)
        if not new and tokens[begin].string in ("async", "await"):
            # the keyword and the blanks after it on its line
            while b < len(text) and text[b] in " \t":
                b += 1
        code = code or tokens[begin].type not in (tokenize.COMMENT, tokenize.STRING)
        edits.append((a, b, new))
    return apply(text, edits), code


# -- the combined module --------------------------------------------------------------------


def _chunks(lines: list[str], regions: list[_Region]) -> list[tuple[int, int]]:
    """Top-level statements as [start, end) line ranges, each with the comments and blank
    lines before it. A region at the top level is a chunk of its own; no cut falls inside a
    statement or a region (the statements a region spans share a chunk)."""
    tree = ast.parse("".join(lines))
    spans = [(_first_line(node) - 1, (node.end_lineno or node.lineno) - 1) for node in tree.body]
    spans += [(r.start, r.end) for r in regions]
    cuts = {last + 1 for _, last in spans}
    cuts |= {r.start for r in regions if not lines[r.start][:1].isspace()}
    valid = sorted(c for c in cuts if 0 < c < len(lines) and not any(a < c <= b for a, b in spans))
    return list(itertools.pairwise([0, *valid, len(lines)]))


def _first_line(node: ast.stmt) -> int:
    decorators: list[ast.expr] = getattr(node, "decorator_list", [])
    return min([node.lineno, *(d.lineno for d in decorators)])


def _without_docstrings(node: ast.AST) -> str:
    for each in ast.walk(node):
        body = getattr(each, "body", None)
        if (
            isinstance(body, list)
            and body
            and isinstance(body[0], ast.Expr)
            and isinstance(body[0].value, ast.Constant)
            and isinstance(body[0].value.value, str)
        ):
            body[0] = ast.Pass()
    return ast.dump(node)


def _defined(tree: ast.Module) -> Iterator[tuple[str, int]]:
    for node in tree.body:
        if isinstance(node, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            yield node.name, node.lineno
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    yield target.id, node.lineno
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            yield node.target.id, node.lineno


def combine(source: str) -> str:
    """The shipped module of a single async source: neutral statements once, each flavoured
    one as its blocking twin followed by the async original. Raises :class:`UnasyncError`."""
    lines = lines_of(source)
    if not any(line.rstrip() == MARKER for line in lines):
        raise UnasyncError(1, f"no {MARKER!r} line")
    try:
        regions = _regions(lines)
        chunk_ranges = _chunks(lines, regions)
    except SyntaxError as exc:
        raise UnasyncError(exc.lineno or 1, f"not valid Python: {exc.msg}") from None
    out: list[str] = []
    seen: dict[str, int] = {}
    for start, end in chunk_ranges:
        text = "".join(lines[start:end])
        first = start + 1
        async_text = flavour(text, "async", first=first)
        sync_flavour = flavour(text, "sync", first=first)
        sync_text, code_changed = _rewrite(sync_flavour, first)
        # no region: a code edit makes the twin differ (else compare the trees, docstrings out)
        differs = code_changed and sync_flavour == async_text
        try:
            async_tree = ast.parse(async_text)
            # a statement the rewrite leaves alone (most of them) is its own twin
            sync_tree = async_tree if sync_text == async_text else ast.parse(sync_text)
        except SyntaxError as exc:
            line = first + (exc.lineno or 1) - 1
            raise UnasyncError(line, f"a flavour is not valid Python: {exc.msg}") from None
        pieces = [(async_text, async_tree, False)]
        if sync_tree is not async_tree and (
            differs or _without_docstrings(async_tree) != _without_docstrings(sync_tree)
        ):
            pieces.insert(0, (sync_text, sync_tree, True))
        for piece, tree, twin in pieces:
            for name, line in _defined(tree):
                if name in seen:
                    raise UnasyncError(
                        first + line - 1,
                        f"{name!r} would be defined twice (first on line {seen[name]}): the "
                        "blocking twin of an async definition needs another name (AsyncX, or "
                        "a RENAMES pair), or the statement must not change in the rewrite",
                    )
                seen[name] = first + line - 1
            if piece.strip():
                out.append(piece.rstrip("\n") + "\n\n\n" if twin else piece)
    return "\n".join(HEADER if line == MARKER else line for line in "".join(out).split("\n"))


def ship(path: Path) -> str:
    """The text shipped for the hand-written module at ``path``: a single async source
    combined with its blocking twins, anything else as is. A source the rewrite cannot
    follow is a :class:`BuildError` naming the template file and line."""
    text = path.read_text(encoding="utf-8")
    if MARKER not in (line.rstrip() for line in text.split("\n")):
        return text
    try:
        return combine(text)
    except UnasyncError as exc:
        where = path.as_posix()
        if "templates/" in where:
            where = "templates/" + where.split("templates/", 1)[1]
        raise BuildError.single(where, f"line {exc.line}", exc.reason) from None
