"""ACP: our connections against the official SDK (agent-client-protocol) over real subprocess
pipes, in both pairings; hostile input; load; unstable opt-in; generation from the schema."""

from __future__ import annotations

import asyncio
import json
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from agentproto._runtime.jsonrpc import (
    ConnectionClosed,
    InvalidParams,
    MethodNotFound,
    RequestCancelled,
    _json_parser,
)
from agentproto.acp import (
    Agent,
    AgentConnection,
    CapabilityError,
    Client,
    SyncAgentConnection,
    SyncClient,
    UnstableMethodError,
    connect_agent,
    serve_agent,
    spawn_agent,
)
from agentproto.acp.models import (
    ContentBlockText,
    InitializeRequest,
    InitializeResponse,
    NewSessionRequest,
    ReadTextFileRequest,
    ReadTextFileResponse,
    RequestPermissionRequest,
    RequestPermissionResponse,
    SessionNotification,
    SessionUpdateAgentMessageChunk,
    WriteTextFileRequest,
    WriteTextFileResponse,
)
from hypothesis import given
from hypothesis import strategies as st

from tests.conftest import copy_project, fd_set, fds_opened_since, require

PEERS = Path(__file__).resolve().parent / "acp_peers"
OUR_AGENT = str(PEERS / "our_agent.py")
OFFICIAL_AGENT = str(PEERS / "official_agent.py")
INIT = {
    "protocolVersion": 1,
    "clientCapabilities": {"fs": {"readTextFile": True, "writeTextFile": True}},
}


def text(prompt: str) -> list[dict[str, str]]:
    return [{"type": "text", "text": prompt}]


class Editor(Client):
    """An editor that records updates, answers permission with a fixed option, serves files."""

    def __init__(self, option: str = "allow") -> None:
        self.updates: list[Any] = []
        self.option = option
        self.first_update = asyncio.Event()

    async def session_update(self, params: SessionNotification) -> None:
        self.updates.append(params.update)
        self.first_update.set()

    async def request_permission(
        self, params: RequestPermissionRequest
    ) -> RequestPermissionResponse:
        assert [o.option_id for o in params.options] == ["allow", "reject"]
        return RequestPermissionResponse.model_validate(
            {"outcome": {"outcome": "selected", "optionId": self.option}}
        )

    async def read_text_file(self, params: ReadTextFileRequest) -> ReadTextFileResponse:
        return ReadTextFileResponse(content=Path(params.path).read_text())

    async def write_text_file(self, params: WriteTextFileRequest) -> WriteTextFileResponse:
        Path(params.path).write_text(params.content)
        return WriteTextFileResponse()

    def texts(self) -> list[str]:
        return [
            u.content.text for u in self.updates if isinstance(u, SessionUpdateAgentMessageChunk)
        ]


AGENTS = pytest.mark.parametrize("agent", [OUR_AGENT, OFFICIAL_AGENT], ids=["ours", "official"])


# -- our editor, against our agent and against an agent on the official SDK -----------------------


@AGENTS
def test_our_async_editor_full_session(agent: str, tmp_path: Path) -> None:
    source = tmp_path / "notes.txt"
    source.write_text("hello acp")

    async def main() -> None:
        editor = Editor(option="reject")
        async with spawn_agent(sys.executable, [agent], client=editor) as conn:
            init = await conn.initialize(INIT)
            assert isinstance(init, InitializeResponse) and init.protocol_version == 1
            session = await conn.new_session({"cwd": str(tmp_path), "mcpServers": []})
            sid = session.session_id
            done = await conn.prompt({"sessionId": sid, "prompt": text("hello 5")})
            assert done.stop_reason == "end_turn"
            assert editor.texts() == [f"chunk {i}" for i in range(5)]  # all before the answer
            await conn.prompt({"sessionId": sid, "prompt": text("permission")})
            assert editor.texts()[-1] == "outcome reject"
            await conn.prompt({"sessionId": sid, "prompt": text(f"fs {source}")})
            assert (tmp_path / "notes.txt.out").read_text() == "HELLO ACP"
            big = "y" * 5_000_000
            await conn.prompt({"sessionId": sid, "prompt": text(f"size {big}")})
            assert editor.texts()[-1] == str(len("size ") + len(big))
            await conn.prompt({"sessionId": sid, "prompt": text("big 5000000")})
            assert len(editor.texts()[-1]) == 5_000_000

    asyncio.run(main())


