"""An editor (the client side of ACP) that starts an agent, opens a session and prompts it.

    python examples/acp_editor.py                          # the echo agent beside this file
    python examples/acp_editor.py -- my-agent --stdio      # any ACP agent command

It does what an editor does on its first prompt: ``initialize`` (protocol version, its own
name and capabilities), ``authenticate`` when the agent lists a method, ``session/new``, then
``session/prompt``, printing the agent's ``session/update`` chunks as they stream in. A second
prompt is cancelled (``session/cancel``) after its first chunk.
"""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

from agentproto.acp import Client, spawn_agent
from agentproto.acp.models import (
    ClientCapabilities,
    ContentBlockText,
    Implementation,
    SessionNotification,
    SessionUpdateAgentMessageChunk,
)

ECHO_AGENT = [sys.executable, str(Path(__file__).with_name("acp_echo_agent.py"))]


class Editor(Client):
    """Serves the agent's calls; here only ``session/update``: the text chunks are printed."""

    def __init__(self) -> None:
        self.chunks = 0
        self.first_chunk = asyncio.Event()

    async def session_update(self, params: SessionNotification) -> None:
        match params.update:
            case SessionUpdateAgentMessageChunk(content=ContentBlockText(text=text)):
                print(text, end="", flush=True)
                self.chunks += 1
                self.first_chunk.set()
            case other:  # tool calls, plans, thoughts...: a real editor would show them
                print(f"\n({other.session_update})", flush=True)


async def main(command: list[str]) -> None:
    editor = Editor()
    async with spawn_agent(command, client=editor) as agent:
        hello = await agent.initialize(
            protocol_version=1,
            client_capabilities=ClientCapabilities(),  # no fs/* or terminal/* served here
            client_info=Implementation(name="agentproto-example-editor", version="1.0.0"),
        )
        info = hello.agent_info
        name = f"{info.name} {info.version}" if info is not None else "an unnamed agent"
        print(f"agent: {name} (protocol {hello.protocol_version})")
        for method in hello.auth_methods or []:
            await agent.authenticate(method_id=method.id)
            print(f"authenticated with {method.id}")
            break
        session = await agent.new_session(cwd=os.getcwd(), mcp_servers=[])
        print(f"session: {session.session_id}")

        text = "Hello from an agentproto editor"
        print(f"> {text}\n< ", end="")
        done = await agent.prompt(
            session_id=session.session_id, prompt=[ContentBlockText(type="text", text=text)]
        )
        print(f" [{done.stop_reason}, {editor.chunks} chunks]")

        text = "count " + " ".join(str(n) for n in range(1, 1001))
        print("> count 1 2 3 ... 1000, cancelled after the first chunk\n< ", end="")
        editor.first_chunk.clear()
        turn = asyncio.create_task(
            agent.prompt(
                session_id=session.session_id, prompt=[ContentBlockText(type="text", text=text)]
            )
        )
        await asyncio.wait_for(editor.first_chunk.wait(), 10)
        await agent.cancel(session_id=session.session_id)
        done = await asyncio.wait_for(turn, 10)
        print(f" [{done.stop_reason}]")


if __name__ == "__main__":
    arguments = sys.argv[1:]
    if arguments[:1] == ["--"]:
        arguments = arguments[1:]
    asyncio.run(main(arguments or ECHO_AGENT))
