"""The hand-written code meets the bar the generated code does: ruff clean, mypy --strict."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT

HAND_WRITTEN = [
    "codegen",
    "tests",
    "benchmarks",
    "examples",
    "docs/_hooks",
    "interop",
    "noxfile.py",
    "templates/runtime",
    "templates/llm",
    "templates/aap",
    "templates/acp",
    "templates/skills",
    "templates/package/errors.py",
]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=ROOT, capture_output=True, text=True, check=False)


def test_ruff_check() -> None:
    result = run(sys.executable, "-m", "ruff", "check", "--no-cache", *HAND_WRITTEN)
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_format() -> None:
    result = run(sys.executable, "-m", "ruff", "format", "--no-cache", "--check", *HAND_WRITTEN)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.slow
def test_mypy_strict_on_the_generator(tmp_path: Path) -> None:
    result = run(sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path), "codegen")
    assert result.returncode == 0, result.stdout + result.stderr


def test_every_test_requirement_is_pinned_and_installed_as_pinned() -> None:
    """The suite's own tools and peers are pinned (``==``), so a release upstream cannot turn
    a fresh clone red (types-PyYAML 6.0.12.20261122 did: pyright strict found yaml.safe_dump
    partially unknown); and what is installed is what is pinned, so a stale environment says so
    here instead of failing somewhere else."""
    import re
    import tomllib
    from importlib import metadata

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    wanted = project["dependencies"] + project["optional-dependencies"]["test"]
    unpinned = []
    stale = []
    for requirement in wanted:
        pinned = re.fullmatch(r"([A-Za-z0-9_.\-]+)(?:\[[^\]]*\])?==([^;\s]+)", requirement)
        if pinned is None:
            if not requirement.startswith("setuptools"):  # the build backend, not a test tool
                unpinned.append(requirement)
            continue
        name, version = pinned.groups()
        installed = metadata.version(name)
        if installed != version:
            stale.append(f"{name}: {installed} installed, {version} pinned")
    assert not unpinned, f"pin these with ==: {unpinned}"
    assert not stale, f"{stale}: python3 -m pip install -e '.[test]' (from the repository root)"
