"""Non-streamed answers are read whole (issue 16): defaults for manifests without
``response_paths``, every text / thinking / call part (not just part ``[0]``), every candidate
of ``n`` > 1, usage summed over a simulated ``n``. Answers served over loopback HTTP."""

from __future__ import annotations

import json
from typing import Any

import pytest
from agentproto._runtime.http_errors import ResponseValidationError
from agentproto.llm import LLMClient, Manifest
from agentproto.llm.response import ChatResponse

from tests.servers.scripted import Answer, scripted_server

USER = [{"role": "user", "content": "hi"}]
KEY = "sk-test-responses"


def served(provider: str | Manifest, body: Any, **call: Any) -> ChatResponse:
    with scripted_server() as server:
        server.answer(Answer(body=json.dumps(body).encode()))
        with LLMClient(provider, api_key=KEY, base_url=server.base_url) as llm:
            return llm.chat(USER, model="m", **call)


OPENAI_ANSWER = {
    "choices": [
        {
            "index": 0,
            "message": {"content": "Paris", "reasoning_content": "capital of France"},
            "finish_reason": "stop",
        }
    ],
    "usage": {"prompt_tokens": 3, "completion_tokens": 4, "total_tokens": 7},
}


def test_a_manifest_without_response_paths_reads_its_formats_defaults() -> None:
    assert "response_paths" not in Manifest.bundled("yi").data
    reply = served("yi", OPENAI_ANSWER)
    assert (reply.content, reply.finish_reason, reply.thinking) == (
        "Paris",
        "end_turn",
        "capital of France",
    )
    assert reply.usage is not None and reply.usage.total_tokens == 7
    # A user's manifest too (and groq's, which names no finish_reason path).
    data = json.loads(json.dumps(Manifest.bundled("openai").data))
    del data["response_paths"]
    assert served(Manifest.from_dict(data), OPENAI_ANSWER).content == "Paris"
    assert served("groq", OPENAI_ANSWER).finish_reason == "end_turn"


def test_anthropic_answer_with_thinking_first_and_several_text_blocks() -> None:
    body = {
        "content": [
            {"type": "thinking", "thinking": "Let me see.", "signature": "s"},
            {"type": "text", "text": "The answer "},
            {"type": "text", "text": "is 4."},
            {"type": "tool_use", "id": "toolu_1", "name": "calc", "input": {"x": "2+2"}},
        ],
        "stop_reason": "tool_use",
        "usage": {"input_tokens": 10, "output_tokens": 20},
    }
    reply = served("anthropic", body)
    assert reply.content == "The answer is 4."
    assert reply.thinking == "Let me see."
    assert [(c.id, c.name, c.input) for c in reply.tool_calls] == [
        ("toolu_1", "calc", {"x": "2+2"})
    ]
    assert reply.finish_reason == "tool_use"


def test_gemini_answer_with_a_call_before_the_text_and_a_thought() -> None:
    body = {
        "candidates": [
            {
                "content": {
                    "parts": [
                        {"text": "thinking...", "thought": True},
                        {"functionCall": {"name": "f", "args": {"a": 1}}},
                        {"text": "Calling f."},
                    ]
                },
                "finishReason": "STOP",
            }
        ],
        "usageMetadata": {
            "promptTokenCount": 2,
            "candidatesTokenCount": 3,
            "thoughtsTokenCount": 5,
        },
    }
    reply = served("gemini", body)
    assert (reply.content, reply.thinking) == ("Calling f.", "thinking...")
    assert [(c.name, c.input) for c in reply.tool_calls] == [("f", {"a": 1})]
    assert reply.finish_reason == "tool_use"
    assert reply.usage is not None and reply.usage.reasoning_tokens == 5


def test_cohere_answer_with_several_text_parts() -> None:
    body = {
        "message": {"content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]},
        "finish_reason": "COMPLETE",
    }
    assert served("cohere", body).content == "ab"


def test_native_n_gives_every_candidate() -> None:
    body = {
        "choices": [
            {"index": 0, "message": {"content": "one"}, "finish_reason": "stop"},
            {"index": 1, "message": {"content": "two"}, "finish_reason": "length"},
        ],
        "usage": {"prompt_tokens": 1, "completion_tokens": 2, "total_tokens": 3},
    }
    reply = served("openai", body, n=2)
    assert [(c.index, c.content, c.finish_reason) for c in reply.candidates] == [
        (0, "one", "end_turn"),
        (1, "two", "max_tokens"),
    ]
    assert reply.usage is not None and reply.usage.total_tokens == 3


def test_simulated_n_sums_the_usage_of_every_request() -> None:
    body = {
        "content": [{"type": "text", "text": "hi"}],
        "stop_reason": "end_turn",
        "usage": {"input_tokens": 5, "output_tokens": 2},
    }
    reply = served("anthropic", body, n=3)
    assert [c.index for c in reply.candidates] == [0, 1, 2]
    assert reply.usage is not None
    assert (reply.usage.input_tokens, reply.usage.output_tokens) == (15, 6)
    assert len(reply.usage.raw["requests"]) == 3 and isinstance(reply.raw, list)


@pytest.mark.parametrize("provider", ["openai", "anthropic", "gemini", "cohere"])
def test_an_answer_without_its_content_field_is_an_error(provider: str) -> None:
    """A 200 answer with no content field (nor a tool call, nor a finish reason saying why)
    is not handed out as ``content=''``: it raises, naming the provider (issue 27)."""
    with pytest.raises(ResponseValidationError) as info:
        served(provider, {})
    assert provider in str(info.value) and "no content field" in str(info.value)


@pytest.mark.parametrize(
    ("provider", "body"),
    [
        ("openai", {"choices": [{"message": {"content": None}, "finish_reason": "stop"}]}),
        ("openai", {"choices": [{"message": {"content": ""}, "finish_reason": "stop"}]}),
        ("openai", {"choices": [{"message": {}, "finish_reason": "length"}]}),
        ("anthropic", {"content": [], "stop_reason": "end_turn"}),
        ("gemini", {"candidates": [{"finishReason": "SAFETY"}]}),
    ],
)
def test_an_empty_answer_the_provider_sent_is_empty(provider: str, body: dict[str, Any]) -> None:
    """Content sent empty (or null), or a finish reason that says why there is none (cut off,
    refused): an empty answer, as the provider sent it."""
    reply = served(provider, body)
    assert reply.content == "" and reply.tool_calls == ()
