"""Nothing a provider streams is lost without a word (issue 16): tool calls that repeat their id
and name, several Gemini calls in one chunk, arguments that never become JSON, errors inside a
stream, usage split over several frames, unknown event-map fields. Every stream is decoded at
several chunkings (whole, per line, per byte, random splits), and the client-level behaviour is
checked over loopback HTTP."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any
from urllib.parse import parse_qsl

import pytest
from agentproto.llm import LLMClient, Manifest, ManifestError
from agentproto.llm.errors import ProviderStreamError
from agentproto.llm.events import (
    FinalCandidate,
    Metadata,
    PartialContentDelta,
    PartialToolCall,
    StreamEnd,
    StreamError,
    StreamEvent,
    ThinkingDelta,
    ToolCallEnded,
    ToolCallStarted,
)
from agentproto.llm.response import Collector, ToolArgumentsError, Usage
from agentproto.llm.streaming import IncompleteStreamError, StreamDecoder

from tests.servers.scripted import Answer, scripted_server

USER = [{"role": "user", "content": "hi"}]
KEY = "sk-test-streams"


def sse(*frames: Any, done: bool = True, event_names: bool = False) -> bytes:
    out = b""
    for frame in frames:
        head = f"event: {frame['type']}\n".encode() if event_names else b""
        out += head + b"data: " + json.dumps(frame).encode() + b"\n\n"
    return out + (b"data: [DONE]\n\n" if done else b"")


def chunkings(body: bytes) -> Iterator[tuple[str, list[bytes]]]:
    """The same body cut five ways: whole, per frame (as streaming APIs send it: the decoder
    reads a chunk holding one whole frame on a path of its own), per line, per byte, and at
    random places."""
    yield "whole", [body]
    yield (
        "frames",
        [frame + b"\n\n" for frame in body.split(b"\n\n")[:-1]]
        + ([body.rsplit(b"\n\n", 1)[-1]] if not body.endswith(b"\n\n") else []),
    )
    yield "lines", body.splitlines(keepends=True)
    yield "bytes", [body[i : i + 1] for i in range(len(body))]
    rng = random.Random(len(body))
    for seed in range(3):
        cuts = sorted(rng.sample(range(1, len(body)), min(len(body) - 1, 5 + seed * 7)))
        yield (
            f"random{seed}",
            [body[a:b] for a, b in zip([0, *cuts], [*cuts, len(body)], strict=True)],
        )


def decode(manifest: Manifest | str, pieces: list[bytes]) -> list[StreamEvent]:
    program = (Manifest.bundled(manifest) if isinstance(manifest, str) else manifest).stream
    decoder = StreamDecoder(program)
    events: list[StreamEvent] = []
    for piece in pieces:
        events += decoder.feed(piece)
    events += decoder.end_of_body()
    assert decoder.complete
    return events + decoder.finish()


def every_chunking(manifest: Manifest | str, body: bytes) -> Iterator[list[StreamEvent]]:
    """The events of each chunking; all chunkings must give the same events (modulo ids)."""
    first: list[str] | None = None
    for name, pieces in chunkings(body):
        events = decode(manifest, pieces)
        shape = [type(e).__name__ for e in events]
        if first is None:
            first = shape
        assert shape == first, name
        yield events


def fold(provider: str, events: list[StreamEvent]) -> Any:
    collector = Collector(Manifest.bundled(provider))  # type: ignore[arg-type]
    for event in events:
        collector.add(event)
    return collector.response(rate_limits={}, request_id=None)


def openai_chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
    return {
        "id": "c1",
        "object": "chat.completion.chunk",
        "model": "m",
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
    }


def repeated_call(call_id: str, name: str, args: str, index: int = 0) -> dict[str, Any]:
    """A tool-call chunk that repeats the call's id and name (str-007/008, vLLM, ollama...)."""
    return openai_chunk(
        {
            "tool_calls": [
                {
                    "index": index,
                    "id": call_id,
                    "type": "function",
                    "function": {"name": name, "arguments": args},
                }
            ]
        }
    )


# -- tool calls -----------------------------------------------------------------------------


STR_007 = sse(
    repeated_call("call_xyz", "get_weather", '{"location":"'),
    repeated_call("call_xyz", "get_weather", 'New York"}'),
    openai_chunk({}, "tool_calls"),
)
STR_008 = sse(
    repeated_call("call_abc", "search", '{"query":"'),
    repeated_call("call_abc", "search", 'AI protocol","limit":'),
    repeated_call("call_abc", "search", "10}"),
    openai_chunk({}, "tool_calls"),
)


