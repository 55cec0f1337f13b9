"""The vendored test corpus is what its SOURCE note says: every file listed with its sha256,
every listed file present, nothing unlisted (tests never read outside the repository)."""

from __future__ import annotations

import hashlib
import re

from tests.conftest import CORPUS

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
