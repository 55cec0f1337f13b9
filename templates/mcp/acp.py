"""The MCP servers an ACP editor passes to an agent in ``session/new``, as LLM tools.

An editor tells an agent which MCP servers a session may use (``mcpServers`` of
``session/new`` and ``session/load``: stdio commands, and HTTP endpoints when the agent
advertises ``mcpCapabilities.http``). :class:`SessionMCP` connects to them when the session
starts and closes them with it::

    class MyAgent(Agent):
        def __init__(self) -> None:
            self.mcp = SessionMCP()

        async def new_session(self, params: NewSessionRequest) -> NewSessionResponse:
            session_id = uuid.uuid4().hex
            await self.mcp.open(session_id, params.mcp_servers)
            return NewSessionResponse(session_id=session_id)

        async def prompt(self, params: PromptRequest) -> PromptResponse:
            tools = self.mcp.tools(params.session_id)        # FunctionTools for run_tools
            ...

    agent = MyAgent()
    try:
        await serve_agent(agent)
    finally:
        await agent.mcp.aclose()                             # every server of every session

The servers' environment values and headers come from the editor and are kept as
:class:`~agentproto._runtime.redact.Secret` s (masked in every ``repr``). Tool names are
prefixed with their server's name (``<server>_<tool>``) unless ``prefix=False``. The limits of
:class:`~agentproto.mcp.client.AsyncMCPTools` apply to every call.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final

from agentproto._runtime.redact import Secret
from agentproto.llm.tool_loop import FunctionTool
from agentproto.mcp.client import (
    DEFAULT_CALL_TIMEOUT,
    DEFAULT_CONNECT_TIMEOUT,
    DEFAULT_MAX_RESULT_BYTES,
    AsyncMCPTools,
    HttpServer,
    MCPClientError,
    ServerParams,
    StdioServer,
)

if TYPE_CHECKING:
    from agentproto.acp.models import McpServer

__all__ = ["SessionMCP", "server_params"]

log: Final = logging.getLogger("agentproto.mcp.acp")


def server_params(server: McpServer | Any) -> ServerParams:
    """An ACP ``McpServer`` (stdio or HTTP) as the MCP client's parameters; SSE servers (a
    transport MCP deprecated) raise :class:`~agentproto.mcp.client.MCPClientError`."""
    from agentproto.acp.models import McpServerHttpModel, McpServerStdio

    if isinstance(server, McpServerStdio):
        return StdioServer(
            server.name,
            server.command,
            tuple(server.args),
            {v.name: Secret(v.value) for v in server.env},
        )
    if isinstance(server, McpServerHttpModel):
        return HttpServer(
            server.name, server.url, {h.name: Secret(h.value) for h in server.headers}
        )
    name = str(getattr(server, "name", "?"))
    kind = str(getattr(server, "type", type(server).__name__))
    raise MCPClientError(f"MCP server {name!r}: the {kind} transport is not supported", server=name)


class SessionMCP:
    """Per ACP session, the tools of the MCP servers the editor gave (see the module
    docstring)."""

    def __init__(
        self,
        *,
        prefix: bool = True,
        call_timeout: float = DEFAULT_CALL_TIMEOUT,
        connect_timeout: float = DEFAULT_CONNECT_TIMEOUT,
        max_result_bytes: int = DEFAULT_MAX_RESULT_BYTES,
    ) -> None:
        self.prefix: bool = prefix
        self.call_timeout: float = call_timeout
        self.connect_timeout: float = connect_timeout
        self.max_result_bytes: int = max_result_bytes
        self._sessions: dict[str, AsyncMCPTools] = {}

    def __repr__(self) -> str:
        return f"<SessionMCP {len(self._sessions)} sessions>"

    async def open(self, session_id: str, servers: Sequence[McpServer | Any]) -> list[FunctionTool]:
        """Connect to ``servers`` for ``session_id`` (its earlier ones closed first) and return
        their tools; a server that cannot be used raises
        :class:`~agentproto.mcp.client.MCPClientError` (nothing of the session stays open)."""
        await self.close(session_id)
        params = [server_params(server) for server in servers]
        tools = AsyncMCPTools(
            params,
            prefix=self.prefix,
            call_timeout=self.call_timeout,
            connect_timeout=self.connect_timeout,
            max_result_bytes=self.max_result_bytes,
        )
        await tools.open()
        self._sessions[session_id] = tools
        return list(tools.tools)

    def tools(self, session_id: str) -> list[FunctionTool]:
        """The tools of ``session_id`` (none when it has no servers, or is not open)."""
        found = self._sessions.get(session_id)
        return list(found.tools) if found is not None else []

    def toolset(self, session_id: str) -> AsyncMCPTools | None:
        return self._sessions.get(session_id)

    async def close(self, session_id: str) -> None:
        """Close the servers of ``session_id`` (stdio servers' processes end)."""
        found = self._sessions.pop(session_id, None)
        if found is not None:
            await found.aclose()

    async def aclose(self) -> None:
        """Close every session's servers."""
        for session_id in list(self._sessions):
            await self.close(session_id)
