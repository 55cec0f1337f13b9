"""agents.json: one module per bundle, ``agentproto/flows/<bundle>.py``.

Each module embeds the bundle's execution plan (made by the shared planner, see
:mod:`codegen.flows.plan`) as JSON text, and defines a typed method per flow on a sync and an
async client class, a typed result model per flow, and the flows as LLM tool definitions. The
executor is the runtime's ``flows.py``; ``agentproto/flows/_schema.py`` embeds the seed
schema, with which ``agentproto.flows.load_bundle`` checks bundles loaded at run time
(``templates/flows/loading.py``, shipped as is).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import jinja2

from codegen.errors import BuildError
from codegen.flows.plan import Warn, class_name, plan_bundle
from codegen.inputs import corpus
from codegen.inputs.sources import display_path
from codegen.ir import Protocol
from codegen.package.unasync import ship

EXPORTS = {
    "ApiKeyAuth": "_auth",
    "BasicAuth": "_auth",
    "BearerAuth": "_auth",
    "FlowBundleError": "_auth",
    "FlowError": "_auth",
    "FlowHTTPError": "_auth",
    "FlowInputError": "_auth",
    "FlowLinkError": "_auth",
    "FlowResultError": "_auth",
    "OAuth2Token": "_auth",
    "PlannedRequest": "_auth",
    "RetryPolicy": "agentproto._runtime.http",  # the flow classes' retry= option
    "SourceAuth": "agentproto._runtime.flows",  # the base of the auth= values
    "AsyncFlows": "agentproto._runtime.flows",  # the base of every flows class
    "SyncFlows": "agentproto._runtime.flows",
    "AsyncBundleFlows": "loading",
    "BundleFlows": "loading",
    "load_bundle": "loading",
    "aload_bundle": "loading",
}


def render(
    protocol: Protocol, env: jinja2.Environment, models: Mapping[str, str]
) -> dict[str, str]:
    schema_file = protocol.models[0].schema_file
    folder = schema_file.parent
    root = folder.parent.parent
    files = {
        "flows/_auth.py": env.get_template("flows/auth.py.j2").render(),
        "flows/_schema.py": env.get_template("flows/schema.py.j2").render(
            schema_json=json.dumps(protocol.models[0].document, sort_keys=True, ensure_ascii=True),
            schema_file=schema_file.name,
        ),
    }
    helpers = Path(str(env.globals["template_root"])) / "flows"
    for path in sorted(helpers.glob("*.py")):
        files[f"flows/{path.name}"] = ship(path)
    for bundle in corpus.bundle_folders(folder, root):
        files[f"flows/{bundle.name}.py"] = bundle_module(
            bundle, protocol.models[0].schema, root, env
        )
    return files


def bundle_module(
    bundle: Path,
    schema: dict[str, Any],
    root: Path,
    env: jinja2.Environment,
    warn: Warn | None = None,
) -> str:
    """The module of one bundle folder (loaded, checked and planned; unformatted)."""
    document, deviations = corpus.read_bundle(bundle, schema, root)
    specs = corpus.bundle_sources(bundle, root)
    shown = display_path(bundle / "agents.json", root)
    plan = plan_bundle(bundle.name, document, specs, shown, warn, deviations)
    flows = _flow_contexts(plan["flows"])
    return env.get_template("flows/bundle.py.j2").render(
        plan=plan,
        plan_json=plan_text(plan, shown),
        prefix=class_name(bundle.name),
        flows=flows,
        uses_field=any(
            field["attr"] != field["wire"]
            for f in flows
            if not f["result_base"]
            for field in f["result_fields"]
        ),
    )


def plan_text(plan: Mapping[str, Any], shown: str) -> str:
    """The plan as JSON text for a raw triple-quoted literal: ASCII, compact, one line per flow
    and per ``$defs`` entry (a change to one flow is a change to one line). JSON text never
    holds three quotes in a row, and it never ends in a backslash, so the literal is exactly
    this text."""

    def dumps(value: Any) -> str:
        return json.dumps(value, ensure_ascii=True, separators=(",", ":"))

    head = {k: v for k, v in plan.items() if k not in ("flows", "$defs")}
    lines = ["{" + dumps(head)[1:-1] + ',"flows":[']
    flows = [dumps(flow) for flow in plan["flows"]]
    lines += [text + ("," if i < len(flows) - 1 else "") for i, text in enumerate(flows)]
    defs = plan.get("$defs") or {}
    if defs:
        lines.append('],"$defs":{')
        items = [f"{dumps(key)}:{dumps(value)}" for key, value in defs.items()]
        lines += [text + ("," if i < len(items) - 1 else "") for i, text in enumerate(items)]
        lines.append("}}")
    else:
        lines.append("]}")
    text = "\n".join(lines)
    if '"""' in text or json.loads(text) != json.loads(dumps(plan)):
        raise BuildError.single(shown, "", "the plan cannot be embedded as JSON text")
    return text


def _flow_contexts(flows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Template context per flow; a result model whose fields an earlier one has is made a
    subclass of it (each field set defined once)."""
    contexts = []
    first: dict[str, str] = {}
    for flow in flows:
        context = _flow_context(flow)
        key = json.dumps(flow["result_fields"], sort_keys=True)
        context["result_base"] = first.get(key) if flow["result_fields"] else None
        first.setdefault(key, context["result_class"])
        contexts.append(context)
    return contexts


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
