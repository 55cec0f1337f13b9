"""The manifest-driven LLM client: against the independent ai-protocol-mock server, side by side
with the official openai SDK, and on provider streams served by a scripted loopback server."""

from __future__ import annotations

import dataclasses
import json
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest
from agentproto._runtime.http_errors import ResponseValidationError
from agentproto.llm import (
    AsyncLLMClient,
    LLMClient,
    Manifest,
    ManifestError,
    ProviderError,
    UnsupportedError,
)
from agentproto.llm.client import retry_policy
from agentproto.llm.errors import (
    InvalidRequestError,
    OverloadedError,
    QuotaExhaustedError,
    RateLimitedError,
    RequestTooLargeError,
    ServerError,
)
from agentproto.llm.events import (
    FinalCandidate,
    Metadata,
    PartialContentDelta,
    PartialToolCall,
    StreamEnd,
    StreamEvent,
    ThinkingDelta,
    ToolCallEnded,
    ToolCallStarted,
)
from agentproto.llm.paths import ExpressionError, compile_match, compile_path
from agentproto.llm.streaming import IncompleteStreamError, StreamDecoder

from tests.conftest import within
from tests.servers.mock_provider import MockProvider, start_mock_provider
from tests.servers.scripted import Answer, scripted_server

USER = [{"role": "user", "content": "hi"}]
KEY = "sk-test-DO-NOT-LEAK-123"


# -- paths and expressions ----------------------------------------------------------------------

FRAME: dict[str, Any] = {
    "type": "content_block_delta",
    "index": 1,
    "delta": {"type": "text_delta", "text": "x"},
    "choices": [
        {"index": 0, "delta": {"content": "a"}, "finish_reason": None},
        {"index": 1, "delta": {}, "finish_reason": "stop"},
    ],
    "is_end": True,
}


@pytest.mark.parametrize(
    ("expression", "expected"),
    [
        ("exists($.choices[*].delta.content)", True),
        ("exists($.choices[*].delta.tool_calls)", False),
        ("exists($.choices[*].finish_reason)", True),  # one candidate finished
        ("$.choices[0].finish_reason != null", False),
        ("$.choices[1].finish_reason != null", True),
        ("$.choices[0].finish_reason == null", True),
        ("$.type == 'content_block_delta' && $.delta.type == 'text_delta'", True),
        ("$.type == 'content_block_delta' && $.delta.type == 'thinking_delta'", False),
        ("$.type in ['message_start', 'content_block_delta']", True),
        ("$.type in ['message_start', 'ping']", False),
        ("exists($.error) || $.type == 'error'", False),
        ("!exists($.error) && ($.index == 1 || $.index == 2)", True),
        ("$.is_end == true", True),
        ("$.missing.deep[3].path", False),
        ("choices[1].finish_reason", True),  # a bare path is a truth test; $. is optional
    ],
)
def test_match_expressions(expression: str, expected: bool) -> None:
    assert compile_match(expression)(FRAME, ()) is expected


@pytest.mark.parametrize("bad", ["$.a ==", "$.a === 1", "exists(1)", "$.a in [", "(", "$.a &&"])
def test_bad_expressions_are_refused(bad: str) -> None:
    with pytest.raises(ExpressionError):
        compile_match(bad)


def test_paths_reach_nested_wildcards() -> None:
    frame = {"a": [{"b": [{"c": 1}, {"c": 2}]}, {"b": [{"c": 3}]}, {"x": 0}]}
    assert compile_path("$.a[*].b[*].c").all(frame) == [1, 2, 3]
    assert compile_path("a[0].b[1].c").first(frame) == 2
    assert compile_path("$.a[-1].x").first(frame) == 0


# -- stream decoding (recorded provider streams) ------------------------------------------------


def sse(*frames: Any, done: bool = True, event_names: bool = False) -> bytes:
    out = b""
    for frame in frames:
        head = f"event: {frame['type']}\n".encode() if event_names else b""
        out += head + b"data: " + json.dumps(frame).encode() + b"\n\n"
    return out + (b"data: [DONE]\n\n" if done else b"")