@pytest.mark.parametrize(
    ("body", "call_id", "name", "arguments"),
    [
        (STR_007, "call_xyz", "get_weather", '{"location":"New York"}'),
        (STR_008, "call_abc", "search", '{"query":"AI protocol","limit":10}'),
    ],
    ids=["str-007", "str-008"],
)
def test_repeated_id_and_name_make_one_call(
    body: bytes, call_id: str, name: str, arguments: str
) -> None:
    for events in every_chunking("openai", body):
        started = [e for e in events if isinstance(e, ToolCallStarted)]
        ended = [e for e in events if isinstance(e, ToolCallEnded)]
        assert [(e.tool_call_id, e.tool_name) for e in started] == [(call_id, name)]
        assert [(e.tool_call_id, e.tool_name, e.arguments, e.error) for e in ended] == [
            (call_id, name, arguments, None)
        ]
        assert ended[0].input == json.loads(arguments)
        reply = fold("openai", events)
        assert [(c.id, c.name, c.input) for c in reply.tool_calls] == [
            (call_id, name, json.loads(arguments))
        ]
        assert reply.finish_reason == "tool_use"


def test_a_new_id_at_the_same_index_is_a_new_call() -> None:
    """Servers that put sequential calls at index 0 with fresh ids: two calls, both whole."""
    body = sse(
        repeated_call("call_1", "a", '{"x": 1}'),
        repeated_call("call_2", "b", '{"y": 2}'),
        openai_chunk({}, "tool_calls"),
    )
    for events in every_chunking("openai", body):
        ended = [
            (e.tool_call_id, e.tool_name, e.input) for e in events if isinstance(e, ToolCallEnded)
        ]
        assert ended == [("call_1", "a", {"x": 1}), ("call_2", "b", {"y": 2})]


def test_arguments_that_never_become_json_do_not_pass_silently() -> None:
    body = sse(
        repeated_call("call_bad", "f", '{"city": "Par'),
        openai_chunk({}, "length"),  # cut off by max_tokens
    )
    for events in every_chunking("openai", body):
        (ended,) = [e for e in events if isinstance(e, ToolCallEnded)]
        assert ended.input is None and ended.error and "not valid JSON" in ended.error
        assert ended.arguments == '{"city": "Par'
        with pytest.raises(ToolArgumentsError) as info:
            fold("openai", events)
        assert info.value.tool_call_id == "call_bad" and info.value.arguments == '{"city": "Par'
        assert "call_bad" in str(info.value) and "Par" in str(info.value)


def test_arguments_that_are_json_but_not_an_object_raise() -> None:
    body = sse(repeated_call("c", "f", "[1, 2]"), openai_chunk({}, "tool_calls"))
    events = decode("openai", [body])
    (ended,) = [e for e in events if isinstance(e, ToolCallEnded)]
    assert ended.input is None and "list" in (ended.error or "")
    with pytest.raises(ToolArgumentsError, match="not an object"):
        fold("openai", events)


def test_non_streamed_broken_arguments_raise() -> None:
    body = {
        "choices": [
            {
                "message": {
                    "content": None,
                    "tool_calls": [
                        {
                            "id": "c9",
                            "type": "function",
                            "function": {"name": "f", "arguments": "{"},
                        }
                    ],
                },
                "finish_reason": "tool_calls",
            }
        ]
    }
    with scripted_server() as server:
        server.answer(Answer(body=json.dumps(body).encode()))
        with LLMClient("openai", api_key=KEY, base_url=server.base_url) as llm:
            with pytest.raises(ToolArgumentsError, match="c9"):
                llm.chat(USER, model="m")


GEMINI_TWO_CALLS = sse(
    {
        "candidates": [
            {
                "content": {
                    "role": "model",
                    "parts": [
                        {"text": "Checking both."},
                        {"functionCall": {"name": "weather", "args": {"city": "Paris"}}},
                        {"functionCall": {"name": "time", "args": {"tz": "CET"}}},
                    ],
                },
                "finishReason": "STOP",
                "index": 0,
            }
        ],
        "usageMetadata": {
            "promptTokenCount": 7,
            "candidatesTokenCount": 11,
            "thoughtsTokenCount": 40,
            "totalTokenCount": 58,
        },
    },
    done=False,
)


