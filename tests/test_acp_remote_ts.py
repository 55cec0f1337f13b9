"""ACP over the network against the official TypeScript SDK (@agentclientprotocol/sdk 2.4.0) in
node, both ways, on real loopback sockets: its Streamable HTTP and WebSocket client transports
(tests/node/ts_remote_client.mjs) talk to our AgentApp, and our connect_remote_agent talks to an
echo agent its AcpServer serves (tests/node/ts_remote_agent.mjs)."""

from __future__ import annotations

import asyncio
import json
import selectors
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from agentproto.acp import Client
from agentproto.acp.models import (
    ContentBlockText,
    SessionNotification,
    SessionUpdateAgentMessageChunk,
)
from agentproto.acp.remote import connect_remote_agent
from agentproto.acp.remote_server import AgentApp

from tests.servers.loopback import serve

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "examples"))

from acp_echo_agent import EchoAgent  # noqa: E402

TOKEN = "s3cret-token-value"
WORDS = [
    {"update": "agent_message_chunk", "text": "one"},
    {"update": "agent_message_chunk", "text": " two"},
    {"update": "agent_message_chunk", "text": " three"},
]


def _node() -> str:
    node = shutil.which("node")
    if node is None:
        pytest.fail("these tests run the TypeScript ACP SDK with node: install node (>= 18)")
    return node


@pytest.fixture(scope="module")
def ours() -> Iterator[str]:
    """Our AgentApp (bearer auth) with the echo agent under uvicorn; yields host:port."""
    app = AgentApp(lambda: EchoAgent(delay=0.001), token=TOKEN, max_message_bytes=1 << 20)
    with serve(app, loop="auto") as base:
        yield base.removeprefix("http://")


def run_ts_client(node_peers: Path, url: str, token: str) -> tuple[int, list[dict[str, Any]]]:
    result = subprocess.run(
        [_node(), str(node_peers / "ts_remote_client.mjs"), url, token],
        cwd=node_peers,
        capture_output=True,
        text=True,
        timeout=20,
        check=False,
    )
    lines = [json.loads(line) for line in result.stdout.splitlines() if line.strip()]
    assert lines, f"no output from the TypeScript client:\n{result.stderr}"
    return result.returncode, lines


@pytest.mark.parametrize("scheme", ["http", "ws"])
def test_the_ts_sdk_client_and_our_agent(node_peers: Path, ours: str, scheme: str) -> None:
    code, lines = run_ts_client(node_peers, f"{scheme}://{ours}/acp", TOKEN)
    assert (code, lines) == (0, [*WORDS, {"stopReason": "end_turn"}])


@pytest.mark.parametrize("scheme", ["http", "ws"])
def test_the_ts_sdk_client_with_a_wrong_token_is_refused(
    node_peers: Path, ours: str, scheme: str
) -> None:
    code, lines = run_ts_client(node_peers, f"{scheme}://{ours}/acp", "wrong-token")
    assert code == 1
    assert [list(line) for line in lines] == [["error"]]


@pytest.fixture(scope="module")
def ts_agent(node_peers: Path) -> Iterator[str]:
    """The TypeScript SDK's AcpServer serving an echo agent in node; yields host:port."""
    proc = subprocess.Popen(
        [_node(), str(node_peers / "ts_remote_agent.mjs")],
        cwd=node_peers,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stdin is not None
    try:
        with selectors.DefaultSelector() as selector:
            selector.register(proc.stdout, selectors.EVENT_READ)
            ready = selector.select(timeout=15)
        first = proc.stdout.readline() if ready else b""
        assert first, f"the TypeScript agent did not start: {proc.poll()=}"
        yield f"127.0.0.1:{json.loads(first)['port']}"
    finally:
        proc.stdin.close()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)
        proc.stdout.close()


class Collect(Client):
    def __init__(self) -> None:
        self.text: list[str] = []

    async def session_update(self, params: SessionNotification) -> None:
        match params.update:
            case SessionUpdateAgentMessageChunk(content=ContentBlockText(text=text)):
                self.text.append(text)
            case _:
                pytest.fail(f"unexpected update from the TypeScript agent: {params.update!r}")


@pytest.mark.parametrize("scheme", ["http", "ws"])
def test_our_client_and_the_ts_sdk_agent(ts_agent: str, scheme: str) -> None:
    async def run() -> tuple[int, str | None, list[str], str, str]:
        editor = Collect()
        async with connect_remote_agent(f"{scheme}://{ts_agent}/acp", client=editor) as agent:
            hello = await agent.initialize(protocol_version=1)
            info = hello.agent_info.name if hello.agent_info is not None else None
            session = await agent.new_session(cwd="/", mcp_servers=[])
            done = await agent.prompt(
                session_id=session.session_id,
                prompt=[ContentBlockText(type="text", text="one two three")],
            )
            return hello.protocol_version, info, editor.text, session.session_id, done.stop_reason

    version, info, text, session_id, stop = asyncio.run(asyncio.wait_for(run(), 15))
    assert (version, info, text, stop) == (
        1,
        "ts-remote-echo",
        ["one", " two", " three"],
        "end_turn",
    )
    assert session_id.startswith("ts-echo-")
