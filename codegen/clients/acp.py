"""ACP: typed connections for both sides, generated from the schema's method table, for each
version of the protocol (v1 in ``agentproto.acp``; the draft v2, an edition of the spec table,
in ``agentproto.acp.v2``).

``<package>/connection.py`` is rendered from ``templates/acp/connection.py.j2``: the handler
interfaces an agent (``Agent``) and an editor (``Client`` / ``SyncClient``) implement, the typed
connections each side calls the other with (``AgentConnection``, ``ClientConnection``,
``SyncAgentConnection``), and the route tables, with the capability each call needs (the spec
table's ``capabilities``). Adding a method to the schema adds it to both sides on the next
build. A method either side may send (``x-side`` ``both`` or ``proxy``: ``mcp/message``, the
proxy-chain methods) is on both. The machinery every version shares is hand-written
(``templates/acp/*.py``, shipped into ``agentproto/acp/``: ``core``, the version router, the
helpers for agent and editor authors); the JSON-RPC runtime is ``jsonrpc.py``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import jinja2

from codegen import parsed
from codegen.clients.params import SUFFIX, render_params
from codegen.clients.signatures import (
    Variant,
    model_names,
    outside_names,
    parse_models,
    variants,
)
from codegen.errors import BuildError
from codegen.ir import Operation, Protocol
from codegen.package.unasync import ship

# The errors every version's connection module re-exports, and what core defines.
_ERRORS = (
    "AuthRequired",
    "CapabilityError",
    "ConnectionClosed",
    "InternalError",
    "InvalidParams",
    "InvalidRequest",
    "MethodNotFound",
    "ParseError",
    "ProtocolError",
    "RequestCancelled",
    "ResourceNotFound",
    "RpcError",
    "UnhandledMessage",
    "UnstableMethodError",
)
_CONNECTION = (
    "Agent",
    "AgentConnection",
    "Client",
    "ClientConnection",
    "PROTOCOL_VERSION",
    "SyncAgentConnection",
    "SyncClient",
    "connect_agent",
    "serve_agent",
    "spawn_agent",
)
EDITION_EXPORTS = {
    **dict.fromkeys((*_CONNECTION, *_ERRORS), "connection"),
    # what connect_agent's writer must offer (write, drain, close)
    "Writer": "agentproto._runtime.jsonrpc",
}
"""What ``agentproto.acp.<edition>`` re-exports (its connection module's public names, and the
writer protocol its connect functions take)."""
EXPORTS = {
    **EDITION_EXPORTS,
    "VersionError": "core",
    "Route": "core",
    "Edition": "core",
    # the version negotiation (editor) and router (agent)
    "Negotiated": "versions",
    "Offer": "versions",
    "UnsupportedProtocolVersion": "versions",
    "connect_negotiated": "versions",
    "negotiate_agent": "versions",
    "negotiate_agent_sync": "versions",
    "serve_versions": "versions",
    # helpers for agent and editor authors (v1; content and update builders: builders.*)
    "SessionAccumulator": "accumulator",
    "SessionSnapshot": "accumulator",
    "ToolCallView": "accumulator",
    "ToolCallTracker": "tool_calls",
    "ToolCallError": "tool_calls",
    "PermissionBroker": "permissions",
    "PermissionDecision": "permissions",
    "default_permission_options": "permissions",
    "ClientSession": "client_session",
    "PromptReply": "client_session",
    "SessionClient": "client_session",
    "TerminalHandle": "terminal",
    "TerminalResult": "terminal",
    # over the network (Streamable HTTP, WebSocket) and the conformance checker
    "AgentApp": "remote_server",
    "BridgeApp": "bridge",
    "serve_bridge": "bridge",
    "RemoteAgentConnection": "remote",
    "RemoteError": "remote",
    "ResumeError": "remote",
    "connect_remote_agent": "remote",
    "connect_remote_agent_sync": "remote",
    "CheckOptions": "check",
    "check_agent": "check",
    "check_url": "check",
}
"""What ``agentproto.acp`` re-exports lazily (public name -> its module in the package)."""

# The messages every session sends, by operation name: their validators are built early.
_HOT_OPERATIONS = ("initialize", "new_session", "prompt", "session_update", "cancel")


@dataclass(frozen=True)
class Method:
    op: Operation
    module: str  # the models module holding its types
    variants: tuple[Variant, ...] = ()  # the keyword forms of a call (one per union member)
    capability: str | None = None  # what the handling side must advertise
    both_kinds: bool = False  # its RPC method is both a request and a notification
    any_result: bool = False  # the response type is an alias of ``Any`` (no cast needed)

    @property
    def accepts(self) -> str:
        """What a call or a handler gets: the request model, or its union's members."""
        if len(self.variants) > 1 or (self.variants and self.variants[0].model != self.op.request):
            return " | ".join(self.qualified(v.model) for v in self.variants)
        return self.request

    def qualified(self, name: str) -> str:
        """How the connection module names a type (unstable ones through their module)."""
        return f"_unstable.{name}" if self.op.unstable else name

    def as_dict(self, name: str) -> str:
        """How the connection module names a type's dict form (:mod:`codegen.clients.params`)."""
        module = "_unstable_params" if self.op.unstable else "_params"
        return f"{module}.{name}{SUFFIX}"

    @property
    def request(self) -> str:
        assert self.op.request is not None
        return self.qualified(self.op.request)

    @property
    def result(self) -> str:
        if self.op.notification or self.op.response is None:
            return "None"
        return self.qualified(self.op.response)


