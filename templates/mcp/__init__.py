"""MCP on the official ``mcp`` Python SDK (``pip install "agentproto[mcp]"``), over stdio and
Streamable HTTP, both ways: serve agents.json flows and Skill Sharing skills as MCP tools, and
use any MCP server's tools as LLM tools (:class:`AsyncMCPTools` / :class:`MCPTools` for
``run_tools`` and the AAP ``LLMAgent``; :class:`SessionMCP` for the servers an ACP editor
passes in ``session/new``).

From the command line: ``python -m agentproto.mcp`` (see :mod:`agentproto.mcp.__main__` and
:mod:`agentproto.mcp.config`). From Python::

    toolbox = Toolbox([FlowTools(giphy.AsyncGiphyFlows(auth=...)), await SkillTools.discover(url)])
    await serve_stdio(toolbox)            # or: http_app(toolbox) for any ASGI server

The credentials each source needs are the operator's (the clients' auth, the skills'
``Credentials``); a model only ever gives a tool's arguments, and inputs that carry
credentials are not among them.
"""

from __future__ import annotations

import importlib

from agentproto._runtime.errors import needs_extra

with needs_extra("mcp", feature="the MCP server (agentproto.mcp)"):
    importlib.import_module("mcp")  # the official SDK: every module here stands on it

from agentproto.mcp.acp import SessionMCP
from agentproto.mcp.client import (
    AsyncMCPTools,
    HttpServer,
    MCPClientError,
    MCPTools,
    ServerParams,
    StdioServer,
)
from agentproto.mcp.config import MCPConfigError, ServeConfig, config_from, load_config
from agentproto.mcp.serve import aserve, open_toolbox
from agentproto.mcp.server import build_server, http_app, serve_stdio
from agentproto.mcp.tools import FlowTools, SkillTools, Toolbox, ToolOutcome, ToolSource, ToolSpec

__all__ = [
    "AsyncMCPTools",
    "FlowTools",
    "HttpServer",
    "MCPClientError",
    "MCPConfigError",
    "MCPTools",
    "ServeConfig",
    "ServerParams",
    "SessionMCP",
    "SkillTools",
    "StdioServer",
    "ToolOutcome",
    "ToolSource",
    "ToolSpec",
    "Toolbox",
    "aserve",
    "build_server",
    "config_from",
    "http_app",
    "load_config",
    "open_toolbox",
    "serve_stdio",
]
