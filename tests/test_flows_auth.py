"""Credentials an OpenAPI declares as operation parameters or security schemes are filled from
the source's auth: every operation of this API requires a ``token`` header or query parameter
(as Slack's does), and the caller only gives ``BearerAuth`` or ``ApiKeyAuth``."""

from __future__ import annotations

import copy
from typing import Any, ClassVar

import pytest
from agentproto._runtime.flows import SyncFlows
from agentproto.flows import ApiKeyAuth, BasicAuth, BearerAuth, FlowInputError

from codegen.flows.plan import plan_bundle
from tests.servers.loopback import serve
from tests.servers.openapi_server import OpenAPIServer


def _op(operation_id: str, token_in: str, extra: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "operationId": operation_id,
        "parameters": [
            {"name": "token", "in": token_in, "required": True, "schema": {"type": "string"}},
            *extra,
        ],
        "responses": {
            "200": {
                "description": "ok",
                "content": {
                    "application/json": {
                        "schema": {
                            "type": "object",
                            "properties": {"ok": {"type": "boolean"}, "ts": {"type": "string"}},
                        }
                    }
                },
            }
        },
    }


CHAT_API: dict[str, Any] = {
    "openapi": "3.0.0",
    "info": {"title": "Chat", "version": "1"},
    "servers": [{"url": "https://chat.example/api"}],
    "paths": {
        "/chat.postMessage": {
            "post": _op(
                "chat_postMessage",
                "header",
                [
                    {
                        "name": "channel",
                        "in": "query",
                        "required": True,
                        "schema": {"type": "string"},
                    }
                ],
            )
        },
        "/reactions.add": {
            "post": _op(
                "reactions_add",
                "query",
                [
                    {
                        "name": "timestamp",
                        "in": "query",
                        "required": True,
                        "schema": {"type": "string"},
                    }
                ],
            )
        },
    },
}

BUNDLE: dict[str, Any] = {
    "agentsJson": "0.1.0",
    "info": {"title": "Chat", "version": "1", "description": "Token parameters."},
    "sources": [{"id": "chat", "path": "https://example.invalid/chat.yaml"}],
    "flows": [
        {
            "id": "chat_postMessage",
            "title": "Post and react",
            "description": "Post a message, then react to it.",
            "actions": [
                {"id": "post", "sourceId": "chat", "operationId": "chat_postMessage"},
                {"id": "react", "sourceId": "chat", "operationId": "reactions_add"},
            ],
            "links": [
                {
                    "origin": {"actionId": "chat_postMessage", "fieldPath": "parameters.channel"},
                    "target": {"actionId": "post", "fieldPath": "parameters.channel"},
                },
                {
                    "origin": {"actionId": "post", "fieldPath": "responses.success.ts"},
                    "target": {"actionId": "react", "fieldPath": "parameters.timestamp"},
                },
            ],
            "fields": {
                "parameters": [
                    {"name": "channel", "type": "string", "required": True, "description": "C."}
                ]
            },
        }
    ],
}


def flows_class(api: dict[str, Any], bundle: dict[str, Any]) -> tuple[type[SyncFlows], list[str]]:
    warnings: list[str] = []
    plan = plan_bundle(
        "chat", bundle, {"chat": api}, "chat", warn=lambda f, p, r: warnings.append(r)
    )

    class ChatFlows(SyncFlows):
        PLAN = plan

    return ChatFlows, warnings


@pytest.mark.parametrize(
    ("auth", "secret"),
    [
        (BearerAuth("xoxb-bearer"), "xoxb-bearer"),
        (ApiKeyAuth("X-Api-Key", "key-123"), "key-123"),
        (ApiKeyAuth("api_key", "key-q", location="query"), "key-q"),
    ],
    ids=["bearer", "api_key_header", "api_key_query"],
)
def test_token_parameters_are_filled_from_the_auth(auth: Any, secret: str) -> None:
    cls, warnings = flows_class(CHAT_API, BUNDLE)
    assert not [w for w in warnings if "every call fails" in w], warnings
    plan_method = cls.PLAN["flows"][0]["name"]
    assert plan_method == "chat_post_message"  # snake_case; the wire id stays
    assert cls.PLAN["flows"][0]["id"] == "chat_postMessage"
    server = OpenAPIServer(CHAT_API)
    server.responses["chat_postMessage"] = {"ok": True, "ts": "1712.0001"}
    with serve(server.app) as url, cls(auth={"chat": auth}, base_urls={"chat": url}) as client:
        client.run_flow("chat_post_message", {"channel": "C42"})
    post, react = server.requests
    assert server.rejections == []
    assert post["headers"]["token"] == secret and post["query"]["channel"] == "C42"
    assert (react["query"]["token"], react["query"]["timestamp"]) == (secret, "1712.0001")
    assert "token" not in post["query"] and "token" not in react["headers"]
    assert secret not in repr(auth)


