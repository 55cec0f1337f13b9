"""agents.json flow clients, generated from real bundles and executed over loopback HTTP against
servers built from the bundles' own OpenAPI documents."""

from __future__ import annotations

import importlib.util
import json
import logging
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import anyio
import pytest
import yaml
from agentproto._runtime.flows import SyncFlows
from agentproto._runtime.flows_plan import expand, resolve
from agentproto.flows import (
    ApiKeyAuth,
    BasicAuth,
    BearerAuth,
    FlowHTTPError,
    FlowInputError,
    FlowLinkError,
    giphy,
    resend,
)

from codegen.errors import BuildError
from codegen.flows.normalise import strict_bundles
from codegen.pipeline import Layout, build
from tests.conftest import ROOT, copy_project
from tests.servers.loopback import serve
from tests.servers.openapi_server import OpenAPIServer, sample

BUNDLES = ROOT / "schemas" / "agents_json" / "bundles"


def openapi(bundle: str) -> dict[str, Any]:
    return yaml.safe_load((BUNDLES / bundle / "openapi.yaml").read_text())


@pytest.fixture(scope="module")
def giphy_server() -> Iterator[tuple[OpenAPIServer, str]]:
    server = OpenAPIServer(openapi("giphy"))
    with serve(server.app) as url:
        yield server, url


@pytest.fixture(scope="module")
def resend_server() -> Iterator[tuple[OpenAPIServer, str]]:
    server = OpenAPIServer(openapi("resend"))
    with serve(server.app) as url:
        yield server, url


def arguments(flow: dict[str, Any], plan: dict[str, Any]) -> dict[str, Any]:
    """Values for a flow's required inputs, and its optional parameters, distinct per input
    (``flow``: of the expanded ``plan``, whose ``$defs`` its schemas refer to)."""
    values: dict[str, Any] = {}
    bodies = [resolve(plan, a["body"]["schema"]) for a in flow["actions"] if a["body"]]
    for i in flow["inputs"]:
        if not i["required"] and i["origin"][0] != "parameters":
            continue
        schema = i["schema"]
        if i["origin"][0] == "requestBody" and bodies:
            # the operation's own schema for this field, which the server checks
            whole = bodies[0].get("type") == "array"  # the plan sends this input as the body
            real = bodies[0] if whole else (bodies[0].get("properties") or {}).get(i["wire"])
            if isinstance(real, dict) and real.get("type") not in (None, "string"):
                values[i["arg"]] = sample(real)
                continue
        declared = [
            resolve(plan, p["schema"])
            for a in flow["actions"]
            for p in a["params"]
            if p["name"] == i["wire"]
        ]
        if declared and "enum" in declared[0]:  # the operation's enum, which the server checks
            values[i["arg"]] = sample(declared[0])
        elif "enum" in schema or "example" in schema:
            values[i["arg"]] = sample(schema)
        elif i["type"] == "int":
            values[i["arg"]] = 7
        elif i["type"] == "str":
            values[i["arg"]] = f"v-{i['arg']}"
        else:
            values[i["arg"]] = sample(schema) if schema else f"v-{i['arg']}"
    return values


def sent_values(record: dict[str, Any]) -> list[Any]:
    body = record["body"]
    values = list(body.values()) if isinstance(body, dict) else [body]
    return [*record["query"].values(), *record["path"].split("/"), *values]


def check_every_flow(module: ModuleType, client: Any, server: OpenAPIServer) -> int:
    count = 0
    plan = expand(module.PLAN)
    for flow in plan["flows"]:
        args = arguments(flow, plan)
        before = len(server.requests)
        result = getattr(client, flow["name"])(**args)
        assert type(result).__name__ == flow["name"].title().replace("_", "") + "Result"
        (record,) = server.requests[before:]
        (action,) = flow["actions"]
        assert record["method"] == action["method"]
        assert server.rejections == [], server.rejections
        for arg, value in args.items():  # links carried every input to the request
            assert value in sent_values(record) or str(value) in sent_values(record), (
                flow["name"],
                arg,
                record,
            )
        count += 1
    return count


