"""Mistakes a type checker must catch in a user's ACP code (each line marked ``# error``)."""

from __future__ import annotations

from agentproto.aap import AAPClient
from agentproto.aap.models import AgentConfig
from agentproto.acp import AgentConnection, SyncAgentConnection
from agentproto.acp.models import PromptRequest, PromptResponse, StopReason


async def mistakes(agent: AgentConnection, blocking: SyncAgentConnection) -> None:
    await agent.new_session(cwd="/repo", mcp_server=[])  # error: misspelt key
    await agent.new_session(cwd=3, mcp_servers=[])  # error: wrong type
    await agent.new_session(mcp_servers=[])  # error: required key left out
    await agent.prompt({"sessionId": "s", "prompt": []})  # error: a bare dict is unchecked
    blocking.cancel(session_id="s", timeout="soon")  # error: timeout is a number
    PromptRequest(sessionId="s", prompt=[])  # error: wire names are not keywords
    await agent.prompt(session_id="s", prompt=[{"type": "txt", "text": "x"}])  # error: bad tag
    await agent.prompt(session_id="s", prompt=[{"type": "text", "txt": "x"}])  # error: misspelt key
    PromptResponse(stop_reason="ended")  # error: not one of the enum's values
    reason: str = input()
    PromptResponse(stop_reason=reason)  # error: any str is not a known value or UnknownValue
    known: StopReason = "end_turn"
    print(known)


def aap_mistakes(client: AAPClient) -> None:
    client.create_session(agent={"name": "echo"}, tool=[])  # error: misspelt key
    client.create_session(agent=AgentConfig(name="echo"), tools="none")  # error: wrong type
    client.create_turn("s-1")  # error: required messages left out
    client.create_turn_stream("s-1", message=[], mode="delta")  # error: misspelt key