def test_two_gemini_calls_in_one_chunk_keep_their_arguments() -> None:
    for events in every_chunking("gemini", GEMINI_TWO_CALLS):
        ended = [(e.tool_name, e.input) for e in events if isinstance(e, ToolCallEnded)]
        assert ended == [("weather", {"city": "Paris"}), ("time", {"tz": "CET"})]
        ids = {e.tool_call_id for e in events if isinstance(e, ToolCallEnded)}
        assert len(ids) == 2
        final = next(e for e in events if isinstance(e, FinalCandidate))
        # Gemini says STOP after function calls: that is a tool_use stop.
        assert (final.finish_reason, final.raw_finish_reason) == ("tool_use", "STOP")
        assert events[-1] == StreamEnd("tool_use", "STOP")
        reply = fold("gemini", events)
        assert reply.content == "Checking both." and len(reply.tool_calls) == 2
        assert reply.usage is not None
        # output_tokens counts the thinking too, as OpenAI's and Anthropic's do (Gemini
        # reports thoughtsTokenCount beside candidatesTokenCount): 11 + 40
        assert (reply.usage.input_tokens, reply.usage.output_tokens) == (7, 51)
        assert reply.usage.reasoning_tokens == 40 and reply.usage.total_tokens == 58


def test_gemini_non_streamed_tool_call_is_a_tool_use_stop() -> None:
    body = {
        "candidates": [
            {
                "content": {"parts": [{"functionCall": {"name": "f", "args": {"a": 1}}}]},
                "finishReason": "STOP",
            }
        ]
    }
    with scripted_server() as server:
        server.answer(Answer(body=json.dumps(body).encode()))
        with LLMClient("gemini", api_key=KEY, base_url=server.base_url) as llm:
            reply = llm.chat(USER, model="g")
    assert [(c.name, c.input) for c in reply.tool_calls] == [("f", {"a": 1})]
    assert (reply.finish_reason, reply.raw_finish_reason) == ("tool_use", "STOP")


# -- usage ----------------------------------------------------------------------------------


ANTHROPIC_TEXT = sse(
    {
        "type": "message_start",
        "message": {"id": "m", "usage": {"input_tokens": 25, "output_tokens": 1}},
    },
    {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
    {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "Hi"}},
    {"type": "content_block_stop", "index": 0},
    {"type": "message_delta", "delta": {"stop_reason": "end_turn"}, "usage": {"output_tokens": 9}},
    {"type": "message_stop"},
    done=False,
    event_names=True,
)


def test_anthropic_streamed_usage_has_the_input_tokens() -> None:
    for events in every_chunking("anthropic", ANTHROPIC_TEXT):
        reply = fold("anthropic", events)
        assert reply.content == "Hi" and reply.finish_reason == "end_turn"
        assert reply.usage is not None
        assert (reply.usage.input_tokens, reply.usage.output_tokens) == (25, 9)
        assert reply.usage.total_tokens == 34


def test_openai_reasoning_tokens_and_split_token_counts() -> None:
    usage = {
        "prompt_tokens": 5,
        "completion_tokens": 50,
        "total_tokens": 55,
        "completion_tokens_details": {"reasoning_tokens": 32},
    }
    body = sse(
        openai_chunk({"content": "ok"}),
        openai_chunk({}, "stop"),
        {**openai_chunk({}), "choices": [], "usage": usage},
    )
    for events in every_chunking("openai", body):
        reply = fold("openai", events)
        assert reply.usage == Usage(5, 50, 55, usage, 32)
    assert Usage.from_raw({"input_tokens": 1}) == Usage(1, None, None, {"input_tokens": 1})


# -- errors inside a stream -----------------------------------------------------------------


OPENAI_ERROR_MIDWAY = sse(
    openai_chunk({"content": "Hel"}),
    {"error": {"message": "The server had an error", "type": "server_error", "code": None}},
    done=False,
)
ANTHROPIC_ERROR_MIDWAY = sse(
    {"type": "message_start", "message": {"id": "m", "usage": {"input_tokens": 3}}},
    {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "Hel"}},
    {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}},
    done=False,
    event_names=True,
)


