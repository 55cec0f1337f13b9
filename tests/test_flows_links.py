"""Link forms seen in upstream bundles, and requests serialised as the OpenAPI document says,
on loopback servers built from the OpenAPI documents (tests/servers/openapi_server.py).

The link forms are those of wild-card-ai/agents-json's stripe (an action whose id is the flow's
id), twitter (schema paths into the flow's body), googlesheets (a body field literally named
``properties``) and rootly (``parameters.filter[search]``) bundles, rebuilt here on small
OpenAPI documents of the same shapes."""

from __future__ import annotations

import copy
import json
import logging
from collections.abc import Iterator
from typing import Any

import pytest
from agentproto._runtime.flows import SyncFlows
from agentproto._runtime.flows_plan import expand
from agentproto._runtime.redact import MASK, is_secret_name, redact_url
from agentproto.flows import ApiKeyAuth, BearerAuth, FlowInputError, PlannedRequest

from codegen.errors import BuildError
from codegen.flows.normalise import strict_bundles
from codegen.flows.plan import plan_bundle
from tests.servers.loopback import serve
from tests.servers.openapi_server import OpenAPIServer


def ok(schema: dict[str, Any]) -> dict[str, Any]:
    return {"200": {"description": "ok", "content": {"application/json": {"schema": schema}}}}


OBJECT_ID = {"type": "object", "properties": {"id": {"type": "string"}}, "example": {"id": "x-1"}}
API: dict[str, Any] = {
    "openapi": "3.1.0",
    "info": {"title": "Shapes", "version": "1"},
    "servers": [{"url": "https://shapes.example"}],
    "components": {
        "securitySchemes": {"session": {"type": "apiKey", "in": "cookie", "name": "sid"}},
        "schemas": {
            "Message": {
                "type": "object",
                "required": ["text"],
                "properties": {"text": {"type": "string"}},
            },
            "Sheet": {
                "type": "object",
                "properties": {
                    "properties": {
                        "type": "object",
                        "properties": {"title": {"type": "string"}},
                    }
                },
            },
        },
    },
    "paths": {
        "/subscriptions/{id}/cancel": {
            "post": {
                "operationId": "cancel",
                "parameters": [
                    {"name": "id", "in": "path", "required": True, "schema": {"type": "string"}}
                ],
                "responses": ok(OBJECT_ID),
            }
        },
        "/subscriptions": {
            "get": {
                "operationId": "list_subscriptions",
                "parameters": [
                    {"name": "subscription", "in": "query", "schema": {"type": "string"}},
                    {"name": "customer", "in": "query", "schema": {"type": "string"}},
                ],
                "responses": ok(OBJECT_ID),
            }
        },
        "/conversations": {
            "post": {
                "operationId": "create_conversation",
                "requestBody": {
                    "required": True,
                    "content": {
                        "application/json": {"schema": {"$ref": "#/components/schemas/Message"}}
                    },
                },
                "responses": ok(
                    {
                        "type": "object",
                        "properties": {
                            "data": {
                                "type": "object",
                                "properties": {"conversation_id": {"type": "string"}},
                            }
                        },
                        "example": {"data": {"conversation_id": "c-9"}},
                    }
                ),
            }
        },
        "/conversations/{conversation_id}/messages": {
            "post": {
                "operationId": "send_message",
                "parameters": [
                    {
                        "name": "conversation_id",
                        "in": "path",
                        "required": True,
                        "schema": {"type": "string"},
                    }
                ],
                "requestBody": {
                    "content": {
                        "application/json": {"schema": {"$ref": "#/components/schemas/Message"}}
                    }
                },
                "responses": ok(OBJECT_ID),
            }
        },
        "/sheets": {
            "post": {
                "operationId": "create_sheet",
                "requestBody": {
                    "content": {
                        "application/json": {"schema": {"$ref": "#/components/schemas/Sheet"}}
                    }
                },
                "responses": ok(OBJECT_ID),
            }
        },
        "/incidents": {
            "get": {
                "operationId": "list_incidents",
                "parameters": [
                    {
                        "name": "filter",
                        "in": "query",
                        "style": "deepObject",
                        "explode": True,
                        "schema": {"type": "object", "additionalProperties": {"type": "string"}},
                    },
                    {
                        "name": "fields",
                        "in": "query",
                        "style": "pipeDelimited",
                        "explode": False,
                        "schema": {"type": "array", "items": {"type": "string"}},
                    },
                    {
                        "name": "ids",
                        "in": "query",
                        "schema": {"type": "array", "items": {"type": "integer"}},
                    },
                    {
                        "name": "X-Trace",
                        "in": "header",
                        "schema": {"type": "array", "items": {"type": "string"}},
                    },
                ],
                "security": [{"session": []}],
                "responses": ok(OBJECT_ID),
            }
        },
        "/chat.postMessage": {
            "post": {
                "operationId": "post_message",
                "requestBody": {
                    "content": {
                        "application/x-www-form-urlencoded": {
                            "schema": {
                                "type": "object",
                                "properties": {
                                    "channel": {"type": "string"},
                                    "blocks": {"type": "array", "items": {"type": "object"}},
                                    "tags": {"type": "array", "items": {"type": "string"}},
                                    "meta": {"type": "object"},
                                },
                            },
                            "encoding": {"meta": {"style": "deepObject", "explode": True}},
                        }
                    }
                },
                "responses": ok(OBJECT_ID),
            }
        },
        "/files": {
            "post": {
                "operationId": "upload",
                "requestBody": {
                    "content": {
                        "multipart/form-data": {
                            "schema": {
                                "type": "object",
                                "properties": {
                                    "title": {"type": "string"},
                                    "file": {},
                                    "labels": {"type": "array", "items": {"type": "string"}},
                                },
                            }
                        }
                    }
                },
                "responses": ok(OBJECT_ID),
            }
        },
    },
}


