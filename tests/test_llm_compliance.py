"""Upstream's AI-Protocol compliance suite against ``agentproto.llm`` (issue 16).

One test per case of ``tests/fixtures/corpus/ai-protocol/compliance/cases/`` (54 apply to a chat
client), run by ``tests/compliance/runner.py`` through the public API over loopback HTTP. A
case the runner finds not applicable is skipped with its reason; the cases listed in
``runner.KNOWN_GAPS`` (none today) fail for a reason the runner names and are strict expected
failures, so each turns into a failure (to be taken off the list) the day it passes; the
cases in ``runner.VOUCHED`` run with a client option the case cannot express, each with why.

Counts by hand: ``python -m tests.compliance.runner``.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.compliance import runner
from tests.servers.scripted import Script, scripted_server

CASES = runner.load_cases()


@pytest.fixture(scope="module")
def server() -> Iterator[Script]:
    with scripted_server() as script:
        yield script


def test_the_suite_is_all_there() -> None:
    assert len(CASES) == 54
    assert len({c.id for c in CASES}) == 54
    assert set(runner.KNOWN_GAPS) <= {c.id for c in CASES}


@pytest.mark.parametrize(
    "case",
    [
        pytest.param(
            c,
            id=c.id,
            marks=[pytest.mark.xfail(strict=True, reason=runner.KNOWN_GAPS[c.id])]
            if c.id in runner.KNOWN_GAPS
            else [],
        )
        for c in CASES
    ],
)
def test_compliance_case(case: runner.Case, server: Script) -> None:
    outcome = runner.run_case(case, server)
    if outcome.status == "n/a":
        pytest.skip(outcome.reason)
    assert outcome.status == "pass", f"{case.id} ({case.file}): {outcome.reason}"


def test_the_runner_sees_a_wrong_answer(server: Script) -> None:
    """The runner can fail: a case whose expectation is altered is reported with the diff."""
    case = next(c for c in CASES if c.id == "err-010")
    altered = runner.Case(**{**case.__dict__, "expected": {**case.expected, "error_code": "E1001"}})
    outcome = runner.run_case(altered, server)
    assert outcome.status == "fail"
    assert "E1001" in outcome.reason and "E1005" in outcome.reason


def test_undeclared_response_format_is_refused_unless_vouched(server: Script) -> None:
    """gen-003 asks for ``response_format`` on a manifest that does not declare structured
    output. Without the caller's word the client refuses before sending (never a silent drop);
    with ``structured_output=True`` it is sent as asked (the case passes, run that way)."""
    from agentproto.llm.problems import UnsupportedError

    case = next(c for c in CASES if c.id == "gen-003")
    assert set(runner.VOUCHED) <= {c.id for c in CASES}
    sent = len(server.requests)
    with runner.client(runner.manifest_of(case), server) as llm, pytest.raises(UnsupportedError):
        llm.chat(case.input["messages"], model=runner.MODEL, params=dict(case.input["parameters"]))
    assert len(server.requests) == sent
    assert runner.run_case(case, server).status == "pass"
    assert runner.last_body(server)["response_format"] == {"type": "json_object"}
