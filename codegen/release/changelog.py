"""The release history (``release/``) and the ``CHANGELOG.md`` rendered from it.

The history is an input of the build, committed like a lock file: ``release/history.json``
holds one record per released version, oldest first, each with its level (``initial``,
``major``, ``minor``, ``patch``), the digest of the API snapshot it describes, the inputs that
caused it and its changes; ``release/API.released.txt`` is the whole API snapshot of the newest
record (the digest alone cannot be compared with). A build compares the package with that
snapshot and lists the difference as *Unreleased*; only ``codegen release`` appends a record
(and replaces the snapshot). Everything else (the version in ``pyproject.toml`` and
``__init__.py``, CHANGELOG.md) is derived from these two files, so a scratch build from the
same inputs writes the same bytes. They hold no timestamps.

A history is checked whenever it is read: each version must be the previous one bumped by its
level (``codegen.release.semver.bump``); a hand-edited version is an error naming the record.
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from codegen.errors import BuildError
from codegen.release.semver import LEVELS, Change, bump, is_version

HISTORY_FILE = "history.json"
RELEASED_FILE = "API.released.txt"
FORMAT = 1
INITIAL_VERSION = "0.1.0"
_PATCH_SHOWN = 8  # patch-level changes of one kind listed by name before "and N more"
_HEADINGS = {
    "major": "Breaking (major)",
    "minor": "Added or widened (minor)",
    "patch": "Docs and implementation (patch)",
}


@dataclass(frozen=True)
class Record:
    version: str
    level: str  # initial, major, minor, patch
    snapshot: str  # sha256 of the API snapshot without its [inputs] section
    caused_by: tuple[str, ...]
    changes: tuple[str, ...]  # rendered lines, grouped under their level

    def as_json(self) -> dict[str, Any]:
        return {
            "version": self.version,
            "level": self.level,
            "snapshot": self.snapshot,
            "caused_by": list(self.caused_by),
            "changes": list(self.changes),
        }


def _problem(path: Path, pointer: str, reason: str) -> BuildError:
    return BuildError.single(str(path), pointer, reason)


def load(path: Path) -> list[Record] | None:
    """The records of ``path``, oldest first; None when there is no history yet."""
    if not path.is_file():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise _problem(path, "", f"not readable JSON: {exc}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise _problem(path, "/format", f"expected a release history of format {FORMAT}")
    raw = data.get("versions")
    if not isinstance(raw, list) or not raw:
        raise _problem(path, "/versions", "expected a non-empty list of versions")
    records: list[Record] = []
    for index, item in enumerate(raw):
        pointer = f"/versions/{index}"
        if not isinstance(item, dict):
            raise _problem(path, pointer, "expected an object")
        version, level = item.get("version"), item.get("level")
        if not isinstance(version, str) or not is_version(version):
            raise _problem(
                path, f"{pointer}/version", f"not a MAJOR.MINOR.PATCH version: {version!r}"
            )
        if index == 0:
            if level != "initial":
                raise _problem(path, f"{pointer}/level", "the first version's level is 'initial'")
        elif level not in LEVELS:
            raise _problem(path, f"{pointer}/level", f"expected one of {list(LEVELS)}: {level!r}")
        else:
            expected = bump(records[-1].version, level)
            if version != expected:
                raise _problem(
                    path,
                    f"{pointer}/version",
                    f"{version} does not follow {records[-1].version} by a {level} change "
                    f"(expected {expected}); the version is derived, never edited",
                )
        fields: dict[str, Any] = {}
        for key in ("snapshot", "caused_by", "changes"):
            value = item.get(key)
            ok = (
                isinstance(value, str)
                if key == "snapshot"
                else (isinstance(value, list) and all(isinstance(v, str) for v in value))
            )
            if not ok:
                raise _problem(path, f"{pointer}/{key}", "missing or of the wrong type")
            fields[key] = value
        records.append(
            Record(
                version=version,
                level=str(level),
                snapshot=str(fields["snapshot"]),
                caused_by=tuple(fields["caused_by"]),
                changes=tuple(fields["changes"]),
            )
        )
    return records


def dumps(records: list[Record]) -> str:
    data = {"format": FORMAT, "versions": [r.as_json() for r in records]}
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def save(path: Path, records: list[Record]) -> None:
    """Write atomically (temporary file + rename in the same folder)."""
    save_text(path, dumps(records))


def save_text(path: Path, text: str) -> None:
    """Write a file of the release folder atomically (temporary file + rename beside it)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, tmp = tempfile.mkstemp(prefix=".release-", dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="\n") as stream:
            stream.write(text)
        # mkstemp makes the file private (0600); a history is shared like any source file
        os.chmod(tmp, path.stat().st_mode & 0o777 if path.exists() else 0o644)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def change_lines(changes: list[Change]) -> tuple[str, ...]:
    """Changes as changelog lines: major and minor one by one, patch ones grouped by kind."""
    counts = {level: sum(c.level == level for c in changes) for level in LEVELS}
    lines: list[str] = [
        f"{counts['major']} breaking, {counts['minor']} added or widened, "
        f"{counts['patch']} docs or implementation.",
        "",
    ]
    for level in reversed(LEVELS):
        chosen = [c for c in changes if c.level == level]
        if not chosen:
            continue
        lines.append(f"{_HEADINGS[level]}:")
        if level != "patch":
            lines.extend(f"- {c.line()}" for c in chosen)
            continue
        groups: dict[str, list[Change]] = {}
        for change in chosen:  # many alike: counted, the first few named
            grouped = change.what == "docs edited" or change.what.startswith("file ")
            groups.setdefault(change.what if grouped else "other", []).append(change)
        for what, group in sorted(groups.items()):
            if what == "other":
                lines.extend(f"- {c.line()}" for c in group)
                continue
            names = ", ".join(f"`{c.where}`" for c in group[:_PATCH_SHOWN])
            more = f" and {len(group) - _PATCH_SHOWN} more" if len(group) > _PATCH_SHOWN else ""
            lines.append(f"- {what}: {len(group)} ({names}{more})")
    return tuple(lines)


