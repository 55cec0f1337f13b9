"""LLM stream decoding: our manifest-driven client against the openai SDK and ai-lib-python.

Run from the repository root:  python benchmarks/bench_llm.py [--chunks 20000] [--repeat 7]

A static loopback HTTP server (a separate asyncio process, so it shares no GIL with the clients and
only copies pre-built bytes) answers every POST with an OpenAI ``chat.completion.chunk`` stream:
a first chunk with ``delta.role``, content chunks, a final chunk carrying ``finish_reason: "stop"``
and ``usage`` together, then ``data: [DONE]``. Paths under ``/small/`` get a 20-chunk stream
(used for time to first token); everything else gets the --chunks stream.

Contenders (each reuses one client, so connections stay warm; one untimed warm-up request first):

- openai SDK: ``OpenAI(...).chat.completions.create(..., stream=True)`` (and ``AsyncOpenAI``);
- ai-lib-python: ``AiClient`` (async only) on this repository's openai manifest, copied into a
  temporary protocol directory (``<dir>/v1/providers/openai.json``) so nothing is fetched;
- raw httpx: ``iter_lines`` + ``json.loads`` by hand (sync and async), the practical ceiling;
- ours: ``agentproto.llm.LLMClient`` / ``AsyncLLMClient`` (skipped with a note if not there yet),
  with telemetry absent (no OpenTelemetry SDK configured: the API's no-op tracer, so no span and
  no per-event step), and again as "ours + OTel" with the OpenTelemetry SDK recording a span and
  the GenAI metrics per request into an in-memory exporter and metric reader (the overhead of
  telemetry switched on; the ratio "ours + OTel / ours" is printed).

Every contender must return the full text (and is reported as FAILED otherwise), so a broken
decoder cannot look fast. Prints chunks/s (median and best of --repeat full requests), time to
first content delta (median of --ttft-runs on the small stream), import times (fresh interpreter,
median of 7 interleaved runs) and the ratios ours / openai and ai-lib / openai. Throughput is
also given per second of the client process's CPU time (``time.process_time``): on a shared,
loaded machine wall-clock figures swing with the neighbours, CPU time much less.

Every peer is part of the test extras; a peer that is missing or breaks is reported and the run
exits 1 (after printing what it measured), so ``--smoke`` (one tiny round: 200 chunks, one
request, one fresh interpreter per import; the suite runs it so the benchmark cannot rot)
fails clearly instead of quietly measuring less.

The stream is sent as the real API sends it, one HTTP chunk per SSE event (``--content-length``
sends one body instead, which flatters every reader). Contenders run in --repeat alternated
rounds (benchmarks/rounds.py), and ours against raw httpx is printed per round (min / median /
max of the rounds' ratios, wall and CPU) with the load average. Expect ai-lib-python 1.2 to
FAIL the text check then: it decodes every byte chunk on its own
(``errors="replace"``), so a multi-byte character split across two reads becomes U+FFFD.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import (
    AbstractAsyncContextManager,
    AbstractContextManager,
    asynccontextmanager,
    contextmanager,
)
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from rounds import load, ratio_line

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "generated"))

MANIFEST = ROOT / "schemas" / "ai_protocol" / "providers" / "openai.json"
MODEL = "gpt-4o-mini"
MESSAGES: list[dict[str, Any]] = [{"role": "user", "content": "hi"}]
API_KEY = "sk-test"
SMALL_CHUNKS = 20
# Ours may be missing or half-wired while it is being written: these mean "not available yet".
NOT_READY = (ImportError, AttributeError, NotImplementedError, TypeError)

SERVER = r"""
import asyncio, sys

big = open(sys.argv[1], "rb").read()
small = open(sys.argv[2], "rb").read()

async def handle(reader, writer):
    try:
        while True:
            head = await reader.readuntil(b"\r\n\r\n")
            request_line, _, headers = head.partition(b"\r\n")
            length = 0
            for line in headers.split(b"\r\n"):
                name, _, value = line.partition(b":")
                if name.strip().lower() == b"content-length":
                    length = int(value)
            if length:
                await reader.readexactly(length)
            writer.write(small if b" /small/" in request_line else big)
            await writer.drain()
    except (asyncio.IncompleteReadError, asyncio.LimitOverrunError, ConnectionError):
        pass
    finally:
        writer.close()

