"""A real, throwaway PostgreSQL server for the test session: never a mock, never a skip.

The binaries are those PyPI's ``pgserver`` wheel ships (pinned in the ``test`` extra, so the
README's test command installs them; no system package, no Docker). The server is started
once per test session with ``initdb`` + ``pg_ctl`` into a fresh folder, listens on
127.0.0.1 on a free port (a real TCP connection, like a networked store), trusts local
connections (user ``postgres``, no password), runs with ``fsync=off`` (a test server: speed
over durability; a *process* restart keeps every committed row, as the tests need) and is
stopped and deleted at the end.

PostgreSQL refuses to run as root. When the tests run as root, the server runs as an
unprivileged user: ``$AGENTPROTO_TEST_PG_USER`` if set, else ``nobody`` (present on every
Linux); its folders are created for that user. A missing ``pgserver`` or a server that does
not start is a test *failure* with the reason and the server's log, never a skip.

Use it from any test module (the fixture is registered in ``tests/conftest.py``)::

    def test_something(postgres: PostgresServer) -> None:
        dsn = postgres.database()          # a fresh, empty database: postgresql://...
        ...

``postgres.database(name)`` creates a database (a unique name when none is given), so tests
and modules do not see each other's tables; ``postgres.dsn`` is the maintenance database.
Outside pytest: ``with start_postgres() as server: ...``.
"""

from __future__ import annotations

import atexit
import importlib.metadata
import importlib.util
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType

import pytest

__all__ = ["PostgresError", "PostgresServer", "postgres", "postgres_binaries", "start_postgres"]

_START_TIMEOUT = 60
_names = itertools.count(1)


class PostgresError(RuntimeError):
    """The throwaway server could not be found, started or used."""


