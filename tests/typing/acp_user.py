"""An editor's code as a user writes it from the docs: ACP models with snake_case keywords,
optional fields left out, a union narrowed with match and isinstance."""

from __future__ import annotations

from agentproto.acp.models import (
    ContentBlockText,
    NewSessionRequest,
    PromptRequest,
    PromptResponse,
    SessionNotification,
    SessionUpdateAgentMessageChunk,
    SessionUpdatePlan,
    StopReason,
)


def build_prompt(session_id: str, text: str) -> PromptRequest:
    return PromptRequest(session_id=session_id, prompt=[ContentBlockText(type="text", text=text)])


def new_session(cwd: str) -> NewSessionRequest:
    return NewSessionRequest(cwd=cwd, mcp_servers=[], meta={"trace": "t-1"})


def finished(response: PromptResponse) -> bool:
    return response.stop_reason is StopReason.end_turn


def describe(line: str) -> str:
    update = SessionNotification.model_validate_json(line).update
    match update:
        case SessionUpdateAgentMessageChunk():
            return f"agent says: {update.content}"
        case SessionUpdatePlan():
            return f"plan of {len(update.entries)} steps"
        case _:
            return type(update).__name__


def wire(request: PromptRequest) -> str:
    return request.model_dump_json(exclude_none=True)  # wire names: sessionId, _meta


if __name__ == "__main__":
    print(wire(build_prompt("s-1", "Hello")), new_session("/repo").cwd)
    print(finished(PromptResponse(stop_reason=StopReason.end_turn)))