def flow(
    flow_id: str,
    actions: list[tuple[str, str]],
    links: list[tuple[str | None, str, str | None, str]],
    parameters: list[str] = (),  # type: ignore[assignment]
    body: dict[str, Any] | None = None,
) -> dict[str, Any]:
    made: dict[str, Any] = {
        "id": flow_id,
        "title": flow_id,
        "description": flow_id,
        "actions": [{"id": a, "sourceId": "shapes", "operationId": op} for a, op in actions],
        "links": [
            {
                "origin": {"actionId": src, "fieldPath": src_path},
                "target": {"actionId": dst, "fieldPath": dst_path},
            }
            for src, src_path, dst, dst_path in links
        ],
        "fields": {
            "parameters": [
                {"name": p, "type": "string", "required": False, "description": p}
                for p in parameters
            ]
        },
    }
    if body is not None:
        made["fields"]["requestBody"] = {
            "required": False,
            "content": {"application/json": {"schema": body}},
        }
    return made


BUNDLE: dict[str, Any] = {
    "agentsJson": "0.1.0",
    "info": {"title": "Shapes", "version": "1", "description": "Upstream link forms."},
    "sources": [{"id": "shapes", "path": "https://shapes.example/openapi.json"}],
    "flows": [
        # stripe: the first action's id is the flow's id; responses.id is that action's
        flow(
            "cancel",
            [("cancel", "cancel"), ("list_subscriptions", "list_subscriptions")],
            [
                ("cancel", "parameters.subscription_id", "cancel", "parameters.id"),
                ("cancel", "responses.id", "list_subscriptions", "parameters.subscription"),
                ("cancel", "parameters.customer", "list_subscriptions", "parameters.customer"),
            ],
            parameters=["subscription_id", "customer"],
        ),
        # twitter: schema paths into the flow's body, a response read through responseBody
        flow(
            "dm",
            [("create", "create_conversation"), ("send", "send_message")],
            [
                (
                    "dm",
                    "requestBody.content.application/json.schema.properties.first.properties.text",
                    "create",
                    "requestBody.text",
                ),
                (
                    "create",
                    "responseBody.data.conversation_id",
                    "send",
                    "parameters.conversation_id",
                ),
                (
                    "dm",
                    "requestBody.content.application/json.schema.properties.second.properties.text",
                    "send",
                    "requestBody.content.application/json.schema.properties.text",
                ),
            ],
            body={
                "type": "object",
                "properties": {
                    "first": {"type": "object", "properties": {"text": {"type": "string"}}},
                    "second": {"type": "object", "properties": {"text": {"type": "string"}}},
                },
            },
        ),
        # googlesheets: a field named "properties": the data path, not a schema path
        flow(
            "sheet",
            [("create_sheet", "create_sheet")],
            [
                (
                    "sheet",
                    "requestBody.properties.title",
                    "create_sheet",
                    "requestBody.properties.title",
                )
            ],
            body={
                "type": "object",
                "properties": {
                    "properties": {"type": "object", "properties": {"title": {"type": "string"}}}
                },
            },
        ),
        # rootly: parameters.filter[search] into a deepObject parameter; styles of the others
        flow(
            "incidents",
            [("list", "list_incidents")],
            [
                ("incidents", "parameters.search", "list", "parameters.filter[search]"),
                ("incidents", "parameters.status", "list", "parameters.filter[status]"),
                ("incidents", "requestBody.fields", "list", "parameters.fields"),
                ("incidents", "requestBody.ids", "list", "parameters.ids"),
                ("incidents", "requestBody.trace", "list", "parameters.X-Trace"),
            ],
            parameters=["search", "status"],
            body={
                "type": "object",
                "properties": {
                    "fields": {"type": "array", "items": {"type": "string"}},
                    "ids": {"type": "array", "items": {"type": "integer"}},
                    "trace": {"type": "array", "items": {"type": "string"}},
                },
            },
        ),
        # slack: a form-urlencoded body
        flow(
            "post",
            [("post_message", "post_message")],
            [("post", "requestBody", "post_message", "requestBody")],
            body={
                "type": "object",
                "properties": {
                    "channel": {"type": "string"},
                    "blocks": {"type": "array"},
                    "tags": {"type": "array"},
                    "meta": {"type": "object"},
                },
            },
        ),
        flow(
            "upload",
            [("upload", "upload")],
            [("upload", "requestBody", "upload", "requestBody")],
            body={
                "type": "object",
                "properties": {
                    "title": {"type": "string"},
                    "file": {},
                    "labels": {"type": "array"},
                },
            },
        ),
    ],
}


