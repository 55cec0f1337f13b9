"""``python -m agentproto.mcp`` driven by the official MCP Python SDK's client (``mcp`` 2.3):
the flows of a shipped bundle and of a bundle loaded at start-up, and the skills a Skill
Sharing discovery finds (examples/skills_provider.py, the package's provider kit), listed and
called over stdio and over Streamable HTTP, on loopback servers built from the bundles' own
OpenAPI documents. The credentials are the operator's (environment variables named on the
command line); no tool takes one as an argument."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import httpx
import httpx2
import pytest
import yaml
from agentproto.flows import AsyncBundleFlows, giphy
from agentproto.mcp import FlowTools, Toolbox, build_server
from mcp import Client, StdioServerParameters
from mcp.client.streamable_http import streamable_http_client

from tests.conftest import GENERATED, ROOT
from tests.servers.loopback import serve
from tests.servers.openapi_server import OpenAPIServer

BUNDLES = ROOT / "schemas" / "agents_json" / "bundles"
GIPHY_KEY = "giphy-operator-key-31"
ODDS_KEY = "odds-operator-key-47"
TEXT_KEY = "demo-key"  # examples/skills_provider.py's key


def spec(bundle: str) -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load((BUNDLES / bundle / "openapi.yaml").read_text())
    return loaded


@pytest.fixture(scope="module")
def peers() -> Iterator[dict[str, Any]]:
    """giphy's and theodds' APIs (loopback, from their OpenAPI) and the example provider."""
    giphy_api, odds_api = OpenAPIServer(spec("giphy")), OpenAPIServer(spec("theodds"))
    with (
        serve(giphy_api.app) as giphy_url,
        serve(odds_api.app) as odds_url,
        subprocess.Popen(
            [sys.executable, str(ROOT / "examples" / "skills_provider.py"), "--port", "0"],
            env={**os.environ, "PYTHONPATH": str(GENERATED)},
            stdout=subprocess.PIPE,
            text=True,
        ) as provider,
    ):
        try:
            assert provider.stdout is not None
            provider_url = provider.stdout.readline().strip()
            assert provider_url.startswith("http://127.0.0.1:")
            yield {
                "giphy": (giphy_api, giphy_url),
                "theodds": (odds_api, odds_url),
                "provider": provider_url,
            }
        finally:
            provider.terminate()


def arguments(peers: dict[str, Any], *extra: str) -> list[str]:
    giphy_url, odds_url, provider = peers["giphy"][1], peers["theodds"][1], peers["provider"]
    return [
        "-m",
        "agentproto.mcp",
        "--bundle",
        "giphy",
        "--agents-json",
        str(BUNDLES / "theodds" / "agents.json"),
        "--openapi",
        f"theodds={BUNDLES / 'theodds' / 'openapi.yaml'}",
        "--auth",
        "giphy=query:api_key:env:GIPHY_KEY",
        "--auth",
        "theodds=query:apiKey:env:ODDS_KEY",
        "--base-url",
        f"giphy={giphy_url}",
        "--base-url",
        f"theodds={odds_url}",
        "--skills",
        provider,
        "--skills-auth",
        f"{provider}=api_key:env:TEXT_KEY",
        *extra,
    ]


def environment(**extra: str) -> dict[str, str]:
    return {
        "PYTHONPATH": str(GENERATED),
        "GIPHY_KEY": GIPHY_KEY,
        "ODDS_KEY": ODDS_KEY,
        "TEXT_KEY": TEXT_KEY,
        **extra,
    }


async def exercise(client: Client, peers: dict[str, Any]) -> dict[str, Any]:
    """List the tools, call one of each kind, and return what was seen."""
    tools = {tool.name: tool for tool in (await client.list_tools()).tools}
    seen: dict[str, Any] = {"tools": tools}
    seen["search"] = await client.call_tool("giphy_search_gifs_flow", {"q": "cats", "limit": 2})
    seen["sports"] = await client.call_tool("the_odds_api_methods_theodds_get_v4_sports_flow", {})
    seen["count"] = await client.call_tool("text_word-count", {"text": "one two three"})
    seen["shout"] = await client.call_tool("text_shout", {"text": "hi"})
    seen["bad"] = await client.call_tool("giphy_search_gifs_flow", {"limit": "many"})
    seen["key"] = await client.call_tool("text_word-count", {"text": "x", "api_key": "stolen"})
    return seen


def check(seen: dict[str, Any], peers: dict[str, Any]) -> None:
    tools = seen["tools"]
    assert {"giphy_search_gifs_flow", "text_word-count", "text_shout"} <= set(tools)
    assert (
        "the_odds_api_methods_theodds_get_v4_sports_flow" in tools
    )  # the bundle loaded at start-up
    search = tools["giphy_search_gifs_flow"]
    assert search.input_schema["required"] == ["q"]
    assert search.annotations.read_only_hint is True  # every action a GET
    for tool in tools.values():  # no credential is an argument a model could give
        assert not {"api_key", "apiKey", "token"} & set(tool.input_schema.get("properties", {}))
    assert seen["search"].is_error is False and "data" in seen["search"].structured_content
    assert seen["sports"].is_error is False
    assert seen["count"].structured_content == {"words": 3}
    assert seen["shout"].structured_content == {"result": "HI!"}  # restricted: the operator's key
    assert seen["bad"].is_error and "invalid arguments" in seen["bad"].content[0].text
    assert seen["key"].is_error and "api_key" in seen["key"].content[0].text
    giphy_api, odds_api = peers["giphy"][0], peers["theodds"][0]
    assert {r["query"]["api_key"] for r in giphy_api.requests[-1:]} == {GIPHY_KEY}
    assert odds_api.requests[-1]["query"]["apiKey"] == ODDS_KEY
    every_text = json.dumps([r.model_dump(mode="json") for k, r in seen.items() if k != "tools"])
    assert GIPHY_KEY not in every_text and ODDS_KEY not in every_text


def test_over_stdio(peers: dict[str, Any]) -> None:
    server = StdioServerParameters(
        command=sys.executable, args=arguments(peers), env=environment(), cwd=str(ROOT)
    )

    async def main() -> dict[str, Any]:
        async with Client(server) as client:
            return await exercise(client, peers)

    check(anyio.run(main), peers)


def test_over_streamable_http_with_a_bearer_token(peers: dict[str, Any]) -> None:
    command = [
        sys.executable,
        *arguments(peers, "--transport", "http", "--port", "0", "--http-token", "env:MCP_TOKEN"),
    ]
    env = {**os.environ, **environment(MCP_TOKEN="mcp-token-88")}
    with subprocess.Popen(command, env=env, cwd=ROOT, stdout=subprocess.PIPE, text=True) as proc:
        try:
            assert proc.stdout is not None
            url = proc.stdout.readline().strip()
            assert url.startswith("http://127.0.0.1:") and url.endswith("/mcp"), url
            refused = httpx.post(url, json={"jsonrpc": "2.0", "id": 1, "method": "ping"})
            assert refused.status_code == 401

            async def main() -> dict[str, Any]:
                headers = {"Authorization": "Bearer mcp-token-88"}
                async with httpx2.AsyncClient(headers=headers, timeout=30) as http:
                    async with Client(streamable_http_client(url, http_client=http)) as client:
                        return await exercise(client, peers)

            check(anyio.run(main), peers)
        finally:
            proc.terminate()
            proc.wait(timeout=10)


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--bundle", "giphy", "--auth", "giphy=bearer:sk-literal"], "must be a reference"),
        (["--bundle", "nope"], "no bundle 'nope' ships"),
        (["--bundle", "giphy", "--auth", "giphy=bearer:env:UNSET_VAR_31"], "UNSET_VAR_31"),
        ([], "nothing to serve"),
    ],
)
def test_operator_mistakes_are_refused_before_serving(argv: list[str], words: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "agentproto.mcp", *argv],
        env={**os.environ, "PYTHONPATH": str(GENERATED)},
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 2, done.stderr
    assert words in done.stderr and "sk-literal" not in done.stderr


def test_flow_errors_are_tool_errors_in_process() -> None:
    """The Python API, in process: a flow that cannot run (its source's auth is missing) is
    an ``isError`` result naming the flow and what it needs, refused before sending; nothing
    else of the exception reaches the model."""
    api = OpenAPIServer(spec("giphy"))

    async def main(url: str) -> Any:
        flows = AsyncBundleFlows(giphy.PLAN, base_urls={"giphy": url})  # no auth given
        server = build_server(Toolbox([FlowTools(flows)]))
        try:
            async with Client(server) as client:
                return await client.call_tool("giphy_search_gifs_flow", {"q": "cats"})
        finally:
            await flows.aclose()

    with serve(api.app) as url:
        result = anyio.run(main, url)
    assert result.is_error
    text = result.content[0].text
    assert "search_gifs_flow" in text and "needs parameter 'api_key' (query)" in text
    assert "Traceback" not in text and api.requests == []  # refused before sending


def test_every_tool_name_is_one_any_client_accepts(tmp_path: Path) -> None:
    from agentproto.mcp.tools import tool_name

    long = tool_name("a-very-long-prefix_", "x" * 80)
    assert len(long) == 64 and long == tool_name("a-very-long-prefix_", "x" * 80)
    assert tool_name("text_", "text/word count") == "text_text_word_count"
