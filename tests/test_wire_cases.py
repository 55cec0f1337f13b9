"""The wire cases of every transport kind (tests/wire/<kind>/*.yaml), run against the shipped
package: each renderer's output against data, as Smithy's protocol tests (tests/wire/runner.py).
A protocol built elsewhere (tests/test_protocol_kinds.py) runs the same runner on its cases."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.wire import runner

FILES = runner.case_files()
CASES = [(path, case_id) for path in FILES for case_id in runner.load(path).ids]


def test_every_transport_kind_with_a_renderer_has_cases() -> None:
    kinds = {runner.load(path).kind for path in FILES}
    assert {"jsonrpc-http", "http+sse"} <= kinds


@pytest.mark.parametrize(
    ("path", "case_id"), CASES, ids=[f"{p.parent.name}/{p.stem}: {c}" for p, c in CASES]
)
def test_wire_case(path: Path, case_id: str) -> None:
    failures = runner.run_file(path, only=case_id)
    assert failures == []
