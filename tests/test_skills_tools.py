"""Skills and flows as LLM tools, in one loop: a scripted OpenAI-format model (loopback) asks
for a skill (the provider kit, loopback) and a giphy flow (a loopback server built from giphy's
OpenAPI document); both run, their results go back to the model, sync and async. A skill's
failure reaches the model as the tool's error; the skill schema is the MCP server's."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import anyio
import pytest
from agentproto.flows import ApiKeyAuth, giphy
from agentproto.llm import AsyncLLMClient, LLMClient
from agentproto.mcp.tools import SkillTools
from agentproto.skills import (
    AsyncSkillsClient,
    SkillProvider,
    SkillsClient,
    skill_schema,
    skill_tool,
)
from agentproto.skills.models import InvocationRequest, SkillDescriptor

from tests.servers.loopback import serve
from tests.servers.openapi_server import OpenAPIServer
from tests.servers.scripted import Script, scripted_server
from tests.test_flows import openapi
from tests.test_llm_tool_loop import openai_calls, openai_message, sent

KEY = "sk-test-tools-0123456789"
USER = [{"role": "user", "content": "Translate 'hello' and find a cat GIF."}]


def provider(base_url: str) -> SkillProvider:
    kit = SkillProvider({"name": "Tools"}, base_url=base_url)

    @kit.skill(
        id="acme/translate",
        name="Translate",
        capability_type="api",
        description="Translate text into French",
        version="1.0.0",
        inputs=[
            {"name": "text", "type": "string", "required": True, "description": "the text"},
            {"name": "formal", "type": "boolean"},
        ],
    )
    async def translate(inputs: dict[str, Any], request: InvocationRequest) -> Any:
        if inputs["text"] == "boom":
            raise ValueError("hidden internals")
        return {"fr": "bonjour" if inputs["text"] == "hello" else "?"}

    return kit


@pytest.fixture(scope="module")
def skills_url() -> Iterator[str]:
    holder: dict[str, SkillProvider] = {}

    async def app(scope: Any, receive: Any, send: Any) -> None:
        await holder["kit"].app(scope, receive, send)

    with serve(app) as url:
        holder["kit"] = provider(url)
        yield url


@pytest.fixture(scope="module")
def giphy_url() -> Iterator[tuple[OpenAPIServer, str]]:
    server = OpenAPIServer(openapi("giphy"))
    with serve(server.app) as url:
        yield server, url


@pytest.fixture()
def model() -> Iterator[Script]:
    with scripted_server() as script:
        yield script


def script_model(model: Script) -> None:
    model.answer(
        openai_calls(
            ("c1", "acme_translate", '{"text": "hello"}'),
            ("c2", "search_gifs_flow", '{"q": "cats", "limit": 2}'),
            ("c3", "acme_translate", '{"text": "boom"}'),
            ("c4", "acme_translate", '{"txt": "typo"}'),
        ),
        openai_message({"role": "assistant", "content": "bonjour, and here is a cat"}),
    )


def check(model: Script, outcome: Any, giphy_server: OpenAPIServer) -> None:
    assert outcome.content == "bonjour, and here is a cat"
    runs = {r.call.id: r for r in outcome.runs}
    assert json.loads(runs["c1"].output) == {"fr": "bonjour"} and not runs["c1"].is_error
    assert not runs["c2"].is_error and "data" in json.loads(runs["c2"].output)
    assert runs["c3"].is_error and "ENDPOINT_UNREACHABLE" in runs["c3"].output
    assert "hidden internals" not in runs["c3"].output
    assert runs["c4"].is_error and "invalid arguments" in runs["c4"].output
    # the results went back to the model, in the second chat
    second = sent(model, 1)
    results = [message for message in second["messages"] if message["role"] == "tool"]
    assert [r["tool_call_id"] for r in results] == ["c1", "c2", "c3", "c4"]
    assert json.loads(results[0]["content"]) == {"fr": "bonjour"}
    # both tools were offered with their schemas
    offered = {t["function"]["name"]: t["function"] for t in sent(model, 0)["tools"]}
    assert offered["acme_translate"]["parameters"]["required"] == ["text"]
    assert "q" in offered["search_gifs_flow"]["parameters"]["properties"]
    assert giphy_server.requests and giphy_server.requests[-1]["query"]["q"] == "cats"


def test_a_model_drives_a_skill_and_a_flow_in_one_loop_sync(
    model: Script, skills_url: str, giphy_url: tuple[OpenAPIServer, str]
) -> None:
    server, url = giphy_url
    script_model(model)
    auth = {"giphy": ApiKeyAuth("api_key", "giphy-key", location="query")}
    with (
        SkillsClient(timeout=10) as skills,
        giphy.GiphyFlows(auth=auth, base_urls={"giphy": url}) as flows,
        LLMClient("openai", api_key=KEY, base_url=model.base_url + "/v1") as llm,
    ):
        translate = skills.get_descriptor(f"{skills_url}/skills/acme%2Ftranslate/descriptor")
        tools = [skill_tool(skills, translate, timeout=10), *flows.function_tools()]
        outcome = llm.run_tools(USER, tools=tools, model="m")
    check(model, outcome, server)


def test_a_model_drives_a_skill_and_a_flow_in_one_loop_async(
    model: Script, skills_url: str, giphy_url: tuple[OpenAPIServer, str]
) -> None:
    server, url = giphy_url
    script_model(model)
    auth = {"giphy": ApiKeyAuth("api_key", "giphy-key", location="query")}

    async def main() -> Any:
        async with (
            AsyncSkillsClient(timeout=10) as skills,
            giphy.AsyncGiphyFlows(auth=auth, base_urls={"giphy": url}) as flows,
            AsyncLLMClient("openai", api_key=KEY, base_url=model.base_url + "/v1") as llm,
        ):
            translate = await skills.get_descriptor(
                f"{skills_url}/skills/acme%2Ftranslate/descriptor"
            )
            tools = [skill_tool(skills, translate, timeout=10), *flows.function_tools()]
            return await llm.run_tools(USER, tools=tools, model="m")

    check(model, anyio.run(main), server)


def test_the_skill_schema_is_the_mcp_servers(skills_url: str) -> None:
    with SkillsClient(timeout=10) as skills:
        translate = skills.get_descriptor(f"{skills_url}/skills/acme%2Ftranslate/descriptor")
    schema = skill_schema(translate)
    assert schema == {
        "type": "object",
        "properties": {
            "text": {"type": "string", "description": "the text"},
            "formal": {"type": "boolean"},
        },
        "required": ["text"],
        "additionalProperties": False,
    }
    tools = SkillTools(AsyncSkillsClient(), [translate])
    assert dict(tools.tools()[0].input_schema) == schema
    assert isinstance(translate, SkillDescriptor)
