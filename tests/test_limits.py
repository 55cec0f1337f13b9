"""One limits policy (``agentproto.Limits``): each limit at its edge, and the hostile peers of
issue 25 (decompression bombs, endless lines, dripping servers, alias bombs, request floods),
over real loopback sockets and real pipes."""

from __future__ import annotations

import asyncio
import gzip
import json
import time
import tracemalloc
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import brotli
import pytest
from agentproto import Limits
from agentproto._runtime.bodies import ACCEPT_ENCODING, BodyDecoder
from agentproto._runtime.http import RetryPolicy
from agentproto._runtime.http_errors import (
    APITimeoutError,
    InternalServerError,
    ResponseTooLargeError,
    ResponseValidationError,
)
from agentproto._runtime.jsonrpc import Connection, RawJSON
from agentproto._runtime.limits import LimitError, check_depth, json_depth, load_yaml, loads
from agentproto._runtime.sse import SSEDecoder
from agentproto.aap import AAPClient, AsyncAAPClient
from agentproto.llm.manifest import Manifest
from agentproto.llm.problems import ManifestError
from agentproto.llm.streaming import StreamDecoder
from agentproto.skills.documents import parse
from agentproto.skills.errors import ValidationError

from tests.servers.scripted import Answer, Script, scripted_server

ROOT = Path(__file__).resolve().parent.parent
META = {"version": 3, "agents": []}
KiB = 1024
MiB = 1024 * KiB


@pytest.fixture(scope="module")
def script() -> Iterator[Script]:
    with scripted_server() as s:
        yield s


def padded(size: int) -> bytes:
    """The /meta answer as exactly ``size`` bytes of JSON (trailing spaces are JSON)."""
    body = json.dumps(META).encode()
    return body + b" " * (size - len(body))


