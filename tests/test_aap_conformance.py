"""The AAP conformance kit (``python -m agentproto.aap.conformance``) against our server kit
and the reference server of the client tests (every MUST passes), and against a server that
breaks 12 MUST rules on purpose (exactly those are flagged), over loopback HTTP."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from agentproto.aap import AAPServer, ApiKeys
from agentproto.aap.conformance import main, run
from agentproto.errors import APIConnectionError

from tests.conftest import GENERATED, within
from tests.servers.aap_agents import agents
from tests.servers.aap_server import API_KEY
from tests.servers.aap_server import AAPServer as ReferenceServer
from tests.servers.broken_aap import BROKEN_RULES, broken_app
from tests.servers.broken_aap import KEY as BROKEN_KEY
from tests.servers.loopback import serve

KEY = "sk-conformance-0123456789"


@pytest.fixture(scope="module")
def ours(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("conformance") / "aap.db"
    server = AAPServer(agents(), store=f"sqlite:///{db}", auth=ApiKeys({KEY: "tester"}))
    with serve(server.app) as url:
        yield url


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(GENERATED)}
    return subprocess.run(
        [sys.executable, "-m", "agentproto.aap.conformance", *args],
        capture_output=True, text=True, timeout=60, env=env, check=False,
    )  # fmt: skip


def test_our_server_passes_every_must_from_the_command_line(ours: str) -> None:
    done = cli(ours, "--json", "--api-key", KEY)
    assert done.returncode == 0, done.stdout + done.stderr
    report = json.loads(done.stdout)
    assert report["conformant"] is True
    assert [c["id"] for c in report["checks"] if c["outcome"] == "fail"] == []
    musts = {c["id"]: c["outcome"] for c in report["checks"] if c["level"] == "MUST"}
    assert len(musts) == 24
    assert {i for i, o in musts.items() if o != "pass"} == {"history.undeclared"}  # both declared
    assert {c["level"] for c in report["checks"]} == {"MUST", "SHOULD", "MAY"}
    assert KEY not in done.stdout + done.stderr  # the key is never printed
    plain = run(ours, api_key=KEY, agent="plain", timeout=10)  # full history only, stream none
    outcomes = {c.id: c.outcome for c in plain.checks}
    assert plain.must_failures == [] and outcomes["history.undeclared"] == "pass"
    assert outcomes["turn.delta"] == "skip" and outcomes["turn.none"] == "pass"


def test_the_text_report_and_no_turns(ours: str, capsys: pytest.CaptureFixture[str]) -> None:
    within(60, lambda: main([ours, "--api-key", KEY, "--no-turns"]))
    out = capsys.readouterr().out
    assert "PASS  MUST   meta.version" in out and "skip  MUST   turn.none" in out
    assert out.rstrip().endswith("conformant")


def test_the_reference_server_passes_every_must() -> None:
    server = ReferenceServer(page_size=2)
    with serve(server.app) as url:
        report = run(url + "/v1", api_key=API_KEY, timeout=10)
    assert report.must_failures == [], [(c.id, c.detail) for c in report.must_failures]
    skipped = {c.id for c in report.checks if c.outcome == "skip" and c.level == "MUST"}
    assert skipped <= {"history.undeclared"}, skipped  # it declares both history types


def test_the_broken_server_is_flagged_on_each_rule_it_breaks() -> None:
    with serve(broken_app()) as url:
        report = run(url, api_key=BROKEN_KEY, timeout=10)
        done = cli(url, "--api-key", BROKEN_KEY)
    assert {c.id for c in report.must_failures} == BROKEN_RULES
    assert done.returncode == 1 and "NOT conformant" in done.stdout


def test_an_unreachable_server_is_a_typed_error_and_exits_2(tmp_path: Path) -> None:
    with pytest.raises(
        APIConnectionError, match=re.escape("cannot check http://127.0.0.1:9: no answer")
    ):
        run("http://127.0.0.1:9", timeout=2)
    done = cli("http://127.0.0.1:9", "--timeout", "2")
    assert done.returncode == 2
    assert done.stderr.splitlines() == ["cannot check http://127.0.0.1:9: no answer (ConnectError)"]