@AGENTS
def test_calls_take_the_request_fields_as_keywords(agent: str) -> None:
    async def main() -> None:
        editor = Editor()
        async with spawn_agent(sys.executable, [agent], client=editor) as conn:
            await conn.initialize(protocol_version=1)
            sid = (await conn.new_session(cwd="/", mcp_servers=[])).session_id
            block = ContentBlockText(type="text", text="hello 2")
            done = await conn.prompt(session_id=sid, prompt=[block])
            assert done.stop_reason == "end_turn"
            assert editor.texts() == ["chunk 0", "chunk 1"]
            with pytest.raises(TypeError, match=r"not both \(got \['cwd'\] too\)"):
                await conn.new_session(NewSessionRequest(cwd="/", mcp_servers=[]), cwd="/x")

    asyncio.run(main())


def test_a_union_request_reaches_the_handler_as_its_member() -> None:
    async def main() -> None:
        editor = Editor()
        async with spawn_agent(sys.executable, [OUR_AGENT], client=editor) as conn:
            await conn.initialize(protocol_version=1)
            sid = (await conn.new_session(cwd="/", mcp_servers=[])).session_id
            await conn.set_session_config_option(
                session_id=sid, config_id="auto", type="boolean", value=True
            )
            await conn.set_session_config_option(session_id=sid, config_id="model", value="fast")
            assert editor.texts() == [
                "SetSessionConfigOptionRequestBoolean True",
                "SetSessionConfigOptionRequestValueId 'fast'",
            ]

    asyncio.run(main())


@AGENTS
def test_cancel_mid_prompt(agent: str) -> None:
    async def main() -> None:
        editor = Editor()
        async with spawn_agent(sys.executable, [agent], client=editor) as conn:
            await conn.initialize(INIT)
            sid = (await conn.new_session({"cwd": "/", "mcpServers": []})).session_id
            prompt = asyncio.ensure_future(conn.prompt({"sessionId": sid, "prompt": text("slow")}))
            await asyncio.wait_for(editor.first_update.wait(), 10)
            await conn.cancel({"sessionId": sid})
            result = await asyncio.wait_for(prompt, 10)
            assert result.stop_reason == "cancelled"

    asyncio.run(main())


def test_cancelling_a_call_sends_cancel_request() -> None:
    """Cancelling the awaiting task sends $/cancel_request; our agent answers -32800 and the
    handler's task is cancelled (the official SDK has neither)."""

    async def main() -> None:
        editor = Editor()
        async with spawn_agent(sys.executable, [OUR_AGENT], client=editor) as conn:
            await conn.initialize(INIT)
            sid = (await conn.new_session({"cwd": "/", "mcpServers": []})).session_id
            call = asyncio.ensure_future(conn.prompt({"sessionId": sid, "prompt": text("slow")}))
            await asyncio.wait_for(editor.first_update.wait(), 10)
            call.cancel()
            with pytest.raises(asyncio.CancelledError):
                await call
            # the connection is still healthy afterwards
            assert (await conn.new_session({"cwd": "/", "mcpServers": []})).session_id == "sess-2"

    asyncio.run(main())


@AGENTS
def test_agent_crash_fails_the_pending_call_promptly(agent: str) -> None:
    async def main() -> None:
        async with spawn_agent(sys.executable, [agent], client=Editor()) as conn:
            await conn.initialize(INIT)
            sid = (await conn.new_session({"cwd": "/", "mcpServers": []})).session_id
            started = time.monotonic()
            with pytest.raises(ConnectionClosed):
                await asyncio.wait_for(conn.prompt({"sessionId": sid, "prompt": text("crash")}), 10)
            assert time.monotonic() - started < 5
            with pytest.raises(ConnectionClosed):
                await conn.initialize(INIT)
            assert conn.process is not None
            assert await conn.process.close() == 3

    asyncio.run(main())


