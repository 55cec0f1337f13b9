"""ACP over the network (agentproto.acp.remote / remote_server): Streamable HTTP and WebSocket on
real loopback sockets, both ways with the official SDK's experimental transports (acp.http,
acp.ws), our blocking client, bearer auth, the origin check and the bounds."""

from __future__ import annotations

import asyncio
import sys
import time
from collections.abc import Iterator
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

import acp
import httpx
import pytest
from acp import schema
from acp.http.asgi import create_asgi_app
from acp.http.client import create_http_stream
from acp.ws.client import create_websocket_stream
from agentproto.acp import Client, SyncClient
from agentproto.acp.models import (
    ContentBlockText,
    SessionNotification,
    SessionUpdateAgentMessageChunk,
)
from agentproto.acp.remote import RemoteError, connect_remote_agent, connect_remote_agent_sync
from agentproto.acp.remote_server import AgentApp

from tests.servers.loopback import at, serve

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "examples"))
sys.path.insert(0, str(ROOT / "tests" / "acp_peers"))

from acp_echo_agent import EchoAgent  # noqa: E402
from official_agent import ScriptedAgent  # noqa: E402

TOKEN = "s3cret-token-value"


def acp_server(app: Any) -> AbstractContextManager[str]:
    """``app`` on loopback (uvicorn's own loop; messages up to 16 MiB); yields its base URL."""
    return serve(app, loop="auto", ws_max_size=1 << 24)


def acp_url(base: str, scheme: str) -> str:
    return at(base, "/acp", scheme)


@pytest.fixture(scope="module")
def ours() -> Iterator[str]:
    with acp_server(
        AgentApp(lambda: EchoAgent(delay=0.001), token=TOKEN, max_message_bytes=1 << 20)
    ) as base:
        yield base


@pytest.fixture(scope="module")
def theirs() -> Iterator[str]:
    def factory(conn: Any) -> Any:
        agent = ScriptedAgent()
        agent.on_connect(conn)
        return agent

    with acp_server(create_asgi_app(factory)) as base:
        yield base


class Collect(Client):
    def __init__(self) -> None:
        self.text: list[str] = []

    async def session_update(self, params: SessionNotification) -> None:
        match params.update:
            case SessionUpdateAgentMessageChunk(content=ContentBlockText(text=text)):
                self.text.append(text)
            case _:
                pass


def hello(text: str) -> list[ContentBlockText]:
    return [ContentBlockText(type="text", text=text)]


@pytest.mark.parametrize("scheme", ["http", "ws"])
def test_our_client_and_our_agent(ours: str, scheme: str) -> None:
    async def run() -> tuple[str, str]:
        editor = Collect()
        async with connect_remote_agent(acp_url(ours, scheme), client=editor, token=TOKEN) as agent:
            await agent.initialize(protocol_version=1)
            session = await agent.new_session(cwd="/", mcp_servers=[])
            done = await agent.prompt(session_id=session.session_id, prompt=hello("one two three"))
            return "".join(editor.text), done.stop_reason

    assert asyncio.run(run()) == ("one two three", "end_turn")


@pytest.mark.parametrize("scheme", ["http", "ws"])
def test_our_client_and_the_official_sdk_agent(theirs: str, scheme: str) -> None:
    async def run() -> tuple[str, str, str]:
        editor = Collect()
        async with connect_remote_agent(acp_url(theirs, scheme), client=editor) as agent:
            await agent.initialize(protocol_version=1)
            session = await agent.new_session(cwd="/", mcp_servers=[])
            done = await agent.prompt(session_id=session.session_id, prompt=hello("hello 3"))
            # a turn cancelled while it runs, over the same transport
            task = asyncio.ensure_future(
                agent.prompt(session_id=session.session_id, prompt=hello("slow"))
            )
            while "working" not in editor.text:
                await asyncio.sleep(0.01)
            await agent.cancel(session_id=session.session_id)
            cancelled = await asyncio.wait_for(task, 10)
            return "|".join(editor.text), done.stop_reason, cancelled.stop_reason

    text, stop, cancelled = asyncio.run(run())
    assert text == "chunk 0|chunk 1|chunk 2|working"
    assert (stop, cancelled) == ("end_turn", "cancelled")


