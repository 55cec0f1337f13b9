"""Publishing (issues 19, 24): the API snapshot, the semver verdict, the version, the changelog.

A build lists the changes since the last release as *Unreleased*; ``codegen release`` records
them as one version (``build(..., release=Release())``). Schema changes of each kind are made
in a scratch project that holds only AAP (a build takes about a second), starting from a
baseline built once per module; the real refresh (ACP schema from @agentclientprotocol/sdk
2.0.0 to the vendored 2.4.0) builds an ACP-only project.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from codegen.errors import BuildError
from codegen.pipeline import Layout, build
from codegen.release.changelog import RELEASED_FILE, load
from codegen.release.publishing import Release, api_digest
from codegen.release.semver import bump, compare, compare_types, overall
from codegen.release.snapshot import SNAPSHOT_FILE, derive, input_lines, parse
from tests.conftest import GENERATED, PROTOCOL_FOLDERS, ROOT, copy_project

FIXTURES = Path(__file__).parent / "fixtures" / "acp_refresh"


def only(layout: Layout, keep: str) -> Layout:
    """Drop every protocol but ``keep`` and the copied release history: a fresh package."""
    for name in PROTOCOL_FOLDERS:
        if name != keep:
            shutil.rmtree(layout.schemas / name)
    shutil.rmtree(layout.root / "release", ignore_errors=True)
    return layout


@pytest.fixture(scope="module")
def aap_base(tmp_path_factory: pytest.TempPathFactory) -> Layout:
    layout = only(copy_project(tmp_path_factory.mktemp("aap-base")), "aap")
    build(layout)
    return layout


def clone(base: Layout, dest: Path) -> Layout:
    for name in ("schemas", "templates", "release", "generated"):
        shutil.copytree(base.root / name, dest / name)
    return Layout.for_root(dest)


def edit_schema(layout: Layout, change: Callable[[dict[str, Any]], None]) -> None:
    path = layout.schemas / "aap" / "aap.schema.json"
    data = json.loads(path.read_text())
    change(data["$defs"])
    path.write_text(json.dumps(data, indent=2))


def edit_spec(layout: Layout, change: Callable[[dict[str, Any]], None]) -> None:
    path = layout.schemas / "aap" / "spec.yaml"
    data = yaml.safe_load(path.read_text())
    change(data)
    path.write_text(yaml.safe_dump(data, sort_keys=False))


def version_of(layout: Layout) -> str:
    data = tomllib.loads((layout.out / "pyproject.toml").read_text())
    return str(data["project"]["version"])


def latest_entry(layout: Layout) -> str:
    text = (layout.out / "CHANGELOG.md").read_text()
    return "## " + text.split("\n## ")[1]


def headings(layout: Layout) -> list[str]:
    text = (layout.out / "CHANGELOG.md").read_text()
    return [line for line in text.splitlines() if line.startswith("## ")]


def versions(layout: Layout) -> list[tuple[str, str]]:
    records = load(layout.history_file)
    assert records is not None
    return [(r.version, r.level) for r in records]


# -- the baseline ---------------------------------------------------------------------------


def test_first_build_is_the_initial_version(aap_base: Layout) -> None:
    assert version_of(aap_base) == "0.1.0"
    records = load(aap_base.history_file)
    assert records is not None and [r.level for r in records] == ["initial"]
    assert records[0].snapshot == api_digest((aap_base.out / SNAPSHOT_FILE).read_text())
    # the initial version is the baseline: its snapshot is the released one
    assert (aap_base.history_file.parent / RELEASED_FILE).read_bytes() == (
        aap_base.out / SNAPSHOT_FILE
    ).read_bytes()
    assert latest_entry(aap_base).startswith("## 0.1.0 (initial)")
    init = (aap_base.out / "agentproto" / "__init__.py").read_text()
    assert '__version__ = "0.1.0"' in init and '"aap": "3"' in init


# -- one schema change of each kind ---------------------------------------------------------


def _add_field(d: dict[str, Any]) -> None:
    d["SessionInfo"]["properties"]["title"] = {"type": "string", "description": "A title."}


def _remove_field(d: dict[str, Any]) -> None:
    del d["SessionInfo"]["properties"]["tools"]


def _make_required(d: dict[str, Any]) -> None:
    d["SessionInfo"]["required"].append("tools")


def _add_enum_value(d: dict[str, Any]) -> None:
    d["StopReason"]["enum"].append("paused")


def _remove_enum_value(d: dict[str, Any]) -> None:
    d["StopReason"]["enum"].remove("refusal")


def _edit_description(d: dict[str, Any]) -> None:
    d["SessionInfo"]["properties"]["sessionId"]["description"] = "The session's identifier."


def _add_method(spec: dict[str, Any]) -> None:
    meta = next(op for op in spec["operations"] if op["name"] == "get_meta")
    spec["operations"].append(
        {**meta, "name": "get_meta_again", "http": {**meta["http"], "path": "/meta-again"}}
    )


def _remove_method(spec: dict[str, Any]) -> None:
    spec["operations"] = [op for op in spec["operations"] if op["name"] != "delete_session"]


KINDS = [
    # kind, schema or spec change, level, version, lines the changelog entry must hold
    ("field added", _add_field, None, "minor", "0.1.1",
     ["`agentproto.aap.models.SessionInfo.title`: field added"]),
    ("field removed", _remove_field, None, "major", "0.2.0",
     ["`agentproto.aap.models.SessionInfo.tools`: field removed"]),
    ("optional made required", _make_required, None, "major", "0.2.0",
     ["`agentproto.aap.models.SessionInfo.tools`: optional field made required"]),
    ("enum value added", _add_enum_value, None, "minor", "0.1.1",
     ["`agentproto.aap.models.StopReason`: type widened", "(+ Literal['paused'])"]),
    ("enum value removed", _remove_enum_value, None, "major", "0.2.0",
     ["`agentproto.aap.models.StopReason`: type narrowed", "(- Literal['refusal'])"]),
    ("method added", None, _add_method, "minor", "0.1.1",
     ["`agentproto.aap.client.AAPClient.get_meta_again`: def added",
      "`agentproto.aap.client.AsyncAAPClient.get_meta_again`: async def added"]),
    ("method removed", None, _remove_method, "major", "0.2.0",
     ["`agentproto.aap.client.AAPClient.delete_session`: def removed",
      "`agentproto.aap.client.AsyncAAPClient.delete_session`: async def removed"]),
    ("description edited", _edit_description, None, "patch", "0.1.1",
     ["docs edited: 2 (`agentproto.aap.models.GetSessionResponse.session_id`, "
      "`agentproto.aap.models.SessionInfo.session_id`)"]),
]  # fmt: skip


@pytest.mark.parametrize(
    ("schema_change", "spec_change", "level", "version", "lines"),
    [pytest.param(*k[1:], id=k[0]) for k in KINDS],
)
def test_each_kind_of_change_gives_its_class_version_and_entry(
    aap_base: Layout,
    tmp_path: Path,
    schema_change: Callable[[dict[str, Any]], None] | None,
    spec_change: Callable[[dict[str, Any]], None] | None,
    level: str,
    version: str,
    lines: list[str],
) -> None:
    layout = clone(aap_base, tmp_path)
    if schema_change:
        edit_schema(layout, schema_change)
    if spec_change:
        edit_spec(layout, spec_change)
    history = layout.history_file.read_bytes()
    result = build(layout)
    # A build shows the change as unreleased and records nothing.
    assert result.changed and not result.recorded
    assert (result.version, result.pending, result.next_version) == ("0.1.0", level, version)
    assert version_of(layout) == "0.1.0"
    assert layout.history_file.read_bytes() == history
    unreleased = latest_entry(layout)
    assert unreleased.startswith(
        f"## Unreleased ({level}, since 0.1.0: `codegen release` records {version})"
    ), unreleased
    assert "- aap/" in unreleased  # names the input that caused it
    for line in lines:
        assert line in unreleased, unreleased
    assert result.report.strip() == unreleased.strip()  # what the build printed
    # The release records it.
    released = build(layout, release=Release())
    assert released.recorded and released.version == version == version_of(layout)
    entry = latest_entry(layout)
    assert entry.startswith(f"## {version} ({level}, from 0.1.0)"), entry
    assert entry.split("\n", 1)[1] == unreleased.split("\n", 1)[1]
    assert released.report.strip() == entry.strip()
    assert versions(layout) == [("0.1.0", "initial"), (version, level)]
    init = (layout.out / "agentproto" / "__init__.py").read_text()
    assert f'__version__ = "{version}"' in init
    # Built again: nothing more to record, nothing unreleased, the same bytes.
    history = layout.history_file.read_bytes()
    again = build(layout, force=True)
    assert not again.changed and again.version == version and not again.report
    assert not again.pending
    assert layout.history_file.read_bytes() == history
    assert not build(layout, check=True).changed


# -- state: history, check, force -----------------------------------------------------------


FOUR_CHANGES: list[tuple[str, Callable[[Layout], None], str, str]] = [
    # what the scratch project is changed by, the accumulated level and the line it adds
    ("add a field", lambda lay: edit_schema(lay, _add_field), "minor",
     "`agentproto.aap.models.SessionInfo.title`: field added"),
    ("add a method", lambda lay: edit_spec(lay, _add_method), "minor",
     "`agentproto.aap.client.AAPClient.get_meta_again`: def added"),
    ("remove an enum value", lambda lay: edit_schema(lay, _remove_enum_value), "major",
     "`agentproto.aap.models.StopReason`: type narrowed"),
    ("edit a description", lambda lay: edit_schema(lay, _edit_description), "major",
     "docs edited: 2 (`agentproto.aap.models.GetSessionResponse.session_id`, "
     "`agentproto.aap.models.SessionInfo.session_id`)"),
]  # fmt: skip


def test_four_changes_then_one_release_give_one_version(aap_base: Layout, tmp_path: Path) -> None:
    """Four successive API changes, each built (and each build repeated): no version is
    recorded, the Unreleased section grows; one release then records exactly one version
    whose entry names all four."""
    layout = clone(aap_base, tmp_path)
    history = layout.history_file.read_bytes()
    seen: list[str] = []
    for _what, change, level, line in FOUR_CHANGES:
        change(layout)
        result = build(layout)
        again = build(layout, force=True)
        assert result.changed and not result.recorded and not again.recorded
        assert result.version == again.version == version_of(layout) == "0.1.0"
        assert result.pending == level and result.next_version == bump("0.1.0", level)
        assert layout.history_file.read_bytes() == history
        seen.append(line)
        unreleased = latest_entry(layout)
        assert unreleased.startswith(f"## Unreleased ({level}, since 0.1.0"), unreleased
        assert all(line in unreleased for line in seen), unreleased
    assert headings(layout)[1:] == ["## 0.1.0 (initial)"]

    released = build(layout, release=Release())
    assert released.recorded and released.version == "0.2.0" == version_of(layout)
    assert versions(layout) == [("0.1.0", "initial"), ("0.2.0", "major")]
    assert headings(layout) == ["## 0.2.0 (major, from 0.1.0)", "## 0.1.0 (initial)"]
    entry = latest_entry(layout)
    for _what, _change, _level, line in FOUR_CHANGES:
        assert line in entry, entry
    assert (layout.history_file.parent / RELEASED_FILE).read_bytes() == (
        layout.out / SNAPSHOT_FILE
    ).read_bytes()
    # Nothing left to release; a rebuild records nothing.
    assert not build(layout, release=Release()).recorded
    assert not build(layout, force=True).recorded
    assert versions(layout) == [("0.1.0", "initial"), ("0.2.0", "major")]


def test_release_may_ask_for_a_higher_level_never_a_lower_one(
    aap_base: Layout, tmp_path: Path
) -> None:
    layout = clone(aap_base, tmp_path)
    edit_schema(layout, _remove_field)  # major
    with pytest.raises(BuildError) as error:
        build(layout, release=Release("minor"))
    assert "cannot be released as minor" in str(error.value)
    assert versions(layout) == [("0.1.0", "initial")]
    layout = clone(aap_base, tmp_path / "minor")
    edit_schema(layout, _add_field)  # minor: 0.1.1; asked major: 0.2.0
    assert build(layout, release=Release("major")).version == "0.2.0"
    assert versions(layout) == [("0.1.0", "initial"), ("0.2.0", "major")]


def test_check_shows_the_unreleased_change_and_writes_nothing(
    aap_base: Layout, tmp_path: Path
) -> None:
    layout = clone(aap_base, tmp_path)
    edit_schema(layout, _remove_field)
    history = layout.history_file.read_bytes()
    before = (layout.out / "pyproject.toml").read_bytes()
    result = build(layout, check=True)
    assert result.changed and result.version == "0.1.0" and result.next_version == "0.2.0"
    assert "+## Unreleased (major, since 0.1.0: `codegen release` records 0.2.0)" in result.diff
    assert "pyproject.toml" not in result.diff  # the version stays the released one
    assert layout.history_file.read_bytes() == history
    assert (layout.out / "pyproject.toml").read_bytes() == before
    dry = build(layout, check=True, release=Release())  # codegen release --dry-run
    assert dry.recorded and dry.version == "0.2.0"
    assert dry.report.startswith("## 0.2.0 (major, from 0.1.0)")
    assert layout.history_file.read_bytes() == history
    assert (layout.out / "pyproject.toml").read_bytes() == before


def test_check_fails_on_a_hand_edited_version(aap_base: Layout, tmp_path: Path) -> None:
    layout = clone(aap_base, tmp_path)
    path = layout.out / "pyproject.toml"
    path.write_text(path.read_text().replace('version = "0.1.0"', 'version = "1.0.0"'))
    result = build(layout, check=True)
    assert result.changed and '-version = "1.0.0"\n+version = "0.1.0"' in result.diff


def test_a_history_that_does_not_add_up_is_an_error(aap_base: Layout, tmp_path: Path) -> None:
    layout = clone(aap_base, tmp_path)
    edit_schema(layout, _add_field)
    build(layout, release=Release())
    data = json.loads(layout.history_file.read_text())
    data["versions"][1]["version"] = "0.2.0"  # a minor change after 0.1.0 is 0.1.1
    layout.history_file.write_text(json.dumps(data))
    with pytest.raises(BuildError) as error:
        build(layout, check=True)
    problem = str(error.value.problems[0])
    assert "history.json" in problem and "/versions/1/version" in problem
    assert "expected 0.1.1" in problem


def test_the_released_snapshot_is_checked_against_the_history(
    aap_base: Layout, tmp_path: Path
) -> None:
    layout = clone(aap_base, tmp_path)
    released = layout.history_file.parent / RELEASED_FILE
    snapshot = released.read_text()
    released.write_text(snapshot.replace("class SessionInfo", "class SessionInfoX"))
    with pytest.raises(BuildError) as error:
        build(layout, force=True)
    assert "not the API snapshot of version 0.1.0" in str(error.value)
    # Missing, and generated/API.txt is that version's (a history from before the file
    # existed): adopted and written.
    released.unlink()
    build(layout, force=True)
    assert released.read_text() == snapshot
    # Missing, and nothing to take it from: refused, nothing written.
    released.unlink()
    (layout.out / SNAPSHOT_FILE).unlink()
    before = sorted(p.name for p in layout.out.iterdir())
    with pytest.raises(BuildError) as error:
        build(layout, force=True)
    assert "missing: the API snapshot of version 0.1.0" in str(error.value)
    assert sorted(p.name for p in layout.out.iterdir()) == before


def test_a_build_into_an_empty_folder_compares_with_the_release(
    aap_base: Layout, tmp_path: Path
) -> None:
    """The base of the comparison is in release/, not in the output folder."""
    layout = clone(aap_base, tmp_path)
    edit_schema(layout, _add_field)
    elsewhere = Layout.for_root(layout.root, out=tmp_path / "elsewhere")
    result = build(elsewhere)
    assert result.pending == "minor" and result.version == "0.1.0"
    assert build(layout).report == result.report


def test_the_checked_in_package_matches_its_history() -> None:
    records = load(ROOT / "release" / "history.json")
    assert records is not None
    snapshot = (GENERATED / SNAPSHOT_FILE).read_text()
    released = (ROOT / "release" / RELEASED_FILE).read_text()
    assert records[-1].snapshot == api_digest(released)
    changelog = (GENERATED / "CHANGELOG.md").read_text()
    if api_digest(snapshot) != api_digest(released):
        assert "\n## Unreleased (" in changelog
    else:
        assert "\n## Unreleased" not in changelog
    import agentproto

    assert agentproto.__version__ == records[-1].version
    pyproject = tomllib.loads((GENERATED / "pyproject.toml").read_text())
    assert pyproject["project"]["version"] == records[-1].version


def test_protocol_versions_are_run_time_data() -> None:
    import agentproto

    tables = [yaml.safe_load(p.read_text()) for p in ROOT.glob("schemas/*/spec*.yaml")]
    assert dict(agentproto.PROTOCOL_VERSIONS) == {
        t["protocol"] + (f".{t['edition']}" if "edition" in t else ""): str(t["version"])
        for t in tables
    }
    assert agentproto.PROTOCOL_VERSIONS["acp.v2"] == "2"  # an edition of ACP's table
    with pytest.raises(TypeError):
        agentproto.PROTOCOL_VERSIONS["acp"] = "2"  # type: ignore[index]  # read-only, on purpose
    from codegen import __version__

    assert agentproto.GENERATOR_VERSION == f"codegen {__version__}"


# -- the classifier on small sources ---------------------------------------------------------


def snap(source: str) -> Any:
    return parse(derive({"pkg/__init__.py": b"", "pkg/mod.py": source.encode()}))


@pytest.mark.parametrize(
    ("before", "after", "level", "what"),
    [
        ("def f(a: int, b: str) -> None: ...", "def f(b: str, a: int) -> None: ...",
         "major", "positional order changed"),
        ("def f(a: int) -> None: ...", "def f(a: int, b: int = 0) -> None: ...",
         "minor", "optional parameter b added"),
        ("def f(a: int) -> None: ...", "def f(a: int, b: int) -> None: ...",
         "major", "required parameter b added"),
        ("def f(a: int = 0) -> None: ...", "def f(a: int) -> None: ...",
         "major", "parameter a made required"),
        ("def f(a: int) -> None: ...", "def f(a: int | str) -> None: ...",
         "minor", "parameter a: type widened"),
        ("def f(a: int | str) -> None: ...", "def f(a: int) -> None: ...",
         "major", "parameter a: type narrowed"),
        ("def f() -> int: ...", "def f() -> int | None: ...", "major", "return type widened"),
        ("def f(a: int | None) -> None: ...", "def f(a: str | None) -> None: ...",
         "major", "parameter a: type changed: int | None -> str | None (- int; + str)"),
        ("def f(a: int) -> None: ...", "def g(a: int) -> None: ...", "major", "renamed to g"),
        ("class A:\n    x: int\n", "class A:\n    x: int\n    y: int = 0\n",
         "minor", "field added"),
        ("class A:\n    x: int = 0\n", "class A:\n    x: str = ''\n", "major", "type changed"),
        ('def f() -> None:\n    """One."""\n', 'def f() -> None:\n    """Two."""\n',
         "patch", "docs edited"),
        ("X = 1\n", "X = 2\n", "patch", "constant value changed"),
        ("class A:\n    @staticmethod\n    def m(x: int) -> int: ...\n",
         "class A:\n    def m(self, x: int) -> int: ...\n", "major", "decorators changed"),
        ("from dataclasses import dataclass\n@dataclass\nclass A:\n    x: int\n",
         "from dataclasses import dataclass\n@dataclass(kw_only=True)\nclass A:\n    x: int\n",
         "major", "decorators changed"),
        ("class A:\n    x: int\n", "class A(B):\n    x: int\n", "minor", "base class added"),
        ("class A(B, C):\n    x: int\n", "class A(C, B):\n    x: int\n",
         "major", "base classes reordered"),
        # a root base replaced by a class that derives from it: nothing is lost
        ("class E(Exception):\n    pass\n", "class E(RootError):\n    pass\n",
         "minor", "base class replaced"),
        ("class A(object):\n    x: int\n", "class A(B):\n    x: int\n",
         "minor", "base class replaced"),
        ("class E(Exception):\n    pass\n", "class E(Mixin):\n    pass\n",
         "major", "base class removed"),  # not an exception class by its name
        ("class E(ValueError):\n    pass\n", "class E(RootError):\n    pass\n",
         "major", "base class removed"),  # `except ValueError` no longer catches it
    ],
)  # fmt: skip
def test_classifier(before: str, after: str, level: str, what: str) -> None:
    changes = compare(snap(before), snap(after))
    assert overall(changes) == level, changes
    assert any(what in c.what for c in changes if c.level == level), changes


def test_a_thing_moved_and_still_exported_is_not_a_removal() -> None:
    """A function moved to another module and re-exported where it was: imports keep working,
    so it is a patch; what it became is compared at its new home; without the re-export it is
    a removal."""

    def package(mod: str, other: str) -> Any:
        return parse(
            derive(
                {"pkg/__init__.py": b"", "pkg/mod.py": mod.encode(), "pkg/other.py": other.encode()}
            )
        )

    before = package("def f(a: int) -> None: ...\n", "")
    reexport = 'from pkg.other import f\n__all__ = ["f"]\n'
    moved = compare(before, package(reexport, "def f(a: int) -> None: ...\n"))
    assert overall(moved) == "patch", moved
    assert any(c.where == "pkg.mod.f" and "moved to pkg.other" in c.what for c in moved)
    changed = compare(before, package(reexport, "def f(a: str) -> None: ...\n"))
    assert overall(changed) == "major"
    assert any(c.where == "pkg.other.f" and "type changed" in c.what for c in changed), changed
    dropped = compare(before, package("", "def f(a: int) -> None: ...\n"))
    assert any(c.where == "pkg.mod.f" and c.what == "def removed" for c in dropped), dropped


def test_types_and_bumps() -> None:
    assert compare_types("Literal['a', 'b']", "Literal['a', 'b']") == []
    assert [lv for lv, _ in compare_types("Literal['a']", "Literal['a', 'b']")] == ["minor"]
    assert [lv for lv, _ in compare_types("Literal['a', 'b']", "Literal['b']")] == ["major"]
    assert [lv for lv, _ in compare_types("int | str", "str | int")] == ["patch"]
    assert [bump("0.3.1", lv) for lv in ("major", "minor", "patch")] == ["0.4.0", "0.3.2", "0.3.2"]
    assert [bump("1.3.1", lv) for lv in ("major", "minor", "patch")] == ["2.0.0", "1.4.0", "1.3.2"]


def test_snapshot_lists_what_users_import() -> None:
    text = (GENERATED / SNAPSHOT_FILE).read_text()
    api = parse(text).api
    prompt = ("agentproto.acp.models", "PromptRequest", "session_id")
    assert api[prompt].text == "field session_id: str required alias='sessionId'"
    assert ("agentproto.acp", "export PromptRequest") in api
    assert any(k[:2] == ("agentproto.acp.connection", "AgentConnection") for k in api)
    assert not any("_runtime" in k[0] for k in api)  # private modules are not API
    assert "Literal['end_turn'" in api[("agentproto.acp.models", "StopReason")].text


# -- codegen diff ----------------------------------------------------------------------------


def codegen(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "codegen", *args]
    return subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, check=False)


def test_diff_between_two_git_revisions(aap_base: Layout, tmp_path: Path) -> None:
    layout = clone(aap_base, tmp_path)
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-C", str(tmp_path)]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-q", "-m", "base"], check=True)
    edit_schema(layout, _add_enum_value)
    build(layout, release=Release())
    subprocess.run([*git, "commit", "-q", "-a", "-m", "refresh"], check=True)
    history = layout.history_file.read_bytes()

    result = codegen("diff", "HEAD~1", "HEAD", cwd=tmp_path)
    assert result.returncode == 4, result.stdout + result.stderr  # minor
    assert result.stdout.startswith("## HEAD (minor, from HEAD~1)")
    assert "(+ Literal['paused'])" in result.stdout
    assert layout.history_file.read_bytes() == history  # diff writes nothing
    same = codegen("diff", "HEAD", str(layout.out), cwd=tmp_path)
    assert same.returncode == 0 and "no change to the public API" in same.stdout
    bad = codegen("diff", "no-such-revision", "HEAD", cwd=tmp_path)
    assert bad.returncode == 2 and "neither a folder nor a git revision" in bad.stderr


def test_the_release_command(aap_base: Layout, tmp_path: Path) -> None:
    layout = clone(aap_base, tmp_path)
    edit_schema(layout, _add_field)
    history = layout.history_file.read_bytes()
    built = codegen("build", cwd=tmp_path)
    assert built.returncode == 0, built.stderr
    assert built.stdout.startswith("## Unreleased (minor, since 0.1.0")
    assert "unreleased minor changes (`codegen release` records 0.1.1)" in built.stderr
    dry = codegen("release", "--dry-run", cwd=tmp_path)
    assert dry.returncode == 0, dry.stderr
    assert dry.stdout.startswith("## 0.1.1 (minor, from 0.1.0)") and "--dry-run" in dry.stderr
    assert layout.history_file.read_bytes() == history and version_of(layout) == "0.1.0"
    done = codegen("release", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "recorded version 0.1.1" in done.stderr and version_of(layout) == "0.1.1"
    assert codegen("build", "--check", cwd=tmp_path).returncode == 0
    nothing = codegen("release", cwd=tmp_path)
    assert nothing.returncode == 1 and "nothing to release" in nothing.stderr
    edit_schema(layout, _remove_field)
    lower = codegen("release", "--level", "patch", cwd=tmp_path)
    assert lower.returncode == 2 and "cannot be released as patch" in lower.stderr
    assert versions(layout) == [("0.1.0", "initial"), ("0.1.1", "minor")]


# -- a real refresh: ACP schema from @agentclientprotocol/sdk 2.0.0 to 2.4.0 -------------------

# counted on each class that has the member, inherited ones too (a subclass of
# SessionMessageChunk loses its two fields with it; SyncAgentConnection gains the methods)
REAL_REFRESH_COUNTS = "8 breaking, 130 added or widened, 584 docs or implementation."
REAL_REFRESH_BREAKING = [
    "`agentproto.acp.unstable.models.SessionMessageChunk.recipient_session_id`: field removed",
    "`agentproto.acp.unstable.models.SessionMessageChunk.sender_session_id`: field removed",
    "`agentproto.acp.unstable.models.SessionUpdateSessionMessageChunk.sender_session_id`: "
    "field removed",
]
REAL_REFRESH_ADDED = [
    "`agentproto.acp.connection.AgentConnection.archive_session`: async def added",
    "`agentproto.acp.connection.ClientConnection.auth_status_update`: async def added",
    "`agentproto.acp.connection.SyncAgentConnection.archive_session`: def added",
    "`agentproto.acp.unstable.models.SessionStatusRequest`: class added",
]


def test_real_acp_refresh_is_classified_as_claimed(tmp_path: Path) -> None:
    layout = only(copy_project(tmp_path / "project"), "acp")
    acp = layout.schemas / "acp"
    vendored = {name: (acp / name).read_bytes() for name in ("schema.v1.json",
                "schema.v1.unstable.json", "SOURCE.md")}  # fmt: skip
    for path in (FIXTURES / "sdk-2.0.0").iterdir():
        shutil.copy(path, acp / path.name)
    # The capability table names methods 2.0.0's schema does not have yet: the older table.
    table = acp / "spec.yaml"
    vendored["spec.yaml"] = table.read_bytes()
    older = yaml.safe_load(table.read_text())
    known = {
        d["x-method"]
        for d in json.loads((acp / "schema.v1.unstable.json").read_text())["$defs"].values()
        if "x-method" in d
    }
    older["capabilities"]["methods"] = {
        k: v for k, v in older["capabilities"]["methods"].items() if k in known
    }
    table.write_text(yaml.safe_dump(older, sort_keys=False))
    assert build(layout).version == "0.1.0"
    shutil.copytree(layout.out, tmp_path / "old")
    for name, data in vendored.items():
        (acp / name).write_bytes(data)
    result = build(layout, release=Release())

    assert result.version == "0.2.0"
    entry = latest_entry(layout)
    assert entry.startswith("## 0.2.0 (major, from 0.1.0)")
    assert (
        "- acp/schema.v1.json: npm `@agentclientprotocol/sdk` 2.0.0, folder `schema/v1/`" in entry
    )
    assert "-> npm `@agentclientprotocol/sdk` 2.4.0, file `schema/v1/schema.json`" in entry
    assert REAL_REFRESH_COUNTS in entry
    for line in [*REAL_REFRESH_BREAKING, *REAL_REFRESH_ADDED]:
        assert f"- {line}" in entry
    # The stable models only had their documentation edited.
    breaking_or_added = entry.split("Docs and implementation (patch):")[0]
    assert "`agentproto.acp.models." not in breaking_or_added
    assert "- docs edited: 575 (`agentproto.acp.models." in entry

    # `codegen diff` on the two folders says the same, without writing.
    shown = codegen("diff", str(tmp_path / "old"), str(layout.out), cwd=layout.root)
    assert shown.returncode == 5, shown.stderr
    assert shown.stdout.split("\n", 1)[1] == entry.split("\n", 1)[1]


def test_inputs_name_their_source_note_and_catch_a_stale_one(tmp_path: Path) -> None:
    folder = tmp_path / "schemas" / "demo"
    folder.mkdir(parents=True)
    (folder / "schema.json").write_text("{}\n")
    sha = hashlib.sha256(b"{}\n").hexdigest()
    note = "| file | origin | version | sha256 |\n|---|---|---|---|\n"
    (folder / "SOURCE.md").write_text(note + f"| schema.json | npm `demo` 1.2.0 | v1 | {sha} |\n")
    assert input_lines(tmp_path / "schemas") == [
        f"demo/schema.json {sha[:12]} npm `demo` 1.2.0 (v1)"
    ]
    (folder / "schema.json").write_text('{"refreshed": true}\n')  # the note not updated
    (line,) = input_lines(tmp_path / "schemas")
    assert line.endswith("[SOURCE.md: sha256 does not match this file; update the note]")


def test_a_lost_history_is_never_restarted_silently(aap_base: Layout, tmp_path: Path) -> None:
    layout = clone(aap_base, tmp_path)
    edit_schema(layout, _add_field)
    build(layout, release=Release())
    layout.history_file.unlink()
    with pytest.raises(BuildError) as error:
        build(layout, force=True)
    assert "history.json" in str(error.value.problems[0]) and "missing" in str(error.value)
    assert version_of(layout) == "0.1.1"
