"""AAP: the generated HTTP client and server routes, plus AAP's hand-written modules.

``aap/client.py`` is rendered from ``templates/http/client.py.j2`` (every endpoint of the spec
table, sync and async) and ``aap/routes.py`` from ``templates/http/routes.py.j2`` (the same
endpoints as a route table and a typed handler base for servers); ``templates/aap/*.py``
(folding turn events, the tool-call session helper, the server kit, its stores, agents and
conformance kit) are shipped as they are.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import jinja2

from codegen.clients.http_ops import http_ops, keyword_forms, model_names
from codegen.clients.http_routes import error_statuses, route_rows
from codegen.clients.params import render_params
from codegen.clients.signatures import model_names as signature_names
from codegen.ir import Protocol
from codegen.package.unasync import ship

EXPORTS = {
    "AAPClient": "client",
    "AsyncAAPClient": "client",
    "AsyncSession": "session",
    "Session": "session",
    "ClientTool": "session",
    "ToolDecision": "session",
    "CapabilityError": "session",
    "TurnResult": "turns",
    "TurnEvent": "turns",
    "IncompleteTurnError": "turns",
    "fold_events": "turns",
    "afold_events": "turns",
    # runtime types a user of the client meets (options, stream items)
    "RetryPolicy": "agentproto._runtime.http",
    "Secret": "agentproto._runtime.redact",
    "UnknownEvent": "agentproto._runtime.streaming",
    "AsyncEventStream": "agentproto._runtime.streaming",  # what create_turn_stream() returns
    "EventStream": "agentproto._runtime.streaming",
    "AAPOperations": "routes",
    # what a server's operation handlers take and may answer with
    "RequestContext": "agentproto._runtime.routes",
    "EventSource": "agentproto._runtime.routes",
    "OperationError": "agentproto._runtime.routes",
    "NotImplementedOperation": "agentproto._runtime.routes",
    "AAPServer": "server",
    "ServerSettings": "server",
    "ApiKeys": "server",
    "Agent": "agent",
    "ServerTool": "agent",
    "StepContext": "agent",
    "LLMAgent": "llm_agent",
    "SessionStore": "store",
    "SQLiteStore": "store",
    "PostgresStore": "store_postgres",
}


def render(
    protocol: Protocol, env: jinja2.Environment, models: Mapping[str, str]
) -> dict[str, str]:
    unit = protocol.models[0]
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
    files = {
        "aap/client.py": env.get_template("http/client.py.j2").render(
            protocol=protocol,
            ops=ops,
            forms=forms,
            names=names,
            prefix="AAP",
            models_module="agentproto.aap.models",
            params_module="agentproto.aap",
        ),
        "aap/routes.py": env.get_template("http/routes.py.j2").render(
            protocol=protocol,
            rows=route_rows(protocol, ops, unit.schema, shown),
            errors=error_statuses(protocol, shown),
            names=sorted(set(model_names(ops))),
            prefix="AAP",
            models_module="agentproto.aap.models",
        ),
        "aap/params.py": render_params(
            text, "agentproto.aap.models", "Dict forms of agentproto.aap.models"
        ),
    }
    helpers = Path(str(env.globals["template_root"])) / "aap"
    for path in sorted(helpers.glob("*.py")):
        files[f"aap/{path.name}"] = ship(path)
    return files
