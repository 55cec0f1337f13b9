"""A real third-party ACP agent offered over AAP (issue 41): Zed's claude-agent-acp (npm 0.23.1,
tests/node) behind ``ACPAgent``, offline (its model is the loopback Anthropic stand-in, which
first calls Claude Code's Bash tool), driven by our AAP client: a streamed turn, the agent's
permission request answered by the client (``acp_permission``), cancel by dropping the
stream, and the agent's process gone once the session is deleted. The upstream TypeScript
AAP client drives the same setup in interop/aap_ts/run_bridge.py."""

from __future__ import annotations

import os
import tempfile
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
)

from tests.acp_peers.claude import AGENT, environment
from tests.servers.anthropic_standin import REPLY, StandIn, standin
from tests.servers.loopback import serve

KEY = "sk-aap-claude-test-0123"
BASH = {"name": "Bash", "input": {"command": "mkdir bridged-by-aap", "description": "Make a dir"}}


@pytest.fixture
def claude(node_peers: Path, tmp_path: Path) -> Iterator[tuple[ACPAgent, StandIn, AAPServer]]:
    with standin(tool=BASH) as (url, model), tempfile.TemporaryDirectory() as home:
        agent = ACPAgent(
            "claude",
            ["node", str(AGENT / "dist" / "index.js")],
            env=environment(url, home),
            cwd=home,
        )
        server = AAPServer(
            [agent], store=f"sqlite:///{tmp_path}/aap.db", auth=ApiKeys({KEY: "app"})
        )
        yield agent, model, server


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_claude_agent_acp_over_aap(claude: tuple[ACPAgent, StandIn, AAPServer]) -> None:
    agent, model, server = claude
    asked: list[dict[str, Any]] = []

    def answer(toolCall: dict[str, Any], options: list[dict[str, Any]]) -> str:
        asked.append(toolCall)
        return next(o["optionId"] for o in options if o["kind"] == "allow_once")

    tool = ClientTool(
        PERMISSION_TOOL, "Answer the agent's permission request", PERMISSION_SCHEMA, answer
    )

    async def main(url: str) -> None:
        async with AsyncAAPClient(url, api_key=KEY, timeout=120) as client:
            events: list[Any] = []
            session = await AsyncSession.create(client, "claude", tools=[tool], mode="delta")
            result = await session.send("Say it in the shell", on_event=events.append)
            assert result.stop_reason == "end_turn", result
            assert result.text.endswith(REPLY)
            assert asked and "bridged-by-aap" in str(asked[0])  # Claude asked, the client said yes
            calls = [e for e in events if isinstance(e, ToolCallEvent)]
            assert calls[0].name == PERMISSION_TOOL
            ran = [e for e in events if isinstance(e, ToolResultEvent)]
            assert [c.name for c in calls] == [PERMISSION_TOOL, "execute"], calls
            assert [r.tool_call_id for r in ran] == [calls[1].tool_call_id]
            assert (Path(agent.cwd) / "bridged-by-aap").is_dir()  # Bash ran, once allowed
            assert any(isinstance(e, TextDeltaEvent) for e in events)
            tool_results = [
                r for r in model.requests if "tool_result" in str(r.get("messages", [])[-1:])
            ]
            assert tool_results, "the model never got the tool's result"

            # cancel: the next turn's model call hangs; the client drops the stream
            model.hold, model.tool = 60.0, None
            held = len(model.requests)
            request = PostSessionTurnRequest.model_validate(
                {"messages": [{"role": "user", "content": "again"}], "stream": "delta"}
            )
            stream = await client.create_turn_stream(session.session_id, request, mode="delta")
            async with stream as turn:
                async for event in turn:
                    assert event.event == "turn_start"
                    break
            with anyio.fail_after(30):
                while agent._processes[session.session_id].prompt is not None:
                    await anyio.sleep(0.05)
            assert len(model.requests) >= held

            pid = agent.processes()[session.session_id]
            assert pid is not None and alive(pid)
            await session.delete()
            deadline = time.monotonic() + 15
            while alive(pid) and time.monotonic() < deadline:
                await anyio.sleep(0.05)
            assert not alive(pid), "claude-agent-acp outlived its session"

    with serve(server.app, lifespan="on") as url:
        anyio.run(main, url)
