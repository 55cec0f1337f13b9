"""An ACP agent whose turns are LLM tool loops over the MCP servers the editor passes.

An editor starts it over stdio (or ``python -m agentproto.aap.serve --acp-agent`` offers it
over AAP)::

    python examples/acp_llm_agent.py --provider openai --base-url http://127.0.0.1:8000/v1 \\
        --model gpt-4o-mini [--ask] [--header X-Name:value ...]

Each ``session/new`` connects to the session's ``mcpServers`` (stdio commands, and HTTP
endpoints: it advertises ``mcpCapabilities.http``) with
:class:`~agentproto.mcp.SessionMCP`; each ``session/prompt`` runs
``AsyncLLMClient.run_tools`` with their tools, reports every tool call as ACP ``tool_call`` /
``tool_call_update`` updates (asking the editor's permission first with ``--ask``), streams
the final answer as ``agent_message_chunk`` s and ends ``end_turn``; ``session/cancel`` ends
the turn ``cancelled``. The key comes from ``$AGENT_API_KEY`` (never the command line).

With OpenTelemetry's SDK installed in this process, a prompt is one span (a child of the
editor's, through ``_meta``), its model calls and MCP tool calls its children.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import uuid
from typing import Any

from agentproto.acp import Agent, serve_agent
from agentproto.acp.builders import say, tool_failed, tool_finished, tool_progress, tool_started
from agentproto.acp.models import (
    AgentCapabilities,
    CancelNotification,
    ContentBlockText,
    Implementation,
    InitializeRequest,
    InitializeResponse,
    McpCapabilities,
    NewSessionRequest,
    NewSessionResponse,
    PromptRequest,
    PromptResponse,
)
from agentproto.acp.permissions import PermissionBroker
from agentproto.llm import AsyncLLMClient, FunctionTool, ToolError
from agentproto.llm.tool_loop import schema_tool
from agentproto.mcp import SessionMCP


class LLMAgent(Agent):
    def __init__(self, llm: AsyncLLMClient, model: str, headers: dict[str, str], ask: bool) -> None:
        self.llm = llm
        self.model = model
        self.headers = headers
        self.ask = ask
        self.mcp = SessionMCP(prefix=False)
        self.turns: dict[str, asyncio.Task[str]] = {}
        self.ids = itertools.count(1)

    async def initialize(self, params: InitializeRequest) -> InitializeResponse:
        return InitializeResponse(
            protocol_version=1,
            agent_capabilities=AgentCapabilities(mcp_capabilities=McpCapabilities(http=True)),
            agent_info=Implementation(name="llm-agent", version="1.0.0"),
        )

    async def new_session(self, params: NewSessionRequest) -> NewSessionResponse:
        session_id = uuid.uuid4().hex
        await self.mcp.open(session_id, params.mcp_servers)
        return NewSessionResponse(session_id=session_id)

    async def prompt(self, params: PromptRequest) -> PromptResponse:
        session_id = params.session_id
        text = " ".join(b.text for b in params.prompt if isinstance(b, ContentBlockText))
        tools = [self.reported(session_id, tool) for tool in self.mcp.tools(session_id)]
        turn = asyncio.ensure_future(self.answer(text, tools))
        self.turns[session_id] = turn
        try:
            answer = await turn
        except asyncio.CancelledError:
            if turn.cancelled() and not _current_cancelling():
                return PromptResponse(stop_reason="cancelled")  # session/cancel did it
            raise
        finally:
            self.turns.pop(session_id, None)
        await self.client.session_update(session_id=session_id, update=say(answer))
        return PromptResponse(stop_reason="end_turn")

    async def answer(self, text: str, tools: list[FunctionTool]) -> str:
        messages = [{"role": "user", "content": text}]
        if not tools:
            response = await self.llm.chat(messages, model=self.model, extra_headers=self.headers)
            return response.content
        result = await self.llm.run_tools(
            messages, tools=tools, model=self.model, extra_headers=self.headers
        )
        return result.content

    async def cancel(self, params: CancelNotification) -> None:
        turn = self.turns.get(params.session_id)
        if turn is not None:
            turn.cancel()

    def reported(self, session_id: str, tool: FunctionTool) -> FunctionTool:
        """``tool``, reporting its calls to the editor (and asking first, with ``--ask``)."""

        async def run(**arguments: Any) -> Any:
            call_id = f"call-{next(self.ids)}"
            update = self.client.session_update
            title = f"{tool.name}({json.dumps(arguments)})"
            await update(
                session_id=session_id,
                update=tool_started(call_id, title, kind="other", raw_input=arguments),
            )
            if self.ask:
                decision = await PermissionBroker(self.client, session_id).ask(
                    call_id, title, kind="other"
                )
                if not decision.allowed:
                    await update(
                        session_id=session_id, update=tool_failed(call_id, content=["declined"])
                    )
                    raise ToolError(f"the user declined {tool.name}")
            await update(session_id=session_id, update=tool_progress(call_id))
            try:
                value = await tool.function(**arguments)
            except ToolError as error:
                await update(
                    session_id=session_id, update=tool_failed(call_id, content=[str(error)])
                )
                raise
            shown = value if isinstance(value, str) else json.dumps(value)
            await update(session_id=session_id, update=tool_finished(call_id, content=[shown]))
            return value

        return schema_tool(tool.name, tool.description, tool.parameters, run)


def _current_cancelling() -> bool:
    task = asyncio.current_task()
    return task is not None and task.cancelling() > 0


async def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--provider", default="openai")
    parser.add_argument("--base-url", required=True)
    parser.add_argument("--model", default="gpt-4o-mini")
    parser.add_argument("--ask", action="store_true", help="ask before each tool call")
    parser.add_argument("--header", action="append", default=[], help="Name:value")
    options = parser.parse_args()
    headers = dict(h.split(":", 1) for h in options.header)
    key = os.environ.get("AGENT_API_KEY", "sk-no-key")
    async with AsyncLLMClient(options.provider, api_key=key, base_url=options.base_url) as llm:
        agent = LLMAgent(llm, options.model, headers, options.ask)
        try:
            await serve_agent(agent)
        finally:
            await agent.mcp.aclose()


if __name__ == "__main__":
    asyncio.run(main())
