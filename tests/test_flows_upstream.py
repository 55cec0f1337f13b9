"""The four upstream agents.json bundles (alpaca, hubspotcontacts, linkup, theodds), built by
default, run end to end against loopback servers made from their own OpenAPI documents.

For every flow that can be called, every link is checked in the recorded requests: the value
the link carries (a flow input, or a field of an earlier action's recorded response) arrives
where the OpenAPI operation declares it (path, query, header or body), with the operation's
method and path, and the auth the caller gave (as the OpenAPI's security asks for it)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
import yaml
from agentproto._runtime.flows_plan import expand, resolve
from agentproto.flows import ApiKeyAuth, BearerAuth, FlowInputError

from codegen.errors import BuildError
from codegen.flows.normalise import strict_bundles
from codegen.inputs.corpus import check_bundles
from tests.conftest import ROOT
from tests.servers.loopback import serve
from tests.servers.openapi_server import OpenAPIServer, sample
from tests.servers.openapi_server import resolve as resolve_spec

BUNDLES = ROOT / "schemas" / "agents_json" / "bundles"
FILES = {
    ("alpaca", "alpacatrading"): "trading_openapi.yaml",
    ("alpaca", "alpacamarketdata"): "marketdata_openapi.yaml",
    ("hubspotcontacts", "hubspotcontacts"): "openapi.yaml",
    ("linkup", "linkup"): "openapi.yaml",
    ("theodds", "theodds"): "openapi.yaml",
}
_METHODS = ("get", "put", "post", "delete", "patch")


def openapi(bundle: str, source: str) -> dict[str, Any]:
    text = (BUNDLES / bundle / FILES[(bundle, source)]).read_text()
    loaded: dict[str, Any] = yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    return loaded


def operation(spec: dict[str, Any], operation_id: str) -> tuple[str, str, list[dict[str, Any]]]:
    """(method, path template, parameters) straight from the OpenAPI document."""
    for path, item in spec["paths"].items():
        for method in _METHODS:
            op = item.get(method)
            if isinstance(op, dict) and op.get("operationId") == operation_id:
                params = [*(item.get("parameters") or []), *(op.get("parameters") or [])]
                return method.upper(), path, params
    raise KeyError(operation_id)


@pytest.fixture(scope="module")
def servers() -> Iterator[dict[tuple[str, str], tuple[OpenAPIServer, str, dict[str, Any]]]]:
    running: dict[tuple[str, str], tuple[OpenAPIServer, str, dict[str, Any]]] = {}
    stack = []
    try:
        for key in FILES:
            spec = openapi(*key)
            if key == ("alpaca", "alpacatrading"):
                # Upstream's POST /v2/orders body is the Order response model: it requires both
                # qty and notional (nullable). The bundle's oneOf (and Alpaca's API) takes
                # exactly one of them, so the server checks the body as the bundle describes.
                body = spec["paths"]["/v2/orders"]["post"]["requestBody"]["content"]
                schema = body["application/json"]["schema"]
                schema["required"] = [r for r in schema["required"] if r not in ("qty", "notional")]
                for name in ("qty", "notional"):  # strings upstream, numbers in the bundle
                    schema["properties"][name]["type"] = ["string", "number"]
            server = OpenAPIServer(spec)
            context = serve(server.app)
            url = context.__enter__()
            stack.append(context)
            running[key] = (server, url, spec)
        yield running
    finally:
        for context in reversed(stack):
            context.__exit__(None, None, None)


def _target_schema(flow: dict[str, Any], origin: list[str], plan: dict[str, Any]) -> Any:
    """The operation's own schema of where the input ``origin`` is sent (the server checks it);
    ``flow`` is of the expanded ``plan``, whose ``$defs`` its schemas refer to."""
    for link in flow["links"]:
        if link["from"] is not None or link["from_path"] != origin or link["to"] is None:
            continue
        action = next(a for a in flow["actions"] if a["id"] == link["to"])
        kind, *rest = link["to_path"]
        if kind == "parameters":
            for param in action["params"]:
                if param["name"] == rest[0] and param["schema"]:
                    return resolve(plan, param["schema"])
        elif rest:
            schema = resolve(plan, (action["body"] or {}).get("schema") or {})
            for branch in [schema, *(schema.get("oneOf") or []), *(schema.get("anyOf") or [])]:
                prop = (branch.get("properties") or {}).get(rest[0])
                if isinstance(prop, dict):
                    return prop
    return None


def arguments(flow: dict[str, Any], plan: dict[str, Any]) -> dict[str, Any]:
    """A value for every input (credentials left to the auth, one oneOf branch only)."""
    variants = flow.get("body_variants") or []
    allowed = set(variants[0]["fields"]) if variants else None
    values: dict[str, Any] = {}
    for i in flow["inputs"]:
        if i.get("credential"):
            continue
        if allowed is not None and i["origin"][0] == "requestBody" and i["wire"] not in allowed:
            continue
        schema = i["schema"]
        real = _target_schema(flow, i["origin"], plan)
        if isinstance(real, dict) and ("enum" in real or "example" in real):
            values[i["arg"]] = sample(real)  # the operation's own schema, which the server checks
        elif isinstance(real, dict) and real.get("type") not in (None, "string"):
            values[i["arg"]] = sample(real)
        elif isinstance(real, dict) and real.get("type") == "string":
            values[i["arg"]] = f"v-{i['arg']}"  # e.g. alpaca's qty: a number in the bundle
        elif "enum" in schema or "example" in schema:
            values[i["arg"]] = sample(schema)
        elif i["type"] == "int":
            values[i["arg"]] = 7
        elif i["type"] == "float":
            values[i["arg"]] = 2.5
        elif i["type"] == "bool":
            values[i["arg"]] = True
        elif i["type"] == "str":
            values[i["arg"]] = f"v-{i['arg']}"
        else:
            values[i["arg"]] = sample(schema) if schema.get("type") else f"v-{i['arg']}"
    return values


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return json.dumps(value) if isinstance(value, list | dict) else str(value)


def read_query(items: list[tuple[str, str]], param: dict[str, Any], spec: dict[str, Any]) -> Any:
    """What a server reads for a declared query parameter, by its style and explode (the
    decoding side of OpenAPI serialisation): a list for an array, else the text."""
    name, style = param["name"], param.get("style", "form")
    explode = param.get("explode", style == "form")
    schema = resolve_spec(spec, param.get("schema") or {})
    values = [v for k, v in items if k == name]
    if schema.get("type") != "array":
        return values[0] if values else None
    if explode and style == "form":
        return values
    sep = {"form": ",", "spaceDelimited": " ", "pipeDelimited": "|"}[style]
    return values[0].split(sep) if values else []


def _at(value: Any, path: list[str]) -> Any:
    for token in path:
        value = value[int(token)] if isinstance(value, list) else value[token]
    return value


def check_flow(
    bundle: str,
    flow: dict[str, Any],
    args: dict[str, Any],
    records: list[dict[str, Any]],
    servers: dict[tuple[str, str], tuple[OpenAPIServer, str, dict[str, Any]]],
) -> int:
    """Check method, path, and every link of one run in its recorded requests; returns the
    number of links checked."""
    assert len(records) == len(flow["actions"]), (flow["id"], records)
    by_action = dict(zip([a["id"] for a in flow["actions"]], records, strict=True))
    wires = {tuple(i["origin"]): i["arg"] for i in flow["inputs"]}
    checked = 0
    for action in flow["actions"]:
        record = by_action[action["id"]]
        spec = servers[(bundle, action["source"])][2]
        method, template, _ = operation(spec, record["operationId"])
        assert record["method"] == method == action["method"]
        pattern = re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(template))
        assert re.fullmatch(".*" + pattern, record["path"]), (record["path"], template)
    for link in flow["links"]:
        if link["to"] is None:
            continue
        if link["from"] is None:
            arg = wires.get(tuple(link["from_path"][:2]))
            if arg is None or arg not in args:
                continue  # an optional input left out is not sent
            value = _at(args[arg], link["from_path"][2:])
        else:
            value = _at(by_action[link["from"]]["response"], link["from_path"][2:])
        record = by_action[link["to"]]
        action = next(a for a in flow["actions"] if a["id"] == link["to"])
        spec = servers[(bundle, action["source"])][2]
        path = link["to_path"]
        if path[0] == "parameters":
            declared = {p["name"]: p["in"] for p in operation(spec, record["operationId"])[2]}
            where = declared.get(path[1], "query")  # undeclared: sent in the query
            if where == "query":
                param = next(
                    p for p in operation(spec, record["operationId"])[2] if p["name"] == path[1]
                )
                got = read_query(record["query_items"], param, spec)
                want = [_text(v) for v in value] if isinstance(value, list) else _text(value)
                assert got == want, (flow["id"], path, record["raw_query"])
            elif where == "header":
                assert record["headers"].get(path[1].lower()) == _text(value), (flow["id"], path)
            else:
                assert quote(_text(value), safe="") in record["path"].split("/"), (flow["id"], path)
        else:
            assert _at(record["body"], path[1:]) == value, (flow["id"], path, record["body"])
        checked += 1
    return checked


def run_bundle(
    module: Any,
    client_class: Any,
    bundle: str,
    auth: dict[str, Any],
    servers: dict[tuple[str, str], tuple[OpenAPIServer, str, dict[str, Any]]],
    skip: tuple[str, ...] = (),
) -> tuple[int, int, list[dict[str, Any]]]:
    """Run every flow of a bundle (``skip``: flows the build warned cannot be called)."""
    mine = {source: servers[(bundle, source)] for source in module.PLAN["sources"]}
    base_urls = {source: url for source, (_, url, _) in mine.items()}
    flows = links = 0
    every: list[dict[str, Any]] = []
    plan = expand(client_class.PLAN)
    with client_class(auth=auth, base_urls=base_urls) as client:
        for flow in plan["flows"]:
            if flow["id"] in skip:
                continue
            args = arguments(flow, plan)
            before = {s: len(server.requests) for s, (server, _, _) in mine.items()}
            result = getattr(client, flow["name"])(**args)
            assert type(result).__name__.endswith("Result")
            new = {s: list(server.requests[before[s] :]) for s, (server, _, _) in mine.items()}
            records = [new[a["source"]].pop(0) for a in flow["actions"] if new[a["source"]]]
            assert not any(new.values()), (flow["id"], new)
            for server, _, _ in mine.values():
                assert server.rejections == [], (flow["id"], server.rejections)
            links += check_flow(bundle, flow, args, records, servers)
            every.extend(records)
            flows += 1
    return flows, links, every


def test_alpaca_flows_with_two_api_key_headers(servers: Any) -> None:
    from agentproto.flows import alpaca

    keys = [ApiKeyAuth("APCA-API-KEY-ID", "kid-1"), ApiKeyAuth("APCA-API-SECRET-KEY", "sec-2")]
    auth = {"alpacatrading": keys, "alpacamarketdata": keys}
    flows, links, records = run_bundle(alpaca, alpaca.AlpacaFlows, "alpaca", auth, servers)
    assert flows == len(alpaca.PLAN["flows"]) == 12 and links >= 40
    assert {
        (r["headers"]["apca-api-key-id"], r["headers"]["apca-api-secret-key"]) for r in records
    } == {("kid-1", "sec-2")}


def test_alpaca_one_of_body_branch_is_chosen_by_the_fields(servers: Any) -> None:
    from agentproto.flows import alpaca

    server, url, _ = servers[("alpaca", "alpacatrading")]
    keys = [ApiKeyAuth("APCA-API-KEY-ID", "k"), ApiKeyAuth("APCA-API-SECRET-KEY", "s")]
    with alpaca.AlpacaFlows(auth={"alpacatrading": keys}, base_urls={"alpacatrading": url}) as c:
        c.order_place(symbol="AAPL", side="buy", type="market", time_in_force="day", notional=5.5)
        assert server.requests[-1]["body"]["notional"] == 5.5
        assert "qty" not in server.requests[-1]["body"]
        count = len(server.requests)
        with pytest.raises(FlowInputError, match="branch") as caught:
            c.order_place(
                symbol="A", side="buy", type="market", time_in_force="day", qty=1, notional=2
            )
        assert "'qty'" in str(caught.value) and "'notional'" in str(caught.value)
        with pytest.raises(FlowInputError, match="no branch"):
            c.order_place(symbol="A", side="buy", type="market", time_in_force="day")
        # named by the caller: the branch must then fit the fields given
        with pytest.raises(FlowInputError, match="no branch"):
            c.order_place(
                symbol="A",
                side="buy",
                type="market",
                time_in_force="day",
                qty=1,
                body_variant="notional",
            )
        c.order_place(
            symbol="A",
            side="buy",
            type="market",
            time_in_force="day",
            qty=3,
            body_variant="qty",
        )
        assert server.requests[-1]["body"]["qty"] == 3
        with pytest.raises(FlowInputError, match="unknown body branch 'shares'"):
            fields = {"symbol": "A", "side": "buy", "type": "market", "time_in_force": "day"}
            c.run_flow("order_place", {**fields, "qty": 1}, body_variant="shares")
        assert len(server.requests) == count + 1
    tool = next(t for t in alpaca.TOOLS if t["name"] == "order_place")
    assert "exactly one of" in tool["description"]


def test_alpaca_missing_second_key_is_refused_before_sending(servers: Any) -> None:
    from agentproto.flows import alpaca

    server, url, _ = servers[("alpaca", "alpacatrading")]
    count = len(server.requests)
    auth = {"alpacatrading": ApiKeyAuth("APCA-API-KEY-ID", "k")}
    with alpaca.AlpacaFlows(auth=auth, base_urls={"alpacatrading": url}) as client:
        with pytest.raises(FlowInputError, match="APCA-API-SECRET-KEY"):
            client.account_get()
    assert len(server.requests) == count


def test_hubspot_flows_with_bearer(servers: Any) -> None:
    from agentproto.flows import hubspotcontacts

    auth = {"hubspotcontacts": BearerAuth("hub-tok")}
    server = servers[("hubspotcontacts", "hubspotcontacts")][0]
    server.responses["hubspotcontacts_get_contact"] = {"id": "c-77", "properties": {}}
    flows, links, records = run_bundle(
        hubspotcontacts, hubspotcontacts.HubspotcontactsFlows, "hubspotcontacts", auth, servers
    )
    assert flows == 9 and links >= 15
    server.responses.clear()
    assert {r["headers"]["authorization"] for r in records} == {"Bearer hub-tok"}
    update = next(r for r in records if r["operationId"] == "hubspotcontacts_update_contact")
    assert update["path"].endswith("/contacts/c-77")  # the id moved along the link
    # the flow without links (contacts_list) passes its inputs by name
    listing = next(r for r in records if r["operationId"] == "hubspotcontacts_list_contacts")
    assert {"limit", "after", "archived"} <= set(listing["query"]), listing["query"]


def test_hubspot_api_key_in_the_query(servers: Any) -> None:
    from agentproto.flows import hubspotcontacts

    server, url, _ = servers[("hubspotcontacts", "hubspotcontacts")]
    auth = {"hubspotcontacts": ApiKeyAuth("hapikey", "hk-1", location="query")}
    with hubspotcontacts.HubspotcontactsFlows(auth=auth, base_urls={"hubspotcontacts": url}) as c:
        c.contacts_get(contactId="c-1")
    assert server.requests[-1]["query"]["hapikey"] == "hk-1"
    assert server.requests[-1]["path"].endswith("/contacts/c-1")
    assert server.rejections == []


def test_linkup_as_published_is_refused_before_sending(servers: Any) -> None:
    """Linkup's OpenAPI requires ``outputType``, which its only flow never gives: the build
    warns, and the call is refused before anything is sent (not a 422 from the API)."""
    from agentproto.flows import linkup

    server, url, _ = servers[("linkup", "linkup")]
    count = len(server.requests)
    with linkup.LinkupFlows(auth={"linkup": BearerAuth("lk")}, base_urls={"linkup": url}) as c:
        with pytest.raises(FlowInputError, match="outputType"):
            c.linkup_search_flow(q="who?", depth="standard")
    assert len(server.requests) == count
    (action,) = expand(linkup.PLAN)["flows"][0]["actions"]
    assert action["unfilled_body_fields"] == ["outputType"]


def test_linkup_parameters_go_into_the_body(servers: Any) -> None:
    """The same flow's links (``parameters.q`` into an operation whose ``q`` is a body field)
    and bearer auth, against a server that does not require ``outputType``."""
    from agentproto.flows import linkup

    spec = openapi("linkup", "linkup")
    body = spec["paths"]["/search"]["post"]["requestBody"]["content"]["application/json"]
    body["schema"]["required"] = ["q", "depth"]
    server = OpenAPIServer(spec)
    plan = json.loads(json.dumps(linkup.PLAN))
    del plan["flows"][0]["actions"][0]["unfilled_body_fields"]

    class Lenient(linkup.LinkupFlows):
        PLAN = plan

    with serve(server.app) as url:
        lenient = {("linkup", "linkup"): (server, url, spec)}
        flows, links, records = run_bundle(
            linkup, Lenient, "linkup", {"linkup": BearerAuth("lk")}, lenient
        )
    assert (flows, links) == (1, 2)
    (record,) = records
    assert set(record["body"]) == {"q", "depth"} and record["query"] == {}
    assert record["headers"]["authorization"] == "Bearer lk"


@pytest.mark.parametrize(
    "auth",
    [BearerAuth("odds-token"), ApiKeyAuth("apiKey", "odds-token", location="query")],
    ids=["bearer", "api_key"],
)
def test_theodds_flows_fill_the_api_key_parameter_from_the_auth(servers: Any, auth: Any) -> None:
    from agentproto.flows import theodds

    uncallable = ("theodds_get_v4_historical_sports_events_odds_flow", "parlay_validation_compound")
    flows, links, records = run_bundle(
        theodds, theodds.TheoddsFlows, "theodds", {"theodds": auth}, servers, skip=uncallable
    )
    assert flows == 8 and links >= 30
    assert {r["query"]["apiKey"] for r in records} == {"odds-token"}
    # the two flows the build warned about are refused before anything is sent
    server, url, _ = servers[("theodds", "theodds")]
    count = len(server.requests)
    with theodds.TheoddsFlows(auth={"theodds": auth}, base_urls={"theodds": url}) as client:
        plan = expand(theodds.PLAN)
        for flow_id in uncallable:
            flow = next(f for f in plan["flows"] if f["id"] == flow_id)
            with pytest.raises(FlowInputError, match="no link gives it"):
                getattr(client, flow["name"])(**arguments(flow, plan))
    assert len(server.requests) == count


def test_method_names_are_snake_case_and_tools_keep_wire_ids() -> None:
    from agentproto.flows import hubspotcontacts, theodds

    assert hubspotcontacts.TOOLS[0]["name"] == hubspotcontacts.PLAN["flows"][0]["id"]
    for module in (hubspotcontacts, theodds):
        for flow in module.PLAN["flows"]:
            assert re.fullmatch(r"[a-z][a-z0-9_]*", flow["name"]), flow["name"]
    assert [t["name"] for t in theodds.TOOLS] == [f["id"] for f in theodds.PLAN["flows"]]
    # JSON-Schema keywords of flow parameters are part of the inputs' schemas
    tool = next(t for t in theodds.TOOLS if t["name"] == "parlay_validation_compound")
    assert tool["parameters"]["properties"]["regions"]["default"] == "us"
    assert "picks" not in tool["parameters"]["properties"]  # reaches no action: left out


def test_strict_rejects_the_upstream_bundles_with_the_seed_schema_messages() -> None:
    with strict_bundles(), pytest.raises(BuildError) as caught:
        check_bundles(ROOT / "schemas", ROOT)
    found = {
        (Path(p.file).parent.name, p.pointer, p.reason.split(" (rule")[0])
        for p in caught.value.problems
    }
    assert (
        "theodds",
        "/flows/9/fields/parameters/0",
        "Additional properties are not allowed ('items' was unexpected)",
    ) in found
    assert (
        "hubspotcontacts",
        "/flows/1/fields/requestBody",
        "None is not of type 'object'",
    ) in found
    assert (
        "alpaca",
        "/flows/7/fields/parameters/1",
        "Additional properties are not allowed ('enum' was unexpected)",
    ) in found
    assert {f[0] for f in found} == {"alpaca", "hubspotcontacts", "linkup", "theodds"}
    assert len(found) == 1 + 3 + 2 + 7
    check_bundles(ROOT / "schemas", ROOT)  # the default reading accepts them


def test_cli_strict_rejects_and_reports_fast(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "codegen", "--root", str(ROOT), "build", "--strict", "--check"],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
    )
    assert done.returncode == 2, done.stderr
    assert "13 problem(s)" in done.stderr and "('enum' was unexpected)" in done.stderr


def test_unknown_extras_are_kept_and_every_pointer_is_named() -> None:
    from codegen.flows.normalise import normalise
    from codegen.flows.plan import plan_bundle

    document = json.loads((BUNDLES / "alpaca" / "agents.json").read_text())
    document["flows"][7]["fields"]["parameters"][1]["x-ui-hint"] = {"widget": "radio"}
    lenient, checkable, deviations = normalise(document)
    assert "x-ui-hint" not in checkable["flows"][7]["fields"]["parameters"][1]
    specs = {s: openapi("alpaca", s) for s in ("alpacatrading", "alpacamarketdata")}
    warnings: list[tuple[str, str]] = []
    plan = plan_bundle(
        "alpaca",
        lenient,
        specs,
        "alpaca",
        warn=lambda f, p, r: warnings.append((r, p)),
        deviations=deviations,
    )
    side = next(i for i in plan["flows"][7]["inputs"] if i["wire"] == "side")
    assert side["extras"] == {"x-ui-hint": {"widget": "radio"}}
    assert side["schema"]["enum"] == ["buy", "sell"]
    kinds = dict(warnings)
    enum_kind = "JSON-Schema keyword 'enum' in a flow parameter: part of the input's schema"
    assert kinds[enum_kind].split(", ") == [
        "/flows/7/fields/parameters/1",
        "/flows/7/fields/parameters/2",
        "/flows/8/fields/parameters/6",
        "/flows/8/fields/parameters/7",
        "/flows/9/fields/parameters/6",
        "/flows/9/fields/parameters/7",
        "/flows/11/fields/parameters/1",
    ]
    extra_kind = "unknown key 'x-ui-hint' in a flow parameter: kept in the input's extras"
    assert kinds[extra_kind] == "/flows/7/fields/parameters/1"


def test_each_shipped_bundle_warns_once_compactly(caplog: pytest.LogCaptureFixture) -> None:
    """One log record per bundle, each kind of normalisation once with all its pointers."""
    import logging

    from codegen.flows.plan import plan_bundle
    from codegen.inputs import corpus

    caplog.set_level(logging.WARNING, logger="codegen")
    schema = json.loads((ROOT / "schemas" / "agents_json" / "agents-json.schema.json").read_text())
    for name in ("giphy", "resend"):
        document, deviations = corpus.read_bundle(BUNDLES / name, schema, ROOT)
        specs = corpus.bundle_sources(BUNDLES / name, ROOT)
        plan_bundle(name, document, specs, name, deviations=deviations)
    records = [r.getMessage() for r in caplog.records]
    assert len(records) == 2, records
    giphy_lines = records[0].splitlines()
    assert giphy_lines[0] == "giphy: read with 2 kind(s) of normalisation:"
    assert len(giphy_lines) == 3 and "actionId" not in records[0]
    assert all(len(r.splitlines()) <= 4 for r in records), records
