from __future__ import annotations

import gc
import hashlib
import os
import shutil
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import settings

from codegen.pipeline import Layout, build

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
GENERATED = ROOT / "generated"
# Tests import the checked-in generated package, exactly as it would be published.
sys.path.insert(0, str(GENERATED))

# Property tests: the suite (and CI) replays the same examples on every run, so a red run is
# never a roll of the dice; `nox -s explore` (HYPOTHESIS_PROFILE=explore) draws new ones.
# A failure found there is pinned with @example.
settings.register_profile("repeatable", derandomize=True, database=None)
settings.register_profile("explore", derandomize=False)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "repeatable"))


def copy_project(dest: Path, *, release: bool = False) -> Layout:
    """A scratch copy of the generator's inputs (schemas/, templates/) with an empty output.
    ``release``: copy the release history (release/) too, so the build records the checked-in
    version; without it the copy is a fresh package (first version), which is what a test
    that edits the inputs wants (a changed API over a history needs its previous snapshot)."""
    for name in ("schemas", "templates", *(("release",) if release else ())):
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, dest / name)
    return Layout.for_root(dest)


@pytest.fixture(scope="session")
def built_project(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Layout]:
    """A scratch project, built once for the session. Tests must not modify it."""
    layout = copy_project(tmp_path_factory.mktemp("project"), release=True)
    build(layout)
    yield layout


@pytest.fixture
def project(tmp_path: Path) -> Layout:
    """A fresh scratch project a test may break."""
    return copy_project(tmp_path)


def shared_file(*parts: str) -> Path:
    path = SHARED.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"shared corpus not present: {path}")
    return path


def within(seconds: float, work: Callable[[], object]) -> None:
    """Run ``work`` on a daemon thread with the cyclic garbage collector off (so nothing may
    rely on it to release a resource) and fail if it does not finish within ``seconds``: a
    hang becomes a prompt failure instead of a stuck suite. Exceptions are re-raised."""
    errors: list[BaseException] = []

    def run() -> None:
        try:
            work()
        except BaseException as exc:
            errors.append(exc)

    gc.disable()
    try:
        thread = threading.Thread(target=run, daemon=True)
        thread.start()
        thread.join(seconds)
    finally:
        gc.enable()
    assert not thread.is_alive(), f"still running after {seconds} s: a hang"
    if errors:
        raise errors[0]


NODE_PEERS = ROOT / "tests" / "node"


@pytest.fixture(scope="session")
def node_peers() -> Path:
    """``tests/node`` with its npm packages installed (the official TypeScript ACP SDK and
    claude-agent-acp, pinned by its package-lock.json): ``npm ci`` runs once, and again only
    when the lock file changed. A machine without node and npm fails here, saying so."""
    node, npm = shutil.which("node"), shutil.which("npm")
    if node is None or npm is None:
        pytest.fail("these tests run ACP peers with node: install node and npm (node >= 18)")
    lock = (NODE_PEERS / "package-lock.json").read_bytes()
    stamp = NODE_PEERS / "node_modules" / ".agentproto-lock-sha256"
    wanted = hashlib.sha256(lock).hexdigest()
    if not stamp.is_file() or stamp.read_text() != wanted:
        result = subprocess.run(
            [npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"],
            cwd=NODE_PEERS,
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )
        if result.returncode != 0:
            pytest.fail(f"npm ci in {NODE_PEERS} failed:\n{result.stdout}\n{result.stderr}")
        stamp.write_text(wanted)
    return NODE_PEERS