def entry(record: Record, previous: str | None) -> str:
    """One version's section, as CHANGELOG.md and the build's report show it."""
    origin = f", from {previous}" if previous else ""
    out = [f"## {record.version} ({record.level}{origin})", "", "Caused by:"]
    out += [f"- {line}" for line in record.caused_by]
    if record.changes:
        out.append("")
        out += list(record.changes)
    return "\n".join(out) + "\n"


def unreleased_entry(pending: Record, released: str) -> str:
    """The changes since the last release, as CHANGELOG.md and the build's report show them
    (``pending.version`` is what ``codegen release`` would record)."""
    text = entry(pending, None)
    heading = (
        f"## Unreleased ({pending.level}, since {released}: "
        f"`codegen release` records {pending.version})"
    )
    return heading + text[text.index("\n") :]


def render(records: list[Record], package: str, pending: Record | None = None) -> str:
    """CHANGELOG.md: the unreleased changes (if any), then the versions, newest first."""
    out = [
        f"# Changelog of {package}",
        "",
        "Written by codegen from `release/` (do not edit): every build lists the changes to the",
        "public API snapshot (`API.txt`) since the last release under Unreleased, and",
        "`codegen release` records them as one version. Levels: major = breaking, minor =",
        "additions, patch = docs and implementation; below 1.0.0 a breaking change bumps the",
        "minor number.",
        "",
    ]
    if pending is not None:
        out.append(unreleased_entry(pending, records[-1].version))
    for index in range(len(records) - 1, -1, -1):
        previous = records[index - 1].version if index else None
        out.append(entry(records[index], previous))
    return "\n".join(out)
