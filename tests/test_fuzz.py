"""Fuzzing in the suite (issue 25): every parser and decoder a peer can reach, fed what
hypothesis makes of plausible and hostile input, cut into chunks every way. Each property
asserts the same three things:

- only the package's typed errors come out (never RecursionError, KeyError, a bare
  ValueError, yaml's or pydantic's own exceptions);
- the outcome (the events, or the error's type) is the same for every chunking;
- each example takes bounded time and memory.

CI replays a fixed, small budget (the suite's profile is derandomized); ``nox -s explore``
(HYPOTHESIS_PROFILE=explore) draws fresh examples, ten times as many.
"""

from __future__ import annotations

import asyncio
import copy
import itertools
import json
import os
import re
import tempfile
import time
import tracemalloc
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import httpx
import pytest
from agentproto import Limits
from agentproto._runtime.flows import FlowError, FlowRunner, as_result
from agentproto._runtime.http_errors import ResponseTooLargeError, ResponseValidationError
from agentproto._runtime.jsonrpc import Connection
from agentproto._runtime.limits import LimitError
from agentproto._runtime.sse import ServerSentEvent, SSEDecoder
from agentproto._runtime.streaming import UnknownEvent
from agentproto.aap import client as aap_client
from agentproto.aap.turns import fold_events
from agentproto.flows import giphy
from agentproto.llm import Manifest, ManifestError
from agentproto.llm.streaming import StreamDecoder, StreamFormatError, compile_stream
from agentproto.skills.documents import parse, validate
from agentproto.skills.errors import SkillSharingError
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

T = TypeVar("T")
EXPLORE = os.environ.get("HYPOTHESIS_PROFILE") == "explore"
FUZZ = settings(
    max_examples=600 if EXPLORE else 60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
MiB = 1024 * 1024
SMALL = Limits(
    max_sse_line_bytes=160,
    max_sse_event_bytes=320,
    max_json_depth=12,
    max_document_bytes=4096,
    max_message_bytes=512,
)


def bounded(work: Callable[[], T], seconds: float = 2.0, memory: int = 32 * MiB) -> T:
    """Run ``work``; fail when it takes longer than ``seconds`` or allocates more than
    ``memory`` bytes at its peak."""
    tracemalloc.start()
    started = time.perf_counter()
    try:
        return work()
    finally:
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        elapsed = time.perf_counter() - started
        assert elapsed < seconds, f"took {elapsed:.2f} s"
        assert peak < memory, f"peaked at {peak / MiB:.1f} MiB"


def cut(data: bytes, points: list[int]) -> list[bytes]:
    """``data`` cut at ``points`` (positions, any order, repeats allowed)."""
    marks = sorted({0, len(data), *(p % (len(data) + 1) for p in points)})
    return [data[a:b] for a, b in itertools.pairwise(marks) if b > a]


def outcome(work: Callable[[], Any], allowed: tuple[type[BaseException], ...]) -> tuple[str, Any]:
    """``("ok", result)`` or ``("error", its type name)`` for the allowed error types; any
    other exception fails the test."""
    try:
        return "ok", work()
    except allowed as exc:
        return "error", type(exc).__name__


def same_for_every_chunking(
    run: Callable[[list[bytes]], Any],
    data: bytes,
    points: list[list[int]],
    allowed: tuple[type[BaseException], ...],
) -> None:
    whole = bounded(lambda: outcome(lambda: run([data]), allowed))
    single = bounded(
        lambda: outcome(lambda: run([data[i : i + 1] for i in range(len(data))]), allowed)
    )
    assert single == whole
    for cuts in points:
        assert bounded(lambda c=cuts: outcome(lambda: run(cut(data, c)), allowed)) == whole


TEXT = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=24)
JSON: st.SearchStrategy[Any] = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**6), 10**6) | TEXT,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXT, inner, max_size=4),
    max_leaves=12,
)
GARBAGE = st.binary(max_size=40) | st.sampled_from(
    [b"\xff\xfe", b"\xc3", b"\xe6\x97", b"[" * 40, b"{" * 30, b"\r", b"\r\n", b"\n\n", b":"]
)
POINTS = st.lists(st.lists(st.integers(0, 10_000), max_size=8), min_size=1, max_size=2)


# -- SSE (the runtime decoder: AAP and every SSE stream) ----------------------------------------

SSE_LINE = st.one_of(
    st.tuples(st.sampled_from(["data", "event", "id", "retry", "", "other"]), TEXT).map(
        lambda kv: f"{kv[0]}:{' ' if len(kv[1]) % 2 else ''}{kv[1]}".encode()
    ),
    st.just(b"retry: " + b"7" * 5000),
    st.just(b"data: " + b"x" * 200),  # past the line limit
    st.just(b""),
    GARBAGE,
)
ENDINGS = st.sampled_from([b"\n", b"\r", b"\r\n"])