class TheirClient:
    def __init__(self) -> None:
        self.text: list[str] = []

    async def session_update(self, session_id: str, update: Any, **kwargs: Any) -> None:
        content = getattr(update, "content", None)
        self.text.append(getattr(content, "text", ""))

    def on_connect(self, conn: Any) -> None:
        return None


@pytest.mark.parametrize("scheme", ["http", "ws"])
def test_the_official_sdk_client_and_our_agent(ours: str, scheme: str) -> None:
    async def run() -> tuple[str, str]:
        auth = {"Authorization": f"Bearer {TOKEN}"}
        if scheme == "http":
            client = httpx.AsyncClient(timeout=httpx.Timeout(None))
            transport = create_http_stream(acp_url(ours, "http"), client=client, headers=auth)
        else:
            transport = await create_websocket_stream(acp_url(ours, "ws"), headers=auth)
        editor = TheirClient()
        conn = acp.connect_to_agent(editor, transport)
        try:
            await conn.initialize(protocol_version=1)
            session = await conn.new_session(cwd="/", mcp_servers=[])
            done = await conn.prompt(
                session_id=session.session_id,
                prompt=[schema.TextContentBlock(type="text", text="a b c")],
            )
            for _ in range(100):  # their client reads the session stream on its own task
                if len(editor.text) == 3:
                    break
                await asyncio.sleep(0.01)
            return "".join(editor.text), done.stop_reason
        finally:
            await conn.close()
            await transport.close()

    assert asyncio.run(run()) == ("a b c", "end_turn")


def test_the_blocking_client(ours: str) -> None:
    class Editor(SyncClient):
        def __init__(self) -> None:
            self.text: list[str] = []

        def session_update(self, params: SessionNotification) -> None:
            if isinstance(params.update, SessionUpdateAgentMessageChunk) and isinstance(
                params.update.content, ContentBlockText
            ):
                self.text.append(params.update.content.text)

    editor = Editor()
    with connect_remote_agent_sync(acp_url(ours, "ws"), client=editor, token=TOKEN) as agent:
        agent.initialize(protocol_version=1)
        session = agent.new_session(cwd="/", mcp_servers=[])
        done = agent.prompt(session_id=session.session_id, prompt=hello("sync works"))
    assert ("".join(editor.text), done.stop_reason) == ("sync works", "end_turn")


@pytest.mark.parametrize("scheme", ["http", "ws"])
def test_a_wrong_token_is_refused_and_never_shown(ours: str, scheme: str) -> None:
    async def run() -> None:
        async with connect_remote_agent(acp_url(ours, scheme), token="wrong-token-xyz") as agent:
            await agent.initialize(protocol_version=1)

    with pytest.raises(RemoteError) as raised:
        asyncio.run(run())
    assert raised.value.status in (401, None) or "401" in str(raised.value)
    assert "wrong-token-xyz" not in str(raised.value) and TOKEN not in str(raised.value)


def test_the_origin_check_and_the_size_limit(ours: str) -> None:
    url = acp_url(ours, "http")
    auth = {"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"}
    init = b'{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}}'
    with httpx.Client() as http:
        evil = http.post(url, content=init, headers={**auth, "Origin": "https://evil.example"})
        assert evil.status_code == 403
        big = http.post(url, content=b" " * ((1 << 20) + 1), headers=auth)
        assert big.status_code == 413
        fine = http.post(url, content=init, headers=auth)
        assert fine.status_code == 200 and fine.json()["result"]["protocolVersion"] == 1
        gone = http.delete(
            url, headers={**auth, "Acp-Connection-Id": fine.headers["acp-connection-id"]}
        )
        assert gone.status_code == 202


def test_sessions_per_connection_are_capped() -> None:
    with acp_server(AgentApp(lambda: EchoAgent(), max_sessions=2)) as served:

        async def run() -> str:
            async with connect_remote_agent(acp_url(served, "ws")) as agent:
                await agent.initialize(protocol_version=1)
                await agent.new_session(cwd="/", mcp_servers=[])
                await agent.new_session(cwd="/", mcp_servers=[])
                try:
                    await agent.new_session(cwd="/", mcp_servers=[])
                except Exception as exc:
                    return str(exc)
                return "no error"

        assert "2 sessions" in asyncio.run(run())


