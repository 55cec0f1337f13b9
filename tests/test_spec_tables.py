"""Spec tables: every protocol's table loads; ACP's method table comes from the schema."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from codegen.errors import BuildError
from codegen.ir import Protocol
from codegen.pipeline import Layout, load_protocols
from tests.conftest import PROTOCOL_FOLDERS, ROOT, copy_project

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
    return {p.key: p for p in load_protocols(Layout.for_root(ROOT))}


def test_every_protocol_folder_loads(protocols: dict[str, Protocol]) -> None:
    # ACP's v2 is an edition of its spec table: a protocol of its own, in acp/v2.
    assert set(protocols) == {*PROTOCOL_FOLDERS, "acp.v2"}
    assert {"acp", "acp/v2", "aap", "skills", "flows", "llm", "a2a"} <= {
        p.package for p in protocols.values()
    }
    assert len({p.package for p in protocols.values()}) == len(protocols)
    assert protocols["acp.v2"].version == "2" and protocols["acp.v2"].edition == "v2"


def test_acp_v2_method_table_and_capabilities(protocols: dict[str, Protocol]) -> None:
    v2 = protocols["acp.v2"]
    stable = {op.rpc for op in v2.operations if not op.unstable}
    assert {"auth/login", "tool_call/cancel", "terminal/cancel", "session/prompt"} <= stable
    assert len({(op.group, op.rpc) for op in v2.operations if not op.unstable}) == 18
    assert v2.capabilities is not None
    assert v2.capabilities.request_field == "capabilities"
    assert ("session/delete", "session.delete") in v2.capabilities.methods
    v1 = protocols["acp"]
    assert v1.capabilities is not None
    assert ("session/load", "loadSession") in v1.capabilities.methods
    assert ("fs/read_text_file", "fs.readTextFile") in v1.capabilities.methods


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


def _acp_only(tmp_path: Path) -> Layout:
    """A scratch project holding ACP alone (its spec tables and schemas)."""
    layout = copy_project(tmp_path)
    for folder in layout.schemas.iterdir():
        if folder.name != "acp":
            shutil.rmtree(folder)
    return layout


@pytest.mark.parametrize(
    ("edit", "where", "reason"),
    [
        (
            ("    session/load: loadSession\n", "    session/load: loadSessions\n"),
            "/capabilities/methods/session~1load",
            "'loadSessions' is not a capability of 'AgentCapabilities'",
        ),
        (
            ("    session/load: loadSession\n", "    session/teleport: loadSession\n"),
            "/capabilities/methods/session~1teleport",
            "'session/teleport' is not a method of the schema",
        ),
        (
            ("editions: [spec.v2.yaml]", "editions: [spec.v3.yaml]"),
            "/editions/0",
            "no such file 'spec.v3.yaml'",
        ),
    ],
)
def test_a_bad_capability_or_edition_is_refused_at_its_pointer(
    tmp_path: Path, edit: tuple[str, str], where: str, reason: str
) -> None:
    layout = _acp_only(tmp_path)
    table = layout.schemas / "acp" / "spec.yaml"
    text = table.read_text()
    assert edit[0] in text
    table.write_text(text.replace(edit[0], edit[1], 1))
    with pytest.raises(BuildError) as error:
        load_protocols(layout)
    (problem,) = error.value.problems
    assert problem.file.endswith("acp/spec.yaml") and problem.pointer == where
    assert reason in problem.reason