def decode(provider: str, body: bytes, chunk: int | None = None) -> list[StreamEvent]:
    decoder = StreamDecoder(Manifest.bundled(provider).stream)  # type: ignore[arg-type]
    events: list[StreamEvent] = []
    step = chunk or len(body)
    for i in range(0, len(body), step):
        events += decoder.feed(body[i : i + step])
    assert decoder.complete
    return events + decoder.finish()


def openai_chunk(
    delta: dict[str, Any], finish: str | None = None, index: int = 0
) -> dict[str, Any]:
    return {
        "id": "c1",
        "object": "chat.completion.chunk",
        "created": 1,
        "model": "gpt-4o-mini",
        "choices": [{"index": index, "delta": delta, "finish_reason": finish}],
    }


OPENAI_TOOLS_STREAM = sse(
    openai_chunk({"role": "assistant", "content": None}),
    openai_chunk(
        {
            "tool_calls": [
                {
                    "index": 0,
                    "id": "call_a",
                    "type": "function",
                    "function": {"name": "get_weather", "arguments": ""},
                }
            ]
        }
    ),
    openai_chunk({"tool_calls": [{"index": 0, "function": {"arguments": '{"city": "Pa'}}]}),
    openai_chunk(
        {
            "tool_calls": [
                {"index": 0, "function": {"arguments": 'ris"}'}},
                {
                    "index": 1,
                    "id": "call_b",
                    "type": "function",
                    "function": {"name": "get_time", "arguments": '{"tz": "CET"}'},
                },
            ]
        }
    ),
    {
        **openai_chunk({}, "tool_calls"),
        "usage": {"prompt_tokens": 9, "completion_tokens": 20, "total_tokens": 29},
    },
)


@pytest.mark.parametrize("chunk", [None, 1, 7, 64])
def test_openai_parallel_tool_calls_assemble_at_any_chunking(chunk: int | None) -> None:
    events = decode("openai", OPENAI_TOOLS_STREAM, chunk)
    started = [e for e in events if isinstance(e, ToolCallStarted)]
    ended = [e for e in events if isinstance(e, ToolCallEnded)]
    assert [(e.tool_call_id, e.tool_name, e.index) for e in started] == [
        ("call_a", "get_weather", 0),
        ("call_b", "get_time", 1),
    ]
    assert [(e.tool_call_id, e.input) for e in ended] == [
        ("call_a", {"city": "Paris"}),
        ("call_b", {"tz": "CET"}),
    ]
    assert "".join(e.arguments for e in events if isinstance(e, PartialToolCall)) == (
        '{"city": "Paris"}{"tz": "CET"}'
    )
    # The final chunk carries usage and the finish reason: both come out.
    metadata = [e for e in events if isinstance(e, Metadata)]
    final = [e for e in events if isinstance(e, FinalCandidate)]
    assert metadata[0].prompt_tokens == 9 and metadata[0].completion_tokens == 20
    assert (final[0].finish_reason, final[0].raw_finish_reason) == ("tool_use", "tool_calls")
    # Calls close before their candidate's final event; StreamEnd is last and only once.
    assert events.index(ended[-1]) < events.index(final[0])
    assert isinstance(events[-1], StreamEnd) and events[-1].finish_reason == "tool_use"
    assert sum(isinstance(e, StreamEnd) for e in events) == 1


def test_openai_candidates_fan_out() -> None:
    body = sse(
        {
            **openai_chunk({"content": "A"}),
            "choices": [
                {"index": 0, "delta": {"content": "A"}, "finish_reason": None},
                {"index": 1, "delta": {"content": "B"}, "finish_reason": None},
            ],
        },
        openai_chunk({"content": "b"}, index=1),
        openai_chunk({}, "length", index=1),
        openai_chunk({}, "stop", index=0),
    )
    events = decode("openai", body)
    texts = [(e.candidate_index, e.content) for e in events if isinstance(e, PartialContentDelta)]
    assert texts == [(0, "A"), (1, "B"), (1, "b")]
    finals = [(e.candidate_index, e.finish_reason) for e in events if isinstance(e, FinalCandidate)]
    assert finals == [(1, "max_tokens"), (0, "end_turn")]


