"""Bundles loaded at run time (``agentproto.flows.load_bundle``): the same planner as the build
(the plan equals the generated module's), the same requests as the generated client on
loopback servers built from the bundles' own OpenAPI documents, documents read from files and
URLs, and every failure a ``FlowBundleError``."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import anyio
import pytest
import yaml
from agentproto._runtime.flows_plan import expand
from agentproto.flows import (
    ApiKeyAuth,
    AsyncBundleFlows,
    BearerAuth,
    BundleFlows,
    FlowBundleError,
    FlowError,
    FlowInputError,
    aload_bundle,
    giphy,
    hubspotcontacts,
    load_bundle,
    resend,
    theodds,
)
from starlette.staticfiles import StaticFiles

from tests.conftest import ROOT
from tests.servers.loopback import serve
from tests.servers.openapi_server import OpenAPIServer
from tests.test_flows import arguments as seed_arguments
from tests.test_flows_upstream import arguments

BUNDLES = ROOT / "schemas" / "agents_json" / "bundles"
SHIPPED: dict[str, tuple[ModuleType, Any]] = {
    "giphy": (giphy, {"giphy": ApiKeyAuth("api_key", "gk-1", location="query")}),
    "resend": (resend, {"resend": BearerAuth("re-1")}),
    "hubspotcontacts": (hubspotcontacts, {"hubspotcontacts": BearerAuth("hs-1")}),
    "theodds": (theodds, {"theodds": BearerAuth("odds-1")}),
}
UNCALLABLE = {"theodds_get_v4_historical_sports_events_odds_flow", "parlay_validation_compound"}
VOLATILE = {"user-agent", "content-length", "host", "accept-encoding", "connection", "accept"}


def sources(bundle: str) -> dict[str, Path]:
    mapping = yaml.safe_load((BUNDLES / bundle / "bundle.yaml").read_text())["sources"]
    return {sid: BUNDLES / bundle / local for sid, local in mapping.items()}


def loaded(bundle: str, **options: Any) -> BundleFlows:
    return load_bundle(BUNDLES / bundle / "agents.json", sources(bundle), name=bundle, **options)


def shape(record: dict[str, Any]) -> dict[str, Any]:
    """A recorded request, less what differs between any two clients (user agent, sizes)."""
    return {
        "operationId": record["operationId"],
        "method": record["method"],
        "path": record["path"],
        "raw_query": record["raw_query"],
        "headers": {k: v for k, v in record["headers"].items() if k not in VOLATILE},
        "body": record["body"],
        "form": record["form"],
    }


@pytest.mark.parametrize("bundle", sorted(SHIPPED))
def test_the_loaded_plan_is_the_generated_plan(bundle: str) -> None:
    """One planner: the plan made at run time equals the one the build embedded."""
    module, _ = SHIPPED[bundle]
    with loaded(bundle) as client:
        assert client.plan == expand(module.PLAN)
        assert client.tools == module.TOOLS
        assert client.flow_names == [f["id"] for f in module.PLAN["flows"]]


@pytest.mark.parametrize("bundle", sorted(SHIPPED))
def test_the_loaded_client_sends_the_generated_clients_requests(bundle: str) -> None:
    module, auth = SHIPPED[bundle]
    (source,) = sources(bundle)
    spec = yaml.safe_load(sources(bundle)[source].read_text())
    server = OpenAPIServer(spec)
    server.responses["hubspotcontacts_get_contact"] = {"id": "c-77", "properties": {}}
    plan = expand(module.PLAN)
    with serve(server.app) as url:
        base = {source: url}
        generated = getattr(module, f"{module.__name__.rsplit('.', 1)[1].capitalize()}Flows")
        with (
            generated(auth=auth, base_urls=base) as typed,
            loaded(bundle, auth=auth, base_urls=base) as untyped,
        ):
            runs = 0
            for flow in plan["flows"]:
                if flow["id"] in UNCALLABLE:
                    continue
                # values each bundle's own tests know its server accepts
                args = (seed_arguments if bundle in ("giphy", "resend") else arguments)(flow, plan)
                before = len(server.requests)
                getattr(typed, flow["name"])(**args)
                middle = len(server.requests)
                untyped.run_flow(flow["id"], args)
                first = [shape(r) for r in server.requests[before:middle]]
                second = [shape(r) for r in server.requests[middle:]]
                assert first and first == second, flow["id"]
                runs += 1
    assert server.rejections == []
    assert runs == len(plan["flows"]) - len(UNCALLABLE & {f["id"] for f in plan["flows"]})


def test_the_same_checks_and_errors() -> None:
    with loaded("theodds", auth={"theodds": BearerAuth("t")}) as client:
        with pytest.raises(FlowInputError, match="missing required inputs"):
            client.run_flow("theodds_get_v4_sports_odds_flow", {})
        plan = client.plan
        flow = next(f for f in plan["flows"] if f["id"] == "parlay_validation_compound")
        with pytest.raises(FlowInputError, match="no link gives it"):  # the build's warning
            client.run_flow(flow["id"], arguments(flow, plan))
        assert any("every call fails" in kind for kind, _ in client.warnings)


@pytest.fixture(scope="module")
def hosted(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """giphy's bundle on a loopback file server, its source path relative (as a marketplace
    would host it), plus documents to refuse."""
    folder = tmp_path_factory.mktemp("hosted")
    document = json.loads((BUNDLES / "giphy" / "agents.json").read_text())
    document["sources"][0]["path"] = "specs/openapi.yaml"
    (folder / "agents.json").write_text(json.dumps(document))
    (folder / "specs").mkdir()
    shutil.copy(BUNDLES / "giphy" / "openapi.yaml", folder / "specs" / "openapi.yaml")
    bomb = ['a0: &a0 ["lol"]']
    for i in range(1, 10):
        refs = ", ".join([f"*a{i - 1}"] * 10)
        bomb.append(f"a{i}: &a{i} [{refs}]")
    (folder / "bomb.yaml").write_text("\n".join(bomb) + "\n")
    (folder / "deep.json").write_text("[" * 100_000 + "]" * 100_000)
    (folder / "broken.json").write_text(json.dumps({**document, "flows": "nope"}))
    with serve(StaticFiles(directory=folder)) as url:
        yield url


def test_a_bundle_from_urls(hosted: str) -> None:
    server = OpenAPIServer(yaml.safe_load((BUNDLES / "giphy" / "openapi.yaml").read_text()))
    with (
        serve(server.app) as api,
        load_bundle(
            f"{hosted}/agents.json",
            name="giphy",
            auth={"giphy": ApiKeyAuth("api_key", "k-9", location="query")},
            base_urls={"giphy": api},
        ) as client,
    ):
        assert client.plan == expand(giphy.PLAN)
        result = client.run_flow("search_gifs_flow", {"q": "cats", "limit": 2})
    assert isinstance(result, dict) and "data" in result
    (record,) = server.requests
    assert record["query_items"] == [("q", "cats"), ("limit", "2"), ("api_key", "k-9")]


def test_async_loading(hosted: str) -> None:
    server = OpenAPIServer(yaml.safe_load((BUNDLES / "giphy" / "openapi.yaml").read_text()))

    async def main(api: str) -> Any:
        client = await aload_bundle(
            f"{hosted}/agents.json",
            auth={"giphy": ApiKeyAuth("api_key", "k-1", location="query")},
            base_urls={"giphy": api},
        )
        assert isinstance(client, AsyncBundleFlows)
        async with client:
            return await client.run_flow("get_trending_gifs_flow", {"limit": 1})

    with serve(server.app) as api:
        assert "data" in anyio.run(main, api)
    assert server.requests[0]["query"]["api_key"] == "k-1"


@pytest.mark.parametrize(
    ("where", "words"),
    [
        ("missing.json", "cannot fetch"),
        ("bomb.yaml", "YAML expands to more than"),
        ("deep.json", "nested too deeply"),
        ("broken.json", "/flows: 'nope' is not of type 'array'"),
    ],
)
def test_unusable_documents_are_flow_bundle_errors(hosted: str, where: str, words: str) -> None:
    with pytest.raises(FlowBundleError) as caught:
        load_bundle(f"{hosted}/{where}", {"giphy": {"openapi": "3.0.0", "paths": {}}})
    assert words in str(caught.value), str(caught.value)
    assert isinstance(caught.value, FlowError) and caught.value.problems


def test_limits_and_wrong_sources(tmp_path: Path, hosted: str) -> None:
    with pytest.raises(FlowBundleError, match="over the limit"):
        load_bundle(BUNDLES / "giphy" / "agents.json", max_document_bytes=100)
    with pytest.raises(FlowBundleError, match="more than 1000 bytes"):
        load_bundle(
            f"{hosted}/agents.json",
            {"giphy": f"{hosted}/specs/openapi.yaml"},
            max_document_bytes=1000,
        )
    with pytest.raises(FlowBundleError, match="sources the bundle does not have"):
        load_bundle(BUNDLES / "giphy" / "agents.json", {"nope": {}})
    with pytest.raises(FlowBundleError, match="cannot read"):
        load_bundle(tmp_path / "nothing.json")


def test_strict_loading_rejects_what_the_lenient_reading_accepts() -> None:
    with pytest.raises(FlowBundleError) as caught:
        loaded("theodds", strict=True)
    assert any(
        where.endswith("/flows/9/fields/parameters/0")
        and "Additional properties are not allowed ('items' was unexpected)" in reason
        for where, reason in caught.value.problems
    ), caught.value.problems


def test_a_broken_flow_is_left_out_of_a_loaded_bundle(tmp_path: Path) -> None:
    document = json.loads((BUNDLES / "giphy" / "agents.json").read_text())
    document["flows"][0]["links"][0]["target"]["fieldPath"] = "parameters.nonexistent"
    document["flows"][0]["links"][0]["target"]["actionId"] = "no_such_action"
    with load_bundle(document, sources("giphy")) as client:
        assert document["flows"][0]["id"] not in client.flow_names
        assert len(client.flow_names) == len(document["flows"]) - 1
        with pytest.raises(FlowInputError, match="left out when the bundle was read"):
            client.run_flow(document["flows"][0]["id"], {})
    with pytest.raises(FlowBundleError, match="unknown action 'no_such_action'"):
        load_bundle(document, sources("giphy"), strict=True)
