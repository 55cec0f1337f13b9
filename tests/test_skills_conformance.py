"""The Skill Sharing conformance kit (``python -m agentproto.skills.conformance``) against the
provider kit (clean: every MUST passes) and a deliberately broken provider (flagged on each
rule it breaks), over loopback HTTP."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from agentproto.errors import AgentprotoError, APIConnectionError, APITimeoutError
from agentproto.skills.conformance import main, run
from starlette.applications import Starlette

from tests.conftest import GENERATED, within
from tests.servers.broken_skills import BROKEN_RULES, broken_provider
from tests.servers.loopback import serve
from tests.test_skills_provider import Site, serve_site


@pytest.fixture(scope="module")
def kit() -> Iterator[Site]:
    yield from serve_site()


@pytest.fixture(scope="module")
def broken() -> Iterator[str]:
    holder: dict[str, Starlette] = {}

    async def app(scope: Any, receive: Any, send: Any) -> None:
        await holder["app"](scope, receive, send)

    with serve(app) as url:
        holder["app"] = broken_provider(url)
        yield url


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(GENERATED)}
    return subprocess.run(
        [sys.executable, "-m", "agentproto.skills.conformance", *args],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
        check=False,
    )


def test_the_kit_passes_every_must_from_the_command_line(kit: Site) -> None:
    done = cli(kit.url, "--json", "--api-key", "key-internal", "--api-key-header", "X-Internal-Key")
    assert done.returncode == 0, done.stdout + done.stderr
    report = json.loads(done.stdout)
    assert report["conformant"] is True
    failed = [c["id"] for c in report["checks"] if c["outcome"] == "fail"]
    assert failed == []
    musts = [c for c in report["checks"] if c["level"] == "MUST"]
    assert len(musts) >= 18 and all(c["outcome"] == "pass" for c in musts)
    assert {c["level"] for c in report["checks"]} == {"MUST", "SHOULD", "MAY"}
    assert "key-internal" not in done.stdout + done.stderr  # the key is never printed


def test_the_text_report(kit: Site, capsys: pytest.CaptureFixture[str]) -> None:
    def work() -> None:
        assert main([kit.url]) == 0

    within(60, work)
    out = capsys.readouterr().out
    assert "PASS  MUST   discovery.well-known" in out
    assert out.rstrip().endswith("conformant")


def test_the_broken_provider_is_flagged_on_each_rule_it_breaks(broken: str) -> None:
    report = run(broken, timeout=5)
    assert {c.id for c in report.must_failures} == BROKEN_RULES
    done = cli(broken)
    assert done.returncode == 1
    assert "NOT conformant" in done.stdout
    for rule in BROKEN_RULES:
        assert f"FAIL  MUST   {rule}" in done.stdout


def test_an_unreachable_provider_is_a_typed_error_and_exits_2() -> None:
    """run() raises the package's APIConnectionError (not httpx's ConnectError); the command
    prints it on one line, with the URL's credentials redacted, and exits 2."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    url = f"http://127.0.0.1:{port}"
    with pytest.raises(
        APIConnectionError, match=re.escape(f"cannot check {url}: no answer")
    ) as raised:
        run(url, timeout=2)
    assert isinstance(raised.value, AgentprotoError) and raised.value.url == url
    assert not isinstance(raised.value, APITimeoutError)
    done = cli(f"http://user:s3cret@127.0.0.1:{port}", "--timeout", "2")
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        f"cannot check http://**********@127.0.0.1:{port}: no answer (ConnectError)"
    ]


def test_a_failure_with_an_extension_code_passes_the_error_code_rules() -> None:
    """§5.4 leaves an execution's error code a string: the provider kit's own codes for what
    none of the seven fits (here OUTPUT_NOT_JSON: a skill answered NaN) pass the MUST (a code
    and a message) and the SHOULD (one of the seven or a documented extension)."""
    import math

    from agentproto.skills import SkillProvider
    from agentproto.skills.conformance import EXTENSION_CODES
    from agentproto.skills.models import InvocationRequest

    holder: dict[str, SkillProvider] = {}

    async def app(scope: Any, receive: Any, send: Any) -> None:
        await holder["provider"].app(scope, receive, send)

    def handler(inputs: dict[str, Any], request: InvocationRequest) -> Any:
        return {"x": math.nan}

    with serve(app) as url:
        provider = SkillProvider({"name": "Extension"}, base_url=url)
        provider.skill(
            id="x/nan", name="nan", capability_type="api", description="NaN", version="1.0.0"
        )(handler)
        holder["provider"] = provider
        report = run(url)
    outcomes = {c.id: (c.outcome, c.detail) for c in report.checks}
    assert "OUTPUT_NOT_JSON" in EXTENSION_CODES
    assert outcomes["invoke.error-code"][0] == "pass", outcomes["invoke.error-code"]
    assert outcomes["invoke.error-code-known"] == ("pass", "OUTPUT_NOT_JSON")
