"""The typed surface as users' type checkers see it, with no plugin: pyright (VS Code's engine)
and mypy, on the generated package and on programs written from the docs (tests/typing/)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.conftest import GENERATED, ROOT
from tests.docs_blocks import all_blocks, write_modules

CORPUS = ROOT / "tests" / "typing"
PROGRAMS = sorted(CORPUS.glob("*.py"))
pytestmark = pytest.mark.slow


def run(*args: str, cwd: Path, mypy_path: str = "") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(GENERATED)}
    if mypy_path:  # sources mypy checks as code of their own (not as installed packages)
        env["MYPYPATH"] = mypy_path
    return subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, check=False)


def pyright(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return run(sys.executable, "-m", "pyright", "--pythonpath", sys.executable, *args, cwd=cwd)


MISTAKES = ROOT / "tests" / "typing_bad" / "acp_mistakes.py"


@dataclass(frozen=True)
class Checked:
    """One checker's run over the user programs and the mistakes file at once (one run reads
    the package's types once for all of them): its error lines per file name, and its output
    for failure messages. The mistakes file, whose marked lines must be exactly the errors, is
    each run's positive control."""

    errors: dict[str, set[int]]
    output: str
    files: tuple[str, ...]

    def lines(self, name: str) -> set[int]:
        assert name in self.files, name
        return self.errors.get(name, set())


@pytest.fixture(scope="session")
def programs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The user programs and the mistakes side by side in one strict project."""
    folder = tmp_path_factory.mktemp("programs")
    for path in [*PROGRAMS, MISTAKES]:
        shutil.copy(path, folder / path.name)
    (folder / "pyrightconfig.json").write_text((CORPUS / "pyrightconfig.json").read_text())
    return folder


@pytest.fixture(scope="session")
def pyright_checked(programs: Path) -> Checked:
    files = sorted(p.name for p in programs.glob("*.py"))
    result = pyright("--outputjson", *files, cwd=programs)
    errors: dict[str, set[int]] = {}
    for d in json.loads(result.stdout)["generalDiagnostics"]:
        if d["severity"] == "error":
            errors.setdefault(Path(d["file"]).name, set()).add(d["range"]["start"]["line"] + 1)
    return Checked(errors, result.stdout, tuple(files))


@pytest.fixture(scope="session")
def mypy_checked(programs: Path) -> Checked:
    files = sorted(p.name for p in programs.glob("*.py"))
    result = mypy(*map(Path, files), cwd=programs)
    errors: dict[str, set[int]] = {}
    for line in result.stdout.splitlines():
        name, _, rest = line.partition(":")
        number = rest.split(":", 1)[0]
        if ": error:" in line and number.isdigit():
            errors.setdefault(Path(name).name, set()).add(int(number))
    return Checked(errors, result.stdout + result.stderr, tuple(files))


def test_user_programs_pass_pyright_strict(pyright_checked: Checked) -> None:
    for program in PROGRAMS:  # pyrightconfig.json: strict
        assert not pyright_checked.lines(program.name), pyright_checked.output


def mypy(*paths: Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``mypy --strict`` with no config (so no plugin), as a user's project runs it."""
    options = ("--strict", "--no-incremental", "--config-file", os.devnull)
    return run(sys.executable, "-m", "mypy", *options, *map(str, paths), cwd=cwd)


def test_user_programs_pass_mypy_strict_without_plugin(mypy_checked: Checked) -> None:
    for program in PROGRAMS:
        assert not mypy_checked.lines(program.name), mypy_checked.output


@pytest.mark.parametrize("program", ["acp_user.py", "aap_user.py"])
def test_user_programs_run(program: str) -> None:
    """The checked programs also do what they say (wire names out, snake_case in)."""
    result = run(sys.executable, program, cwd=CORPUS)
    assert result.returncode == 0, result.stderr
    assert '"sessionId":"s-1"' in result.stdout or '"agent":{"name":"echo"}' in result.stdout


def marked_lines(path: Path) -> set[int]:
    lines = path.read_text().splitlines()
    return {n for n, line in enumerate(lines, 1) if "  # error: " in line}


def test_pyright_catches_each_mistake_and_nothing_else(pyright_checked: Checked) -> None:
    marked = marked_lines(MISTAKES)
    assert len(marked) >= 10
    assert pyright_checked.lines(MISTAKES.name) == marked, pyright_checked.output


def test_mypy_catches_each_mistake_and_nothing_else(mypy_checked: Checked) -> None:
    assert mypy_checked.lines(MISTAKES.name) == marked_lines(MISTAKES), mypy_checked.output


# The package checked in three parts of similar cost (9-10 s, 8 s, 10 s alone; the whole at
# once took 20-24 s, the suite's slowest test): ACP's three editions, the LLM client and its MCP
# server, and everything else.
PYRIGHT_PARTS = {"acp": ("acp",), "llm": ("llm", "mcp"), "the rest": ()}