def zeros_gzip(size: int) -> bytes:
    """``size`` bytes of zeros, gzipped (about a thousandth of the size)."""
    packer = zlib.compressobj(9, zlib.DEFLATED, 31)
    block = bytes(MiB)
    parts = [packer.compress(block) for _ in range(size // MiB)]
    parts.append(packer.compress(bytes(size % MiB)))
    parts.append(packer.flush())
    return b"".join(parts)


def encode(body: bytes, coding: str) -> bytes:
    if coding == "gzip":
        return gzip.compress(body)
    if coding == "deflate":
        return zlib.compress(body)
    if coding == "br":
        return brotli.compress(body)
    return body


# -- the policy object --------------------------------------------------------------------------


def test_limits_are_checked_and_replaced_by_field() -> None:
    limits = Limits()
    assert limits.max_json_depth == 200 and limits.call_deadline == 600.0
    tighter = limits.replace(max_body_bytes=10, call_deadline=None)
    assert tighter.max_body_bytes == 10 and tighter.call_deadline is None
    assert limits.max_body_bytes == 128 * MiB  # unchanged: frozen
    for bad in ({"max_body_bytes": 0}, {"max_json_depth": -1}, {"stream_deadline": 0.0}):
        with pytest.raises(ValueError, match="positive"):
            Limits(**bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="positive"):
        Limits(max_sse_line_bytes=True)


def test_the_runtime_asks_only_for_encodings_it_decodes_within_a_bound() -> None:
    assert ACCEPT_ENCODING == "gzip, deflate, br"  # Brotli 1.2 here: output_buffer_limit


# -- JSON nesting -------------------------------------------------------------------------------


def test_json_depth_at_its_edge() -> None:
    at = "[" * 200 + "]" * 200
    assert json_depth(at) == 200
    assert loads(at) == json.loads(at)
    with pytest.raises(LimitError, match="max_json_depth") as caught:
        loads("[" * 201 + "]" * 201)
    assert caught.value.limit == "max_json_depth"
    assert loads('{"a": "[[[[[[[["}', max_depth=1) == {"a": "[[[[[[[["}  # strings do not nest
    with pytest.raises(LimitError):  # past the parser's own recursion: still typed
        loads(b"[" * 100_000 + b"]" * 100_000)
    with pytest.raises(LimitError):
        loads("[" * 100_000)  # not even JSON: the depth error comes first, never RecursionError
    deep: Any = []
    for _ in range(300):
        deep = [deep]
    with pytest.raises(LimitError):
        check_depth(deep, 200)
    check_depth(deep, 301)


# -- YAML -----------------------------------------------------------------------------------------


def _laughs() -> str:
    lines = ["a: &a ['lol','lol','lol','lol','lol','lol','lol','lol','lol']"]
    for i in range(1, 9):
        name, previous = chr(ord("a") + i), chr(ord("a") + i - 1)
        lines.append(f"{name}: &{name} [{', '.join(['*' + previous] * 9)}]")
    return "\n".join(lines)


LAUGHS = _laughs()


def test_a_billion_laughs_yaml_is_refused_at_once(tmp_path: Path) -> None:
    """The issue's 558-byte manifest: PyYAML builds it (aliases share objects), and whatever
    walks it expands 9^9 strings: MemoryError after 29 s. It is refused before construction."""
    assert len(LAUGHS) < 600
    started = time.monotonic()
    with pytest.raises(LimitError, match="max_yaml_nodes"):
        load_yaml(LAUGHS)
    file = tmp_path / "laughs.yaml"
    file.write_text(LAUGHS)
    with pytest.raises(ManifestError, match="max_yaml_nodes") as caught:
        Manifest.load(file)
    assert caught.value.source == str(file)
    assert time.monotonic() - started < 2


def test_yaml_alias_budget_at_its_edge() -> None:
    text = "a: &a [1, 2, 3]\nb: [*a, *a]\n"  # nodes: root 1 + 2 keys + a 4 + b (1 + 4 + 4)
    assert load_yaml(text) == {"a": [1, 2, 3], "b": [[1, 2, 3], [1, 2, 3]]}
    assert load_yaml(text, Limits(max_yaml_nodes=16)) is not None
    with pytest.raises(LimitError):
        load_yaml(text, Limits(max_yaml_nodes=15))
    with pytest.raises(ValueError, match="refers to the node that holds it"):
        load_yaml("a: &a [*a]\n")
    with pytest.raises(LimitError, match="max_json_depth"):
        load_yaml("[" * 300 + "]" * 300)
    assert load_yaml("[" * 200 + "]" * 200) is not None
    with pytest.raises(ValueError, match="not valid YAML"):
        load_yaml("a: [1, 2")


# -- bodies -------------------------------------------------------------------------------------


@pytest.mark.parametrize("coding", ["identity", "gzip", "deflate", "br"])
def test_body_limit_at_its_edge(script: Script, coding: str) -> None:
    limit = 64 * KiB
    headers = {} if coding == "identity" else {"content-encoding": coding}
    limits = Limits(max_body_bytes=limit)
    with AAPClient(script.base_url, limits=limits, timeout=5) as client:
        script.answer(Answer(body=encode(padded(limit), coding), headers=headers))
        assert client.get_meta().version == 3
        script.answer(Answer(body=encode(padded(limit + 1), coding), headers=headers))
        with pytest.raises(ResponseTooLargeError, match="max_body_bytes") as caught:
            client.get_meta()
    assert caught.value.limit == "max_body_bytes" and caught.value.size == limit + 1
    assert script.requests[-1].headers["accept-encoding"] == "gzip, deflate, br"


def test_a_gzip_bomb_stops_at_the_default_limit_sync_and_async(script: Script) -> None:
    """1/1000 of the size on the wire: ``get_meta()`` inflated all of it (9.3 GB and 31 s for
    1 GiB). It now stops at ``max_body_bytes`` (128 MiB by default), in bounded memory."""
    bomb = zeros_gzip(200 * MiB)
    assert len(bomb) < 300 * KiB
    script.answer(Answer(body=bomb, headers={"content-encoding": "gzip"}))
    tracemalloc.start()
    try:
        with AAPClient(script.base_url, timeout=10) as client:
            with pytest.raises(ResponseTooLargeError, match="128 MiB"):
                client.get_meta()

        async def main() -> None:
            async with AsyncAAPClient(script.base_url, timeout=10) as client:
                with pytest.raises(ResponseTooLargeError, match="128 MiB"):
                    await client.get_meta()

        anyio.run(main)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 150 * MiB


def test_an_error_body_bomb_is_cut_and_the_error_kept(script: Script) -> None:
    """Error bodies too: a 500 whose body inflates to 64 MiB gives its typed error with the
    first ``max_error_body_bytes`` of the body, and says it was cut."""
    script.answer(
        Answer(status=500, body=zeros_gzip(64 * MiB), headers={"content-encoding": "gzip"})
    )
    limits = Limits(max_error_body_bytes=4 * KiB)
    with AAPClient(
        script.base_url, timeout=10, limits=limits, retry=RetryPolicy.disabled()
    ) as client:
        with pytest.raises(InternalServerError) as caught:
            client.get_meta()
    error = caught.value
    assert error.body_truncated and len(error.body) == 4 * KiB
    assert "body cut at 4 KiB" in str(error)


def test_decoder_pieces_stay_small_whatever_a_chunk_inflates_to() -> None:
    for coding, data in (
        ("gzip", zeros_gzip(8 * MiB)),
        ("deflate", zlib.compress(bytes(8 * MiB))),
        ("br", brotli.compress(bytes(8 * MiB))),
    ):
        decoder = BodyDecoder(coding, piece=64 * KiB)
        sizes = [len(p) for p in decoder.feed(data)] + [len(p) for p in decoder.flush()]
        bound = 64 * KiB if coding != "br" else 2 * 64 * KiB  # br: its block past the limit
        assert sum(sizes) == 8 * MiB and max(sizes) <= bound, coding
    raw = zlib.compressobj(9, zlib.DEFLATED, -15)
    raw_deflate = raw.compress(b"hello") + raw.flush()  # deflate without its zlib header
    assert b"".join(BodyDecoder("deflate").feed(raw_deflate)) == b"hello"
    two_members = gzip.compress(b"ab") + gzip.compress(b"cd")
    assert b"".join(BodyDecoder("gzip").feed(two_members)) == b"abcd"


def test_a_body_that_does_not_decode_is_a_typed_error(script: Script) -> None:
    script.answer(Answer(body=b"not gzip at all", headers={"content-encoding": "gzip"}))
    with AAPClient(script.base_url, timeout=5) as client:
        with pytest.raises(ResponseValidationError, match="cannot be decoded"):
            client.get_meta()


# -- deadlines ----------------------------------------------------------------------------------


def test_a_dripping_server_cannot_stretch_a_call_past_its_deadline(script: Script) -> None:
    """One byte every 0.2 s keeps each read under ``timeout=2``: without a total deadline
    the call lasted as long as the server liked."""
    script.answer(Answer(chunks=[b" "], delay=0.2, forever=True))
    limits = Limits(call_deadline=1.0)
    started = time.monotonic()
    with AAPClient(script.base_url, timeout=2, limits=limits) as client:
        with pytest.raises(APITimeoutError, match="call_deadline"):
            client.get_meta()
    assert time.monotonic() - started < 3.5

    async def main() -> None:
        async with AsyncAAPClient(script.base_url, timeout=2, limits=limits) as client:
            with pytest.raises(APITimeoutError, match="call_deadline"):
                await client.get_meta()

    started = time.monotonic()
    anyio.run(main)
    assert time.monotonic() - started < 2.0  # async: cancelled at the deadline itself


def test_the_deadline_covers_retries(script: Script) -> None:
    script.answer(Answer(status=503, headers={"retry-after": "0.4"}))
    limits = Limits(call_deadline=1.0)
    started = time.monotonic()
    retry = RetryPolicy(max_retries=10)
    with AAPClient(script.base_url, timeout=2, limits=limits, retry=retry) as client:
        with pytest.raises(InternalServerError):
            client.get_meta()
    assert time.monotonic() - started < 1.5  # no retry that would end past the deadline


def test_a_stream_past_its_deadline_ends_in_a_timeout(script: Script) -> None:
    frame = b'event: text_delta\ndata: {"delta": "x"}\n\n'
    script.answer(Answer(chunks=[frame], delay=0.1, forever=True, content_type="text/event-stream"))
    limits = Limits(stream_deadline=0.8)
    started = time.monotonic()
    seen = 0
    with AAPClient(script.base_url, timeout=2, limits=limits) as client:
        with pytest.raises(APITimeoutError, match="stream_deadline"):
            with client.create_turn_stream("s", messages=[], mode="delta") as events:
                for _ in events:
                    seen += 1
    assert seen >= 3 and time.monotonic() - started < 2.5


# -- event streams --------------------------------------------------------------------------------


def sse_events(data: bytes, limits: Limits, step: int = 7) -> list[str]:
    decoder = SSEDecoder(limits)
    out: list[str] = []
    for i in range(0, len(data), step):
        out += [e.data for e in decoder.feed(data[i : i + step])]
    return out


def test_sse_line_and_event_limits_at_their_edges() -> None:
    limits = Limits(max_sse_line_bytes=100, max_sse_event_bytes=250)
    line = b"data: " + b"x" * 94  # 100 bytes
    assert sse_events(line + b"\n\n", limits) == ["x" * 94]
    with pytest.raises(LimitError, match="max_sse_line_bytes"):
        sse_events(line + b"x\n\n", limits)
    with pytest.raises(LimitError, match="max_sse_line_bytes"):
        sse_events(line + b"x\n\n", limits, step=1000)  # whole, in one chunk
    # an event's size: each data line's value and its line end (the join)
    limits = Limits(max_sse_line_bytes=200, max_sse_event_bytes=250)
    two = b"data: " + b"y" * 124 + b"\n" + b"data: " + b"y" * 124 + b"\n"  # 125 + 125
    assert sse_events(two + b"\n", limits) == ["y" * 124 + "\n" + "y" * 124]
    with pytest.raises(LimitError, match="max_sse_event_bytes"):
        sse_events(two + b"data:\n\n", limits)  # one more empty line: 251


def test_a_line_that_never_ends_is_refused_in_bounded_memory(script: Script) -> None:
    """An SSE line that never ends grew without bound (5.5 GB in 20 s)."""
    script.answer(
        Answer(chunks=[b"data: " + b"a" * 65536], forever=True, content_type="text/event-stream")
    )
    limits = Limits(max_sse_line_bytes=2 * MiB)
    tracemalloc.start()
    try:
        with AAPClient(script.base_url, timeout=5, limits=limits) as client:
            with pytest.raises(ResponseTooLargeError, match="max_sse_line_bytes"):
                with client.create_turn_stream("s", messages=[], mode="delta") as events:
                    list(events)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 8 * MiB


def test_llm_frame_limit_at_its_edge() -> None:
    program = Manifest.bundled("openai").stream
    limits = Limits(max_sse_event_bytes=1000)
    body = json.dumps({"choices": [{"index": 0, "delta": {"content": "hi"}}]})
    frame = ("data: " + body + " " * (1000 - 6 - len(body))).encode()
    assert len(frame) == 1000
    for step in (1, 64, 5000):
        decoder = StreamDecoder(program, limits)
        events = [
            e for i in range(0, 1002, step) for e in decoder.feed((frame + b"\n\n")[i : i + step])
        ]
        assert [getattr(e, "content", None) for e in events] == ["hi"]
        decoder = StreamDecoder(program, limits)
        with pytest.raises(ResponseTooLargeError, match="max_sse_event_bytes"):
            for i in range(0, 1003, step):
                decoder.feed((frame + b" \n\n")[i : i + step])


# -- documents ----------------------------------------------------------------------------------


def test_document_limit_at_its_edge(tmp_path: Path) -> None:
    limits = Limits(max_document_bytes=2000)
    example = ROOT / "schemas" / "skills" / "examples" / "SkillDescriptor.1.json"
    doc = json.dumps(json.loads(example.read_text()))
    assert len(doc) < 2000
    at_edge = doc + " " * (2000 - len(doc.encode()))
    assert parse(at_edge, limits=limits).id
    with pytest.raises(ValidationError, match="max_document_bytes"):
        parse(at_edge + " ", limits=limits)
    text = (ROOT / "schemas" / "ai_protocol" / "providers" / "openai.json").read_bytes()
    file = tmp_path / "m.json"
    file.write_bytes(text)
    assert Manifest.load(file, limits=Limits(max_document_bytes=len(text))).id
    with pytest.raises(ManifestError, match="max_document_bytes"):
        Manifest.load(file, limits=Limits(max_document_bytes=len(text) - 1))


# -- JSON-RPC -----------------------------------------------------------------------------------


class Pipe:
    """A writer that keeps what is written (lines out of a Connection)."""

    def __init__(self) -> None:
        self.lines: list[dict[str, Any]] = []

    def write(self, data: bytes) -> None:
        self.lines += [json.loads(line) for line in data.splitlines() if line]

    async def drain(self) -> None:
        return None

    def close(self) -> None:
        return None


class Held:
    """A dispatcher whose requests wait for ``release``; it records how many run at once."""

    def __init__(self) -> None:
        self.release = asyncio.Event()
        self.running = 0
        self.most = 0
        self.order: list[int] = []

    async def request(self, method: str, params: Any) -> Any:
        self.running += 1
        self.most = max(self.most, self.running)
        self.order.append(params["n"])
        await self.release.wait()
        self.running -= 1
        return RawJSON(b'{"ok":true}')

    async def notify(self, method: str, params: Any) -> None:
        return None


def test_incoming_requests_past_the_cap_wait_in_order() -> None:
    """200,000 requests made 200,000 handler tasks (677 MiB). At most
    ``max_incoming_requests`` run; the rest wait in order and reading pauses."""

    async def main() -> None:
        pipe = Pipe()
        held = Held()
        connection = Connection(None, pipe, held, limits=Limits(max_incoming_requests=4))
        connection.start()
        lines = b"".join(
            b'{"jsonrpc":"2.0","id":%d,"method":"m","params":{"n":%d}}\n' % (i, i)
            for i in range(10)
        )
        connection.feed(lines)
        await asyncio.sleep(0.01)
        assert held.running == 4 and connection._resumed is not None  # reading paused
        connection.feed(b'{"jsonrpc":"2.0","method":"$/cancel_request","params":{"requestId":9}}\n')
        await asyncio.sleep(0.01)
        assert pipe.lines[-1]["id"] == 9 and pipe.lines[-1]["error"]["code"] == -32800
        held.release.set()
        for _ in range(100):
            if len(pipe.lines) == 10:
                break
            await asyncio.sleep(0.01)
        assert held.most == 4 and held.order == list(range(9))
        assert sorted(line["id"] for line in pipe.lines) == list(range(10))
        assert connection._resumed is None  # reading resumed
        await connection.close()

    asyncio.run(main())


def test_message_limit_at_its_edge() -> None:
    async def main() -> None:
        pipe = Pipe()
        held = Held()
        held.release.set()
        connection = Connection(None, pipe, held, limits=Limits(max_message_bytes=100))
        connection.start()
        line = b'{"jsonrpc":"2.0","id":1,"method":"m","params":{"n":1,"pad":"'
        line += b"x" * (100 - len(line) - 3) + b'"}}'
        assert len(line) == 100
        for i in range(0, len(line), 9):  # arriving in pieces: the limit is on the line
            connection.feed(line[i : i + 9])
        connection.feed(b"\n")
        await asyncio.sleep(0.01)
        assert [m["id"] for m in pipe.lines] == [1]
        big = line.replace(b'"n":1', b'"n":22')
        for i in range(0, len(big), 9):
            connection.feed(big[i : i + 9])
        connection.feed(b"\n")
        connection.feed(big + b"\n" + line + b"\n")  # whole, in one chunk: the same
        await asyncio.sleep(0.01)
        assert [m["id"] for m in pipe.lines] == [1, None, None, 1]  # dropped, never handled
        refused = pipe.lines[1]["error"]
        assert refused["code"] == -32600 and "max_message_bytes" in refused["message"]
        await connection.close()

    asyncio.run(main())


# -- issue 40: an endless LLM answer, an empty error path --------------------------------------


def test_an_endless_streamed_answer_is_cut_at_max_body_bytes(script: Script) -> None:
    from agentproto.llm import LLMClient

    piece = b"x" * 4096
    frame = b'data: {"choices":[{"index":0,"delta":{"content":"' + piece + b'"}}]}\n\n'
    script.answer(
        Answer(chunks=[frame * 8], delay=0.0, forever=True, content_type="text/event-stream")
    )
    limits = Limits(max_body_bytes=1024 * 1024)
    tracemalloc.start()
    try:
        with LLMClient(
            "openai", api_key="sk-test-limits", base_url=script.base_url, limits=limits
        ) as llm:
            with llm.stream([{"role": "user", "content": "go"}], model="gpt-4o") as stream:
                with pytest.raises(ResponseTooLargeError, match="max_body_bytes") as caught:
                    stream.final_response()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert caught.value.limit == "max_body_bytes"
    assert peak < 32 * 1024 * 1024  # 507 MiB in 20 s before: held to the limit (and some)


def test_an_empty_error_path_is_a_manifest_error_not_an_assertion() -> None:
    import yaml

    root = Path(__file__).resolve().parent.parent
    path = root / "schemas" / "ai_protocol" / "v1" / "providers" / "spark.yaml"
    data: dict[str, Any] = yaml.safe_load(path.read_text("utf-8"))
    data["features"]["response_mapping"]["error"]["code_path"] = ""
    with pytest.raises(ManifestError) as caught:
        Manifest.from_dict(data, source="x.yaml")
    assert caught.value.pointer == "/features/response_mapping/error/code_path"
