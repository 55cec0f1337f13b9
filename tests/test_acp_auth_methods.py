"""ACP auth methods read as the schema's kinds (issue 43), with the real payloads of two
agents (recorded: tests/fixtures/acp_auth/): an auth method without ``type`` is an ``agent``
method, never a ``terminal`` one (the client must not pass a terminal method to
``authenticate``), and every method is sent back as it came.

Before issue 43 the union gave ``AuthMethodTerminal`` a defaulted tag and pydantic's smart
mode took the first member that validated, so all four of gemini-cli's methods and
codex-acp's ``chatgpt`` arrived as terminal methods, and an agent returning a plain dict
advertised ``"type": "terminal"``."""

from __future__ import annotations

import asyncio
import json
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from agentproto.acp import Client, spawn_agent
from agentproto.acp import models as v1
from agentproto.acp.unstable import models as unstable
from pydantic import TypeAdapter

ROOT = Path(__file__).resolve().parent.parent
PEERS = ROOT / "tests" / "acp_peers"
RECORDINGS = sorted((ROOT / "tests" / "fixtures" / "acp_auth").glob("*.jsonl"))


def recorded_answer(recording: Path) -> dict[str, Any]:
    lines = [json.loads(line) for line in recording.read_text(encoding="utf-8").splitlines()]
    answer: dict[str, Any] = json.loads(next(e["line"] for e in lines if e["from"] == "agent"))
    return answer["result"]


def expected_kind(method: dict[str, Any], models: Any) -> type:
    """The schema's variant: ``type: terminal`` is terminal; anything else, no ``type``
    included, matches only the open ``agent`` variant."""
    if method.get("type") == "terminal":
        return models.AuthMethodTerminalModel  # type: ignore[no-any-return]
    return models.AuthMethodAgent  # type: ignore[no-any-return]


def test_the_recordings_are_there() -> None:
    assert [r.name for r in RECORDINGS] == ["codex-acp-0.16.0.jsonl", "gemini-cli-0.61.0.jsonl"]
    gemini = recorded_answer(RECORDINGS[1])["authMethods"]
    codex = recorded_answer(RECORDINGS[0])["authMethods"]
    assert [m["id"] for m in gemini] == ["oauth-personal", "gemini-api-key", "vertex-ai", "gateway"]
    assert not any("type" in m for m in gemini)
    assert [(m["id"], m.get("type")) for m in codex] == [
        ("chatgpt", None),
        ("codex-api-key", "env_var"),
        ("openai-api-key", "env_var"),
    ]


@pytest.mark.parametrize("models", [v1, unstable], ids=["v1", "v1-unstable"])
@pytest.mark.parametrize("recording", RECORDINGS, ids=[r.stem for r in RECORDINGS])
def test_recorded_auth_methods_read_as_their_kinds(recording: Path, models: Any) -> None:
    result = recorded_answer(recording)
    for mode in ("python", "json"):
        if mode == "python":
            answer = models.InitializeResponse.model_validate(result)
        else:
            answer = models.InitializeResponse.model_validate_json(json.dumps(result))
        kinds = [type(m) for m in answer.auth_methods]
        assert kinds == [expected_kind(m, models) for m in result["authMethods"]]
        assert models.AuthMethodTerminalModel not in kinds
        # sent back unchanged: every field, the unknown ones (vars, _meta) included
        assert answer.model_dump(mode="json", by_alias=True, exclude_unset=True) == result
    adapter: TypeAdapter[Any] = TypeAdapter(models.AuthMethod)
    for method in result["authMethods"]:
        read = adapter.validate_python(method)
        assert adapter.dump_python(read, mode="json", exclude_unset=True) == method


class _Editor(Client):
    pass


@pytest.mark.parametrize("recording", RECORDINGS, ids=[r.stem for r in RECORDINGS])
def test_our_editor_reads_the_replayed_agent(recording: Path) -> None:
    """The recorded bytes over real pipes (the agent replayed), through our editor's
    ``initialize``."""

    async def main() -> v1.InitializeResponse:
        replay = [sys.executable, str(PEERS / "replay_agent.py"), str(recording)]
        async with spawn_agent(replay, client=_Editor()) as conn:
            return await conn.initialize(protocol_version=1)

    answer = asyncio.run(asyncio.wait_for(main(), 30))
    result = recorded_answer(recording)
    assert [type(m) for m in answer.auth_methods] == [
        expected_kind(m, v1) for m in result["authMethods"]
    ]
    assert answer.model_dump(mode="json", by_alias=True, exclude_unset=True) == result


AGENT = """
import asyncio, json, sys
sys.path.insert(0, {generated!r})
from agentproto.acp import Agent, serve_agent

class PlainAgent(Agent):
    async def initialize(self, params):
        return {answer!r}  # a plain dict, as an agent may return it

asyncio.run(serve_agent(PlainAgent()))
"""


def test_an_agent_returning_a_plain_dict_advertises_the_same_methods(tmp_path: Path) -> None:
    """Our agent side, handed the gemini-cli answer as a plain dict: the wire carries the
    methods as given (no ``"type": "terminal"`` added), as the official SDK's client reads
    them."""
    result = recorded_answer(RECORDINGS[1])
    script = tmp_path / "agent.py"
    script.write_text(
        textwrap.dedent(AGENT).format(generated=str(ROOT / "generated"), answer=result),
        encoding="utf-8",
    )
    record = tmp_path / "record.jsonl"
    command = [
        sys.executable,
        str(PEERS / "tee.py"),
        str(record),
        "--",
        sys.executable,
        str(script),
    ]

    async def main() -> v1.InitializeResponse:
        async with spawn_agent(command, client=_Editor()) as conn:
            return await conn.initialize(protocol_version=1)

    answer = asyncio.run(asyncio.wait_for(main(), 30))
    assert all(type(m) is v1.AuthMethodAgent for m in answer.auth_methods)
    lines = [json.loads(line) for line in record.read_text(encoding="utf-8").splitlines()]
    sent = json.loads(next(e["line"] for e in lines if e["from"] == "agent"))
    assert sent["result"]["authMethods"] == result["authMethods"]
    assert "terminal" not in json.dumps(sent)
