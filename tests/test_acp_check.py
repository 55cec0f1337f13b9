"""The ACP conformance checker (agentproto.acp.check) against real agents over stdio: ours,
one on the official SDK, and a deliberately broken one that fails exactly the rules it breaks."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path

import pytest
from agentproto.acp.check import CheckOptions, check_agent

ROOT = Path(__file__).resolve().parent.parent
PEERS = ROOT / "tests" / "acp_peers"
SCRIPTED = CheckOptions(timeout=10.0, prompt="hello 2", cancel_prompt="slow")

AGENTS = {
    "example echo agent": ([sys.executable, str(ROOT / "examples" / "acp_echo_agent.py")], None),
    "our scripted agent": ([sys.executable, str(PEERS / "our_agent.py")], SCRIPTED),
    "official SDK agent": ([sys.executable, str(PEERS / "official_agent.py")], SCRIPTED),
}


@pytest.fixture(autouse=True)
def _generated_on_path(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PYTHONPATH", str(ROOT / "generated"))  # the agents import agentproto


def failed(agent: str) -> tuple[dict[str, str], dict[str, str]]:
    command, options = AGENTS[agent]
    report = asyncio.run(check_agent(command, options))
    musts = {c.id: c.detail for c in report.checks if c.level == "MUST" and c.outcome == "fail"}
    others = {c.id: c.detail for c in report.checks if c.level != "MUST" and c.outcome == "fail"}
    passed = {c.id for c in report.checks if c.outcome == "pass"}
    assert {"init.answers", "session.new", "prompt.answers", "errors.unknown_method"} <= passed
    return musts, others


@pytest.mark.parametrize("agent", ["example echo agent", "our scripted agent"])
def test_our_agents_pass_every_must(agent: str) -> None:
    musts, _ = failed(agent)
    assert musts == {}


def test_the_official_sdk_agent_passes_every_must_but_the_parse_error() -> None:
    # agent-client-protocol 0.12.1 skips a line that is not JSON without an answer (JSON-RPC
    # 2.0 wants -32700), ends on a JSON scalar or a batch, takes a message without "jsonrpc",
    # and answers a prompt for a session it never made: the checker says so, rule by rule.
    musts, others = failed("official SDK agent")
    assert set(musts) == {"hostile.not_json"}
    assert set(others) == {
        "errors.unknown_session",
        "hostile.not_object",
        "hostile.batch",
        "hostile.no_jsonrpc",
    }


def test_a_broken_agent_fails_exactly_the_rules_it_breaks() -> None:
    command = [sys.executable, str(PEERS / "broken_agent.py")]
    report = asyncio.run(check_agent(command, SCRIPTED))
    assert sorted(report.failed()) == sorted(
        [
            "init.version",
            "prompt.updates.schema",
            "cancel.stop_reason",
            "capabilities.client_honoured",
            "errors.unknown_method",
            "hostile.not_json",
        ]
    )
    details = {c.id: c.detail for c in report.checks}
    assert details["init.version"] == "answered protocolVersion 2"
    assert details["capabilities.client_honoured"] == "called: fs/read_text_file"
    assert details["errors.unknown_method"] == "answered error -32603"


def test_the_command_line_exits_1_on_a_must_failure_and_prints_json() -> None:
    def run(agent: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [
                sys.executable,
                "-m",
                "agentproto.acp.check",
                "--json",
                "--prompt",
                "hello 1",
                "--cancel-prompt",
                "slow",
                "--",
                sys.executable,
                str(PEERS / agent),
            ],
            capture_output=True,
            text=True,
            timeout=60,
            cwd=ROOT,
            env={"PYTHONPATH": str(ROOT / "generated"), "PATH": "/usr/bin:/bin"},
        )

    good, bad = run("our_agent.py"), run("broken_agent.py")
    assert good.returncode == 0, good.stderr
    assert json.loads(good.stdout)["conformant"] is True
    assert bad.returncode == 1
    report = json.loads(bad.stdout)
    assert report["conformant"] is False
    assert report["summary"]["MUST"]["fail"] == 6


def test_an_agent_that_cannot_start_exits_2() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "agentproto.acp.check", "--", "/nonexistent/agent"],
        capture_output=True,
        text=True,
        timeout=30,
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT / "generated"), "PATH": "/usr/bin:/bin"},
    )
    assert done.returncode == 2
    assert "cannot reach the agent" in done.stderr
