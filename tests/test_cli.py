"""The command line: build, build --check, list; exit codes; progress only on a terminal."""

from __future__ import annotations

import io
import subprocess
import sys
import time
from pathlib import Path

import pytest

from codegen.cli import main
from codegen.package.output import read_tree
from codegen.pipeline import build
from codegen.progress import Progress
from tests.conftest import ROOT, copy_project


def run_cli(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "codegen", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
    )


def test_list_prints_every_protocol_and_the_acp_method_table() -> None:
    result = run_cli("list")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    for protocol in ("acp", "aap", "skills", "agents_json", "ai_protocol"):
        assert f"\n{protocol} (" in "\n" + out
    for method in ("session/prompt", "session/update", "fs/read_text_file", "$/cancel_request"):
        assert method in out
    assert "session/fork" not in out  # unstable: only with --unstable
    assert "session/fork" in run_cli("list", "--unstable").stdout


def test_check_reports_drift_with_a_diff_and_exit_1(tmp_path: Path) -> None:
    layout = copy_project(tmp_path)
    build(layout)
    models = layout.out / "agentproto" / "aap" / "models.py"
    models.write_text(models.read_text() + "\nHAND_EDIT = 1\n")
    assert main(["--root", str(layout.root), "build", "--check"]) == 1
    result = run_cli("--root", str(layout.root), "build", "--check")
    assert result.returncode == 1
    assert "--- a/generated/agentproto/aap/models.py" in result.stdout
    assert "-HAND_EDIT = 1" in result.stdout
    assert "stale" in result.stderr
    # A build repairs it, and the check passes again.
    assert main(["--root", str(layout.root), "build"]) == 0
    assert run_cli("--root", str(layout.root), "build", "--check").returncode == 0


def test_noop_rebuild_is_skipped_and_fast(tmp_path: Path) -> None:
    layout = copy_project(tmp_path)
    build(layout)
    before = read_tree(layout.out)
    started = time.perf_counter()
    result = build(layout)
    elapsed = time.perf_counter() - started
    assert result.up_to_date
    assert read_tree(layout.out) == before
    # Not a speed test (the benchmark measures that): a skip that took seconds did not skip.
    assert elapsed < 3.0
    # Any change to the output defeats the skip.
    (layout.out / "README.md").write_text("edited\n")
    assert not build(layout).up_to_date
    assert read_tree(layout.out) == before


def test_progress_is_silent_when_piped_and_shown_on_a_terminal() -> None:
    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    piped, tty = io.StringIO(), Tty()
    for progress in (Progress(piped), Progress(tty)):
        progress.step("models: acp/models.py")
        progress.done()
    assert piped.getvalue() == ""
    assert "models: acp/models.py" in tty.getvalue()


def test_cli_build_is_quiet_on_stdout_when_piped(tmp_path: Path) -> None:
    # With the release history: stdout holds the report alone (the Unreleased section, when
    # the package has changes since the last release); progress never goes there.
    layout = copy_project(tmp_path, release=True)
    result = run_cli("--root", str(layout.root), "build")
    assert result.returncode == 0, result.stderr
    changelog = (layout.out / "CHANGELOG.md").read_text()
    if "\n## Unreleased" in changelog:
        unreleased = "## Unreleased" + changelog.split("\n## Unreleased")[1].split("\n## ")[0]
        assert result.stdout.strip() == unreleased.strip()
    else:
        assert result.stdout == ""
    assert "\r" not in result.stderr
    assert "wrote" in result.stderr


@pytest.mark.parametrize("argv", [["build", "--nope"], ["frobnicate"]])
def test_bad_arguments_exit_2(argv: list[str]) -> None:
    assert run_cli(*argv).returncode == 2
