"""Running what a :class:`~agentproto.mcp.config.ServeConfig` says: open every source, serve
the tools over stdio or Streamable HTTP, close every client at the end."""

from __future__ import annotations

import sys
from collections.abc import Mapping

import anyio
from agentproto._runtime.guard import allowed_names, jsonrpc_error
from agentproto._runtime.limits import Limits
from agentproto._runtime.serve import serve_async
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
        try:
            limits = Limits(**config.limits)
        except (TypeError, ValueError) as exc:
            raise MCPConfigError(f"limits: {exc}") from None
        token = config.token(environ)
        # On loopback the guard (and the SDK) refuse requests naming another Host (DNS
        # rebinding); a server bound elsewhere is reached under names it cannot know: list
        # them (allowed_hosts), and guard it with http_token.
        app = http_app(
            toolbox,
            path=config.path,
            token=token,
            host=config.host,
            allowed_hosts=[*allowed_names(config.allowed_hosts)] or None,
            allowed_origins=config.allowed_origins,
            limits=limits,
        )

        def ready(url: str) -> None:
            print(url + config.path, flush=True)

        await serve_async(
            app,
            host=config.host,
            port=config.port,
            authenticated=token is not None,
            public_without_auth=config.public_without_auth,
            ready=ready,
            limits=limits,
            error_body=jsonrpc_error,
            lifespan="auto",
        )
    finally:
        await toolbox.aclose()


def serve(config: ServeConfig, environ: Mapping[str, str]) -> None:
    """Serve until the client closes stdin (stdio) or the process is interrupted (HTTP)."""
    if config.transport == "stdio" and sys.stdout.isatty():
        print("agentproto.mcp: serving MCP on stdio (a client speaks next)", file=sys.stderr)
    anyio.run(aserve, config, environ)
