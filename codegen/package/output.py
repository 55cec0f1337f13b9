"""Writing generated/: format, stage in a temporary directory, compare, swap in atomically.

generated/ is only ever replaced whole, by renaming a fully written and formatted staging tree
into place; a failed build leaves it as it was.
"""

from __future__ import annotations

import difflib
import fnmatch
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Mapping
from pathlib import Path

from codegen.errors import BuildError


def write_tree(base: Path, files: Mapping[str, str]) -> None:
    for rel, text in sorted(files.items()):
        path = base / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8", newline="\n")


# What a user's own tools leave in generated/ (``pip install -e``, ``python -m build``, test
# and checker runs). Listed in generated/.gitignore; neither drift nor deleted by a build.
CACHES = ("__pycache__", ".mypy_cache", ".ruff_cache", ".pytest_cache")  # at any depth
ARTEFACTS = ("build", "dist", "*.egg-info", ".venv", ".nox", ".tox")  # at the top


def is_artefact(rel: Path) -> bool:
    """Is ``rel`` (relative to generated/) a cache or build artefact, not package content?"""
    if any(part in CACHES for part in rel.parts):
        return True
    return bool(rel.parts) and any(fnmatch.fnmatch(rel.parts[0], p) for p in ARTEFACTS)


def gitignore() -> str:
    """generated/.gitignore: the artefacts and caches above."""
    names = [f"/{p}/" for p in ARTEFACTS] + [f"{c}/" for c in CACHES]
    return "# Written by codegen: build artefacts and caches, never part of the package.\n" + (
        "\n".join(names) + "\n"
    )


def read_tree(base: Path) -> dict[str, bytes]:
    """Every file below ``base`` (relative POSIX path → bytes); caches and build artefacts
    are skipped."""
    if not base.is_dir():
        return {}
    found = {}
    for path in sorted(base.rglob("*")):
        rel = path.relative_to(base)
        if is_artefact(rel):
            continue
        if path.is_file():
            found[rel.as_posix()] = path.read_bytes()
    return found


def tree_digest(files: Mapping[str, bytes]) -> str:
    digest = hashlib.sha256()
    for rel in sorted(files):
        digest.update(rel.encode() + b"\0" + hashlib.sha256(files[rel]).digest())
    return digest.hexdigest()


def _ruff() -> list[str]:
    """The pinned ruff's binary, found as ``python -m ruff`` finds it, without that
    interpreter's start (0.07 s of CPU a call); that entry point if the finder is missing."""
    import importlib

    try:
        find = getattr(importlib.import_module("ruff"), "find_ruff_bin", None)
        return [os.fsdecode(find())] if callable(find) else [sys.executable, "-m", "ruff"]
    except (ImportError, FileNotFoundError):
        return [sys.executable, "-m", "ruff"]


def format_tree(base: Path) -> None:
    """Sort imports, drop unused ones and format, with the pinned ruff, in two calls."""
    ruff = _ruff()
    steps = (
        [
            *ruff,
            "check",
            "--fix",
            "--select",
            "I,F401",
            "--no-cache",
            "--quiet",
            "--exit-zero",
            ".",
        ],
        [*ruff, "format", "--no-cache", "--quiet", "."],
    )
    for command in steps:
        result = subprocess.run(command, cwd=base, capture_output=True, text=True, check=False)
        if result.returncode != 0:
            raise BuildError.single(
                "generated/",
                "",
                f"formatting failed: ruff {command[len(ruff)]}: "
                f"{(result.stderr or result.stdout).strip()[:2000]}",
            )


def stage(files: Mapping[str, str], parent: Path | None = None) -> Path:
    """Write and format ``files`` into a new temporary directory; returns it."""
    staging = Path(tempfile.mkdtemp(prefix=".generated-staging-", dir=parent))
    try:
        write_tree(staging, files)
        format_tree(staging)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return staging


def unified_diff(old: Mapping[str, bytes], new: Mapping[str, bytes], label: str) -> str:
    """A unified diff of two trees (``a/`` is what is on disk, ``b/`` what a build writes)."""
    chunks: list[str] = []
    for rel in sorted(set(old) | set(new)):
        before, after = old.get(rel), new.get(rel)
        if before == after:
            continue
        a = (before or b"").decode("utf-8", "replace").splitlines(keepends=True)
        b = (after or b"").decode("utf-8", "replace").splitlines(keepends=True)
        chunks.extend(
            difflib.unified_diff(
                a,
                b,
                fromfile=f"a/{label}/{rel}" if before is not None else "/dev/null",
                tofile=f"b/{label}/{rel}" if after is not None else "/dev/null",
            )
        )
    return "".join(line if line.endswith("\n") else line + "\n" for line in chunks)


def swap_in(staging: Path, target: Path) -> None:
    """Replace ``target`` by ``staging`` with renames on one file system.

    The old tree is moved aside first and restored if the second rename fails, so ``target``
    is either the old tree or the new one, never a mix.
    """
    backup = None
    if target.exists():
        backup = Path(tempfile.mkdtemp(prefix=".generated-old-", dir=target.parent))
        os.rmdir(backup)
        os.rename(target, backup)
    try:
        os.rename(staging, target)
    except BaseException:
        if backup is not None:
            os.rename(backup, target)
        raise
    if backup is not None:
        for entry in sorted(backup.iterdir()):  # the user's artefacts stay where they were
            if is_artefact(Path(entry.name)) and not (target / entry.name).exists():
                os.rename(entry, target / entry.name)
        shutil.rmtree(backup, ignore_errors=True)


def format_text(text: str) -> str:
    """Format one module the way :func:`format_tree` formats generated/ (for fixtures)."""
    with tempfile.TemporaryDirectory(prefix="codegen-format-") as tmp:
        base = Path(tmp)
        (base / "pyproject.toml").write_text(
            '[tool.ruff]\nline-length = 100\ntarget-version = "py311"\n'
        )
        (base / "module.py").write_text(text, encoding="utf-8")
        format_tree(base)
        return (base / "module.py").read_text(encoding="utf-8")
