"""An MCP server on the official SDK's ``MCPServer`` (FastMCP's successor in mcp 2), for the MCP
client's tests: ``python -m tests.servers.mcp_tools`` serves it over stdio, ``app()`` is its
Streamable HTTP app. The tools: ``step_1_tool`` (what ai-protocol-mock's recursive tool calls
name), ``add``, ``shout``, ``fail`` (an error meant for the model), ``slow``, ``picture`` (an
image block) and ``token_seen`` (whether ``MCP_TEST_TOKEN`` reached the server's
environment)."""

from __future__ import annotations

import asyncio
import os
from typing import Any

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ImageContent

server = MCPServer("test-tools")


@server.tool()
def step_1_tool(step: int) -> dict[str, Any]:
    """Run one step."""
    return {"step": step, "ok": True}


@server.tool()
def add(a: int, b: int) -> int:
    """Add two numbers."""
    return a + b


@server.tool()
async def shout(text: str) -> str:
    """The text in capitals."""
    await asyncio.sleep(0)
    return text.upper() + "!"


@server.tool()
def fail(reason: str) -> str:
    """Always fails, with the reason (a ToolError: its text is for the model)."""
    raise ToolError(f"cannot do it: {reason}")


@server.tool()
async def slow(seconds: float) -> str:
    """Sleeps, then answers."""
    await asyncio.sleep(seconds)
    return "done"


@server.tool()
def picture() -> list[ImageContent]:
    """A one-pixel image."""
    return [ImageContent(type="image", data="iVBORw0KGgo=", mime_type="image/png")]


@server.tool()
def token_seen() -> str:
    """Whether the token reached this server's environment (never its value)."""
    return "yes" if os.environ.get("MCP_TEST_TOKEN") == "tok-secret-123456" else "no"


def app() -> Any:
    return server.streamable_http_app()


if __name__ == "__main__":
    server.run("stdio")
