"""The command line: build, build --check, list; exit codes; progress only on a terminal."""

from __future__ import annotations

import io
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from codegen.cli import main
from codegen.package.output import read_tree
from codegen.pipeline import Layout, build
from codegen.progress import Progress
from tests.conftest import PROTOCOL_FOLDERS, ROOT, clone_project, copy_project


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
    for protocol in PROTOCOL_FOLDERS:
        assert f"\n{protocol} (" in "\n" + out
    for method in ("session/prompt", "session/update", "fs/read_text_file", "$/cancel_request"):
        assert method in out
    assert "session/fork" not in out  # unstable: only with --unstable
    assert "session/fork" in run_cli("list", "--unstable").stdout


def test_check_reports_drift_with_a_diff_and_exit_1(
    built_aap: Layout, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # An AAP-only project shows every step: drift is drift whatever the package holds.
    layout = clone_project(built_aap, tmp_path)
    models = layout.out / "agentproto" / "aap" / "models.py"
    models.write_text(models.read_text() + "\nHAND_EDIT = 1\n")
    assert main(["--root", str(layout.root), "build", "--check"]) == 1
    out, err = capsys.readouterr()
    assert "--- a/generated/agentproto/aap/models.py" in out
    assert "-HAND_EDIT = 1" in out
    assert "stale" in err
    result = run_cli("--root", str(layout.root), "build", "--check")  # the process: exit 1
    assert result.returncode == 1
    assert "-HAND_EDIT = 1" in result.stdout and "stale" in result.stderr
    # A build repairs it, and the check passes again.
    assert main(["--root", str(layout.root), "build"]) == 0
    assert main(["--root", str(layout.root), "build", "--check"]) == 0


def test_noop_rebuild_is_skipped_and_fast(built_aap: Layout, tmp_path: Path) -> None:
    layout = clone_project(built_aap, tmp_path)
    build(layout)  # the clone's first build records its no-op state here
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


def test_cli_build_is_quiet_on_stdout_when_piped(built_aap: Layout, tmp_path: Path) -> None:
    # With its release history: stdout holds the report alone (the Unreleased section, when
    # the package has changes since the last release); progress never goes there. (An
    # AAP-only project: the streams are the same whatever the package holds.)
    layout = clone_project(built_aap, tmp_path)
    shutil.rmtree(layout.out)  # written again, from the inputs and the history
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


# -- warnings: one summary line per build, never on the progress line -----------------------


def screen(written: str) -> list[str]:
    """The lines a terminal shows for ``written`` (``\\r`` returns to the line's start)."""
    lines: list[list[str]] = [[]]
    column = 0
    for char in written:
        if char == "\n":
            lines.append([])
            column = 0
        elif char == "\r":
            column = 0
        else:
            line = lines[-1]
            line[column : column + 1] = [char]
            column += 1
    return ["".join(line).rstrip() for line in lines]


def test_warnings_never_share_the_progress_line_and_are_summarised() -> None:
    import logging

    from codegen.progress import Topic, build_log, topic_extra

    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    log = logging.getLogger("codegen")
    topic = Topic("agents.json", "bundles", "kinds of lenient reading or warning")
    for verbose in (False, True):
        tty = Tty()
        progress = Progress(tty)
        with build_log(progress, tty, verbose=verbose):
            progress.step("models: acp/models.py")
            log.warning("an unexpected thing")  # no topic: always in full
            progress.step("templates")
            for name, kinds in (("giphy", 2), ("resend", 3)):
                log.warning(
                    "%s: read with %d kind(s)", name, kinds, extra=topic_extra(topic, name, kinds)
                )
            progress.done()
        shown = [line for line in screen(tty.getvalue()) if line]
        assert not [line for line in shown if "warning" in line and "s] " in line], shown
        assert "codegen: warning: an unexpected thing" in shown
        summary = "codegen: warning: agents.json: 2 bundles read with 5 kinds of lenient reading"
        if verbose:
            assert "codegen: warning: resend: read with 3 kind(s)" in shown
            assert not any(line.startswith(summary) for line in shown)
        else:
            assert not any("giphy" in line or "resend" in line for line in shown), shown
            assert [line for line in shown if line.startswith(summary)] == [
                summary + " or warning (details: --verbose)"
            ]
    assert log.propagate and not log.handlers  # the routing ends with the build


def test_a_build_summarises_the_bundle_warnings_in_one_line(tmp_path: Path) -> None:
    import re
    import shutil

    layout = copy_project(tmp_path)
    for name in PROTOCOL_FOLDERS:
        if name != "agents_json":
            shutil.rmtree(layout.schemas / name)
    quiet = run_cli("--root", str(layout.root), "build")
    assert quiet.returncode == 0, quiet.stderr
    warned = [line for line in quiet.stderr.splitlines() if "warning" in line]
    assert len(warned) == 1, quiet.stderr
    assert "/flows/" not in quiet.stderr
    match = re.fullmatch(
        r"codegen: warning: agents\.json: (\d+) bundles read with (\d+) kinds of lenient "
        r"reading or warning \(details: --verbose\)",
        warned[0],
    )
    assert match, warned[0]
    loud = run_cli("--root", str(layout.root), "build", "--force", "--verbose")
    assert loud.returncode == 0, loud.stderr
    kinds = [int(k) for k in re.findall(r"agents\.json: read with (\d+) kind", loud.stderr)]
    assert (len(kinds), sum(kinds)) == (int(match[1]), int(match[2])) and kinds
    assert "/flows/" in loud.stderr and "details: --verbose" not in loud.stderr