@pytest.mark.parametrize(
    ("provider", "body", "message", "kind"),
    [
        ("openai", OPENAI_ERROR_MIDWAY, "The server had an error", "server_error"),
        ("anthropic", ANTHROPIC_ERROR_MIDWAY, "Overloaded", "overloaded_error"),
    ],
)
def test_an_error_frame_is_a_stream_error_at_every_chunking(
    provider: str, body: bytes, message: str, kind: str
) -> None:
    for _name, pieces in chunkings(body):
        decoder = StreamDecoder(Manifest.bundled(provider).stream)
        events: list[StreamEvent] = []
        for piece in pieces:
            events += decoder.feed(piece)
        errors = [e for e in events if isinstance(e, StreamError)]
        assert len(errors) == 1 and errors[0].message == message
        assert errors[0].error_type == kind and decoder.error is errors[0]
        assert decoder.complete  # nothing more is read after the provider's error
        assert "".join(e.content for e in events if isinstance(e, PartialContentDelta)) == "Hel"


@pytest.mark.parametrize(
    ("provider", "body", "message", "kind"),
    [
        ("openai", OPENAI_ERROR_MIDWAY, "The server had an error", "server_error"),
        ("anthropic", ANTHROPIC_ERROR_MIDWAY, "Overloaded", "overloaded_error"),
    ],
)
def test_an_error_frame_raises_the_providers_message(
    provider: str, body: bytes, message: str, kind: str
) -> None:
    with scripted_server() as server:
        server.answer(Answer(body=body, content_type="text/event-stream"))
        with LLMClient(provider, api_key=KEY, base_url=server.base_url) as llm:
            seen: list[StreamEvent] = []
            with pytest.raises(ProviderStreamError) as info, llm.stream(USER, model="m") as s:
                for event in s:
                    seen.append(event)
            assert not isinstance(info.value, IncompleteStreamError)
            assert message in str(info.value) and kind in str(info.value)
            assert isinstance(info.value.error, dict) and info.value.error["message"] == message
            # the standard code and advice, as on an error answer (both are E3xxx: retry or
            # fall back to another provider)
            wanted = {"server_error": "E3001", "overloaded_error": "E3002"}[kind]
            assert (info.value.code, info.value.retryable, info.value.fallbackable) == (
                wanted,
                True,
                True,
            )
            assert any(isinstance(e, StreamError) for e in seen)
            assert not any(isinstance(e, StreamEnd) for e in seen)
            with (
                pytest.raises(ProviderStreamError, match=message),
                llm.stream(USER, model="m") as s,
            ):
                s.final_response()


def test_sse_error_event_with_plain_text_data() -> None:
    body = b"data: " + json.dumps(openai_chunk({"content": "a"})).encode() + b"\n\n"
    body += b"event: error\ndata: upstream timed out\n\n"
    for _name, pieces in chunkings(body):
        decoder = StreamDecoder(Manifest.bundled("openai").stream)
        events = [e for p in pieces for e in decoder.feed(p)]
        errors = [e for e in events if isinstance(e, StreamError)]
        assert [e.message for e in errors] == ["upstream timed out"]


def test_gemini_error_object_is_classified_by_its_status() -> None:
    body = sse({"error": {"code": 429, "message": "slow down", "status": "RESOURCE_EXHAUSTED"}})
    events = decode("gemini", [body])
    (error,) = [e for e in events if isinstance(e, StreamError)]
    assert error.message == "slow down" and error.error_class == "rate_limited"


# -- the end of the body ----------------------------------------------------------------------


def test_a_last_frame_without_its_blank_line_is_still_read() -> None:
    usage = {"prompt_tokens": 2, "completion_tokens": 3, "total_tokens": 5}
    body = sse(openai_chunk({"content": "ok"}), openai_chunk({}, "stop"), done=False)
    body += b"data: " + json.dumps({**openai_chunk({}), "choices": [], "usage": usage}).encode()
    body += b"\n\ndata: [DONE]"  # no closing blank line
    for events in every_chunking("openai", body):
        reply = fold("openai", events)
        assert reply.usage is not None and reply.usage.total_tokens == 5


def test_content_sent_as_typed_parts() -> None:
    """Mistral's reasoning models stream ``delta.content`` as a list of parts."""
    body = sse(
        openai_chunk(
            {"content": [{"type": "thinking", "thinking": [{"type": "text", "text": "hmm"}]}]}
        ),
        openai_chunk({"content": [{"type": "text", "text": "Yes"}]}),
        openai_chunk({"content": [{"type": "reference", "reference_ids": [1]}]}),
        openai_chunk({}, "stop"),
    )
    for events in every_chunking("mistral", body):
        assert [e.thinking for e in events if isinstance(e, ThinkingDelta)] == ["hmm"]
        assert [e.content for e in events if isinstance(e, PartialContentDelta)] == ["Yes"]
        parts = [e.extra["content_part"] for e in events if isinstance(e, Metadata) and e.extra]
        assert parts == [{"type": "reference", "reference_ids": [1]}]


