"""examples/: each example runs offline against its local peer, as a user runs it (a fresh
interpreter, the checked-in package on PYTHONPATH), and prints what the docs say it prints.
The ACP echo agent is also driven by the official ACP SDK's client."""

from __future__ import annotations

import ast
import asyncio
import os
import re
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.conftest import GENERATED, ROOT

EXAMPLES = ROOT / "examples"
ECHO_AGENT = EXAMPLES / "acp_echo_agent.py"
# Every example, and the test(s) below that run it: a new example needs a test.
TESTED = {
    "a2a_agent.py": "test_the_a2a_example_agent_and_client",
    "a2a_client.py": "test_the_a2a_example_agent_and_client",
    "aap_client.py": "test_the_aap_example_server_and_client",
    "aap_server.py": "test_the_aap_example_server_and_client",
    "acp_echo_agent.py": "test_acp_editor_example_drives_the_echo_agent",
    "acp_llm_agent.py": "test_the_traced_turn_example_draws_one_trace",
    "traced_turn.py": "test_the_traced_turn_example_draws_one_trace",
    "acp_editor.py": "test_acp_editor_example_drives_the_echo_agent",
    "flows_contacts.py": "test_flows_example_runs_two_linked_actions",
    "llm_chat.py": "test_llm_example_runs_against_the_mock_provider",
    "skills_consumer.py": "test_skills_example_in_one_command",
    "skills_provider.py": "test_skills_example_as_two_processes",
}


def example_env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(GENERATED), "PYTHONDONTWRITEBYTECODE": "1"}