async def main():
    server = await asyncio.start_server(handle, "127.0.0.1", 0, limit=1 << 20)
    print(server.sockets[0].getsockname()[1], flush=True)
    await server.serve_forever()

asyncio.run(main())
"""

# ---------------------------------------------------------------------------------------------
# the stream


WORDS = [
    " The", " quick", " brown", " fox", " jumps", " over", " the", " lazy", " dog", ".", "\n\n",
    ' "quoted"', " café", " naïve", " 東京", " 🙂", " tab\t", " back\\slash", " 42", ",",
]  # fmt: skip
BASE_CHUNK: dict[str, Any] = {
    "id": "chatcmpl-B9MHDbslfkBeAs8l4bebGdFOJ6PeG",
    "object": "chat.completion.chunk",
    "created": 1741570283,
    "model": "gpt-4o-mini-2024-07-18",
    "service_tier": "default",
    "system_fingerprint": "fp_06737a9306",
}


def sse_chunk(delta: dict[str, Any], finish: str | None = None, usage: Any = None) -> bytes:
    choice = {"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}
    chunk: dict[str, Any] = {**BASE_CHUNK, "choices": [choice]}
    if usage is not None:
        chunk["usage"] = usage
    data = json.dumps(chunk, ensure_ascii=False, separators=(",", ":"))
    return b"data: " + data.encode() + b"\n\n"


def make_events(count: int) -> tuple[list[bytes], str]:
    """``count`` chunks (role chunk, content chunks, final stop+usage chunk) and [DONE]."""
    assert count >= 3, "need at least a role chunk, one content chunk and a final chunk"
    words = [WORDS[i % len(WORDS)] for i in range(count - 2)]
    usage = {
        "prompt_tokens": 8,
        "completion_tokens": len(words),
        "total_tokens": len(words) + 8,
        "prompt_tokens_details": {"cached_tokens": 0, "audio_tokens": 0},
        "completion_tokens_details": {"reasoning_tokens": 0, "audio_tokens": 0},
    }
    events = [sse_chunk({"role": "assistant", "content": "", "refusal": None})]
    events += [sse_chunk({"content": word}) for word in words]
    events.append(sse_chunk({}, "stop", usage))
    events.append(b"data: [DONE]\n\n")
    return events, "".join(words)


def http_response(events: list[bytes], chunked: bool) -> bytes:
    head = (
        "HTTP/1.1 200 OK\r\n"
        "content-type: text/event-stream; charset=utf-8\r\n"
        "cache-control: no-cache\r\n"
        "x-request-id: req_bench\r\n"
    )
    if chunked:  # one HTTP chunk per SSE event, as the real API sends them
        framed = b"".join(b"%x\r\n%s\r\n" % (len(event), event) for event in events)
        return (head + "transfer-encoding: chunked\r\n\r\n").encode() + framed + b"0\r\n\r\n"
    body = b"".join(events)
    return (head + f"content-length: {len(body)}\r\n\r\n").encode() + body


# ---------------------------------------------------------------------------------------------
# readers: each returns what it saw, and when it saw the first piece of text


@dataclass
class Outcome:
    text: str
    first: float  # perf_counter() at the first non-empty content delta
    finish: str | None = None
    usage: bool = False


class Collector:
    """What every contender does per event: collect text, note the first token and the end."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.first = math.nan
        self.finish: str | None = None
        self.usage = False

    def text(self, piece: str | None) -> None:
        if piece:
            if not self.parts:
                self.first = time.perf_counter()
            self.parts.append(piece)

    def end(self, finish: Any, usage: Any) -> None:
        if finish:
            self.finish = str(getattr(finish, "value", finish))
        if usage:
            self.usage = True

    def outcome(self) -> Outcome:
        return Outcome("".join(self.parts), self.first, self.finish, self.usage)


