"""Running what a :class:`~agentproto.mcp.config.ServeConfig` says: open every source, serve
the tools over stdio or Streamable HTTP, close every client at the end."""

from __future__ import annotations

import socket
import sys
from collections.abc import Mapping

import anyio

from agentproto._runtime.errors import needs_extra
from agentproto.flows import FlowError
from agentproto.mcp.config import (
    FlowsConfig,
    MCPConfigError,
    ServeConfig,
    SkillsConfig,
    open_source,
)
from agentproto.mcp.server import http_app, serve_stdio
from agentproto.mcp.tools import FlowTools, Toolbox, ToolSource
from agentproto.skills import SkillSharingError


async def open_toolbox(config: ServeConfig, environ: Mapping[str, str]) -> Toolbox:
    """Every configured bundle and provider, opened (a failure closes what was opened)."""
    sources: list[ToolSource] = []
    try:
        entries: list[FlowsConfig | SkillsConfig] = [*config.bundles, *config.skills]
        for entry in entries:
            try:
                sources.append(await open_source(entry, environ))
            except (FlowError, SkillSharingError) as exc:
                if isinstance(entry, SkillsConfig):
                    where = entry.url
                else:
                    where = entry.bundle or entry.agents_json or "?"
                raise MCPConfigError(f"{where}: {exc}") from None
        served = {
            str(source)
            for tools in sources
            if isinstance(tools, FlowTools)
            for source in tools.client.plan["sources"]
        }
        named = {k for entry in config.bundles for k in [*entry.auth, *entry.base_urls]}
        if named - served:
            raise MCPConfigError(
                f"auth or base URLs for sources no bundle has: {sorted(named - served)} "
                f"(the bundles' sources: {sorted(served)})"
            )
        try:
            return Toolbox(sources)
        except ValueError as exc:
            raise MCPConfigError(str(exc)) from None
    except BaseException:
        for source in sources:
            await source.aclose()
        raise


async def aserve(config: ServeConfig, environ: Mapping[str, str]) -> None:
    toolbox = await open_toolbox(config, environ)
    try:
        if config.transport == "stdio":
            await serve_stdio(toolbox)
            return
        with needs_extra("mcp", feature="the MCP server over HTTP (agentproto.mcp)"):
            import uvicorn

        sock = socket.socket(socket.AF_INET6 if ":" in config.host else socket.AF_INET)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((config.host, config.port))
        port = sock.getsockname()[1]
        host = f"[{config.host}]" if ":" in config.host else config.host
        # On loopback the SDK refuses requests naming another Host (DNS rebinding); a server
        # bound elsewhere is reached under names it cannot know: guard it with http_token.
        app = http_app(toolbox, path=config.path, token=config.token(environ), host=config.host)
        print(f"http://{host}:{port}{config.path}", flush=True)
        server = uvicorn.Server(
            uvicorn.Config(app, log_level="warning", timeout_graceful_shutdown=5)
        )
        await server.serve(sockets=[sock])
    finally:
        await toolbox.aclose()


def serve(config: ServeConfig, environ: Mapping[str, str]) -> None:
    """Serve until the client closes stdin (stdio) or the process is interrupted (HTTP)."""
    if config.transport == "stdio" and sys.stdout.isatty():
        print("agentproto.mcp: serving MCP on stdio (a client speaks next)", file=sys.stderr)
    anyio.run(aserve, config, environ)
