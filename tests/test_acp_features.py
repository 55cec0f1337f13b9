"""ACP connections (issue 32): capability-checked calls on both sides, what a peer sends that
does not match the schema (delivered, never dropped), the spawned agent's stderr in
ConnectionClosed, the negotiated version, proxy methods. Real pipes throughout."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path
from typing import Any

import pytest
from agentproto._runtime.jsonrpc import InvalidParams, MethodNotFound
from agentproto.acp import (
    Agent,
    CapabilityError,
    Client,
    ConnectionClosed,
    SyncAgentConnection,
    SyncClient,
    UnhandledMessage,
    spawn_agent,
)
from agentproto.acp.models import (
    InitializeRequest,
    InitializeResponse,
    InvalidContentBlock,
    InvalidSessionUpdate,
    LoadSessionRequest,
    LoadSessionResponse,
    PromptRequest,
    PromptResponse,
    ReadTextFileRequest,
    ReadTextFileResponse,
    SessionNotification,
    SessionUpdateAgentMessageChunk,
)

from tests.test_acp import pair

PEERS = Path(__file__).resolve().parent / "acp_peers"
OUR_AGENT = str(PEERS / "our_agent.py")


class FileEditor(Client):
    """Serves fs reads and records what it was given, and what it could not take."""

    def __init__(self) -> None:
        self.reads: list[str] = []
        self.updates: list[Any] = []
        self.unhandled: list[UnhandledMessage] = []

    async def read_text_file(self, params: ReadTextFileRequest) -> ReadTextFileResponse:
        self.reads.append(params.path)
        return ReadTextFileResponse(content="data")

    async def session_update(self, params: SessionNotification) -> None:
        self.updates.append(params.update)

    async def unhandled_message(self, message: UnhandledMessage) -> None:
        self.unhandled.append(message)


class ReadingAgent(Agent):
    """Reads a file from the editor on each prompt; keeps what its calls raised."""

    def __init__(self, load: bool = False) -> None:
        self.load = load
        self.refused: list[CapabilityError] = []

    async def initialize(self, params: InitializeRequest) -> InitializeResponse:
        return InitializeResponse.model_validate(
            {"protocolVersion": 1, "agentCapabilities": {"loadSession": self.load}}
        )

    async def load_session(self, params: LoadSessionRequest) -> LoadSessionResponse:
        return LoadSessionResponse()

    async def prompt(self, params: PromptRequest) -> PromptResponse:
        try:
            await self.client.read_text_file(session_id=params.session_id, path="/etc/hostname")
        except CapabilityError as exc:
            self.refused.append(exc)
        return PromptResponse(stop_reason="end_turn")


def test_the_agent_cannot_call_what_the_editor_did_not_advertise() -> None:
    async def main() -> None:
        for advertised in (False, True):
            agent, editor = ReadingAgent(), FileEditor()
            conn, served = await pair(agent, client=editor)
            caps = {"fs": {"readTextFile": advertised}}
            await conn.initialize(protocol_version=1, client_capabilities=caps)
            await conn.prompt(session_id="s", prompt=[{"type": "text", "text": "go"}])
            if advertised:
                assert editor.reads == ["/etc/hostname"] and not agent.refused
            else:
                assert editor.reads == []  # refused before anything was sent
                (error,) = agent.refused
                assert error.capability == "fs.readTextFile" and error.method == "fs/read_text_file"
                assert "did not advertise" in str(error)
            await conn.close()
            served.cancel()

    asyncio.run(asyncio.wait_for(main(), 20))


def test_the_editor_cannot_call_what_the_agent_did_not_advertise() -> None:
    async def main() -> None:
        conn, served = await pair(ReadingAgent(load=False))
        load = {"session_id": "s", "cwd": "/", "mcp_servers": []}
        with pytest.raises(CapabilityError, match="initialize has not been answered"):
            await conn.load_session(**load)
        await conn.initialize(protocol_version=1)
        assert conn.protocol_version == 1 and conn.peer_capabilities["loadSession"] is False
        with pytest.raises(CapabilityError) as refused:
            await conn.load_session(**load)
        assert refused.value.capability == "loadSession"
        await conn.close()
        served.cancel()
        advertised, served2 = await pair(ReadingAgent(load=True))
        await advertised.initialize(protocol_version=1)
        assert isinstance(await advertised.load_session(**load), LoadSessionResponse)
        await advertised.close()
        served2.cancel()

    asyncio.run(asyncio.wait_for(main(), 20))


def test_the_capability_check_can_be_turned_off_for_peers_that_under_advertise() -> None:
    class Lenient(Agent):
        async def initialize(self, params: InitializeRequest) -> InitializeResponse:
            return InitializeResponse(protocol_version=1)

        async def load_session(self, params: LoadSessionRequest) -> LoadSessionResponse:
            return LoadSessionResponse()

    async def main() -> None:
        conn, served = await pair(Lenient(), check_capabilities=False)
        await conn.initialize(protocol_version=1)
        assert isinstance(
            await conn.load_session(session_id="s", cwd="/", mcp_servers=[]), LoadSessionResponse
        )
        await conn.close()
        served.cancel()

    asyncio.run(asyncio.wait_for(main(), 20))


# -- what a peer sends that does not match the schema --------------------------------------------


class RawSender(Agent):
    """On prompt, sends the editor messages written by hand, through its raw connection."""

    async def initialize(self, params: InitializeRequest) -> InitializeResponse:
        return InitializeResponse(protocol_version=1)

    async def prompt(self, params: PromptRequest) -> PromptResponse:
        raw = self.client.connection
        sid = params.session_id
        # A known update kind whose data does not match: kept, as InvalidSessionUpdate.
        await raw.notify(
            "session/update",
            {
                "sessionId": sid,
                "update": {"sessionUpdate": "usage_update", "used": None, "size": 8},
            },
        )
        # A known content block type whose data does not match, inside a valid update.
        await raw.notify(
            "session/update",
            {
                "sessionId": sid,
                "update": {"sessionUpdate": "agent_message_chunk", "content": {"type": "image"}},
            },
        )
        # Not a session/update at all (no sessionId): the handler's unhandled_message gets it.
        await raw.notify("session/update", {"update": {"sessionUpdate": "plan", "entries": []}})
        # A notification this version does not know.
        await raw.notify("session/teleport", {"to": "mars"})
        # A request with invalid params: unhandled_message, then -32602.
        try:
            await raw.request("fs/read_text_file", {"sessionId": sid})
        except InvalidParams as exc:
            self.invalid = exc
        # A request this version does not know: unhandled_message, then -32601.
        try:
            await raw.request("fs/delete_everything", {"sessionId": sid})
        except MethodNotFound as exc:
            self.unknown = exc
        return PromptResponse(stop_reason="end_turn")


def test_nothing_a_peer_sends_is_dropped_for_not_matching_the_schema() -> None:
    async def main() -> None:
        agent, editor = RawSender(), FileEditor()
        conn, served = await pair(agent, client=editor)
        await conn.initialize(protocol_version=1)
        await conn.prompt(session_id="s", prompt=[{"type": "text", "text": "go"}])
        usage, chunk = editor.updates
        assert isinstance(usage, InvalidSessionUpdate)
        assert usage.raw == {"sessionUpdate": "usage_update", "used": None, "size": 8}
        assert usage.errors[0]["loc"] == ("usage_update", "used")
        assert isinstance(chunk, SessionUpdateAgentMessageChunk)
        assert isinstance(chunk.content, InvalidContentBlock) and chunk.content.raw == {
            "type": "image"
        }
        assert {e["loc"][-1] for e in chunk.content.errors} == {"data", "mimeType"}
        reasons = [(m.method, m.reason, m.request) for m in editor.unhandled]
        assert reasons == [
            ("session/update", "invalid", False),
            ("session/teleport", "unknown", False),
            ("fs/read_text_file", "invalid", True),
            ("fs/delete_everything", "unknown", True),
        ]
        not_an_update = editor.unhandled[0]
        assert not_an_update.params == {"update": {"sessionUpdate": "plan", "entries": []}}
        assert ("sessionId",) in [e["loc"] for e in not_an_update.errors]
        assert editor.unhandled[2].errors[0]["loc"] == ("path",)
        assert agent.invalid.code == -32602 and agent.unknown.code == -32601
        await conn.close()
        served.cancel()

    asyncio.run(asyncio.wait_for(main(), 20))


def test_what_we_send_must_match_the_schema() -> None:
    """Only a peer's data becomes an Invalid... variant: ours is refused before sending."""
    from agentproto.acp.models import SessionNotification as Notification
    from pydantic import ValidationError

    bad = {"sessionId": "s", "update": {"sessionUpdate": "usage_update", "used": None, "size": 1}}
    with pytest.raises(ValidationError):
        Notification.model_validate(bad)

    async def main() -> None:
        class Sender(Agent):
            async def prompt(self, params: PromptRequest) -> PromptResponse:
                with pytest.raises(ValidationError):
                    await self.client.session_update(bad)  # type: ignore[arg-type]
                return PromptResponse(stop_reason="end_turn")

        editor = FileEditor()
        conn, served = await pair(Sender(), client=editor)
        await conn.prompt(session_id="s", prompt=[{"type": "text", "text": "go"}])
        assert editor.updates == [] and editor.unhandled == []
        await conn.close()
        served.cancel()

    asyncio.run(asyncio.wait_for(main(), 20))


