from __future__ import annotations

import fcntl
import gc
import hashlib
import importlib
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import settings

from codegen.pipeline import Layout, build
from tests.support.postgres import postgres  # noqa: F401  (a session fixture: a real PostgreSQL)

ROOT = Path(__file__).resolve().parent.parent
GENERATED = ROOT / "generated"
CORPUS = ROOT / "tests" / "fixtures" / "corpus"
"""Real third-party inputs the suite reads (vendored: see its SOURCE.md)."""
PROTOCOL_FOLDERS: tuple[str, ...] = tuple(
    sorted(p.name for p in (ROOT / "schemas").iterdir() if (p / "spec.yaml").is_file())
)
"""Every protocol of schemas/ (a folder with a spec table): tests derive their lists from it,
so a new protocol is covered without editing them."""
# Tests import the checked-in generated package, exactly as it would be published.
sys.path.insert(0, str(GENERATED))

# Property tests: the suite (and CI) replays the same examples on every run, so a red run is
# never a roll of the dice; `nox -s explore` (HYPOTHESIS_PROFILE=explore) draws new ones.
# A failure found there is pinned with @example.
settings.register_profile("repeatable", derandomize=True, database=None)
settings.register_profile("explore", derandomize=False)
# `nox -s nightly`: the schema round trip (tests/test_schema_roundtrip.py) draws 50 times the
# suite's instances of every type, fresh ones.
settings.register_profile("nightly", derandomize=False)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "repeatable"))


def _interrupted(signum: int, frame: object) -> None:
    raise KeyboardInterrupt(f"stopped by signal {signum}")


# A run stopped with SIGTERM (a CI timeout, `kill`) ends like one stopped with Ctrl-C: the
# fixtures' finalisers run, so the throwaway PostgreSQL and the peers' processes stop too.
if threading.current_thread() is threading.main_thread():
    signal.signal(signal.SIGTERM, _interrupted)


def pytest_configure(config: pytest.Config) -> None:
    """A missing test dependency (a checker, an independent peer) stops the run at once,
    naming the command that installs them all, instead of failing test by test."""
    import re
    import tomllib
    from importlib import metadata

    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    wanted = extras["optional-dependencies"]["test"]
    missing = []
    for requirement in wanted:
        name = re.match(r"[A-Za-z0-9_.\-]+", requirement)
        try:
            metadata.distribution(name[0] if name else requirement)
        except metadata.PackageNotFoundError:
            missing.append(requirement)
    if missing:
        raise pytest.UsageError(
            f"the test suite needs {', '.join(missing)}: "
            'python3 -m pip install -e ".[test]" (from the repository root)'
        )


def copy_project(
    dest: Path, *, release: bool = False, protocols: tuple[str, ...] | None = None
) -> Layout:
    """A scratch copy of the generator's inputs (schemas/, templates/) with an empty output.
    ``release``: copy the release history (release/) too, so the build records the checked-in
    version; without it the copy is a fresh package (first version), which is what a test
    that edits the inputs wants (a changed API over a history needs its previous snapshot).
    ``protocols``: keep only these protocol folders (a build of one protocol takes a fraction
    of the whole one; the release history, which is the whole package's, is never copied)."""
    assert not (release and protocols), "the release history is the whole package's"
    for name in ("schemas", "templates", *(("release",) if release else ())):
        if (ROOT / name).is_dir():
            shutil.copytree(
                ROOT / name,
                dest / name,
                ignore=_other_protocols(protocols) if name == "schemas" and protocols else None,
            )
    return Layout.for_root(dest)


def _other_protocols(keep: tuple[str, ...]) -> Callable[[str, list[str]], set[str]]:
    top = str(ROOT / "schemas")

    def ignore(folder: str, names: list[str]) -> set[str]:
        return {n for n in names if n not in keep} if folder == top else set()

    return ignore


@pytest.fixture(scope="session")
def built_project(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Layout]:
    """A scratch project, built once for the session. Tests must not modify it."""
    layout = copy_project(tmp_path_factory.mktemp("project"), release=True)
    build(layout)
    yield layout


@pytest.fixture(scope="session")
def built_aap(tmp_path_factory: pytest.TempPathFactory) -> Layout:
    """An AAP-only scratch project built once for the session (its first version recorded):
    the smallest real build. Tests must not modify it; ``clone_project`` gives a copy."""
    layout = copy_project(tmp_path_factory.mktemp("aap-built"), protocols=("aap",))
    build(layout)
    return layout


def clone_project(base: Layout, dest: Path) -> Layout:
    """A copy of a built scratch project (inputs, release history and output; its no-op cache,
    which names the folder it was built in, is left behind)."""
    for name in ("schemas", "templates", "release", base.out.name):
        if (base.root / name).is_dir():
            shutil.copytree(base.root / name, dest / name)
    return Layout.for_root(dest)


@pytest.fixture
def project(tmp_path: Path) -> Layout:
    """A fresh scratch project a test may break."""
    return copy_project(tmp_path)


def fds_opened_since(before: set[tuple[int, str]]) -> list[tuple[int, str]]:
    """Descriptors open now that were not in ``before`` (a :func:`fd_set` reading): a
    descriptor an earlier test left to close later is not counted against this one."""
    return sorted(fd_set() - before)


def fd_set() -> set[tuple[int, str]]:
    """This process's open descriptors as (number, what it points to) (Linux: /proc/self/fd;
    macOS: /dev/fd). Garbage is collected first: an fd an earlier test left to the collector
    would otherwise be in one reading and gone from the next."""
    gc.collect()
    for folder in ("/proc/self/fd", "/dev/fd"):
        if os.path.isdir(folder):
            found: set[tuple[int, str]] = set()
            for name in os.listdir(folder):
                try:
                    found.add((int(name), os.readlink(f"{folder}/{name}")))
                except OSError:  # the listing's own descriptor, closed already
                    continue
            return found
    pytest.fail("reading open file descriptors needs /proc/self/fd or /dev/fd")


def threads_left(before: set[threading.Thread], seconds: float = 5.0) -> list[str]:
    """The names of threads started since ``before`` (a set of ``threading.enumerate()``)
    still alive after up to ``seconds``. Compared by identity, never by count: a thread an
    earlier test left behind may end during this one, and a count would then fail (or hide
    a new thread) for a reason that is not this test's."""
    deadline = time.monotonic() + seconds
    while True:
        left = [t for t in threading.enumerate() if t not in before]
        if not left or time.monotonic() > deadline:
            return sorted(t.name for t in left)
        time.sleep(0.02)


def require(module: str, distribution: str) -> ModuleType:
    """Import a test peer the suite needs, or fail naming the command that installs it."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        pytest.fail(f'the tests need {distribution} ({exc}): python3 -m pip install -e ".[test]"')


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
    # Test workers (pytest-xdist) share the folder: one installs while the others wait.
    with (NODE_PEERS / ".npm-ci.lock").open("w") as guard:
        fcntl.flock(guard, fcntl.LOCK_EX)
        _npm_ci(npm, stamp, wanted)
    return NODE_PEERS


def _npm_ci(npm: str, stamp: Path, wanted: str) -> None:
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