def _package_part(part: str) -> list[str]:
    """The files and folders of ``agentproto`` one part checks (``the rest``: all the others)."""
    entries = sorted(
        p.name
        for p in (GENERATED / "agentproto").iterdir()
        if p.name != "__pycache__" and (p.is_dir() or p.suffix == ".py")
    )
    named = {name for names in PYRIGHT_PARTS.values() for name in names}
    chosen = list(PYRIGHT_PARTS[part]) or [e for e in entries if e not in named]
    return [f"agentproto/{name}" for name in chosen]


@pytest.mark.parametrize("part", sorted(PYRIGHT_PARTS))
def test_package_passes_pyright_strict(tmp_path: Path, part: str) -> None:
    """The package's own code, in strict mode: nothing of unknown type, no protected access
    across classes, no needless checks (what a strict user project sees when it follows a
    call into the library)."""
    shutil.copytree(GENERATED / "agentproto", tmp_path / "agentproto")
    (tmp_path / "pyrightconfig.json").write_text((CORPUS / "pyrightconfig.json").read_text())
    result = pyright(*_package_part(part), cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 errors" in result.stdout


def test_the_pyright_parts_cover_the_package_once() -> None:
    parts = [entry for part in PYRIGHT_PARTS for entry in _package_part(part)]
    assert len(parts) == len(set(parts))
    every = {
        f"agentproto/{p.relative_to(GENERATED / 'agentproto').parts[0]}"
        for p in (GENERATED / "agentproto").rglob("*.py")
    }
    assert every == set(parts)


def test_package_type_completeness_is_total(tmp_path: Path) -> None:
    """``pyright --verifytypes``: every exported symbol has a known, unambiguous type."""
    result = pyright(
        "--verifytypes", "agentproto", "--ignoreexternal", "--outputjson", cwd=tmp_path
    )
    report = json.loads(result.stdout)["typeCompleteness"]
    counts = report["exportedSymbolCounts"]
    unknown = [s["name"] for s in report["symbols"] if s["isExported"] and not s["isTypeKnown"]]
    assert report["completenessScore"] == 1, (counts, unknown[:20])


# The docs' Python blocks (the root README, every page of docs/, the generated package's
# README: tests/docs_blocks.py), the examples they embed, and the docs site's hook.
EXAMPLES = ROOT / "examples"


def docs_programs(dest: Path) -> list[Path]:
    """Every block as a module of its own under ``dest``, plus the examples and the hook."""
    files = write_modules(dest, [b for b in all_blocks() if not b.only_embeds])
    return [*files, *sorted(EXAMPLES.glob("*.py")), ROOT / "docs" / "_hooks" / "reference.py"]


def test_docs_examples_pass_pyright_and_mypy_strict(tmp_path: Path) -> None:
    """The docs' examples are programs a user can paste: complete, and clean in both type
    checkers in strict mode with no plugin (placeholders like ``...`` would not be)."""
    files = docs_programs(tmp_path)
    assert len(files) >= 25
    # The examples import their neighbour (_peers).
    config = {
        **json.loads((CORPUS / "pyrightconfig.json").read_text()),
        "extraPaths": [str(ROOT), str(EXAMPLES)],
    }
    (tmp_path / "pyrightconfig.json").write_text(json.dumps(config))
    checked = pyright(*map(str, files), cwd=tmp_path)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "0 errors" in checked.stdout
    checked = run(
        sys.executable,
        "-m",
        "mypy",
        "--strict",
        "--no-incremental",
        "--config-file",
        os.devnull,
        *map(str, files),
        cwd=tmp_path,
        mypy_path=f"{ROOT}{os.pathsep}{EXAMPLES}",
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_a_wrong_docs_example_is_caught(tmp_path: Path) -> None:
    """What the check above guards against: a block calling a client with a misspelt keyword."""
    bad = tmp_path / "bad_block.py"
    bad.write_text(
        "from agentproto.acp.models import PromptRequest\n"
        "PromptRequest(sesion_id='s-1', prompt=[])\n"
    )
    assert mypy(bad, cwd=tmp_path).returncode == 1
    (tmp_path / "pyrightconfig.json").write_text((CORPUS / "pyrightconfig.json").read_text())
    assert pyright(bad.name, cwd=tmp_path).returncode == 1


def test_generated_readme_model_examples_print_what_they_say(tmp_path: Path) -> None:
    """The generated package's README blocks that need no peer run as pasted (the root README's
    and the docs site's blocks are all run by tests/test_docs.py)."""
    page = [b for b in all_blocks() if b.page == "generated/README.md"]
    models, unions = page[0], page[1]
    for block in (models, unions):
        (tmp_path / f"{block.module}.py").write_text(block.code)
    ran = run(sys.executable, f"{models.module}.py", cwd=tmp_path)
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.splitlines()[-1] == "s-1"
    ran = run(sys.executable, f"{unions.module}.py", cwd=tmp_path)
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.splitlines() == ["Hi", "hologram {'frames': 3}"]