def test_an_idle_connection_is_closed() -> None:
    app = AgentApp(lambda: EchoAgent(), idle_timeout=0.3)
    with acp_server(app) as served:

        async def run() -> None:
            async with connect_remote_agent(acp_url(served, "ws")) as agent:
                await agent.initialize(protocol_version=1)
                await asyncio.sleep(0.5 + 0.3)
                await agent.new_session(cwd="/", mcp_servers=[])

        with pytest.raises(RemoteError):
            asyncio.run(run())
        assert app.connections == {}


@pytest.mark.parametrize("scheme", ["http", "ws"])
def test_the_checker_by_url_passes_our_remote_agent(ours: str, scheme: str) -> None:
    from agentproto.acp.check import CheckOptions, check_url

    report = asyncio.run(check_url(acp_url(ours, scheme), CheckOptions(timeout=10), token=TOKEN))
    assert report.must_failures == []
    passed = {c.id for c in report.checks if c.outcome == "pass"}
    assert {
        "init.version",
        "prompt.updates.schema",
        "cancel.stop_reason",
        "hostile.not_json",
    } <= passed


# -- the one Limits policy ------------------------------------------------------------------------


def test_the_limits_policy_bounds_both_sides() -> None:
    from agentproto import Limits

    app = AgentApp(lambda: EchoAgent(delay=0.0), limits=Limits(max_message_bytes=4096))
    assert app.max_message_bytes == 4096
    with acp_server(app) as served:
        url = acp_url(served, "http")
        with httpx.Client() as http:
            big = http.post(url, content=b" " * 5000, headers={"Content-Type": "application/json"})
            assert big.status_code == 413

        async def run() -> None:  # an update over the client's own limit ends the connection
            async with connect_remote_agent(
                acp_url(served, "ws"), limits=Limits(max_message_bytes=1024)
            ) as agent:
                await agent.initialize(protocol_version=1)
                session = await agent.new_session(cwd="/", mcp_servers=[])
                await agent.prompt(session_id=session.session_id, prompt=hello("x" * 2000))

        with pytest.raises(RemoteError, match="size limit"):
            asyncio.run(run())


def test_max_incoming_requests_holds_the_editor_back() -> None:
    """With one request handled at once, a second prompt's POST is answered only when the
    first prompt is done (back-pressure), not queued without bound."""
    from agentproto import Limits

    with acp_server(
        AgentApp(lambda: EchoAgent(delay=0.15), limits=Limits(max_incoming_requests=1))
    ) as served:
        url = acp_url(served, "http")
        head = {"Content-Type": "application/json"}

        def rpc(msg_id: int, method: str, params: dict[str, Any]) -> bytes:
            import json

            return json.dumps(
                {"jsonrpc": "2.0", "id": msg_id, "method": method, "params": params}
            ).encode()

        with httpx.Client(timeout=10) as http:
            init = http.post(
                url, content=rpc(1, "initialize", {"protocolVersion": 1}), headers=head
            )
            head["Acp-Connection-Id"] = init.headers["acp-connection-id"]
            http.post(
                url, content=rpc(2, "session/new", {"cwd": "/", "mcpServers": []}), headers=head
            )
            time.sleep(0.3)
            with http.stream("GET", url, headers={**head, "Accept": "text/event-stream"}) as events:
                session = ""
                for line in events.iter_lines():
                    if '"sessionId"' in line:
                        session = line.split('"sessionId":"')[1].split('"')[0]
                        break
            scoped = {**head, "Acp-Session-Id": session}
            words = {"type": "text", "text": "a b c d"}
            params = {"sessionId": session, "prompt": [words]}
            first = time.monotonic()
            http.post(url, content=rpc(3, "session/prompt", params), headers=scoped)
            quick = time.monotonic() - first
            http.post(url, content=rpc(4, "session/prompt", params), headers=scoped)
            held = time.monotonic() - first
            http.delete(url, headers=head)
        assert quick < 0.3 and held >= 0.4, (quick, held)
