"""An ACP agent written on agentproto (run as a subprocess by the tests).

Prompts are scripts: "hello N" streams N message chunks; "permission" asks the editor and says
which option it got; "fs PATH" reads PATH and writes its upper-cased text to PATH.out; "slow"
streams one chunk and waits for session/cancel; "crash" dies mid-prompt ("orphan" too, leaving
a child that holds its stdout open); "complain" writes a megabyte to stderr, then why it cannot
go on, and waits to be killed; "size" answers the
prompt's length; "big N" streams one chunk of N bytes.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "generated"))

from agentproto.acp import PROTOCOL_VERSION, Agent, serve_agent
from agentproto.acp.models import (
    CancelNotification,
    InitializeRequest,
    InitializeResponse,
    NewSessionRequest,
    NewSessionResponse,
    PromptRequest,
    PromptResponse,
    SetSessionConfigOptionRequestBoolean,
    SetSessionConfigOptionRequestValueId,
    SetSessionConfigOptionResponse,
)


class ScriptedAgent(Agent):
    def __init__(self) -> None:
        self.cancelled: dict[str, asyncio.Event] = {}

    async def initialize(self, params: InitializeRequest) -> InitializeResponse:
        return InitializeResponse.model_validate(
            {
                "protocolVersion": min(params.protocol_version, PROTOCOL_VERSION),
                "agentCapabilities": {"loadSession": False},
            }
        )

    async def new_session(self, params: NewSessionRequest) -> NewSessionResponse:
        session_id = f"sess-{len(self.cancelled) + 1}"
        self.cancelled[session_id] = asyncio.Event()
        return NewSessionResponse(session_id=session_id)

    async def set_session_config_option(
        self, params: SetSessionConfigOptionRequestBoolean | SetSessionConfigOptionRequestValueId
    ) -> SetSessionConfigOptionResponse:
        # The handler gets the union's member itself (no .root); it tells which one it got.
        await self.say(params.session_id, f"{type(params).__name__} {params.value!r}")
        return SetSessionConfigOptionResponse(config_options=[])

    async def cancel(self, params: CancelNotification) -> None:
        self.cancelled[params.session_id].set()

    async def say(self, session_id: str, text: str) -> None:
        await self.client.session_update(
            {
                "sessionId": session_id,
                "update": {
                    "sessionUpdate": "agent_message_chunk",
                    "content": {"type": "text", "text": text},
                },
            }
        )

    async def prompt(self, params: PromptRequest) -> PromptResponse:
        sid = params.session_id
        text = "".join(getattr(block, "text", "") for block in params.prompt)
        command, _, arg = text.partition(" ")
        if command == "hello":
            for i in range(int(arg or 1)):
                await self.say(sid, f"chunk {i}")
        elif command == "permission":
            answer = await self.client.request_permission(
                {
                    "sessionId": sid,
                    "toolCall": {"toolCallId": "call-1", "title": "rm -rf build"},
                    "options": [
                        {"optionId": "allow", "name": "Allow", "kind": "allow_once"},
                        {"optionId": "reject", "name": "Reject", "kind": "reject_once"},
                    ],
                }
            )
            outcome = answer.outcome
            await self.say(sid, f"outcome {getattr(outcome, 'option_id', outcome.outcome)}")
        elif command == "fs":
            read = await self.client.read_text_file({"sessionId": sid, "path": arg})
            await self.client.write_text_file(
                {"sessionId": sid, "path": arg + ".out", "content": read.content.upper()}
            )
            await self.say(sid, f"wrote {len(read.content)}")
        elif command == "slow":
            await self.say(sid, "working")
            await self.cancelled[sid].wait()
            return PromptResponse.model_validate({"stopReason": "cancelled"})
        elif command == "crash":
            await self.say(sid, "about to crash")
            # Lines go out at the end of the loop's turn (batched writes): a process killed in
            # the same turn loses them, as any buffered output. Crash in the next turn.
            await asyncio.sleep(0)
            os._exit(3)
        elif command == "orphan":
            # Crash, leaving a process behind that holds our stdout open (so no EOF comes).
            subprocess.Popen([sys.executable, "-c", "import time; time.sleep(10)"])
            await self.say(sid, "about to crash")
            await asyncio.sleep(0)  # (out at the end of this turn, as above)
            os._exit(3)
        elif command == "complain":
            # Say why on stderr (after a megabyte of noise), then wait to be killed.
            sys.stderr.write("noise " * 200_000 + "\n")
            sys.stderr.write("fatal: the provider rejected the API key (HTTP 401)\n")
            sys.stderr.flush()
            await self.say(sid, "complained")
            await asyncio.sleep(60)
        elif command == "size":
            await self.say(sid, str(len(text)))
        elif command == "big":
            await self.say(sid, "x" * int(arg))
        return PromptResponse.model_validate({"stopReason": "end_turn"})


if __name__ == "__main__":
    asyncio.run(serve_agent(ScriptedAgent()))
