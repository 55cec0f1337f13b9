"""ACP v2 (agentproto.acp.v2) against the official TypeScript SDK's experimental v2 (npm
@agentclientprotocol/sdk 2.4.0, run with node), in both pairings; version negotiation (an
editor offering v2 and v1) against the TypeScript v2 agent, its AgentProtocolRouter, the
official Python SDK's v1 agent and our own router (serve_versions). Real subprocess pipes."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from agentproto.acp import (
    PROTOCOL_VERSION,
    Client,
    Offer,
    SyncClient,
    VersionError,
    negotiate_agent,
    negotiate_agent_sync,
    v2,
)
from agentproto.acp.models import SessionNotification
from agentproto.acp.v2.models import (
    ContentBlockText,
    InitializeResponse,
    RequestPermissionRequest,
    RequestPermissionResponse,
    SessionUpdateAgentMessageChunk,
    SessionUpdateStateUpdate,
    SessionUpdateUserMessage,
    UpdateSessionNotification,
)

PEERS = Path(__file__).resolve().parent / "acp_peers"
OUR_V2_AGENT = [sys.executable, str(PEERS / "our_v2_agent.py")]
OUR_ROUTER = [*OUR_V2_AGENT, "--router"]
OFFICIAL_V1_AGENT = [sys.executable, str(PEERS / "official_agent.py")]
INFO = {"name": "agentproto-tests", "version": "1"}


def ts_agent(node_peers: Path, *flags: str) -> list[str]:
    return ["node", str(node_peers / "ts_v2_agent.mjs"), *flags]


class V2Editor(v2.Client):
    """Records updates; answers permission with the option it was built with."""

    def __init__(self, option: str = "allow") -> None:
        self.updates: list[Any] = []
        self.option = option
        self.permissions: list[RequestPermissionRequest] = []

    async def session_update(self, params: UpdateSessionNotification) -> None:
        self.updates.append(params.update)

    async def request_permission(
        self, params: RequestPermissionRequest
    ) -> RequestPermissionResponse:
        self.permissions.append(params)
        return RequestPermissionResponse.model_validate(
            {"outcome": {"outcome": "selected", "optionId": self.option}}
        )

    def texts(self) -> list[str]:
        return [
            u.content.text
            for u in self.updates
            if isinstance(u, SessionUpdateAgentMessageChunk)
            and isinstance(u.content, ContentBlockText)
        ]

    def stop_reasons(self) -> list[object]:
        return [
            (u.model_extra or {}).get("stopReason")
            for u in self.updates
            if isinstance(u, SessionUpdateStateUpdate)
            and (u.model_extra or {}).get("state") == "idle"
        ]


class V1Editor(Client):
    def __init__(self) -> None:
        self.updates: list[Any] = []

    async def session_update(self, params: SessionNotification) -> None:
        self.updates.append(params.update)


def offers(v2_editor: V2Editor | None, v1_editor: V1Editor | None) -> list[Offer]:
    made = []
    if v2_editor is not None:
        made.append(Offer.v2(v2_editor, {"protocolVersion": 2, "info": INFO}))
    if v1_editor is not None:
        made.append(Offer.v1(v1_editor, {"protocolVersion": 1, "clientInfo": INFO}))
    return made


async def wait_for(check: Any, timeout: float = 5.0) -> None:
    """v2 reports a turn's end through state updates, which may follow the prompt's answer."""
    for _ in range(int(timeout / 0.01)):
        if check():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("not within the time given")


# -- our v2 editor, against the TypeScript SDK's v2 agent and our own --------------------------


@pytest.mark.parametrize("which", ["typescript", "ours"])
def test_our_v2_editor_full_session(which: str, node_peers: Path) -> None:
    command = ts_agent(node_peers) if which == "typescript" else OUR_V2_AGENT

    async def main() -> None:
        editor = V2Editor(option="reject")
        async with v2.spawn_agent(command, client=editor) as conn:
            assert conn.protocol_version is None
            init = await conn.initialize(protocol_version=2, info=INFO)
            assert isinstance(init, InitializeResponse) and init.protocol_version == 2
            assert conn.protocol_version == 2
            assert conn.peer_capabilities == {"session": {"delete": {}}}
            session = await conn.new_session(cwd=str(Path.cwd()))
            sid = session.session_id
            answer = await conn.prompt(session_id=sid, prompt=[ContentBlockText(text="hello 3")])
            assert answer.message_id  # v2 answers with the inserted user message's id
            await wait_for(lambda: len(editor.stop_reasons()) == 1)
            assert editor.texts() == ["chunk 0", "chunk 1", "chunk 2"]
            echo = next(u for u in editor.updates if isinstance(u, SessionUpdateUserMessage))
            assert echo.message_id == answer.message_id
            await conn.prompt(session_id=sid, prompt=[{"type": "text", "text": "permission"}])
            await wait_for(lambda: len(editor.stop_reasons()) == 2)
            assert editor.texts()[-1] == "outcome reject"
            assert editor.permissions[0].title == "Write notes.txt"
            slow = asyncio.ensure_future(
                conn.prompt(session_id=sid, prompt=[ContentBlockText(text="slow")])
            )
            await wait_for(lambda: editor.texts()[-1] == "working")
            await conn.cancel(session_id=sid)
            await slow
            await wait_for(lambda: len(editor.stop_reasons()) == 3)
            assert editor.stop_reasons() == ["end_turn", "end_turn", "cancelled"]
            await conn.delete_session(session_id=sid)  # advertised: session.delete
            await conn.close()

    asyncio.run(asyncio.wait_for(main(), 30))


def test_our_sync_v2_editor_with_the_typescript_agent(node_peers: Path) -> None:
    class SyncV2Editor(v2.SyncClient):
        def __init__(self) -> None:
            self.updates: list[Any] = []

        def session_update(self, params: UpdateSessionNotification) -> None:
            self.updates.append(params.update)

        def request_permission(self, params: RequestPermissionRequest) -> RequestPermissionResponse:
            return RequestPermissionResponse.model_validate(
                {"outcome": {"outcome": "selected", "optionId": "allow"}}
            )

    editor = SyncV2Editor()
    with v2.SyncAgentConnection.spawn(ts_agent(node_peers), client=editor) as conn:
        assert conn.initialize(protocol_version=2, info=INFO, timeout=20).protocol_version == 2
        assert conn.protocol_version == 2
        sid = conn.new_session(cwd="/tmp").session_id
        conn.prompt(session_id=sid, prompt=[{"type": "text", "text": "permission"}], timeout=20)
        conn.prompt(session_id=sid, prompt=[{"type": "text", "text": "hello 2"}], timeout=20)
    chunks = [
        u.content.text for u in editor.updates if isinstance(u, SessionUpdateAgentMessageChunk)
    ]
    assert chunks[:2] == ["outcome allow", "chunk 0"]


# -- the TypeScript SDK's v2 client, against our v2 agent and our router ----------------------


@pytest.mark.parametrize("command", [OUR_V2_AGENT, OUR_ROUTER], ids=["v2-agent", "router"])
def test_typescript_v2_client_with_our_agent(command: list[str], node_peers: Path) -> None:
    result = subprocess.run(
        ["node", str(node_peers / "ts_v2_client.mjs"), *command],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    seen = json.loads(result.stdout)
    assert seen["ok"], seen.get("error")
    assert seen["initialize"]["protocolVersion"] == 2
    assert seen["initialize"]["info"]["name"] == "our-v2-agent"
    chunks = [
        u["content"]["text"] for u in seen["updates"] if u["sessionUpdate"] == "agent_message_chunk"
    ]
    assert chunks == ["chunk 0", "chunk 1", "chunk 2", "outcome allow"]
    states = [
        (u["state"], u.get("stopReason"))
        for u in seen["updates"]
        if u["sessionUpdate"] == "state_update"
    ]
    assert states == [("running", None), ("idle", "end_turn")] * 2
    assert [p["messageId"] for p in seen["prompts"]] == ["py-user-1", "py-user-2"]
    assert seen["permissions"][0]["options"][0]["optionId"] == "allow"


# -- negotiation: offer v2, fall back to v1 ----------------------------------------------------


@pytest.mark.parametrize(
    ("agent", "version"),
    [
        ("typescript-v2", 2),
        ("typescript-router", 2),
        ("official-python-v1", 1),
        ("our-router", 2),
    ],
)
def test_negotiation_offers_v2_and_falls_back_to_v1(
    agent: str, version: int, node_peers: Path
) -> None:
    command = {
        "typescript-v2": ts_agent(node_peers),
        "typescript-router": ts_agent(node_peers, "--router"),
        "official-python-v1": OFFICIAL_V1_AGENT,
        "our-router": OUR_ROUTER,
    }[agent]

    async def main() -> None:
        v2_editor, v1_editor = V2Editor(), V1Editor()
        async with negotiate_agent(command, offers=offers(v2_editor, v1_editor)) as negotiated:
            assert negotiated.version == version
            assert negotiated.connection.protocol_version == version
            assert negotiated.initialize.protocol_version == version
            if negotiated.v2 is not None:
                conn2 = negotiated.v2
                assert negotiated.v1 is None
                sid = (await conn2.new_session(cwd="/tmp")).session_id
                await conn2.prompt(session_id=sid, prompt=[ContentBlockText(text="hello 2")])
                await wait_for(lambda: len(v2_editor.stop_reasons()) == 1)
                assert v2_editor.texts() == ["chunk 0", "chunk 1"] and not v1_editor.updates
            else:
                conn1 = negotiated.v1
                assert conn1 is not None
                sid = (await conn1.new_session(cwd="/tmp", mcp_servers=[])).session_id
                await conn1.prompt(session_id=sid, prompt=[{"type": "text", "text": "hello 2"}])
                texts = [u.content.text for u in v1_editor.updates]
                assert texts == ["chunk 0", "chunk 1"] and not v2_editor.updates

    asyncio.run(asyncio.wait_for(main(), 30))


def test_negotiation_to_v1_only_through_our_router() -> None:
    async def main() -> None:
        v1_editor = V1Editor()
        async with negotiate_agent(OUR_ROUTER, offers=offers(None, v1_editor)) as negotiated:
            assert negotiated.version == 1 and negotiated.v1 is not None
            sid = (await negotiated.v1.new_session(cwd="/tmp", mcp_servers=[])).session_id
            await negotiated.v1.prompt(session_id=sid, prompt=[{"type": "text", "text": "hello 1"}])
            assert [u.content.text for u in v1_editor.updates] == ["chunk 0"]

    asyncio.run(asyncio.wait_for(main(), 30))


def test_negotiation_sync_falls_back_to_v1_with_the_official_python_agent() -> None:
    class SyncV1(SyncClient):
        def __init__(self) -> None:
            self.texts: list[str] = []

        def session_update(self, params: SessionNotification) -> None:
            self.texts.append(params.update.content.text)  # type: ignore[union-attr]

    class SyncV2(v2.SyncClient):
        pass

    editor = SyncV1()
    conn = negotiate_agent_sync(
        OFFICIAL_V1_AGENT,
        offers=[
            Offer.v2(SyncV2(), {"protocolVersion": 2, "info": INFO}),
            Offer.v1(editor, {"protocolVersion": 1}),
        ],
    )
    with conn:
        assert conn.protocol_version == PROTOCOL_VERSION == 1
        assert isinstance(conn, __import__("agentproto.acp").acp.SyncAgentConnection)
        sid = conn.new_session(cwd="/tmp", mcp_servers=[], timeout=20).session_id
        conn.prompt(session_id=sid, prompt=[{"type": "text", "text": "hello 3"}], timeout=20)
    assert editor.texts == ["chunk 0", "chunk 1", "chunk 2"]


def test_a_version_not_offered_is_refused() -> None:
    async def main() -> None:
        with pytest.raises(VersionError) as error:
            async with negotiate_agent(OFFICIAL_V1_AGENT, offers=offers(V2Editor(), None)):
                pass
        assert error.value.version == 1 and error.value.offered == (2,)
        assert "offered: [2]" in str(error.value)

    asyncio.run(asyncio.wait_for(main(), 30))


def test_our_router_refuses_requests_before_initialize_and_versions_below_it() -> None:
    """A v2-only router answers -32022 to a v1 initialize (and the editor may try again);
    anything but initialize first gets -32600."""
    from agentproto._runtime.jsonrpc import InvalidRequest, RpcError, spawn

    class Quiet:
        async def request(self, method: str, params: Any) -> Any:
            raise AssertionError("no calls expected")

        async def notify(self, method: str, params: Any) -> None:
            return None

    async def main() -> None:
        process = await spawn(Quiet(), [*OUR_V2_AGENT, "--router-v2-only"])
        try:
            conn = process.connection
            with pytest.raises(InvalidRequest):
                await conn.request("session/new", {"cwd": "/tmp"})
            with pytest.raises(RpcError) as refused:
                await conn.request("initialize", {"protocolVersion": 1})
            assert refused.value.code == -32022
            assert refused.value.data == {"requested": 1, "supported": [2]}
            answer = await conn.request("initialize", {"protocolVersion": 3, "info": INFO})
            assert isinstance(answer, dict) and answer["protocolVersion"] == 2
        finally:
            await process.close()

    asyncio.run(asyncio.wait_for(main(), 30))