@FUZZ
@given(st.lists(st.tuples(SSE_LINE, ENDINGS), max_size=30), POINTS)
def test_sse_decoder(lines: list[tuple[bytes, bytes]], points: list[list[int]]) -> None:
    data = b"".join(line + end for line, end in lines)

    def run(chunks: list[bytes]) -> list[ServerSentEvent]:
        decoder = SSEDecoder(SMALL)
        events = [e for c in chunks for e in decoder.feed(c)]
        return events + decoder.close()

    same_for_every_chunking(run, data, points, (LimitError,))


# -- the LLM stream decoder, for each format ----------------------------------------------------

OPENAI_FRAME = st.fixed_dictionaries(
    {
        "choices": st.lists(
            st.fixed_dictionaries(
                {
                    "index": st.integers(0, 2),
                    "delta": st.dictionaries(
                        st.sampled_from(["content", "tool_calls", "reasoning_content", "role"]),
                        JSON,
                        max_size=2,
                    ),
                },
                optional={"finish_reason": st.sampled_from(["stop", "length", "tool_calls", None])},
            ),
            max_size=2,
        )
    },
    optional={"usage": JSON, "error": JSON},
)
ANTHROPIC_FRAME = st.fixed_dictionaries(
    {
        "type": st.sampled_from(
            [
                "message_start",
                "content_block_start",
                "content_block_delta",
                "content_block_stop",
                "message_delta",
                "message_stop",
                "error",
                "ping",
            ]
        )
    },
    optional={
        "index": st.integers(0, 3),
        "delta": st.dictionaries(
            st.sampled_from(["type", "text", "partial_json", "stop_reason", "thinking"]),
            TEXT,
            max_size=3,
        ),
        "content_block": st.dictionaries(
            st.sampled_from(["type", "id", "name", "input"]), JSON, max_size=3
        ),
        "message": JSON,
        "usage": JSON,
        "error": JSON,
    },
)
GEMINI_FRAME = st.fixed_dictionaries(
    {
        "candidates": st.lists(
            st.fixed_dictionaries(
                {
                    "index": st.integers(0, 2),
                    "content": st.fixed_dictionaries(
                        {
                            "parts": st.lists(
                                st.dictionaries(
                                    st.sampled_from(["text", "functionCall", "thought"]),
                                    JSON,
                                    max_size=2,
                                ),
                                max_size=2,
                            )
                        }
                    ),
                },
                optional={"finishReason": st.sampled_from(["STOP", "MAX_TOKENS", "SAFETY"])},
            ),
            max_size=2,
        )
    },
    optional={"usageMetadata": JSON},
)


def _cohere_program() -> Any:
    data = copy.deepcopy(dict(Manifest.bundled("openai").data))
    data["streaming"]["decoder"] = {"format": "cohere_native", "done_signal": "[DONE]"}
    return compile_stream(data, "fuzz: openai as newline-delimited JSON")


PROGRAMS: dict[str, Callable[[], Any]] = {
    "sse": lambda: Manifest.bundled("openai").stream,
    "anthropic_sse": lambda: Manifest.bundled("anthropic").stream,
    "cohere_native": _cohere_program,
    "gemini_json": lambda: Manifest.bundled("gemini@v2").stream,
}
_CALL_ID = re.compile(r"call_[0-9a-f]{24}")


def normalised(events: list[Any]) -> list[str]:
    """Events as text, ids the decoder made up replaced by their order of appearance."""
    seen: dict[str, str] = {}
    return [
        _CALL_ID.sub(lambda m: seen.setdefault(m.group(0), f"call#{len(seen)}"), repr(e))
        for e in events
    ]


def llm_body(fmt: str, frames: list[Any], extras: list[bytes], done: bool) -> bytes:
    items: list[bytes] = []
    for i, frame in enumerate(frames):
        text = json.dumps(frame, ensure_ascii=False).encode()
        if fmt == "anthropic_sse":
            items.append(
                b"event: " + str(frame.get("type", "x")).encode() + b"\ndata: " + text + b"\n\n"
            )
        elif fmt == "sse":
            items.append(b"data: " + text + b"\n\n")
        elif fmt == "cohere_native":
            items.append(text + b"\n")
        else:
            items.append((b"[" if i == 0 else b",\r\n") + text)
        if i < len(extras):
            items.append(extras[i])
    if fmt == "gemini_json":
        items.append(b"]")
    elif done:
        items.append(b"data: [DONE]\n\n" if fmt != "cohere_native" else b"[DONE]\n")
    return b"".join(items)


