"""MCP servers' tools as LLM tools (issue 41): the official SDK's ``MCPServer`` serves tools
over stdio and Streamable HTTP; ``run_tools`` calls them from a mock provider's tool calls
(ai-protocol-mock's recursive calls and scripted OpenAI answers), sync and async; an ACP
agent receives ``mcpServers`` from our editor in ``session/new`` and calls one."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from agentproto._runtime.redact import Secret
from agentproto.acp import SyncAgentConnection, SyncClient
from agentproto.acp.models import (
    ContentBlockText,
    EnvVariable,
    McpServerStdio,
    SessionNotification,
    SessionUpdateAgentMessageChunk,
    SessionUpdateToolCall,
    SessionUpdateToolCallUpdate,
)
from agentproto.llm import AsyncLLMClient, LLMClient, ToolError, ToolLoopResult
from agentproto.mcp import AsyncMCPTools, HttpServer, MCPClientError, MCPTools, StdioServer

from tests.servers.loopback import serve
from tests.servers.mcp_tools import app
from tests.servers.mock_provider import MockProvider, start_mock_provider
from tests.servers.scripted import Answer, scripted_server

ROOT = Path(__file__).resolve().parent.parent
KEY = "sk-test-DO-NOT-LEAK-789"
TOKEN = "tok-secret-123456"
USER = [{"role": "user", "content": "Do the steps."}]
RECURSIVE = {"X-Mock-Tool-Calls": "recursive", "X-Mock-Tool-Depth": "2"}
STDIO = StdioServer(
    "tools",
    sys.executable,
    ["-m", "tests.servers.mcp_tools"],
    env={"MCP_TEST_TOKEN": Secret(TOKEN), "PYTHONPATH": str(ROOT)},
    cwd=str(ROOT),
)


@pytest.fixture(scope="module")
def mock(tmp_path_factory: pytest.TempPathFactory) -> Iterator[MockProvider]:
    provider = start_mock_provider(tmp_path_factory.mktemp("mock"))
    try:
        yield provider
    finally:
        provider.stop()


@pytest.fixture(scope="module")
def http_url() -> Iterator[str]:
    with serve(app(), lifespan="on") as url:
        yield url + "/mcp"


def openai_calls(*calls: tuple[str, str, dict[str, Any]]) -> Answer:
    message = {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {"id": i, "type": "function", "function": {"name": n, "arguments": json.dumps(a)}}
            for i, n, a in calls
        ],
    }
    body = {"id": "c", "choices": [{"index": 0, "message": message, "finish_reason": "tool_calls"}]}
    return Answer(body=json.dumps(body).encode())


def final(text: str) -> Answer:
    body = {
        "id": "c",
        "choices": [
            {"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}
        ],
    }
    return Answer(body=json.dumps(body).encode())


def check_steps(result: ToolLoopResult) -> None:
    assert result.content == "Mock response from ai-protocol-mock"
    assert [(r.call.name, r.call.input, json.loads(r.output)) for r in result.runs] == [
        ("step_1_tool", {"step": 1}, {"step": 1, "ok": True})
    ]


def test_run_tools_calls_a_stdio_servers_tools_async(mock: MockProvider) -> None:
    async def main() -> ToolLoopResult:
        async with (
            AsyncMCPTools([STDIO]) as tools,
            AsyncLLMClient("openai", api_key=KEY, base_url=mock.base_url + "/v1") as llm,
        ):
            names = [t.name for t in tools.tools]
            assert {"step_1_tool", "add", "shout", "token_seen"} <= set(names)
            assert next(t for t in tools.tools if t.name == "add").parameters["required"] == [
                "a",
                "b",
            ]
            return await llm.run_tools(USER, tools=tools.tools, model="m", extra_headers=RECURSIVE)

    check_steps(anyio.run(main))


def test_run_tools_calls_a_stdio_servers_tools_sync(mock: MockProvider) -> None:
    with (
        MCPTools([STDIO]) as tools,
        LLMClient("openai", api_key=KEY, base_url=mock.base_url + "/v1") as llm,
    ):
        check_steps(llm.run_tools(USER, tools=tools.tools, model="m", extra_headers=RECURSIVE))
        seen = next(t for t in tools.tools if t.name == "token_seen")
        assert seen.function() == {"result": "yes"}  # the secret env value reached the server
    assert "tok-secret" not in repr(STDIO) and "***" in repr(STDIO)
    assert "tok-secret" not in repr(tools)


def test_http_server_results_errors_and_images(http_url: str) -> None:
    """Over Streamable HTTP: text, structured and image results go back to the model; an
    ``isError`` result is the server's message; arguments are checked before anything is
    sent; the header value stays out of every repr."""
    server = HttpServer("remote", http_url, headers={"Authorization": Secret("Bearer " + TOKEN)})
    assert TOKEN not in repr(server)
    with scripted_server() as script:
        script.answer(
            openai_calls(
                ("c1", "remote_add", {"a": 2, "b": 3}),
                ("c2", "remote_shout", {"text": "hi"}),
                ("c3", "remote_fail", {"reason": "no"}),
                ("c4", "remote_picture", {}),
                ("c5", "remote_add", {"a": "x"}),
            ),
            final("done"),
        )

        async def main() -> ToolLoopResult:
            async with (
                AsyncMCPTools([server], prefix=True) as tools,
                AsyncLLMClient("openai", api_key=KEY, base_url=script.base_url) as llm,
            ):
                return await llm.run_tools(USER, tools=tools.tools, model="m")

        result = anyio.run(main)
        sent = json.loads(script.requests[1].body)
    assert result.content == "done"
    runs = {r.call.id: r for r in result.runs}
    assert json.loads(runs["c1"].output) == {"result": 5} and not runs["c1"].is_error
    assert json.loads(runs["c2"].output) == {"result": "HI!"}
    assert runs["c3"].is_error and "cannot do it: no" in runs["c3"].output
    image = json.loads(runs["c4"].output)
    assert image == [{"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"}]
    assert runs["c5"].is_error and "invalid arguments" in runs["c5"].output
    tool_messages = [m for m in sent["messages"] if m["role"] == "tool"]
    assert [m["tool_call_id"] for m in tool_messages] == ["c1", "c2", "c3", "c4", "c5"]


def test_a_slow_tool_times_out_and_big_results_are_refused(http_url: str) -> None:
    async def main() -> None:
        server = HttpServer("remote", http_url)
        async with AsyncMCPTools([server], call_timeout=0.5, max_result_bytes=40) as tools:
            by_name = {t.name: t for t in tools.tools}
            with pytest.raises(ToolError, match=r"timed out after 0\.5 s"):
                await by_name["slow"].function(seconds=5)
            with pytest.raises(ToolError, match="more than the 40 a result may have"):
                await by_name["shout"].function(text="hello" * 10)
            assert await by_name["add"].function(a=1, b=1) == {"result": 2}  # still usable

    anyio.run(main)


def test_a_server_that_cannot_start_is_a_typed_error() -> None:
    broken = StdioServer("broken", sys.executable, ["-c", "import sys; sys.exit(3)"])

    async def main() -> None:
        with pytest.raises(MCPClientError, match="broken") as caught:
            async with AsyncMCPTools([broken], connect_timeout=10):
                pass
        assert caught.value.server == "broken"

    anyio.run(main)


def test_two_servers_with_one_tool_name_need_prefixes(http_url: str) -> None:
    async def main() -> None:
        servers = [HttpServer("a", http_url), HttpServer("b", http_url)]
        with pytest.raises(ValueError, match="pass prefix=True"):
            async with AsyncMCPTools(servers):
                pass
        async with AsyncMCPTools(servers, prefix=True) as tools:
            names = {t.name for t in tools.tools}
            assert {"a_add", "b_add"} <= names

    anyio.run(main)


class Editor(SyncClient):
    def __init__(self) -> None:
        self.text: list[str] = []
        self.tools: list[str] = []

    def session_update(self, params: SessionNotification) -> None:
        match params.update:
            case SessionUpdateAgentMessageChunk(content=ContentBlockText(text=text)):
                self.text.append(text)
            case SessionUpdateToolCall(title=title):
                self.tools.append(f"start {title}")
            case SessionUpdateToolCallUpdate(status=status) if status:
                self.tools.append(status)
            case _:
                pass


def test_an_acp_agent_connects_to_the_editors_mcp_servers(mock: MockProvider) -> None:
    """Our editor passes a stdio MCP server in session/new; the example agent connects to it
    (SessionMCP), and its prompt's tool loop calls the server's tool from the mock's tool
    call, reporting it as tool_call updates."""
    editor = Editor()
    command = [
        sys.executable,
        str(ROOT / "examples" / "acp_llm_agent.py"),
        "--base-url",
        mock.base_url + "/v1",
        "--model",
        "m",
        "--header",
        "X-Mock-Tool-Calls:recursive",
        "--header",
        "X-Mock-Tool-Depth:2",
    ]
    env = {"PYTHONPATH": f"{ROOT / 'generated'}:{ROOT}"}
    server = McpServerStdio(
        name="tools",
        command=sys.executable,
        args=["-m", "tests.servers.mcp_tools"],
        env=[EnvVariable(name="PYTHONPATH", value=str(ROOT))],
    )
    with SyncAgentConnection.spawn(command, client=editor, env=env, cwd=str(ROOT)) as agent:
        agent.initialize(protocol_version=1)
        session = agent.new_session(cwd=str(ROOT), mcp_servers=[server])
        done = agent.prompt(
            session_id=session.session_id, prompt=[ContentBlockText(type="text", text="go")]
        )
    assert done.stop_reason == "end_turn"
    assert "".join(editor.text) == "Mock response from ai-protocol-mock"
    assert editor.tools == ['start step_1_tool({"step": 1})', "in_progress", "completed"]


def test_an_aap_llm_agent_runs_an_mcp_servers_tools(mock: MockProvider, tmp_path: Path) -> None:
    """``server_tools()``: the MCP server's tools as an AAP ``LLMAgent``'s own tools, run
    inline by the AAP server when the mock's tool call names one (arguments checked against
    the schema, the result sent as JSON). ``MCPTools``' calls run on its own loop thread, so
    the AAP server (on uvicorn's loop) may call them."""
    from agentproto.aap import AAPServer, ApiKeys, AsyncAAPClient, AsyncSession, LLMAgent

    with MCPTools([STDIO]) as tools:
        llm = AsyncLLMClient(
            "openai", api_key=KEY, base_url=mock.base_url + "/v1", headers=RECURSIVE
        )
        agent = LLMAgent("assistant", llm, model="m", tools=tools.server_tools())
        server = AAPServer(
            [agent], store=f"sqlite:///{tmp_path}/aap.db", auth=ApiKeys({"sk-app-1": "app"})
        )

        async def main(url: str) -> tuple[Any, list[Any]]:
            async with AsyncAAPClient(url, api_key="sk-app-1", timeout=60) as client:
                session = await AsyncSession.create(client, "assistant")
                result = await session.send("do the steps")
                return result, await session.history("full")

        with serve(server.app, lifespan="on") as url:
            result, history = anyio.run(main, url)
    assert result.stop_reason == "end_turn"
    assert result.text == "Mock response from ai-protocol-mock"
    tool_messages = [m for m in history if m.role == "tool"]
    assert [json.loads(str(m.content)) for m in tool_messages] == [{"step": 1, "ok": True}]
