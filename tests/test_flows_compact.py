"""Compact flow modules: a module holds only what its flows use, each schema piece once, and
its size follows what the flows use, not the size of the OpenAPI document (figures per
bundle: benchmarks/bench_flows.py). The plan is embedded as JSON text in a raw literal, which
no text from a bundle can break out of."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import yaml
from agentproto._runtime.flows_plan import expand, resolve

from codegen.clients.flows import bundle_module
from codegen.flows.plan import plan_bundle
from codegen.inputs.sources import load_document
from codegen.package.output import format_text
from codegen.package.render import environment
from tests.conftest import ROOT
from tests.servers.loopback import serve
from tests.servers.openapi_server import OpenAPIServer
from tests.servers.synthetic_api import synthetic_api, synthetic_bundle

SCHEMA = ROOT / "schemas" / "agents_json" / "agents-json.schema.json"


def write_bundle(folder: Path, document: dict[str, Any], api: dict[str, Any]) -> Path:
    folder.mkdir(parents=True)
    (folder / "agents.json").write_text(json.dumps(document, ensure_ascii=False))
    (folder / "openapi.json").write_text(json.dumps(api))
    (folder / "bundle.yaml").write_text(yaml.safe_dump({"sources": {"synthetic": "openapi.json"}}))
    return folder


def module_of(folder: Path, name: str) -> tuple[str, ModuleType]:
    """The formatted module the build writes for a bundle folder, imported."""
    env = environment(ROOT / "templates")
    text = format_text(bundle_module(folder, load_document(SCHEMA, ROOT), folder, env))
    path = folder / f"{name}.py"
    path.write_text(text)
    spec = importlib.util.spec_from_file_location(f"agentproto.flows.{name}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    try:
        spec.loader.exec_module(module)
    finally:
        sys.modules.pop(spec.name, None)
    return text, module


def test_references_stay_references_and_unused_pieces_stay_out(tmp_path: Path) -> None:
    """Level0 written out would be 2**16 copies of Level16: the module holds each level once,
    and none of the 300 padding operations or schemas."""
    api = synthetic_api(depth=16, fan=2, padding=300, flows=2)
    folder = write_bundle(tmp_path / "synthetic", synthetic_bundle(flows=2), api)
    text, module = module_of(folder, "synthetic")
    plan = module.PLAN
    assert sorted(plan["$defs"]) == sorted(f"synthetic.Level{n}" for n in range(17))
    assert "Pad" not in text and "pad0" not in text
    assert sorted(plan["operations"]["synthetic"]) == ["update_thing0", "update_thing1"]
    assert len(text) < 20_000, len(text)  # linear in what is used: 17 schemas, 2 operations
    body = expand(plan)["flows"][0]["actions"][0]["body"]["schema"]
    assert body == {"$ref": "#/$defs/synthetic.Level0"}
    deep = resolve(plan, body, depth=3)
    assert deep["properties"]["child1"]["properties"]["child0"]["properties"]["child0"] == {
        "$ref": "#/$defs/synthetic.Level3"
    }


def test_a_recursive_schema_is_one_definition() -> None:
    api: dict[str, Any] = synthetic_api(depth=1, fan=1, padding=0, flows=1)
    node = "#/components/schemas/Node"
    api["components"]["schemas"]["Node"] = {
        "type": "object",
        "properties": {
            "parent": {"$ref": node},
            "replies": {"type": "array", "items": {"$ref": node}},
            "kind": {"type": "string", "enum": ["a", "b"]},
        },
    }
    operation = api["paths"]["/things0/{thing_id}"]["post"]
    operation["requestBody"]["content"]["application/json"]["schema"] = {"$ref": node}
    plan = plan_bundle("synthetic", synthetic_bundle(flows=1), {"synthetic": api}, "x")
    assert plan["$defs"]["synthetic.Node"]["properties"]["replies"] == {
        "type": "array",
        "items": {"$ref": "#/$defs/synthetic.Node"},
    }
    assert len(json.dumps(plan["$defs"])) < 600


def test_the_synthetic_flows_run(tmp_path: Path) -> None:
    """The compact module is not just small: its flows send the right requests."""
    api = synthetic_api(depth=3, fan=2, padding=5, flows=1)
    folder = write_bundle(tmp_path / "synthetic", synthetic_bundle(flows=1), api)
    _, module = module_of(folder, "synthetic")
    server = OpenAPIServer(api)
    body = {"child0": {"child0": {"child0": {"id": "leaf"}}}}
    with serve(server.app) as url, module.SyntheticFlows(base_urls={"synthetic": url}) as client:
        result = client.update_thing0_flow(thing_id="t 1", fields=["a", "b"], child0=body["child0"])
    (record,) = server.requests
    assert record["path"] == "/things0/t 1" and record["raw_query"] == "fields=a,b"
    assert record["body"] == body and server.rejections == []
    assert type(result).__name__ == "UpdateThing0FlowResult"


def test_no_text_from_a_bundle_breaks_the_embedded_plan(tmp_path: Path) -> None:
    document = synthetic_bundle(flows=1)
    hostile = "end \"\"\" quotes ''' and \\ backslash \\\n\u2028 line \x00 nul \u202e bidi é 🐍 \\"
    document["flows"][0]["description"] = hostile
    document["flows"][0]["fields"]["parameters"][0]["description"] = '"""\nimport os\n"""'
    api = synthetic_api(depth=1, fan=1, padding=0, flows=1)
    api["paths"]["/things0/{thing_id}"]["post"]["parameters"][0]["schema"]["pattern"] = '"""\\'
    folder = write_bundle(tmp_path / "synthetic", document, api)
    text, module = module_of(folder, "synthetic")
    start = text.index('r"""')
    assert text[start : text.index('"""', start + 4)].isascii()  # the plan: JSON, ASCII
    assert not any(c in text for c in "\x00\u2028\u202e")  # docstrings escape them too
    assert module.PLAN["flows"][0]["description"] == hostile
    planned = plan_bundle("synthetic", document, {"synthetic": api}, "x")
    assert module.PLAN == planned
    assert module.TOOLS[0]["description"] == hostile