def postgres_binaries() -> Path:
    """The ``bin`` folder of the PostgreSQL that the ``pgserver`` wheel ships (the package
    is located, not imported: importing it has side effects we do not need)."""
    spec = importlib.util.find_spec("pgserver")
    if spec is None or not spec.submodule_search_locations:
        raise PostgresError(
            "pgserver is not installed: pip install -e '.[test]' (it ships PostgreSQL's binaries)"
        )
    binaries = Path(next(iter(spec.submodule_search_locations))) / "pginstall" / "bin"
    if not (binaries / "pg_ctl").is_file():
        raise PostgresError(f"pgserver has no PostgreSQL binaries at {binaries}")
    return binaries


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@dataclass
class PostgresServer:
    """A running server (see the module docstring)."""

    host: str
    port: int
    folder: Path
    binaries: Path
    run_as: pwd.struct_passwd | None
    user: str = "postgres"
    _stopped: bool = field(default=False, repr=False)
    _watchdog: subprocess.Popen[bytes] | None = field(default=None, repr=False)

    @property
    def dsn(self) -> str:
        return self.dsn_for("postgres")

    def dsn_for(self, database: str) -> str:
        return f"postgresql://{self.user}@{self.host}:{self.port}/{database}"

    @property
    def data(self) -> Path:
        return self.folder / "run" / "data"

    @property
    def log(self) -> Path:
        return self.folder / "run" / "server.log"

    def _run(self, *args: str, timeout: float = _START_TIMEOUT) -> subprocess.CompletedProcess[str]:
        kwargs: dict[str, object] = {}
        if self.run_as is not None:
            kwargs = {"user": self.run_as.pw_uid, "group": self.run_as.pw_gid, "extra_groups": []}
        return subprocess.run(  # type: ignore[call-overload, no-any-return]
            [str(self.binaries / args[0]), *args[1:]],
            capture_output=True,
            text=True,
            timeout=timeout,
            cwd=self.folder / "run",
            env={"PATH": "/usr/bin:/bin", "LC_ALL": "C", "TZ": "UTC"},
            check=False,
            **kwargs,
        )

    def database(self, name: str | None = None) -> str:
        """Create a database (``test_<n>`` when no name is given) and return its DSN."""
        name = name or f"test_{os.getpid()}_{next(_names)}"
        if not name.replace("_", "").isalnum():
            raise PostgresError(f"database name {name!r}: letters, digits and underscores only")
        done = self._run(
            "createdb", "-h", self.host, "-p", str(self.port), "-U", self.user, name, timeout=30
        )
        if done.returncode != 0:
            raise PostgresError(f"createdb {name} failed: {done.stderr.strip()}")
        return self.dsn_for(name)

    def stop(self) -> None:
        """Stop the server (immediately: nothing here needs a clean checkpoint) and delete it."""
        if self._stopped:
            return
        self._stopped = True
        try:
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop", timeout=30)
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)
            if self._watchdog is not None:  # it sees the folder gone and ends within a second
                try:
                    self._watchdog.wait(timeout=5)
                except subprocess.TimeoutExpired:
                    self._watchdog.kill()
                    self._watchdog.wait()

    def watch(self) -> None:
        """Start a watchdog that stops the server if this process dies without stopping it
        (SIGKILL, a test worker killed by its controller): the server is a daemon of its own,
        and nothing else would ever stop it. A shell loop, run as the server's user, in a
        session of its own so the signal that ended this process does not end it too."""
        kwargs: dict[str, object] = {}
        if self.run_as is not None:
            kwargs = {"user": self.run_as.pw_uid, "group": self.run_as.pw_gid, "extra_groups": []}
        stop = [str(self.binaries / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "stop"]
        self._watchdog = subprocess.Popen(  # type: ignore[call-overload]
            ["/bin/sh", "-c", _WATCHDOG, "watchdog", str(os.getpid()), str(self.data), *stop],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            cwd="/",
            env={"PATH": "/usr/bin:/bin", "LC_ALL": "C"},
            start_new_session=True,
            **kwargs,
        )

    def __enter__(self) -> PostgresServer:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()


def _unprivileged() -> pwd.struct_passwd | None:
    if os.geteuid() != 0:
        return None
    name = os.environ.get("AGENTPROTO_TEST_PG_USER", "nobody")
    try:
        return pwd.getpwnam(name)
    except KeyError:
        raise PostgresError(
            f"running as root and there is no user {name!r} to run PostgreSQL as: set "
            "AGENTPROTO_TEST_PG_USER to an unprivileged user"
        ) from None


def _reachable_copy(binaries: Path) -> Path:
    """The binaries where an unprivileged user can run them. Installed under root's home (a
    pyenv or a virtualenv in /root, mode 0700), they are not: copy the installation (bin, lib,
    share: about 35 MB, once per machine and pgserver version) into a world-readable folder of
    the temporary directory, and give the copy's ``bin``."""
    install = binaries.parent  # <site-packages>/pgserver/pginstall
    # The binaries find their shared libraries through RPATH $ORIGIN/../../../pgserver.libs:
    # the copy keeps that layout.
    libraries = install.parent.parent / "pgserver.libs"
    version = importlib.metadata.version("pgserver")
    target = Path(tempfile.gettempdir()) / f"agentproto-pgserver-{version}"
    done = target / ".complete"
    if not done.is_file():
        staging = Path(tempfile.mkdtemp(prefix="agentproto-pgserver-", dir=target.parent))
        shutil.copytree(install, staging / "pgserver" / "pginstall", symlinks=True)
        if libraries.is_dir():
            shutil.copytree(libraries, staging / "pgserver.libs", symlinks=True)
        for path in [staging, *staging.rglob("*")]:
            if not path.is_symlink():
                mode = path.stat().st_mode
                path.chmod(mode | 0o044 | (0o011 if path.is_dir() or mode & 0o100 else 0))
        (staging / ".complete").write_text(version)
        if target.exists() and not done.is_file():  # a copy that was cut off
            shutil.rmtree(target, ignore_errors=True)
        try:
            staging.rename(target)
        except OSError:  # another session copied it first
            shutil.rmtree(staging, ignore_errors=True)
        if not done.is_file():
            raise PostgresError(f"could not prepare a copy of PostgreSQL's binaries in {target}")
    return target / "pgserver" / "pginstall" / "bin"


def start_postgres() -> PostgresServer:
    """Initialise and start a server in a new temporary folder (see the module docstring)."""
    binaries = postgres_binaries()
    run_as = _unprivileged()
    if run_as is not None:
        binaries = _reachable_copy(binaries)
    folder = Path(tempfile.mkdtemp(prefix="agentproto-pg-"))
    folder.chmod(0o755)  # the server's user must reach run/ below
    (folder / "run").mkdir()
    if run_as is not None:
        os.chown(folder / "run", run_as.pw_uid, run_as.pw_gid)
    server = PostgresServer("127.0.0.1", _free_port(), folder, binaries, run_as)
    try:
        init = server._run(
            "initdb", "-D", str(server.data), "-U", server.user, "--auth=trust",
            "--encoding=UTF8", "--no-sync",
        )  # fmt: skip
        if init.returncode != 0:
            raise PostgresError(f"initdb failed: {init.stderr.strip() or init.stdout.strip()}")
        options = (
            f"-h {server.host} -p {server.port} -k {folder / 'run'} "
            "-c fsync=off -c synchronous_commit=off -c full_page_writes=off "
            "-c max_connections=200"
        )
        start = server._run(
            "pg_ctl", "-D", str(server.data), "-l", str(server.log), "-o", options,
            "-w", "-t", str(_START_TIMEOUT), "start",
        )  # fmt: skip
        if start.returncode != 0:
            log = server.log.read_text() if server.log.exists() else ""
            raise PostgresError(f"PostgreSQL did not start: {start.stderr.strip()}\n{log[-2000:]}")
    except BaseException:
        server.stop()
        raise
    server.watch()
    atexit.register(server.stop)
    return server


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresServer]:
    """One real PostgreSQL server for the whole test session (see the module docstring)."""
    server = start_postgres()
    try:
        yield server
    finally:
        server.stop()


# $1: the owner's pid, $2: the data folder, then the stop command. The loop ends when the
# owner is gone (stop the server, delete its data) or the data folder is (a normal stop).
_WATCHDOG = """owner=$1 data=$2
shift 2
while [ -d "/proc/$owner" ] && [ -d "$data" ]; do sleep 1; done
if [ -d "$data" ]; then "$@" >/dev/null 2>&1; rm -rf "$data"; fi
"""