def test_agent_crash_fails_promptly_even_if_its_child_holds_stdout_open() -> None:
    """No end of file comes (a process the agent started keeps the pipe open): the agent's
    exit ends the connection instead, after what it wrote has been handled."""

    async def main() -> None:
        editor = Editor()
        async with spawn_agent(sys.executable, [OUR_AGENT], client=editor) as conn:
            await conn.initialize(INIT)
            sid = (await conn.new_session({"cwd": "/", "mcpServers": []})).session_id
            started = time.monotonic()
            with pytest.raises(ConnectionClosed, match="exited with code 3"):
                await asyncio.wait_for(conn.prompt({"sessionId": sid, "prompt": text("orphan")}), 8)
            assert time.monotonic() - started < 2
            assert editor.texts()[-1] == "about to crash"  # written before the exit: handled

    asyncio.run(main())


class SyncEditor(SyncClient):
    def __init__(self) -> None:
        self.updates: list[Any] = []

    def session_update(self, params: SessionNotification) -> None:
        self.updates.append(params.update.content.text)  # type: ignore[union-attr]

    def request_permission(self, params: RequestPermissionRequest) -> RequestPermissionResponse:
        return RequestPermissionResponse.model_validate(
            {"outcome": {"outcome": "selected", "optionId": "allow"}}
        )


@AGENTS
def test_sync_editor_from_a_plain_script(agent: str) -> None:
    editor = SyncEditor()
    with SyncAgentConnection.spawn(sys.executable, [agent], client=editor) as conn:
        assert conn.initialize(INIT).protocol_version == 1
        sid = conn.new_session({"cwd": "/", "mcpServers": []}).session_id
        assert conn.prompt({"sessionId": sid, "prompt": text("hello 3")}).stop_reason == "end_turn"
        conn.prompt({"sessionId": sid, "prompt": text("permission")})
    assert editor.updates == ["chunk 0", "chunk 1", "chunk 2", "outcome allow"]


def test_spawned_agents_leave_no_file_descriptors_or_processes_behind() -> None:
    """Each spawn makes its own stdout pipe: every close (orderly, or after the agent died)
    must release it, and reap the process."""

    async def main() -> None:
        for round_ in range(10):
            async with spawn_agent(sys.executable, [OUR_AGENT], client=Editor()) as conn:
                await conn.initialize(INIT)
                if round_ % 2:
                    sid = (await conn.new_session({"cwd": "/", "mcpServers": []})).session_id
                    with pytest.raises(ConnectionClosed):
                        await conn.prompt({"sessionId": sid, "prompt": text("crash")})
            assert conn.process is not None and conn.process.process.returncode is not None

    asyncio.run(main())  # a first run opens what stays open (the loop's own fds are closed)
    before = fd_set()
    asyncio.run(main())
    assert fds_opened_since(before) == []


# -- the official client against our agent --------------------------------------------------------


def test_official_client_with_our_agent(tmp_path: Path) -> None:
    acp = require("acp", "agent-client-protocol (the official ACP SDK)")
    from acp import schema

    source = tmp_path / "in.txt"
    source.write_text("from the official client")

    class OfficialEditor:
        def __init__(self) -> None:
            self.texts: list[str] = []
            self.first = asyncio.Event()

        def on_connect(self, conn: Any) -> None:
            pass

        async def session_update(self, session_id: str, update: Any, **kwargs: Any) -> None:
            self.texts.append(update.content.text)
            self.first.set()

        async def request_permission(
            self, session_id: str, tool_call: Any, options: Any, **kw: Any
        ) -> Any:
            return schema.RequestPermissionResponse(
                outcome=schema.AllowedOutcome(outcome="selected", option_id="allow")
            )

        async def read_text_file(self, session_id: str, path: str, **kwargs: Any) -> Any:
            return schema.ReadTextFileResponse(content=Path(path).read_text())

        async def write_text_file(self, session_id: str, path: str, content: str, **kw: Any) -> Any:
            Path(path).write_text(content)
            return schema.WriteTextFileResponse()

    async def main() -> None:
        editor = OfficialEditor()
        async with acp.spawn_agent_process(editor, sys.executable, OUR_AGENT) as (conn, _process):
            # Our agent reads and writes files only when the editor advertises it can.
            fs = schema.FileSystemCapabilities(read_text_file=True, write_text_file=True)
            init = await conn.initialize(
                protocol_version=1, client_capabilities=schema.ClientCapabilities(fs=fs)
            )
            assert init.protocol_version == 1
            sid = (await conn.new_session(cwd=str(tmp_path))).session_id
            block = schema.TextContentBlock(type="text", text="hello 4")
            done = await conn.prompt(session_id=sid, prompt=[block])
            assert done.stop_reason == "end_turn"
            assert editor.texts == [f"chunk {i}" for i in range(4)]
            await conn.prompt(
                session_id=sid, prompt=[schema.TextContentBlock(type="text", text="permission")]
            )
            assert editor.texts[-1] == "outcome allow"
            await conn.prompt(
                session_id=sid, prompt=[schema.TextContentBlock(type="text", text=f"fs {source}")]
            )
            assert (tmp_path / "in.txt.out").read_text() == "FROM THE OFFICIAL CLIENT"
            big = "z" * 5_000_000
            await conn.prompt(
                session_id=sid, prompt=[schema.TextContentBlock(type="text", text=f"size {big}")]
            )
            assert editor.texts[-1] == str(5_000_005)
            slow = asyncio.ensure_future(
                conn.prompt(
                    session_id=sid, prompt=[schema.TextContentBlock(type="text", text="slow")]
                )
            )
            await asyncio.wait_for(editor.first.wait(), 10)
            await asyncio.sleep(0.05)
            await conn.cancel(session_id=sid)
            assert (await asyncio.wait_for(slow, 10)).stop_reason == "cancelled"
            crash = conn.prompt(
                session_id=sid, prompt=[schema.TextContentBlock(type="text", text="crash")]
            )
            started = time.monotonic()
            with pytest.raises(ConnectionError):  # what the official client raises
                await asyncio.wait_for(crash, 10)
            assert time.monotonic() - started < 5

    asyncio.run(main())


