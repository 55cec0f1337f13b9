"""The typed surface as users' type checkers see it, with no plugin: pyright (VS Code's engine)
and mypy, on the generated package and on programs written from the docs (tests/typing/)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import GENERATED, ROOT

CORPUS = ROOT / "tests" / "typing"
PROGRAMS = sorted(CORPUS.glob("*.py"))
pytestmark = pytest.mark.slow


def run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(GENERATED)}
    return subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, check=False)


def pyright(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return run(sys.executable, "-m", "pyright", "--pythonpath", sys.executable, *args, cwd=cwd)


def test_user_programs_pass_pyright_strict() -> None:
    result = pyright(*[p.name for p in PROGRAMS], cwd=CORPUS)  # pyrightconfig.json: strict
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 errors" in result.stdout


def mypy(*paths: Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``mypy --strict`` with no config (so no plugin), as a user's project runs it."""
    options = ("--strict", "--no-incremental", "--config-file", os.devnull)
    return run(sys.executable, "-m", "mypy", *options, *map(str, paths), cwd=cwd)


def test_user_programs_pass_mypy_strict_without_plugin(tmp_path: Path) -> None:
    result = mypy(*PROGRAMS, cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize("program", ["acp_user.py", "aap_user.py"])
def test_user_programs_run(program: str) -> None:
    """The checked programs also do what they say (wire names out, snake_case in)."""
    result = run(sys.executable, program, cwd=CORPUS)
    assert result.returncode == 0, result.stderr
    assert '"sessionId":"s-1"' in result.stdout or '"agent":{"name":"echo"}' in result.stdout


MISTAKES = ROOT / "tests" / "typing_bad" / "acp_mistakes.py"


def marked_lines(path: Path) -> set[int]:
    lines = path.read_text().splitlines()
    return {n for n, line in enumerate(lines, 1) if "  # error: " in line}


def test_pyright_catches_each_mistake_and_nothing_else() -> None:
    result = pyright("--outputjson", MISTAKES.name, cwd=MISTAKES.parent)
    found = {
        d["range"]["start"]["line"] + 1
        for d in json.loads(result.stdout)["generalDiagnostics"]
        if d["severity"] == "error"
    }
    assert found == marked_lines(MISTAKES), result.stdout


def test_mypy_catches_each_mistake_and_nothing_else(tmp_path: Path) -> None:
    result = mypy(MISTAKES, cwd=tmp_path)
    found = {
        int(line.split(":")[1])
        for line in result.stdout.splitlines()
        if line.startswith(str(MISTAKES)) and ": error:" in line
    }
    assert found == marked_lines(MISTAKES), result.stdout


def test_package_passes_pyright(tmp_path: Path) -> None:
    shutil.copytree(GENERATED / "agentproto", tmp_path / "agentproto")
    (tmp_path / "pyrightconfig.json").write_text('{"pythonVersion": "3.11"}')
    result = pyright("agentproto", cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 errors" in result.stdout


def test_package_type_completeness_is_total(tmp_path: Path) -> None:
    """``pyright --verifytypes``: every exported symbol has a known, unambiguous type."""
    result = pyright(
        "--verifytypes", "agentproto", "--ignoreexternal", "--outputjson", cwd=tmp_path
    )
    report = json.loads(result.stdout)["typeCompleteness"]
    counts = report["exportedSymbolCounts"]
    unknown = [s["name"] for s in report["symbols"] if s["isExported"] and not s["isTypeKnown"]]
    assert report["completenessScore"] == 1, (counts, unknown[:20])
