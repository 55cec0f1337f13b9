"""An ACP agent offered over AAP (issue 41): ``ACPAgent`` runs a real ACP agent process per AAP
session (examples/acp_llm_agent.py: its turns are LLM tool loops on ai-protocol-mock, over an
MCP server the operator gives in session/new); our AAP client drives it in every stream mode,
answers its permission requests through the ``acp_permission`` client tool, cancels a turn by
dropping the stream, and the process is gone once the session is deleted."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from agentproto.aap import AAPServer, ApiKeys, AsyncAAPClient, AsyncSession, ClientTool
from agentproto.aap.acp_agent import PERMISSION_SCHEMA, PERMISSION_TOOL, ACPAgent
from agentproto.aap.models import (
    PostSessionTurnRequest,
    TextDeltaEvent,
    ToolCallEvent,
    ToolResultEvent,
    TurnStopEvent,
)
from agentproto.acp.models import EnvVariable, McpServerStdio

from tests.servers.loopback import serve
from tests.servers.mock_provider import MockProvider, start_mock_provider
from tests.servers.scripted import Answer, scripted_server

ROOT = Path(__file__).resolve().parent.parent
KEY = "sk-aap-bridge-test-0123"
MCP = McpServerStdio(
    name="tools",
    command=sys.executable,
    args=["-m", "tests.servers.mcp_tools"],
    env=[EnvVariable(name="PYTHONPATH", value=str(ROOT))],
)
ENV = {"PYTHONPATH": f"{ROOT / 'generated'}:{ROOT}"}


def agent_command(base_url: str, *extra: str) -> list[str]:
    return [
        sys.executable,
        str(ROOT / "examples" / "acp_llm_agent.py"),
        "--base-url",
        base_url,
        "--model",
        "m",
        *extra,
    ]


@pytest.fixture(scope="module")
def mock(tmp_path_factory: pytest.TempPathFactory) -> Iterator[MockProvider]:
    provider = start_mock_provider(tmp_path_factory.mktemp("mock"))
    try:
        yield provider
    finally:
        provider.stop()


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


async def gone(pid: int | None) -> None:
    """Wait (10 s at most) for a process to be gone (reaped)."""
    assert pid is not None
    with anyio.fail_after(10):
        while alive(pid):
            await anyio.sleep(0.05)


def permission(options: list[dict[str, Any]], toolCall: dict[str, Any]) -> str:
    """The AAP client's answer to the ACP agent's permission request: allow once."""
    assert toolCall["toolCallId"] and toolCall["title"].startswith("step_1_tool")
    return next(o["optionId"] for o in options if o["kind"] == "allow_once")


PERMISSION = ClientTool(
    PERMISSION_TOOL, "Answer the agent's permission request", PERMISSION_SCHEMA, permission
)


def test_turns_in_every_mode_with_a_permission_round_trip_and_delete(
    mock: MockProvider, tmp_path: Path
) -> None:
    headers = ["--header", "X-Mock-Tool-Calls:recursive", "--header", "X-Mock-Tool-Depth:2"]
    agent = ACPAgent(
        "coder",
        agent_command(mock.base_url + "/v1", "--ask", *headers),
        env=ENV,
        cwd=str(ROOT),
        mcp_servers=[MCP],
    )
    server = AAPServer([agent], store=f"sqlite:///{tmp_path}/aap.db", auth=ApiKeys({KEY: "app"}))

    async def main(url: str) -> None:
        async with AsyncAAPClient(url, api_key=KEY, timeout=60) as client:
            for mode in ("delta", "message", "none"):
                events: list[Any] = []
                session = await AsyncSession.create(
                    client,
                    "coder",
                    tools=[PERMISSION],
                    mode=mode,  # type: ignore[arg-type]
                )
                result = await session.send("do the steps", on_event=events.append)
                assert result.stop_reason == "end_turn", mode
                assert result.text == "Mock response from ai-protocol-mock", mode
                if mode != "none":
                    calls = [e for e in events if isinstance(e, ToolCallEvent)]
                    # the permission (a client tool), then the agent's own tool call
                    assert [c.name for c in calls] == [PERMISSION_TOOL, "other"], mode
                    results = [e for e in events if isinstance(e, ToolResultEvent)]
                    assert [r.tool_call_id for r in results] == [calls[1].tool_call_id]
                    assert '"ok": true' in str(results[0].content)
                    if mode == "delta":
                        assert any(isinstance(e, TextDeltaEvent) for e in events)
                history = await session.history("full")
                roles = [m.role for m in history]
                assert roles[0] == "user" and roles[-1] == "assistant", roles
                pid = agent.processes()[session.session_id]
                assert pid is not None and alive(pid)
                await session.delete()
                assert session.session_id not in agent.processes()
                deadline = time.monotonic() + 10
                while alive(pid) and time.monotonic() < deadline:
                    await anyio.sleep(0.05)
                assert not alive(pid), "the agent process outlived its session"

    with serve(server.app, lifespan="on") as url:
        anyio.run(main, url)


def test_a_dropped_stream_cancels_the_acp_prompt(tmp_path: Path) -> None:
    """The client drops a streamed turn while the agent waits on a slow model: the bridge
    sends session/cancel, the agent ends its prompt ``cancelled``, and the same process
    serves the next turn."""
    with scripted_server() as script:
        slow = Answer(chunks=[b"{}"], delay=30.0)
        fast = Answer(
            body=b'{"id":"c","choices":[{"index":0,"message":{"role":"assistant",'
            b'"content":"again"},"finish_reason":"stop"}]}'
        )
        script.answer(slow, fast)
        agent = ACPAgent(
            "coder", agent_command(script.base_url), env=ENV, cwd=str(ROOT), grace=10.0
        )
        server = AAPServer(
            [agent], store=f"sqlite:///{tmp_path}/aap.db", auth=ApiKeys({KEY: "app"})
        )

        async def main(url: str) -> None:
            async with AsyncAAPClient(url, api_key=KEY, timeout=60) as client:
                session = await AsyncSession.create(client, "coder", mode="delta")
                request = PostSessionTurnRequest.model_validate(
                    {"messages": [{"role": "user", "content": "hang"}], "stream": "delta"}
                )
                stream = await client.create_turn_stream(session.session_id, request, mode="delta")
                async with stream as events:
                    async for event in events:
                        assert event.event == "turn_start"
                        with anyio.fail_after(30):
                            while not script.requests:  # the agent waits on the model now
                                await anyio.sleep(0.05)
                        break  # drop the stream mid-turn
                process = None
                deadline = time.monotonic() + 15
                while time.monotonic() < deadline:
                    process = agent._processes.get(session.session_id)
                    if process is not None and process.prompt is None and not process.busy:
                        break
                    await anyio.sleep(0.05)
                assert process is not None and process.prompt is None
                pid = agent.processes()[session.session_id]
                again = await session.send("again")
                assert again.stop_reason == "end_turn" and again.text == "again"
                assert agent.processes()[session.session_id] == pid  # the same process
                await session.delete()

        with serve(server.app, lifespan="on") as url:
            anyio.run(main, url)
        # the slow request was dropped by the agent (its cancel reached the model call)
        assert len(script.requests) == 2


def test_a_policy_answers_permissions_and_turn_stop_reaches_the_client(
    mock: MockProvider, tmp_path: Path
) -> None:
    headers = ["--header", "X-Mock-Tool-Calls:recursive", "--header", "X-Mock-Tool-Depth:2"]
    for policy, reply in (("allow", '"ok": true'), ("reject", "declined")):
        agent = ACPAgent(
            "coder",
            agent_command(mock.base_url + "/v1", "--ask", *headers),
            env=ENV,
            cwd=str(ROOT),
            mcp_servers=[MCP],
            permissions=policy,  # type: ignore[arg-type]
        )
        server = AAPServer(
            [agent], store=f"sqlite:///{tmp_path}/{policy}.db", auth=ApiKeys({KEY: "app"})
        )

        async def main(url: str, reply: str = reply) -> None:
            async with AsyncAAPClient(url, api_key=KEY, timeout=60) as client:
                events: list[Any] = []
                session = await AsyncSession.create(client, "coder", mode="message")
                result = await session.send("go", on_event=events.append)
                assert result.stop_reason == "end_turn"
                results = [e for e in events if isinstance(e, ToolResultEvent)]
                assert len(results) == 1 and reply in str(results[0].content)
                assert isinstance(events[-1], TurnStopEvent)
                await session.delete()

        with serve(server.app, lifespan="on") as url:
            anyio.run(main, url)


def test_processes_are_bounded_reaped_when_idle_and_restarted_with_the_history(
    tmp_path: Path,
) -> None:
    """``max_processes=1``: a second session's turn ends the first session's idle process;
    after ``idle_timeout`` the second's is reaped too; a later turn of the first session
    starts a new process, given the conversation so far (the echo agent echoes it back)."""
    agent = ACPAgent(
        "echo",
        [sys.executable, str(ROOT / "examples" / "acp_echo_agent.py")],
        env=ENV,
        cwd=str(ROOT),
        max_processes=1,
        idle_timeout=1.0,
    )
    server = AAPServer([agent], store=f"sqlite:///{tmp_path}/aap.db", auth=ApiKeys({KEY: "app"}))

    async def main(url: str) -> None:
        async with AsyncAAPClient(url, api_key=KEY, timeout=60) as client:
            first = await AsyncSession.create(client, "echo", mode="delta")
            assert (await first.send("one")).text == "one"
            first_pid = agent.processes()[first.session_id]
            second = await AsyncSession.create(client, "echo", mode="delta")
            assert (await second.send("two")).text == "two"
            assert list(agent.processes()) == [second.session_id]  # the idle one was ended
            await gone(first_pid)
            second_pid = agent.processes()[second.session_id]
            with anyio.fail_after(15):
                while agent.processes():
                    await anyio.sleep(0.1)
            await gone(second_pid)
            again = await first.send("three")
            assert again.stop_reason == "end_turn"
            assert again.text.startswith("The conversation so far:")
            assert "user: one" in again.text and "assistant: one" in again.text
            assert again.text.endswith("three")
            await first.delete()
            await second.delete()
            assert not agent.processes()

    with serve(server.app, lifespan="on") as url:
        anyio.run(main, url)
