"""The golden gate: generated/ is exactly what the generator writes from the inputs."""

from __future__ import annotations

from codegen.package.output import read_tree, unified_diff
from codegen.pipeline import Layout
from tests.conftest import GENERATED


def test_generated_matches_inputs_and_builds_are_deterministic(built_project: Layout) -> None:
    """The session's build of a copy of the inputs and the release history writes generated/
    byte for byte. It ran in another folder, at another time, with another hash seed than the
    build that wrote generated/: drift, and any timestamp, path or ordering leak, shows here.
    (A version that does not match release/history.json is drift too: the copy's build would
    record another version. `build --check` itself is tested in test_cli.)"""
    built, checked_in = read_tree(built_project.out), read_tree(GENERATED)
    assert len(built) > 50
    assert built == checked_in, (
        "generated/ is stale; run `codegen build`:\n"
        + (unified_diff(checked_in, built, "generated")[:5000])
    )
