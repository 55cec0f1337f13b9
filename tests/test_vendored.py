"""Vendored files are what their SOURCE notes say: every row of every file table of every
SOURCE.md under tests/fixtures/ and schemas/ names a file that is there with that sha256; the
test corpus also lists every file it holds (tests never read outside the repository)."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pytest

from tests.conftest import CORPUS, ROOT

ROW = re.compile(
    r"^\| (?P<file>[^|]+?) \| (?P<origin>[^|]+?) \| (?P<licence>[^|]+?)"
    r" \| (?P<sha>[0-9a-f]{64}) \|$"
)


def test_every_vendored_file_matches_its_source_row() -> None:
    rows = {}
    for line in (CORPUS / "SOURCE.md").read_text(encoding="utf-8").splitlines():
        match = ROW.match(line)
        if match:
            rows[match["file"]] = match
    files = sorted(
        p.relative_to(CORPUS).as_posix()
        for p in CORPUS.rglob("*")
        if p.is_file() and p.name != "SOURCE.md"
    )
    assert files == sorted(rows), "a file without a SOURCE.md row, or a row without its file"
    for name, row in rows.items():
        data = (CORPUS / name).read_bytes()
        assert hashlib.sha256(data).hexdigest() == row["sha"], f"{name}: sha256 differs"
        assert row["origin"].strip() and row["licence"].strip()
    assert len(rows) == 4  # the 4 invalid manifests


NOTES = sorted(
    p.relative_to(ROOT).as_posix()
    for folder in ("tests/fixtures", "schemas")
    for p in (ROOT / folder).rglob("SOURCE.md")
)
SHA = re.compile(r"([0-9a-f]{64})\b")


def file_rows(note: Path) -> list[tuple[str, str]]:
    """``(file, sha256)`` of each row of the note's tables whose first column is ``file``
    (the sha256 cell may say more after the hash: ``<sha> (upstream as stored: ...)``)."""
    rows: list[tuple[str, str]] = []
    header: list[str] | None = None
    for line in note.read_text(encoding="utf-8").splitlines():
        if not line.startswith("|"):
            header = None
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if header is None:
            header = [c.lower() for c in cells]
            continue
        if header[0] != "file" or set("".join(cells)) <= set("-: "):
            continue
        column = next(i for i, name in enumerate(header) if "sha256" in name)
        found = SHA.match(cells[column])
        assert found, f"{note.name}: {cells[0]}: no sha256 in its row"
        rows.append((cells[0].strip("`"), found[1]))
    return rows


@pytest.mark.parametrize("note", NOTES)
def test_every_source_row_names_a_file_with_its_sha256(note: str) -> None:
    path = ROOT / note
    rows = file_rows(path)
    assert rows, f"{note}: no file table"
    wrong = []
    for name, sha in rows:
        target = path.parent / name
        if not target.is_file():
            wrong.append(f"{name}: missing")
        elif hashlib.sha256(target.read_bytes()).hexdigest() != sha:
            wrong.append(f"{name}: sha256 differs")
    assert wrong == []


def test_every_source_note_is_checked() -> None:
    assert "tests/fixtures/ai-protocol-compliance/SOURCE.md" in NOTES
    assert "tests/fixtures/acp_auth/SOURCE.md" in NOTES
    assert len(NOTES) == 14  # ... and tests/fixtures/tls (a throwaway certificate)
