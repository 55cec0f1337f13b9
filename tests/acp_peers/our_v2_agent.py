"""An ACP v2 agent written on agentproto.acp.v2 (run as a subprocess by the tests): the same
scripts as tests/node/ts_v2_agent.mjs ("hello N", "permission", "slow", anything else echoed),
each turn echoing the user message and reporting running, then idle with a stop reason.

With --router it serves v1 and v2 editors (agentproto.acp.serve_versions), its v1 agent being
tests/acp_peers/our_agent.py's; with --router-v2-only, v2 editors only.
"""

from __future__ import annotations

import asyncio
import itertools
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "generated"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from agentproto.acp import serve_versions, v2
from agentproto.acp.v2.models import (
    CancelSessionNotification,
    ContentBlockText,
    DeleteSessionRequest,
    DeleteSessionResponse,
    InitializeRequest,
    InitializeResponse,
    NewSessionRequest,
    NewSessionResponse,
    PermissionOption,
    PromptRequest,
    PromptResponse,
    RequestPermissionOutcomeSelected,
    SessionUpdateAgentMessageChunk,
    SessionUpdateStateUpdate,
    SessionUpdateUserMessage,
)


class ScriptedV2Agent(v2.Agent):
    def __init__(self) -> None:
        self.cancelled: dict[str, asyncio.Event] = {}
        self.turns = itertools.count(1)

    async def initialize(self, params: InitializeRequest) -> InitializeResponse:
        return InitializeResponse.model_validate(
            {
                "protocolVersion": min(params.protocol_version, v2.PROTOCOL_VERSION),
                "info": {"name": "our-v2-agent", "version": "1"},
                "capabilities": {"session": {"delete": {}}},
            }
        )

    async def new_session(self, params: NewSessionRequest) -> NewSessionResponse:
        session_id = f"py-sess-{len(self.cancelled) + 1}"
        self.cancelled[session_id] = asyncio.Event()
        return NewSessionResponse(session_id=session_id)

    async def delete_session(self, params: DeleteSessionRequest) -> DeleteSessionResponse:
        return DeleteSessionResponse()

    async def cancel(self, params: CancelSessionNotification) -> None:
        self.cancelled[params.session_id].set()

    async def prompt(self, params: PromptRequest) -> PromptResponse:
        turn = next(self.turns)
        sid = params.session_id
        user_id, agent_id = f"py-user-{turn}", f"py-agent-{turn}"

        async def say(text: str) -> None:
            chunk = SessionUpdateAgentMessageChunk(
                message_id=agent_id, content=ContentBlockText(text=text)
            )
            await self.client.session_update(session_id=sid, update=chunk)

        async def state(**fields: object) -> None:
            update = SessionUpdateStateUpdate.model_validate(
                {"sessionUpdate": "state_update", **fields}
            )
            await self.client.session_update(session_id=sid, update=update)

        echo = SessionUpdateUserMessage(message_id=user_id, content=list(params.prompt))
        await self.client.session_update(session_id=sid, update=echo)
        await state(state="running")
        text = "".join(b.text for b in params.prompt if isinstance(b, ContentBlockText))
        stop = "end_turn"
        if text.startswith("hello"):
            for i in range(int(text.split(" ")[1])):
                await say(f"chunk {i}")
        elif text == "permission":
            answer = await self.client.request_permission(
                session_id=sid,
                title="Write notes.txt",
                options=[
                    PermissionOption(option_id="allow", name="Allow", kind="allow_once"),
                    PermissionOption(option_id="reject", name="Reject", kind="reject_once"),
                ],
            )
            outcome = answer.outcome
            chosen = (
                outcome.option_id
                if isinstance(outcome, RequestPermissionOutcomeSelected)
                else "cancelled"
            )
            await say(f"outcome {chosen}")
        elif text == "slow":
            await say("working")
            try:
                await asyncio.wait_for(self.cancelled[sid].wait(), 5)
                stop = "cancelled"
            except TimeoutError:
                pass
            self.cancelled[sid].clear()
        else:
            await say(f"echo {text}")
        await state(state="idle", stopReason=stop)
        return PromptResponse(message_id=user_id)


async def main() -> None:
    if "--router-v2-only" in sys.argv:
        await serve_versions(v2=ScriptedV2Agent())
    elif "--router" in sys.argv:
        from our_agent import ScriptedAgent  # the v1 scripts

        await serve_versions(v1=ScriptedAgent(), v2=ScriptedV2Agent())
    else:
        await v2.serve_agent(ScriptedV2Agent())


if __name__ == "__main__":
    asyncio.run(main())