@pytest.mark.parametrize("fmt", sorted(PROGRAMS))
@FUZZ
@given(data=st.data(), points=POINTS, done=st.booleans())
def test_llm_stream_decoder(
    fmt: str, data: st.DataObject, points: list[list[int]], done: bool
) -> None:
    frame = {"sse": OPENAI_FRAME, "cohere_native": OPENAI_FRAME}.get(
        fmt, ANTHROPIC_FRAME if fmt == "anthropic_sse" else GEMINI_FRAME
    )
    frames = data.draw(st.lists(frame, max_size=6))
    extras = data.draw(st.lists(GARBAGE, max_size=3))
    body = llm_body(fmt, frames, extras, done)
    program = PROGRAMS[fmt]()
    limits = Limits(max_sse_event_bytes=2048, max_json_depth=12)

    def run(chunks: list[bytes]) -> list[str]:
        decoder = StreamDecoder(program, limits)
        events = [e for c in chunks for e in decoder.feed(c)]
        events += decoder.end_of_body()
        if decoder.complete:
            events += decoder.finish()
        return normalised(events)

    same_for_every_chunking(run, body, points, (ResponseTooLargeError, StreamFormatError))


# -- JSON-RPC -----------------------------------------------------------------------------------


class _Pipe:
    def __init__(self) -> None:
        self.out: list[bytes] = []

    def write(self, data: bytes) -> None:
        self.out.append(data)

    async def drain(self) -> None:
        return None

    def close(self) -> None:
        return None


class _Echo:
    async def request(self, method: str, params: Any) -> Any:
        if method == "boom":
            raise RuntimeError("handler failed")
        return {"method": method, "params": params}

    async def notify(self, method: str, params: Any) -> None:
        return None


RPC_LINE = st.one_of(
    st.builds(
        lambda i, m, p: json.dumps({"jsonrpc": "2.0", "id": i, "method": m, "params": p}).encode(),
        st.integers(0, 50) | TEXT | st.booleans() | st.none(),
        st.sampled_from(["m", "boom", "$/cancel_request", ""]) | TEXT,
        JSON,
    ),
    st.builds(lambda p: json.dumps({"jsonrpc": "2.0", "method": "n", "params": p}).encode(), JSON),
    st.builds(lambda v: json.dumps(v).encode(), JSON),
    st.just(b"[" * 300 + b"]" * 300),
    st.just(b'{"jsonrpc":"2.0","id":1,"method":"m","params":{"n":NaN}}'),
    st.just(b'{"jsonrpc":"2.0","id":2,"method":"m","params":"' + b"x" * 600 + b'"}'),
    GARBAGE,
)


@FUZZ
@given(st.lists(RPC_LINE, max_size=20), POINTS)
def test_jsonrpc_connection(lines: list[bytes], points: list[list[int]]) -> None:
    data = b"\n".join(line.replace(b"\n", b" ") for line in lines) + b"\n"

    def run(chunks: list[bytes]) -> list[Any]:
        async def main() -> list[Any]:
            pipe = _Pipe()
            connection = Connection(None, pipe, _Echo(), limits=SMALL)
            connection.start()
            for chunk in chunks:
                connection.feed(chunk)
            await asyncio.sleep(0)
            await connection.close()
            return [json.loads(line) for line in b"".join(pipe.out).splitlines()]

        return asyncio.run(main())

    same_for_every_chunking(run, data, points, ())


# -- skills documents ---------------------------------------------------------------------------

ROOT = Path(__file__).resolve().parent.parent
DESCRIPTOR: dict[str, Any] = json.loads(
    (ROOT / "schemas" / "skills" / "examples" / "SkillDescriptor.1.json").read_text()
)


def mutated(document: dict[str, Any], path: list[str], value: Any) -> dict[str, Any]:
    """``document`` with the value at the first keys of ``path`` that exist replaced."""
    copied = copy.deepcopy(document)
    node: Any = copied
    for i, key in enumerate(path):
        if not isinstance(node, dict) or not node:
            break
        # crc32, not hash(): a string's hash() changes with PYTHONHASHSEED, so each run would
        # mutate other fields and the examples would differ from run to run
        name = sorted(node)[zlib.crc32(key.encode()) % len(node)] if key not in node else key
        if i == len(path) - 1 or not isinstance(node[name], dict):
            node[name] = value
            break
        node = node[name]
    return copied


