"""The renderer of ``http`` and ``http+sse`` protocols (REST, with SSE streams): from the spec
table alone it writes, into the protocol's package,

- ``client.py`` (``templates/http/client.py.j2``): ``<Prefix>Client`` and
  ``Async<Prefix>Client``, every fixed-path operation, sync and async, plain and raw-response,
  keyword signatures from the request types, pagination, typed SSE streams by mode;
- ``routes.py`` (``templates/http/routes.py.j2``): the same operations as a route table and a
  typed handler base (``<Prefix>Operations``) for servers
  (``agentproto._runtime.http_server.route_app`` serves them);
- ``params.py``: the dict forms of the models, for the keyword calls.

What a protocol adds beyond its wire (AAP's tool-call session, server kit and stores) is
hand-written in ``templates/<package>/`` and shipped beside (:mod:`codegen.clients`).
"""

from __future__ import annotations

from collections.abc import Mapping

import jinja2

from codegen.clients.http_ops import http_ops, keyword_forms, model_names
from codegen.clients.http_routes import error_statuses, route_rows
from codegen.clients.params import render_params
from codegen.clients.signatures import model_names as signature_names
from codegen.ir import Protocol


def exports(protocol: Protocol) -> dict[str, str]:
    """What the protocol's package re-exports from the modules rendered here."""
    prefix = protocol.prefix
    return {
        f"{prefix}Client": "client",
        f"Async{prefix}Client": "client",
        f"{prefix}Operations": "routes",
        # runtime types a user of the client meets (options, stream items)
        "RetryPolicy": "agentproto._runtime.http",
        "Secret": "agentproto._runtime.redact",
        "UnknownEvent": "agentproto._runtime.streaming",
        "AsyncEventStream": "agentproto._runtime.streaming",
        "EventStream": "agentproto._runtime.streaming",
        # what a server's operation handlers take and may answer with
        "RequestContext": "agentproto._runtime.routes",
        "EventSource": "agentproto._runtime.routes",
        "OperationError": "agentproto._runtime.routes",
        "NotImplementedOperation": "agentproto._runtime.routes",
    }


def render(
    protocol: Protocol, env: jinja2.Environment, models: Mapping[str, str]
) -> dict[str, str]:
    unit = protocol.models[0]
    package = protocol.package
    models_module = f"agentproto.{protocol.module}.models"
    shown = f"schemas/{protocol.id}/spec.yaml"
    ops = http_ops(protocol, unit.schema, shown)
    text = models[unit.module]
    forms = keyword_forms(ops, text, shown)
    params = [p for variants_ in forms.values() for v in variants_ for p in v.params]
    names = sorted(
        set(model_names(ops))
        | signature_names(params, text)
        | {v.model for f in forms.values() for v in f}
    )
    return {
        f"{package}/client.py": env.get_template("http/client.py.j2").render(
            protocol=protocol,
            ops=ops,
            forms=forms,
            names=names,
            prefix=protocol.prefix,
            models_module=models_module,
            params_module=f"agentproto.{protocol.module}",
        ),
        f"{package}/routes.py": env.get_template("http/routes.py.j2").render(
            protocol=protocol,
            rows=route_rows(protocol, ops, unit.schema, shown),
            errors=error_statuses(protocol, shown),
            names=sorted(set(model_names(ops))),
            prefix=protocol.prefix,
            models_module=models_module,
        ),
        f"{package}/params.py": render_params(
            text, models_module, f"Dict forms of {models_module}"
        ),
    }