def test_every_giphy_flow_runs_against_its_openapi(giphy_server: tuple[OpenAPIServer, str]) -> None:
    server, url = giphy_server
    auth = {"giphy": ApiKeyAuth("api_key", "giphy-key-123", location="query")}
    with giphy.GiphyFlows(auth=auth, base_urls={"giphy": url}) as client:
        assert check_every_flow(giphy, client, server) == len(giphy.PLAN["flows"]) >= 6
    assert {r["query"].get("api_key") for r in server.requests} == {"giphy-key-123"}
    assert "giphy-key-123" not in repr(auth["giphy"])


def test_every_resend_flow_runs_against_its_openapi(
    resend_server: tuple[OpenAPIServer, str],
) -> None:
    server, url = resend_server
    with resend.ResendFlows(
        auth={"resend": BearerAuth("re_secret_1")}, base_urls={"resend": url}
    ) as client:
        assert check_every_flow(resend, client, server) == len(resend.PLAN["flows"]) >= 20
    assert {r["headers"]["authorization"] for r in server.requests} == {"Bearer re_secret_1"}


def test_results_are_typed(giphy_server: tuple[OpenAPIServer, str]) -> None:
    server, url = giphy_server
    server.responses["giphy_get_gifs_search"] = {"data": [{"id": "abc"}], "meta": {"status": 200}}
    try:
        with giphy.GiphyFlows(
            base_urls={"giphy": url}, auth={"giphy": ApiKeyAuth("api_key", "k", location="query")}
        ) as client:
            result = client.search_gifs_flow(q="cats", limit=2)
    finally:
        server.responses.clear()
    assert isinstance(result, giphy.SearchGifsFlowResult)
    assert result.data == [{"id": "abc"}] and result.meta == {"status": 200}
    search = server.requests[-1]
    assert search["path"] == "/gifs/search" and search["query"]["q"] == "cats"
    assert search["query"]["limit"] == "2"


def test_async_flavour(resend_server: tuple[OpenAPIServer, str]) -> None:
    server, url = resend_server

    async def main() -> None:
        async with resend.AsyncResendFlows(
            auth={"resend": BearerAuth("tok")}, base_urls={"resend": url}
        ) as client:
            result = await client.resend_get_domains_by_domain_id_flow(domain_id="dom_42")
            assert isinstance(result, resend.ResendGetDomainsByDomainIdFlowResult)

    anyio.run(main)
    assert server.requests[-1]["path"] == "/domains/dom_42"


def test_http_errors_name_the_flow_action_and_status(
    resend_server: tuple[OpenAPIServer, str],
) -> None:
    server, url = resend_server
    server.fail["resend_get_domains_by_domain_id"] = 404
    try:
        with resend.ResendFlows(auth={"resend": BearerAuth("tok")}, base_urls={"resend": url}) as c:
            with pytest.raises(FlowHTTPError) as caught:
                c.resend_get_domains_by_domain_id_flow(domain_id="nope")
    finally:
        server.fail.clear()
    err = caught.value
    assert (err.flow, err.action, err.status) == (
        "resend_get_domains_by_domain_id_flow",
        "get_domain_action",
        404,
    )
    assert "get_domain_action" in str(err) and "404" in str(err)


def test_missing_required_input_is_a_clear_error() -> None:
    with resend.ResendFlows(auth={"resend": BearerAuth("t")}) as client:
        with pytest.raises(FlowInputError, match="domain_id"):
            client.run_flow("resend_get_domains_by_domain_id_flow", {})
        with pytest.raises(ValueError, match="unknown sources"):
            resend.ResendFlows(auth={"nope": BearerAuth("t")})


def test_tool_definitions_describe_each_flow() -> None:
    tools = {t["name"]: t for t in giphy.TOOLS}
    search = tools["search_gifs_flow"]
    assert search["parameters"]["required"] == ["q"]
    assert search["parameters"]["properties"]["limit"]["type"] == "integer"
    assert search["description"].startswith("Performs a search")
    assert len(resend.TOOLS) == len(resend.PLAN["flows"])
    json.dumps(resend.TOOLS)  # plain JSON


