"""Writing generated/: format, stage in a temporary directory, compare, swap in atomically.

generated/ is only ever replaced whole, by renaming a fully written and formatted staging tree
into place; a failed build leaves it as it was.
"""

from __future__ import annotations

import difflib
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


def read_tree(base: Path) -> dict[str, bytes]:
    """Every file below ``base`` (relative POSIX path → bytes); caches are skipped."""
    if not base.is_dir():
        return {}
    found = {}
    for path in sorted(base.rglob("*")):
        rel = path.relative_to(base)
        if any(part in ("__pycache__", ".mypy_cache", ".ruff_cache") for part in rel.parts):
            continue
        if path.is_file():
            found[rel.as_posix()] = path.read_bytes()
    return found


def tree_digest(files: Mapping[str, bytes]) -> str:
    digest = hashlib.sha256()
    for rel in sorted(files):
        digest.update(rel.encode() + b"\0" + hashlib.sha256(files[rel]).digest())
    return digest.hexdigest()


def format_tree(base: Path) -> None:
    """Sort imports, drop unused ones and format, with the pinned ruff, in two calls."""
    ruff = [sys.executable, "-m", "ruff"]
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
                f"formatting failed: {' '.join(command[2:4])}: "
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