@pytest.fixture(scope="module")
def planned() -> tuple[dict[str, Any], list[tuple[str, str]]]:
    warnings: list[tuple[str, str]] = []
    plan = plan_bundle(
        "shapes", BUNDLE, {"shapes": API}, "shapes", lambda _f, p, k: warnings.append((p, k))
    )
    return plan, warnings


@pytest.fixture(scope="module")
def client(planned: tuple[dict[str, Any], list[tuple[str, str]]]) -> Iterator[Any]:
    plan, _ = planned

    class Shapes(SyncFlows):
        PLAN = plan

    server = OpenAPIServer(API)
    with serve(server.app) as url:
        auth = {"shapes": ApiKeyAuth("sid", "cookie-secret-77", location="cookie")}
        with Shapes(auth=auth, base_urls={"shapes": url}) as flows:
            yield flows, server


def run(client: Any, flow_id: str, **arguments: Any) -> list[dict[str, Any]]:
    flows, server = client
    before = len(server.requests)
    flows.run_flow(flow_id, arguments)
    assert server.rejections == [], server.rejections
    return list(server.requests[before:])


def test_every_upstream_link_form_is_read(
    planned: tuple[dict[str, Any], list[tuple[str, str]]],
) -> None:
    plan, warnings = planned
    assert [f["id"] for f in plan["flows"]] == [f["id"] for f in BUNDLE["flows"]]
    assert "dropped" not in plan
    links = {f["id"]: f["links"] for f in plan["flows"]}
    assert links["cancel"][0]["from"] is None  # a flow input
    assert links["cancel"][1]["from"] == "cancel"  # the action's response
    assert links["cancel"][1]["from_path"] == ["responses", "success", "id"]
    assert links["dm"][0]["from_path"] == ["requestBody", "first", "text"]
    assert links["dm"][2]["to_path"] == ["requestBody", "text"]
    assert links["sheet"][0]["from_path"] == ["requestBody", "properties", "title"]
    assert links["sheet"][0]["to_path"] == ["requestBody", "properties", "title"]
    assert links["incidents"][0]["to_path"] == ["parameters", "filter", "search"]
    kinds = {kind for _, kind in warnings}
    assert any("names both the flow and one of its actions" in k for k in kinds)
    assert any("schema path" in k for k in kinds)
    assert any("[<key>]" in k for k in kinds)


def test_an_action_named_like_its_flow(client: Any) -> None:
    """stripe's cancel_subscription: the action ``cancel`` is also the flow's id."""
    cancelled, listed = run(client, "cancel", subscription_id="sub_1", customer="cus_9")
    assert cancelled["path"] == "/subscriptions/sub_1/cancel"
    assert listed["query"] == {"subscription": "x-1", "customer": "cus_9"}


