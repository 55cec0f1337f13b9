"""An editor's code as a user writes it from the docs: ACP models with snake_case keywords,
optional fields left out, enums as plain strings, a union narrowed with match and isinstance,
and the values a newer agent may send (UnknownValue, Unknown... variants) handled."""

from __future__ import annotations

from agentproto.acp import Agent, AgentConnection, Client, SyncAgentConnection
from agentproto.acp.models import (
    ContentBlockText,
    NewSessionRequest,
    PromptRequest,
    PromptResponse,
    SessionNotification,
    SessionUpdateAgentMessageChunk,
    SessionUpdatePlan,
    SetSessionConfigOptionRequestBoolean,
    SetSessionConfigOptionRequestValueId,
    SetSessionConfigOptionResponse,
    StopReason,
    UnknownSessionUpdate,
)


def build_prompt(session_id: str, text: str) -> PromptRequest:
    return PromptRequest(session_id=session_id, prompt=[ContentBlockText(type="text", text=text)])


def new_session(cwd: str) -> NewSessionRequest:
    return NewSessionRequest(cwd=cwd, mcp_servers=[], meta={"trace": "t-1"})


def finished(response: PromptResponse) -> bool:
    return response.stop_reason == "end_turn"


def why(reason: StopReason) -> str:
    match reason:
        case "end_turn":
            return "done"
        case "cancelled":
            return "cancelled"
        case "max_tokens" | "max_turn_requests" | "refusal":
            return "cut short"
        case _:  # a reason of a newer agent: an UnknownValue, a str
            return f"stopped ({reason.upper()})"


def describe(line: str) -> str:
    update = SessionNotification.model_validate_json(line).update
    match update:
        case SessionUpdateAgentMessageChunk():
            return f"agent says: {update.content}"
        case SessionUpdatePlan():
            return f"plan of {len(update.entries)} steps"
        case UnknownSessionUpdate(session_update=kind):
            return f"a newer kind of update: {kind} {update.model_extra}"
        case _:
            return type(update).__name__


def wire(request: PromptRequest) -> str:
    return request.model_dump_json(exclude_none=True)  # wire names: sessionId, _meta


if __name__ == "__main__":
    print(wire(build_prompt("s-1", "Hello")), new_session("/repo").cwd)
    print(finished(PromptResponse(stop_reason="end_turn")), why("refusal"))


async def session(agent: AgentConnection) -> str:
    """Calls with keywords: every key and type is checked."""
    created = await agent.new_session(cwd="/repo", mcp_servers=[])
    reply = await agent.prompt(
        session_id=created.session_id, prompt=[ContentBlockText(type="text", text="Hi")]
    )
    await agent.prompt(  # nested inputs as dicts, with the wire's keys, checked key by key
        session_id=created.session_id,
        prompt=[
            {"type": "text", "text": "Hi"},
            {"type": "resource_link", "uri": "file:///a", "name": "a"},
        ],
    )
    await agent.new_session(
        cwd="/repo", mcp_servers=[{"name": "fs", "command": "mcp-fs", "args": [], "env": []}]
    )
    await agent.cancel(session_id=created.session_id)
    await agent.set_session_config_option(
        session_id=created.session_id, config_id="auto", type="boolean", value=True
    )
    return why(reply.stop_reason)


def blocking(agent: SyncAgentConnection) -> PromptResponse:
    created = agent.new_session(NewSessionRequest(cwd="/repo", mcp_servers=[]), timeout=5.0)
    return agent.prompt(session_id=created.session_id, prompt=[], timeout=30.0)


class Editor(Client):
    async def session_update(self, params: SessionNotification) -> None:
        print(describe(params.model_dump_json()))


class MyAgent(Agent):
    async def set_session_config_option(
        self, params: SetSessionConfigOptionRequestBoolean | SetSessionConfigOptionRequestValueId
    ) -> SetSessionConfigOptionResponse:
        if isinstance(params, SetSessionConfigOptionRequestBoolean):  # no .root
            print(params.value is True)
        return SetSessionConfigOptionResponse(config_options=[])