# -- hostile input --------------------------------------------------------------------------------


def test_hostile_lines_get_json_rpc_errors_and_the_agent_survives() -> None:
    async def main() -> list[Any]:
        process = await asyncio.create_subprocess_exec(
            sys.executable, OUR_AGENT, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE
        )
        assert process.stdin is not None and process.stdout is not None
        lines = [
            b"this is not json",
            b'{"jsonrpc": "2.0", "id": 1, "method": "\xff\xfe"}',  # not UTF-8
            b"42",
            b'"a string"',
            b'[{"jsonrpc": "2.0", "id": 1, "method": "initialize"}]',
            b'{"id": 2, "method": "initialize", "params": {"protocolVersion": 1}}',
            b'{"jsonrpc": "2.0", "id": 3, "method": "no/such_method", "params": {}}',
            b'{"jsonrpc": "2.0", "id": 4, "method": "initialize", '
            b'"params": {"protocolVersion": "x"}}',
            b'{"jsonrpc": "2.0", "method": "unknown/notification", "params": {}}',
            b'{"jsonrpc": "2.0", "id": 99, "result": {"stray": true}}',
            b'{"jsonrpc": "2.0", "id": 5, "method": "initialize", '
            b'"params": {"protocolVersion": 1}}',
        ]
        process.stdin.write(b"\n".join(lines) + b"\n")
        await process.stdin.drain()
        answers = []
        for _ in range(9):
            line = await asyncio.wait_for(process.stdout.readline(), 10)
            answers.append(json.loads(line))
        process.stdin.close()
        await asyncio.wait_for(process.wait(), 10)
        return answers

    answers = asyncio.run(main())
    codes = [(a.get("id"), a.get("error", {}).get("code")) for a in answers]
    assert codes[:8] == [
        (None, -32700),
        (None, -32700),
        (None, -32600),
        (None, -32600),
        (None, -32600),
        (2, -32600),
        (3, -32601),
        (4, -32602),
    ]
    assert answers[8] == {"jsonrpc": "2.0", "id": 5, "result": answers[8]["result"]}
    assert answers[8]["result"]["protocolVersion"] == 1


@pytest.mark.parametrize(
    "line",
    [
        b'{"jsonrpc":"2.0","method":"session/update","params":{"text":"caf\xc3\xa9 \\u00e9"}}',
        b'{"a":"\\ud800 lone surrogate escape"}',  # JSON allows it; pydantic-core does not
        b'{"c":123456789012345678901234567890,"d":1e400}',
        b'{"a":1,"a":2}',
        b"  42  ",
    ],
)
def test_the_fast_json_parser_accepts_what_json_accepts(line: bytes) -> None:
    parsed = _json_parser()(line)
    expected = json.loads(line)
    assert json.dumps(parsed) == json.dumps(expected)