def test_basic_auth_sets_the_header() -> None:
    headers: dict[str, str] = {}
    BasicAuth("user", "pw").apply(headers, {}, {})
    assert headers == {"Authorization": "Basic dXNlcjpwdw=="}
    assert "pw" not in repr(BasicAuth("user", "pw"))


# -- a bundle the generator has never seen ---------------------------------------------------

USERS_API = {
    "openapi": "3.0.0",
    "info": {"title": "Users", "version": "1"},
    "servers": [{"url": "https://users.example/api"}],
    "paths": {
        "/users": {
            "post": {
                "operationId": "create_user",
                "parameters": [
                    {
                        "name": "X-Tenant",
                        "in": "header",
                        "required": False,
                        "schema": {"type": "string"},
                    }
                ],
                "requestBody": {
                    "required": True,
                    "content": {
                        "application/json": {
                            "schema": {
                                "type": "object",
                                "required": ["name"],
                                "properties": {"name": {"type": "string"}},
                            }
                        }
                    },
                },
                "responses": {
                    "201": {
                        "description": "created",
                        "content": {
                            "application/json": {
                                "schema": {
                                    "type": "object",
                                    "properties": {
                                        "data": {
                                            "type": "object",
                                            "properties": {"id": {"type": "string"}},
                                        }
                                    },
                                }
                            }
                        },
                    }
                },
            }
        }
    },
}
MAIL_API = {
    "openapi": "3.0.0",
    "info": {"title": "Mail", "version": "1"},
    "servers": [{"url": "https://mail.example"}],
    "paths": {
        "/users/{user_id}/messages": {
            "post": {
                "operationId": "send_message",
                "parameters": [
                    {
                        "name": "user_id",
                        "in": "path",
                        "required": True,
                        "schema": {"type": "string"},
                    },
                    {
                        "name": "priority",
                        "in": "query",
                        "required": False,
                        "schema": {"type": "string"},
                    },
                ],
                "requestBody": {
                    "content": {
                        "application/json": {
                            "schema": {
                                "type": "object",
                                "required": ["text"],
                                "properties": {"text": {"type": "string"}},
                            }
                        }
                    }
                },
                "responses": {
                    "200": {
                        "description": "sent",
                        "content": {
                            "application/json": {
                                "schema": {
                                    "type": "object",
                                    "properties": {
                                        "message_id": {"type": "string"},
                                        "queued": {"type": "boolean"},
                                    },
                                }
                            }
                        },
                    }
                },
            }
        }
    },
}
SYNTHETIC = {
    "agentsJson": "0.1.0",
    "info": {"title": "Synthetic", "version": "1.0.0", "description": "Two sources."},
    "sources": [
        {"id": "users", "path": "https://example.invalid/users.yaml"},
        {"id": "mail", "path": "https://example.invalid/mail.yaml"},
    ],
    "overrides": [
        {
            "sourceId": "mail",
            "operationId": "send_message",
            "fieldPath": "parameters.1.required",
            "value": True,
        }
    ],
    "flows": [
        {
            "id": "welcome_flow",
            "title": "Welcome a user",
            "description": "Create a user, then send them a message.",
            "actions": [
                {"id": "create", "sourceId": "users", "operationId": "create_user"},
                {"id": "notify", "sourceId": "mail", "operationId": "send_message"},
            ],
            "links": [
                {
                    "origin": {"actionId": None, "fieldPath": "requestBody.name"},
                    "target": {"actionId": "create", "fieldPath": "requestBody.name"},
                },
                {
                    "origin": {"actionId": "welcome_flow", "fieldPath": "parameters.tenant"},
                    "target": {"actionId": "create", "fieldPath": "parameters.X-Tenant"},
                },
                {
                    "origin": {"actionId": "create", "fieldPath": "response.data.id"},
                    "target": {"actionId": "notify", "fieldPath": "parameters.user_id"},
                },
                {
                    "origin": {"actionId": None, "fieldPath": "parameters.priority"},
                    "target": {"actionId": "notify", "fieldPath": "query.priority"},
                },
                {
                    "origin": {"actionId": None, "fieldPath": "requestBody.text"},
                    "target": {"actionId": "notify", "fieldPath": "requestBody.text"},
                },
                {
                    "origin": {"actionId": "create", "fieldPath": "responses.success.data.id"},
                    "target": {"actionId": None, "fieldPath": "user_id"},
                },
                {
                    "origin": {"actionId": "notify", "fieldPath": "responseBody.message_id"},
                    "target": {"actionId": None, "fieldPath": "message_id"},
                },
            ],
            "fields": {
                "parameters": [
                    {
                        "name": "tenant",
                        "type": "string",
                        "required": False,
                        "description": "Tenant.",
                    },
                    {
                        "name": "priority",
                        "type": "string",
                        "required": True,
                        "description": "Priority.",
                    },
                ],
                "requestBody": {
                    "content": {
                        "application/json": {
                            "schema": {
                                "type": "object",
                                "required": ["name", "text"],
                                "properties": {
                                    "name": {"type": "string", "description": "User name."},
                                    "text": {"type": "string", "description": "Message."},
                                },
                            }
                        }
                    }
                },
                "responses": {"success": {"description": "The new user and message ids."}},
            },
        }
    ],
}


