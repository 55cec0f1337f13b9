"""MCP servers' tools as LLM tools: the client side, on the official ``mcp`` SDK (stdio and
Streamable HTTP).

::

    servers = [
        StdioServer("files", "python", ["-m", "my_mcp_server"], env={"TOKEN": Secret(token)}),
        HttpServer("search", "https://mcp.example.com/mcp", headers={"Authorization": auth}),
    ]
    async with AsyncMCPTools(servers) as mcp:
        result = await llm.run_tools(messages, tools=mcp.tools, model="gpt-4o-mini")

    with MCPTools(servers) as mcp:                      # blocking code: its own loop thread
        result = llm.run_tools(messages, tools=mcp.tools, model="gpt-4o-mini")

Each tool of each server becomes a :class:`~agentproto.llm.tool_loop.FunctionTool` (its name,
description and input schema as the server lists them) for ``run_tools``, an AAP
:class:`~agentproto.aap.llm_agent.LLMAgent` (server tools from
:meth:`AsyncMCPTools.server_tools`) or a fallback chain's ``run_tools``. The same rules as
every other tool of the package:

- the arguments are checked against the tool's input schema before anything is sent (a
  mismatch is a :class:`~agentproto.llm.ToolError` the model reads);
- each call has a deadline (``call_timeout``, 60 s): past it the call is cancelled and the
  model reads that the tool timed out; a result over ``max_result_bytes`` (1 MiB) is refused
  the same way, never cut;
- a result the server marks ``isError`` is the server's message for the model (a ToolError);
  structured content is returned as JSON, text content as text, and any other content
  (images, resources) as the JSON of its blocks, so nothing a server sends is dropped;
- anything else (the server gone, a protocol error) is the program's failure: it stops the
  tool loop (``ToolExecutionError``), its text never goes to the model;
- environment values and headers may be :class:`~agentproto._runtime.redact.Secret`: they are
  masked in every ``repr`` and never logged.

Every call is an ``execute_tool <name>`` span (``gen_ai.tool.*``, ``mcp.server.name``); the
SDK's own ``tools/call`` span is its child and carries the trace context to the server in the
request's ``_meta`` (the SDK's propagation), so a server that traces continues the trace.

Each server runs in a task of its own for its whole life (the SDK's transports hold anyio
task groups, which must be left by the task that entered them), so a tool set may be opened
in one request handler and closed in another (:mod:`agentproto.mcp.acp` does).
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import json
import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final, Self

import anyio

from agentproto._runtime.errors import AgentprotoError
from agentproto._runtime.redact import Secret
from agentproto._runtime.sync_loop import LoopThread
from agentproto._runtime.telemetry import inject, shared
from agentproto.llm.tool_loop import (
    FunctionTool,
    ToolError,
    check_arguments,
    schema_tool,
    tool_name,
)

if TYPE_CHECKING:
    import mcp_types
    from mcp import Client

    from agentproto.aap.agent import ServerTool

__all__ = [
    "DEFAULT_CALL_TIMEOUT",
    "DEFAULT_MAX_RESULT_BYTES",
    "AsyncMCPTools",
    "HttpServer",
    "MCPClientError",
    "MCPTools",
    "ServerParams",
    "StdioServer",
]

log: Final = logging.getLogger("agentproto.mcp.client")
INSTRUMENTATION: Final = "agentproto.mcp"
DEFAULT_CALL_TIMEOUT: Final = 60.0
"""Seconds a tool call may take (``call_timeout``)."""
DEFAULT_CONNECT_TIMEOUT: Final = 30.0
"""Seconds a server may take to start and list its tools (``connect_timeout``)."""
DEFAULT_MAX_RESULT_BYTES: Final = 1 << 20
"""The largest tool result (its JSON or text, in UTF-8) given to a model."""
MAX_TOOLS: Final = 512
"""The most tools one server may list (a longer listing is refused: a model gets them all)."""


class MCPClientError(AgentprotoError):
    """An MCP server could not be started, reached or listed (``server`` is its name)."""

    def __init__(self, message: str, *, server: str) -> None:
        super().__init__(message)
        self.server: str = server


def _masked(values: Mapping[str, str | Secret]) -> dict[str, str]:
    return {k: "***" for k in values}


@dataclass(frozen=True)
class StdioServer:
    """An MCP server this process starts, speaking over its stdin/stdout. ``env`` adds to the
    inherited environment's safe defaults (the SDK passes only ``HOME``, ``PATH``... of ours);
    its values may be :class:`Secret` (masked in ``repr``)."""

    name: str
    command: str
    args: Sequence[str] = ()
    env: Mapping[str, str | Secret] = field(default_factory=dict[str, "str | Secret"])
    cwd: str | None = None

    def __repr__(self) -> str:
        return (
            f"StdioServer(name={self.name!r}, command={self.command!r}, args={list(self.args)!r}, "
            f"env={_masked(self.env)!r}, cwd={self.cwd!r})"
        )


@dataclass(frozen=True)
class HttpServer:
    """An MCP server over Streamable HTTP at ``url``; ``headers`` (an ``Authorization``...)
    may be :class:`Secret` values (masked in ``repr``)."""

    name: str
    url: str
    headers: Mapping[str, str | Secret] = field(default_factory=dict[str, "str | Secret"])

    def __repr__(self) -> str:
        return (
            f"HttpServer(name={self.name!r}, url={self.url!r}, headers={_masked(self.headers)!r})"
        )


ServerParams = StdioServer | HttpServer
"""Where an MCP server is."""


def _reveal(value: str | Secret) -> str:
    return value.reveal() if isinstance(value, Secret) else value


def _client(server: ServerParams, connect_timeout: float) -> Client:
    from mcp import Client, StdioServerParameters

    if isinstance(server, StdioServer):
        params = StdioServerParameters(
            command=server.command,
            args=list(server.args),
            env={k: _reveal(v) for k, v in server.env.items()} or None,
            cwd=server.cwd,
        )
        return Client(params, mode="legacy", cache=None)
    import httpx2
    from mcp.client.streamable_http import streamable_http_client

    http = httpx2.AsyncClient(
        headers={k: _reveal(v) for k, v in server.headers.items()},
        timeout=httpx2.Timeout(connect_timeout, read=None),
    )
    return Client(streamable_http_client(server.url, http_client=http), mode="legacy", cache=None)


class _Connection:
    """One server, alive in a task of its own from :meth:`start` to :meth:`close`."""

    def __init__(self, server: ServerParams, connect_timeout: float) -> None:
        self.server = server
        self.connect_timeout = connect_timeout
        self.client: Client | None = None
        self.tools: list[mcp_types.Tool] = []
        self._ready: asyncio.Future[None] | None = None
        self._closing = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        loop = asyncio.get_running_loop()
        self._ready = loop.create_future()
        self._task = loop.create_task(self._live(), name=f"mcp {self.server.name}")
        try:
            await asyncio.wait_for(asyncio.shield(self._ready), self.connect_timeout)
        except TimeoutError:
            await self.close()
            raise MCPClientError(
                f"MCP server {self.server.name!r} did not start and list its tools within "
                f"{self.connect_timeout} s",
                server=self.server.name,
            ) from None
        except BaseException:
            await self.close()
            raise

    async def _live(self) -> None:
        assert self._ready is not None
        ready = self._ready
        try:
            async with _client(self.server, self.connect_timeout) as client:
                self.tools = await self._list(client)
                self.client = client
                ready.set_result(None)
                await self._closing.wait()
        except Exception as exc:
            if not ready.done():
                ready.set_exception(
                    MCPClientError(
                        f"cannot use MCP server {self.server.name!r}: {type(exc).__name__}",
                        server=self.server.name,
                    )
                )
                log.warning("MCP server %r failed to start", self.server.name, exc_info=True)
            else:
                log.warning("MCP server %r ended: %s", self.server.name, type(exc).__name__)
        finally:
            self.client = None
            if not ready.done():
                ready.set_exception(
                    MCPClientError(
                        f"MCP server {self.server.name!r} ended", server=self.server.name
                    )
                )

    async def _list(self, client: Client) -> list[mcp_types.Tool]:
        tools: list[mcp_types.Tool] = []
        cursor: str | None = None
        while True:
            page = await client.list_tools(cursor=cursor)
            tools.extend(page.tools)
            if len(tools) > MAX_TOOLS:
                raise MCPClientError(
                    f"MCP server {self.server.name!r} lists more than {MAX_TOOLS} tools",
                    server=self.server.name,
                )
            cursor = page.next_cursor
            if not cursor:
                return tools

    async def close(self) -> None:
        self._closing.set()
        task = self._task
        if task is not None and not task.done():
            try:
                await asyncio.wait_for(asyncio.shield(task), 10.0)
            except TimeoutError:
                task.cancel()
                with contextlib.suppress(BaseException):
                    await task
        ready = self._ready
        if ready is not None and ready.done() and not ready.cancelled():
            ready.exception()  # retrieved: a failed start was raised to the caller already


class AsyncMCPTools:
    """The tools of one or more MCP servers (see the module docstring): an async context
    manager; :attr:`tools` once entered. Two servers listing the same tool name raise
    ``ValueError`` unless ``prefix`` is set (then each name starts with its server's).
    ``call_timeout`` / ``connect_timeout`` in seconds; ``max_result_bytes`` bounds a result."""

    def __init__(
        self,
        servers: Sequence[ServerParams],
        *,
        prefix: bool = False,
        call_timeout: float = DEFAULT_CALL_TIMEOUT,
        connect_timeout: float = DEFAULT_CONNECT_TIMEOUT,
        max_result_bytes: int = DEFAULT_MAX_RESULT_BYTES,
    ) -> None:
        names = [s.name for s in servers]
        if len(set(names)) != len(names):
            raise ValueError("two MCP servers share a name")
        self.servers: tuple[ServerParams, ...] = tuple(servers)
        self.prefix: bool = prefix
        self.call_timeout: float = call_timeout
        self.connect_timeout: float = connect_timeout
        self.max_result_bytes: int = max_result_bytes
        self.tools: list[FunctionTool] = []
        """Every server's tools, in the servers' order (filled by :meth:`open`)."""
        self._connections: list[_Connection] = []

    def __repr__(self) -> str:
        return f"<AsyncMCPTools {[s.name for s in self.servers]}: {len(self.tools)} tools>"

    async def open(self) -> None:
        """Start (or reach) every server and list its tools; a server that cannot be used
        raises :class:`MCPClientError` (the others are closed again)."""
        try:
            for server in self.servers:
                connection = _Connection(server, self.connect_timeout)
                self._connections.append(connection)
                await connection.start()
            self.tools = self._build()
        except BaseException:
            await self.aclose()
            raise

    async def aclose(self) -> None:
        """Close every server (a stdio server's process ends)."""
        connections, self._connections = self._connections, []
        self.tools = []
        for connection in reversed(connections):
            await connection.close()

    async def __aenter__(self) -> Self:
        await self.open()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    def _build(self) -> list[FunctionTool]:
        built: list[FunctionTool] = []
        seen: dict[str, str] = {}
        for connection in self._connections:
            server = connection.server.name
            for tool in connection.tools:
                name = tool_name(f"{server}_", tool.name) if self.prefix else tool.name
                if name in seen:
                    raise ValueError(
                        f"MCP servers {seen[name]!r} and {server!r} both have a tool {name!r}: "
                        "pass prefix=True"
                    )
                seen[name] = server
                schema = dict(tool.input_schema or {"type": "object"})
                built.append(
                    schema_tool(
                        name,
                        " ".join((tool.description or tool.title or tool.name).split()),
                        schema,
                        self._caller(connection, tool.name, name, schema),
                    )
                )
        return built

    def _caller(
        self, connection: _Connection, remote: str, name: str, schema: dict[str, Any]
    ) -> Callable[..., Any]:
        async def call(**arguments: Any) -> Any:
            return await self.call(connection, remote, name, schema, arguments)

        call.__name__ = name
        return call

    async def call(
        self,
        connection: _Connection,
        remote: str,
        name: str,
        schema: Mapping[str, Any],
        arguments: Mapping[str, Any],
    ) -> Any:
        """One call of tool ``remote`` of ``connection``'s server (see the module docstring)."""
        problem = check_arguments(schema, arguments)
        if problem is not None:
            raise ToolError(f"{name}: {problem}")
        server = connection.server.name
        with shared(INSTRUMENTATION).span(
            f"execute_tool {name}",
            {
                "gen_ai.operation.name": "execute_tool",
                "gen_ai.tool.name": name,
                "gen_ai.tool.type": "extension",
                "mcp.server.name": server,
            },
        ) as span:
            client = connection.client
            if client is None:
                raise MCPClientError(f"MCP server {server!r} is not running", server=server)
            meta: dict[str, Any] = {}
            inject(meta)  # the SDK injects too; this keeps ours when its own span is a no-op
            try:
                with anyio.fail_after(self.call_timeout):
                    result = await client.call_tool(
                        remote,
                        dict(arguments),
                        read_timeout_seconds=self.call_timeout,
                        meta=meta or None,  # type: ignore[arg-type]
                    )
            except TimeoutError:
                span.set("error.type", "timeout")
                raise ToolError(f"{name} timed out after {self.call_timeout} s") from None
            except Exception as exc:
                raise MCPClientError(
                    f"MCP server {server!r}: the call of {remote!r} failed ({type(exc).__name__})",
                    server=server,
                ) from exc
            value = self._value(name, result)
            if result.is_error:
                span.set("error.type", "tool_error")
                raise ToolError(value if isinstance(value, str) else json.dumps(value))
            return value

    def _value(self, name: str, result: mcp_types.CallToolResult) -> Any:
        """A result as the model gets it: structured content as JSON, text as text, other
        blocks as their JSON; over ``max_result_bytes``: a ToolError."""
        import mcp_types as types

        value: Any
        if result.structured_content is not None and not result.is_error:
            value = result.structured_content
            size = len(json.dumps(value, ensure_ascii=False).encode())
        elif all(isinstance(block, types.TextContent) for block in result.content):
            value = "\n".join(
                block.text for block in result.content if isinstance(block, types.TextContent)
            )
            size = len(value.encode())
        else:
            value = [
                block.model_dump(mode="json", by_alias=True, exclude_none=True)
                for block in result.content
            ]
            size = len(json.dumps(value, ensure_ascii=False).encode())
        if size > self.max_result_bytes:
            raise ToolError(
                f"{name} returned {size} bytes, more than the {self.max_result_bytes} a result "
                "may have"
            )
        return value

    def server_tools(self) -> list[ServerTool]:
        """The tools as AAP server tools (for :class:`~agentproto.aap.agent.Agent` /
        ``LLMAgent`` ``tools=``), unexposed: the agent's own, run inline. The servers must
        live on the AAP server's event loop (open this in its lifespan); :class:`MCPTools`'
        tools may be used from any loop."""
        return _server_tools(self.tools)


async def _in_context(
    context: contextvars.Context, function: Callable[..., Any], arguments: dict[str, Any]
) -> Any:
    return await asyncio.get_running_loop().create_task(function(**arguments), context=context)


class MCPTools:
    """:class:`AsyncMCPTools` for blocking code: the servers live on a private event loop
    thread, and each tool's function blocks until its call is answered (for
    ``LLMClient.run_tools``). A context manager; ``close()`` ends the servers and the
    thread."""

    def __init__(
        self,
        servers: Sequence[ServerParams],
        *,
        prefix: bool = False,
        call_timeout: float = DEFAULT_CALL_TIMEOUT,
        connect_timeout: float = DEFAULT_CONNECT_TIMEOUT,
        max_result_bytes: int = DEFAULT_MAX_RESULT_BYTES,
    ) -> None:
        self._async = AsyncMCPTools(
            servers,
            prefix=prefix,
            call_timeout=call_timeout,
            connect_timeout=connect_timeout,
            max_result_bytes=max_result_bytes,
        )
        self._loop: LoopThread | None = None
        self.tools: list[FunctionTool] = []

    def __repr__(self) -> str:
        return f"<MCPTools {[s.name for s in self._async.servers]}: {len(self.tools)} tools>"

    def open(self) -> None:
        loop = self._loop = LoopThread("agentproto-mcp")
        try:
            loop.run(self._async.open())
        except BaseException:
            self.close()
            raise
        self.tools = [self._blocking(tool) for tool in self._async.tools]

    def _blocking(self, tool: FunctionTool) -> FunctionTool:
        loop = self._loop
        assert loop is not None
        function = tool.function

        def call(**arguments: Any) -> Any:
            # the call runs in the caller's context (its current span is the call's parent)
            return loop.run(_in_context(contextvars.copy_context(), function, arguments))

        call.__name__ = tool.name
        return schema_tool(tool.name, tool.description, tool.parameters, call)

    def server_tools(self) -> list[ServerTool]:
        """The tools as AAP server tools (see :meth:`AsyncMCPTools.server_tools`); each call
        runs on this object's loop thread, so any AAP server may use them."""
        return _server_tools(self.tools)

    def close(self) -> None:
        loop, self._loop = self._loop, None
        self.tools = []
        if loop is None:
            return
        try:
            if loop.running:
                loop.run(self._async.aclose(), 15.0)
        finally:
            loop.stop()

    def __enter__(self) -> Self:
        self.open()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _server_tools(tools: Sequence[FunctionTool]) -> list[ServerTool]:
    from agentproto.aap.agent import ServerTool

    return [
        ServerTool(
            tool.name,
            tool.description,
            tool.parameters,
            tool.function,
            exposed=False,
            _bound=tool,  # its schema checks the arguments, its results go out as JSON
        )
        for tool in tools
    ]
