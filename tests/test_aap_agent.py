"""The LLM agent (``agentproto.aap.LLMAgent``) answering AAP turns with a manifest provider,
offline: against the independent ``ai-protocol-mock`` server (streamed text; its tool calls,
which it sends whole, in the message and none modes) and a scripted OpenAI-format server for
streamed tool calls; and ``python -m agentproto.aap.serve --provider openai`` as a working
AAP agent from the command line. Also the server tools' failure modes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from agentproto.aap import (
    AAPClient,
    AAPServer,
    Agent,
    ClientTool,
    LLMAgent,
    ServerSettings,
    Session,
    ToolDecision,
    fold_events,
)
from agentproto.aap.agent import ServerTool, Stop, ToolUse
from agentproto.aap.llm_agent import to_llm_messages
from agentproto.aap.models import (
    AssistantMessage,
    HistoryMessage,
    ToolMessage,
    ToolUseContentBlock,
    UserMessage,
)
from agentproto.llm import AsyncLLMClient, ToolError
from pydantic import TypeAdapter

from tests.conftest import GENERATED, ROOT
from tests.servers.loopback import serve
from tests.servers.mock_provider import MockProvider, start_mock_provider
from tests.servers.scripted import Answer, scripted_server

PROVIDER_KEY = "sk-provider-never-shown-5555"
MOCK_TEXT = "Mock response from ai-protocol-mock"
RECURSIVE = {"X-Mock-Tool-Calls": "recursive", "X-Mock-Tool-Depth": "2"}
STEPS: list[int] = []


@pytest.fixture(scope="module")
def mock(tmp_path_factory: pytest.TempPathFactory) -> Iterator[MockProvider]:
    provider = start_mock_provider(tmp_path_factory.mktemp("mock"))
    try:
        yield provider
    finally:
        provider.stop()


def step_1_tool(step: int) -> str:
    """Run one step."""
    STEPS.append(step)
    return f"step {step} done"


@contextmanager
def llm_site(base_url: str, tmp: Path, *, headers: dict[str, str] | None = None) -> Iterator[str]:
    llm = AsyncLLMClient("openai", api_key=PROVIDER_KEY, base_url=base_url, headers=headers)
    agent = LLMAgent("assistant", llm, model="gpt-4o-mini", system="Be brief.", tools=[step_1_tool])
    server = AAPServer(agent, store=f"sqlite:///{tmp / 'aap.db'}", auth=None)
    with serve(server.app) as url:
        yield url


def user(text: str) -> UserMessage:
    return UserMessage(role="user", content=text)


def test_delta_mode_streams_the_providers_deltas(mock: MockProvider, tmp_path: Path) -> None:
    with llm_site(mock.base_url + "/v1", tmp_path) as url:
        with AAPClient(url, api_key="any") as client:
            sid = client.create_session(agent={"name": "assistant"}).session_id
            with client.create_turn_stream(sid, messages=[user("Hi")], mode="delta") as events:
                seen = list(events)
            deltas = [e for e in seen if e.event == "text_delta"]
            assert len(deltas) == len(MOCK_TEXT)  # the mock streams one character a chunk
            assert fold_events(seen).text == MOCK_TEXT and seen[-1].event == "turn_stop"
            history = client.get_session_history(sid, type="full").history.full or []
            assert [m.role for m in history] == ["user", "assistant"]


def test_the_providers_tool_calls_take_each_path(mock: MockProvider, tmp_path: Path) -> None:
    with llm_site(mock.base_url + "/v1", tmp_path, headers=RECURSIVE) as url:
        with AAPClient(url, api_key="any") as client:
            # a trusted server tool: run inline, the model called again, one turn
            sid = client.create_session(
                agent={"name": "assistant", "tools": [{"name": "step_1_tool", "trust": True}]}
            ).session_id
            STEPS.clear()
            reply = client.create_turn(sid, messages=[user("Go")])
            assert reply.stop_reason == "end_turn" and STEPS == [1]
            assert [m.role for m in reply.messages] == ["assistant", "tool", "assistant"]
            assert reply.messages[1] == ToolMessage(
                role="tool", tool_call_id="call_step_1", content="step 1 done"
            )
            # an untrusted one: the application is asked first
            asked: list[str] = []

            def grant(call: ToolUseContentBlock) -> ToolDecision:
                asked.append(call.name)
                return ToolDecision.grant()

            session = Session.create(
                client, "assistant", server_tools={"step_1_tool": False}, on_permission=grant,
                mode="message",
            )  # fmt: skip
            assert session.send("Go").text == MOCK_TEXT and asked == ["step_1_tool"]
            assert STEPS == [1, 1]


def test_a_client_tool_called_by_the_provider(mock: MockProvider, tmp_path: Path) -> None:
    ran: list[int] = []

    def client_step(step: int) -> str:
        """Run one step on the client."""
        ran.append(step)
        return "client did it"

    with llm_site(mock.base_url + "/v1", tmp_path, headers=RECURSIVE) as url:
        with AAPClient(url, api_key="any") as client:
            tool = ClientTool.from_function(client_step, name="step_1_tool")
            session = Session.create(client, "assistant", tools=[tool], mode="message")
            result = session.send("Go")
            assert ran == [1] and result.text == MOCK_TEXT
            tool_message = session.history()[2]
            assert isinstance(tool_message, ToolMessage)
            assert tool_message.content == "client did it"


def sse(*chunks: dict[str, Any]) -> Answer:
    body = "".join(f"data: {json.dumps(c)}\n\n" for c in chunks) + "data: [DONE]\n\n"
    return Answer(body=body.encode(), content_type="text/event-stream")


def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
    return {
        "id": "c",
        "object": "chat.completion.chunk",
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
    }


def test_streamed_tool_calls_reach_the_application(tmp_path: Path) -> None:
    call = {"index": 0, "id": "call_w", "type": "function"}
    with scripted_server() as script:
        script.answer(
            sse(
                chunk({"role": "assistant", "content": "Let me look. "}),
                chunk({"tool_calls": [{**call, "function": {"name": "weather", "arguments": ""}}]}),
                chunk({"tool_calls": [{"index": 0, "function": {"arguments": '{"city": '}}]}),
                chunk({"tool_calls": [{"index": 0, "function": {"arguments": '"Oslo"}'}}]}),
                chunk({}, "tool_calls"),
            ),
            sse(chunk({"content": "Sunny in Oslo."}), chunk({}, "stop")),
        )
        with llm_site(script.base_url + "/v1", tmp_path) as url:
            with AAPClient(url, api_key="any") as client:
                spec = {
                    "name": "weather",
                    "description": "Weather in a city",
                    "parameters": {"type": "object", "properties": {"city": {"type": "string"}}},
                }
                sid = client.create_session(agent={"name": "assistant"}, tools=[spec]).session_id
                with client.create_turn_stream(sid, messages=[user("Oslo?")], mode="delta") as ev:
                    first = list(ev)
                names = [e.event for e in first]
                assert names == ["turn_start", "text_delta", "tool_call", "turn_stop"]
                assert first[2].input == {"city": "Oslo"}  # type: ignore[union-attr]
                assert first[-1].stop_reason == "tool_use"  # type: ignore[union-attr]
                answer = ToolMessage(role="tool", tool_call_id="call_w", content="sunny")
                with client.create_turn_stream(sid, messages=[answer], mode="delta") as ev:
                    assert fold_events(ev).text == "Sunny in Oslo."
        sent = [json.loads(r.body) for r in script.requests]
    assert sent[0]["stream"] is True and sent[0]["model"] == "gpt-4o-mini"
    assert sent[0]["messages"][0] == {"role": "system", "content": "Be brief."}
    assert [t["function"]["name"] for t in sent[0]["tools"]] == ["weather"]
    assert sent[1]["messages"][-1] == {"role": "tool", "tool_call_id": "call_w", "content": "sunny"}
    assert sent[1]["messages"][-2]["tool_calls"][0]["function"]["name"] == "weather"


def test_a_provider_failure_ends_the_turn_without_its_text(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with scripted_server() as script:
        failure = {"error": {"message": "quota for org-secret-77 exhausted", "type": "invalid"}}
        script.answer(Answer(status=400, body=json.dumps(failure).encode()))
        with llm_site(script.base_url + "/v1", tmp_path) as url:
            with httpx.Client(base_url=url) as raw:
                sid = raw.post("/sessions", json={"agent": {"name": "assistant"}}).json()
                body = {"stream": "delta", "messages": [{"role": "user", "content": "x"}]}
                answer = raw.post(f"/sessions/{sid['sessionId']}/turns", json=body)
    assert answer.text.endswith('event: turn_stop\ndata: {"stopReason":"error"}\n\n')
    assert "org-secret-77" not in answer.text and "org-secret-77" in caplog.text
    assert PROVIDER_KEY not in caplog.text


def test_the_history_as_the_model_gets_it() -> None:
    history = TypeAdapter(list[HistoryMessage]).validate_python(
        [
            {"role": "system", "content": "S"},
            {
                "role": "user",
                "content": [
                    {"type": "text", "text": "look"},
                    {"type": "image", "url": "https://x/y.png"},
                ],
            },
            {
                "role": "assistant",
                "content": [
                    {"type": "thinking", "thinking": "hmm"},
                    {"type": "text", "text": "ok"},
                    {"type": "tool_use", "toolCallId": "c1", "name": "t", "input": {"a": 1}},
                ],
            },
            {"role": "tool", "toolCallId": "c1", "content": [{"type": "text", "text": "r"}]},
            {"role": "critic", "content": "a newer role"},
        ]
    )
    assert to_llm_messages(history, "Be brief.") == [
        {"role": "system", "content": "Be brief."},
        {"role": "system", "content": "S"},
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "look"},
                {"type": "image", "url": "https://x/y.png"},
            ],
        },
        {
            "role": "assistant",
            "content": [
                {"type": "text", "text": "ok"},
                {"type": "tool_use", "id": "c1", "name": "t", "input": {"a": 1}},
            ],
        },
        {"role": "tool", "tool_call_id": "c1", "content": "r"},
    ]


def test_server_tools_fail_safely(tmp_path: Path) -> None:
    def refuse(path: str) -> str:
        """Refuses."""
        raise ToolError(f"{path} is not allowed")

    def explode() -> str:
        """Breaks."""
        raise RuntimeError("internal sk-tool-leak-1234")

    async def slow() -> str:
        """Takes long."""
        import anyio

        await anyio.sleep(5)
        return "late"

    def count(n: int) -> int:
        """Counts."""
        return n + 1

    async def step(context: Any) -> Any:
        if context.history[-1].role == "tool":
            yield Stop("end_turn")
            return
        yield ToolUse("t1", "refuse", {"path": "/etc"})
        yield ToolUse("t2", "explode", {})
        yield ToolUse("t3", "slow", {})
        yield ToolUse("t4", "count", {"n": "not a number"})
        yield ToolUse("t5", "count", {"n": 41})
        yield ToolUse("t6", "hidden", {})

    agent = Agent("tools", step=step, tools=[refuse, explode, slow, count])
    agent.add_tool(ServerTool.from_function(lambda: "unexposed ran", name="hidden", exposed=False))
    assert [t.name for t in agent.info().tools or []] == ["refuse", "explode", "slow", "count"]
    server = AAPServer(
        agent, store="sqlite://:memory:", auth=None, settings=ServerSettings(tool_timeout=0.2)
    )
    refs = [{"name": n, "trust": True} for n in ("refuse", "explode", "slow", "count")]
    with serve(server.app) as url, AAPClient(url, api_key="x") as client:
        sid = client.create_session(agent={"name": "tools", "tools": refs}).session_id
        reply = client.create_turn(sid, messages=[user("go")])
    results = {m.tool_call_id: m.content for m in reply.messages if isinstance(m, ToolMessage)}
    assert results["t1"] == "Error: /etc is not allowed"
    assert results["t2"] == "Error: explode failed"
    assert results["t3"] == "Error: slow timed out"
    assert str(results["t4"]).startswith("Error: invalid arguments for count: n:")
    assert results["t5"] == "42" and results["t6"] == "unexposed ran"
    assert "sk-tool-leak" not in reply.model_dump_json()
    assert isinstance(reply.messages[0], AssistantMessage)


def test_serve_from_the_command_line_is_a_working_agent(mock: MockProvider, tmp_path: Path) -> None:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(GENERATED), str(ROOT)]),
        "OPENAI_API_KEY": PROVIDER_KEY,
        "AAP_API_KEYS": "ann:sk-ann-123",
    }
    command = [
        sys.executable, "-m", "agentproto.aap.serve", "--provider", "openai",
        "--model", "gpt-4o-mini", "--base-url", mock.base_url + "/v1",
        "--store", f"sqlite:///{tmp_path / 'aap.db'}", "--port", str(port),
        "--log-level", "warning",
    ]  # fmt: skip
    log = tmp_path / "serve.log"
    with log.open("wb") as out:
        process = subprocess.Popen(command, env=env, stdout=out, stderr=subprocess.STDOUT)
    try:
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 30
        while True:
            assert process.poll() is None, log.read_text()
            try:
                httpx.get(url + "/meta", timeout=1)
                break
            except httpx.HTTPError:
                assert time.monotonic() < deadline, log.read_text()
                time.sleep(0.1)
        with AAPClient(url, api_key="sk-ann-123") as client:
            assert client.get_meta().agents[0].name == "assistant"
            session = Session.create(client, "assistant", mode="delta")
            assert session.send("Hello").text == MOCK_TEXT
    finally:
        process.terminate()
        process.wait(timeout=10)
    assert PROVIDER_KEY not in log.read_text()
    missing = subprocess.run(
        [sys.executable, "-m", "agentproto.aap.serve", "--provider", "openai"],
        env={**env, "AAP_API_KEYS": ""}, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert missing.returncode == 2 and "holds no API key" in missing.stderr