SyncReader = Callable[[], Outcome]
AsyncReader = Callable[[], Awaitable[Outcome]]
SyncFactory = Callable[[str], AbstractContextManager[SyncReader]]
AsyncFactory = Callable[[str], AbstractAsyncContextManager[AsyncReader]]


@contextmanager
def openai_sync(base_url: str) -> Iterator[SyncReader]:
    from openai import OpenAI
    from openai.types.chat import ChatCompletionMessageParam

    messages: list[ChatCompletionMessageParam] = [{"role": "user", "content": "hi"}]
    client = OpenAI(base_url=base_url, api_key=API_KEY, max_retries=0)

    def read() -> Outcome:
        c = Collector()
        stream = client.chat.completions.create(model=MODEL, messages=messages, stream=True)
        for chunk in stream:
            if chunk.choices:
                choice = chunk.choices[0]
                c.text(choice.delta.content)
                c.end(choice.finish_reason, None)
            c.end(None, chunk.usage)
        return c.outcome()

    try:
        yield read
    finally:
        client.close()


@asynccontextmanager
async def openai_async(base_url: str) -> AsyncIterator[AsyncReader]:
    from openai import AsyncOpenAI
    from openai.types.chat import ChatCompletionMessageParam

    messages: list[ChatCompletionMessageParam] = [{"role": "user", "content": "hi"}]
    client = AsyncOpenAI(base_url=base_url, api_key=API_KEY, max_retries=0)

    async def read() -> Outcome:
        c = Collector()
        stream = await client.chat.completions.create(model=MODEL, messages=messages, stream=True)
        async for chunk in stream:
            if chunk.choices:
                choice = chunk.choices[0]
                c.text(choice.delta.content)
                c.end(choice.finish_reason, None)
            c.end(None, chunk.usage)
        return c.outcome()

    try:
        yield read
    finally:
        await client.close()


def raw_line(c: Collector, line: str) -> bool:
    """Handle one line of the stream; False at ``data: [DONE]``."""
    if line.startswith("data:"):
        data = line[5:].lstrip()
        if data == "[DONE]":
            return False
        chunk = json.loads(data)
        choices = chunk.get("choices")
        if choices:
            choice = choices[0]
            c.text(choice["delta"].get("content"))
            c.end(choice.get("finish_reason"), None)
        c.end(None, chunk.get("usage"))
    return True


RAW_HEADERS = {"authorization": f"Bearer {API_KEY}", "accept": "text/event-stream"}
RAW_BODY = {"model": MODEL, "messages": MESSAGES, "stream": True}


@contextmanager
def raw_sync(base_url: str) -> Iterator[SyncReader]:
    client = httpx.Client(timeout=60)
    url = base_url + "/chat/completions"

    def read() -> Outcome:
        c = Collector()
        with client.stream("POST", url, json=RAW_BODY, headers=RAW_HEADERS) as response:
            response.raise_for_status()
            for line in response.iter_lines():
                if not raw_line(c, line):
                    break
        return c.outcome()

    try:
        yield read
    finally:
        client.close()


@asynccontextmanager
async def raw_async(base_url: str) -> AsyncIterator[AsyncReader]:
    client = httpx.AsyncClient(timeout=60)
    url = base_url + "/chat/completions"

    async def read() -> Outcome:
        c = Collector()
        async with client.stream("POST", url, json=RAW_BODY, headers=RAW_HEADERS) as response:
            response.raise_for_status()
            async for line in response.aiter_lines():
                if not raw_line(c, line):
                    break
        return c.outcome()

    try:
        yield read
    finally:
        await client.aclose()


