"""The async -> blocking rewrite (codegen/unasync.py) on tricky inputs, and the combined module."""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

import pytest

from codegen.package.unasync import HEADER, MARKER, UnasyncError, combine, flavour, rename, to_sync

ROOT = Path(__file__).resolve().parent.parent


def sync(text: str) -> str:
    return to_sync(textwrap.dedent(text))


def test_keywords_dropped_in_code() -> None:
    out = sync(
        """
        async def f(client):
            async with client.stream() as s:
                async for chunk in s.aiter_bytes():
                    await anyio.sleep(0)
            return await   client.aclose()
        """
    )
    assert out == textwrap.dedent(
        """
        def f(client):
            with client.stream() as s:
                for chunk in s.iter_bytes():
                    time.sleep(0)
            return client.close()
        """
    )


def test_strings_keep_keywords_and_names() -> None:
    src = 'x = "await me, async with AsyncFoo.aclose()"\ny = b"async def"\n'
    assert to_sync(src) == src


def test_fstrings_are_opaque_on_every_python() -> None:
    src = 'x = f"{await_me} {AsyncFoo!r} {aclose}"\n'
    assert to_sync(src) == src


def test_comments_and_docstrings_rename_names_not_keywords() -> None:
    out = sync(
        '''
        class AsyncThing:
            """Wraps ``httpx.AsyncClient``; call ``aclose`` or use async with."""

            x = 1  # AsyncThing.aclose, await it
        '''
    )
    assert '"""Wraps ``httpx.Client``; call ``close`` or use async with."""' in out
    assert "# Thing.close, await it" in out
    assert "class Thing:" in out


def test_names_containing_async_are_left_alone() -> None:
    src = "is_async = asyncio.run(async_mode)\nAsyncio = Asynchronous = 1\nx.asyncx = 2\n"
    assert to_sync(src) == src


def test_renames() -> None:
    assert rename("AsyncLLMClient") == "LLMClient"
    assert rename("_AsyncCore") == "_Core"
    assert rename("AsyncHTTP") == "SyncHTTP"
    assert rename("__aenter__") == "__enter__"
    assert rename("StopAsyncIteration") == "StopIteration"
    assert rename("Asyncio") == "Asyncio"


def test_nested_comprehensions() -> None:
    out = to_sync("r = [await g(z) async for y in w async for z in y if await h(z)]\n")
    assert out == "r = [g(z) for y in w for z in y if h(z)]\n"
    out = to_sync("r = {k: [await v async for v in vs] async for k, vs in await items()}\n")
    assert out == "r = {k: [v for v in vs] for k, vs in items()}\n"


def test_awaitable_is_unwrapped_with_nesting() -> None:
    out = to_sync("f: Callable[[], Awaitable[dict[str, Awaitable[int]]]]\n")
    assert out == "f: Callable[[], dict[str, int]]\n"


def test_attribute_chains_and_dotted_table() -> None:
    assert to_sync("await self._http.aclose()\n") == "self._http.close()\n"
    assert to_sync("await anyio.sleep(d)\n") == "time.sleep(d)\n"
    assert to_sync("c = httpx.AsyncClient()\n") == "c = httpx.Client()\n"


def test_bare_async_is_an_error() -> None:
    with pytest.raises(UnasyncError, match="line 2"):
        to_sync("x = 1\nasync = 2\n")


def test_regions() -> None:
    src = textwrap.dedent(
        """\
        def f():
            # unasync: async-only
            x = await g()
            # unasync: sync-only
            # x = g_blocking()
            #
            #     # indented comment kept
            # unasync: end
            return x
        """
    )
    assert flavour(src, "async") == "def f():\n    x = await g()\n    return x\n"
    assert flavour(src, "sync") == (
        "def f():\n    x = g_blocking()\n\n        # indented comment kept\n    return x\n"
    )


@pytest.mark.parametrize(
    ("src", "reason"),
    [
        ("# unasync: async-only\nx = 1\n", "line 1: region not closed"),
        ("x = 1\n# unasync: end\n", "line 2: '# unasync: end' closes no region"),
        ("# unasync: sync-only\nx = 1\n# unasync: end\n", "line 2: a sync-only line"),
        (
            "# unasync: async-only\n# unasync: async-only\n# unasync: end\n",
            "line 2: '# unasync: async-only' inside an open region",
        ),
    ],
)
def test_bad_regions(src: str, reason: str) -> None:
    with pytest.raises(UnasyncError, match=reason):
        flavour(src, "sync")


