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


def test_package_passes_pyright_strict(tmp_path: Path) -> None:
    """The package's own code, in strict mode: nothing of unknown type, no protected access
    across classes, no needless checks (what a strict user project sees when it follows a
    call into the library)."""
    shutil.copytree(GENERATED / "agentproto", tmp_path / "agentproto")
    (tmp_path / "pyrightconfig.json").write_text((CORPUS / "pyrightconfig.json").read_text())
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


# The generator's README and the package's (which holds the docs/*.md pages).
READMES = {"main": ROOT / "README.md", "generated": GENERATED / "README.md"}


def readme_examples(dest: Path) -> list[Path]:
    """Every ```python block of the READMEs, as a module of its own (``main_0.py``...)."""
    files = []
    for label, readme in READMES.items():
        blocks = readme.read_text(encoding="utf-8").split("```python\n")[1:]
        for n, block in enumerate(blocks):
            path = dest / f"{label}_{n}.py"
            path.write_text(block.split("```", 1)[0], encoding="utf-8")
            files.append(path)
    return files


def test_readme_examples_pass_pyright_and_mypy_strict(tmp_path: Path) -> None:
    """The READMEs' examples are programs a user can paste: complete, and clean in both type
    checkers in strict mode with no plugin (placeholders like ``...`` would not be)."""
    files = readme_examples(tmp_path)
    assert len(files) >= 10
    (tmp_path / "pyrightconfig.json").write_text((CORPUS / "pyrightconfig.json").read_text())
    checked = pyright(*[f.name for f in files], cwd=tmp_path)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    checked = mypy(*files, cwd=tmp_path)
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_readme_model_examples_print_what_they_say(tmp_path: Path) -> None:
    """The examples that need no peer run as pasted, and print what their comments claim."""
    files = {f.name: f for f in readme_examples(tmp_path)}
    models = run(sys.executable, files["main_0.py"].name, cwd=tmp_path)
    assert models.returncode == 0, models.stderr
    assert models.stdout.splitlines()[0] == "s-1" and models.stdout.splitlines()[-1] == "Hi"
    unions = run(sys.executable, files["generated_1.py"].name, cwd=tmp_path)
    assert unions.returncode == 0, unions.stderr
    assert unions.stdout.splitlines() == ["Hi", "hologram {'frames': 3}"]