MODEL_FORMATS = frozenset(
    {
        "datetime_from_date_parsing",
        "datetime_parsing",
        "datetime_type",
        "timezone_aware",
        "uri_syntax",  # agentproto.Url
    }
)
"""pydantic's error types for the JSON Schema formats the Skill Sharing models check."""


@FUZZ
@given(st.lists(TEXT, min_size=1, max_size=3), JSON, GARBAGE)
@example(["created_at"], "", b"")  # a date-time the schema only names: parse() refuses it
@example(["provider", "url"], "not a url", b"")
def test_skills_documents(path: list[str], value: Any, garbage: bytes) -> None:
    document = mutated(DESCRIPTOR, path, value)
    text = json.dumps(document)
    for shape in (document, text, text.encode() + garbage, garbage):

        def check(doc: Any = shape) -> None:
            report = validate(doc, limits=SMALL)
            try:
                parse(doc, limits=SMALL)
            except SkillSharingError as exc:
                if report.valid and not isinstance(doc, bytes | str):
                    # the formats the schema only names (date-time, uri) are checked by the
                    # model: parse() may refuse what validate() accepts, for those alone
                    errors = (exc.details or {}).get("errors") or []
                    kinds = {str(e.get("expected")) for e in errors}
                    assert kinds and kinds <= MODEL_FORMATS, exc.details
            else:
                assert report.valid

        bounded(check)


# -- manifests ----------------------------------------------------------------------------------

OPENAI: dict[str, Any] = json.loads(json.dumps(Manifest.bundled("openai").raw))


@FUZZ
@given(st.lists(TEXT, min_size=1, max_size=3), JSON, GARBAGE, st.booleans())
def test_manifests(path: list[str], value: Any, garbage: bytes, yaml_file: bool) -> None:
    document = mutated(OPENAI, path, value)

    def load() -> None:
        try:
            Manifest.from_dict(
                document, source="fuzz", limits=SMALL.replace(max_document_bytes=MiB)
            )
        except ManifestError:
            pass

    bounded(load)
    with tempfile.TemporaryDirectory() as folder:
        file = Path(folder) / ("m.yaml" if yaml_file else "m.json")
        file.write_bytes(json.dumps(document).encode() + garbage)

        def load_file() -> None:
            try:
                Manifest.load(file, limits=SMALL.replace(max_document_bytes=MiB))
            except ManifestError:
                pass

        bounded(load_file)


# -- flow responses -----------------------------------------------------------------------------

FLOW = next(f for f in giphy.PLAN["flows"] if f["id"] == "get_trending_gifs_flow")


@FUZZ
@given(JSON, GARBAGE, st.booleans())
def test_flow_responses(value: Any, garbage: bytes, as_text: bool) -> None:
    runner = FlowRunner(giphy.PLAN)
    body = garbage if as_text else json.dumps(value).encode()
    if not as_text and isinstance(value, dict) and value:
        body = json.dumps({"data": value, "meta": value, "pagination": value}).encode()

    def run() -> None:
        run_ = runner.start(FLOW, {})
        try:
            for action in FLOW["actions"]:
                request = httpx.Request("GET", "http://flows.invalid/")
                runner.received(
                    run_, action, httpx.Response(200, content=body, request=request), SMALL
                )
            raw = runner.finish(run_)
            as_result(giphy.GetTrendingGifsFlowResult.model_validate, raw, FLOW["id"])
        except FlowError:
            pass

    bounded(run)


# -- AAP events ---------------------------------------------------------------------------------

EVENT_NAMES = (
    st.sampled_from(
        [
            "turn_start",
            "turn_stop",
            "text_delta",
            "text",
            "tool_call",
            "tool_call_delta",
            "thinking_delta",
            "tool_result",
            "brand_new",
        ]
    )
    | TEXT
)


@FUZZ
@given(
    st.lists(st.tuples(EVENT_NAMES, JSON | TEXT), max_size=12),
    st.sampled_from(["delta", "message"]),
)
def test_aap_events(items: list[tuple[str, Any]], mode: str) -> None:
    parse_event = aap_client._CREATE_TURN_EVENTS[mode]

    def run() -> None:
        parsed: list[Any] = []
        for name, data in items:
            text = data if isinstance(data, str) else json.dumps(data)
            try:
                item = parse_event(ServerSentEvent(name or "message", text, None, None))
            except ResponseValidationError:
                continue
            if item is not None:
                parsed.append(item)
        result = fold_events(parsed)
        unknown = [p for p in parsed if isinstance(p, UnknownEvent)]
        assert len(result.unknown_events) == len(unknown)  # kept, never dropped

    bounded(run)