@asynccontextmanager
async def ai_lib(base_url: str) -> AsyncIterator[AsyncReader]:
    from ai_lib_python import AiClient, Message

    # AiClient resolves "openai/<model>" through a ProtocolLoader: an explicit protocol_path is
    # searched for v1/providers/openai.json (without one it tries ./ai-protocol, then GitHub).
    protocols = Path(tempfile.mkdtemp(prefix="ai-lib-protocols-"))
    (protocols / "v1" / "providers").mkdir(parents=True)
    shutil.copy(MANIFEST, protocols / "v1" / "providers" / "openai.json")
    client = await (
        AiClient.builder()
        .model(f"openai/{MODEL}")
        .protocol_path(str(protocols))
        .api_key(API_KEY)
        .base_url(base_url)
        .timeout(60)
        .build()
    )
    messages = [Message.user(m["content"]) for m in MESSAGES]

    async def read() -> Outcome:
        c = Collector()
        async for event in client.chat().messages(messages).stream():
            if event.is_content_delta:
                c.text(event.as_content_delta.content)
            else:
                data = event.data
                c.end(getattr(data, "finish_reason", None), getattr(data, "usage", None))
        return c.outcome()

    try:
        yield read
    finally:
        await client.close()
        shutil.rmtree(protocols, ignore_errors=True)


def otel_sdk() -> Any:
    """A :class:`Telemetry` on the OpenTelemetry SDK: spans into an in-memory exporter, metrics
    into an in-memory reader (what an application with an exporter configured pays for)."""
    from agentproto._runtime.telemetry import Telemetry
    from opentelemetry.sdk.metrics import MeterProvider
    from opentelemetry.sdk.metrics.export import InMemoryMetricReader
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

    tracer_provider = TracerProvider()
    tracer_provider.add_span_processor(SimpleSpanProcessor(InMemorySpanExporter()))
    meter_provider = MeterProvider(metric_readers=[InMemoryMetricReader()])
    return Telemetry(
        "agentproto.llm", tracer_provider=tracer_provider, meter_provider=meter_provider
    )


@contextmanager
def ours_otel_sync(base_url: str) -> Iterator[SyncReader]:
    with ours_sync(base_url, telemetry=otel_sdk()) as read:
        yield read


@asynccontextmanager
async def ours_otel_async(base_url: str) -> AsyncIterator[AsyncReader]:
    async with ours_async(base_url, telemetry=otel_sdk()) as read:
        yield read


@contextmanager
def ours_sync(base_url: str, telemetry: Any = True) -> Iterator[SyncReader]:
    from agentproto.llm import LLMClient
    from agentproto.llm.events import PartialContentDelta

    client = LLMClient("openai", api_key=API_KEY, base_url=base_url, telemetry=telemetry)

    def read() -> Outcome:
        c = Collector()
        with client.stream(MESSAGES, model=MODEL) as stream:
            for event in stream:
                if isinstance(event, PartialContentDelta):
                    c.text(event.content)
                else:
                    c.end(getattr(event, "finish_reason", None), getattr(event, "usage", None))
        return c.outcome()

    try:
        yield read
    finally:
        close = getattr(client, "close", None)
        if callable(close):
            close()


@asynccontextmanager
async def ours_async(base_url: str, telemetry: Any = True) -> AsyncIterator[AsyncReader]:
    from agentproto.llm import AsyncLLMClient
    from agentproto.llm.events import PartialContentDelta

    client = AsyncLLMClient("openai", api_key=API_KEY, base_url=base_url, telemetry=telemetry)

    async def read() -> Outcome:
        c = Collector()
        async with client.stream(MESSAGES, model=MODEL) as stream:
            async for event in stream:
                if isinstance(event, PartialContentDelta):
                    c.text(event.content)
                else:
                    c.end(getattr(event, "finish_reason", None), getattr(event, "usage", None))
        return c.outcome()

    try:
        yield read
    finally:
        close = getattr(client, "aclose", None) or getattr(client, "close", None)
        if callable(close):
            result = close()
            if asyncio.iscoroutine(result):
                await result


# ---------------------------------------------------------------------------------------------
# measuring


@dataclass
class Result:
    name: str
    walls: list[float] = field(default_factory=list)  # one full request + stream read each
    cpus: list[float] = field(default_factory=list)  # the client process's CPU time for each
    ttfts: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    finish: str | None = None
    usage: bool = False

    def check(self, got: Outcome, expected: str, what: str) -> None:
        if got.text != expected:
            self.errors.append(
                f"{what}: wrong text ({len(got.text)} chars, expected {len(expected)})"
            )
        self.finish, self.usage = got.finish, got.usage


