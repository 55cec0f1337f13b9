"""ACP: typed connections for both sides, generated from the schema's method table.

``acp/connection.py`` is rendered from ``templates/acp/connection.py.j2``: the handler
interfaces an agent (``Agent``) and an editor (``Client`` / ``SyncClient``) implement, the typed
connections each side calls the other with (``AgentConnection``, ``ClientConnection``,
``SyncAgentConnection``), and the routing tables. Adding a method to the schema adds it to both
sides on the next build. The JSON-RPC machinery is the runtime's ``jsonrpc.py``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import jinja2

from codegen.clients.params import SUFFIX, render_params
from codegen.clients.signatures import Variant, model_names, outside_names, variants
from codegen.ir import Operation, Protocol

EXPORTS = {
    "Agent": "connection",
    "AgentConnection": "connection",
    "Client": "connection",
    "ClientConnection": "connection",
    "SyncAgentConnection": "connection",
    "SyncClient": "connection",
    "UnstableMethodError": "connection",
    # the runtime's errors, re-exported by the connection module
    "AuthRequired": "connection",
    "ConnectionClosed": "connection",
    "InternalError": "connection",
    "InvalidParams": "connection",
    "InvalidRequest": "connection",
    "MethodNotFound": "connection",
    "ParseError": "connection",
    "ProtocolError": "connection",
    "RequestCancelled": "connection",
    "ResourceNotFound": "connection",
    "RpcError": "connection",
    "connect_agent": "connection",
    "serve_agent": "connection",
    "spawn_agent": "connection",
}


@dataclass(frozen=True)
class Method:
    op: Operation
    module: str  # the models module holding its types
    variants: tuple[Variant, ...] = ()  # the keyword forms of a call (one per union member)

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


def render(
    protocol: Protocol, env: jinja2.Environment, models: Mapping[str, str]
) -> dict[str, str]:
    stable = "agentproto.acp.models"
    unstable = "agentproto.acp.unstable.models"
    where = f"schemas/{protocol.id}"
    imports: set[str] = set()
    outside: dict[str, set[str]] = {}
    methods = []
    for op in protocol.operations:
        if op.rpc is None or op.direction == "both" or op.request is None:
            continue
        module = unstable if op.unstable else stable
        text = models[module.removeprefix("agentproto.").replace(".", "/") + ".py"]
        method = Method(op, module)
        forms = variants(text, op.request, method.qualified, where, method.as_dict)
        method = Method(op, module, tuple(forms))
        methods.append(method)
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
            ("acp/models.py", stable),
            ("acp/unstable/models.py", unstable),
        )
    }
    agent_side = [m for m in methods if m.op.direction == "client_to_server"]
    client_side = [m for m in methods if m.op.direction == "server_to_client"]
    files["acp/connection.py"] = env.get_template("acp/connection.py.j2").render(
        protocol=protocol,
        agent_side=agent_side,
        client_side=client_side,
        imports=sorted(imports),
        outside={k: sorted(v) for k, v in sorted(outside.items())},
    )
    return files
