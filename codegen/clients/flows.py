"""agents.json: one module per bundle, ``agentproto/flows/<bundle>.py``.

Each module embeds the bundle's execution plan (made by :mod:`codegen.flows.plan`) and defines
a typed method per flow on a sync and an async client class, a typed result model per flow, and
the flows as LLM tool definitions. The executor is the runtime's ``flows.py``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import jinja2

from codegen.flows.plan import class_name, plan_bundle
from codegen.inputs import corpus
from codegen.inputs.sources import display_path
from codegen.ir import Protocol

EXPORTS = {
    "ApiKeyAuth": "_auth",
    "BasicAuth": "_auth",
    "BearerAuth": "_auth",
    "FlowError": "_auth",
    "FlowHTTPError": "_auth",
    "FlowInputError": "_auth",
    "FlowLinkError": "_auth",
    "FlowResultError": "_auth",
    "OAuth2Token": "_auth",
}


def render(
    protocol: Protocol, env: jinja2.Environment, models: Mapping[str, str]
) -> dict[str, str]:
    schema_file = protocol.models[0].schema_file
    folder = schema_file.parent
    root = folder.parent.parent
    files = {"flows/_auth.py": env.get_template("flows/auth.py.j2").render()}
    for bundle in corpus.bundle_folders(folder, root):
        document, deviations = corpus.read_bundle(bundle, protocol.models[0].schema, root)
        specs = corpus.bundle_sources(bundle, root)
        shown = display_path(bundle / "agents.json", root)
        plan = plan_bundle(bundle.name, document, specs, shown, deviations=deviations)
        files[f"flows/{bundle.name}.py"] = env.get_template("flows/bundle.py.j2").render(
            plan=plan,
            prefix=class_name(bundle.name),
            flows=[_flow_context(f) for f in plan["flows"]],
        )
    return files


def _flow_context(flow: dict[str, Any]) -> dict[str, Any]:
    required = [i for i in flow["inputs"] if i["required"]]
    optional = [i for i in flow["inputs"] if not i["required"]]
    variant_arg = "body_variant"
    while any(i["arg"] == variant_arg for i in flow["inputs"]):
        variant_arg += "_"
    return {
        **flow,
        "ordered_inputs": required + optional,
        "result_class": class_name(flow["name"]) + "Result",
        "variant_arg": variant_arg,
    }