@dataclass
class Target:
    big_url: str
    small_url: str
    big_text: str
    small_text: str
    repeat: int
    ttft_runs: int


def measure_sync(result: Result, factory: SyncFactory, t: Target) -> Result:
    with factory(t.big_url) as big, factory(t.small_url) as small:
        small()  # warm-up: connection, lazy imports, first-use caches
        big()
        for _ in range(t.repeat):
            cpu, started = time.process_time(), time.perf_counter()
            got = big()
            result.walls.append(time.perf_counter() - started)
            result.cpus.append(time.process_time() - cpu)
            result.check(got, t.big_text, "full stream")
        for _ in range(t.ttft_runs):
            started = time.perf_counter()
            got = small()
            result.ttfts.append(got.first - started)
            result.check(got, t.small_text, "small stream")
    return result


async def measure_async(result: Result, factory: AsyncFactory, t: Target) -> Result:
    async with factory(t.big_url) as big, factory(t.small_url) as small:
        await small()
        await big()
        for _ in range(t.repeat):
            cpu, started = time.process_time(), time.perf_counter()
            got = await big()
            result.walls.append(time.perf_counter() - started)
            result.cpus.append(time.process_time() - cpu)
            result.check(got, t.big_text, "full stream")
        for _ in range(t.ttft_runs):
            started = time.perf_counter()
            got = await small()
            result.ttfts.append(got.first - started)
            result.check(got, t.small_text, "small stream")
    return result


# Peers that could not be measured (missing, or broken): the run exits 1 after its report.
UNMEASURED: list[str] = []


def run(
    name: str,
    factory: SyncFactory | None,
    afactory: AsyncFactory | None,
    t: Target,
    result: Result | None = None,
) -> Result:
    """One round of ``name``: its clients made, warmed, then ``t.repeat`` full streams and
    ``t.ttft_runs`` small ones, appended to ``result``."""
    result = result if result is not None else Result(name)
    try:
        if factory is not None:
            return measure_sync(result, factory, t)
        assert afactory is not None
        return asyncio.run(measure_async(result, afactory, t))
    except NOT_READY as exc:
        if name.startswith("ours"):
            print(f"{name}: not available yet ({type(exc).__name__}: {exc})")
        else:
            print(f"{name}: not measured ({type(exc).__name__}: {exc})")
    except Exception as exc:  # a contender that breaks must not hide the others' figures
        print(f"{name}: not measured ({type(exc).__name__}: {exc})")
    UNMEASURED.append(name)
    return Result(name, errors=["not measured"])


def call_overhead(t: Target, calls: int = 100, rounds: int = 5) -> None:
    """Telemetry's cost per call, where it shows most: small (20-chunk) streams, one span and
    the metrics each. CPU time of ``calls`` requests, rounds alternated, median per call."""
    try:
        with ours_sync(t.small_url) as plain, ours_otel_sync(t.small_url) as traced:
            readers = {"ours": plain, "ours + OTel": traced}
            samples: dict[str, list[float]] = {name: [] for name in readers}
            for read in readers.values():
                read()
            for _ in range(rounds):
                for name, read in readers.items():
                    cpu = time.process_time()
                    for _ in range(calls):
                        got = read()
                    samples[name].append((time.process_time() - cpu) / calls)
                    if got.text != t.small_text:
                        print(f"  {name}: FAILED: wrong text")
                        return
    except NOT_READY as exc:
        print(f"\ntelemetry per call: not measured ({type(exc).__name__}: {exc})")
        return
    plain_us = statistics.median(samples["ours"]) * 1e6
    traced_us = statistics.median(samples["ours + OTel"]) * 1e6
    print(
        f"\ntelemetry per call ({SMALL_CHUNKS}-chunk streams, client CPU time, median of "
        f"{rounds} x {calls}): ours {plain_us:.0f} us, ours + OTel SDK (span + metrics to "
        f"in-memory exporter and reader) {traced_us:.0f} us: +{traced_us - plain_us:.0f} us "
        f"a call ({traced_us / plain_us - 1:+.0%})"
    )