_json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=12,
)


@given(_json_values, st.booleans())
def test_the_fast_json_parser_agrees_with_json_on_any_value(value: Any, ascii: bool) -> None:
    line = json.dumps(value, ensure_ascii=ascii).encode("utf-8", "surrogatepass")
    assert json.dumps(_json_parser()(line)) == json.dumps(json.loads(line))


@pytest.mark.parametrize("line", [b"{", b'{"a":1} x', b'{"a":"\xff"}', b"\xff\xfe", b"nan"])
def test_the_fast_json_parser_rejects_what_json_rejects(line: bytes) -> None:
    with pytest.raises(ValueError):
        json.loads(line)
    with pytest.raises(ValueError):
        _json_parser()(line)


@pytest.mark.parametrize(
    "line",
    [
        b'{"a":NaN}',
        b'{"a":-Infinity}',
        b"[Infinity]",
        b'{"a":"\\ud800","b":NaN}',  # through the second parser too
        b"[" * 300 + b"]" * 300,
        b'{"a":"\\ud800","b":' + b"[" * 100_000 + b"]" * 100_000 + b"}",
    ],
    ids=["nan", "-infinity", "infinity", "nan-after-surrogate", "300-deep", "100000-deep"],
)
def test_the_fast_json_parser_rejects_nan_infinity_and_deep_nesting(line: bytes) -> None:
    """``json`` accepts these (or overflows the stack on them): neither is JSON we handle."""
    with pytest.raises(ValueError):
        _json_parser()(line)


# -- runtime properties on an in-process pair -----------------------------------------------------


class EchoAgent(Agent):
    async def initialize(self, params: InitializeRequest) -> InitializeResponse:
        await asyncio.sleep(0.001)
        return InitializeResponse.model_validate({"protocolVersion": params.protocol_version})

    async def ext_method(self, method: str, params: Any) -> Any:
        if method == "_echo":
            return {"echo": params}
        raise MethodNotFound(method)

    async def prompt(self, params: Any) -> Any:
        await asyncio.sleep(30)


async def pair(
    agent: Agent,
    *,
    unstable: bool = False,
    check_capabilities: bool = True,
    client: Client | None = None,
) -> tuple[AgentConnection, asyncio.Task[None]]:
    """An editor connection and an agent served over two OS pipes in this process. When the
    returned task ends (cancel it once the editor is closed), every pipe is closed: nothing is
    left for the garbage collector (tests that count descriptors run after these)."""
    loop = asyncio.get_running_loop()
    pipes: list[asyncio.BaseTransport] = []

    async def streams() -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        import os

        read_fd, write_fd = os.pipe()
        reader = asyncio.StreamReader(limit=64 * 1024 * 1024)
        read_transport, _ = await loop.connect_read_pipe(
            lambda: asyncio.StreamReaderProtocol(reader), os.fdopen(read_fd, "rb")
        )
        transport, protocol = await loop.connect_write_pipe(
            asyncio.streams.FlowControlMixin, os.fdopen(write_fd, "wb")
        )
        pipes.extend((read_transport, transport))
        return reader, asyncio.StreamWriter(transport, protocol, None, loop)

    to_agent_r, to_agent_w = await streams()
    to_editor_r, to_editor_w = await streams()

    async def serve() -> None:
        try:
            await serve_agent(agent, reader=to_agent_r, writer=to_editor_w, unstable=unstable)
        finally:
            for pipe in pipes:
                pipe.close()

    served = asyncio.ensure_future(serve())
    conn = connect_agent(
        to_editor_r,
        to_agent_w,
        client=client if client is not None else Editor(),
        unstable=unstable,
        check_capabilities=check_capabilities,
    )
    return conn, served


def test_a_thousand_concurrent_requests_complete() -> None:
    async def main() -> None:
        conn, served = await pair(EchoAgent())
        results = await asyncio.wait_for(
            asyncio.gather(*(conn.initialize({"protocolVersion": i}) for i in range(1000))), 30
        )
        assert [r.protocol_version for r in results] == list(range(1000))
        echoes = await asyncio.gather(*(conn.ext_method("_echo", {"n": i}) for i in range(1000)))
        assert echoes == [{"echo": {"n": i}} for i in range(1000)]
        await conn.close()
        served.cancel()

    asyncio.run(main())


