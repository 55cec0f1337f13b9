"""The same scripted agent written on the official ACP SDK (agent-client-protocol)."""

from __future__ import annotations

import asyncio
import os
from typing import Any

import acp
from acp import schema


class ScriptedAgent:
    def __init__(self) -> None:
        self.cancelled: dict[str, asyncio.Event] = {}
        self.conn: Any = None

    def on_connect(self, conn: Any) -> None:
        self.conn = conn

    async def initialize(self, protocol_version: int, **kwargs: Any) -> schema.InitializeResponse:
        # As ACP v1 says: the requested version if supported, else the latest supported one.
        version = min(protocol_version, acp.PROTOCOL_VERSION)
        return schema.InitializeResponse(protocol_version=version)

    async def new_session(self, cwd: str, **kwargs: Any) -> schema.NewSessionResponse:
        session_id = f"sess-{len(self.cancelled) + 1}"
        self.cancelled[session_id] = asyncio.Event()
        return schema.NewSessionResponse(session_id=session_id)

    async def cancel(self, session_id: str, **kwargs: Any) -> None:
        self.cancelled[session_id].set()

    async def say(self, session_id: str, text: str) -> None:
        await self.conn.session_update(session_id, acp.update_agent_message_text(text))

    async def prompt(
        self, session_id: str, prompt: list[Any], **kwargs: Any
    ) -> schema.PromptResponse:
        text = "".join(getattr(block, "text", "") for block in prompt)
        command, _, arg = text.partition(" ")
        if command == "hello":
            for i in range(int(arg or 1)):
                await self.say(session_id, f"chunk {i}")
        elif command == "permission":
            answer = await self.conn.request_permission(
                session_id=session_id,
                tool_call=schema.ToolCallUpdate(tool_call_id="call-1", title="rm -rf build"),
                options=[
                    schema.PermissionOption(option_id="allow", name="Allow", kind="allow_once"),
                    schema.PermissionOption(option_id="reject", name="Reject", kind="reject_once"),
                ],
            )
            outcome = answer.outcome
            await self.say(session_id, f"outcome {getattr(outcome, 'option_id', outcome.outcome)}")
        elif command == "fs":
            read = await self.conn.read_text_file(session_id=session_id, path=arg)
            await self.conn.write_text_file(
                session_id=session_id, path=arg + ".out", content=read.content.upper()
            )
            await self.say(session_id, f"wrote {len(read.content)}")
        elif command == "slow":
            await self.say(session_id, "working")
            await self.cancelled[session_id].wait()
            return schema.PromptResponse(stop_reason="cancelled")
        elif command == "crash":
            await self.say(session_id, "about to crash")
            os._exit(3)
        elif command == "size":
            await self.say(session_id, str(len(text)))
        elif command == "big":
            await self.say(session_id, "x" * int(arg))
        return schema.PromptResponse(stop_reason="end_turn")


if __name__ == "__main__":
    asyncio.run(acp.run_agent(ScriptedAgent()))