def import_times(statements: list[str], runs: int = 7) -> dict[str, float | None]:
    """Median import time of each statement in a fresh interpreter; the runs go round-robin
    over the statements, so a busy moment of the machine hits them all alike."""
    env = {"PYTHONPATH": str(ROOT / "generated"), "PATH": os.environ.get("PATH", "/usr/bin:/bin")}
    samples: dict[str, list[float] | None] = {s: [] for s in statements}
    for _ in range(runs):
        for statement in statements:
            found = samples[statement]
            if found is None:
                continue
            code = (
                f"import time; t = time.perf_counter(); {statement}; print(time.perf_counter() - t)"
            )
            out = subprocess.run(
                [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=False
            )
            if out.returncode != 0:
                samples[statement] = None
                continue
            found.append(float(out.stdout))
    return {s: statistics.median(v) if v else None for s, v in samples.items()}


def ratio(a: float | None, b: float | None) -> str:
    return f"{a / b:.2f}x" if a is not None and b else "-"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--chunks", type=int, default=20_000)
    parser.add_argument(
        "--repeat", type=int, default=7, help="alternated rounds: one full stream each per round"
    )
    parser.add_argument("--ttft-runs", type=int, default=50)
    parser.add_argument(
        "--content-length",
        action="store_true",
        help="one content-length body instead of one HTTP chunk per SSE event (the default, "
        "as the APIs send them)",
    )
    parser.add_argument("--no-import", action="store_true", help="skip the import timings")
    parser.add_argument("--no-paths", action="store_true", help="skip the JSONPath comparison")
    parser.add_argument("--import-runs", type=int, default=7)
    parser.add_argument("--smoke", action="store_true", help="one tiny round")
    parser.add_argument(
        "--no-overhead", action="store_true", help="skip telemetry's cost per small call"
    )
    args = parser.parse_args()
    if args.smoke:
        args.chunks, args.repeat, args.ttft_runs, args.import_runs = 200, 1, 2, 1

    big_events, big_text = make_events(args.chunks)
    small_events, small_text = make_events(SMALL_CHUNKS)
    big_response = http_response(big_events, not args.content_length)
    small_response = http_response(small_events, not args.content_length)

    results: list[Result] = []
    with tempfile.TemporaryDirectory() as tmp:
        big_file, small_file = Path(tmp, "big.http"), Path(tmp, "small.http")
        big_file.write_bytes(big_response)
        small_file.write_bytes(small_response)
        server = subprocess.Popen(
            [sys.executable, "-c", SERVER, str(big_file), str(small_file)],
            stdout=subprocess.PIPE,
            text=True,
        )
        try:
            assert server.stdout is not None
            port = server.stdout.readline().strip()
            target = Target(
                big_url=f"http://127.0.0.1:{port}/v1",
                small_url=f"http://127.0.0.1:{port}/small/v1",
                big_text=big_text,
                small_text=small_text,
                repeat=1,  # per round
                ttft_runs=max(1, args.ttft_runs // args.repeat),
            )
            contenders: list[tuple[str, SyncFactory | None, AsyncFactory | None]] = [
                ("openai SDK", openai_sync, None),
                ("openai SDK async", None, openai_async),
                ("ai-lib-python async", None, ai_lib),
                ("raw httpx", raw_sync, None),
                ("raw httpx async", None, raw_async),
                ("ours", ours_sync, None),
                ("ours async", None, ours_async),
                ("ours + OTel", ours_otel_sync, None),
                ("ours async + OTel", None, ours_otel_async),
            ]
            # alternated rounds (benchmarks/rounds.py): each round every contender reads one
            # full stream, the order reversed every other round
            by_name = {name: Result(name) for name, _, _ in contenders}
            for i in range(args.repeat):
                for name, factory, afactory in contenders if i % 2 == 0 else contenders[::-1]:
                    if by_name[name].errors != ["not measured"]:
                        run(name, factory, afactory, target, by_name[name])
            results = list(by_name.values())
            if not args.no_overhead:
                call_overhead(target)
        finally:
            server.terminate()
            server.wait()

    n = args.chunks
    print(
        f"\nstream: {n} chunks, {len(big_response) / 1e6:.1f} MB"
        f" ({'content-length' if args.content_length else 'chunked: one HTTP chunk per event'}), "
        f"{len(big_text)} chars of text; full request + read, median / best of {args.repeat} "
        f"alternated rounds; {load()}"
    )
    print(f"time to first token: {SMALL_CHUNKS}-chunk stream, median of {args.ttft_runs}\n")
    print(
        f"  {'client':<20} {'chunks/s':>11} {'best':>11} {'per cpu-s':>11} {'wall s':>8}"
        f" {'TTFT ms':>8} {'p95 ms':>7}  checks"
    )
    speed: dict[str, float | None] = {}
    cpu_speed: dict[str, float | None] = {}
    ttft: dict[str, float | None] = {}
    failed = False
    for r in results:
        speed[r.name] = ttft[r.name] = cpu_speed[r.name] = None
        if r.errors == ["not measured"]:
            print(f"  {r.name:<20} {'not measured':>11}")
            continue
        wall = statistics.median(r.walls)
        lat = statistics.median(r.ttfts)
        p95 = sorted(r.ttfts)[int(len(r.ttfts) * 0.95)]
        seen = f"text ok, finish={r.finish}, usage={'yes' if r.usage else 'NO'}"
        if r.errors:
            failed = True
            seen = "FAILED: " + "; ".join(sorted(set(r.errors)))
        cpu = statistics.median(r.cpus)
        if not r.errors:
            speed[r.name], ttft[r.name] = n / wall, lat
            cpu_speed[r.name] = n / cpu if cpu else None
        print(
            f"  {r.name:<20} {n / wall:>11,.0f} {n / min(r.walls):>11,.0f}"
            f" {n / cpu if cpu else 0:>11,.0f} {wall:>8.3f}"
            f" {lat * 1e3:>8.2f} {p95 * 1e3:>7.2f}  {seen}"
        )

    print(
        "\nratios (throughput: higher is better, by wall clock and by the client's CPU time,"
        " which a loaded machine disturbs less; TTFT: lower is better):"
    )
    pairs = [
        ("ours", "openai SDK"),
        ("ours async", "openai SDK async"),
        ("ai-lib-python async", "openai SDK async"),
        ("ai-lib-python async", "openai SDK"),
        ("raw httpx", "openai SDK"),
        ("ours", "raw httpx"),
        ("ours async", "raw httpx async"),
        ("ours async", "ai-lib-python async"),
        ("ours + OTel", "ours"),
        ("ours async + OTel", "ours async"),
        ("ours + OTel", "openai SDK"),
    ]
    for a, b in pairs:
        print(
            f"  {a + ' / ' + b:<42} throughput {ratio(speed[a], speed[b]):>7}"
            f"   per cpu-s {ratio(cpu_speed[a], cpu_speed[b]):>7}"
            f"   TTFT {ratio(ttft[a], ttft[b]):>7}"
        )

    by_result = {r.name: r for r in results}
    print(f"\nper-round ratios (the same round's streams, wall and client CPU; {load()}):")
    for a, b, target in [
        ("ours", "raw httpx", "<= 1.0x"),
        ("ours async", "raw httpx async", "<= 1.0x"),
        ("ours", "openai SDK", ""),
        ("ours async", "ai-lib-python async", ""),
    ]:
        ra, rb = by_result[a], by_result[b]
        if ra.errors or rb.errors or len(ra.walls) != len(rb.walls):
            print(f"  {a} / {b}: not measured")
            continue
        print("  " + ratio_line(f"{a} / {b}, time", ra.walls, rb.walls, target))
        print("  " + ratio_line(f"{a} / {b}, CPU", ra.cpus, rb.cpus, target))

    if not args.no_import:
        print(f"\nimport time (fresh interpreter, median of {args.import_runs}, runs interleaved):")
        statements = {
            "import agentproto.llm": "import agentproto.llm",
            "from agentproto.llm import LLMClient": "from agentproto.llm import LLMClient",
            "import openai": "import openai",
            "import ai_lib_python": "import ai_lib_python",
            "import httpx (floor)": "import httpx",
        }
        measured = import_times(list(statements.values()), args.import_runs)
        timings = {label: measured[statement] for label, statement in statements.items()}
        for statement, seconds in timings.items():
            shown = f"{seconds * 1e3:7.1f} ms" if seconds is not None else "  not available"
            if seconds is None:
                UNMEASURED.append(statement)
            print(f"  {statement:<38} {shown}")
        ours_import = timings["from agentproto.llm import LLMClient"]
        openai_import = timings["import openai"]
        print(f"  ours (LLMClient) / openai:             {ratio(ours_import, openai_import)}")
        print(
            "  ours (LLMClient) / import httpx:       "
            f"{ratio(ours_import, timings['import httpx (floor)'])}  (target < 1.5x)"
        )
        print(
            "  ai-lib / openai:                       "
            f"{ratio(timings['import ai_lib_python'], openai_import)}"
        )
    if not args.no_paths:
        path_engines(make_events(50 if args.smoke else 1_000)[0])
    if UNMEASURED:
        print(f"\nnot measured: {', '.join(UNMEASURED)} (pip install -e '.[test]')")
    if failed or UNMEASURED:
        sys.exit(1)


def path_engines(events: list[bytes]) -> None:
    """The openai manifest's event_map paths read per frame: our compiled closures against
    the JSONPath libraries we could have kept (python-jsonpath, jsonpath-ng)."""
    from agentproto.llm.manifest import Manifest
    from agentproto.llm.paths import compile_path

    frames = [json.loads(e[6:]) for e in events if not e.startswith(b"data: [DONE]")]
    # (null values are left out by every engine: ``exists`` treats null as missing)
    rules = Manifest.bundled("openai").data["streaming"]["event_map"]
    texts = sorted({v for r in rules for v in (r.get("fields") or {}).values()})
    engines: dict[str, Callable[[str], Callable[[Any], Any]]] = {
        "ours (compiled closures)": lambda t: compile_path(t).all,
    }
    try:
        import jsonpath  # python-jsonpath

        engines["python-jsonpath"] = lambda t: (
            lambda p: lambda d: [v for v in p.findall(d) if v is not None]
        )(jsonpath.compile(t))
    except ImportError:
        print("  python-jsonpath: not installed (pip install python-jsonpath)")
        UNMEASURED.append("python-jsonpath")
    try:
        import jsonpath_ng

        engines["jsonpath-ng"] = lambda t: (
            lambda p: lambda d: [m.value for m in p.find(d) if m.value is not None]
        )(jsonpath_ng.parse(t))
    except ImportError:
        print("  jsonpath-ng: not installed (pip install jsonpath-ng)")
        UNMEASURED.append("jsonpath-ng")
    print(f"\npath evaluation: {len(texts)} event_map paths x {len(frames)} frames, best of 3")
    results: dict[str, float] = {}
    expected: list[Any] | None = None
    for name, make in engines.items():
        compiled = [make(t) for t in texts]
        best = math.inf
        for _ in range(3):
            started = time.perf_counter()
            found = [get(frame) for frame in frames for get in compiled]
            best = min(best, time.perf_counter() - started)
        if expected is None:
            expected = found
        elif found != expected:
            print(f"  {name}: gives different results: not comparable")
            UNMEASURED.append(name)
            continue
        results[name] = best
        per = best / (len(frames) * len(texts)) * 1e6
        print(f"  {name:<26} {per:7.2f} us a path")
    ours = results.get("ours (compiled closures)")
    for name, seconds in results.items():
        if ours and name != "ours (compiled closures)":
            print(f"  {name} / ours: {seconds / ours:.1f}x slower")


if __name__ == "__main__":
    main()