# -- manifests whose event map the client cannot follow ---------------------------------------


def test_unknown_extract_field_is_refused_at_load() -> None:
    data = json.loads(json.dumps(Manifest.bundled("openai").data))
    data["streaming"]["event_map"][1]["extract"] = {"text": "$.choices[*].delta.content"}
    with pytest.raises(ManifestError) as info:
        Manifest.from_dict(data, source="mine.json")
    assert info.value.source == "mine.json"
    assert info.value.pointer == "/streaming/event_map/1/extract/text"
    assert "PartialContentDelta has no field 'text'" in str(info.value)


def test_v2_event_names_and_whole_tool_call_objects() -> None:
    """v2 manifests: ``UsageReport``, ``partial_json``, the whole ``tool_calls`` list and a
    StreamEnd that carries usage."""
    data = json.loads(json.dumps(Manifest.bundled("openai").data))
    data["streaming"]["event_map"] = [
        {
            "match": "$.choices[0].delta.content",
            "emit": "PartialContentDelta",
            "extract": {"content": "$.choices[0].delta.content"},
        },
        {
            "match": "$.choices[0].delta.tool_calls",
            "emit": "PartialToolCall",
            "extract": {"tool_calls": "$.choices[0].delta.tool_calls"},
        },
        {
            "match": "$.choices[0].finish_reason",
            "emit": "StreamEnd",
            "extract": {"finish_reason": "$.choices[0].finish_reason"},
        },
        {"match": "$.usage", "emit": "UsageReport", "extract": {"usage": "$.usage"}},
    ]
    manifest = Manifest(data, "v2ish.json")  # the v1.1 schema knows no UsageReport: compile only
    for events in every_chunking(manifest, STR_008):
        ended = [(e.tool_call_id, e.input) for e in events if isinstance(e, ToolCallEnded)]
        assert ended == [("call_abc", {"query": "AI protocol", "limit": 10})]
        assert events[-1] == StreamEnd("tool_use", "tool_calls")
    pieces = "".join(
        e.arguments for e in decode(manifest, [STR_007]) if isinstance(e, PartialToolCall)
    )
    assert pieces == '{"location":"New York"}'


def test_a_manifest_without_termination_mapping_uses_its_formats_reasons() -> None:
    assert "termination" not in Manifest.bundled("yi").data
    body = sse(openai_chunk({"content": "ok"}), openai_chunk({}, "stop"))
    for events in every_chunking("yi", body):
        assert events[-1] == StreamEnd("end_turn", "stop")


def test_importing_the_client_does_not_import_pydantic() -> None:
    """pydantic is half the import time of ``from agentproto.llm import LLMClient`` and the
    LLM client uses no model: the HTTP runtime imports it when a model is first used."""
    import subprocess
    import sys
    from pathlib import Path

    code = "import sys; from agentproto.llm import LLMClient; print('pydantic' in sys.modules)"
    generated = Path(__file__).resolve().parent.parent / "generated"
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env={"PYTHONPATH": str(generated), "PATH": "/usr/bin:/bin"},
    )
    assert out.stdout.strip() == "False"


def test_metadata_fields_and_typed_parts_reach_the_folded_answer() -> None:
    body = sse(
        openai_chunk({"content": [{"type": "text", "text": "See "}]}),
        openai_chunk({"content": [{"type": "reference", "reference_ids": [1]}]}),
        openai_chunk({}, "stop"),
    )
    reply = fold("mistral", decode("mistral", [body]))
    assert reply.content == "See "
    assert reply.extra == {"content_parts": [{"type": "reference", "reference_ids": [1]}]}


def test_openai_compatible_reasoning_deltas_are_thinking() -> None:
    """deepseek's manifest maps no reasoning_content: the deltas come out as ThinkingDelta."""
    assert not any(
        r["emit"] == "ThinkingDelta"
        for r in Manifest.bundled("deepseek").data["streaming"]["event_map"]
    )
    body = sse(
        openai_chunk({"reasoning_content": "9.11 < 9.9"}),
        openai_chunk({"reasoning": " so"}),
        openai_chunk({"content": "9.9"}),
        openai_chunk({}, "stop"),
    )
    for events in every_chunking("deepseek", body):
        reply = fold("deepseek", events)
        assert (reply.thinking, reply.content) == ("9.11 < 9.9 so", "9.9")


