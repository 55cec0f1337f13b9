"""The MCP server: a :class:`~agentproto.mcp.tools.Toolbox` served on the official ``mcp``
Python SDK, over stdio or Streamable HTTP.

Each tool's result goes back as structured content (a JSON object; any other JSON value is
wrapped as ``{"result": value}``) and as the same JSON in a text block, for clients that read
only text; a failure is a result with ``isError`` and the error's text. Over HTTP, the endpoint
can require a bearer token (:func:`http_app`'s ``token``), compared in constant time.
"""

from __future__ import annotations

import hmac
import json
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any, Final, cast

import mcp_types as types
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server
from mcp.server.transport_security import TransportSecuritySettings

from agentproto._runtime.guard import Guard, GuardPolicy, jsonrpc_error
from agentproto._runtime.limits import DEFAULT_LIMITS, Limits
from agentproto._runtime.redact import Secret
from agentproto.mcp.tools import Toolbox, ToolOutcome, ToolSpec

NAME: Final = "agentproto"

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


def _tool(spec: ToolSpec) -> types.Tool:
    return types.Tool(
        name=spec.name,
        title=spec.title,
        description=spec.description,
        input_schema=dict(spec.input_schema),
        annotations=types.ToolAnnotations(
            read_only_hint=spec.read_only,
            destructive_hint=spec.destructive,
            open_world_hint=True,
        ),
    )


def _result(outcome: ToolOutcome) -> types.CallToolResult:
    if outcome.error is not None:
        return types.CallToolResult(content=[types.TextContent(text=outcome.error)], is_error=True)
    value = outcome.value
    structured: dict[str, Any] = (
        cast("dict[str, Any]", value) if isinstance(value, dict) else {"result": value}
    )
    text = json.dumps(value, ensure_ascii=False)
    return types.CallToolResult(
        content=[types.TextContent(text=text)], structured_content=structured
    )


def build_server(toolbox: Toolbox, *, name: str = NAME, version: str = "") -> Server[Any]:
    """An MCP server (``mcp.server.lowlevel.Server``) listing and calling ``toolbox``'s
    tools."""
    listed = [_tool(spec) for spec in toolbox.tools()]

    async def list_tools(
        ctx: Any, params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return types.ListToolsResult(tools=listed)

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        return _result(await toolbox.call(params.name, params.arguments or {}))

    return Server(name, version=version, on_list_tools=list_tools, on_call_tool=call_tool)


async def serve_stdio(toolbox: Toolbox, *, name: str = NAME) -> None:
    """Serve ``toolbox`` on this process's stdin and stdout until the client closes them."""
    server = build_server(toolbox, name=name)
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


MAX_BODY_BYTES: Final = 4 * 1024 * 1024
"""The largest request body (the SDK's own limit on a message)."""


def http_app(
    toolbox: Toolbox,
    *,
    path: str = "/mcp",
    token: str | Secret | None = None,
    host: str = "127.0.0.1",
    allowed_hosts: list[str] | None = None,
    allowed_origins: list[str] | None = None,
    limits: Limits | None = None,
    name: str = NAME,
) -> ASGIApp:
    """An ASGI app serving ``toolbox`` over Streamable HTTP at ``path`` (run it with any ASGI
    server; its lifespan runs the sessions). With ``token``, every request must carry
    ``Authorization: Bearer <token>`` (else 401). ``host`` is where it listens: on loopback,
    requests must name a loopback ``Host`` (DNS-rebinding protection); ``allowed_hosts`` lists
    the ``host:port`` values to accept otherwise. Every request passes
    :class:`~agentproto._runtime.guard.Guard` first, before the token: Host (``allowed_hosts``
    by name, any port), Origin (``allowed_origins``; none by default), JSON bodies only, at
    most :data:`MAX_BODY_BYTES`, arriving within ``limits.request_body_deadline`` and nested
    at most ``limits.max_json_depth`` (a JSON-RPC -32700 otherwise)."""
    server = build_server(toolbox, name=name)
    security = None
    if allowed_hosts is not None:
        security = TransportSecuritySettings(
            enable_dns_rebinding_protection=True,
            allowed_hosts=allowed_hosts,
            allowed_origins=[f"http://{h}" for h in allowed_hosts]
            + [f"https://{h}" for h in allowed_hosts],
        )
    app: ASGIApp = server.streamable_http_app(
        streamable_http_path=path, host=host, transport_security=security
    )
    if token is not None:
        app = _bearer_guard(app, Secret(token))
    names = (
        None if allowed_hosts is None else tuple(h.rpartition(":")[0] or h for h in allowed_hosts)
    )
    policy = GuardPolicy(
        allowed_hosts=names,
        allowed_origins=tuple(allowed_origins or ()),
        max_body_bytes=MAX_BODY_BYTES,
        limits=limits or DEFAULT_LIMITS,
        error_body=jsonrpc_error,
        read_first=True,  # the SDK reads it whole, and logs a body cut short as an error
    )
    return Guard(app, policy=policy)


def _bearer_guard(app: ASGIApp, token: Secret) -> ASGIApp:
    expected = f"Bearer {token.reveal()}".encode()

    async def guarded(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            given = next(
                (v for k, v in scope.get("headers", []) if bytes(k).lower() == b"authorization"),
                b"",
            )
            if not hmac.compare_digest(bytes(given), expected):
                await send(
                    {
                        "type": "http.response.start",
                        "status": 401,
                        "headers": [
                            (b"content-type", b"application/json"),
                            (b"www-authenticate", b"Bearer"),
                        ],
                    }
                )
                await send({"type": "http.response.body", "body": b'{"error":"unauthorized"}'})
                return
        await app(scope, receive, send)

    return guarded