def test_an_explicit_token_input_wins_and_no_auth_is_refused_before_sending() -> None:
    bundle = copy.deepcopy(BUNDLE)
    flow = bundle["flows"][0]
    flow["fields"]["parameters"].append(
        {"name": "token", "type": "string", "required": True, "description": "Token."}
    )
    flow["links"].append(
        {
            "origin": {"actionId": None, "fieldPath": "parameters.token"},
            "target": {"actionId": "post", "fieldPath": "parameters.token"},
        }
    )
    cls, _ = flows_class(CHAT_API, bundle)
    (token,) = [i for i in cls.PLAN["flows"][0]["inputs"] if i["wire"] == "token"]
    assert token["required"] is False and "credential" in token["description"]
    server = OpenAPIServer(CHAT_API)
    with serve(server.app) as url:
        with cls(auth={"chat": BearerAuth("from-auth")}, base_urls={"chat": url}) as client:
            client.run_flow("chat_postMessage", {"channel": "C1", "token": "explicit"})
        with cls(base_urls={"chat": url}) as client, pytest.raises(FlowInputError, match="token"):
            client.run_flow("chat_postMessage", {"channel": "C1"})
    post, react = server.requests  # the refused run sent nothing
    assert post["headers"]["token"] == "explicit" and react["query"]["token"] == "from-auth"


def test_security_scheme_keys_are_filled_and_checked() -> None:
    api = copy.deepcopy(CHAT_API)
    for item in api["paths"].values():
        item["post"]["parameters"] = item["post"]["parameters"][1:]  # no token parameter
    api["components"] = {
        "securitySchemes": {"tok": {"type": "apiKey", "name": "token", "in": "query"}}
    }
    api["security"] = [{"tok": []}]
    cls, _ = flows_class(api, BUNDLE)
    server = OpenAPIServer(api)
    server.responses["chat_postMessage"] = {"ts": "9"}
    with serve(server.app) as url:
        with cls(auth={"chat": BearerAuth("b-1")}, base_urls={"chat": url}) as client:
            client.run_flow("chat_postMessage", {"channel": "C"})
        with cls(auth={"chat": BasicAuth("u", "p")}, base_urls={"chat": url}) as client:
            with pytest.raises(FlowInputError, match=r"token \(query\)"):
                client.run_flow("chat_postMessage", {"channel": "C"})
    assert [r["query"]["token"] for r in server.requests] == ["b-1", "b-1"]
    assert server.rejections == []


def test_a_flow_that_cannot_be_called_is_a_build_warning() -> None:
    api = copy.deepcopy(CHAT_API)
    api["paths"]["/reactions.add"]["post"]["parameters"].append(
        {"name": "X-Signature", "in": "header", "required": True, "schema": {"type": "string"}}
    )
    cls, warnings = flows_class(api, BUNDLE)
    assert warnings == [
        "action 'react' needs parameter 'X-Signature' (header) and no link or auth gives it: "
        "every call fails"
    ]
    server = OpenAPIServer(api)
    server.responses["chat_postMessage"] = {"ts": "1"}
    with serve(server.app) as url:
        with cls(auth={"chat": BearerAuth("t")}, base_urls={"chat": url}) as client:
            with pytest.raises(FlowInputError, match="X-Signature"):
                client.run_flow("chat_postMessage", {"channel": "C"})
    assert [r["operationId"] for r in server.requests] == ["chat_postMessage"]


