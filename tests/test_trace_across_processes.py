"""One agent turn is one trace across processes (issue 41): our AAP client (this process) ->
``python -m agentproto.aap.serve --acp-agent`` (a second process) -> the ACP agent it runs
(examples/acp_llm_agent.py, a third, over stdio; or behind ``python -m agentproto.acp.bridge``
over WebSocket, a fourth) -> its LLM calls (ai-protocol-mock) and the MCP server it was given
in session/new (another process). Each process exports its spans with the OpenTelemetry SDK
(tests/support/spans.py; this one with the in-memory exporter); the test finds one trace id and
the expected parent/child tree: W3C trace context in HTTP headers (AAP) and in ACP ``_meta``
(both ways: the agent's permission request is a child of its prompt), and in MCP's ``_meta``."""

from __future__ import annotations

import os
import shlex
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from agentproto._runtime.telemetry import configure_telemetry
from agentproto.aap import AAPClient, Session
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from tests.servers.mock_provider import MockProvider, start_mock_provider
from tests.support.spans import ENV, as_record, read_spans, tree

ROOT = Path(__file__).resolve().parent.parent
PYTHONPATH = f"{ROOT / 'generated'}:{ROOT}"


@pytest.fixture(scope="module")
def mock(tmp_path_factory: pytest.TempPathFactory) -> Iterator[MockProvider]:
    provider = start_mock_provider(tmp_path_factory.mktemp("mock"))
    try:
        yield provider
    finally:
        provider.stop()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def traced(service: str, *command: str) -> list[str]:
    return [sys.executable, "-m", "tests.support.spans", service, *command]


def wait_for(url: str, process: subprocess.Popen[bytes], seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        assert process.poll() is None, f"the server exited ({process.returncode})"
        try:
            if httpx.get(url, timeout=1, trust_env=False).status_code < 500:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.1)
    raise AssertionError(f"{url} did not answer")


def stop(process: subprocess.Popen[bytes]) -> None:
    process.terminate()
    try:
        process.wait(15)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(5)


def run_turn(mock: MockProvider, folder: Path, transport: str) -> list[dict[str, Any]]:
    """One AAP turn through the bridge; every process's spans."""
    env = {**os.environ, "PYTHONPATH": PYTHONPATH, ENV: str(folder)}
    mcp = shlex.join(
        [
            "/usr/bin/env",
            f"PYTHONPATH={PYTHONPATH}",
            f"{ENV}={folder}",
            *traced("mcp-server", "-m", "tests.servers.mcp_tools"),
        ]
    )
    agent = traced(
        "acp-agent",
        str(ROOT / "examples" / "acp_llm_agent.py"),
        "--base-url",
        mock.base_url + "/v1",
        "--model",
        "m",
        "--ask",
        "--header",
        "X-Mock-Tool-Calls:recursive",
        "--header",
        "X-Mock-Tool-Depth:2",
    )
    started: list[subprocess.Popen[bytes]] = []
    aap_port = free_port()
    if transport == "stdio":
        source = ["--acp-agent", shlex.join(agent)]
    else:
        acp_port = free_port()
        acp = subprocess.Popen(
            traced("acp-bridge", "-m", "agentproto.acp.bridge", "--port", str(acp_port), "--")
            + agent,
            env=env,
            cwd=ROOT,
        )
        started.append(acp)
        wait_for(f"http://127.0.0.1:{acp_port}/", acp)
        source = ["--acp-url", f"ws://127.0.0.1:{acp_port}/"]
    aap = subprocess.Popen(
        traced("aap-server", "-m", "agentproto.aap.serve")
        + source
        + [
            "--name",
            "coder",
            "--permissions",
            "allow",
            "--acp-cwd",
            str(ROOT),
            "--mcp-server",
            f"tools={mcp}",
            "--no-auth",
            "--store",
            f"sqlite:///{folder}/aap.db",
            "--port",
            str(aap_port),
            "--log-level",
            "warning",
        ],
        env=env,
        cwd=ROOT,
    )
    started.append(aap)
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    try:
        url = f"http://127.0.0.1:{aap_port}"
        wait_for(url + "/meta", aap)
        configure_telemetry(tracer_provider=provider)
        with AAPClient(url, api_key="unused", timeout=60) as client:
            session = Session.create(client, "coder", mode="delta")
            result = session.send("do the steps")
            assert result.stop_reason == "end_turn", result
            assert result.text == "Mock response from ai-protocol-mock"
            session.delete()
    finally:
        configure_telemetry()
        for process in reversed(started):
            stop(process)
    ours = [as_record(span, "aap-client") for span in exporter.get_finished_spans()]
    return ours + read_spans(folder)


def check_tree(spans: list[dict[str, Any]]) -> str:
    root = next(s for s in spans if s["service"] == "aap-client" and s["kind"] == "CLIENT")
    assert root["name"] == "invoke_agent coder"
    trace = [s for s in spans if s["trace_id"] == root["trace_id"]]
    by_id = {s["span_id"]: s for s in trace}

    def parent(span: dict[str, Any]) -> dict[str, Any]:
        return by_id[span["parent_id"]]

    def one(service: str, name: str, kind: str | None = None) -> dict[str, Any]:
        found = [
            s
            for s in trace
            if s["service"] == service and s["name"] == name and (kind is None or s["kind"] == kind)
        ]
        assert found, f"no span {name!r} of {service} in the trace:\n{tree(trace)}"
        return found[0]

    services = {s["service"] for s in trace}
    assert {"aap-client", "aap-server", "acp-agent", "mcp-server"} <= services, services
    post = one("aap-server", "POST /sessions/{session_id}/turns", "SERVER")
    assert parent(post) is root
    turn = one("aap-server", "invoke_agent coder")
    assert parent(turn) is post and turn["attributes"]["aap.stream.mode"] == "delta"
    prompt_out = one("aap-server", "session/prompt", "CLIENT")
    assert parent(prompt_out) is turn
    prompt_in = one("acp-agent", "session/prompt", "SERVER")
    assert parent(prompt_in) is prompt_out
    assert prompt_in["attributes"]["acp.stop_reason"] == "end_turn"
    assert prompt_in["attributes"]["gen_ai.operation.name"] == "invoke_agent"
    # the agent's request to the editor, both ways
    ask_out = one("acp-agent", "session/request_permission", "CLIENT")
    ask_in = one("aap-server", "session/request_permission", "SERVER")
    assert parent(ask_in) is ask_out
    chats = [s for s in trace if s["service"] == "acp-agent" and s["name"] == "chat m"]
    assert len(chats) == 2 and all(parent(c) is prompt_in for c in chats)
    tool = one("acp-agent", "execute_tool step_1_tool")
    assert tool["attributes"]["mcp.server.name"] == "tools"
    served = one("mcp-server", "tools/call step_1_tool", "SERVER")
    chain = [served]
    while chain[-1] is not prompt_in:
        chain.append(parent(chain[-1]))
    assert tool in chain  # the MCP server's span descends from our tool span
    assert parent(ask_out) in (tool, *chain)
    return tree(trace)


@pytest.mark.slow
@pytest.mark.parametrize("transport", ["stdio", "websocket"])
def test_one_turn_is_one_trace_across_processes(
    mock: MockProvider, tmp_path: Path, transport: str
) -> None:
    drawn = check_tree(run_turn(mock, tmp_path, transport))
    if transport == "websocket":
        assert "[acp-bridge]" not in drawn  # the bridge relays bytes: no span of its own
    print(drawn)