def test_gemini_thought_parts_are_thinking_not_content() -> None:
    body = sse(
        {"candidates": [{"content": {"parts": [{"text": "Hmm.", "thought": True}]}}]},
        {"candidates": [{"content": {"parts": [{"text": "Hi"}]}, "finishReason": "STOP"}]},
        done=False,
    )
    for events in every_chunking("gemini", body):
        reply = fold("gemini", events)
        assert (reply.thinking, reply.content) == ("Hmm.", "Hi")


def test_a_query_in_the_stream_path_reaches_the_server() -> None:
    """``stream_path="...?alt=sse"`` (the README's Gemini example): httpx's ``params=`` would
    replace the path's query, so ``alt=sse`` was lost and Gemini answered a JSON array."""
    frame = {"candidates": [{"content": {"parts": [{"text": "Hi"}]}, "finishReason": "STOP"}]}
    with scripted_server() as server:
        server.answer(
            Answer(body=f"data: {json.dumps(frame)}\n\n".encode(), content_type="text/event-stream")
        )
        with LLMClient(
            "gemini",
            api_key=KEY,
            base_url=server.base_url + "?tenant=t1",
            stream_path="/models/{model}:streamGenerateContent?alt=sse",
        ) as llm:
            with llm.stream(USER, model="g") as stream:
                assert stream.text() == "Hi"
    (request,) = server.requests
    assert request.path == "/models/g:streamGenerateContent"
    assert dict(parse_qsl(request.query)) == {"tenant": "t1", "alt": "sse", "key": KEY}


@pytest.mark.parametrize(
    "body",
    [
        # Anthropic's shape: an event line and a data line per frame
        sse(
            {"type": "content_block_delta", "delta": {"type": "text_delta", "text": "a"}},
            done=False,
            event_names=True,
        ),
        b'event: error\ndata: {"message": "overloaded"}\n\n',  # event: error, other JSON
        b"event: ping\ndata: not json\n\n",
        b'data: [DONE]\n\ndata: {"after": 1}\n\n',  # nothing read after the done signal
        b"event: [DONE]\ndata: x\n\n",
        b'data: {"a": 1}\r\n\r\n',  # CRLF line ends
        b'data: {"a":\ndata: 1}\n\n',  # one frame, two data lines
        b": a comment\n\n",
        b"\n\n",
        b"event: \xff\ndata: {}\n\n",  # an event name that is not UTF-8
        b"data: \xff\n\n",  # data that is not UTF-8
    ],
)
@pytest.mark.parametrize("provider", ["openai", "anthropic"])
def test_a_chunk_holding_one_whole_frame_reads_as_the_whole_body_does(
    provider: str, body: bytes
) -> None:
    """feed() reads a chunk that is exactly one frame on a path of its own (no generator):
    the same frames, events and errors as the general path gives for the same bytes."""

    def outcome(pieces: list[bytes]) -> tuple[list[Any], str | None]:
        decoder = StreamDecoder(Manifest.bundled(provider).stream)
        events: list[Any] = []
        try:
            for piece in pieces:
                events += decoder.feed(piece)
        except Exception as exc:
            return events, f"{type(exc).__name__}: {exc}"
        return [*events, ("done", decoder.done)], None

    frames = [f + b"\n\n" for f in body.replace(b"\r\n", b"\n").split(b"\n\n")[:-1]]
    whole = outcome([b"data: {}\n\n" + body])  # two frames in a chunk: the general path
    one_by_one = outcome([b"data: {}\n\n", *frames])
    assert [repr(e) for e in one_by_one[0]] == [repr(e) for e in whole[0]]
    assert one_by_one[1] == whole[1]


def test_a_one_frame_chunk_past_the_frame_limit_is_refused() -> None:
    from agentproto import Limits
    from agentproto._runtime.http_errors import ResponseTooLargeError

    decoder = StreamDecoder(Manifest.bundled("openai").stream, Limits(max_sse_event_bytes=64))
    with pytest.raises(ResponseTooLargeError):
        decoder.feed(b"data: " + json.dumps({"text": "x" * 100}).encode() + b"\n\n")
