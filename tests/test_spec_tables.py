"""Spec tables: every protocol's table loads; ACP's method table comes from the schema."""

from __future__ import annotations

import pytest

from codegen.ir import Protocol
from codegen.pipeline import Layout, load_protocols
from tests.conftest import ROOT

# The 25 stable v1 methods (shared/specs/acp/SOURCE.md), with the side that handles them.
ACP_STABLE = {
    ("agent", "initialize"),
    ("agent", "authenticate"),
    ("agent", "logout"),
    ("agent", "session/new"),
    ("agent", "session/load"),
    ("agent", "session/list"),
    ("agent", "session/delete"),
    ("agent", "session/resume"),
    ("agent", "session/close"),
    ("agent", "session/set_mode"),
    ("agent", "session/set_config_option"),
    ("agent", "session/prompt"),
    ("agent", "session/cancel"),
    ("client", "fs/read_text_file"),
    ("client", "fs/write_text_file"),
    ("client", "session/request_permission"),
    ("client", "session/update"),
    ("client", "terminal/create"),
    ("client", "terminal/output"),
    ("client", "terminal/release"),
    ("client", "terminal/wait_for_exit"),
    ("client", "terminal/kill"),
    ("client", "elicitation/create"),
    ("client", "elicitation/complete"),
    ("protocol", "$/cancel_request"),
}


@pytest.fixture(scope="module")
def protocols() -> dict[str, Protocol]:
    return {p.id: p for p in load_protocols(Layout.for_root(ROOT))}


def test_all_five_protocols_load(protocols: dict[str, Protocol]) -> None:
    assert set(protocols) == {"acp", "aap", "skills", "agents_json", "ai_protocol"}
    assert {p.package for p in protocols.values()} == {"acp", "aap", "skills", "flows", "llm"}


def test_acp_method_table_is_derived_from_x_method(protocols: dict[str, Protocol]) -> None:
    acp = protocols["acp"]
    stable = {(op.group, op.rpc) for op in acp.operations if not op.unstable}
    assert stable == ACP_STABLE
    by_rpc = {op.rpc: op for op in acp.operations if not op.unstable}
    assert by_rpc["session/prompt"].request == "PromptRequest"
    assert by_rpc["session/prompt"].response == "PromptResponse"
    assert by_rpc["session/prompt"].direction == "client_to_server"
    assert by_rpc["session/update"].notification and by_rpc["session/update"].response is None
    assert by_rpc["fs/read_text_file"].direction == "server_to_client"
    assert by_rpc["$/cancel_request"].direction == "both"
    unstable = {op.rpc for op in acp.operations if op.unstable}
    assert {"session/fork", "providers/list"} <= unstable


def test_aap_has_its_seven_endpoints(protocols: dict[str, Protocol]) -> None:
    endpoints = {(op.http_method, op.http_path) for op in protocols["aap"].operations}
    assert len(endpoints) == 7
    assert ("GET", "/meta") in endpoints
    assert sum(1 for _, path in endpoints if path and path.endswith("/turns")) == 1


def test_skills_errors_are_the_seven_codes(protocols: dict[str, Protocol]) -> None:
    codes = {e.code for e in protocols["skills"].errors}
    assert codes == {
        "VALIDATION_ERROR",
        "AUTH_REQUIRED",
        "PERMISSION_DENIED",
        "SKILL_NOT_FOUND",
        "INVOCATION_TIMEOUT",
        "ENDPOINT_UNREACHABLE",
        "VERSION_INCOMPATIBLE",
    }


def test_bundles_and_manifests_become_operations(protocols: dict[str, Protocol]) -> None:
    flows = protocols["agents_json"].operations
    assert {op.group for op in flows} == {
        "alpaca",
        "giphy",
        "hubspotcontacts",
        "linkup",
        "resend",
        "theodds",
    }
    providers = {op.group for op in protocols["ai_protocol"].operations}
    assert len(providers) == 19 and {"openai", "anthropic", "gemini"} <= providers
