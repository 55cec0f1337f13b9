"""The bridge (agentproto.acp.bridge): a stdio ACP agent served over Streamable HTTP and WebSocket,
one process (group) per remote connection, driven by our remote client and by the official SDK's
client transports; its command line too."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import acp
import httpx
import pytest
from acp import schema
from acp.http.client import create_http_stream
from acp.ws.client import create_websocket_stream
from agentproto.acp import BridgeApp, Client
from agentproto.acp.models import (
    ContentBlockText,
    SessionNotification,
    SessionUpdateAgentMessageChunk,
)
from agentproto.acp.remote import RemoteError, connect_remote_agent

from tests.servers.loopback import at, serve

ROOT = Path(__file__).resolve().parent.parent
AGENT = [sys.executable, str(ROOT / "tests" / "acp_peers" / "our_agent.py")]
TOKEN = "bridge-token-value"


def acp_url(base: str, scheme: str) -> str:
    return at(base, "/acp", scheme)


@pytest.fixture(scope="module")
def bridge() -> Iterator[tuple[BridgeApp, str]]:
    app = BridgeApp(AGENT, token=TOKEN, grace=1.0)
    with serve(app, lifespan="on", loop="auto") as base:
        yield app, base
    assert app.connections == {}


class Collect(Client):
    def __init__(self) -> None:
        self.text: list[str] = []

    async def session_update(self, params: SessionNotification) -> None:
        match params.update:
            case SessionUpdateAgentMessageChunk(content=ContentBlockText(text=text)):
                self.text.append(text)
            case _:
                pass


def group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    return True


async def wait_gone(pgid: int, limit: float = 10.0) -> None:
    deadline = time.monotonic() + limit
    while group_alive(pgid):
        assert time.monotonic() < deadline, f"process group {pgid} still alive"
        await asyncio.sleep(0.05)


@pytest.mark.parametrize("scheme", ["http", "ws"])
def test_our_client_through_the_bridge(bridge: tuple[BridgeApp, str], scheme: str) -> None:
    app, served = bridge

    async def run() -> tuple[str, str, int]:
        editor = Collect()
        async with connect_remote_agent(
            acp_url(served, scheme), client=editor, token=TOKEN
        ) as agent:
            await agent.initialize(protocol_version=1)
            session = await agent.new_session(cwd="/", mcp_servers=[])
            done = await agent.prompt(
                session_id=session.session_id,
                prompt=[ContentBlockText(type="text", text="hello 3")],
            )
            (pgid,) = app.processes().values()
            assert group_alive(pgid)
        await wait_gone(pgid)  # the connection ended: its process group with it
        return "|".join(editor.text), done.stop_reason, pgid

    text, stop, _ = asyncio.run(run())
    assert (text, stop) == ("chunk 0|chunk 1|chunk 2", "end_turn")


def test_two_connections_get_two_processes(bridge: tuple[BridgeApp, str]) -> None:
    app, served = bridge

    async def run() -> set[int]:
        async with (
            connect_remote_agent(acp_url(served, "ws"), token=TOKEN) as one,
            connect_remote_agent(acp_url(served, "http"), token=TOKEN) as two,
        ):
            await one.initialize(protocol_version=1)
            await two.initialize(protocol_version=1)
            return set(app.processes().values())

    assert len(asyncio.run(run())) == 2


def test_what_the_agent_spawned_ends_with_the_connection(
    bridge: tuple[BridgeApp, str],
) -> None:
    """The agent crashes leaving a child that holds its stdout (no EOF comes): closing the
    connection still ends the whole group."""
    app, served = bridge

    async def run() -> None:
        async with connect_remote_agent(acp_url(served, "ws"), token=TOKEN) as agent:
            await agent.initialize(protocol_version=1)
            session = await agent.new_session(cwd="/", mcp_servers=[])
            (pgid,) = app.processes().values()
            with pytest.raises((TimeoutError, RemoteError)):
                await asyncio.wait_for(
                    agent.prompt(
                        session_id=session.session_id,
                        prompt=[ContentBlockText(type="text", text="orphan")],
                    ),
                    1.0,
                )
            assert group_alive(pgid)  # the orphan sleeps on, holding the pipe
        await wait_gone(pgid)

    asyncio.run(run())


class TheirClient:
    def __init__(self) -> None:
        self.text: list[str] = []

    async def session_update(self, session_id: str, update: Any, **kwargs: Any) -> None:
        content = getattr(update, "content", None)
        self.text.append(getattr(content, "text", ""))

    def on_connect(self, conn: Any) -> None:
        return None


@pytest.mark.parametrize("scheme", ["http", "ws"])
def test_the_official_sdk_client_through_the_bridge(
    bridge: tuple[BridgeApp, str], scheme: str
) -> None:
    _, served = bridge

    async def run() -> tuple[str, str]:
        auth = {"Authorization": f"Bearer {TOKEN}"}
        http = httpx.AsyncClient(timeout=httpx.Timeout(None))
        if scheme == "http":
            transport: Any = create_http_stream(acp_url(served, "http"), client=http, headers=auth)
        else:
            transport = await create_websocket_stream(acp_url(served, "ws"), headers=auth)
        editor = TheirClient()
        conn = acp.connect_to_agent(editor, transport)
        try:
            await conn.initialize(protocol_version=1)
            session = await conn.new_session(cwd="/", mcp_servers=[])
            done = await conn.prompt(
                session_id=session.session_id,
                prompt=[schema.TextContentBlock(type="text", text="hello 2")],
            )
            for _ in range(200):
                if len(editor.text) == 2:
                    break
                await asyncio.sleep(0.01)
            return "|".join(editor.text), done.stop_reason
        finally:
            await conn.close()
            await transport.close()
            await http.aclose()

    assert asyncio.run(run()) == ("chunk 0|chunk 1", "end_turn")


def test_the_command_line() -> None:
    env = {**os.environ, "AGENTPROTO_BRIDGE_TOKEN": TOKEN}
    bridge = subprocess.Popen(
        [sys.executable, "-m", "agentproto.acp.bridge", "--port", "0", "--", *AGENT],
        stdout=subprocess.PIPE,
        text=True,
        env=env,
        cwd=ROOT / "generated",
    )
    try:
        assert bridge.stdout is not None
        line = bridge.stdout.readline()
        assert line.startswith("serving "), line
        url = line.split(" on ")[1].split()[0] + "acp"

        async def run() -> str:
            editor = Collect()
            ws = url.replace("http", "ws", 1)
            async with connect_remote_agent(ws, client=editor, token=TOKEN) as agent:
                await agent.initialize(protocol_version=1)
                session = await agent.new_session(cwd="/", mcp_servers=[])
                await agent.prompt(
                    session_id=session.session_id,
                    prompt=[ContentBlockText(type="text", text="hello 1")],
                )
            with pytest.raises(RemoteError):  # the token is required
                async with connect_remote_agent(ws) as agent:
                    await agent.initialize(protocol_version=1)
            return "|".join(editor.text)

        assert asyncio.run(run()) == "chunk 0"
    finally:
        bridge.send_signal(signal.SIGINT)
        assert bridge.wait(15) == 0