def test_schema_paths_read_as_data_paths(client: Any) -> None:
    created, sent = run(client, "dm", first={"text": "hello"}, second={"text": "again"})
    assert created["body"] == {"text": "hello"}
    assert sent["path"] == "/conversations/c-9/messages" and sent["body"] == {"text": "again"}


def test_a_field_named_properties_is_a_field(client: Any) -> None:
    (made,) = run(client, "sheet", properties={"title": "Budget"})
    assert made["body"] == {"properties": {"title": "Budget"}}


def test_query_header_and_cookie_styles(client: Any) -> None:
    (listed,) = run(
        client,
        "incidents",
        search="db down",
        status="open",
        fields=["id", "title"],
        ids=[3, 4],
        trace=["a", "b"],
    )
    assert (
        listed["raw_query"]
        == "filter%5Bsearch%5D=db%20down&filter%5Bstatus%5D=open&fields=id%7Ctitle&ids=3&ids=4"
    )
    assert listed["query_items"][:2] == [("filter[search]", "db down"), ("filter[status]", "open")]
    assert listed["headers"]["x-trace"] == "a,b"  # simple style, no percent-encoding
    assert listed["cookies"] == {"sid": "cookie-secret-77"}  # the cookie API key


def test_form_urlencoded_body_with_encoding(client: Any) -> None:
    (posted,) = run(
        client,
        "post",
        channel="C1 general",
        blocks=[{"type": "section"}],
        tags=["a", "b"],
        meta={"k": "v"},
    )
    assert posted["headers"]["content-type"] == "application/x-www-form-urlencoded"
    assert posted["form"] == [
        ("channel", "C1 general"),
        ("blocks", '{"type":"section"}'),  # objects as JSON (Encoding Object default)
        ("tags", "a"),
        ("tags", "b"),
        ("meta[k]", "v"),  # the Encoding Object's deepObject style
    ]


def test_multipart_body_with_a_file(client: Any) -> None:
    (uploaded,) = run(client, "upload", title="Logo", file=b"\x89PNG\r\n", labels=["x", "y"])
    assert uploaded["headers"]["content-type"].startswith("multipart/form-data; boundary=")
    assert uploaded["form"] == [
        ("title", "Logo"),
        ("file", ("file", b"\x89PNG\r\n")),
        ("labels", "x"),
        ("labels", "y"),
    ]


def test_dry_run_returns_the_requests_without_sending(client: Any) -> None:
    flows, server = client
    before = len(server.requests)
    planned = flows.dry_run("dm", {"first": {"text": "hi"}, "second": {"text": "yo"}})
    assert len(server.requests) == before  # nothing sent
    assert all(isinstance(p, PlannedRequest) for p in planned)
    create, send = planned
    assert (create.method, create.url.endswith("/conversations")) == ("POST", True)
    assert json.loads(create.body or b"") == {"text": "hi"}
    # the conversation id comes from a response nobody gave: a placeholder
    assert "/conversations/%3Ccreate%3Aresponses.success.data.conversation_id%3E/messages" in (
        send.url
    )
    given = flows.dry_run(
        "dm",
        {"first": {"text": "hi"}, "second": {"text": "yo"}},
        responses={"create": {"data": {"conversation_id": "c-42"}}},
    )
    assert given[1].url.endswith("/conversations/c-42/messages")
    (incident,) = flows.dry_run("incidents", {"search": "x"})
    assert incident.headers["Cookie"] == MASK  # credentials masked
    assert "cookie-secret-77" not in repr(incident) + str(incident.headers)
    with pytest.raises(FlowInputError, match="unknown inputs"):
        flows.dry_run("dm", {"nope": 1})


def test_credentials_in_cookies_and_queries_are_declared_secret(
    client: Any, caplog: pytest.LogCaptureFixture
) -> None:
    """An API key sent under a plain name (a cookie ``sid``, a query ``appid``) is declared to
    the runtime's redaction, so every URL, header map and log line that shows it masks it."""
    assert is_secret_name("sid")
    ApiKeyAuth("appid", "q-secret-55", location="query")
    assert redact_url("https://x.example/?appid=q-secret-55&q=1") == (
        f"https://x.example/?appid={MASK}&q=1"
    )
    caplog.set_level(logging.DEBUG, logger="agentproto.http")
    run(client, "incidents", search="y")
    assert "cookie-secret-77" not in caplog.text
    assert "incidents" in caplog.text  # the request was logged, masked