ANTHROPIC_STREAM = sse(
    {"type": "message_start", "message": {"id": "m1", "usage": {"input_tokens": 12}}},
    {"type": "content_block_start", "index": 0, "content_block": {"type": "thinking"}},
    {
        "type": "content_block_delta",
        "index": 0,
        "delta": {"type": "thinking_delta", "thinking": "hm"},
    },
    {"type": "content_block_stop", "index": 0},
    {"type": "content_block_start", "index": 1, "content_block": {"type": "text", "text": ""}},
    {"type": "content_block_delta", "index": 1, "delta": {"type": "text_delta", "text": "Let me"}},
    {"type": "content_block_delta", "index": 1, "delta": {"type": "text_delta", "text": " look."}},
    {"type": "content_block_stop", "index": 1},
    {
        "type": "content_block_start",
        "index": 2,
        "content_block": {"type": "tool_use", "id": "toolu_1", "name": "search", "input": {}},
    },
    {"type": "ping"},
    {
        "type": "content_block_delta",
        "index": 2,
        "delta": {"type": "input_json_delta", "partial_json": '{"q": "w'},
    },
    {
        "type": "content_block_delta",
        "index": 2,
        "delta": {"type": "input_json_delta", "partial_json": 'eather"}'},
    },
    {"type": "content_block_stop", "index": 2},
    {"type": "message_delta", "delta": {"stop_reason": "tool_use"}, "usage": {"output_tokens": 30}},
    {"type": "message_stop"},
    done=False,
    event_names=True,
)


@pytest.mark.parametrize("chunk", [None, 3, 50])
def test_anthropic_stream_thinking_tool_use_and_stop_reason(chunk: int | None) -> None:
    events = decode("anthropic", ANTHROPIC_STREAM, chunk)
    assert "".join(e.thinking for e in events if isinstance(e, ThinkingDelta)) == "hm"
    assert "".join(e.content for e in events if isinstance(e, PartialContentDelta)) == (
        "Let me look."
    )
    ended = [e for e in events if isinstance(e, ToolCallEnded)]
    # content_block_stop of the text blocks ends no tool call; the tool block's does.
    assert [(e.tool_call_id, e.tool_name, e.input, e.index) for e in ended] == [
        ("toolu_1", "search", {"q": "weather"}, 2)
    ]
    meta = [e for e in events if isinstance(e, Metadata)]
    # message_start's usage (input tokens) first, then message_delta's.
    assert meta[0].usage == {"input_tokens": 12}
    assert meta[-1].stop_reason == "tool_use" and meta[-1].usage == {"output_tokens": 30}
    # The event_map's StreamEnd says "end_turn"; the stop reason the stream sent wins.
    assert events[-1] == StreamEnd("tool_use", "tool_use")


def test_gemini_stream_function_call_and_usage() -> None:
    body = sse(
        {"candidates": [{"content": {"role": "model", "parts": [{"text": "Hel"}]}}]},
        {
            "candidates": [
                {
                    "content": {
                        "role": "model",
                        "parts": [
                            {"text": "lo"},
                            {"functionCall": {"name": "f", "args": {"x": 1}}},
                        ],
                    },
                    "finishReason": "STOP",
                }
            ],
            "usageMetadata": {"promptTokenCount": 3, "candidatesTokenCount": 5},
        },
        done=False,
    )
    events = decode("gemini", body)
    assert "".join(e.content for e in events if isinstance(e, PartialContentDelta)) == "Hello"
    ended = [e for e in events if isinstance(e, ToolCallEnded)]
    assert [(e.tool_name, e.input) for e in ended] == [("f", {"x": 1})]
    assert ended[0].tool_call_id.startswith("call_")  # _generate_uuid
    meta = next(e for e in events if isinstance(e, Metadata))
    assert (meta.prompt_tokens, meta.completion_tokens) == (3, 5)
    # Gemini says STOP after a function call: the standard reason is tool_use (raw kept).
    assert events[-1] == StreamEnd("tool_use", "STOP")


def test_truncated_stream_is_an_error_not_a_short_answer() -> None:
    decoder = StreamDecoder(Manifest.bundled("openai").stream)
    decoder.feed(sse(openai_chunk({"content": "par"}), done=False))
    assert not decoder.complete  # the client raises IncompleteStreamError here


