"""The Python blocks of the documentation, as programs.

Pages: the root README, every page of the docs site (docs/**/*.md) and the generated package's
README. Each ```` ```python ```` block is a complete program; tests/test_typing.py type-checks
all of them (mypy --strict and pyright strict), tests/test_docs.py runs those of the root README
and the docs site.

A line ``--8<-- "examples/x.py"`` in a block embeds that file (the docs site's snippets
extension does the same when it builds). A block may be preceded by a marker comment that says
how the test runs it::

    <!-- docs-test: peer=llm expect="Mock response" expect="end_turn" -->

``peer``: the local peer the block talks to (tests/test_docs.py starts it and points the block
at it); ``expect``: text its output must contain (each one). A block made only of embedded
examples is not run again here: tests/test_examples.py runs the examples.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
SNIPPET = re.compile(r'^--8<-- "([^"]+)"$')
MARKER = re.compile(r"^<!-- docs-test:(.*)-->$")
OPTIONS = ("peer", "expect")


@dataclass(frozen=True)
class Block:
    page: str  # relative to the repository root
    line: int  # where the block's code starts (1-based)
    raw: str  # as written on the page
    code: str  # with embedded files expanded
    included: tuple[str, ...]  # files embedded with --8<--
    peer: str | None
    expect: tuple[str, ...]

    @property
    def id(self) -> str:
        return f"{self.page}:{self.line}"

    @property
    def module(self) -> str:
        """A module name of its own, e.g. ``docs_guides_acp_L42``."""
        stem = re.sub(r"\W", "_", self.page.removesuffix(".md"))
        return f"{stem}_L{self.line}"

    @property
    def only_embeds(self) -> bool:
        """Made only of embedded files (the examples, run by tests/test_examples.py)."""
        lines = [line.strip() for line in self.raw.splitlines() if line.strip()]
        return bool(lines) and all(SNIPPET.match(line) for line in lines)


def doc_pages() -> list[Path]:
    """The pages whose blocks are run: the root README and the docs site."""
    return [ROOT / "README.md", *sorted(DOCS.rglob("*.md"))]


def all_pages() -> list[Path]:
    """Every page with Python blocks to type-check (the generated README too)."""
    return [*doc_pages(), ROOT / "generated" / "README.md"]


def _marker(text: str, where: str) -> tuple[str | None, tuple[str, ...]]:
    peer: str | None = None
    expect: list[str] = []
    for item in shlex.split(text):
        key, sep, value = item.partition("=")
        if not sep or key not in OPTIONS:
            raise ValueError(f"{where}: unknown docs-test option {item!r} (known: {OPTIONS})")
        if key == "peer":
            peer = value
        else:
            expect.append(value)
    return peer, tuple(expect)


def blocks_of(page: Path) -> list[Block]:
    found: list[Block] = []
    lines = page.read_text(encoding="utf-8").splitlines()
    relative = page.relative_to(ROOT).as_posix()
    n = 0
    while n < len(lines):
        if lines[n].strip() != "```python":
            n += 1
            continue
        start = n + 1
        end = start
        while end < len(lines) and lines[end].strip() != "```":
            end += 1
        if end == len(lines):
            raise ValueError(f"{relative}:{start}: a ```python block is never closed")
        raw = lines[start:end]
        previous = next((lines[i] for i in range(n - 1, -1, -1) if lines[i].strip()), "")
        marked = MARKER.match(previous.strip())
        peer, expect = _marker(marked.group(1), f"{relative}:{n}") if marked else (None, ())
        code: list[str] = []
        included: list[str] = []
        for line in raw:
            embed = SNIPPET.match(line.strip())
            if embed:
                included.append(embed.group(1))
                code.append((ROOT / embed.group(1)).read_text(encoding="utf-8"))
            else:
                code.append(line + "\n")
        found.append(
            Block(
                page=relative,
                line=start + 1,
                raw="\n".join(raw),
                code="".join(code),
                included=tuple(included),
                peer=peer,
                expect=expect,
            )
        )
        n = end + 1
    return found


def all_blocks() -> list[Block]:
    return [block for page in all_pages() for block in blocks_of(page)]


def write_modules(dest: Path, blocks: list[Block]) -> list[Path]:
    """Each block as a module of its own under ``dest`` (for the type checkers)."""
    paths = []
    for block in blocks:
        path = dest / f"{block.module}.py"
        path.write_text(block.code, encoding="utf-8")
        paths.append(path)
    return paths