def test_extensions_meta_and_errors_pass_through() -> None:
    async def main() -> None:
        conn, served = await pair(EchoAgent())
        assert await conn.ext_method("_echo", {"_meta": {"trace": "t1"}}) == {
            "echo": {"_meta": {"trace": "t1"}}
        }
        with pytest.raises(MethodNotFound):
            await conn.ext_method("_nope", {})
        with pytest.raises(CapabilityError, match="loadSession"):  # not advertised: not sent
            await conn.load_session({"sessionId": "s", "cwd": "/", "mcpServers": []})
        conn.check_capabilities = False  # sent anyway: the agent does not implement it
        with pytest.raises(MethodNotFound):
            await conn.load_session({"sessionId": "s", "cwd": "/", "mcpServers": []})
        with pytest.raises(ValueError):  # a wrong type is refused locally, before sending
            await conn.initialize({"protocolVersion": "one"})
        with pytest.raises(InvalidParams):
            await conn.connection.request("initialize", {"protocolVersion": "one"})
        init = await conn.initialize({"protocolVersion": 1, "_meta": {"k": "v"}})
        assert init.protocol_version == 1
        await conn.close()
        served.cancel()

    asyncio.run(main())


def test_cancel_request_answers_minus_32800() -> None:
    async def main() -> None:
        conn, served = await pair(EchoAgent())
        future = asyncio.ensure_future(
            conn.connection.request("session/prompt", {"sessionId": "s", "prompt": []})
        )
        await asyncio.sleep(0.05)
        await conn.connection.notify("$/cancel_request", {"requestId": 1})
        with pytest.raises(RequestCancelled):
            await asyncio.wait_for(future, 5)
        await conn.close()
        served.cancel()

    asyncio.run(main())


def test_unstable_methods_need_an_explicit_opt_in() -> None:
    async def main() -> None:
        conn, served = await pair(EchoAgent())
        unstable = [name for name in dir(AgentConnection) if name == "fork_session"]
        assert unstable, "the unstable schema has session/fork"
        with pytest.raises(UnstableMethodError, match="unstable=True"):
            await conn.fork_session({"sessionId": "s", "cwd": "/", "mcpServers": []})  # type: ignore[attr-defined]
        with pytest.raises(MethodNotFound, match="unstable"):
            await conn.connection.request("session/fork", {"sessionId": "s", "cwd": "/"})
        await conn.close()
        served.cancel()
        opted, served2 = await pair(EchoAgent(), unstable=True, check_capabilities=False)
        with pytest.raises(MethodNotFound, match="session/fork"):  # allowed, just not implemented
            await opted.fork_session({"sessionId": "s", "cwd": "/", "mcpServers": []})  # type: ignore[attr-defined]
        await opted.close()
        served2.cancel()

    asyncio.run(main())


# -- generated from the schema --------------------------------------------------------------------


def test_a_method_added_to_the_schema_appears_on_both_sides(tmp_path: Path) -> None:
    from codegen.pipeline import build

    layout = copy_project(tmp_path, protocols=("acp",))  # ACP alone: what the script imports
    path = layout.schemas / "acp" / "schema.v1.json"
    schema = json.loads(path.read_text())
    defs = schema["$defs"]
    defs["SummarizeSessionRequest"] = {
        "type": "object",
        "x-method": "session/summarize",
        "x-side": "agent",
        "description": "Summarize a session.",
        "required": ["sessionId"],
        "properties": {"sessionId": {"type": "string"}},
    }
    defs["SummarizeSessionResponse"] = {
        "type": "object",
        "x-method": "session/summarize",
        "x-side": "agent",
        "required": ["summary"],
        "properties": {"summary": {"type": "string"}},
    }
    defs["ShowToastNotification"] = {
        "type": "object",
        "x-method": "ui/toast",
        "x-side": "client",
        "description": "Show a toast.",
        "required": ["message"],
        "properties": {"message": {"type": "string"}},
    }
    path.write_text(json.dumps(schema))
    build(layout)
    script = """
import asyncio, os, sys
from agentproto.acp import Agent, Client, connect_agent, serve_agent
from agentproto.acp.models import SummarizeSessionResponse

class A(Agent):
    async def summarize_session(self, params):
        await self.client.show_toast({"message": "summarizing " + params.session_id})
        return SummarizeSessionResponse(summary="all good")

class C(Client):
    toasts = []
    async def show_toast(self, params):
        self.toasts.append(params.message)

async def streams(loop):
    r, w = os.pipe()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), os.fdopen(r, "rb"))
    t, p = await loop.connect_write_pipe(asyncio.streams.FlowControlMixin, os.fdopen(w, "wb"))
    return reader, asyncio.StreamWriter(t, p, None, loop)

async def main():
    loop = asyncio.get_running_loop()
    (ar, aw), (er, ew) = await streams(loop), await streams(loop)
    client = C()
    served = asyncio.ensure_future(serve_agent(A(), reader=ar, writer=ew))
    conn = connect_agent(er, aw, client=client)
    result = await conn.summarize_session({"sessionId": "s9"})
    print(result.summary, client.toasts)
    served.cancel()

asyncio.run(main())
"""
    import subprocess

    env = {"PYTHONPATH": str(layout.out), "PATH": "/usr/bin:/bin"}
    done = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "all good ['summarizing s9']"


