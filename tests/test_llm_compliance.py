"""Upstream's newest AI-Protocol compliance suite against ``agentproto.llm`` (issues 16, 27).

One test per case of ``tests/fixtures/ai-protocol-compliance/cases/`` (117 cases in 25 files),
run by ``tests/compliance/runner.py`` through the public API over loopback HTTP. Every case
that applies to a chat client must pass; the ones that do not apply are listed here
(:data:`NOT_APPLICABLE`) and must be reported ``n/a`` with the runner's reason, so a case that
starts to apply (or stops) fails the suite instead of being skipped. The cases in
``runner.KNOWN_GAPS`` (none today) would be strict expected failures; the cases in
``runner.VOUCHED`` run with a client option the case cannot express, each with why.

Counts by hand: ``python -m tests.compliance.runner``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import pytest

from tests.compliance import runner
from tests.servers.scripted import Script, scripted_server

CASES = runner.load_cases()

NOT_APPLICABLE = {
    # ai-lib's MCP / computer-use / reasoning / video operations, `core:` manifest layout
    *(f"capability-and-endpoint/adv-{n:03}" for n in (*range(1, 9), *range(13, 17))),
    "generative-capabilities/gen-007",  # ai-lib's MCP bridge (the declaration itself is read)
    "credential-chain/cred-008",  # a wasm32 runner's name for an explicit key
    "text-tool-parse/ttc-006",  # the wording of ai-lib's own tool-use prompt
}


@pytest.fixture(scope="module")
def server() -> Iterator[Script]:
    with scripted_server() as script:
        yield script


def case(key: str) -> runner.Case:
    return next(c for c in CASES if c.key == key)


def test_the_suite_is_all_there() -> None:
    assert len(CASES) == 117
    assert len({c.file for c in CASES}) == 25
    assert len({c.key for c in CASES}) == 117  # ids repeat across files; keys do not
    assert len({c.id for c in CASES}) == 110
    assert set(runner.KNOWN_GAPS) | set(runner.VOUCHED) | NOT_APPLICABLE <= {c.key for c in CASES}


@pytest.mark.parametrize(
    "case",
    [
        pytest.param(
            c,
            id=c.key,
            marks=[pytest.mark.xfail(strict=True, reason=runner.KNOWN_GAPS[c.key])]
            if c.key in runner.KNOWN_GAPS
            else [],
        )
        for c in CASES
    ],
)
def test_compliance_case(case: runner.Case, server: Script) -> None:
    outcome = runner.run_case(case, server)
    if case.key in NOT_APPLICABLE:
        assert outcome.status == "n/a" and len(outcome.reason) > 40, outcome
    else:
        assert outcome.status == "pass", f"{case.key} ({case.file}): {outcome.reason}"


def altered(key: str, **expected: object) -> runner.Case:
    found = case(key)
    return dataclasses.replace(found, expected={**found.expected, **expected})


@pytest.mark.parametrize(
    ("key", "change", "words"),
    [
        ("provider-error-codes/err-010", {"error_code": "E1001"}, ("E1001", "E1005")),
        ("text-tool-parse/ttc-005", {"remaining_text": "Running"}, ("remaining_text",)),
        ("capability-and-endpoint/adv-010", {"should_fallback": True}, ("should_fallback",)),
        ("capability-and-endpoint/adv-009", {"should_fallback": False}, ("should_fallback",)),
        ("document-encode/cbe-011", {"encoded": [{"text": "Summarize"}]}, ("encoded",)),
        ("load-v2-capability-profile-ios/load-012", {"valid": False}, ("refused",)),
        ("load-v2-capability-profile-ios/load-013", {"valid": True}, ("capability_profile",)),
        ("contract-schema-validation/cbe-001", {"document_mapping": {"format": "x"}}, ("x",)),
        ("generative-capabilities/gen-001", {"capabilities_present": {"required": ["audio"]}}, ()),
    ],
)
def test_the_runner_sees_a_wrong_answer(
    server: Script, key: str, change: dict[str, object], words: tuple[str, ...]
) -> None:
    """The runner can fail: a case whose expectation is altered is reported, with the diff."""
    outcome = runner.run_case(altered(key, **change), server)
    assert outcome.status == "fail", outcome
    for word in words:
        assert word in outcome.reason


def test_a_document_by_reference_is_refused_before_sending(server: Script) -> None:
    """cbe-012 passes only because nothing was sent: a document by reference must be resolved
    first; turned into base64 the same block is sent."""
    found = case("document-encode/cbe-012")
    blocks = [{**b, "source_type": "base64"} for b in found.input["blocks"]]
    sent = len(server.requests)
    outcome = runner.run_case(
        dataclasses.replace(found, input={**found.input, "blocks": blocks, "expect_error": False}),
        server,
    )
    assert outcome.status == "fail" and "encoded" in outcome.reason  # sent, then compared
    assert len(server.requests) == sent + 1


def test_undeclared_response_format_is_refused_unless_vouched(server: Script) -> None:
    """gen-003 asks for ``response_format`` on a manifest that does not declare structured
    output. Without the caller's word the client refuses before sending (never a silent drop);
    with ``structured_output=True`` it is sent as asked (the case passes, run that way)."""
    from agentproto.llm.problems import UnsupportedError

    found = case("generative-capabilities/gen-003")
    sent = len(server.requests)
    with runner.client(runner.manifest_of(found), server) as llm, pytest.raises(UnsupportedError):
        llm.chat(
            found.input["messages"], model=runner.MODEL, params=dict(found.input["parameters"])
        )
    assert len(server.requests) == sent
    assert runner.run_case(found, server).status == "pass"
    assert runner.last_body(server)["response_format"] == {"type": "json_object"}
