"""The renderer of ``jsonrpc-http`` protocols: JSON-RPC 2.0 over HTTP (one POST per call,
answered with JSON or an SSE stream of JSON-RPC messages), with plain HTTP operations beside.

From the spec table alone it writes, into the protocol's package:

- ``client.py`` (``templates/jsonrpc/client.py.j2``): ``<Prefix>Client`` and
  ``Async<Prefix>Client``, one typed method per operation (params as a model or keywords,
  typed results, typed event streams), on the runtime's ``AsyncRpcHTTP`` and ``AsyncHTTP``;
- ``server.py`` (``templates/jsonrpc/server.py.j2``): ``<Prefix>Handler``, one typed method per
  operation, and ``<prefix>_app`` serving it (``agentproto._runtime.jsonrpc_server``);
- ``errors.py`` (``templates/jsonrpc/errors.py.j2``): the table's error codes as exceptions;
- ``conformance.py`` (``templates/jsonrpc/conformance.py.j2``): a server checked against the
  table's rules and JSON-RPC's (``python -m agentproto.<package>.conformance URL``);
- ``params.py``: the dict forms of the models, for the keyword calls.

Nothing here knows a protocol: a new JSON-RPC protocol is a schema, a SOURCE and a table.
"""

from __future__ import annotations

from collections.abc import Mapping

import jinja2

from codegen.clients.http_ops import http_ops, keyword_forms
from codegen.clients.http_ops import model_names as http_model_names
from codegen.clients.http_routes import route_rows
from codegen.clients.params import render_params
from codegen.clients.rpc_ops import rpc_ops
from codegen.clients.signatures import model_names as signature_names
from codegen.errors import BuildError
from codegen.ir import ErrorDef, Protocol

_STANDARD = (-32700, -32600, -32601, -32602, -32603)


def exports(protocol: Protocol) -> dict[str, str]:
    """What the protocol's package re-exports from the modules rendered here."""
    prefix = protocol.prefix
    found = {
        f"{prefix}Client": "client",
        f"Async{prefix}Client": "client",
        f"{prefix}Handler": "server",
        f"{prefix.lower()}_app": "server",
        f"serve_{prefix.lower()}": "server",
        "Limits": "agentproto._runtime.limits",
        "GuardPolicy": "agentproto._runtime.guard",
        "Refusal": "agentproto._runtime.guard",  # what GuardPolicy.error_body takes
        "ERRORS": "errors",
        "RpcError": "errors",
        # runtime types a user of the client or server meets
        "RetryPolicy": "agentproto._runtime.http",
        "Secret": "agentproto._runtime.redact",
        "UnknownEvent": "agentproto._runtime.streaming",
        "AsyncEventStream": "agentproto._runtime.streaming",
        "EventStream": "agentproto._runtime.streaming",
        "RequestContext": "agentproto._runtime.routes",
        "RpcOptions": "agentproto._runtime.jsonrpc_server",
        "RouteOptions": "agentproto._runtime.http_server",  # RpcOptions.routes
    }
    if protocol.carriers:
        found[f"Async{prefix}Connection"] = "client"
        found[f"{prefix}Connection"] = "client"
    if "jsonrpc-websocket" in protocol.carriers:
        found[f"connect_{prefix.lower()}"] = "client"
        found[f"connect_{prefix.lower()}_sync"] = "client"
    if "jsonrpc-stdio" in protocol.carriers:
        found[f"spawn_{prefix.lower()}"] = "client"
        found[f"spawn_{prefix.lower()}_sync"] = "client"
        found[f"serve_{prefix.lower()}_stdio"] = "server"
    for error in _own_errors(protocol):
        found[error.exception] = "errors"
    return found


def _own_errors(protocol: Protocol) -> list[ErrorDef]:
    return [e for e in protocol.errors if isinstance(e.code, int) and e.code not in _STANDARD]


def render(
    protocol: Protocol, env: jinja2.Environment, models: Mapping[str, str]
) -> dict[str, str]:
    unit = protocol.models[0]
    package = protocol.package
    shown = f"schemas/{protocol.id}/spec.yaml"
    models_module = f"agentproto.{protocol.module}.models"
    text = models[unit.module]
    rpc = rpc_ops(protocol, text, f"schemas/{protocol.id}/{unit.schema_file.name}")
    callers = [r for r in rpc if r.op.direction in ("client_to_server", "both")]
    ops = http_ops(protocol, unit.schema, shown)
    forms = {**keyword_forms(ops, text, shown), **{r.op.name: list(r.forms) for r in rpc}}
    params = [p for r in rpc for f in r.forms for p in f.params] + [
        p for fs in keyword_forms(ops, text, shown).values() for f in fs for p in f.params
    ]
    names = sorted(
        set(http_model_names(ops))
        | signature_names(params, text)
        | {n for r in rpc for n in r.names}
        | {v.model for fs in forms.values() for v in fs}
    )
    endpoint = str(protocol.transport.get("endpoint", "/"))
    errors = _own_errors(protocol)
    standard = [e for e in protocol.errors if e.code in _STANDARD]
    statuses = {e.name: e.http_status[0] for e in protocol.errors if e.http_status}
    if any(r.h.op.errors for r in route_rows(protocol, ops, unit.schema, shown)) and not statuses:
        raise BuildError.single(shown, "/errors", "HTTP operations' errors need an http_status")
    context = {
        "protocol": protocol,
        "carriers": protocol.carriers,
        "prefix": protocol.prefix,
        "endpoint": endpoint,
        "models_module": models_module,
        "params_module": f"agentproto.{protocol.module}",
        "errors_module": f"agentproto.{protocol.module}.errors",
    }
    return {
        f"{package}/client.py": env.get_template("jsonrpc/client.py.j2").render(
            **context, rpc=callers, ops=ops, forms=forms, names=names
        ),
        f"{package}/server.py": env.get_template("jsonrpc/server.py.j2").render(
            **context,
            rpc=callers,
            rows=route_rows(protocol, ops, unit.schema, shown),
            errors=statuses,
            names=sorted({n for r in callers for n in r.names} | set(http_model_names(ops))),
        ),
        f"{package}/conformance.py": env.get_template("jsonrpc/conformance.py.j2").render(
            protocol=protocol
        ),
        f"{package}/errors.py": env.get_template("jsonrpc/errors.py.j2").render(
            protocol=protocol, errors=errors, standard=standard
        ),
        f"{package}/params.py": render_params(
            text, models_module, f"Dict forms of {models_module}"
        ),
    }
