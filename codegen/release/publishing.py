"""The publishing step of a build: snapshot the API, classify, version, changelog.

Runs on the formatted staging tree, before it is swapped in:

1. derive ``API.txt`` from the staged package (:mod:`codegen.release.snapshot`);
2. read the release history (``release/history.json`` and ``release/API.released.txt``, the
   snapshot of its newest version; :mod:`codegen.release.changelog`);
   - no history yet: this is the initial version (0.1.0), the baseline later changes are
     measured against, recorded by the first build; unless the output folder holds an
     ``API.txt`` (a package with a history that went missing: an error, never a silent reset);
   - the snapshot matches the released one: nothing pending;
   - it differs: classify the difference (:mod:`codegen.release.semver`). A build shows it as
     *Unreleased* (CHANGELOG.md, the report) and records nothing; a release
     (``codegen release``) records it as the next version, at the classified level or a higher
     one it is asked for, and the snapshot becomes the released one;
3. write the version (the newest released one) into the staged ``pyproject.toml`` and
   ``agentproto/__init__.py`` and add ``API.txt`` and ``CHANGELOG.md``.

The caller writes the new history (if any) before swapping the tree in, so an interrupted
release leaves a history that is ahead, never behind: the next build then finds the snapshot
released.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, replace
from pathlib import Path

from codegen.errors import BuildError
from codegen.release.changelog import (
    INITIAL_VERSION,
    Record,
    change_lines,
    entry,
    load,
    render,
    unreleased_entry,
)
from codegen.release.semver import LEVELS, bump, caused_by, compare, overall, rank
from codegen.release.snapshot import SNAPSHOT_FILE, derive, input_lines, parse

CHANGELOG_FILE = "CHANGELOG.md"
PACKAGE = "agentproto"


@dataclass(frozen=True)
class Release:
    """What ``codegen release`` asks for: record the pending changes as a version, at least at
    ``level`` (``None``: the classified level)."""

    level: str | None = None


@dataclass(frozen=True)
class Outcome:
    version: str  # the newest released version (the package's)
    report: str  # the recorded version's entry, else the Unreleased section; empty: no change
    history: list[Record] | None  # the new history to save, None when unchanged
    released: str | None  # the new released snapshot to save, None when unchanged
    pending: Record | None  # the unreleased changes (``version``: what a release records)


def api_digest(snapshot: str) -> str:
    """The snapshot's identity: everything but its [inputs] section (an input edit that does
    not change the package is no new version)."""
    kept: list[str] = []
    skipping = False
    for line in snapshot.splitlines():
        if line.startswith("[") and line.endswith("]"):
            skipping = line == "[inputs]"
        if not skipping:
            kept.append(line)
    return hashlib.sha256("\n".join(kept).encode()).hexdigest()


def _set_version(staging: Path, version: str) -> None:
    for rel, pattern in (
        ("pyproject.toml", r'(?m)^version = "[^"\n]*"$'),
        (f"{PACKAGE}/__init__.py", r'(?m)^__version__ = "[^"\n]*"$'),
    ):
        path = staging / rel
        text = path.read_text(encoding="utf-8")
        left = "version" if rel == "pyproject.toml" else "__version__"
        new, count = re.subn(pattern, f'{left} = "{version}"', text)
        if count != 1:
            raise BuildError.single(
                f"templates/package/{rel}.j2", "", f'expected one `{left} = "..."` line'
            )
        path.write_text(new, encoding="utf-8", newline="\n")


def _protocol_summary(snapshot: str) -> list[str]:
    snap = parse(snapshot)
    return [f"{key}: {value}" for key, value in sorted(snap.protocols.items())] or [
        "no protocol versions recorded"
    ]


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8") if path.is_file() else None
    except UnicodeDecodeError as exc:
        raise BuildError.single(str(path), "", f"not UTF-8 text: {exc}") from None


def released_snapshot(records: list[Record], released_file: Path, out: Path) -> tuple[str, bool]:
    """The snapshot of the newest released version, and whether it was adopted from the output
    folder (a history from before ``API.released.txt`` existed: the build then saves it)."""
    newest = records[-1]
    text = _read(released_file)
    if text is not None:
        if api_digest(text) != newest.snapshot:
            raise BuildError.single(
                str(released_file),
                "",
                f"not the API snapshot of version {newest.version}, the newest in "
                f"{released_file.parent / 'history.json'}: the two are written together by "
                "`codegen release`; restore both with git",
            )
        return text, False
    previous = _read(out / SNAPSHOT_FILE)
    if previous is not None and api_digest(previous) == newest.snapshot:
        return previous, True
    raise BuildError.single(
        str(released_file),
        "",
        f"missing: the API snapshot of version {newest.version}, which every build compares "
        f"the package with; restore it with git (or build once into an output folder whose "
        f"{SNAPSHOT_FILE} is that version's)",
    )


def apply(
    staging: Path,
    out: Path,
    schemas: Path,
    history_file: Path,
    released_file: Path,
    release: Release | None = None,
) -> Outcome:
    """Snapshot, classify and version the staged tree in place (see the module docstring)."""
    from codegen.package.output import read_tree

    files = read_tree(staging)
    files.pop(SNAPSHOT_FILE, None)
    files.pop(CHANGELOG_FILE, None)
    snapshot = derive(files, input_lines(schemas))
    identity = api_digest(snapshot)
    records = load(history_file)
    pending: Record | None = None
    new_history: list[Record] | None = None
    new_released: str | None = None
    if records is None:
        if (out / SNAPSHOT_FILE).is_file():  # never restart a history silently at 0.1.0
            raise BuildError.single(
                str(history_file),
                "",
                f"missing, but {out / SNAPSHOT_FILE} shows a package with a recorded history: "
                f"restore this file (git checkout), or delete {out / SNAPSHOT_FILE} to start "
                f"a new history at {INITIAL_VERSION}",
            )
        record = Record(
            version=INITIAL_VERSION,
            level="initial",
            snapshot=identity,
            caused_by=tuple(_protocol_summary(snapshot)),
            changes=("First recorded API snapshot.",),
        )
        records = new_history = [record]
        new_released = snapshot
        report = entry(record, None)
    else:
        released, adopted = released_snapshot(records, released_file, out)
        if adopted:
            new_released = released
        if records[-1].snapshot != identity:
            old, new = parse(released), parse(snapshot)
            changes = compare(old, new)
            level = overall(changes) or "patch"
            pending = Record(
                version=bump(records[-1].version, level),
                level=level,
                snapshot=identity,
                caused_by=tuple(caused_by(old, new)),
                changes=change_lines(changes) or ("Patch: the snapshot was rewritten.",),
            )
        if release is not None and pending is not None:
            wanted = release.level or pending.level
            if wanted not in LEVELS or rank(wanted) < rank(pending.level):
                raise BuildError.single(
                    "--level",
                    "",
                    f"the unreleased changes are {pending.level}: they cannot be released "
                    f"as {wanted} (only a higher level may be asked for)",
                )
            record = replace(pending, level=wanted, version=bump(records[-1].version, wanted))
            records = new_history = [*records, record]
            new_released = snapshot
            pending = None
            report = entry(record, records[-2].version)
        else:
            report = unreleased_entry(pending, records[-1].version) if pending else ""
    version = records[-1].version
    _set_version(staging, version)
    (staging / SNAPSHOT_FILE).write_text(snapshot, encoding="utf-8", newline="\n")
    (staging / CHANGELOG_FILE).write_text(
        render(records, PACKAGE, pending), encoding="utf-8", newline="\n"
    )
    return Outcome(
        version=version,
        report=report,
        history=new_history,
        released=new_released,
        pending=pending,
    )


# -- codegen diff OLD NEW --------------------------------------------------------------------

DIFF_EXIT = {None: 0, "patch": 3, "minor": 4, "major": 5}


def _git(root: Path, *args: str) -> bytes:
    import subprocess

    result = subprocess.run(["git", "-C", str(root), *args], capture_output=True, check=False)
    if result.returncode != 0:
        raise BuildError.single(
            " ".join(args), "", (result.stderr.decode(errors="replace").strip() or "git failed")
        )
    return result.stdout


class _Side:
    """One side of ``codegen diff``: a generated folder (or a project holding one) or a git
    revision of the project. Gives its ``API.txt`` if it has one, else derives the API from
    the package sources (older revisions predate the snapshot)."""

    def __init__(self, spec: str, root: Path, out: Path) -> None:
        self.spec = spec
        self.root = root
        self.folder: Path | None = None
        self.rel = (
            out.resolve().relative_to(root.resolve()).as_posix()
            if out.is_relative_to(root)
            else "generated"
        )
        path = Path(spec)
        if path.is_dir():
            for candidate in (path, path / "generated"):
                if (candidate / SNAPSHOT_FILE).is_file() or (candidate / PACKAGE).is_dir():
                    self.folder = candidate
                    break
            else:
                raise BuildError.single(
                    spec, "", "no generated package here (no API.txt, no agentproto/)"
                )
        else:
            try:
                _git(root, "rev-parse", "--verify", "--quiet", f"{spec}^{{commit}}")
            except BuildError:
                raise BuildError.single(
                    spec, "", f"neither a folder nor a git revision of {root}"
                ) from None

    def snapshot_file(self) -> str | None:
        if self.folder is not None:
            path = self.folder / SNAPSHOT_FILE
            try:
                return path.read_text(encoding="utf-8") if path.is_file() else None
            except UnicodeDecodeError as exc:
                raise BuildError.single(str(path), "", f"not UTF-8 text: {exc}") from None
        listed = _git(self.root, "ls-tree", "--name-only", self.spec, f"{self.rel}/{SNAPSHOT_FILE}")
        if not listed.strip():
            return None
        return _git(self.root, "show", f"{self.spec}:./{self.rel}/{SNAPSHOT_FILE}").decode("utf-8")

    def derived(self) -> str:
        from codegen.package.output import read_tree

        if self.folder is not None:
            files = read_tree(self.folder)
        else:
            import io
            import tarfile

            archive = _git(self.root, "archive", "--format=tar", self.spec, self.rel)
            files = {}
            with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
                for member in tar.getmembers():
                    handle = tar.extractfile(member) if member.isfile() else None
                    if handle is not None:
                        files[member.name.removeprefix(f"{self.rel}/")] = handle.read()
        files.pop(SNAPSHOT_FILE, None)
        files.pop(CHANGELOG_FILE, None)
        try:
            return derive(files)
        except (SyntaxError, UnicodeDecodeError) as exc:  # not a package this generator wrote
            raise BuildError.single(self.spec, "", f"cannot read its package: {exc}") from None


def diff(old_spec: str, new_spec: str, root: Path, out: Path) -> tuple[str | None, str]:
    """(level, report) between two generated packages; writes nothing."""
    old, new = _Side(old_spec, root, out), _Side(new_spec, root, out)
    old_text, new_text = old.snapshot_file(), new.snapshot_file()
    if old_text is None or new_text is None:  # compare like with like: both from sources
        old_text, new_text = old.derived(), new.derived()
    try:
        before, after = parse(old_text), parse(new_text)
    except ValueError as exc:  # a hand-edited API.txt
        raise BuildError.single(SNAPSHOT_FILE, "", f"not an API snapshot: {exc}") from None
    changes = compare(before, after)
    level = overall(changes)
    if not changes and api_digest(old_text) == api_digest(new_text):
        return None, f"## {old_spec} -> {new_spec}: no change to the public API\n"
    record = Record(
        version=new_spec,
        level=level or "patch",
        snapshot="",
        caused_by=tuple(caused_by(before, after)),
        changes=change_lines(changes),
    )
    return level or "patch", entry(record, old_spec)
