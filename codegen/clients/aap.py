"""AAP clients: the generated HTTP client plus AAP's hand-written helpers.

``aap/client.py`` is rendered from ``templates/http/client.py.j2`` (every endpoint of the spec
table, sync and async); ``templates/aap/*.py`` (folding turn events, the tool-call session
helper) are shipped as they are.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import jinja2

from codegen.clients.http_ops import http_ops, keyword_forms, model_names
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
        "aap/params.py": render_params(
            text, "agentproto.aap.models", "Dict forms of agentproto.aap.models"
        ),
    }
    helpers = Path(str(env.globals["template_root"])) / "aap"
    for path in sorted(helpers.glob("*.py")):
        files[f"aap/{path.name}"] = ship(path)
    return files