def run_example(name: str, *args: str, timeout: float = 60) -> str:
    """Run ``examples/<name>`` from the repository root; its stdout (exit 0 required)."""
    result = subprocess.run(
        [sys.executable, str(EXAMPLES / name), *args],
        cwd=ROOT,
        env=example_env(),
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


def test_every_example_has_a_test() -> None:
    found = {p.name for p in EXAMPLES.glob("*.py") if not p.name.startswith("_")}
    assert found == set(TESTED), "add the new example to TESTED, with a test that runs it"
    assert all(name in globals() for name in TESTED.values())


# -- one trace across processes ------------------------------------------------------------


def test_the_traced_turn_example_draws_one_trace() -> None:
    """An AAP turn through the ACP bridge to examples/acp_llm_agent.py (the mock provider, an
    MCP tool): one trace over four processes, drawn as the docs show it
    (docs/guides/tracing.md)."""
    lines = run_example("traced_turn.py", timeout=120).splitlines()
    assert lines[0] == "answer: Mock response from ai-protocol-mock [end_turn]"
    drawn = "\n".join(lines[1:])
    for expected in (
        "user asks  [aap-client]",
        "  invoke_agent coder  [aap-client]",
        "    POST /sessions/{session_id}/turns  [aap-server]",
        "      invoke_agent coder  [aap-server]",
        "          session/prompt  [acp-agent]",
        "            chat m  [acp-agent]",
        "              session/request_permission  [aap-server]",
        "                tools/call step_1_tool  [mcp-server]",
    ):
        assert expected in lines, f"{expected!r} not in:\n{drawn}"
    assert drawn in (ROOT / "docs" / "guides" / "tracing.md").read_text(encoding="utf-8")


# -- ACP --------------------------------------------------------------------------------------


def test_acp_editor_example_drives_the_echo_agent() -> None:
    lines = run_example("acp_editor.py").splitlines()
    assert lines[0] == "agent: agentproto-echo 1.0.0 (protocol 1)"
    assert re.fullmatch(r"session: echo-[0-9a-f]{12}", lines[1]), lines
    assert lines[2] == "> Hello from an agentproto editor"
    assert lines[3] == "< Hello from an agentproto editor [end_turn, 5 chunks]"
    cancelled = re.fullmatch(r"< count( \d+)* \[cancelled\]", lines[5])
    assert cancelled is not None and len(lines[5].split()) < 1000, lines  # not all 1,001 words


def test_acp_editor_example_authenticates_when_the_agent_asks() -> None:
    agent = [sys.executable, str(ECHO_AGENT), "--require-auth"]
    lines = run_example("acp_editor.py", "--", *agent).splitlines()
    assert lines[1] == "authenticated with echo-login"
    assert lines[4] == "< Hello from an agentproto editor [end_turn, 5 chunks]"


def test_echo_agent_refuses_what_it_does_not_do() -> None:
    """Unknown sessions and unimplemented methods are typed JSON-RPC errors, and a session
    before ``authenticate`` is refused with AUTH_REQUIRED when the agent asks for it."""
    from agentproto.acp import (
        AuthRequired,
        CapabilityError,
        InvalidParams,
        MethodNotFound,
        spawn_agent,
    )

    async def main() -> None:
        command = [sys.executable, str(ECHO_AGENT), "--require-auth"]
        async with spawn_agent(command, env=example_env()) as agent:
            await agent.initialize(protocol_version=1)
            with pytest.raises(AuthRequired, match="echo-login"):
                await agent.new_session(cwd=str(ROOT), mcp_servers=[])
            with pytest.raises(InvalidParams, match="unknown authentication method"):
                await agent.authenticate(method_id="password")
            await agent.authenticate(method_id="echo-login")
            sid = (await agent.new_session(cwd=str(ROOT), mcp_servers=[])).session_id
            # Refused here: the agent did not advertise loadSession in initialize...
            with pytest.raises(CapabilityError, match="loadSession"):
                await agent.load_session(session_id=sid, cwd=str(ROOT), mcp_servers=[])
            agent.check_capabilities = False  # ...and sent anyway: the agent says -32601
            with pytest.raises(MethodNotFound):
                await agent.load_session(session_id=sid, cwd=str(ROOT), mcp_servers=[])
            with pytest.raises(InvalidParams, match="unknown session"):
                await agent.prompt(session_id="nope", prompt=[{"type": "text", "text": "hi"}])

    asyncio.run(asyncio.wait_for(main(), 30))


def test_echo_agent_with_the_official_sdk_client() -> None:
    """The official ACP SDK (``agent-client-protocol``, ``import acp``) as the editor:
    initialize, authenticate, a session, a streamed prompt and a cancelled one."""
    import acp
    from acp import schema

    class OfficialEditor:
        def __init__(self) -> None:
            self.chunks: list[str] = []
            self.first = asyncio.Event()

        def on_connect(self, conn: Any) -> None:
            pass

        async def session_update(self, session_id: str, update: Any, **kwargs: Any) -> None:
            self.chunks.append(update.content.text)
            self.first.set()

    def text(words: str) -> list[schema.TextContentBlock]:
        return [schema.TextContentBlock(type="text", text=words)]

    async def main() -> None:
        editor = OfficialEditor()
        spawn = acp.spawn_agent_process(
            editor, sys.executable, str(ECHO_AGENT), "--require-auth", env=example_env()
        )
        async with spawn as (conn, _process):
            init = await conn.initialize(protocol_version=1)
            assert init.protocol_version == 1
            assert init.agent_info is not None and init.agent_info.name == "agentproto-echo"
            assert [m.id for m in init.auth_methods or []] == ["echo-login"]
            with pytest.raises(acp.RequestError) as refused:
                await conn.new_session(cwd=str(ROOT), mcp_servers=[])
            assert refused.value.code == -32000
            await conn.authenticate(method_id="echo-login")
            sid = (await conn.new_session(cwd=str(ROOT), mcp_servers=[])).session_id
            done = await conn.prompt(session_id=sid, prompt=text("streamed back word by word"))
            assert done.stop_reason == "end_turn"
            assert editor.chunks == ["streamed", " back", " word", " by", " word"]

            editor.chunks.clear()
            editor.first.clear()
            long = asyncio.ensure_future(
                conn.prompt(session_id=sid, prompt=text(" ".join(["w"] * 1000)))
            )
            await asyncio.wait_for(editor.first.wait(), 10)
            await conn.cancel(session_id=sid)
            assert (await asyncio.wait_for(long, 10)).stop_reason == "cancelled"
            assert 1 <= len(editor.chunks) < 1000  # stopped before the end

    asyncio.run(asyncio.wait_for(main(), 30))


# -- Skill Sharing ----------------------------------------------------------------------------

SKILLS_OUTPUT = [
    "provider: Text tools (2 skills)",
    "  text/word-count 1.0.0 [public]: Counts the words of a text.",
    "  text/shout 1.1.0 [restricted]: Upper-cases a text, for callers with a key.",
    "word-count: {'words': 4}",
    "shout without a key: AUTH_REQUIRED"
    " ({'required_auth_type': 'api_key', 'header': 'X-Text-Key'})",
    "shout with a key: HELLO!",
]


def test_skills_example_in_one_command() -> None:
    assert run_example("skills_consumer.py").splitlines() == SKILLS_OUTPUT


def test_skills_example_as_two_processes() -> None:
    """The provider as a server of its own (what the docs tell you to run), the consumer and
    the package's conformance kit against it: every MUST rule holds."""
    provider = subprocess.Popen(
        [sys.executable, str(EXAMPLES / "skills_provider.py"), "--port", "0"],
        cwd=ROOT,
        env=example_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert provider.stdout is not None
        url = provider.stdout.readline().strip()
        assert re.fullmatch(r"http://127\.0\.0\.1:\d+", url), provider.stderr
        assert run_example("skills_consumer.py", url).splitlines() == SKILLS_OUTPUT
        conformance = subprocess.run(
            [sys.executable, "-m", "agentproto.skills.conformance", url, "--json"],
            env=example_env(),
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        assert conformance.returncode == 0, conformance.stdout + conformance.stderr
    finally:
        provider.terminate()
        provider.wait(timeout=10)
        for stream in (provider.stdout, provider.stderr):
            if stream is not None:
                stream.close()


# -- LLM, flows -------------------------------------------------------------------------------


def test_llm_example_runs_against_the_mock_provider() -> None:
    lines = run_example("llm_chat.py").splitlines()
    assert lines == [
        "chat: 'Mock response from ai-protocol-mock' (end_turn, 14 tokens)",
        "stream: Mock response from ai-protocol-mock (end_turn)",
        "parsed: ShoppingList(count=3, items=['a', 'b', 'c'])",
    ]


def test_flows_example_runs_two_linked_actions() -> None:
    lines = run_example("flows_contacts.py").splitlines()
    assert lines[1:] == [
        "  stand-in: GET /crm/v3/objects/contacts/151",
        "  stand-in: PATCH /crm/v3/objects/contacts/151",  # the id linked from the GET
        "result: id=151 properties={'email': 'ada@example.com', 'firstname': 'Ada',"
        " 'lifecyclestage': 'customer'}",
        "  stand-in: GET /crm/v3/objects/contacts/999",
        "error: flow contacts_get_and_update, action get_contact_action, status 404",
    ]


def test_examples_need_only_the_package_and_their_peers(tmp_path: Path) -> None:
    """Run from another folder, an example still finds its neighbours (the echo agent, the
    provider script, the peers module): nothing depends on the current directory."""
    result = subprocess.run(
        [sys.executable, str(EXAMPLES / "acp_editor.py")],
        cwd=tmp_path,
        env=example_env(),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "[end_turn, 5 chunks]" in result.stdout


def test_a_copy_of_examples_runs_without_the_repository(tmp_path: Path) -> None:
    """A user who copies examples/ has no tests/: no example imports from it (nor puts the
    repository on sys.path), and the copy's stand-ins (the loopback server, ai-protocol-mock
    fed the package's own bundled manifests) run from there."""
    for path in EXAMPLES.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        imported = [
            name
            for node in ast.walk(tree)
            for name in (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
                if isinstance(node, ast.ImportFrom)
                else []
            )
        ]
        assert not [n for n in imported if n.split(".")[0] == "tests"], path.name
        assert "sys.path" not in path.read_text(encoding="utf-8"), path.name
    copy = tmp_path / "my-examples"
    shutil.copytree(EXAMPLES, copy, ignore=shutil.ignore_patterns("__pycache__"))
    for name, expected in (
        ("llm_chat.py", "chat: 'Mock response from ai-protocol-mock' (end_turn, 14 tokens)"),
        ("flows_contacts.py", "  stand-in: GET /crm/v3/objects/contacts/151"),
    ):
        result = subprocess.run(
            [sys.executable, str(copy / name)],
            cwd=tmp_path,
            env=example_env(),
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        assert result.returncode == 0, result.stdout + result.stderr
        assert expected in result.stdout.splitlines()


# -- A2A --------------------------------------------------------------------------------------


def test_the_a2a_example_agent_and_client() -> None:
    """The client starts the agent (agentproto's generated A2A server kit) and talks to it:
    card, a task, a stream, a cancel and the typed error of a second cancel."""
    assert run_example("a2a_client.py").splitlines() == [
        "agent: agentproto echo agent (A2A 0.3.0, streaming: True)",
        "task completed: echo: hello",
        "  task submitted",
        "  status working",
        "  artifact echo",
        "  status completed (final)",
        "cancelled: canceled",
        "again: Task cannot be canceled (-32002)",
    ]


# -- AAP --------------------------------------------------------------------------------------


def start_aap_example(port: int, store: str, log: Path) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONPATH": str(GENERATED)}
    with log.open("ab") as out:
        process = subprocess.Popen(
            [
                sys.executable,
                str(EXAMPLES / "aap_server.py"),
                "--port",
                str(port),
                "--store",
                store,
            ],
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    deadline = time.monotonic() + 30
    while True:
        assert process.poll() is None, log.read_text()
        try:
            httpx.get(f"http://127.0.0.1:{port}/meta", timeout=1)
            return process
        except httpx.HTTPError:
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.1)


def test_the_aap_example_server_and_client(tmp_path: Path) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    store = f"sqlite:///{tmp_path / 'example.db'}"
    server = start_aap_example(port, store, tmp_path / "server.log")
    try:
        done = subprocess.run(
            [sys.executable, str(EXAMPLES / "aap_client.py"), f"http://127.0.0.1:{port}"],
            env={**os.environ, "PYTHONPATH": str(GENERATED)},
            capture_output=True,
            text=True,
            timeout=60,
        )
    finally:
        server.terminate()
        server.wait(timeout=10)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("agent: weather 1.0.0")
    assert "  [a server tool answered: Bergen: 21°C and sunny]" in lines
    assert "  [the agent calls locate]" in lines
    assert "  (end_turn) Here is what I found: Oslo" in lines
    session = lines[-1].split()[1].rstrip(":")
    assert lines[-1].endswith("10 messages kept by the server")
    server = start_aap_example(
        port, store, tmp_path / "server.log"
    )  # restarted: the session is kept
    try:
        answer = httpx.get(
            f"http://127.0.0.1:{port}/sessions/{session}/history",
            params={"type": "full"},
            headers={"Authorization": "Bearer sk-example"},
        )
    finally:
        server.terminate()
        server.wait(timeout=10)
    assert answer.status_code == 200 and len(answer.json()["history"]["full"]) == 10