def test_bad_user_manifest_expression_names_its_pointer(tmp_path: Path) -> None:
    data = json.loads(json.dumps(Manifest.bundled("openai").data))
    data["streaming"]["event_map"][1]["match"] = "exists($.choices[*].delta.content"
    with pytest.raises(ManifestError) as info:
        Manifest.from_dict(data, source="mine.json")
    assert info.value.pointer == "/streaming/event_map/1/match"
    assert info.value.source == "mine.json"
    data["payload_format"] = "klingon_style"
    with pytest.raises(ManifestError, match="/payload_format"):
        Manifest.from_dict(data)


# -- against the independent mock provider ----------------------------------------------------


@pytest.fixture(scope="module")
def mock(tmp_path_factory: pytest.TempPathFactory) -> Iterator[MockProvider]:
    provider = start_mock_provider(tmp_path_factory.mktemp("mock"))
    try:
        yield provider
    finally:
        provider.stop()


def client(mock: MockProvider, provider: str, **options: Any) -> LLMClient:
    return LLMClient(provider, api_key=KEY, base_url=mock.base_url + "/v1", **options)


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
def test_mock_chat_and_stream_agree(mock: MockProvider, provider: str) -> None:
    with client(mock, provider) as llm:
        reply = llm.chat(
            [{"role": "system", "content": "be brief"}, *USER], model="m", temperature=0.2
        )
        with llm.stream(USER, model="m") as stream:
            events = list(stream)
            streamed = stream.final_response()
    assert reply.content == "Mock response from ai-protocol-mock"
    assert reply.finish_reason == "end_turn" and reply.usage is not None
    if provider == "anthropic":
        # the mock reports a prompt-cache write (4) and read (2) beside input_tokens (10),
        # as Anthropic does: input_tokens counts every prompt token, cached ones included
        assert reply.usage.raw["input_tokens"] == 10
        assert (reply.usage.cache_write_tokens, reply.usage.cache_read_tokens) == (4, 2)
        assert reply.usage.input_tokens == 16 and reply.usage.output_tokens == 4
    else:
        assert reply.usage.input_tokens == 10 and reply.usage.output_tokens == 4
    assert streamed.content == reply.content
    assert sum(isinstance(e, PartialContentDelta) for e in events) == len(reply.content)
    assert isinstance(events[-1], StreamEnd) and events[-1].finish_reason == "end_turn"


def test_streams_dropped_unclosed_give_their_connection_back_at_once(mock: MockProvider) -> None:
    """Breaking out of ``stream()`` with no ``with``, again and again, on a pool of two
    connections and with the garbage collector off: each dropped stream closes its response
    at once (a reference cycle used to leave that to the collector)."""
    pool = httpx.Limits(max_connections=2)

    def blocking() -> None:
        with client(mock, "openai", http_client=httpx.Client(limits=pool), timeout=5) as llm:
            for _ in range(30):
                for _event in llm.stream(USER, model="m"):
                    break
            assert llm.chat(USER, model="m").content

    async def main() -> None:
        http = httpx.AsyncClient(limits=pool)
        base = mock.base_url + "/v1"
        async with AsyncLLMClient("openai", api_key=KEY, base_url=base, http_client=http) as llm:
            for _ in range(30):
                stream = await llm.stream(USER, model="m")
                async for _event in stream:
                    break
                del stream
            assert (await llm.chat(USER, model="m")).content
        await http.aclose()

    within(60, blocking)
    within(60, lambda: anyio.run(main))


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
def test_mock_async_flavour(mock: MockProvider, provider: str) -> None:
    async def main() -> tuple[str, str, str | None]:
        async with AsyncLLMClient(provider, api_key=KEY, base_url=mock.base_url + "/v1") as llm:
            reply = await llm.chat(USER, model="m")
            async with llm.stream(USER, model="m") as stream:
                texts = [e.content async for e in stream if isinstance(e, PartialContentDelta)]
                final = await stream.final_response()
        return reply.content, "".join(texts), final.finish_reason

    content, streamed, reason = anyio.run(main)
    assert content == streamed == "Mock response from ai-protocol-mock"
    assert reason == "end_turn"


