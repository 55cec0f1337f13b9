"""The golden gate: generated/ is exactly what the generator writes from the inputs."""

from __future__ import annotations

from codegen.package.output import read_tree
from codegen.pipeline import Layout, build
from tests.conftest import GENERATED, ROOT


def test_generated_matches_inputs() -> None:
    result = build(Layout.for_root(ROOT), check=True)
    assert result.files > 0
    assert not result.changed, "generated/ is stale; run `codegen build`:\n" + result.diff[:5000]


def test_two_builds_write_identical_bytes(built_project: Layout) -> None:
    # The session build ran in another folder, at another time, with another hash seed than
    # the build that wrote generated/: any timestamp, path or ordering leak shows up here.
    assert read_tree(built_project.out) == read_tree(GENERATED)