def add_bundle(layout: Layout, document: dict[str, Any]) -> Path:
    folder = layout.schemas / "agents_json" / "bundles" / "synthetic"
    folder.mkdir()
    (folder / "agents.json").write_text(json.dumps(document, indent=2))
    (folder / "users.yaml").write_text(yaml.safe_dump(USERS_API))
    (folder / "mail.yaml").write_text(yaml.safe_dump(MAIL_API))
    (folder / "bundle.yaml").write_text(
        yaml.safe_dump({"sources": {"users": "users.yaml", "mail": "mail.yaml"}})
    )
    return folder


def load_generated(layout: Layout, name: str) -> ModuleType:
    path = layout.out / "agentproto" / "flows" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"agentproto.flows.{name}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def synthetic(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    # agents.json alone: the flows package is what the tests import
    layout = copy_project(tmp_path_factory.mktemp("synthetic"), protocols=("agents_json",))
    add_bundle(layout, SYNTHETIC)
    build(layout)
    module = load_generated(layout, "synthetic")
    yield module
    sys.modules.pop("agentproto.flows.synthetic", None)


def test_unseen_bundle_chains_two_sources(synthetic: ModuleType) -> None:
    users, mail = OpenAPIServer(USERS_API), OpenAPIServer(MAIL_API)
    users.responses["create_user"] = {"data": {"id": "u-981"}}
    mail.responses["send_message"] = {"message_id": "m-77", "queued": True}
    with serve(users.app) as users_url, serve(mail.app) as mail_url:
        with synthetic.SyntheticFlows(base_urls={"users": users_url, "mail": mail_url}) as client:
            result = client.welcome_flow(name="Ada", text="Hello Ada", priority="high", tenant="t1")
    assert (result.user_id, result.message_id) == ("u-981", "m-77")
    (created,) = users.requests
    assert created["body"] == {"name": "Ada"} and created["headers"]["x-tenant"] == "t1"
    (sent,) = mail.requests
    assert sent["path"] == "/users/u-981/messages"  # the id moved along the link
    assert sent["query"] == {"priority": "high"} and sent["body"] == {"text": "Hello Ada"}
    assert users.rejections == mail.rejections == []


def test_unseen_bundle_override_and_missing_origin(synthetic: ModuleType) -> None:
    notify = expand(synthetic.PLAN)["flows"][0]["actions"][1]
    assert {p["name"]: p["required"] for p in notify["params"]}["priority"] is True  # override
    users, mail = OpenAPIServer(USERS_API), OpenAPIServer(MAIL_API)
    users.responses["create_user"] = {"data": {}}  # no id: the link cannot be followed
    with serve(users.app) as users_url, serve(mail.app) as mail_url:
        with synthetic.SyntheticFlows(base_urls={"users": users_url, "mail": mail_url}) as client:
            with pytest.raises(FlowLinkError) as caught:
                client.welcome_flow(name="Ada", text="x", priority="low")
    assert caught.value.action == "create" and "responses.success.data.id" in str(caught.value)
    assert mail.requests == []