def test_mock_tool_calls(mock: MockProvider) -> None:
    tools = [{"name": "get_weather", "parameters": {"type": "object"}}]
    with client(mock, "openai") as llm:
        single = llm.chat(USER, model="m", tools=tools, extra_headers={"X-Mock-Tool-Calls": "1"})
        parallel = llm.chat(
            USER, model="m", tools=tools, extra_headers={"X-Mock-Tool-Calls": "parallel"}
        )
        with llm.stream(
            USER, model="m", tools=tools, extra_headers={"X-Mock-Tool-Calls": "parallel"}
        ) as stream:
            streamed = stream.final_response()
    with client(mock, "anthropic") as llm:
        anthropic = llm.chat(USER, model="m", tools=tools, extra_headers={"X-Mock-Tool-Calls": "1"})
    assert [(c.name, c.input) for c in single.tool_calls] == [("get_weather", {"city": "Tokyo"})]
    assert single.finish_reason == "tool_use" and single.raw_finish_reason == "tool_calls"
    expected = [
        ("call_mock_1", "get_weather", {"city": "Tokyo"}),
        ("call_mock_2", "get_time", {"tz": "UTC"}),
    ]
    assert [(c.id, c.name, c.input) for c in parallel.tool_calls] == expected
    assert [(c.id, c.name, c.input) for c in streamed.tool_calls] == expected
    assert streamed.finish_reason == "tool_use"
    assert [(c.name, c.input) for c in anthropic.tool_calls] == [("get_weather", {"city": "Tokyo"})]
    assert anthropic.finish_reason == "tool_use"


def test_mock_reasoning_stream(mock: MockProvider) -> None:
    with client(mock, "anthropic") as llm:
        with llm.stream(USER, model="m", extra_headers={"X-Mock-Reasoning": "true"}) as stream:
            reply = stream.final_response()
    assert reply.thinking and reply.content == "Mock response from ai-protocol-mock"


def counting(counter: list[httpx.Request]) -> httpx.Client:
    return httpx.Client(event_hooks={"request": [counter.append]})


def no_wait(provider: str) -> Any:
    """The manifest's retry policy with the jitter draw pinned so the waits are zero."""
    return dataclasses.replace(retry_policy(Manifest.bundled(provider)), rng=lambda: 1.0)


def test_mock_429_is_retried_per_manifest_then_classified(mock: MockProvider) -> None:
    sent: list[httpx.Request] = []
    llm = client(mock, "openai", retry=no_wait("openai"), http_client=counting(sent))
    with pytest.raises(RateLimitedError) as info:
        llm.chat(USER, model="m", extra_headers={"X-Mock-Status": "429"})
    assert len(sent) == 1 + 3  # openai: max_retries 3
    assert info.value.status_code == 429 and info.value.error_class == "rate_limited"
    assert isinstance(info.value, ProviderError) and info.value.provider == "openai"
    sent.clear()
    llm = client(mock, "anthropic", retry=no_wait("anthropic"), http_client=counting(sent))
    with pytest.raises(RateLimitedError):
        llm.chat(USER, model="m", extra_headers={"X-Mock-Status": "429"})
    assert len(sent) == 1 + 2  # anthropic: max_retries 2


def test_mock_server_errors_follow_each_manifest(mock: MockProvider) -> None:
    sent: list[httpx.Request] = []
    llm = client(mock, "openai", retry=no_wait("openai"), http_client=counting(sent))
    with pytest.raises(ServerError):
        llm.chat(USER, model="m", extra_headers={"X-Mock-Status": "500"})
    assert len(sent) == 4
    sent.clear()
    with pytest.raises(ServerError):  # 503: retried (listed), classified by the spec table
        llm.stream(USER, model="m", extra_headers={"X-Mock-Status": "503"})
    assert len(sent) == 4
    sent.clear()
    llm = client(mock, "anthropic", retry=no_wait("anthropic"), http_client=counting(sent))
    with pytest.raises(ServerError):  # anthropic does not list 503: one attempt
        llm.chat(USER, model="m", extra_headers={"X-Mock-Status": "503"})
    assert len(sent) == 1