def test_a_blocking_client_gets_unhandled_messages_too() -> None:
    class Editor(SyncClient):
        def __init__(self) -> None:
            self.updates: list[Any] = []
            self.unhandled: list[UnhandledMessage] = []

        def session_update(self, params: SessionNotification) -> None:
            self.updates.append(params.update)

        def unhandled_message(self, message: UnhandledMessage) -> None:
            self.unhandled.append(message)

    editor = Editor()
    invalid_agent = [sys.executable, str(PEERS / "invalid_agent.py")]
    with SyncAgentConnection.spawn(invalid_agent, client=editor) as conn:
        conn.initialize(protocol_version=1, timeout=20)
        conn.prompt(session_id="s", prompt=[{"type": "text", "text": "go"}], timeout=20)
    (update,) = editor.updates
    assert isinstance(update, InvalidSessionUpdate) and update.raw["used"] is None
    (message,) = editor.unhandled
    assert (message.method, message.reason, message.request) == ("session/update", "invalid", False)


# -- the agent's stderr --------------------------------------------------------------------------


def test_a_killed_agent_s_error_carries_what_it_said_on_stderr() -> None:
    async def main() -> None:
        class Editor(Client):
            def __init__(self) -> None:
                self.said = asyncio.Event()

            async def session_update(self, params: SessionNotification) -> None:
                self.said.set()

        editor = Editor()
        async with spawn_agent(sys.executable, [OUR_AGENT], client=editor) as conn:
            await conn.initialize(protocol_version=1)
            sid = (await conn.new_session(cwd="/tmp", mcp_servers=[])).session_id
            turn = asyncio.ensure_future(
                conn.prompt(session_id=sid, prompt=[{"type": "text", "text": "complain"}])
            )
            await asyncio.wait_for(editor.said.wait(), 10)
            assert conn.process is not None
            os.killpg(conn.process.pgid, signal.SIGKILL)
            with pytest.raises(ConnectionClosed) as closed:
                await asyncio.wait_for(turn, 10)
        error = closed.value
        assert error.returncode == -signal.SIGKILL
        assert error.stderr is not None
        assert error.stderr.endswith("fatal: the provider rejected the API key (HTTP 401)")
        assert "rejected the API key" in str(error) and "killed by signal 9" in str(error)
        assert len(str(error)) < 5000  # the tail, not the megabyte before it
        tail = conn.process.stderr
        assert tail is not None and len(tail.data) == 64 * 1024 and tail.dropped > 1_000_000

    asyncio.run(asyncio.wait_for(main(), 30))