def test_an_items_schema_path_is_refused_with_the_fix() -> None:
    """A schema path through ``items`` names no single element: strict refuses it with the
    pointer and the fix; a default read leaves only that flow out."""
    bundle = copy.deepcopy(BUNDLE)
    bad = flow(
        "bad",
        [("create", "create_conversation")],
        [
            (
                "bad",
                "requestBody.content.application/json.schema.properties.all.items",
                "create",
                "requestBody.text",
            )
        ],
        body={"type": "object", "properties": {"all": {"type": "array"}}},
    )
    bundle["flows"].append(bad)
    with strict_bundles(), pytest.raises(BuildError) as caught:
        plan_bundle("shapes", bundle, {"shapes": API}, "shapes")
    (problem,) = caught.value.problems
    assert problem.pointer == "/flows/6/links/0/origin/fieldPath"
    assert "write the data path with the element's index" in problem.reason
    plan = plan_bundle("shapes", bundle, {"shapes": API}, "shapes", lambda *_: None)
    assert len(plan["flows"]) == 6 and plan["dropped"][0]["id"] == "bad"


def test_a_header_value_with_a_line_break_is_refused(client: Any) -> None:
    flows, server = client
    before = len(server.requests)
    with pytest.raises(FlowInputError, match="X-Trace"):
        flows.run_flow("incidents", {"trace": ["a\r\nInjected: 1"]})
    assert len(server.requests) == before


def test_each_operation_is_planned_once() -> None:
    bundle = copy.deepcopy(BUNDLE)
    twin = copy.deepcopy(bundle["flows"][1])
    twin["id"] = "dm_again"
    for link in twin["links"]:
        if link["origin"]["actionId"] == "dm":
            link["origin"]["actionId"] = "dm_again"
    bundle["flows"].append(twin)
    plan = plan_bundle("shapes", bundle, {"shapes": API}, "shapes", lambda *_: None)
    assert sorted(plan["operations"]["shapes"]) == sorted(
        {a["operationId"] for f in BUNDLE["flows"] for a in f["actions"]}
    )
    whole = expand(plan)
    a = next(f for f in whole["flows"] if f["id"] == "dm")["actions"]
    b = next(f for f in whole["flows"] if f["id"] == "dm_again")["actions"]
    assert a == b and a[0]["method"] == "POST" and a[0]["path"] == "/conversations"
    assert plan["$defs"]["shapes.Message"]["required"] == ["text"]  # defined once


def test_bearer_stays_where_it_was(planned: tuple[dict[str, Any], list[tuple[str, str]]]) -> None:
    """No auth scheme change for an operation without security (regression guard)."""
    plan, _ = planned

    class Shapes(SyncFlows):
        PLAN = plan

    server = OpenAPIServer(API)
    with (
        serve(server.app) as url,
        Shapes(auth={"shapes": BearerAuth("tok")}, base_urls={"shapes": url}) as flows,
    ):
        flows.run_flow("sheet", {"properties": {"title": "t"}})
    assert server.requests[0]["headers"]["authorization"] == "Bearer tok"


def test_an_override_changes_its_operation_and_never_the_document() -> None:
    """Overrides apply to a copy: the OpenAPI document (cached by the build between bundles)
    is never written to, through a $ref or not."""
    api = copy.deepcopy(API)
    before = json.dumps(api, sort_keys=True)
    bundle = copy.deepcopy(BUNDLE)
    bundle["overrides"] = [
        {
            "sourceId": "shapes",
            "operationId": "send_message",
            "fieldPath": "requestBody.required",
            "value": True,
        },
        {
            "sourceId": "shapes",
            "operationId": "create_sheet",
            "fieldPath": "requestBody.content.application/json.schema.required",
            "value": ["properties"],
        },
    ]
    plan = plan_bundle("shapes", bundle, {"shapes": api}, "shapes", lambda *_: None)
    assert json.dumps(api, sort_keys=True) == before
    operations = plan["operations"]["shapes"]
    assert operations["send_message"]["body"]["required"] is True
    assert operations["create_sheet"]["body"]["required_fields"] == ["properties"]