def test_mock_context_overflow_and_invalid_content_type(mock: MockProvider) -> None:
    with client(mock, "openai") as llm:
        # a 400 whose code is context_length_exceeded is its own class (E1005), not
        # invalid_request: a caller can shorten the input or fall back to a longer context
        with pytest.raises(RequestTooLargeError) as info:
            llm.chat(USER, model="m", extra_headers={"X-Mock-Error": "context_overflow"})
        assert info.value.error_code == "context_length_exceeded"
        assert (info.value.code, info.value.retryable, info.value.fallbackable) == (
            "E1005",
            False,
            False,
        )
        with pytest.raises(ResponseValidationError, match="not JSON"):
            llm.chat(USER, model="m", extra_headers={"X-Mock-Invalid-Content-Type": "1"})
        with pytest.raises(ResponseValidationError, match="event stream"):
            llm.stream(USER, model="m", extra_headers={"X-Mock-Invalid-Content-Type": "1"})


def test_mock_stream_interrupt(mock: MockProvider) -> None:
    with client(mock, "openai") as llm:
        with llm.stream(USER, model="m", extra_headers={"X-Mock-Error": "stream_interrupt"}) as s:
            got: list[StreamEvent] = []
            with pytest.raises(IncompleteStreamError):
                for event in s:
                    got.append(event)
    assert got and all(isinstance(e, PartialContentDelta) for e in got)


def test_mock_simulated_multi_candidate(mock: MockProvider) -> None:
    sent: list[httpx.Request] = []
    with client(mock, "anthropic", http_client=counting(sent)) as llm:
        reply = llm.chat(USER, model="m", n=3)
        with pytest.raises(UnsupportedError):
            llm.stream(USER, model="m", n=3)
    assert len(sent) == 3  # features.multi_candidate: simulated
    assert [c.index for c in reply.candidates] == [0, 1, 2]
    assert all(c.content == reply.content for c in reply.candidates)


# -- the same stream read by the official openai SDK ------------------------------------------


def openai_sdk_read(base_url: str) -> tuple[str, list[tuple[str, str, str]], str | None]:
    import openai

    sdk = openai.OpenAI(api_key=KEY, base_url=base_url, max_retries=0)
    text: list[str] = []
    calls: dict[int, list[str]] = {}
    finish = None
    with sdk.chat.completions.create(model="m", messages=USER, stream=True) as stream:  # type: ignore[arg-type]
        for chunk in stream:
            for choice in chunk.choices:
                if choice.delta.content:
                    text.append(choice.delta.content)
                for i, call in enumerate(choice.delta.tool_calls or []):
                    slot = calls.setdefault(
                        call.index if call.index is not None else i, ["", "", ""]
                    )
                    if call.id:
                        slot[0] = call.id
                    if call.function and call.function.name:
                        slot[1] = call.function.name
                    if call.function and call.function.arguments:
                        slot[2] += call.function.arguments
                finish = choice.finish_reason or finish
    sdk.close()
    return "".join(text), [tuple(v) for _, v in sorted(calls.items())], finish  # type: ignore[misc]


def ours_read(base_url: str) -> tuple[str, list[tuple[str, str, str]], str | None]:
    with LLMClient("openai", api_key=KEY, base_url=base_url) as llm:
        with llm.stream(USER, model="m") as stream:
            reply = stream.final_response()
    return (
        reply.content,
        [(c.id, c.name, c.arguments) for c in reply.tool_calls],
        reply.raw_finish_reason,
    )


def test_same_stream_same_answer_as_the_openai_sdk() -> None:
    text_stream = sse(
        openai_chunk({"role": "assistant", "content": ""}),
        *[openai_chunk({"content": w}) for w in ["Hel", "lo, ", "wörld ", "東京", " 🙂\n"]],
        openai_chunk({}, "stop"),
    )
    with scripted_server() as server:
        for body in (text_stream, OPENAI_TOOLS_STREAM):
            server.answer(Answer(body=body, content_type="text/event-stream"))
            theirs = openai_sdk_read(server.base_url)
            ours = ours_read(server.base_url)
            assert ours == theirs
            assert theirs[0] or theirs[1]  # each stream has text or tool calls to compare


def test_mock_stream_same_as_the_openai_sdk(mock: MockProvider) -> None:
    assert ours_read(mock.base_url + "/v1") == openai_sdk_read(mock.base_url + "/v1")


# -- manifest features the mock does not exercise ------------------------------------------------


