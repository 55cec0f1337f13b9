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