def test_unseen_bundle_async(synthetic: ModuleType) -> None:
    users, mail = OpenAPIServer(USERS_API), OpenAPIServer(MAIL_API)
    users.responses["create_user"] = {"data": {"id": "u-2"}}

    async def main(users_url: str, mail_url: str) -> Any:
        async with synthetic.AsyncSyntheticFlows(
            base_urls={"users": users_url, "mail": mail_url}
        ) as c:
            return await c.welcome_flow(name="B", text="hi", priority="p")

    with serve(users.app) as users_url, serve(mail.app) as mail_url:
        result = anyio.run(main, users_url, mail_url)
    assert result.user_id == "u-2"
    assert result.message_id == "sample"  # from the response schema


def test_non_canonical_links_are_normalised_with_warnings(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    layout = copy_project(tmp_path)
    add_bundle(layout, SYNTHETIC)
    caplog.set_level(logging.WARNING, logger="codegen")
    from codegen.flows.plan import plan_bundle

    folder = layout.schemas / "agents_json" / "bundles" / "synthetic"
    specs = {"users": USERS_API, "mail": MAIL_API}
    plan = plan_bundle("synthetic", json.loads((folder / "agents.json").read_text()), specs, "x")
    links = plan["flows"][0]["links"]
    assert links[1]["from"] is None  # actionId == flow id
    assert links[2]["from_path"] == ["responses", "success", "data", "id"]
    assert links[3]["to_path"] == ["parameters", "priority"]
    assert links[6]["from_path"] == ["responses", "success", "message_id"]
    warnings = caplog.text
    assert "read as responses.success.*" in warnings and "read as parameters.*" in warnings
    # an actionId equal to the flow id is how every real bundle names its inputs: no warning
    assert "actionId" not in warnings


def broken_synthetic() -> dict[str, Any]:
    broken: dict[str, Any] = json.loads(json.dumps(SYNTHETIC))
    links = broken["flows"][0]["links"]
    links[2]["origin"]["actionId"] = "notify"  # runs after its target
    links[4]["target"]["fieldPath"] = "parameters.nonexistent.deep"
    return broken


def test_broken_links_are_rejected_with_pointers_under_strict() -> None:
    from codegen.flows.plan import plan_bundle

    with strict_bundles(), pytest.raises(BuildError) as caught:
        plan_bundle("synthetic", broken_synthetic(), {"users": USERS_API, "mail": MAIL_API}, "x")
    found = {(p.pointer, p.reason) for p in caught.value.problems}
    assert (
        "/flows/0/links/2",
        "origin action 'notify' does not run before target 'notify': link from an action "
        "listed earlier in the flow's actions",
    ) in found
    target = [r for p, r in found if p == "/flows/0/links/4/target/fieldPath"]
    assert target and "its parameters: user_id, priority" in target[0], found  # the fix


def test_a_bundle_problem_stops_the_build_and_writes_nothing(tmp_path: Path) -> None:
    layout = copy_project(tmp_path)
    broken = broken_synthetic()
    broken["overrides"][0]["fieldPath"] = "parameters.9.required"
    add_bundle(layout, broken)
    before = (
        {p: p.read_bytes() for p in layout.out.rglob("*") if p.is_file()}
        if layout.out.exists()
        else {}
    )
    with pytest.raises(BuildError) as caught:
        build(layout)
    assert [p.pointer for p in caught.value.problems] == ["/overrides/0/fieldPath"]
    after = (
        {p: p.read_bytes() for p in layout.out.rglob("*") if p.is_file()}
        if layout.out.exists()
        else {}
    )
    assert before == after


def test_a_broken_flow_is_left_out_and_the_rest_of_the_bundle_planned() -> None:
    """A default (lenient) read drops just the flow a broken link is in, with a warning
    naming the pointer and the fix; calling it says why; an override that leads nowhere is
    the bundle's problem and stays an error."""
    from codegen.flows.plan import plan_bundle

    document = broken_synthetic()
    good = json.loads(json.dumps(SYNTHETIC["flows"][0]))
    good["id"] = "second_welcome"
    for link in good["links"]:
        if link["origin"].get("actionId") == "welcome_flow":
            link["origin"]["actionId"] = "second_welcome"
    document["flows"].append(good)
    warnings: list[tuple[str, str]] = []
    plan = plan_bundle(
        "synthetic",
        document,
        {"users": USERS_API, "mail": MAIL_API},
        "x",
        warn=lambda _file, pointer, kind: warnings.append((pointer, kind)),
    )
    assert [f["id"] for f in plan["flows"]] == ["second_welcome"]
    (dropped,) = plan["dropped"]
    assert dropped["id"] == "welcome_flow" and "/flows/0/links/2" in dropped["reason"]
    left_out = {p: k for p, k in warnings if k.startswith("flow left out")}
    assert "link from an action listed earlier" in left_out["/flows/0/links/2"]
    assert "its parameters: user_id, priority" in left_out["/flows/0/links/4/target/fieldPath"]

    class Client(SyncFlows):
        PLAN = plan

    with pytest.raises(FlowInputError, match="left out when the bundle was read"):
        Client().run_flow("welcome_flow", {})
    with pytest.raises(FlowInputError, match=r"no flow 'nope'.*second_welcome"):
        Client().run_flow("nope", {})

    document["overrides"][0]["fieldPath"] = "parameters.9.required"
    with pytest.raises(BuildError) as caught:
        plan_bundle("synthetic", document, {"users": USERS_API, "mail": MAIL_API}, "x")
    assert [p.pointer for p in caught.value.problems] == ["/overrides/0/fieldPath"]


def test_a_broken_bundle_is_reported_before_the_slow_part_of_the_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``build()`` itself (not only the CLI) checks the bundles first: a broken one is reported
    before any protocol's meta-schema checks and model generation (``generate``) begin, which
    is what keeps a rejection under a second (figures: benchmarks/bench_flows.py)."""
    import codegen.pipeline

    layout = copy_project(tmp_path)
    broken = json.loads(json.dumps(SYNTHETIC))
    broken["overrides"][0]["fieldPath"] = "parameters.9.required"
    add_bundle(layout, broken)

    def too_late(*_args: object, **_kwargs: object) -> object:
        raise AssertionError("generate() ran before the broken bundle was reported")

    monkeypatch.setattr(codegen.pipeline, "generate", too_late)
    with pytest.raises(BuildError) as caught:
        build(layout)
    assert any(p.pointer == "/overrides/0/fieldPath" for p in caught.value.problems)


def test_a_flow_named_like_a_runner_method_is_refused() -> None:
    """``runFlow`` would become ``run_flow`` and replace the method every flow calls."""
    from codegen.flows.plan import plan_bundle

    document = json.loads(json.dumps(SYNTHETIC))
    document["flows"][0]["id"] = "runFlow"
    for link in document["flows"][0]["links"]:
        for end in ("origin", "target"):
            if link.get(end, {}).get("actionId") == SYNTHETIC["flows"][0]["id"]:
                link[end]["actionId"] = "runFlow"
    with strict_bundles(), pytest.raises(BuildError) as caught:
        plan_bundle("synthetic", document, {"users": USERS_API, "mail": MAIL_API}, "x")
    assert any(
        p.pointer == "/flows/0/id" and "a method every flows class has" in p.reason
        for p in caught.value.problems
    ), caught.value.problems
    plan = plan_bundle("synthetic", document, {"users": USERS_API, "mail": MAIL_API}, "x")
    assert plan["flows"] == [] and plan["dropped"][0]["id"] == "runFlow"