def test_combine_writes_neutral_once_and_twins_before_originals() -> None:
    src = textwrap.dedent(
        f'''\
        """Doc mentioning AsyncStream."""

        from __future__ import annotations

        {MARKER}
        from collections.abc import AsyncIterator


        def helper() -> int:
            """Neutral, though its docstring names ``AsyncStream``."""
            return 1


        class AsyncStream:
            """Async stream."""

            def __aiter__(self) -> AsyncIterator[int]:
                return self

            async def __anext__(self) -> int:
                raise StopAsyncIteration


        # unasync: async-only
        class AsyncOnly:
            pass


        # unasync: end
        '''
    )
    out = combine(src)
    tree = ast.parse(out)
    names = [n.name for n in tree.body if isinstance(n, ast.ClassDef | ast.FunctionDef)]
    assert names == ["helper", "Stream", "AsyncStream", "AsyncOnly"]
    assert out.count("def helper") == 1
    assert '"""Doc mentioning AsyncStream."""' in out  # a neutral module docstring as written
    assert "from collections.abc import Iterator" in out
    assert "from collections.abc import AsyncIterator" in out
    assert HEADER in out and MARKER not in out and "unasync:" not in out
    assert "raise StopIteration" in out


def test_combine_refuses_a_twin_with_the_same_name() -> None:
    src = f"{MARKER}\nasync def fetch() -> None:\n    pass\n"
    with pytest.raises(UnasyncError, match="line 2: 'fetch' would be defined twice"):
        combine(src)


def test_combine_needs_the_marker() -> None:
    with pytest.raises(UnasyncError, match="no '# unasync: derive-sync' line"):
        combine("async def f() -> None:\n    pass\n")


def test_a_region_spanning_statements_stays_whole() -> None:
    src = textwrap.dedent(
        f"""\
        {MARKER}
        # unasync: async-only
        A = 1
        B = 2
        # unasync: sync-only
        # C = 3
        # unasync: end
        """
    )
    out = combine(src)
    assert "A = 1" in out and "B = 2" in out and "C = 3" in out
    assert out.index("C = 3") < out.index("A = 1")


SINGLE_SOURCES = sorted(
    p.relative_to(ROOT / "templates").as_posix()
    for p in (ROOT / "templates").rglob("*.py")
    if MARKER in p.read_text(encoding="utf-8").splitlines()
)


def test_the_single_sources() -> None:
    """The modules written once: each holds no blocking twin of its own async classes."""
    assert SINGLE_SOURCES == [
        "aap/session.py",
        "flows/loading.py",
        "llm/client.py",
        "llm/fallback.py",
        "runtime/flows.py",
        "runtime/http.py",
        "runtime/jsonrpc_http.py",
        "runtime/streaming.py",
        "skills/consumer.py",
    ]
    for rel in SINGLE_SOURCES:
        tree = ast.parse((ROOT / "templates" / rel).read_text(encoding="utf-8"))
        classes = {n.name for n in tree.body if isinstance(n, ast.ClassDef)}
        twins = sorted(c for c in classes if rename(c) != c and rename(c) in classes)
        assert not twins, f"{rel} still writes both flavours of {twins}"


def test_line_separators_other_than_newline_do_not_shift_edits() -> None:
    """str.splitlines() also breaks at \\x1e, \\x0c, \\u2028...; tokenize does not."""
    src = 'x = "a\x1eb\x0cc\u2028d"  # AsyncThing\nawait y.aclose()\n'
    assert to_sync(src) == 'x = "a\x1eb\x0cc\u2028d"  # Thing\ny.close()\n'
    module = (
        f'{MARKER}\nDOC = "\x1e"\n\n\n'
        "class AsyncThing:\n    async def f(self) -> None:\n        await g()\n"
    )
    out = combine(module)
    assert "class Thing:\n    def f(self) -> None:\n        g()\n" in out
    assert out.count('DOC = "\x1e"') == 1
