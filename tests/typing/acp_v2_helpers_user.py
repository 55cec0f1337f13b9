"""A user's program, written from the docs: ACP v2, version negotiation and the helpers for
agent and editor authors, as pyright --strict and mypy --strict see them (no plugin)."""

from __future__ import annotations

from agentproto.acp import (
    Agent,
    CapabilityError,
    Client,
    ClientSession,
    ConnectionClosed,
    Offer,
    PermissionBroker,
    PromptReply,
    SessionAccumulator,
    SessionClient,
    TerminalHandle,
    TerminalResult,
    ToolCallTracker,
    UnhandledMessage,
    builders,
    default_permission_options,
    negotiate_agent,
    serve_versions,
    spawn_agent,
    v2,
)
from agentproto.acp.models import (
    ContentBlockText,
    InvalidSessionUpdate,
    PermissionOption,
    PromptRequest,
    PromptResponse,
    SessionNotification,
    SessionUpdateAgentMessageChunk,
)
from agentproto.acp.v2.models import UpdateSessionNotification


class Editor(Client):
    def __init__(self) -> None:
        self.acc = SessionAccumulator()

    async def session_update(self, params: SessionNotification) -> None:
        self.acc.apply(params)
        update = params.update
        if isinstance(update, InvalidSessionUpdate):
            kind: str = update.session_update
            raw: dict[str, object] = update.raw
            print(kind, raw, [e["loc"] for e in update.errors])

    async def unhandled_message(self, message: UnhandledMessage) -> None:
        print(message.method, message.reason, message.request)


class V2Editor(v2.Client):
    async def session_update(self, params: UpdateSessionNotification) -> None:
        print(params.session_id)


class Helpful(Agent):
    async def prompt(self, params: PromptRequest) -> PromptResponse:
        sid = params.session_id
        await self.client.session_update(session_id=sid, update=builders.say("On it"))
        tools = ToolCallTracker(self.client, sid)
        broker = PermissionBroker(self.client, sid)
        options: list[PermissionOption] = default_permission_options()
        decision = await broker.ask("t1", "Run tests", kind="execute")
        if decision.allowed and options:
            async with tools.run("pytest", kind="execute") as call:
                async with await TerminalHandle.create(self.client, sid, "pytest") as term:
                    result: TerminalResult = await term.wait(timeout=60)
                call.result(content=[f"exit {result.exit_code}"])
        return PromptResponse(stop_reason="end_turn")


async def editor_side() -> None:
    editor = SessionClient()
    async with spawn_agent("my-agent", client=editor, stderr=True) as conn:
        await conn.initialize(protocol_version=1)
        version: int | None = conn.protocol_version
        print(version, conn.peer_capabilities)
        session = await ClientSession.new(conn, editor, cwd="/repo")
        reply: PromptReply = await session.prompt([ContentBlockText(text="hi"), "and more"])
        print(reply.stop_reason, reply.text, [c.title for c in reply.tool_calls])
        try:
            await conn.load_session(session_id="s", cwd="/repo", mcp_servers=[])
        except CapabilityError as error:
            print(error.capability)
        except ConnectionClosed as closed:
            print(closed.stderr, closed.returncode)


async def negotiating() -> None:
    offers = [
        Offer.v2(V2Editor(), {"protocolVersion": 2, "info": {"name": "me", "version": "1"}}),
        Offer.v1(Editor(), {"protocolVersion": 1}),
    ]
    async with negotiate_agent(["my-agent"], offers=offers) as negotiated:
        if negotiated.v2 is not None:
            await negotiated.v2.new_session(cwd="/repo")
        elif negotiated.v1 is not None:
            chunk = SessionUpdateAgentMessageChunk(content=ContentBlockText(text="x"))
            print(chunk.session_update)


async def agent_side() -> None:
    await serve_versions(v1=Helpful())
