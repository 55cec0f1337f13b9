"""The tool loop (``run_tools``): against ai-protocol-mock's recursive tool calls and on
scripted OpenAI- and Anthropic-format answers served over loopback, sync and async."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any, Literal

import anyio
import pytest
from agentproto._runtime.http_errors import ResponseValidationError
from agentproto.llm import (
    AsyncLLMClient,
    FunctionTool,
    LLMClient,
    ToolError,
    ToolExecutionError,
    ToolLoopLimitError,
    ToolLoopResult,
    function_tool,
)

from tests.servers.mock_provider import MockProvider, start_mock_provider
from tests.servers.scripted import Answer, Script, scripted_server

KEY = "sk-test-DO-NOT-LEAK-789"
USER = [{"role": "user", "content": "What is the weather?"}]
RECURSIVE = {"X-Mock-Tool-Calls": "recursive", "X-Mock-Tool-Depth": "2"}


@pytest.fixture(scope="module")
def mock(tmp_path_factory: pytest.TempPathFactory) -> Iterator[MockProvider]:
    provider = start_mock_provider(tmp_path_factory.mktemp("mock"))
    try:
        yield provider
    finally:
        provider.stop()


@pytest.fixture()
def server() -> Iterator[Script]:
    with scripted_server() as script:
        yield script


def step_1_tool(step: int) -> dict[str, Any]:
    """Run one step."""
    return {"step": step, "ok": True}


async def get_time(tz: str) -> str:
    """The time in a zone."""
    await anyio.sleep(0)
    return f"12:00 {tz}"


def get_weather(city: str, days: int = 1, unit: Literal["C", "F"] = "C") -> dict[str, Any]:
    """The weather in a city.

    More text that is not part of the description.
    """
    return {"city": city, "days": days, "unit": unit, "temp": 21}


def sent(script: Script, index: int) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(script.requests[index].body)
    return data


def openai_calls(*calls: tuple[str, str, str]) -> Answer:
    message = {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {"id": i, "type": "function", "function": {"name": n, "arguments": a}}
            for i, n, a in calls
        ],
    }
    return openai_message(message, "tool_calls")


def openai_message(message: dict[str, Any], finish: str = "stop") -> Answer:
    body = {
        "id": "c",
        "object": "chat.completion",
        "choices": [{"index": 0, "message": message, "finish_reason": finish}],
    }
    return Answer(body=json.dumps(body).encode())


def test_loop_against_the_mock_sync_and_async(mock: MockProvider) -> None:
    base = mock.base_url + "/v1"
    with LLMClient("openai", api_key=KEY, base_url=base) as llm:
        result = llm.run_tools(USER, tools=[step_1_tool], model="m", extra_headers=RECURSIVE)

    async def main() -> ToolLoopResult:
        async with AsyncLLMClient("openai", api_key=KEY, base_url=base) as llm:
            return await llm.run_tools(
                USER, tools=[step_1_tool, get_time], model="m", extra_headers=RECURSIVE
            )

    for outcome in (result, anyio.run(main)):
        assert outcome.content == "Mock response from ai-protocol-mock"
        assert outcome.iterations == 2
        assert [(r.call.name, r.call.input, r.output) for r in outcome.runs] == [
            ("step_1_tool", {"step": 1}, '{"step": 1, "ok": true}')
        ]
        roles = [m["role"] for m in outcome.messages]
        assert roles == ["user", "assistant", "user", "assistant"]
        assert outcome.messages[2]["content"][0]["tool_use_id"] == "call_step_1"


def test_limit_is_a_clear_error(mock: MockProvider) -> None:
    with LLMClient("openai", api_key=KEY, base_url=mock.base_url + "/v1") as llm:
        with pytest.raises(ToolLoopLimitError, match="after 1 chats") as caught:
            llm.run_tools(
                USER, tools=[step_1_tool], model="m", extra_headers=RECURSIVE, max_iterations=1
            )
    assert len(caught.value.runs) == 1 and caught.value.response is not None
    assert caught.value.messages[-1]["content"][0]["type"] == "tool_result"


def test_parallel_calls_sync_and_async_tools(server: Script) -> None:
    server.answer(
        openai_calls(
            ("c1", "get_weather", '{"city": "Oslo", "days": "2"}'),
            ("c2", "get_time", '{"tz": "UTC"}'),
        ),
        openai_message({"role": "assistant", "content": "Sunny, noon."}),
    )

    async def main() -> ToolLoopResult:
        async with AsyncLLMClient("openai", api_key=KEY, base_url=server.base_url) as llm:
            return await llm.run_tools(
                USER, tools=[get_weather, get_time], model="m", tool_choice="required"
            )

    result = anyio.run(main)
    assert result.content == "Sunny, noon." and result.iterations == 2
    first, second = sent(server, 0), sent(server, 1)
    assert first["tool_choice"] == "required" and "tool_choice" not in second
    assert first["tools"][0] == {
        "type": "function",
        "function": {
            "name": "get_weather",
            "description": "The weather in a city.",
            "parameters": function_tool(get_weather).parameters,
        },
    }
    assert second["messages"][1]["tool_calls"][1]["id"] == "c2"
    tool_messages = [m for m in second["messages"] if m["role"] == "tool"]
    assert [
        (m["tool_call_id"], json.loads(m["content"]) if "{" in m["content"] else m["content"])
        for m in tool_messages
    ] == [
        ("c1", {"city": "Oslo", "days": 2, "unit": "C", "temp": 21}),  # "2" validated to 2
        ("c2", "12:00 UTC"),
    ]


ANTHROPIC_CALLS = {
    "id": "msg",
    "type": "message",
    "role": "assistant",
    "content": [
        {"type": "tool_use", "id": "t1", "name": "lookup", "input": {"city": "Atlantis"}},
        {"type": "tool_use", "id": "t2", "name": "get_weather", "input": {"unit": "K"}},
        {"type": "tool_use", "id": "t3", "name": "nope", "input": {}},
    ],
    "stop_reason": "tool_use",
    "usage": {"input_tokens": 1, "output_tokens": 1},
}
ANTHROPIC_DONE = {
    "id": "msg2",
    "type": "message",
    "role": "assistant",
    "content": [{"type": "text", "text": "Sorry."}],
    "stop_reason": "end_turn",
    "usage": {"input_tokens": 1, "output_tokens": 1},
}


def test_failed_calls_are_reported_to_the_model(server: Script) -> None:
    def lookup(city: str) -> str:
        raise ToolError(f"no city called {city}")

    server.answer(
        Answer(body=json.dumps(ANTHROPIC_CALLS).encode()),
        Answer(body=json.dumps(ANTHROPIC_DONE).encode()),
    )
    with LLMClient("anthropic", api_key=KEY, base_url=server.base_url) as llm:
        result = llm.run_tools(USER, tools=[lookup, get_weather], model="m")
    assert result.content == "Sorry."
    blocks = sent(server, 1)["messages"][-1]["content"]
    assert [b["tool_use_id"] for b in blocks] == ["t1", "t2", "t3"]
    assert all(b["is_error"] is True for b in blocks)
    assert blocks[0]["content"] == "no city called Atlantis"
    assert "city: Field required" in blocks[1]["content"]
    assert "unit: Input should be 'C' or 'F'" in blocks[1]["content"]
    assert blocks[2]["content"].startswith("there is no tool 'nope'")
    assert [r.is_error for r in result.runs] == [True, True, True]


def test_bad_json_arguments_are_reported_or_refused(server: Script) -> None:
    """Arguments that are not JSON never reach the tool: the loop tells the model, or (a client
    that refuses them while reading the answer) the call raises before anything else is sent."""
    server.answer(
        openai_calls(("c1", "get_weather", '{"city": "Os')),
        openai_message({"role": "assistant", "content": "ok"}),
    )
    ran: list[str] = []

    def get_weather(city: str) -> str:
        ran.append(city)
        return "sunny"

    with LLMClient("openai", api_key=KEY, base_url=server.base_url) as llm:
        try:
            result = llm.run_tools(USER, tools=[get_weather], model="m")
        except ResponseValidationError as exc:
            assert "not valid JSON" in str(exc) and len(server.requests) == 1
        else:
            assert result.runs[0].is_error and "not valid JSON" in result.runs[0].output
            assert sent(server, 1)["messages"][-1] == {
                "role": "tool",
                "tool_call_id": "c1",
                "content": result.runs[0].output,
            }
    assert ran == []


def test_unexpected_exceptions_stop_the_loop_and_stay_local(server: Script) -> None:
    def leaky(city: str) -> str:
        raise RuntimeError(f"database password for {city} is hunter2")

    server.answer(openai_calls(("c1", "leaky", '{"city": "Oslo"}')))
    with LLMClient("openai", api_key=KEY, base_url=server.base_url) as llm:
        with pytest.raises(ToolExecutionError, match="'leaky' raised RuntimeError") as caught:
            llm.run_tools(USER, tools=[leaky], model="m")
    assert isinstance(caught.value.__cause__, RuntimeError)
    assert "hunter2" not in str(caught.value)
    assert len(server.requests) == 1  # nothing was sent after the failure


def test_blocking_loop_refuses_async_tools_and_bad_tool_sets(server: Script) -> None:
    with LLMClient("openai", api_key=KEY, base_url=server.base_url) as llm:
        with pytest.raises(TypeError, match="async def"):
            llm.run_tools(USER, tools=[get_time], model="m")
        with pytest.raises(ValueError, match="two tools"):
            llm.run_tools(USER, tools=[get_weather, function_tool(step_1_tool, name="get_weather")])
        with pytest.raises(ValueError, match="at least one tool"):
            llm.run_tools(USER, tools=[], model="m")
    assert server.requests == []


def test_function_tool_schema() -> None:
    tool = function_tool(get_weather)
    assert isinstance(tool, FunctionTool) and not tool.is_async
    assert tool.description == "The weather in a city."
    assert tool.parameters["required"] == ["city"]
    assert tool.parameters["properties"]["days"] == {
        "default": 1,
        "title": "Days",
        "type": "integer",
    }
    assert tool.parameters["properties"]["unit"]["enum"] == ["C", "F"]
    assert function_tool(get_time, description="Now.").spec()["description"] == "Now."
    assert function_tool(get_time).is_async

    def splat(*args: int) -> int:
        return len(args)

    with pytest.raises(TypeError, match=r"\*args"):
        function_tool(splat)


def test_a_chat_failing_after_tools_ran_keeps_the_conversation(server: Script) -> None:
    """The tool already ran (its side effects happened): the error carries what it did."""
    from agentproto.llm import ProviderError, ToolLoopChatError

    ran: list[str] = []

    def book(city: str) -> str:
        ran.append(city)
        return "booked"

    server.answer(
        openai_calls(("c1", "book", '{"city": "Oslo"}')),
        Answer(status=500, body=b'{"error": {"message": "boom", "type": "server_error"}}'),
    )
    with LLMClient("openai", api_key=KEY, base_url=server.base_url, retry=False) as llm:
        with pytest.raises(ToolLoopChatError) as caught:
            llm.run_tools(USER, tools=[book], model="m")
    assert ran == ["Oslo"]
    assert isinstance(caught.value.__cause__, ProviderError)
    assert [(r.call.name, r.output) for r in caught.value.runs] == [("book", "booked")]
    (result,) = caught.value.messages[-1]["content"]
    assert (result["tool_use_id"], result["content"]) == ("c1", "booked")
    # the first chat failing is the provider's error itself: no tool ran
    server.answer(Answer(status=500, body=b'{"error": {"message": "boom"}}'))
    with LLMClient("openai", api_key=KEY, base_url=server.base_url, retry=False) as llm:
        with pytest.raises(ProviderError):
            llm.run_tools(USER, tools=[book], model="m")
