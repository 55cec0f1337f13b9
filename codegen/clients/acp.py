"""ACP: typed connections for both sides, generated from the schema's method table.

``acp/connection.py`` is rendered from ``templates/acp/connection.py.j2``: the handler
interfaces an agent (``Agent``) and an editor (``Client`` / ``SyncClient``) implement, the typed
connections each side calls the other with (``AgentConnection``, ``ClientConnection``,
``SyncAgentConnection``), and the routing tables. Adding a method to the schema adds it to both
sides on the next build. The JSON-RPC machinery is the runtime's ``jsonrpc.py``.
"""

from __future__ import annotations

from dataclasses import dataclass

import jinja2

from codegen.ir import Operation, Protocol

EXPORTS = {
    "Agent": "connection",
    "AgentConnection": "connection",
    "Client": "connection",
    "ClientConnection": "connection",
    "SyncAgentConnection": "connection",
    "SyncClient": "connection",
    "UnstableMethodError": "connection",
    "connect_agent": "connection",
    "serve_agent": "connection",
    "spawn_agent": "connection",
}


@dataclass(frozen=True)
class Method:
    op: Operation
    module: str  # the models module holding its types

    def qualified(self, name: str) -> str:
        """How the connection module names a type (unstable ones through their module)."""
        return f"_unstable.{name}" if self.op.unstable else name

    @property
    def request(self) -> str:
        assert self.op.request is not None
        return self.qualified(self.op.request)

    @property
    def result(self) -> str:
        if self.op.notification or self.op.response is None:
            return "None"
        return self.qualified(self.op.response)


def render(protocol: Protocol, env: jinja2.Environment) -> dict[str, str]:
    stable = "agentproto.acp.models"
    unstable = "agentproto.acp.unstable.models"
    methods = [
        Method(op, unstable if op.unstable else stable)
        for op in protocol.operations
        if op.rpc is not None and op.direction != "both"
    ]
    agent_side = [m for m in methods if m.op.direction == "client_to_server"]
    client_side = [m for m in methods if m.op.direction == "server_to_client"]
    imports: set[str] = set()
    for m in methods:
        if not m.op.unstable:
            imports.update(n for n in (m.op.request, m.op.response) if n)
    return {
        "acp/connection.py": env.get_template("acp/connection.py.j2").render(
            protocol=protocol,
            agent_side=agent_side,
            client_side=client_side,
            imports=sorted(imports),
        )
    }
