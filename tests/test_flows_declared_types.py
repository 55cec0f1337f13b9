"""Parameters sent as the OpenAPI document declares them (issue 43), whatever the flow gives.

Slack's ``views.open`` / ``views.push`` / ``views.update`` take ``view`` as a query parameter of
``type: string`` ("a JSON-encoded string"), while the agents.json flow's field is an object.
Serialised by the style alone, an object is spread into its members
(``?trigger_id=t1&type=modal`` under ``form`` with ``explode``): the parameter's name is gone
and Slack answers "missing view". Sent as declared, it is one ``view=<its JSON text>``, in every
location, style and explode. A value the declared type cannot hold (an object for an integer, an
array for an object...) is refused before anything is sent, naming the parameter.

Each case is a one-action flow on a small OpenAPI document of the same shape; the requests are
read from ``dry_run`` (nothing sent) and, for the Slack shape, from a loopback server built from
the document (tests/servers/openapi_server.py), which checks the parameter is there and a
string.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any
from urllib.parse import parse_qsl, unquote, urlsplit

import pytest
from agentproto._runtime.flows import SyncFlows
from agentproto.flows import FlowInputError

from codegen.flows.plan import plan_bundle
from tests.servers.loopback import serve
from tests.servers.openapi_server import OpenAPIServer

VIEW = {"type": "modal", "title": {"type": "plain_text", "text": "Hi"}, "blocks": []}
VIEW_TEXT = json.dumps(VIEW, separators=(",", ":"), ensure_ascii=False)
OK = {"200": {"description": "ok", "content": {"application/json": {"schema": {"type": "object"}}}}}

# (operation id, location, style, explode): every style each location defines, both explodes
CASES: list[tuple[str, str, str, bool]] = [
    (f"{where}_{style}_{'x' if explode else 'n'}", where, style, explode)
    for where, styles in (
        ("query", ("form", "spaceDelimited", "pipeDelimited", "deepObject")),
        ("path", ("simple", "label", "matrix")),
        ("header", ("simple",)),
        ("cookie", ("form",)),
    )
    for style in styles
    for explode in (False, True)
]
# (operation id, declared schema, value given, what the refusal says)
MISMATCHES: list[tuple[str, dict[str, Any], Any, str]] = [
    (
        "integer_object",
        {"type": "integer"},
        {"a": 1},
        "an object given, the operation declares `type: integer`",
    ),
    (
        "number_array",
        {"type": "number"},
        [1, 2],
        "an array given, the operation declares `type: number`",
    ),
    (
        "boolean_object",
        {"type": "boolean"},
        {"a": True},
        "an object given, the operation declares `type: boolean`",
    ),
    (
        "array_object",
        {"type": "array", "items": {"type": "string"}},
        {"a": "b"},
        "an object given, the operation declares `type: array`",
    ),
    (
        "object_array",
        {"type": "object"},
        ["a"],
        "an array given, the operation declares `type: object`",
    ),
]


def _operation(
    op_id: str, where: str, style: str, explode: bool, schema: dict[str, Any]
) -> dict[str, Any]:
    return {
        "operationId": op_id,
        "parameters": [
            {"name": "trigger_id", "in": "query", "required": True, "schema": {"type": "string"}},
            {
                "name": "view",
                "in": where,
                "required": True,
                "style": style,
                "explode": explode,
                "schema": schema,
            },
        ],
        "responses": OK,
    }


def _api() -> dict[str, Any]:
    paths: dict[str, Any] = {}
    for op_id, where, style, explode in CASES:
        path = f"/{op_id}/{{view}}" if where == "path" else f"/{op_id}"
        paths[path] = {"post": _operation(op_id, where, style, explode, {"type": "string"})}
    for op_id, schema, _, _ in MISMATCHES:
        paths[f"/{op_id}"] = {"post": _operation(op_id, "query", "form", True, schema)}
    # Slack's views.open as its OpenAPI document has it
    paths["/views.open"] = {
        "post": {
            "operationId": "views_open",
            "parameters": [
                {
                    "name": "trigger_id",
                    "in": "query",
                    "required": True,
                    "schema": {"type": "string"},
                },
                {
                    "name": "view",
                    "in": "query",
                    "required": True,
                    "description": "A view payload. This must be a JSON-encoded string.",
                    "schema": {"type": "string"},
                },
            ],
            "responses": OK,
        }
    }
    return {
        "openapi": "3.1.0",
        "info": {"title": "Views", "version": "1"},
        "servers": [{"url": "https://views.example"}],
        "paths": paths,
    }


def _flow(op_id: str, view_type: str) -> dict[str, Any]:
    return {
        "id": op_id,
        "title": op_id,
        "description": op_id,
        "actions": [{"id": "act", "sourceId": "views", "operationId": op_id}],
        "links": [
            {
                "origin": {"actionId": op_id, "fieldPath": f"parameters.{name}"},
                "target": {"actionId": "act", "fieldPath": f"parameters.{name}"},
            }
            for name in ("trigger_id", "view")
        ],
        "fields": {
            "parameters": [
                {"name": "trigger_id", "type": "string", "required": True, "description": "t"},
                {"name": "view", "type": view_type, "required": True, "description": "v"},
            ]
        },
    }


API = _api()
BUNDLE: dict[str, Any] = {
    "agentsJson": "0.1.0",
    "info": {"title": "Views", "version": "1", "description": "Parameters as declared."},
    "sources": [{"id": "views", "path": "https://views.example/openapi.json"}],
    "flows": [_flow(op_id, "object") for op_id, *_ in CASES]
    + [
        _flow(op_id, "object" if isinstance(value, dict) else "array")
        for op_id, _, value, _ in MISMATCHES
    ]
    + [_flow("views_open", "object")],
}


@pytest.fixture(scope="module")
def client() -> Iterator[tuple[Any, OpenAPIServer]]:
    plan = plan_bundle("views", BUNDLE, {"views": API}, "views", lambda *_: None)
    assert [f["id"] for f in plan["flows"]] == [f["id"] for f in BUNDLE["flows"]]

    class Views(SyncFlows):
        PLAN = plan

    server = OpenAPIServer(API)
    with serve(server.app) as url, Views(base_urls={"views": url}) as flows:
        yield flows, server


def _sent(flows: Any, op_id: str, value: Any) -> tuple[str, dict[str, Any]]:
    (planned,) = flows.dry_run(op_id, {"trigger_id": "t1", "view": value})
    return planned.url, dict(planned.headers)


@pytest.mark.parametrize(("op_id", "where", "style", "explode"), CASES, ids=[c[0] for c in CASES])
def test_an_object_for_a_string_parameter_is_its_json_text(
    client: tuple[Any, OpenAPIServer], op_id: str, where: str, style: str, explode: bool
) -> None:
    flows, _ = client
    url, headers = _sent(flows, op_id, VIEW)
    parts = urlsplit(url)
    query = parse_qsl(parts.query, keep_blank_values=True)
    if where == "query":
        # one `view`, the JSON text, beside trigger_id: never the members under their names
        assert query == [("trigger_id", "t1"), ("view", VIEW_TEXT)], url
    else:
        assert query == [("trigger_id", "t1")]
    if where == "path":
        segment = unquote(parts.path.rsplit("/", 1)[1])
        prefix = {"simple": "", "label": ".", "matrix": ";view="}[style]
        assert segment == prefix + VIEW_TEXT
    if where == "header":
        assert headers["view"] == VIEW_TEXT
    if where == "cookie":  # masked in a dry run: sent to the server
        _, server = client
        before = len(server.requests)
        flows.run_flow(op_id, {"trigger_id": "t1", "view": VIEW})
        (request,) = server.requests[before:]
        assert {k: unquote(v) for k, v in request["cookies"].items()} == {"view": VIEW_TEXT}


@pytest.mark.parametrize(
    ("op_id", "schema", "value", "reason"), MISMATCHES, ids=[m[0] for m in MISMATCHES]
)
def test_a_value_the_declared_type_cannot_hold_is_refused(
    client: tuple[Any, OpenAPIServer], op_id: str, schema: dict[str, Any], value: Any, reason: str
) -> None:
    flows, server = client
    before = len(server.requests)
    for attempt in (flows.dry_run, flows.run_flow):
        with pytest.raises(FlowInputError) as caught:
            attempt(op_id, {"trigger_id": "t1", "view": value})
        assert str(caught.value) == (
            f"flow {op_id!r}: action 'act', parameter 'view' (query): {reason}"
        )
    assert len(server.requests) == before  # nothing sent


def test_a_string_for_a_string_parameter_is_sent_as_given(
    client: tuple[Any, OpenAPIServer],
) -> None:
    flows, _ = client
    url, _ = _sent(flows, "query_form_x", VIEW_TEXT)
    assert parse_qsl(urlsplit(url).query) == [("trigger_id", "t1"), ("view", VIEW_TEXT)]


def test_slack_views_open_sends_view_as_json_text(client: tuple[Any, OpenAPIServer]) -> None:
    """End to end: the server built from the document finds ``view``, a string, and it is the
    object's JSON."""
    flows, server = client
    before = len(server.requests)
    flows.run_flow("views_open", {"trigger_id": "t1", "view": VIEW})
    assert server.rejections == [], server.rejections
    (request,) = server.requests[before:]
    assert request["query"] == {"trigger_id": "t1", "view": VIEW_TEXT}
    assert json.loads(request["query"]["view"]) == VIEW