@dataclass(frozen=True)
class EditionInfo:
    """Where a version's modules are, and what its connections read from the spec table."""

    models: str  # agentproto.acp.models
    params: str  # the package holding params.py: agentproto.acp
    unstable: str  # agentproto.acp.unstable
    hot: tuple[str, ...]
    handshake: str
    request_capabilities: str
    response_capabilities: str


def _sides(op: Operation) -> tuple[str, ...]:
    """Which handler classes get the method: the agent's, the client's, or both."""
    if op.group in ("both", "proxy"):
        return ("agent", "client")
    if op.direction == "client_to_server":
        return ("agent",)
    if op.direction == "server_to_client":
        return ("client",)
    return ()  # the runtime's own ($/cancel_request)


def render(
    protocol: Protocol, env: jinja2.Environment, models: Mapping[str, str]
) -> dict[str, str]:
    package = protocol.package  # acp, or acp/v2
    dotted = f"agentproto.{protocol.module}"
    stable, unstable = f"{dotted}.models", f"{dotted}.unstable.models"
    where = f"schemas/{protocol.id}"
    capabilities = dict(protocol.capabilities.methods) if protocol.capabilities else {}
    kinds: dict[tuple[str | None, str | None], int] = {}
    for op in protocol.operations:
        kinds[op.group, op.rpc] = kinds.get((op.group, op.rpc), 0) + 1
    imports: set[str] = set()
    outside: dict[str, set[str]] = {}
    agent_side: list[Method] = []
    client_side: list[Method] = []
    for op in protocol.operations:
        sides = _sides(op)
        if op.rpc is None or op.request is None or not sides:
            continue
        module = unstable if op.unstable else stable
        text = models[module.removeprefix("agentproto.").replace(".", "/") + ".py"]
        method = Method(op, module)
        forms = variants(text, op.request, method.qualified, where, method.as_dict)
        response = parse_models(text).aliases.get(op.response or "")
        method = Method(
            op,
            module,
            tuple(forms),
            capability=capabilities.get(op.rpc),
            both_kinds=kinds[op.group, op.rpc] > 1,
            any_result=response is not None and parsed.unparse(response) == "Any",
        )
        if "agent" in sides:
            agent_side.append(method)
        if "client" in sides:
            client_side.append(method)
        params = [p for v in forms for p in v.params]
        for where_from, names in outside_names(params).items():
            outside.setdefault(where_from, set()).update(names)
        if not op.unstable:
            imports.update(n for n in (op.request, op.response) if n)
            imports.update(v.model for v in forms)
            imports.update(model_names(params, text))
    files = {
        path.replace("models.py", "params.py"): render_params(
            models[path], module, f"Dict forms of {module}"
        )
        for path, module in (
            (f"{package}/models.py", stable),
            (f"{package}/unstable/models.py", unstable),
        )
    }
    edition = _edition(protocol, dotted, stable)
    files[f"{package}/connection.py"] = env.get_template("acp/connection.py.j2").render(
        protocol=protocol,
        agent_side=agent_side,
        client_side=client_side,
        imports=sorted(imports),
        outside={k: sorted(v) for k, v in sorted(outside.items())},
        edition=edition,
    )
    if protocol.edition is None:  # the machinery and helpers, shipped once, for every version
        helpers = Path(str(env.globals["template_root"])) / "acp"
        for path in sorted(helpers.glob("*.py")):
            files[f"{package}/{path.name}"] = ship(path)
    return files


def _edition(protocol: Protocol, dotted: str, stable: str) -> EditionInfo:
    shown = f"schemas/{protocol.id}"
    capabilities = protocol.capabilities
    if capabilities is None:
        raise BuildError.single(shown, "/capabilities", "ACP's spec table needs `capabilities`")
    by_name = {op.name: op for op in protocol.operations if not op.unstable}
    hot: list[str] = []
    for name in _HOT_OPERATIONS:
        op = by_name.get(name)
        if op is None:
            raise BuildError.single(shown, "/operations", f"no stable operation named {name!r}")
        hot.extend(n for n in (op.request, op.response) if n is not None)
    return EditionInfo(
        models=stable,
        params=dotted,
        unstable=f"{dotted}.unstable",
        hot=tuple(hot),
        handshake=capabilities.handshake,
        request_capabilities=capabilities.request_field,
        response_capabilities=capabilities.response_field,
    )