def test_a_50_mb_line_crosses_the_connection() -> None:
    async def main() -> None:
        conn, served = await pair(EchoAgent())
        payload = "q" * 50_000_000
        echoed = await asyncio.wait_for(conn.ext_method("_echo", {"blob": payload}), 60)
        assert len(echoed["echo"]["blob"]) == 50_000_000
        await conn.close()
        served.cancel()

    asyncio.run(main())


def test_50_mb_lines_both_ways_over_a_spawned_agents_pipes() -> None:
    """The same over real subprocess pipes (read 64 KiB at a time): a 50 MB prompt to the
    agent and a 50 MB update back."""

    async def main() -> None:
        editor = Editor()
        async with spawn_agent(sys.executable, [OUR_AGENT], client=editor) as conn:
            await conn.initialize(INIT)
            sid = (await conn.new_session({"cwd": "/", "mcpServers": []})).session_id
            big = "w" * 50_000_000
            await asyncio.wait_for(
                conn.prompt({"sessionId": sid, "prompt": text(f"size {big}")}), 60
            )
            assert editor.texts()[-1] == str(len("size ") + len(big))
            await asyncio.wait_for(
                conn.prompt({"sessionId": sid, "prompt": text("big 50000000")}), 60
            )
            assert len(editor.texts()[-1]) == 50_000_000

    asyncio.run(main())


def test_lines_queued_behind_a_waiting_notification_pause_reading_then_run_in_order() -> None:
    """A notification handler that waits holds back later lines (arrival order); past
    _BACKLOG_PAUSE queued lines the connection stops reading until they are handled."""
    from agentproto._runtime import jsonrpc

    class Sink:
        def __init__(self) -> None:
            self.lines: list[bytes] = []

        def write(self, data: bytes) -> None:
            self.lines.append(data)

        async def drain(self) -> None:
            return None

        def close(self) -> None:
            return None

    async def main() -> tuple[list[int], bool, bool]:
        release = asyncio.Event()
        seen: list[int] = []

        class Handler:
            async def request(self, method: str, params: Any) -> Any:
                raise jsonrpc.MethodNotFound(method)

            async def notify(self, method: str, params: Any) -> None:
                if params["n"] == 0:
                    await release.wait()
                seen.append(params["n"])

        connection = jsonrpc.Connection(None, Sink(), Handler())
        connection.start()
        count = jsonrpc._BACKLOG_PAUSE + 10
        lines = b"".join(
            json.dumps({"jsonrpc": "2.0", "method": "n", "params": {"n": i}}).encode() + b"\n"
            for i in range(count)
        )
        connection.feed(lines)
        paused = connection._resumed is not None
        held_back = seen == []
        release.set()
        for _ in range(100):
            if len(seen) == count:
                break
            await asyncio.sleep(0.01)
        assert connection._resumed is None  # reading resumed once the backlog was handled
        await connection.close()
        return seen, paused, held_back

    seen, paused, held_back = asyncio.run(main())
    assert paused and held_back
    assert seen == list(range(jsonrpc._BACKLOG_PAUSE + 10))