def test_the_agent_s_stderr_is_passed_through_when_asked(capfd: pytest.CaptureFixture[str]) -> None:
    script = "import sys; sys.stderr.write('hello from the agent\\n'); sys.stderr.flush()"

    async def main(passthrough: bool) -> ConnectionClosed:
        async with spawn_agent(sys.executable, ["-c", script], stderr=passthrough) as conn:
            with pytest.raises(ConnectionClosed) as closed:
                await asyncio.wait_for(conn.initialize(protocol_version=1), 10)
        return closed.value

    quiet = asyncio.run(main(False))
    assert "hello from the agent" not in capfd.readouterr().err
    assert quiet.stderr == "hello from the agent" and quiet.returncode == 0
    loud = asyncio.run(main(True))
    assert "hello from the agent" in capfd.readouterr().err
    assert loud.stderr == "hello from the agent"


# -- proxy methods -------------------------------------------------------------------------------


def test_proxy_methods_are_called_and_served_on_both_sides() -> None:
    """proxy/initialize and proxy/successor (x-side "proxy", unstable) exist on both sides;
    a request and a notification of the same method are two methods."""
    from agentproto.acp.connection import AGENT_METHODS, CLIENT_METHODS
    from agentproto.acp.unstable.models import (
        InitializeProxyRequest,
        InitializeProxyResponse,
        ProxySuccessorNotification,
        ProxySuccessorRequest,
    )

    for table in (AGENT_METHODS, CLIENT_METHODS):
        assert table["initialize_proxy"].rpc == "proxy/initialize"
        assert not table["proxy_successor"].notification
        assert table["proxy_successor_notification"].notification

    class Proxy(Agent):
        async def initialize_proxy(self, params: InitializeProxyRequest) -> InitializeProxyResponse:
            forwarded = await self.client.proxy_successor(method="initialize", params={"v": 1})
            return InitializeProxyResponse.model_validate(
                {"protocolVersion": params.protocol_version, "_meta": {"successor": forwarded}}
            )

    class Conductor(Client):
        def __init__(self) -> None:
            self.forwarded: list[tuple[str, object]] = []

        async def proxy_successor(self, params: ProxySuccessorRequest) -> Any:
            self.forwarded.append((params.method, params.params))
            return {"protocolVersion": 1}

        async def proxy_successor_notification(self, params: ProxySuccessorNotification) -> None:
            self.forwarded.append((params.method, params.params))

    async def main() -> None:
        conductor = Conductor()
        conn, served = await pair(Proxy(), client=conductor, unstable=True)
        answer = await conn.initialize_proxy(protocol_version=1)
        assert answer.protocol_version == 1
        assert answer.meta == {"successor": {"protocolVersion": 1}}
        assert conductor.forwarded == [("initialize", {"v": 1})]
        await conn.close()
        served.cancel()

    asyncio.run(asyncio.wait_for(main(), 20))