def test_a_security_scheme_no_auth_can_send_is_a_build_warning() -> None:
    api = copy.deepcopy(CHAT_API)
    api["components"] = {"securitySchemes": {"c": {"type": "mutualTLS"}}}
    api["paths"]["/chat.postMessage"]["post"]["security"] = [{"c": []}]
    cls, warnings = flows_class(api, BUNDLE)
    assert any("security scheme 'c' (mutualtls) cannot be sent" in w for w in warnings), warnings
    assert any("no security alternative" in w and "every call fails" in w for w in warnings)
    with cls(auth={"chat": BearerAuth("t")}, base_urls={"chat": "http://127.0.0.1:9"}) as c:
        with pytest.raises(FlowInputError, match="needs auth"):
            c.run_flow("chat_postMessage", {"channel": "C"})  # refused: nothing is sent


def test_a_token_parameter_besides_an_oauth_scheme_is_filled_too() -> None:
    """Slack's shape: every operation has an OAuth 2 security scheme *and* a required ``token``
    parameter; ``BearerAuth`` meets the scheme and fills the parameter."""
    api = copy.deepcopy(CHAT_API)
    api["components"] = {
        "securitySchemes": {
            "slackAuth": {
                "type": "oauth2",
                "flows": {
                    "authorizationCode": {
                        "authorizationUrl": "https://x",
                        "tokenUrl": "https://y",
                        "scopes": {},
                    }
                },
            }
        }
    }
    api["security"] = [{"slackAuth": []}]
    cls, warnings = flows_class(api, BUNDLE)
    assert warnings == []
    server = OpenAPIServer(api)
    server.responses["chat_postMessage"] = {"ts": "5"}
    with serve(server.app) as url:
        with cls(auth={"chat": BearerAuth("xoxb-9")}, base_urls={"chat": url}) as client:
            client.run_flow("chat_postMessage", {"channel": "C"})
    post, react = server.requests
    assert (
        post["headers"]["authorization"] == "Bearer xoxb-9" == "Bearer " + post["headers"]["token"]
    )
    assert react["query"]["token"] == "xoxb-9"
    assert server.rejections == []


def test_a_credential_under_a_plain_name_never_shows_in_errors() -> None:
    """A bearer token sent in an API-key query slot named ``appid`` (and an ``ApiKeyAuth`` named
    ``client``): the name does not look like a credential, yet the error message, its cause
    and the URL it shows mask the value."""
    import httpx
    from agentproto.flows import FlowHTTPError

    def action(name: str) -> dict[str, Any]:
        return {
            "id": "k",
            "source": "s",
            "method": "GET",
            "path": "/k",
            "server": "http://x",
            "params": [],
            "body": None,
            "security": [[{"type": "apiKey", "name": name, "in": "query"}]],
        }

    def flow(name: str) -> dict[str, Any]:
        return {
            "id": name,
            "name": name,
            "title": "",
            "description": "",
            "inputs": [],
            "body_variants": [],
            "actions": [action(name)],
            "links": [],
            "result_fields": [],
        }

    class Flows(SyncFlows):
        PLAN: ClassVar[dict[str, Any]] = {
            "bundle": "b",
            "title": "t",
            "sources": ["s"],
            "flows": [flow("appid"), flow("client")],
        }

    sent: list[str] = []

    def refuse(request: httpx.Request) -> httpx.Response:
        sent.append(str(request.url))
        return httpx.Response(401, json={})

    for name, auth in (
        ("appid", BearerAuth("TOKEN-SECRET-1")),
        ("client", ApiKeyAuth("client", "TOKEN-SECRET-2", location="query")),
    ):
        client = Flows(
            auth={"s": auth},
            http_client=httpx.Client(transport=httpx.MockTransport(refuse)),
            retry=None,
        )
        with client, pytest.raises(FlowHTTPError) as caught:
            client.run_flow(name, {})
        assert "TOKEN-SECRET" in sent[-1]  # sent where the API wants it...
        shown = f"{caught.value} {caught.value!r} {caught.value.cause} {caught.value.cause!r}"
        assert "TOKEN-SECRET" not in shown and f"{name}=**" in shown  # ...and masked when shown