def test_rate_limit_headers_on_responses_streams_and_errors() -> None:
    limits = {"x-ratelimit-remaining-requests": "41", "x-ratelimit-reset-tokens": "6m0s"}
    ok = json.dumps({"choices": [{"message": {"content": "hi"}, "finish_reason": "stop"}]})
    with (
        scripted_server() as server,
        LLMClient("openai", api_key=KEY, base_url=server.base_url) as llm,
    ):
        server.answer(Answer(body=ok.encode(), headers=limits))
        reply = llm.chat(USER, model="m")
        server.answer(
            Answer(
                body=sse(openai_chunk({}, "stop")), content_type="text/event-stream", headers=limits
            )
        )
        with llm.stream(USER, model="m") as stream:
            assert stream.rate_limits == {"requests_remaining": "41", "tokens_reset": "6m0s"}
            final = stream.final_response()
        server.answer(Answer(status=400, body=b'{"error": {"message": "no"}}', headers=limits))
        with pytest.raises(InvalidRequestError) as info:
            llm.chat(USER, model="m")
    expected = {"requests_remaining": "41", "tokens_reset": "6m0s"}
    assert reply.rate_limits == final.rate_limits == info.value.rate_limits == expected


def test_gemini_error_status_is_retried_and_classified_and_the_key_stays_secret(
    caplog: pytest.LogCaptureFixture,
) -> None:
    busy = json.dumps({"error": {"code": 400, "message": "busy", "status": "UNAVAILABLE"}})
    with scripted_server() as server:
        server.answer(Answer(status=400, body=busy.encode()))
        llm = LLMClient("gemini", api_key=KEY, base_url=server.base_url, retry=no_wait("gemini"))
        with caplog.at_level(logging.DEBUG), pytest.raises(OverloadedError) as info:
            llm.chat(USER, model="gemini-pro")
        # by_error_status wins over by_http_status (400 would be invalid_request); retried
        # because UNAVAILABLE is in retry_on_error_status... but not classed retryable 400s:
        assert len(server.requests) == 1 + 2
        assert server.requests[0].path == "/models/gemini-pro:generateContent"
        assert server.requests[0].query == f"key={KEY}"  # query_param auth
        assert "authorization" not in server.requests[0].headers
    shown = str(info.value) + repr(info.value) + caplog.text + repr(llm) + info.value.url
    assert KEY not in shown
    assert "busy" in str(info.value)


def test_quota_429_is_not_retried() -> None:
    quota = json.dumps({"error": {"message": "You exceeded your current quota, check billing"}})
    with scripted_server() as server:
        server.answer(Answer(status=429, body=quota.encode()))
        llm = LLMClient("openai", api_key=KEY, base_url=server.base_url, retry=no_wait("openai"))
        with pytest.raises(QuotaExhaustedError):
            llm.chat(USER, model="m")
        assert len(server.requests) == 1


def test_gemini_stream_needs_a_stream_path() -> None:
    llm = LLMClient("gemini", api_key=KEY, base_url="http://127.0.0.1:9")
    with pytest.raises(UnsupportedError, match="stream_path"):
        llm.stream(USER, model="g")
    body = sse(
        {"candidates": [{"content": {"parts": [{"text": "ok"}]}, "finishReason": "STOP"}]},
        done=False,
    )
    with scripted_server() as server:
        server.answer(Answer(body=body, content_type="text/event-stream"))
        llm = LLMClient(
            "gemini",
            api_key=KEY,
            base_url=server.base_url,
            stream_path="/models/{model}:streamGenerateContent?alt=sse",
        )
        with llm.stream(USER, model="g") as stream:
            assert stream.text() == "ok"


def test_missing_key_names_the_environment_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with pytest.raises(ValueError, match=r"\$OPENAI_API_KEY"):
        LLMClient("openai")
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    assert KEY not in repr(LLMClient("openai"))


def test_bundled_registry_is_typed_data() -> None:
    from agentproto.llm import PROVIDER_IDS, PROVIDERS

    assert len(PROVIDER_IDS) == 19 and set(PROVIDERS) == set(PROVIDER_IDS)
    assert PROVIDERS["gemini"].auth == "query_param"
    assert PROVIDERS["anthropic"].env_vars == ("ANTHROPIC_API_KEY",)
    assert "streaming" in PROVIDERS["openai"].capabilities
    with pytest.raises(LookupError, match="bundled"):
        Manifest.bundled("nope")
